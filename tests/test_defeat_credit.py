"""A character defeated by terrain or a fall is nobody's kill (docs/rules.md B54): the
log names no character and gives the cause; kill counts and balance reports credit no
one; the battle log validates and its audit re-derives the terrain's damage."""

from __future__ import annotations

from battle_maps import battle, fighter, grid, turn_of

from sodwa_editor.battle import altitude as alt
from sodwa_editor.battle import terrain_entering as te
from sodwa_editor.battle.actions import Move, apply
from sodwa_editor.battle.audit_log import audit
from sodwa_editor.battle.batch_play import play, setup_seed
from sodwa_editor.battle.battle_log import battle_log
from sodwa_editor.battle.describe import describe
from sodwa_editor.battle.dice import d100_from_value
from sodwa_editor.battle.events import NOBODY, Defeated
from sodwa_editor.battle.jsonfiles import validate
from sodwa_editor.battle.loop import run_battle
from sodwa_editor.battle.setup import BattleSetup
from sodwa_editor.engine.model import Character, MapModel
from sodwa_editor.engine.terrain import Base


def lava_field() -> MapModel:
    m = MapModel(8, 8)
    lava = m.registry.register("lava", Base.CLEAR, {"hazardous": {"hazard": "lava"}})
    m.terrain[1:7, :] = lava
    m.notify_bulk_change()
    for i in range(3):
        m.put_character(Character(f"r{i}", "red", 2 * i, 0, move=4, range=1, name="Knight"))
        m.put_character(Character(f"b{i}", "blue", 2 * i, 7, move=4, range=1, name="Knight"))
    return m


def lava_step(monkeypatch):  # type: ignore[no-untyped-def]
    """A (2 HP) about to step onto lava, its save failing and the lava's dice 12, 12."""
    m = grid("...")
    m.terrain[0, 1] = m.registry.register("lava", Base.CLEAR,
                                          {"hazardous": {"hazard": "lava"}})
    m.notify_bulk_change()
    s = battle(m, [fighter("a", 0, 0, 0, health=2), fighter("b", 1, 2, 0)])
    turn_of(s, "a")
    left = [99, 12, 12]
    monkeypatch.setattr(te, "_roll_of", lambda state: lambda: d100_from_value(left.pop(0)))
    return s


def test_a_hazard_defeat_names_no_character_and_its_cause(monkeypatch):
    """B54: "defeated by hazardous: lava", not by the character itself."""
    s = lava_step(monkeypatch)
    [d] = [e for e in apply(s, Move((1, 0))) if isinstance(e, Defeated)]
    assert (d.character, d.by, d.cause) == (0, NOBODY, "hazardous: lava")
    assert d.to_dict() == {"kind": "defeated", "character": 0, "by": -1, "tile": [1, 0],
                           "cause": "hazardous: lava"}
    assert describe(d, s.names) == "    a defeated by hazardous: lava"
    by_hand = Defeated(1, 0, (2, 0))
    assert "cause" not in by_hand.to_dict()  # a character's kill reads as before
    assert describe(by_hand, s.names) == "    b defeated by a"


def test_a_fall_is_nobodys_kill():
    """B54 with VS4: a flyer knocked down falls; the fall, not the flyer, defeats it."""
    m = grid("....")
    s = battle(m, [fighter("f", 0, 0, 0, health=1, flight=True, fortitude=1),
                   fighter("b", 1, 3, 0)],
               rules=alt_rules())
    s.effects[("altitude", 0)] = 3
    events = alt.fall(s, 0, lambda: d100_from_value(50))
    [d] = [e for e in events if isinstance(e, Defeated)]
    assert (d.by, d.cause) == (NOBODY, "fall")


def alt_rules():
    from battle_maps import with_rules

    return with_rules(altitude={"enabled": True})


def test_kill_counts_and_logs_credit_nobody_for_terrain_defeats():
    """B54 in the balance stats: over battles on a lava field, every kill counted is a
    character's defeat of another (the lava's are no one's), and each battle's log
    validates and passes the audit with the lava's damage re-derived."""
    setup = BattleSetup.from_map(lava_field(), ai=("random", "random"))
    by_lava = 0
    for k in range(6):
        record = play(setup, 7, k, False)
        state = setup.state(setup_seed(setup, 7, k, False))
        out = run_battle(state, setup.controllers(state))
        defeats = [e for e in out.events if isinstance(e, Defeated)]
        nobody = [e for e in defeats if e.by == NOBODY]
        assert all(e.cause.startswith("hazardous: lava") for e in nobody)
        assert all(e.by != e.character for e in defeats)
        assert sum(c[2] for c in record["chars"]) == len(defeats) - len(nobody)
        by_lava += len(nobody)
        log = battle_log(setup.state(setup_seed(setup, 7, k, False)), out,
                         map_name="lava", map_hash="sha256:" + "0" * 64, seed=k,
                         controllers=("random", "random"), profiles=setup.profile_docs())
        validate(log, "battle-log", f"log {k}")
        result = audit(log, f"log {k}")
        assert result.ok, result.problems[:3]
    assert by_lava > 0


def test_the_playtest_results_credit_nobody_for_a_terrain_defeat(monkeypatch):
    """B54 in the playtest's result panel: a defeat by lava adds no kill to anyone
    (before, ``by == -1`` credited the last fighter in the list)."""
    from sodwa_editor.editor.playtest.result_panel import character_stats

    s = lava_step(monkeypatch)
    apply(s, Move((1, 0)))
    assert any(isinstance(e, Defeated) and e.by == NOBODY for e in s.events)
    assert [st.kills for st in character_stats(s)] == [0, 0]
