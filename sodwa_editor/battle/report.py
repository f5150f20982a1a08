"""The balance report of a batch of battles (issue 11 section 5): plain data from
the records of :mod:`.batch`, for ``sodwa simulate --json``, its text summary and
the HTML report (:mod:`.report_html`).

Rates carry 95 % Wilson score intervals (:mod:`.rates`).  The report says first
what was compared and its verdict (``headline``, :mod:`.report_verdict`), and
counts area ability use per archetype (:mod:`.ability_use`).
"""

from __future__ import annotations

import math
import statistics
import sys
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from .ability_use import AbilityTally, format_abilities
from .batch_play import Record, tile_counts
from .rates import Z95 as Z95
from .rates import rate
from .rates import wilson as wilson
from .report_verdict import DEFAULT_THRESHOLD, Names, compared, entries_line, judge
from .rules import rules_line, rules_report
from .setup import BattleSetup

#: The shape of the report's JSON (``report_version``): 2 since issue 24 (``headline``,
#: ``verdict``, ``threshold``, ``swap``, ``entries`` and ``abilities``; version 1 had
#: ``swap_sides``, ``swap_note`` and ``ai_wins`` and no version key); issue 28 added
#: ``rules`` (name, hash and the keys that differ from the defaults:
#: :func:`.rules.rules_report`).
REPORT_VERSION = 2

def spread(values: Sequence[float]) -> dict[str, float]:
    if not values:
        return {"mean": 0.0, "median": 0.0, "min": 0.0, "max": 0.0, "p95": 0.0}
    ordered = sorted(values)
    return {"mean": round(statistics.fmean(ordered), 6), "median": statistics.median(ordered),
            "min": ordered[0], "max": ordered[-1],
            "p95": ordered[min(len(ordered) - 1, math.ceil(0.95 * len(ordered)) - 1)]}


def characters_of(setup: BattleSetup) -> list[list[dict[str, Any]]]:
    """id, team, side and cost per battle index, for both arrangements of the setup."""
    out: list[list[dict[str, Any]]] = []
    for swapped in (False, True):
        state = setup.state(0, swapped)
        out.append([{"id": f.id, "team": f.team, "side": f.side, "cost": f.sheet.cost,
                     "archetype": f.sheet.archetype,
                     "abilities": [a.name for a in f.sheet.abilities]}
                    for f in state.fighters])
    return out


def summarize(setup: BattleSetup, records: Iterable[Record], *, seed: int,
              swap_sides: bool, names: Names | None = None,
              threshold: int = DEFAULT_THRESHOLD) -> dict[str, Any]:
    """The balance report of ``records`` (battles of ``setup``, in index order), as
    plain JSON data (``names``, ``threshold``: :class:`Tally`'s)."""
    tally = Tally(setup, seed=seed, swap_sides=swap_sides, names=names, threshold=threshold)
    for r in records:
        tally.add(r)
    return tally.report()


#: ``sum()`` of floats adds with Neumaier's compensation from Python 3.12 on.
COMPENSATED_SUM = sys.version_info >= (3, 12)


class RunningSum:
    """``sum()`` of a sequence of floats taken one at a time, adding exactly as the
    running interpreter's ``sum()`` does (plainly, or compensated from 3.12), so a
    streamed report equals one summed over a list, to the last bit."""

    def __init__(self) -> None:
        self.count = 0
        self.hi = 0.0
        self.lo = 0.0

    def add(self, x: float) -> None:
        if self.count == 0 or not COMPENSATED_SUM:
            self.hi = (0 if self.count == 0 else self.hi) + x
        else:
            t = self.hi + x
            if abs(self.hi) >= abs(x):
                self.lo += (self.hi - t) + x
            else:
                self.lo += (x - t) + self.hi
            self.hi = t
        self.count += 1

    def value(self) -> float:
        if self.count == 0:
            return 0  # sum() of nothing: the int 0
        if COMPENSATED_SUM and self.lo and math.isfinite(self.lo):
            return self.hi + self.lo
        return self.hi


class Values:
    """Counts of whole numbers (turns, ticks): their :func:`spread` and
    :func:`value_counts` without keeping one number per battle."""

    def __init__(self) -> None:
        self.counts: Counter[int] = Counter()

    def add(self, value: int) -> None:
        self.counts[value] += 1

    def spread(self) -> dict[str, float]:
        """:func:`spread` of the values (the same numbers, computed from the counts)."""
        n = self.counts.total()
        if not n:
            return spread([])
        ordered = sorted(self.counts.items())

        def nth(k: int) -> int:  # the k-th smallest value, from 0
            for value, times in ordered:
                if k < times:
                    return value
                k -= times
            raise IndexError(k)

        half = n // 2
        median = nth(half) if n % 2 else (nth(half - 1) + nth(half)) / 2
        total = sum(v * c for v, c in ordered)
        return {"mean": round(float(total) / n, 6), "median": median,
                "min": ordered[0][0], "max": ordered[-1][0],
                "p95": nth(min(n - 1, math.ceil(0.95 * n) - 1))}

    def value_counts(self) -> list[list[int]]:
        return [[v, n] for v, n in sorted(self.counts.items())]


class Tally:
    """The balance report built one record at a time (:meth:`add`, in index order),
    so a batch's records need not be kept: :func:`summarize` of a list and a tally
    of the same records give the same report.

    ``names``: the files as the user named them, ``{"team_file": [..], "profile":
    [..]}`` (one name: both entries), for the entries' labels; ``threshold``: the
    verdict's, in percentage points (:mod:`.report_verdict`)."""

    def __init__(self, setup: BattleSetup, *, seed: int, swap_sides: bool,
                 names: Names | None = None, threshold: int = DEFAULT_THRESHOLD) -> None:
        self.setup = setup
        self.seed = seed
        self.swap_sides = swap_sides
        self.threshold = threshold
        self.cast = characters_of(setup)
        self.sides = [next(c["side"] for c in self.cast[0] if c["team"] == t) for t in (0, 1)]
        self.compared = compared(setup, self.cast, swap_sides, names)
        self.abilities = AbilityTally(self.cast)
        self.n = 0
        self.wins = [0, 0]
        self.draws = 0
        self.ai_wins = [0, 0]
        self.decided = 0
        self.first_wins = 0
        self.first_by_side = [0, 0]
        self.chars: dict[str, dict[str, Any]] = {}
        self.hits = [0, 0]
        self.expected = [RunningSum(), RunningSum()]
        self.karma = [[0, 0, 0], [0, 0, 0]]
        self.turns = Values()
        self.ticks = Values()
        self.tiles: dict[str, Counter[tuple[int, int]]] = {k: Counter() for k in TILE_KINDS}

    def add(self, r: Record) -> None:
        self.n += 1
        if r["winner"] is None:
            self.draws += 1
        else:
            self.wins[r["winner"]] += 1
            self.ai_wins[r["winner"] ^ int(r["swapped"])] += 1
        if r["first_team"] is not None:
            self.decided += 1
            self.first_wins += r["winner"] == r["first_team"]
            self.first_by_side[r["first_team"]] += 1
        for meta, row in zip(self.cast[int(r["swapped"])], r["chars"], strict=True):
            c = self.chars.setdefault(meta["id"], {
                "id": meta["id"], "team": meta["team"], "side": meta["side"],
                "cost": meta["cost"], "battles": 0, "dealt": 0, "taken": 0, "kills": 0,
                "survived": 0, "attacks": 0, "hits": 0, "expected": 0.0})
            c["battles"] += 1
            for key, value in zip(("dealt", "taken", "kills", "survived", "attacks", "hits",
                                   "expected"), row, strict=True):
                c[key] += value
            self.hits[meta["team"]] += row[5]
            self.expected[meta["team"]].add(row[6])
        for t in (0, 1):
            for k in range(3):
                self.karma[t][k] += r["karma"][t][k]
        self.turns.add(r["turns"])
        self.ticks.add(r["ticks"])
        for kind in TILE_KINDS:
            for x, y, count in r["tiles"][kind]:
                self.tiles[kind][(x, y)] += count
        self.abilities.add(r["swapped"], r["abilities"])

    def report(self) -> dict[str, Any]:
        """The balance report of the records added so far, as plain JSON data."""
        n, setup = self.n, self.setup
        characters = []
        for c in sorted(self.chars.values(), key=lambda c: (c["team"], c["id"])):
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
            expected = self.expected[t].value()
            luck.append({"side": self.sides[t], "hits": self.hits[t],
                         "expected_hits": round(expected, 6),
                         "luck": round(self.hits[t] - expected, 6)})
            karma.append({"side": self.sides[t],
                          "gained": round(self.karma[t][0] / max(n, 1), 6),
                          "spent": round(self.karma[t][1] / max(n, 1), 6),
                          "rescues": round(self.karma[t][2] / max(n, 1), 6)})
        tiles: dict[str, Any] = {"width": setup.model.width, "height": setup.model.height}
        for kind in TILE_KINDS:
            tiles[kind] = tile_counts(self.tiles[kind])
        won = sum(self.wins)  # the decided battles
        c = self.compared
        report = {
            "report_version": REPORT_VERSION, "battles": n, "seed": self.seed,
            "ai": list(setup.ai), "rules": rules_report(setup.rules), "swap": c["swap"],
            "sides": [{**c["sides"][t], "wins": rate(self.wins[t], n),
                       "share": rate(self.wins[t], won)} for t in (0, 1)],
            "draws": rate(self.draws, n),
            "entries": [{**e, "wins": rate(self.ai_wins[e["entry"]], n),
                         "share": rate(self.ai_wins[e["entry"]], won)} for e in c["entries"]],
            "first_mover": {"wins": rate(self.first_wins, self.decided),
                            "first_turns_by_side": self.first_by_side},
            "length": {"turns": self.turns.spread(), "ticks": self.ticks.spread(),
                       "turns_counts": self.turns.value_counts()},
            "characters": characters, "luck": luck, "karma": karma,
            "abilities": self.abilities.report(),
            "tiles": tiles,
        }
        return judge(report, self.threshold)


#: The per-tile counts a record carries (:mod:`.batch`), for the heat map.
TILE_KINDS = ("defeated", "attacked_from")
TILE_TITLES = {"defeated": "where characters were defeated",
               "attacked_from": "where attacks were made from"}
#: matplotlib colour map of the per-tile counts (the HTML plot and the editor's heat
#: map): light yellow to dark red, which no terrain fill of the editor uses.
TILE_CMAP = "YlOrRd"


def tile_grid(report: dict[str, Any], kind: str) -> list[list[int]]:
    """One kind of per-tile count as a ``height`` x ``width`` grid (rows of counts)."""
    tiles = report["tiles"]
    grid = [[0] * tiles["width"] for _ in range(tiles["height"])]
    for x, y, n in tiles[kind]:
        grid[y][x] = n
    return grid


def format_summary(report: dict[str, Any]) -> str:
    """The report as a few readable lines (``sodwa simulate`` without ``--json``): the
    headline first (what was compared and the verdict), then the batch and whether
    the sides were swapped and why (said once), the entries when they differ, and
    the figures."""

    def pct(r: dict[str, Any]) -> str:
        lo, hi = r["ci95"]
        return f"{100 * r['rate']:5.1f} % (95 % CI {100 * lo:.1f}-{100 * hi:.1f})"

    swap = report["swap"]
    lines = [report["headline"],
             f"  {report['battles']} battle(s), seed {report['seed']}; sides swapped: "
             f"{'yes' if swap['done'] else 'no'}, {swap['reason']}"]
    if "rules" in report:  # (a report of issue 28 on: the rules hash and the changed keys)
        lines.append(f"  {rules_line(report['rules'])}")
    entries = entries_line(report)
    if entries is not None:
        lines.append(f"  {entries}")
    for s in report["sides"]:
        lines.append(f"  {s['label']} wins {pct(s['wins'])} of all battles")
    lines.append(f"  draws            {pct(report['draws'])}")
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
    lines += format_abilities(report["abilities"])
    for lk, ka in zip(report["luck"], report["karma"], strict=True):
        lines.append(f"  {lk['side']}: hits {lk['hits']} vs expected "
                     f"{lk['expected_hits']:.1f} (luck {lk['luck']:+.1f}); karma per battle "
                     f"gained {ka['gained']:.1f}, spent {ka['spent']:.1f}, "
                     f"rescued {ka['rescues']:.2f} attack(s)")
    return "\n".join(lines)
