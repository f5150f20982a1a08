"""Vertical space in battles (docs/rules.md VS rows): altitude layers, adjacency within
one layer, falling and collision damage, behind their rules switches."""

from __future__ import annotations

from battle_maps import battle, fighter, grid, index, turn_of, with_rules

from sodwa_editor.battle import altitude as alt
from sodwa_editor.battle import terrain_entering as te
from sodwa_editor.battle.abilities import UseAbility
from sodwa_editor.battle.actions import Attack, apply, legal_actions, refusal
from sodwa_editor.battle.describe import describe
from sodwa_editor.battle.dice import d100_from_value
from sodwa_editor.battle.targeting import engaged_with

ON = with_rules(altitude={"enabled": True})
UP, DOWN = UseAbility("fly up"), UseAbility("fly down", (1,))


def script(*values: int):
    left = list(values)
    return lambda: d100_from_value(left.pop(0))


def test_no_altitude_without_the_switch_or_a_flyer():
    m = grid("...")
    fighters = [fighter("h", 0, 0, 0, flight=True), fighter("b", 1, 2, 0)]
    assert not any(isinstance(a, alt.Altitude) for a in battle(m, fighters).abilities)
    walkers = [fighter("a", 0, 0, 0), fighter("b", 1, 2, 0)]
    assert not battle(m, walkers, rules=ON).abilities
    s = battle(m, fighters, rules=ON)
    assert any(isinstance(a, alt.Altitude) for a in s.abilities)


def test_fly_up_and_down_is_the_move_action():
    """TP: "A Character who is Flying against gravity (i.e. moving upwards a layer) must
    expend 1 Additional Movement"; "Flying with gravity ... can move 2 Spaces for each
    Space of Movement" (VS3)."""
    m = grid("....")
    s = battle(m, [fighter("h", 0, 0, 0, flight=True), fighter("w", 0, 1, 0),
                   fighter("b", 1, 3, 0)], rules=ON)
    h = index(s, "h")
    turn_of(s, "w")
    assert refusal(s, UP) == "'w' cannot fly"
    turn_of(s, "h")
    assert UP in legal_actions(s) and DOWN not in legal_actions(s)
    [e] = apply(s, UP)
    assert (e.before, e.after) == (0, 1) and alt.altitude_of(s, h) == 1
    assert describe(e, s.names) == "    h flies ground -> low"
    assert refusal(s, UP) == "Move Action already taken this turn"
    for _ in range(2):
        turn_of(s, "h")
        apply(s, UP)
    turn_of(s, "h")
    assert refusal(s, UP) == "already at the highest layer here (very_high)"
    assert refusal(s, UseAbility("fly down", (3,))) == "fly down 1 to 2 layer(s), not 3"
    apply(s, UseAbility("fly down", (2,)))
    assert alt.altitude_of(s, h) == 1 and ("altitude", h) in s.effects


def test_layers_and_the_indoor_ceiling():
    """RB: Indoor Obstructing Terrain "is considered to rise from the floor to the
    ceiling" (VS1)."""
    m = grid("....")
    m.set_setting("indoor")
    s = battle(m, [fighter("h", 0, 0, 0, flight=True), fighter("b", 1, 3, 0)], rules=ON)
    turn_of(s, "h")
    apply(s, UP)
    turn_of(s, "h")
    assert refusal(s, UP) == "already at the highest layer here (low)"
    assert alt.layer_of_name("very high") == 3


def test_adjacency_within_one_layer():
    """TP: "Characters are considered Adjacent to each other if they are in an Adjacent
    Space and within one Layer of each other" (VS2)."""
    m = grid("...")
    s = battle(m, [fighter("h", 0, 0, 0, flight=True, range=3), fighter("b", 1, 1, 0)],
               rules=ON)
    h, b = index(s, "h"), index(s, "b")
    s.effects[("altitude", h)] = 1
    assert engaged_with(s, h) == [b]  # Low is adjacent to the Ground
    s.effects[("altitude", h)] = 2
    s.changed()
    assert engaged_with(s, h) == [] and engaged_with(s, b) == []
    turn_of(s, "h")
    assert refusal(s, Attack(b)) is None  # a ranged attack down at the ground


def test_a_flyer_falls_with_damage_per_layer():
    """TP: "On a Successful Check they take 3 Bludgeoning Damage for each Layer they fell
    by. On a Failed Check, the Damage is 5 for each Layer they fell by and the Character
    is Knocked Down" (VS4; 25% on SODWA's scale, less DR)."""
    m = grid("...")
    s = battle(m, [fighter("h", 0, 0, 0, flight=True, fortitude=50, damage_reduction=0),
                   fighter("b", 1, 2, 0)], rules=ON)
    h = index(s, "h")
    s.effects[("altitude", h)] = 3
    [e] = alt.fall(s, h, script(49))  # 49 < 50: the save is made
    assert (e.fell, e.before, e.after, e.damage) == (True, 3, 0, 2)  # 9 * 25% = 2
    assert te.conditions_of(s, h) == () and alt.altitude_of(s, h) == 0
    s.effects[("altitude", h)] = 2
    [e] = alt.fall(s, h, script(50))
    assert e.damage == 2 and te.conditions_of(s, h) == ("prone",)  # 10 * 25%
    assert describe(e, s.names).startswith("    h falls from high (roll 50 vs difficulty 50)")
    assert alt.fall(s, h, script()) == []  # on the ground: no fall


def test_a_flyer_left_prone_in_the_air_falls():
    m = grid("...")
    s = battle(m, [fighter("h", 0, 0, 0, flight=True), fighter("b", 1, 2, 0)], rules=ON)
    h = index(s, "h")
    s.effects[("altitude", h)] = 1
    [ability] = [a for a in s.abilities if isinstance(a, alt.Altitude) and a.events]
    event = te.TerrainEffect(h, (0, 0), "trapped: net", "reflex", 0, 50, True, 0,
                             "restrained", s.hp[h])
    assert [e.kind for e in ability.on_event(s, event)] == ["altitude_changed"]
    assert alt.altitude_of(s, h) == 0


def test_doubles_knock_back_and_a_wall_deals_collision_damage():
    """RB Doubles: "causing the target to get knocked back by a ranged attack"; TP: "For
    each Space a Character is prevented from Moving, they will take 1d6 Bludgeoning
    Damage ... On a Failed Check, Double the Damage" (VS5)."""
    rules = with_rules(altitude={"collision": True},
                       terrain_properties={"damage_percent": 100})
    m = grid(".....")
    s = battle(m, [fighter("a", 0, 0, 0), fighter("b", 1, 3, 0, reflex=40,
                                                  damage_reduction=0)], rules=rules)
    b = index(s, "b")
    [e] = alt.knock_back(s, index(s, "a"), b, script())
    assert (e.start, e.to) == ((3, 0), (4, 0)) and s.pos[b] == (4, 0)
    [e] = alt.knock_back(s, index(s, "a"), b, script(6, 40))  # the map's edge: 6, doubled
    assert (e.to, e.damage, e.roll, e.difficulty) == (None, 12, 40, 40)
    assert describe(e, s.names).startswith("    b knocked against a wall at 4,0")
    s2 = battle(m, [fighter("a", 0, 0, 0), fighter("b", 1, 3, 0)])
    assert not any(isinstance(x, alt.Altitude) for x in s2.abilities)  # switch off
