"""Small hand-made battles for the battle tests: a map from text rows, characters with
chosen sheets, and a way to hand the turn to a chosen character."""

from __future__ import annotations

from dataclasses import replace

from sodwa_editor.battle.actions import begin_turn, next_turn
from sodwa_editor.battle.board import prepare
from sodwa_editor.battle.rules import Rules, default_rules
from sodwa_editor.battle.sheet import Sheet, load_roster
from sodwa_editor.battle.state import BattleState
from sodwa_editor.battle.teams import Combatant
from sodwa_editor.engine.model import MapModel
from sodwa_editor.engine.terrain import Base

CODES = {".": Base.CLEAR, "I": Base.IMPEDING, "X": Base.OBSTRUCTING, "D": Base.DIFFICULT,
         "L": Base.LIQUID}
RULES = default_rules()


def grid(rows: str, levels: str | None = None) -> MapModel:
    """Map from text rows ('.' clear, 'I' impeding, 'X' obstructing, 'D' difficult,
    'L' liquid) and optional rows of elevation digits."""
    lines = rows.split()
    m = MapModel(len(lines[0]), len(lines))
    m.terrain[:] = [[int(CODES[c]) for c in line] for line in lines]
    if levels is not None:
        m.elevation[:] = [[int(c) for c in line] for line in levels.split()]
    m.notify_bulk_change()
    return m


def sheet(name: str, **values: object) -> Sheet:
    """A plain sheet (the roster's Knight, renamed) with ``values`` changed."""
    return replace(load_roster().find("Knight").sheet(name), **values)  # type: ignore[arg-type]


def fighter(name: str, team: int, x: int, y: int, **values: object) -> Combatant:
    return Combatant(name, team, "ab"[team], sheet(name, **values), x, y)


def battle(model: MapModel, fighters: list[Combatant], rules: Rules = RULES,
           seed: int = 0, **kw: object) -> BattleState:
    return BattleState(prepare(model), fighters, rules, seed, **kw)  # type: ignore[arg-type]


def index(state: BattleState, name: str) -> int:
    return state.names.index(name)


def turn_of(state: BattleState, name: str) -> int:
    """End any open turn, then give ``name`` the turn (its IP set to the threshold, every
    other character's to 0)."""
    from sodwa_editor.battle.actions import Pass, apply

    if state.turn is not None:
        apply(state, Pass())
    i = index(state, name)
    clock = state.clock
    for j in range(len(clock.ip)):
        target = clock.rules.turn_threshold if j == i else 0
        clock.adjust_ip(j, target - clock.ip[j])
    clock.acted = [False] * len(clock.ip)
    choice = next_turn(state)
    assert choice is not None and choice.candidates == (i,)
    begin_turn(state, i)
    return i


def with_rules(**sections: dict[str, object]) -> Rules:
    """The default rules with some keys of some sections changed."""
    rules = RULES
    for name, values in sections.items():
        section = getattr(rules, name)
        if name == "terrain" and "liquid" in values:
            liquid = replace(section.liquid, **values.pop("liquid"))  # type: ignore[arg-type]
            values = {**values, "liquid": liquid}
        rules = replace(rules, **{name: replace(section, **values)})
    return rules
