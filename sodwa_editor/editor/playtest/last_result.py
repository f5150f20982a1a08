"""The last attack's result in the Battle Information Panel (RB *The Battle UI*, 2:
"Once the attack is confirmed, you'll see the Attack Difficulty ..., your roll
result (01 to 100), how much damage was dealt, and how much HP the target has left
if they weren't defeated"), Qt-free.

A result is the events of one attack: a Basic Attack (one :class:`Attacked`), or an
area ability (docs/rules.md *Abilities*): its use (:class:`AbilityUsed`) or the
upkeep of an effect it left (:class:`EffectUpkeep`), then one :class:`AreaHit` per
victim, each with its own roll.  :func:`follow` keeps it as a battle's events come
in (a new turn drops it, issue 24); :func:`result_html` words it.
"""

from __future__ import annotations

from ...battle.events import AbilityUsed, AreaHit, Attacked, EffectUpkeep, Event, TurnStarted
from ...battle.state import BattleState

#: the events of the last attack, in order (None: nothing to show)
LastResult = tuple[Event, ...]


def follow(last: LastResult | None, new: list[Event]) -> LastResult | None:
    """The last result after the events ``new``: a turn that begins drops it; a Basic
    Attack, an area ability's use or an effect's upkeep starts a new one, and the
    area's hits that follow join it."""
    for e in new:
        if isinstance(e, TurnStarted):
            last = None
        elif isinstance(e, Attacked | AbilityUsed | EffectUpkeep):
            last = (e,)
        elif isinstance(e, AreaHit):
            head = last[0] if last else None
            same = isinstance(head, AbilityUsed | EffectUpkeep) and head.ability == e.ability
            last = (*last, e) if last and same else (e,)
    return last


def _karma(spent: int, gained: int) -> str:
    return (f"karma spent {spent}" if spent else f"karma gained {gained}" if gained
            else "no karma")


def roll_text(state: BattleState, e: Attacked) -> str:
    """A Basic Attack's result."""
    left = (f"{state.names[e.target]} has {e.hp_after} HP left" if e.hp_after > 0
            else f"{state.names[e.target]} is defeated")
    return (f"<b>{state.names[e.actor]} attacked {state.names[e.target]}: "
            f"{'Hit' if e.success else 'Miss'}</b>, {e.damage} damage; {left}<br>"
            f"Attack Difficulty {e.difficulty}, roll {e.roll} (dice {e.dice[0]} and "
            f"{e.dice[1]}{', Doubles' if e.doubles else ''}), "
            f"{_karma(e.karma_spent, e.karma_gained)}")


def hit_line(state: BattleState, h: AreaHit) -> str:
    """One victim of an area, in one short line: its outcome, the roll against its
    difficulty, the damage and the HP left (the karma only when it moved)."""
    name = state.names[h.target] + (" (ally)" if h.ally else "")
    left = f"{h.hp_after} HP left" if h.hp_after > 0 else "defeated"
    karma = (f", karma spent {h.karma_spent}" if h.karma_spent else
             f", karma gained {h.karma_gained}" if h.karma_gained else "")
    return (f"<b>{name}: {'Hit' if h.success else 'Miss'}</b> roll {h.roll} vs "
            f"{h.difficulty}, {h.damage} damage, {left}{karma}")


def area_text(state: BattleState, last: LastResult) -> str:
    """An area ability's result: what was used, then a line per victim."""
    head, hits = last[0], [e for e in last if isinstance(e, AreaHit)]
    if isinstance(head, AbilityUsed):
        aim = "" if head.aim is None else f" at {head.aim[0]}, {head.aim[1]}"
        title = f"{state.names[head.actor]} used {head.ability}{aim}"
    elif isinstance(head, EffectUpkeep):
        title = f"{head.ability} of {state.names[head.caster]} (upkeep)"
    else:
        assert isinstance(head, AreaHit)
        title = f"{head.ability} of {state.names[head.actor]}"
    victims = "no victim" if not hits else f"{len(hits)} victim{'s' if len(hits) > 1 else ''}"
    return "<br>".join([f"<b>{title}</b>: {victims}"] + [hit_line(state, h) for h in hits])


def result_html(state: BattleState, last: LastResult) -> str:
    """The BIP's text of the last attack's result."""
    if isinstance(last[0], Attacked):
        return roll_text(state, last[0])
    return area_text(state, last)
