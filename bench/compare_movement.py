"""Compare movement ranges between two versions of the engine on seeded random maps.

    python bench/compare_movement.py [--old main] [--new .] [--maps 1500] [--queries 6]
                                     [--seed 0] [--show 5]

Each version's ``sodwa_editor`` package (``git archive REV``; ``.`` = this working
tree as it is) runs this same file in a child process (``--dump``) with that package
first on ``PYTHONPATH``.  Both children build the same seeded random maps with the
map-model API alone (terrain, several levels, transition borders and tiles including
stairs two tiles wide and the odd wall flagged as a stair, hindering and Obstructing
borders, Indoor/Outdoor maps and overrides, destroyed Obstructing borders and tiles,
objects, characters of both teams, some flying) and ask ``movement.reach`` the same
queries (starts on characters, on transition tiles, on hindering tiles and anywhere;
Move, team and flight drawn).  The parent checks that both saw identical maps and
queries, then counts the queries and tiles whose result (steps or ``must_stop``)
changed.  Slow-ish (numba compiles each version once); not part of the test suite.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import pickle
import subprocess
import sys
import tarfile
import tempfile
from collections import Counter
from io import BytesIO
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
IMP, OBS, DIF, LIQ = 1, 2, 3, 4  # built-in terrain ids (engine/terrain.py Base)


# ------------------------------------------------------------------ maps (child)
def random_map(seed: int) -> Any:
    """A seeded random map built with the model API both versions share."""
    from sodwa_editor.engine.model import Character, Edge, MapModel, MapObject

    rng = np.random.default_rng(seed)
    w, h = (int(v) for v in rng.integers(6, 13, size=2))
    m = MapModel(w, h, setting=str(rng.choice(["outdoor", "indoor"])))  # type: ignore[arg-type]
    r = rng.random((h, w))
    m.terrain[r < 0.12] = IMP
    m.terrain[(r >= 0.12) & (r < 0.20)] = OBS
    m.terrain[(r >= 0.20) & (r < 0.26)] = DIF
    m.terrain[(r >= 0.26) & (r < 0.30)] = LIQ
    for _ in range(int(rng.integers(1, 4))):  # raised rectangles, one level each
        x0, y0 = int(rng.integers(0, w - 1)), int(rng.integers(0, h - 1))
        x1, y1 = int(rng.integers(x0 + 1, w + 1)), int(rng.integers(y0 + 1, h + 1))
        m.elevation[y0:y1, x0:x1] += 1
    for side, trans, border, indoor in (("E", m.transition_e, m.border_e, m.indoor_e),
                                        ("S", m.transition_s, m.border_s, m.indoor_s)):
        ea, eb = ((m.elevation[:, :-1], m.elevation[:, 1:]) if side == "E"
                  else (m.elevation[:-1, :], m.elevation[1:, :]))
        trans[(ea != eb) & (rng.random(trans.shape) < 0.35)] = True
        bm = rng.random(border.shape) < 0.08
        border[bm] = rng.choice(np.array([IMP, OBS, DIF, LIQ], np.uint8), size=int(bm.sum()))
        border[trans & (border == OBS)] = DIF  # a wall on a stair is a file error
        indoor[:] = np.where(rng.random(indoor.shape) < 0.2,
                             rng.integers(0, 2, size=indoor.shape), -1)
        for y, x in zip(*np.nonzero(trans), strict=True):  # stair tiles at the border
            tiles = [(x, y), (x + 1, y) if side == "E" else (x, y + 1)]
            for tx, ty in tiles:
                if rng.random() < 0.5:
                    m.transition[ty, tx] = True
                    if rng.random() < 0.3:  # two tiles wide
                        nx, ny = (tx, ty + 1) if side == "E" else (tx + 1, ty)
                        if nx < w and ny < h:
                            m.transition[ny, nx] = True
    m.transition[rng.random((h, w)) < 0.02] = True  # stray stairs, walls included
    m.tile_indoor[:] = np.where(rng.random((h, w)) < 0.2, rng.integers(0, 2, size=(h, w)), -1)
    m.notify_bulk_change()
    for side, border in (("E", m.border_e), ("S", m.border_s)):
        for y, x in zip(*np.nonzero(border == OBS), strict=True):
            if rng.random() < 0.2:
                m.destroy_obstruction_border(Edge(int(x), int(y), side))
    for y, x in zip(*np.nonzero(m.terrain == OBS), strict=True):
        if rng.random() < 0.1:
            m.destroy_obstruction_tile(int(x), int(y))
    free = [(x, y) for y in range(h) for x in range(w) if m.terrain[y, x] != OBS]
    order = rng.permutation(len(free))
    n_chars = int(rng.integers(2, 7))
    for i, k in enumerate(order[:n_chars].tolist()):
        x, y = free[k]
        m.put_character(Character(f"c{i}", str(rng.choice(["red", "blue"])), x, y,
                                  move=int(rng.integers(0, 9)),
                                  flight=bool(rng.random() < 0.25)))
    for i, k in enumerate(order[n_chars : n_chars + 2].tolist()):
        x, y = free[k]
        m.put_object(MapObject(f"o{i}", "crate", x, y))
    return m


def fingerprint(m: Any) -> str:
    h = hashlib.sha256()
    for a in (m.terrain, m.elevation, m.transition, m.border_e, m.border_s, m.transition_e,
              m.transition_s, m.tile_indoor, m.indoor_e, m.indoor_s):
        h.update(np.ascontiguousarray(a).tobytes())
    h.update(repr(sorted((c.id, c.team, c.x, c.y, c.move, c.flight)
                         for c in m.characters.values())).encode())
    h.update(repr(sorted((o.x, o.y) for o in m.objects.values())).encode())
    h.update(m.setting.encode())
    return h.hexdigest()


def queries(m: Any, seed: int, k: int) -> list[tuple]:
    """``k`` queries ``(start, move, team, flight, kind)``; ``move`` None = the defaults
    of the character on ``start``."""
    rng = np.random.default_rng(seed + 1_000_003)
    walls = m.terrain == OBS
    hinder = np.isin(m.terrain, [IMP, DIF, LIQ]) & ~walls
    pools = {"transition": m.transition & ~walls, "hindering": hinder & ~m.transition,
             "any": ~walls}
    out: list[tuple] = []
    chars = sorted(m.characters.values(), key=lambda c: c.id)
    for i in range(k):
        if i == 0 and chars:
            c = chars[int(rng.integers(0, len(chars)))]
            out.append(((c.x, c.y), None, None, None, "character"))
            continue
        kind = ("transition", "hindering", "any")[min(i - 1, 2)] if i < 3 else "any"
        ys, xs = np.nonzero(pools[kind])
        if len(xs) == 0:
            kind, (ys, xs) = "any", np.nonzero(pools["any"])
        j = int(rng.integers(0, len(xs)))
        team = [None, "red", "blue"][int(rng.integers(0, 3))]
        out.append(((int(xs[j]), int(ys[j])), int(rng.integers(0, 9)), team,
                    bool(rng.random() < 0.3), kind))
    return out


def start_kind(m: Any, start: tuple[int, int]) -> str:
    x, y = start
    if m.transition[y, x]:
        return "a transition tile"
    return "other hindering terrain" if m.terrain[y, x] in (IMP, DIF, LIQ) else "other terrain"


def flying(m: Any, q: tuple) -> bool:
    if q[3] is not None:
        return bool(q[3])
    c = m.character_at(*q[0])
    return bool(c is not None and c.flight)


def dump(n_maps: int, n_queries: int, seed: int, out: Path) -> None:
    """Child: run every query with the ``sodwa_editor`` found first on the path."""
    import sodwa_editor
    from sodwa_editor.engine.movement import reach

    results = []
    for i in range(n_maps):
        m = random_map(seed + i)
        qs = queries(m, seed + i, n_queries)
        rows = []
        for start, move, team, flight, _kind in qs:
            r = reach(m, start, move, team=team, flight=flight)
            rows.append((r.steps.copy(), r.must_stop.copy()))
        results.append((fingerprint(m), [(*q, start_kind(m, q[0]), flying(m, q))
                                         for q in qs], rows))
    with out.open("wb") as f:
        pickle.dump({"package": sodwa_editor.__file__, "results": results}, f)


# ------------------------------------------------------------------- parent
def package_dir(rev: str, tmp: Path) -> Path:
    """A directory holding ``rev``'s ``sodwa_editor`` (``.`` = this working tree)."""
    if rev == ".":
        return ROOT
    done = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", rev,
                           "sodwa_editor"], capture_output=True)
    if done.returncode:
        raise SystemExit(f"compare_movement: cannot read revision {rev!r}: "
                         f"{done.stderr.decode(errors='replace').strip()}")
    data = done.stdout
    dest = tmp / rev.replace("/", "_")
    with tarfile.open(fileobj=BytesIO(data)) as tar:
        tar.extractall(dest, filter="data")
    return dest


def run_version(rev: str, args: argparse.Namespace, tmp: Path) -> dict:
    where = package_dir(rev, tmp)
    out = tmp / f"{rev.replace('/', '_')}.pickle"
    env = dict(os.environ, PYTHONPATH=str(where))
    subprocess.run([sys.executable, str(Path(__file__).resolve()), "--dump", str(out),
                    "--maps", str(args.maps), "--queries", str(args.queries),
                    "--seed", str(args.seed)], check=True, env=env, cwd=where)
    with out.open("rb") as f:
        data = pickle.load(f)
    if not str(data["package"]).startswith(str(where)):
        raise SystemExit(f"{rev}: imported {data['package']}, not the copy in {where}")
    return data


ORDER = ("maps", "queries", "tiles", "reachable old", "reachable new", "changed queries",
         "  start on a transition tile", "  start on other hindering terrain",
         "  start on other terrain", "  of them flying", "changed tiles",
         "  no longer reachable", "  newly reachable", "  other step count",
         "  must stop now", "  no longer must stop")


def compare(old: dict, new: dict, show: int, seed: int) -> Counter:
    n: Counter = Counter()
    shown = 0
    for i, ((fp_a, qs_a, rows_a), (fp_b, qs_b, rows_b)) in enumerate(
            zip(old["results"], new["results"], strict=True)):
        if fp_a != fp_b or qs_a != qs_b:
            raise SystemExit(f"map {i}: the two versions built different maps or queries")
        n["maps"] += 1
        for q, (sa, ma), (sb, mb) in zip(qs_a, rows_a, rows_b, strict=True):
            n["queries"] += 1
            n["tiles"] += sa.size
            n["reachable old"] += int((sa >= 0).sum())
            n["reachable new"] += int((sb >= 0).sum())
            diff = (sa != sb) | (ma != mb)
            if not diff.any():
                continue
            n["changed queries"] += 1
            n[f"  start on {q[5]}"] += 1
            n["  of them flying"] += int(q[6])
            n["changed tiles"] += int(diff.sum())
            n["  no longer reachable"] += int(((sa >= 0) & (sb < 0)).sum())
            n["  newly reachable"] += int(((sa < 0) & (sb >= 0)).sum())
            both = (sa >= 0) & (sb >= 0)
            n["  other step count"] += int((both & (sa != sb)).sum())
            n["  must stop now"] += int((both & (sa == sb) & ~ma & mb).sum())
            n["  no longer must stop"] += int((both & (sa == sb) & ma & ~mb).sum())
            if shown < show:
                shown += 1
                ys, xs = np.nonzero(diff)
                tiles = ", ".join(f"({x},{y}) {sa[y, x]}{'s' if ma[y, x] else ''}->"
                                  f"{sb[y, x]}{'s' if mb[y, x] else ''}"
                                  for x, y in zip(xs.tolist()[:6], ys.tolist()[:6], strict=True))
                print(f"  map seed {seed + i} start {q[0]} move {q[1]} team {q[2]} flight {q[3]} "
                      f"(start on {q[5]}): {tiles}")
    return n


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--old", default="main", help="git revision (default main)")
    p.add_argument("--new", default=".", help="git revision, '.' = working tree (default)")
    p.add_argument("--maps", type=int, default=1500)
    p.add_argument("--queries", type=int, default=6, help="queries per map (default 6)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--show", type=int, default=5, help="changed queries to print")
    p.add_argument("--dump", type=Path, help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.dump is not None:
        dump(args.maps, args.queries, args.seed, args.dump)
        return 0
    with tempfile.TemporaryDirectory() as tmpdir:
        tmp = Path(tmpdir)
        old, new = run_version(args.old, args, tmp), run_version(args.new, args, tmp)
    print(f"old {args.old}, new {args.new}, seeds {args.seed}..{args.seed + args.maps - 1}"
          " (s = must stop):")
    n = compare(old, new, args.show, args.seed)
    for key in ORDER:
        print(f"{key:34} {n[key]:>9,}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
