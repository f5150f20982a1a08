"""What the playtest says about its battle in words (Qt-free): the side's name as
people read it everywhere (:func:`~sodwa_editor.battle.describe.side_label`:
``attackers (team 0)``) and the one line of what the game waits for (the Battle
Information Panel's status)."""

from __future__ import annotations

from ...battle.describe import side_label
from ...battle.session import BattleSession
from ...battle.state import BattleState


def side_name(state: BattleState, team: int) -> str:
    """Side ``team`` of ``state`` as people read it (``attackers (team 0)``)."""
    side = next((f.side for f in state.fighters if f.team == team), None)
    return side_label(side, team)


def status_text(s: BattleSession, playing: bool) -> str:
    """What the game waits for, in one line (``playing``: the AI plays on its timer)."""
    state = s.state
    if state.result is not None:
        return "The battle is over."
    head = f"Turn {state.clock.turns}, tick {state.clock.tick}"
    w = s.waiting
    if w is not None and w.kind == "actor":
        names = ", ".join(state.names[i] for i in w.candidates)
        return (f"{head}: {side_name(state, w.team)} (Human) picks who acts: click one "
                f"of {names}")
    if state.actor is None:
        return f"{head}: between turns" + ("" if playing else " (paused: F6 plays)")
    team = state.team[state.actor]
    who = f"{state.names[state.actor]} ({side_name(state, team)}"
    if w is not None:
        return (f"{head}: {who}, Human): click a blue tile to move, a marked enemy to "
                "attack, P to pass")
    how = "from the replay" if s.scripted(team) else f"AI {s.player(team)}"
    paused = "" if playing else "; paused: F6 plays, F7 one action"
    return f"{head}: {who}, {how}){paused}"
