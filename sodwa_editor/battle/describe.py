"""The wording of the battle log: one readable line per event, for the ``sodwa
battle`` / ``sodwa replay`` log and the playtest's Battle dock (Qt-free).

>>> from sodwa_editor.battle.events import TurnEnded
>>> describe(TurnEnded(actor=0, passed=True, spent=500, ip=-500), ["archer"])
'    pass (IP -500)'
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

#: how the command line names the two teams (its header says "team 0 blue ...")
TEAMS = ("team 0", "team 1")


def side_label(side: str | None, team: int, details: Sequence[str] = ()) -> str:
    """How a person reads a side everywhere: the playtest, the Balance Run dialog, the
    balance report, the command line's text (issue 24: "One naming everywhere ... Use
    the start zones' names with one numbering"): its start zone's name, then its team
    number counted as JSON, replays and ``--ai A,B`` count it, from 0; ``details``
    (the balance report's points, AI, team file) follow the number.

    >>> side_label("attackers", 0), side_label(None, 1)
    ('attackers (team 0)', 'team 1')
    >>> side_label("attackers", 0, ["400 pts"]), side_label(None, 1, ["AI random"])
    ('attackers (team 0, 400 pts)', 'team 1 (AI random)')
    """
    more = "".join(f", {d}" for d in details)
    if side:
        return f"{side} (team {team}{more})"
    return f"team {team} ({more[2:]})" if details else f"team {team}"


def describe(event: Any, names: Sequence[str], teams: Sequence[str] = TEAMS) -> str:
    """One readable log line of ``event``; ``names``: the characters by battle index,
    ``teams``: the names of team 0 and team 1.  A turn's own events are indented
    under the line that starts it."""
    d = event.to_dict()
    kind = d["kind"]

    def who(i: int) -> str:
        return names[i] if 0 <= i < len(names) else str(i)

    if kind == "first_tie":
        how = "a seeded coin" if d["rule"] == "seeded_coin" else "team order"
        used = "it decides the first turn" if d["decided"] else "not needed"
        return f"first tie: {teams[d['team']]} goes first in a tie before any turn ({how}; {used})"
    if kind == "turn_started":
        return (f"tick {d['tick']:>6}  turn {d['turn']:>4}  {who(d['actor'])} "
                f"({teams[d['team']]})  IP {d['ip_before']} -> {d['ip']}")
    if kind == "moved":
        (x0, y0), (x1, y1) = d["path"][0], d["path"][-1]
        return f"    move {x0},{y0} -> {x1},{y1} ({d['steps']} step(s)), IP {d['ip']}"
    if kind == "attacked":
        outcome = "hit" if d["success"] else "miss"
        karma = f"karma {d['karma_before']} -> {d['karma_after']}"
        if d["karma_spent"]:
            karma += f" (spent {d['karma_spent']})"
        if d["karma_gained"]:
            karma += f" (gained {d['karma_gained']})"
        doubles = ", doubles" if d["doubles"] else ""
        facts = "".join(f", {f}" for f, on in (
            ("impeded", d.get("los") == "impeded" and d["attack_kind"] == "ranged"),
            ("unaware", d.get("aware") is False)) if on)
        return (f"    attack {who(d['target'])} ({d['attack_kind']}{facts}): roll {d['roll']} vs "
                f"difficulty {d['difficulty']}{doubles} -> {outcome}, damage {d['damage']}, "
                f"HP left {d['hp_after']}; {karma}")
    if kind == "terrain_attacked":
        x, y, side = d["feature"]
        what = f"border {side} of {x},{y}" if side else f"tile {x},{y}"
        left = "destroyed" if d["left"] == 0 else f"{d['left']} left"
        return (f"    attack {what}: damage {d['damage']} (total {d['total']} of "
                f"{d['threshold']}, {left})")
    if kind == "terrain_destroyed":
        x, y, side = d["feature"]
        return f"    destroyed {'border ' + side + ' of ' if side else 'tile '}{x},{y}"
    if kind == "defeated":
        if d["by"] < 0:  # nobody's kill (B54)
            return f"    {who(d['character'])} defeated by {d.get('cause') or 'no one'}"
        return f"    {who(d['character'])} defeated by {who(d['by'])}"
    if kind == "turn_ended":
        return f"    pass (IP {d['ip']})" if d["passed"] else f"    end of turn (IP {d['ip']})"
    if kind == "ability_used":
        aim = "" if d["aim"] is None else f" at {d['aim'][0]},{d['aim'][1]}"
        uses = "" if d["uses_left"] < 0 else f", {d['uses_left']} use(s) left"
        return (f"    {d['ability']}{aim}: {len(d['tiles'])} tile(s), IP {d['ip']}{uses}")
    if kind == "area_hit":
        outcome = "hit" if d["success"] else "miss"
        karma = f"; karma {d['karma_before']} -> {d['karma_after']}"
        if d["karma_spent"]:
            karma += f" (spent {d['karma_spent']})"
        if d["karma_gained"]:
            karma += f" (gained {d['karma_gained']})"
        ally = " (ally)" if d["ally"] else ""
        maim = ""
        if d["maim_roll"]:
            maim = f", maim roll {d['maim_roll']}" + (": maimed" if d["maimed"] else "")
        return (f"      {d['ability']} on {who(d['target'])}{ally}: roll {d['roll']} vs "
                f"difficulty {d['difficulty']} -> {outcome}, damage {d['damage']}, "
                f"HP left {d['hp_after']}{maim}{karma}")
    if kind == "effect_placed":
        x, y = d["origin"]
        what = "falls" if d["effect_kind"] == "falling" else "lingers"
        return (f"    {d['ability']} (effect {d['effect']}) {what} at {x},{y} for "
                f"{d['upkeeps']} upkeep(s)")
    if kind == "effect_upkeep":
        return (f"    upkeep of {d['ability']} (effect {d['effect']}): reach {d['reach']}, "
                f"{d['upkeeps_left']} upkeep(s) left, {len(d['tiles'])} tile(s)")
    if kind == "effect_ended":
        return f"    {d['ability']} (effect {d['effect']}) ends: {d['reason']}"
    if kind == "falling_struck":
        return (f"    strike the falling object {d['effect']}: damage {d['damage']} (total "
                f"{d['total']} of {d['durability']})")
    if kind == "terrain_effect":
        return _terrain_line(d, who)
    if kind == "altitude_changed":
        layers = ("ground", "low", "high", "very high")
        if d["fell"]:
            return (f"    {who(d['actor'])} falls from {layers[d['before']]} (roll {d['roll']} "
                    f"vs difficulty {d['difficulty']}), damage {d['damage']}, HP left "
                    f"{d['hp_after']}")
        return f"    {who(d['actor'])} flies {layers[d['before']]} -> {layers[d['after']]}"
    if kind == "knocked_back":
        x, y = d["start"]
        if d["to"] is not None:
            return f"    {who(d['target'])} knocked back {x},{y} -> {d['to'][0]},{d['to'][1]}"
        return (f"    {who(d['target'])} knocked against a wall at {x},{y} (roll {d['roll']} vs "
                f"difficulty {d['difficulty']}), damage {d['damage']}, HP left {d['hp_after']}")
    if kind == "battle_ended":
        winner = "a draw" if d["winner"] is None else f"{teams[d['winner']]} wins"
        return f"result: {winner} ({d['reason']}) after {d['turns']} turns, tick {d['tick']}"
    rest = {k: v for k, v in d.items() if k != "kind"}
    return f"    {kind}: {json.dumps(rest)}"


def _terrain_line(d: dict, who) -> str:  # noqa: ANN001 - describe's own helper
    """The log line of a terrain property acting on a character (docs/rules.md TP-B)."""
    x, y = d["tile"]
    if d["source"] == "prone":
        return f"    {who(d['actor'])} stands up (prone) at {x},{y}"
    if d["save"]:
        outcome = "fails" if d["landed"] else "makes"
        text = (f"    {d['source']} at {x},{y}: {who(d['actor'])} {outcome} the {d['save']} "
                f"save (roll {d['roll']} vs difficulty {d['difficulty']})")
    else:
        text = f"    {d['source']} at {x},{y} on {who(d['actor'])}"
    if d["damage"]:
        text += f", damage {d['damage']}, HP left {d['hp_after']}"
    if d["condition"]:
        text += f", {d['condition']}"
    if d["stopped"]:
        text += f", stops at {d['stopped'][0]},{d['stopped'][1]}"
    return text

