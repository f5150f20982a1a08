"""An area ability in words, Qt-free (issue 25): the Battle Information Panel's
preview before Confirm (RB *The Battle UI*: "the target's Total Defense Value
..., what you'll need to roll to succeed and how much damage you'll deal if you
do succeed"; for an area every victim, each with its own roll: docs/rules.md
*Abilities*), and the names of the ability buttons and effects on the board.
"""

from __future__ import annotations

from ...battle.area_abilities import AreaAbility, AreaPreview
from ...battle.area_effects import FALLING, EffectView
from ...battle.area_rules import VictimPreview
from ...battle.state import BattleState


def victim_line(state: BattleState, v: VictimPreview) -> str:
    """One victim before Confirm, in one short line: allies marked, its difficulty
    (the roll needed), its chance without and with karma, the damage on a hit."""
    name = f"<b>{state.names[v.character]}</b>" + (" <b>(ally)</b>" if v.ally else "")
    karma = (f", {v.hits_with_karma}% with {v.karma} karma" if v.karma else
             ", no karma vs an ally" if v.ally else "")
    return (f"{name}: difficulty {v.difficulty} ({v.need_roll}+), {v.hits}%{karma}; "
            f"{v.damage_on_hit} dmg")


def preview_html(state: BattleState, p: AreaPreview) -> str:
    """The BIP's text of an area ability awaiting Confirm: what, where, then a line
    per victim (allies marked), the characters in the area that are spared and
    why, the walls a Blast breaks, how long an effect stays (the notation and the
    cost in the first line)."""
    d = p.ability
    aim = "" if p.aim is None else f" at {p.aim[0]}, {p.aim[1]}"
    head = f"<b>{d.name}{aim}</b>"
    if p.refused is not None:
        return f"{head}: cannot be used here: {p.refused}"
    if p.falls:
        head += (f": lands in {p.falls} upkeep{'s' if p.falls != 1 else ''}, nobody is "
                 "hit now")
    elif not p.victims:
        head += ": no victim"
    else:
        n = len(p.victims)
        allies = sum(v.ally for v in p.victims)
        warn = f", <b>{allies} all{'y' if allies == 1 else 'ies'}</b>" if allies else ""
        head += f": {n} victim{'s' if n != 1 else ''}{warn}"
    lines = [f"{head} <small>({d.spec}, {d.ip_cost} IP)</small>"]
    lines += [victim_line(state, v) for v in p.victims]
    lines += [f"{state.names[i]}: spared ({why})" for i, why in p.spared]
    if p.walls:
        lines.append("breaks " + ", ".join(_feature(f) for f in p.walls))
    if p.lingers:
        lines.append(f"lingers for {p.lingers} upkeep{'s' if p.lingers != 1 else ''}")
    return "<br>".join(lines)


def _feature(f: tuple[int, int, str]) -> str:
    x, y, side = f
    return f"the wall at {x}, {y}" if not side else f"the border {x},{y},{side}"


def button_text(a: AreaAbility, uses_left: int | None) -> str:
    """An ability button's name: the ability, and its uses left when limited."""
    return a.name if uses_left is None else f"{a.name} [{uses_left}]"


def effect_label(state: BattleState, v: EffectView) -> str:
    """An effect's name on the board: the ability, and the upkeeps it has left to
    stay (a falling object: to land)."""
    e = v.effect
    if e.kind == FALLING:
        return f"{e.ability}: lands in {e.upkeeps}"
    return f"{e.ability} ({e.upkeeps})"
