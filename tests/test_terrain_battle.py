"""Terrain properties in battles (docs/rules.md TP-B rows): golden tests from the
sentences of terrain-properties-vertical-space.txt (quoted), and maps without
properties playing exactly as before."""

from __future__ import annotations

import pytest
from battle_maps import battle, fighter, grid, index, turn_of, with_rules

from sodwa_editor.battle import terrain_entering as te
from sodwa_editor.battle.actions import Attack, Move, apply, legal_actions, refusal
from sodwa_editor.battle.describe import describe
from sodwa_editor.battle.dice import d100_from_value
from sodwa_editor.battle.targeting import engaged_with, preview_attack, situation
from sodwa_editor.battle.terrain_effects import TerrainEffects, area_modifiers
from sodwa_editor.engine.model import MapModel, MapObject
from sodwa_editor.engine.terrain import Base


def paint(m: MapModel, name: str, base: Base, props: dict, *tiles: tuple[int, int]) -> int:
    tid = m.registry.register(name, base, props)
    for x, y in tiles:
        m.terrain[y, x] = tid
    m.notify_bulk_change()
    return tid


def sources(state, attacker: str, target: str) -> dict[str, tuple[str, int]]:
    s = situation(state, index(state, attacker), index(state, target))
    return {m.source: (m.stat, m.amount) for m in s.extra}


def rolls(monkeypatch, *values: int) -> list[int]:
    """Script the d100 rolls of the entering effects (in order)."""
    left = list(values)
    monkeypatch.setattr(te, "_roll_of", lambda state: lambda: d100_from_value(left.pop(0)))
    return left


# ------------------------------------------------------------------ cover
def test_cover_terrain_gives_defense_against_ranged_attacks_only():
    """TP: "When a Target is in a Space which provides Cover ..., then Ranged Attacks
    made against them from that location are made with Disadvantage"; "The Attacks of
    Characters who are within Spaces whose Terrain provides Cover are not affected by
    the detriments of that Cover"."""
    m = grid("......")
    paint(m, "brush", Base.CLEAR, {"cover": {}}, (5, 0), (0, 0))
    s = battle(m, [fighter("a", 0, 0, 0, range=9), fighter("b", 1, 5, 0), fighter("c", 1, 1, 0)])
    assert sources(s, "a", "b") == {"cover (cover terrain)": ("defense", 20)}
    assert sources(s, "b", "a") == {"cover (cover terrain)": ("defense", 20)}
    assert sources(s, "a", "c") == {}  # melee: cover is against ranged attacks
    s = battle(m, [fighter("a", 0, 0, 0, range=9), fighter("b", 1, 5, 0)])
    turn_of(s, "a")
    p = preview_attack(s, index(s, "a"), index(s, "b"))
    assert ("cover (cover terrain)", "defense", 20) in [(x.source, x.stat, x.amount)
                                                        for x in p.modifiers]


def test_cover_does_not_stack_with_an_impeded_line():
    """Woodlands (Impeding base + Cover): SODWA's Impeding already gives the target +20
    Defense (RB: "If LoS crosses Impeding Terrain, the target gains a bonus modifier of
    20% to its Defense"); the same protection is not counted twice (TP-B1)."""
    m = grid("......")
    paint(m, "woods", Base.IMPEDING, {"cover": {}, "obscured": {}}, (5, 0))
    s = battle(m, [fighter("a", 0, 0, 0, range=9), fighter("b", 1, 5, 0)])
    mods = situation(s, 0, 1)
    assert mods.impeded and "cover (cover terrain)" not in {x.source for x in mods.extra}
    r = with_rules(terrain_properties={"cover_defense": 30})
    s = battle(m, [fighter("a", 0, 0, 0, range=9), fighter("b", 1, 5, 0)], rules=r)
    assert sources(s, "a", "b")["cover (cover terrain)"] == ("defense", 30)


def test_full_cover_makes_ranged_attacks_at_the_target_fail():
    """TP: "Full Cover causes Ranged Attacks against Targets benefitting from it to
    automatically fail": the attack is refused (it could only fail); melee is not."""
    m = grid("....\n....")
    paint(m, "rampart", Base.CLEAR, {"full_cover": {}}, (3, 0))
    s = battle(m, [fighter("a", 0, 0, 0, range=9), fighter("b", 1, 3, 0), fighter("c", 0, 2, 1)])
    b = index(s, "b")
    turn_of(s, "a")
    assert refusal(s, Attack(b)) == "'b' is in Full Cover: ranged attacks at it fail automatically"
    assert Attack(b) not in legal_actions(s)
    turn_of(s, "c")
    assert refusal(s, Attack(b)) is None


# ------------------------------------------------------------------ heights
def test_high_ground_is_cover_against_attacks_from_lower_terrain():
    """TP: "Characters in a Space which is High compared to surrounding Terrain have
    Cover against Attacks made from lower Terrain"; "Very High ... granting Characters
    in those Spaces Cover from Attacks even from Characters on High Terrain"."""
    m = grid("......")
    paint(m, "hill", Base.CLEAR, {"high": {}}, (0, 0))
    paint(m, "peak", Base.CLEAR, {"very_high": {}}, (5, 0))
    s = battle(m, [fighter("h", 0, 0, 0, range=9), fighter("v", 1, 5, 0, range=9),
                   fighter("g", 1, 2, 0, range=9)])
    assert sources(s, "g", "h") == {"cover (high ground)": ("defense", 20)}
    assert sources(s, "h", "v") == {"cover (very high ground)": ("defense", 20)}
    assert sources(s, "h", "g") == {} and sources(s, "v", "h") == {}


def test_exposed_height_keeps_its_cover_unless_the_rules_say_otherwise():
    """TP Exposed: "(although you may benefit from both if the Terrain is also High or
    Very High)" against High's "unless they are Exposed" (TP-B2)."""
    m = grid("....")
    paint(m, "mountainside", Base.DIFFICULT, {"exposed": {}, "steep": {}, "high": {}}, (3, 0))
    fighters = [fighter("a", 0, 0, 0, range=9), fighter("b", 1, 3, 0)]
    assert "cover (high ground)" in sources(battle(m, fighters), "a", "b")
    r = with_rules(terrain_properties={"exposed_cancels_height_cover": True})
    assert sources(battle(m, fighters, rules=r), "a", "b") == {}


def test_map_elevation_over_the_property_applies_sodwa_elevation_instead():
    """Issue 27: "High/Very High ground as SODWA elevation where the map says so or as a
    Defense bonus otherwise": a High tile the map also raises gets SODWA's elevation
    modifiers (B21), not Cover from the property."""
    m = grid("....", "0001")
    m.set_transition(2, 0, True)
    paint(m, "hill", Base.CLEAR, {"high": {}}, (3, 0))
    s = battle(m, [fighter("a", 0, 0, 0, range=9), fighter("b", 1, 3, 0)])
    assert sources(s, "a", "b") == {}


def test_no_melee_between_heights_unless_a_steep_slope_joins_them():
    """TP: "If Adjacent Characters are on Terrain at different Heights from each other,
    and they are not on a Terrain which could reach that Terrain (e.g. a hillside
    leading up a Hill), then they cannot hit each other with Melee Attacks"."""
    m = grid("...")
    paint(m, "plateau", Base.CLEAR, {"high": {}}, (1, 0))
    s = battle(m, [fighter("a", 0, 0, 0, range=1), fighter("b", 1, 1, 0, range=1)])
    a, b = index(s, "a"), index(s, "b")
    assert engaged_with(s, a) == [] and not situation(s, a, b).adjacent
    turn_of(s, "a")
    assert Attack(b) in legal_actions(s)  # a ranged attack at 1 tile, as across a cliff
    assert preview_attack(s, a, b).kind == "ranged"
    paint(m, "hillside", Base.DIFFICULT, {"steep": {}}, (0, 0))
    s = battle(m, [fighter("a", 0, 0, 0, range=1), fighter("b", 1, 1, 0, range=1)])
    assert engaged_with(s, index(s, "a")) == [index(s, "b")]


# ------------------------------------------------------------------ seeing
def test_an_attacker_in_the_dark_is_unseen_and_a_light_source_shows_it():
    """TP: "Characters within Dark Terrain are considered Obscured from Characters who
    cannot See in the Dark"; "The Dark Property is suppressed by Light Sources which are
    either in the same Space or an Adjacent Space"; RB: "Evasion raises a character's
    defense against any attacks it is aware of"."""
    m = grid("......")
    paint(m, "night", Base.CLEAR, {"dark": {}}, (0, 0), (1, 0))
    fighters = [fighter("a", 0, 0, 0, range=9), fighter("b", 1, 5, 0, evasion=15)]
    s = battle(m, fighters)
    assert sources(s, "a", "b") == {"attacker unseen (no Evasion)": ("evasion", -15)}
    assert sources(s, "b", "a") == {}
    turn_of(s, "a")
    p = preview_attack(s, 0, 1)
    assert p.tdv == p.defense  # no Evasion left
    m.put_object(MapObject("torch", "light", 1, 0))
    assert sources(battle(m, fighters), "a", "b") == {}
    m.remove_object("torch")
    r = with_rules(terrain_properties={"darkvision": ["Knight"]})
    assert sources(battle(m, fighters, rules=r), "a", "b") == {}


def test_full_dark_and_fully_obscured_targets_cannot_be_shot_but_can_be_struck():
    """TP: "Objects and Characters in Full Dark are considered Fully Obscured"; "Fully
    Obscured Terrain ... completely blocks the vision of Characters seeing into, out of
    or through it" (TP-B5)."""
    m = grid("......\n......")
    paint(m, "pit", Base.CLEAR, {"full_dark": {}}, (5, 0))
    s = battle(m, [fighter("a", 0, 0, 0, range=9), fighter("b", 1, 5, 0), fighter("c", 0, 4, 1)])
    turn_of(s, "a")
    assert refusal(s, Attack(1)) == "'b' is Fully Obscured from here"
    turn_of(s, "c")
    assert refusal(s, Attack(1)) is None
    m2 = grid("......")
    paint(m2, "smoke", Base.CLEAR, {"fully_obscured": {}}, (2, 0))
    s = battle(m2, [fighter("a", 0, 0, 0, range=9), fighter("b", 1, 5, 0)])
    turn_of(s, "a")
    assert refusal(s, Attack(1)) == "'b' is Fully Obscured from here"


def test_obscured_terrain_on_the_line_hides_the_attacker_at_range_not_at_arms_length():
    """TP: "Obscured Terrain represents Terrain which partially blocks the vision of
    Characters seeing into, out of or through it" (TP-B5)."""
    m = grid(".......\n.......")
    paint(m, "grass", Base.CLEAR, {"obscured": {}}, (3, 0), (4, 1))
    s = battle(m, [fighter("a", 0, 0, 0, range=9), fighter("b", 1, 6, 0, evasion=10),
                   fighter("c", 1, 4, 1, evasion=10), fighter("d", 0, 5, 1)])
    assert sources(s, "a", "b") == {"attacker unseen (no Evasion)": ("evasion", -10)}
    assert sources(s, "d", "c") == {}  # c looks out of the grass at arm's length


# ------------------------------------------------------------------ entering
def test_hazard_on_entering_a_failed_save_deals_scaled_damage(monkeypatch):
    """TP: "a Character must succeed on a DC 15 Body Defense Check when entering
    Hazardous Terrain to avoid the effects of that Terrain"; Lava "Causes 2d12 Fire
    Damage": 12 + 8 = 20 on the seed's scale, 25% on SODWA's (TP-B6, TP-B7)."""
    m = grid(".....\n.....")
    paint(m, "lava", Base.CLEAR, {"hazardous": {"hazard": "lava"}}, (2, 0))
    s = battle(m, [fighter("a", 0, 0, 0, reflex=40, health=20, damage_reduction=0),
                   fighter("b", 1, 4, 1)])
    turn_of(s, "a")
    rolls(monkeypatch, 40, 12, 8)  # save roll 40 >= difficulty 40: the lava lands
    events = apply(s, Move((3, 0)))
    [e] = [e for e in events if e.kind == "terrain_effect"]
    assert (e.tile, e.source, e.save, e.difficulty, e.roll, e.landed, e.damage) == (
        (2, 0), "hazardous: lava", "reflex", 40, 40, True, 5)
    assert s.hp[0] == 15 and e.hp_after == 15
    assert describe(e, s.names) == ("    hazardous: lava at 2,0: a fails the reflex save "
                                    "(roll 40 vs difficulty 40), damage 5, HP left 15")
    turn_of(s, "a")
    rolls(monkeypatch, 39)  # the save is made: nothing
    events = apply(s, Move((1, 0)))
    assert [(e.landed, e.damage) for e in events if e.kind == "terrain_effect"] == [(False, 0)]


def test_a_higher_dc_is_harder_to_save_and_flyers_are_spared(monkeypatch):
    m = grid("...\n...")
    paint(m, "fire", Base.CLEAR, {"hazardous": {"hazard": "fire", "dc": 17}}, (1, 0), (1, 1))
    s = battle(m, [fighter("a", 0, 0, 0, reflex=40), fighter("f", 0, 0, 1, flight=True),
                   fighter("b", 1, 2, 1)])
    turn_of(s, "a")
    rolls(monkeypatch, 30, 3, 3)
    [e] = [e for e in apply(s, Move((2, 0))) if e.kind == "terrain_effect"]
    assert e.difficulty == 30 and e.landed  # 40 - (17 - 15) * 5
    turn_of(s, "f")
    assert [e for e in apply(s, Move((1, 1))) if e.kind == "terrain_effect"] == []


def test_a_hazard_can_defeat_and_the_battle_ends(monkeypatch):
    m = grid("...")
    paint(m, "lava", Base.CLEAR, {"hazardous": {"hazard": "lava"}}, (1, 0))
    s = battle(m, [fighter("a", 0, 0, 0, health=2), fighter("b", 1, 2, 0)])
    turn_of(s, "a")
    rolls(monkeypatch, 99, 12, 12)
    kinds = [e.kind for e in apply(s, Move((1, 0)))]
    assert kinds[-3:] == ["terrain_effect", "defeated", "battle_ended"]
    assert s.result is not None and s.result.winner == 1


def test_a_hidden_trap_springs_once_on_the_first_to_enter(monkeypatch):
    """TP: "When a Character unaware of the Trap enters this Terrain, the effects of the
    Trap are triggered"; Pit Trap: "Character is Knocked Prone and takes 2d6 Bludgeoning
    Damage" (TP-B8)."""
    m = grid(".....\n.....")
    paint(m, "pit", Base.CLEAR, {"trapped": {"trap": "pit"}}, (2, 0))
    s = battle(m, [fighter("a", 0, 0, 0, reflex=40), fighter("b", 1, 4, 1)])
    turn_of(s, "a")
    rolls(monkeypatch, 60, 6, 6)
    [e] = [e for e in apply(s, Move((2, 0))) if e.kind == "terrain_effect"]
    assert (e.source, e.damage, e.condition) == ("trapped: pit", max(1, 12 * 25 // 100 - 2),
                                                 "prone")
    assert te.conditions_of(s, 0) == ("prone",)
    assert s.effects[("trap sprung", 2, 0)] is True
    turn_of(s, "a")  # stands up: no Move this turn
    assert s.turn_move == 0 and te.conditions_of(s, 0) == ()
    turn_of(s, "a")
    apply(s, Move((1, 1)))
    turn_of(s, "b")
    rolls(monkeypatch)
    assert [e for e in apply(s, Move((2, 0))) if e.kind == "terrain_effect"] == []


def test_passing_over_precarious_terrain_asks_for_balance(monkeypatch):
    """TP: "a Character may choose to expend one additional point of Movement to move
    safely, or opt to instead make a Dexterity with Athletics Check to move at a normal
    speed though it. A failed Check will result in them being Knocked Prone"; SODWA has
    no points: stopping on the tile is the safe way, passing over it the check (TP-B8)."""
    m = grid("......")
    paint(m, "ledge", Base.CLEAR, {"precarious": {}}, (1, 0), (2, 0))
    s = battle(m, [fighter("a", 0, 0, 0, reflex=40), fighter("b", 1, 5, 0)])
    turn_of(s, "a")
    rolls(monkeypatch, 70)  # reflex 40 + (15 - 10) * 5 = 65: a roll of 70 falls
    events = apply(s, Move((4, 0)))
    [e] = [e for e in events if e.kind == "terrain_effect"]
    assert (e.tile, e.difficulty, e.landed, e.stopped) == ((1, 0), 65, True, (1, 0))
    assert s.pos[0] == (1, 0) and te.conditions_of(s, 0) == ("prone",)
    assert describe(e, s.names).endswith("prone, stops at 1,0")
    turn_of(s, "a")  # stands up
    turn_of(s, "a")
    rolls(monkeypatch)
    events = apply(s, Move((2, 0)))  # ending the move on it is safe
    assert [e for e in events if e.kind == "terrain_effect"] == []


def test_water_modifiers_are_liquids_and_deep_water_slows(monkeypatch):
    """RB Liquid "imposes several modifiers on targets that occupy it. These modifiers
    will be created later"; TP: Deep Water "must Swim to enter it" (TP-B9)."""
    m = grid("L....\n.L...")
    paint(m, "sea", Base.LIQUID, {"deep_water": {}}, (0, 0))
    paint(m, "coast", Base.LIQUID, {"shallow_water": {}}, (1, 1))
    s = battle(m, [fighter("a", 0, 0, 0, range=9, evasion=30), fighter("b", 0, 1, 1, evasion=30),
                   fighter("c", 1, 4, 0, range=9)])
    assert sources(s, "c", "a") == {"defender in deep water": ("evasion", -20)}
    assert sources(s, "a", "c") == {"attacker in deep water": ("accuracy", -20)}
    assert sources(s, "c", "b") == {"defender in shallow water": ("evasion", -10)}
    turn_of(s, "a")
    assert s.turn_move == s.sheets[0].move // 2 - 1  # Liquid halves (M5), deep water -1


def test_conditions_poisoned_and_restrained(monkeypatch):
    """TP Poison Darts: "Poisoned for the remainder of the Conflict"; Net Trap: "Character
    is Restrained by a Net. Body Defense DC15 to end the effect" (TP-B10)."""
    m = grid("....")
    paint(m, "net", Base.CLEAR, {"trapped": {"trap": "net"}}, (1, 0))
    s = battle(m, [fighter("a", 0, 0, 0, range=9), fighter("b", 1, 3, 0, reflex=40)])
    te.set_condition(s, 0, "poisoned", True)
    te.set_condition(s, 1, "restrained", True)
    assert sources(s, "a", "b") == {"attacker poisoned": ("accuracy", -20),
                                    "defender restrained": ("defense", -20)}
    turn_of(s, "b")  # the save to break free, rolled on the battle's dice
    [e] = [e for e in s.events if e.kind == "terrain_effect"]
    assert (e.source, e.save, e.difficulty, e.landed) == ("restrained", "reflex", 40,
                                                           e.roll >= 40)
    assert s.turn_move == 0 and te.conditions_of(s, 1) == (("restrained",) if e.landed
                                                            else ())
    s.effects.clear()
    assert sources(s, "a", "b") == {}


def test_an_area_through_cover_gives_its_victims_defense():
    """TP: "if an Area Effect extends from a point of origin through Cover, or into a
    Space whose Terrain provides Cover, then Characters will have Advantage on Body
    Defense Checks against that effect" (TP-B4)."""
    m = grid("......")
    paint(m, "hedge", Base.CLEAR, {"cover": {}}, (2, 0))
    s = battle(m, [fighter("a", 0, 0, 0), fighter("b", 1, 4, 0), fighter("c", 1, 1, 0)])
    assert [(x.source, x.amount) for x in area_modifiers(s, 0, 1, (0, 0))] == [
        ("area through cover", 20)]
    assert area_modifiers(s, 0, 1, (5, 0)) == ()
    assert [x.source for x in area_modifiers(s, 0, 1, (2, 0))] == ["area through cover"]


# ------------------------------------------------------------------ as before
def test_a_map_without_properties_has_no_terrain_effects():
    m = grid("....")
    m.registry.register("icy", Base.DIFFICULT, custom={"x": {"type": "int", "value": 1}})
    s = battle(m, [fighter("a", 0, 0, 0), fighter("b", 1, 3, 0)])
    assert not any(isinstance(a, TerrainEffects) for a in s.abilities)
    m.registry.update("icy", properties={"cover": {}})
    s = battle(m, [fighter("a", 0, 0, 0), fighter("b", 1, 3, 0)])
    assert any(isinstance(a, TerrainEffects) for a in s.abilities)
    off = with_rules(terrain_properties={"enabled": False})
    assert not battle(m, [fighter("a", 0, 0, 0), fighter("b", 1, 3, 0)], rules=off).abilities


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_properties_switched_off_play_exactly_as_the_map_without_them(seed):
    """The property test of issue 27: with ``terrain_properties.enabled`` false a map
    with properties plays the battle of the same map with none (same events, same state
    hashes after every turn)."""
    from sodwa_editor.battle.ai import make_controllers
    from sodwa_editor.battle.loop import run_battle
    from sodwa_editor.benchmarks import random_teams
    from sodwa_editor.engine.samples import SAMPLE_MAPS

    def play(model, rules):
        from sodwa_editor.battle.state import BattleState

        teams = [(z, t, f) for z, (_, t, f) in zip(sorted(model.start_zones),
                                                   random_teams(seed, 3), strict=True)]
        st = BattleState.from_teams(model, teams, seed=seed, rules=rules)
        hashes: list[str] = []
        out = run_battle(st, make_controllers(["greedy", "greedy"], st),
                         after_turn=lambda x: hashes.append(x.state_hash()))
        return [e.to_dict() for e in out.events], hashes

    plain = SAMPLE_MAPS["outdoor-skirmish"]()
    with_props = plain.copy()
    icy = with_props.registry.id_of("icy")
    with_props.registry.update("icy", properties={"hazardous": {"hazard": "fire"},
                                                  "dark": {}})
    with_props.registry.register("woods", Base.IMPEDING, {"cover": {}, "obscured": {}})
    assert icy == with_props.registry.id_of("icy")
    off = with_rules(terrain_properties={"enabled": False})
    assert play(with_props, off) == play(plain, off) == play(plain, None)


def test_rules_keys_reach_the_battle():
    r = with_rules(terrain_properties={"damage_percent": 50, "min_damage": 0})
    m = grid("...")
    s = battle(m, [fighter("a", 0, 0, 0), fighter("b", 1, 2, 0)], rules=r)
    assert te.scaled_damage(s, 0, 7, "fire", False) == 1  # 3 less DR 2 (energy)
    assert te.scaled_damage(s, 0, 7, "poison", False) == 3  # bio: DR does not apply
    assert te.scaled_damage(s, 0, 0, "fire", True) == 0


@pytest.mark.parametrize(("seed", "pair"), [(0, ("random", "random")), (1, ("greedy", "random")),
                                            (2, ("greedy", "greedy"))])
def test_battles_with_properties_and_altitude_keep_every_invariant(seed, pair):
    """Battles on the outdoor sample painted with the seed's presets, a trap and a light,
    altitude layers and knock-back on: every action re-derived by the invariant checks,
    every state checked, and the same seed giving the same log again."""
    import sys
    from collections import Counter
    from pathlib import Path

    from sodwa_editor.battle import invariants
    from sodwa_editor.battle.ai import make_controllers
    from sodwa_editor.battle.loop import run_battle
    from sodwa_editor.battle.state import BattleState
    from sodwa_editor.benchmarks import random_teams

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
    from terrain_properties import props_map

    model = props_map()
    rules = with_rules(altitude={"enabled": True, "collision": True})

    def build():
        teams = [(z, t, f) for z, (_, t, f) in zip(("north", "south"), random_teams(seed, 4),
                                                   strict=True)]
        return BattleState.from_teams(model, teams, seed=seed, rules=rules)

    state = build()
    problems: Counter[str] = Counter()
    run_battle(state, make_controllers(list(pair), state),
               before_action=lambda s, a: problems.update(invariants.action_problems(s, a)),
               after_turn=lambda s: problems.update(invariants.state_problems(s)))
    assert not problems
    assert state.result is not None
    kinds = {e.kind for e in state.events}
    assert "terrain_effect" in kinds
    again = build()
    run_battle(again, make_controllers(list(pair), again))
    assert [e.to_dict() for e in again.events] == [e.to_dict() for e in state.events]


def test_a_replay_of_a_battle_with_properties_and_altitude_verifies():
    """Replays (issue 11) carry terrain effects and layer changes: re-running the
    decisions with ``verify`` gives the same log."""
    from dataclasses import replace as dc_replace

    from sodwa_editor.battle.replay import load_replay, record, rerun
    from sodwa_editor.battle.setup import BattleSetup
    from sodwa_editor.engine.generate import make_mixed_map

    model = make_mixed_map(12, seed=4)
    paint(model, "lava", Base.CLEAR, {"hazardous": {"hazard": "lava"}, "dark": {}},
          *[(x, y) for y in range(12) for x in range(12) if (x + y) % 5 == 0
            and model.terrain[y, x] == 0])
    setup = BattleSetup.from_map(model, ai=("random", "random"))
    setup = dc_replace(setup, rules=with_rules(altitude={"enabled": True, "collision": True}))
    out, doc = record(setup, 5, map_file="m.json", map_hash="sha256:00")
    again = rerun(load_replay(doc, "r.json"), setup.model, "sha256:00", verify=True)
    assert [e.to_dict() for e in again.events] == [e.to_dict() for e in out.events]
    assert "terrain_effect" in {e.kind for e in out.events}
