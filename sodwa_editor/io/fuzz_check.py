"""The check one fuzz case goes through (the cases: :mod:`.fuzz`).

:func:`check_case` feeds a case to the loaders (``sodwa validate``'s
``read_any``, the editor's ``read_map``, ``read_pack`` / ``load_pack``), prints
every problem as ``sodwa validate`` does, then runs every engine query the
editor's previews and docks make (LoS fan, single LoS, reach from a character
and from a tile with a Move, the path to a tile, the adjacency graph, pair
classes, blocked pairs, regions; a large creature's range and LoS fan) and a
save/load round trip (a ``ValueError`` from ``reach`` for a negative Move is
expected: its callers show it).  Its outcome is
``ok``, ``refused`` (a clean refusal: problems with errors, or one of our
documented errors, :class:`MapLoadError` / :class:`MapSaveError`) or
``failure`` (any other exception, or a round trip that changes the map).
Hangs, memory use and signals are caught by :mod:`.fuzz_runner`, which runs the
cases in a separate process with limits.
"""

from __future__ import annotations

import json
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .fuzz import PREVIEW_MOVES

OK, REFUSED, FAILURE = "ok", "refused", "failure"


class CaseFailure(Exception):
    """A check that found a bug without an exception (e.g. a changed round trip)."""


@dataclass
class Outcome:
    outcome: str
    stage: str = ""
    kind: str = ""
    detail: str = ""

    def to_json(self) -> dict[str, str]:
        return {"outcome": self.outcome, "stage": self.stage, "kind": self.kind,
                "detail": self.detail}


def failure_kind(stage: str, exc: BaseException) -> str:
    """A short, stable name of a failure: stage, exception type and the innermost
    frame in this package (``reach: ValueError at engine/movement.py:reach``)."""
    if isinstance(exc, CaseFailure):
        return f"{stage}: {exc}"
    where = ""
    for frame in traceback.extract_tb(exc.__traceback__):
        short = frame.filename.replace("\\", "/").rpartition("sodwa_editor/")[2]
        if "sodwa_editor" in frame.filename and short != "io/fuzz_check.py":
            where = f" at {short}:{frame.name}"
    return f"{stage}: {type(exc).__name__}{where}"


def check_case(data: bytes, workdir: str) -> dict[str, str]:
    """Run one case through the loaders, the preview queries and a round trip; the
    :class:`Outcome` as a dict.  ``workdir`` is a private folder for the files."""
    from .problems import MapLoadError, MapSaveError

    state = {"stage": "write"}
    try:
        return _check(data, Path(workdir), state).to_json()
    except (MapLoadError, MapSaveError) as exc:
        return Outcome(REFUSED, state["stage"], f"{state['stage']}: {type(exc).__name__}",
                       str(exc)[:300]).to_json()
    except Exception as exc:  # noqa: BLE001 - every other exception is a finding
        tb = "".join(traceback.format_exception(exc))
        return Outcome(FAILURE, state["stage"], failure_kind(state["stage"], exc),
                       tb[-4000:]).to_json()


def _check(data: bytes, work: Path, state: dict[str, str]) -> Outcome:
    from .files import read_map
    from .packs import load_pack, read_any, read_pack, save_pack

    src = work / "case.json"
    src.write_bytes(data)
    state["stage"] = "validate"
    kind, problems = read_any(src)
    state["stage"] = "validate-print"
    _print_like_validate(problems)
    if kind == "pack":
        state["stage"] = "read_pack"
        pack, problems = read_pack(src)
        if pack is None or any(p.is_error for p in problems):
            return _refused(problems, "read_pack")
        state["stage"] = "load_pack"
        _meta, models = load_pack(src)
        for each in models[:2]:
            _queries(each, work, state)
        state["stage"] = "save_pack"
        save_pack(pack, work / "out-pack.json")
        saved, problems = read_pack(work / "out-pack.json")
        if saved is None or any(p.is_error for p in problems):
            raise CaseFailure("a saved pack does not load again")
        return Outcome(OK)
    state["stage"] = "read_map"
    model, problems = read_map(src)
    if model is None:
        return _refused(problems, "read_map")
    _queries(model, work, state)
    return Outcome(OK)


def _refused(problems: list, stage: str) -> Outcome:
    errors = [p for p in problems if p.is_error]
    if not errors:
        raise CaseFailure("no map and no error problem")
    first = errors[0]
    return Outcome(REFUSED, stage, f"{stage}: {first.code or 'problem'}", first.message[:300])


def _print_like_validate(problems: list) -> None:
    """What ``sodwa validate`` writes for the problems (text and ``--json``), encoded
    as its UTF-8 standard output would encode it."""
    for p in problems:
        f"  {p.severity}: {p.location()}: {p.message}\n".encode()
        str(p).encode()
        json.dumps(p.to_json()).encode()


def _queries(model: Any, work: Path, state: dict[str, str]) -> None:
    """Every query the editor's previews and docks make on an open map, then a save
    and a load of what was saved."""
    from ..engine.adjacency import blocked_pairs, pair_classes
    from ..engine.adjacency_graph import AdjacencyGraph
    from ..engine.los import los, los_fan
    from ..engine.movement import reach
    from ..engine.regions import regions
    from .files import read_map, save_map

    w, h = model.width, model.height
    tiles = list(dict.fromkeys([(0, 0), (w // 2, h // 2), (w - 1, h - 1)]))
    chars = sorted(model.characters.values(), key=lambda c: c.id)[:3]
    for x, y in tiles + [(c.x, c.y) for c in chars if model.in_bounds(c.x, c.y)]:
        state["stage"] = "los_fan"
        los_fan(model, (x, y))
        state["stage"] = "los"
        los(model, (x, y), (w - 1 - x, h - 1 - y))
    for c in chars:
        if not model.in_bounds(c.x, c.y):
            continue
        state["stage"] = "reach_character"
        if c.move < 0:  # a rule error the map opens with: reach refuses it, as documented,
            try:        # and the preview and ``sodwa reach`` show that ValueError
                reach(model, (c.x, c.y), c.move)
            except ValueError:
                continue
        result = reach(model, (c.x, c.y), c.move)
        state["stage"] = "reach_path"
        result.tiles()
        result.path_to((w - 1 - c.x, h - 1 - c.y))
    _creature_queries(model, state)
    for tile in tiles[:2]:
        for move in PREVIEW_MOVES:
            state["stage"] = "reach_tile"
            result = reach(model, tile, move)
            state["stage"] = "reach_path"
            result.path_to((w - 1 - tile[0], h - 1 - tile[1]))
    state["stage"] = "graph"
    graph = AdjacencyGraph(model, listen=False)
    graph.graph.number_of_edges()
    state["stage"] = "pair_classes"
    pair_classes(model)
    state["stage"] = "blocked_pairs"
    blocked_pairs(model)
    state["stage"] = "regions"
    regions(model)
    state["stage"] = "save_map"
    out = work / "out.json"
    save_map(model, out)
    state["stage"] = "roundtrip"
    again, problems = read_map(out)
    if again is None or not again.same_content(model):
        raise CaseFailure("a saved map does not load again as it was")


def _creature_queries(model: Any, state: dict[str, str]) -> None:
    """The previews of a creature larger than one tile (issue 26; the editor's
    ``footprint_previews``): its movement range with every other creature's squares in
    the way and a path, and its LoS fan, for the first three whose footprint is on the
    map (one off the map is a rule error the map opens with; the previews refuse it)."""
    from ..engine.footprint import cannot_stand
    from ..engine.footprint_los import footprint_los_fan
    from ..engine.footprint_movement import footprint_reach

    w, h = model.width, model.height
    large = [c for c in sorted(model.characters.values(), key=lambda c: c.id)
             if c.footprint_at().area > 1][:3]
    for c in large:
        fp = c.footprint_at()
        if not (0 <= c.x <= w - fp.width and 0 <= c.y <= h - fp.height):
            continue
        rows = [(x, y, o.team, o.size) for o in model.characters.values() if o.id != c.id
                for x, y in o.squares()]
        # a rule error the map opens with (a footprint over a wall or across levels; for
        # the range also a negative Move) is refused with the ValueError the previews show
        stands = cannot_stand(model, (c.x, c.y), fp) is None
        state["stage"] = "footprint_reach"
        try:
            result = footprint_reach(model, (c.x, c.y), fp, c.move, team=c.team,
                                     flight=c.flight, occupants=rows, size=c.size)
        except ValueError:
            if c.move >= 0 and stands:
                raise
        else:
            state["stage"] = "footprint_path"
            result.path_to((max(0, w - fp.width - c.x), max(0, h - fp.height - c.y)))
        state["stage"] = "footprint_los_fan"
        try:
            footprint_los_fan(model, (c.x, c.y), fp, occupied=[r[:2] for r in rows])
        except ValueError:
            if stands:
                raise
