"""The balance report of a batch of battles (issue 11 section 5): plain data from
the records of :mod:`.batch`, for ``sodwa simulate --json``, its text summary and
the HTML report (:mod:`.report_html`).

Rates carry 95 % Wilson score intervals (``wilson``): they stay inside [0, 1]
and are sensible for small batches and rates near 0 or 1, where the normal
approximation is not.

>>> lo, hi = wilson(5, 10)
>>> round(lo, 3), round(hi, 3)
(0.237, 0.763)
>>> wilson(0, 0)
(0.0, 1.0)
"""

from __future__ import annotations

import math
import statistics
from collections import Counter
from collections.abc import Sequence
from typing import Any

from .batch import Record, tile_counts
from .setup import BattleSetup

#: z for a two-sided 95 % interval.
Z95 = 1.959963984540054


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a binomial rate (``(0, 1)`` when ``n == 0``)."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    lo = 0.0 if successes == 0 else max(0.0, centre - half)  # exact ends: no rounding
    hi = 1.0 if successes == n else min(1.0, centre + half)  # error at 0 % or 100 %
    return lo, hi


def rate(successes: int, n: int) -> dict[str, Any]:
    lo, hi = wilson(successes, n)
    return {"count": successes, "of": n, "rate": successes / n if n else 0.0,
            "ci95": [round(lo, 6), round(hi, 6)]}


def spread(values: Sequence[float]) -> dict[str, float]:
    if not values:
        return {"mean": 0.0, "median": 0.0, "min": 0.0, "max": 0.0, "p95": 0.0}
    ordered = sorted(values)
    return {"mean": round(statistics.fmean(ordered), 6), "median": statistics.median(ordered),
            "min": ordered[0], "max": ordered[-1],
            "p95": ordered[min(len(ordered) - 1, math.ceil(0.95 * len(ordered)) - 1)]}


def value_counts(values: Sequence[int]) -> list[list[int]]:
    """``[[value, how many], ...]`` in increasing value (a distribution, JSON as is)."""
    return [[v, n] for v, n in sorted(Counter(values).items())]


def characters_of(setup: BattleSetup) -> list[list[dict[str, Any]]]:
    """id, team, side and cost per battle index, for both arrangements of the setup."""
    out: list[list[dict[str, Any]]] = []
    for swapped in (False, True):
        state = setup.state(0, swapped)
        out.append([{"id": f.id, "team": f.team, "side": f.side, "cost": f.sheet.cost}
                    for f in state.fighters])
    return out


def summarize(setup: BattleSetup, records: Sequence[Record], *, seed: int,
              swap_sides: bool) -> dict[str, Any]:
    """The balance report of ``records`` (battles of ``setup``), as plain JSON data."""
    n = len(records)
    cast = characters_of(setup)
    sides = [next(c["side"] for c in cast[0] if c["team"] == t) for t in (0, 1)]
    wins = [sum(r["winner"] == t for r in records) for t in (0, 1)]
    draws = sum(r["winner"] is None for r in records)
    ai_wins = [0, 0]
    for r in records:
        if r["winner"] is not None:
            names_swapped = r["swapped"]
            ai_wins[r["winner"] ^ int(names_swapped)] += 1
    decided = [r for r in records if r["first_team"] is not None]
    first_wins = sum(r["winner"] == r["first_team"] for r in decided)
    first_by_side = [sum(r["first_team"] == t for r in decided) for t in (0, 1)]
    chars: dict[str, dict[str, Any]] = {}
    for r in records:
        for meta, row in zip(cast[int(r["swapped"])], r["chars"], strict=True):
            c = chars.setdefault(meta["id"], {"id": meta["id"], "team": meta["team"],
                                              "side": meta["side"], "cost": meta["cost"],
                                              "battles": 0, "dealt": 0, "taken": 0, "kills": 0,
                                              "survived": 0, "attacks": 0, "hits": 0,
                                              "expected": 0.0})
            c["battles"] += 1
            for key, value in zip(("dealt", "taken", "kills", "survived", "attacks", "hits",
                                   "expected"), row, strict=True):
                c[key] += value
    characters = []
    for c in sorted(chars.values(), key=lambda c: (c["team"], c["id"])):
        b = c["battles"]
        characters.append({
            "id": c["id"], "team": c["team"], "side": c["side"], "cost": c["cost"],
            "battles": b, "damage_dealt": round(c["dealt"] / b, 6),
            "damage_taken": round(c["taken"] / b, 6), "kills": round(c["kills"] / b, 6),
            "survival": rate(c["survived"], b),
            "damage_per_point": round(c["dealt"] / b / c["cost"], 6) if c["cost"] else None,
            "attacks": round(c["attacks"] / b, 6),
            "hits": c["hits"], "expected_hits": round(c["expected"], 6)})
    luck = []
    karma = []
    for t in (0, 1):
        hits = sum(row[5] for r in records for row, meta in
                   zip(r["chars"], cast[int(r["swapped"])], strict=True) if meta["team"] == t)
        expected = sum(row[6] for r in records for row, meta in
                       zip(r["chars"], cast[int(r["swapped"])], strict=True)
                       if meta["team"] == t)
        luck.append({"side": sides[t], "hits": hits, "expected_hits": round(expected, 6),
                     "luck": round(hits - expected, 6)})
        karma.append({"side": sides[t],
                      "gained": round(sum(r["karma"][t][0] for r in records) / max(n, 1), 6),
                      "spent": round(sum(r["karma"][t][1] for r in records) / max(n, 1), 6),
                      "rescues": round(sum(r["karma"][t][2] for r in records) / max(n, 1), 6)})
    return {
        "battles": n, "seed": seed, "swap_sides": swap_sides,
        "swap_note": setup.swap_repeats() if swap_sides else None, "ai": list(setup.ai),
        "sides": [{"team": t, "side": sides[t], "wins": rate(wins[t], n)} for t in (0, 1)],
        "draws": rate(draws, n),
        "ai_wins": [{"ai": setup.ai[k], "entry": k, "wins": rate(ai_wins[k], n)}
                    for k in (0, 1)],
        "first_mover": {"wins": rate(first_wins, len(decided)),
                        "first_turns_by_side": first_by_side},
        "length": {"turns": spread([r["turns"] for r in records]),
                   "ticks": spread([r["ticks"] for r in records]),
                   "turns_counts": value_counts([r["turns"] for r in records])},
        "characters": characters, "luck": luck, "karma": karma,
        "tiles": tile_totals(records, setup.model.width, setup.model.height),
    }


#: The per-tile counts a record carries (:mod:`.batch`), for the heat map.
TILE_KINDS = ("defeated", "attacked_from")
TILE_TITLES = {"defeated": "where characters were defeated",
               "attacked_from": "where attacks were made from"}
#: matplotlib colour map of the per-tile counts (the HTML plot and the editor's heat
#: map): light yellow to dark red, which no terrain fill of the editor uses.
TILE_CMAP = "YlOrRd"


def tile_totals(records: Sequence[Record], width: int, height: int) -> dict[str, Any]:
    """The records' per-tile counts summed over the batch: ``{"width", "height",
    "defeated": [[x, y, n], ...], "attacked_from": [[x, y, n], ...]}`` (sorted by
    row then column; tiles with no count left out)."""
    out: dict[str, Any] = {"width": width, "height": height}
    for kind in TILE_KINDS:
        total: Counter[tuple[int, int]] = Counter()
        for r in records:
            for x, y, n in r["tiles"][kind]:
                total[(x, y)] += n
        out[kind] = tile_counts(total)
    return out


def tile_grid(report: dict[str, Any], kind: str) -> list[list[int]]:
    """One kind of per-tile count as a ``height`` x ``width`` grid (rows of counts)."""
    tiles = report["tiles"]
    grid = [[0] * tiles["width"] for _ in range(tiles["height"])]
    for x, y, n in tiles[kind]:
        grid[y][x] = n
    return grid


def format_summary(report: dict[str, Any]) -> str:
    """The report as a few readable lines (``sodwa simulate`` without ``--json``)."""

    def pct(r: dict[str, Any]) -> str:
        lo, hi = r["ci95"]
        return f"{100 * r['rate']:5.1f} % (95 % CI {100 * lo:.1f}-{100 * hi:.1f})"

    lines = [f"{report['battles']} battle(s), AI {' vs '.join(report['ai'])}, seed "
             f"{report['seed']}" + (", sides swapped every other battle"
                                    if report["swap_sides"] else "")]
    if report.get("swap_note"):
        lines.append(f"  note: {report['swap_note']}; each battle has its own seed")
    for s in report["sides"]:
        lines.append(f"  team {s['team']} ({s['side']}) wins {pct(s['wins'])}")
    lines.append(f"  draws            {pct(report['draws'])}")
    if report["swap_sides"]:
        for a in report["ai_wins"]:
            lines.append(f"  AI #{a['entry'] + 1} {a['ai']} wins {pct(a['wins'])}")
    lines.append(f"  first mover wins {pct(report['first_mover']['wins'])}")
    t, k = report["length"]["turns"], report["length"]["ticks"]
    lines.append(f"  length: turns median {t['median']} (p95 {t['p95']}), ticks median "
                 f"{k['median']} (p95 {k['p95']})")
    lines.append("  character          side        cost  dealt  taken  kills  survival  "
                 "dmg/pt")
    for c in report["characters"]:
        dpp = "-" if c["damage_per_point"] is None else f"{c['damage_per_point']:.3f}"
        lines.append(f"  {c['id'][:18]:<18} {c['side'][:10]:<10} {c['cost']:5d} "
                     f"{c['damage_dealt']:6.1f} {c['damage_taken']:6.1f} {c['kills']:6.2f}  "
                     f"{100 * c['survival']['rate']:6.1f} %  {dpp}")
    for lk, ka in zip(report["luck"], report["karma"], strict=True):
        lines.append(f"  {lk['side']}: hits {lk['hits']} vs expected "
                     f"{lk['expected_hits']:.1f} (luck {lk['luck']:+.1f}); karma per battle "
                     f"gained {ka['gained']:.1f}, spent {ka['spent']:.1f}, "
                     f"rescued {ka['rescues']:.2f} attack(s)")
    return "\n".join(lines)
