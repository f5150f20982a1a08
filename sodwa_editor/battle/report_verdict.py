"""What a balance report compared and its answer in words (issue 24 section 1: "The
balance report must not mislead"): the two sides, the entries when the two sides
had different AIs, AI profiles or team files, whether the sides were swapped and
why, and the verdict with its threshold.

**Sides and entries.**  A side is a start zone's team (team 0, team 1), named by
:func:`.describe.side_label`.  An *entry* is what the user gave per side (``--ai
A,B``, ``--ai-profile`` twice, ``--teams`` twice; the dialog's boxes): entry 0 plays
team 0 and entry 1 team 1, or the other way round in a swapped battle.  Entries are
reported only when they differ, named by what differs ("AI random", "profile
bold.json", "team file knights.json"), never "AI #1 greedy" when both are greedy.

**The verdict** (:func:`verdict`) is about a side's share of the decided battles
(draws left out), with its 95 % Wilson interval ``[lo, hi]`` and the threshold
``T`` (percentage points, :data:`DEFAULT_THRESHOLD`):

* *balanced*: the interval lies within ``50 ± T`` (``lo >= 50 - T`` and
  ``hi <= 50 + T``);
* *unbalanced*: the interval lies wholly outside it (``lo >= 50 + T`` or
  ``hi <= 50 - T``);
* *not clear yet*: otherwise (the interval straddles a bound: run more battles);
* *no decided battle*: every battle was a draw.

The interval is shown rounded outwards (``lo`` down, ``hi`` up to a whole percent),
so with a whole-number threshold the verdict can be read off the numbers shown.

>>> verdict(90, 100, 5)["word"], verdict(50, 100, 5)["word"], verdict(50, 100, 10)["word"]
('unbalanced', 'not clear yet', 'balanced')
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from .describe import side_label
from .rates import rate

if TYPE_CHECKING:  # (the command line reads the bounds below without the engine)
    from .setup import BattleSetup

#: The threshold of the verdict, in percentage points around 50 % (``sodwa simulate
#: --balanced-within``, the Balance Run dialog's box): its default and bounds.
DEFAULT_THRESHOLD = 5
MIN_THRESHOLD = 1
MAX_THRESHOLD = 25
#: The verdict's words (``verdict.word`` of the report's JSON).
BALANCED, UNBALANCED, UNCLEAR, UNDECIDED = ("balanced", "unbalanced", "not clear yet",
                                            "no decided battle")


def percent_bounds(ci95: Sequence[float]) -> tuple[int, int]:
    """An interval as whole percents rounded outwards (the low end down, the high end
    up), from the JSON's six-decimal ends (float noise never moves a bound)."""
    lo, hi = (round(100 * v, 4) for v in ci95)
    return math.floor(lo), math.ceil(hi)


def verdict(count: int, decided: int, threshold: int) -> dict[str, Any]:
    """The verdict on a share of ``count`` of ``decided`` battles (see the module
    docstring): its ``word``, the ``share`` (a :func:`.rates.rate`) and the band."""
    share = rate(count, decided)
    lo, hi = (round(100 * v, 4) for v in share["ci95"])
    low, high = 50 - threshold, 50 + threshold
    if decided == 0:
        word = UNDECIDED
    elif lo >= low and hi <= high:
        word = BALANCED
    elif lo >= high or hi <= low:
        word = UNBALANCED
    else:
        word = UNCLEAR
    return {"word": word, "share": share, "band": [low, high]}


def verdict_text(word: str, threshold: int) -> str:
    """The verdict as the headline ends: the word and the band it was judged by."""
    band = f"50 ± {threshold} %"
    if word == BALANCED:
        return f"balanced (within {band})"
    if word == UNBALANCED:
        return f"unbalanced (outside {band})"
    if word == UNCLEAR:
        return f"not clear yet: run more battles (the interval crosses {band})"
    return "no decided battle: every battle was a draw"


def entries_line(report: dict[str, Any]) -> str | None:
    """The entries compared, when they differ and the sides were swapped (each entry
    then played both sides): the leading entry's share of the decided battles and the
    verdict on it, as the headline's for the sides."""
    entries = report["entries"]
    if not entries or not report["swap"]["done"]:
        return None
    lead = max(entries, key=lambda e: (e["share"]["count"], -e["entry"]))
    other = entries[1 - lead["entry"]]
    return (f"{lead['label']} wins {share_text(lead['share'])} of the decided battles "
            f"against {other['label']}, each on both sides in turn: "
            f"{verdict_text(lead['verdict'], report['threshold'])}")


def share_text(share: dict[str, Any]) -> str:
    """``94 % [92-96]``: a share and its 95 % interval, rounded outwards."""
    lo, hi = percent_bounds(share["ci95"])
    return f"{100 * share['rate']:.0f} % [{lo}-{hi}]"


# ------------------------------------------------------------------ entries
#: The files of the entries as the user named them (``{"team_file": [..], "profile":
#: [..]}``; one name stands for both entries), for their labels.
Names = Mapping[str, Sequence[str]]


def entry_parts(setup: BattleSetup, names: Names | None = None) -> list[dict[str, Any]]:
    """Per entry (0, 1): its AI, AI profile (None for an AI that plays by none) and
    team file (None: the map's characters), each as a label, and what they hold (to
    compare them by content)."""
    from .setup import profile_values, uses_profile

    names = names or {}

    def named(key: str, k: int, default: str) -> str:
        given = names.get(key)
        return str(given[min(k, len(given) - 1)]) if given else default

    out = []
    for k in (0, 1):
        ai = setup.ai[k]
        profile = team_file = None
        if uses_profile(ai):
            profile = named("profile", k, "shipped" if setup.profiles is None else f"#{k + 1}")
        if setup.teams is not None:
            team_file = named("team_file", k, repr(setup.teams[k][1].name))
        out.append({"entry": k, "ai": ai, "profile": profile, "team_file": team_file,
                    "profile_values": profile_values(setup.team_profiles()[k])
                    if profile is not None else None,
                    "team": setup.teams[k][1] if setup.teams is not None else None})
    return out


def differences(parts: Sequence[dict[str, Any]]) -> list[str]:
    """What differs between the two entries, by content (two files holding the same
    team or profile do not differ): ``"ai"``, ``"profile"`` (only between two AIs
    that both play by one), ``"team_file"``."""
    a, b = parts
    out = []
    if a["ai"] != b["ai"]:
        out.append("ai")
    if a["profile"] is not None and b["profile"] is not None \
            and a["profile_values"] != b["profile_values"]:
        out.append("profile")
    if a["team"] != b["team"]:
        out.append("team_file")
    return out


def entry_label(part: dict[str, Any], differ: Sequence[str], other: dict[str, Any]) -> str:
    """An entry named by what differs: ``AI random``, ``profile bold.json``, ``team
    file knights.json`` (joined by commas when several differ; two files of one name
    get their entry's number)."""
    words = []
    for key, title in (("ai", "AI"), ("profile", "profile"), ("team_file", "team file")):
        if key in differ:
            value = part[key]
            if key != "ai" and value == other[key]:
                value = f"{value} #{part['entry'] + 1}"
            words.append(f"{title} {value}")
    return ", ".join(words)


def compared(setup: BattleSetup, cast: Sequence[Sequence[dict[str, Any]]], swap_requested: bool,
             names: Names | None = None) -> dict[str, Any]:
    """What a batch of ``setup``'s battles compares, before any battle: the sides
    (``team``, ``side``, ``label``, ``points``), the entries when they differ
    (``entry``, ``label``, ``ai``, ``profile``, ``team_file``, ``points``) and
    ``swap`` (``requested``, ``done``, ``reason``).  ``cast``: per arrangement
    (unswapped, swapped) the characters' ``team``, ``side`` and ``cost``."""
    parts = entry_parts(setup, names)
    differ = differences(parts)
    done = swap_requested and setup.swap_repeats() is None
    points = [[sum(c["cost"] for c in arrangement if c["team"] == t) for t in (0, 1)]
              for arrangement in cast]
    zones = [next(c["side"] for c in cast[0] if c["team"] == t) for t in (0, 1)]
    labels = [entry_label(parts[k], differ, parts[1 - k]) for k in (0, 1)]
    sides = []
    for t in (0, 1):
        fixed = not done or points[0][t] == points[1][t]
        pts = points[0][t] if fixed else None
        details = side_details(pts, [] if done or not differ else [labels[t]])
        sides.append({"team": t, "side": zones[t], "label": side_label(zones[t], t, details),
                      "points": pts})
    entries = []
    if differ:
        for k, part in enumerate(parts):
            entries.append({"entry": k, "label": labels[k], "ai": part["ai"],
                            "profile": part["profile"], "team_file": part["team_file"],
                            "points": points[0][k] if setup.teams is not None else None})
    first = side_label(zones[0], 0)
    reason = swap_reason(swap_requested, done, setup, differ, first, labels[0])
    return {"sides": sides, "entries": entries,
            "swap": {"requested": swap_requested, "done": done, "reason": reason}}


# -------------------------------------------------------------- the headline
def judge(report: dict[str, Any], threshold: int) -> dict[str, Any]:
    """``report`` with its ``threshold``, ``verdict`` and ``headline`` for
    ``threshold`` (pure: the dialog's box calls it on the report it shows)."""
    sides = report["sides"]
    decided = sum(s["wins"]["count"] for s in sides)
    lead = 1 if sides[1]["wins"]["count"] > sides[0]["wins"]["count"] else 0
    judged = verdict(sides[lead]["wins"]["count"], decided, threshold)
    word = judged["word"]
    lead_label, other_label = sides[lead]["label"], sides[1 - lead]["label"]
    draws = report["draws"]["count"]
    if word == UNDECIDED:
        headline = (f"{sides[0]['label']} and {sides[1]['label']} drew all "
                    f"{report['battles']} battle(s): {verdict_text(word, threshold)}")
    else:
        drawn = f", {draws} draw(s)" if draws else ""
        headline = (f"{lead_label} wins {share_text(judged['share'])} of {decided} decided "
                    f"battle(s) against {other_label}{drawn}: {verdict_text(word, threshold)}")
    entries = []
    for e in report["entries"]:
        e = dict(e)
        e["verdict"] = verdict(e["wins"]["count"], decided, threshold)["word"]
        entries.append(e)
    return {**report, "threshold": threshold, "entries": entries, "headline": headline,
            "verdict": {"word": word, "leader": None if word == UNDECIDED else lead,
                        "share": judged["share"], "band": judged["band"],
                        "text": verdict_text(word, threshold)}}


def side_details(points: int | None, parts: Sequence[str]) -> list[str]:
    """A side's details after its team number: its points, what its entry had."""
    return ([f"{points} pts"] if points is not None else []) + list(parts)


def swap_reason(requested: bool, done: bool, setup: BattleSetup, differ: Sequence[str],
                first: str, what: str) -> str:
    """Why the sides were or were not swapped, in words (the report says it once)."""
    if done:
        exchanged = "team files and AIs" if setup.teams is not None else "AIs and profiles"
        return ("requested and done: every other battle on the dice of the one before, "
                f"with the {exchanged} exchanged between the sides")
    if requested:
        return f"requested but pointless: {setup.swap_repeats()}; each battle has its own seed"
    if differ:
        return (f"not requested: {first} always had {what}, so the side rates mix the "
                "map's sides with that difference (swap sides to tell them apart)")
    return "not requested"
