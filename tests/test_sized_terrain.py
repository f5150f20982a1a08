"""Terrain properties under creatures larger than one tile (docs/rules.md TP-B12 to
TP-B15): each property read at the squares the seed's sentence speaks of, with a 2x2
(Large) creature whose top-left tile alone would give another answer."""

from __future__ import annotations

from battle_maps import battle, fighter, grid, index, turn_of
from test_terrain_battle import paint, rolls, sources  # the same painting and scripted rolls

from sodwa_editor.battle.abilities import UseAbility
from sodwa_editor.battle.ability_defs import ability_from_dict
from sodwa_editor.battle.actions import Attack, Move, apply, refusal
from sodwa_editor.battle.area_abilities import preview_ability
from sodwa_editor.battle.targeting import attack_refusal, situation
from sodwa_editor.engine.model import MapModel
from sodwa_editor.engine.terrain import Base


def large(name: str, team: int, x: int, y: int, **values: object):
    return fighter(name, team, x, y, size="large", **values)


# ------------------------------------------------------------------ TP-B12: defending
def test_cover_and_height_are_read_at_the_square_the_attacks_line_reaches():
    """TP-B12: "When a Target is in a Space which provides Cover with respect to a
    location": a larger target is in the Space the attack's line reaches (S9's best
    line), not at its top-left tile; High ground likewise."""
    m = grid("........\n........")
    paint(m, "brush", Base.CLEAR, {"cover": {}}, (5, 1))
    s = battle(m, [fighter("a", 0, 0, 1, range=9), large("g", 1, 5, 0)])
    assert sources(s, "a", "g") == {"cover (cover terrain)": ("defense", 20)}
    s = battle(m, [fighter("a", 0, 0, 0, range=9), large("g", 1, 5, 0)])
    assert sources(s, "a", "g") == {}  # its line reaches (5, 0), in the open
    m = grid("........\n........")
    paint(m, "hill", Base.CLEAR, {"high": {}}, (5, 1))
    s = battle(m, [fighter("a", 0, 0, 1, range=9), large("g", 1, 5, 0)])
    assert sources(s, "a", "g") == {"cover (high ground)": ("defense", 20)}


def test_full_cover_is_read_at_the_square_the_line_reaches():
    """TP-B12: "Full Cover causes Ranged Attacks against Targets benefitting from it to
    automatically fail"."""
    m = grid("........\n........")
    paint(m, "rampart", Base.CLEAR, {"full_cover": {}}, (5, 1))
    s = battle(m, [fighter("a", 0, 0, 1, range=9), large("g", 1, 5, 0)])
    turn_of(s, "a")
    g = index(s, "g")
    assert refusal(s, Attack(g)) == "'g' is in Full Cover: ranged attacks at it fail " \
        "automatically"
    s = battle(m, [fighter("a", 0, 0, 0, range=9), large("g", 1, 5, 0)])
    assert attack_refusal(s, index(s, "a"), index(s, "g")) is None


def test_a_large_attacker_in_the_dark_is_read_at_the_square_its_line_leaves():
    """TP-B12 with TP-B5: "Characters within Dark Terrain are considered Obscured from
    Characters who cannot See in the Dark": the defender looks at the attacker's square
    its line of sight reaches."""
    m = grid("........\n........")
    paint(m, "night", Base.CLEAR, {"dark": {}}, (2, 1))
    s = battle(m, [large("a", 0, 1, 0, range=9), fighter("b", 1, 6, 1, evasion=15)])
    assert sources(s, "a", "b") == {"attacker unseen (no Evasion)": ("evasion", -15)}
    s = battle(m, [large("a", 0, 1, 0, range=9), fighter("b", 1, 6, 0, evasion=15)])
    assert sources(s, "a", "b") == {}  # b sees (2, 0), lit


def test_melee_between_heights_by_touching_squares():
    """TP-B13: "If Adjacent Characters are on Terrain at different Heights from each
    other, and they are not on a Terrain which could reach that Terrain ..., then they
    cannot hit each other with Melee Attacks": a larger creature half on a hill may
    strike a foe beside its squares on the ground, and not one touching only its
    squares on the hill."""
    m = grid("....\n....\n....\n....")
    paint(m, "hill", Base.CLEAR, {"high": {}}, (1, 1), (2, 1))
    s = battle(m, [large("g", 0, 1, 1, range=1), fighter("b", 1, 0, 2, range=1)])
    assert situation(s, index(s, "g"), index(s, "b")).adjacent  # beside (1, 2)
    s = battle(m, [large("g", 0, 1, 1, range=1), fighter("b", 1, 1, 0, range=1)])
    assert not situation(s, index(s, "g"), index(s, "b")).adjacent  # only hill squares


def test_water_under_any_square_is_liquids_modifier(monkeypatch):
    """TP-B14: in water as in Liquid when any square is (S23); the deepest counts."""
    m = grid("L.....\nLL....")
    paint(m, "coast", Base.LIQUID, {"shallow_water": {}}, (0, 0), (0, 1))
    paint(m, "sea", Base.LIQUID, {"deep_water": {}}, (1, 1))
    s = battle(m, [large("g", 0, 0, 0, evasion=30, move=6), fighter("c", 1, 5, 0, range=9)])
    assert sources(s, "c", "g") == {"defender in deep water": ("evasion", -20)}
    turn_of(s, "g")
    assert s.turn_move == 6 // 2 - 1  # Liquid halves (M5, S7), deep water -1


def test_an_area_hitting_a_large_victim_reads_cover_where_it_hits():
    """TP-B12 with TP-B4: "into a Space whose Terrain provides Cover": the victim's
    square the area reaches (S11), not its top-left tile."""
    m = grid("........\n........\n........")
    paint(m, "brush", Base.CLEAR, {"cover": {}}, (4, 0))
    zap = ability_from_dict({"name": "Zap", "area": "AoE - Blast - Sphere: Range: 7, Reach: 1",
                             "damage": 5, "damage_type": "physical", "ip_cost": 250,
                             "accuracy": 60}, "physical", "test")
    s = battle(m, [fighter("c", 0, 0, 2, abilities=(zap,)), large("g", 1, 4, 0)])
    c = turn_of(s, "c")
    [v] = preview_ability(s, c, UseAbility("Zap", (6, 2))).victims  # reaches (5, 1) only
    assert "area through cover" not in [x.source for x in v.modifiers]
    [v] = preview_ability(s, c, UseAbility("Zap", (3, 1))).victims  # reaches (4, 0)
    assert ("area through cover", "defense", 20) in [(x.source, x.stat, x.amount)
                                                      for x in v.modifiers]


# ------------------------------------------------------------------ TP-B15: entering
def test_a_large_mover_saves_once_per_hazard_it_steps_into(monkeypatch):
    """TP-B15: "a Character must succeed on a DC 15 Body Defense Check when entering
    Hazardous Terrain": a 2x2 creature whose leading squares step onto two lava tiles
    at once enters the lava once (one save); onto lava and thorns, twice; the tiles
    already under it are not entered again."""
    m = grid("......\n......\n......")
    paint(m, "lava", Base.CLEAR, {"hazardous": {"hazard": "lava"}}, (3, 0), (3, 1))
    s = battle(m, [large("g", 0, 0, 0, reflex=40, health=30, damage_reduction=0, move=3),
                   fighter("b", 1, 5, 2)])
    turn_of(s, "g")
    rolls(monkeypatch, 40, 12, 8)
    events = [e for e in apply(s, Move((2, 0))) if e.kind == "terrain_effect"]
    assert [(e.tile, e.source, e.landed, e.damage) for e in events] == [
        ((3, 0), "hazardous: lava", True, 5)]
    assert s.hp[index(s, "g")] == 25
    m = grid("......\n......\n......")
    paint(m, "lava", Base.CLEAR, {"hazardous": {"hazard": "lava"}}, (3, 0))
    paint(m, "briar", Base.CLEAR, {"hazardous": {"hazard": "thorns"}}, (3, 1))
    s = battle(m, [large("g", 0, 0, 0, reflex=40, health=30, move=3), fighter("b", 1, 5, 2)])
    turn_of(s, "g")
    rolls(monkeypatch, 1, 1)  # both saves made
    events = [e for e in apply(s, Move((2, 0))) if e.kind == "terrain_effect"]
    assert [(e.tile, e.source) for e in events] == [((3, 0), "hazardous: lava"),
                                                    ((3, 1), "hazardous: thorns")]


def test_a_large_mover_springs_every_hidden_trap_it_steps_on(monkeypatch):
    """TP-B15: "When a Character unaware of the Trap enters this Terrain, the effects of
    the Trap are triggered": each trap tile a leading square arrives on."""
    m = grid("......\n......\n......")
    paint(m, "pit", Base.CLEAR, {"trapped": {"trap": "pit"}}, (3, 0), (3, 1))
    s = battle(m, [large("g", 0, 0, 0, reflex=40, health=30, move=3), fighter("b", 1, 5, 2)])
    turn_of(s, "g")
    rolls(monkeypatch, 1, 1)
    events = [e for e in apply(s, Move((2, 0))) if e.kind == "terrain_effect"]
    assert [(e.tile, e.source) for e in events] == [((3, 0), "trapped: pit"),
                                                    ((3, 1), "trapped: pit")]
    assert s.effects[("trap sprung", 3, 0)] and s.effects[("trap sprung", 3, 1)]


def test_a_large_mover_balances_once_per_step_onto_precarious_tiles(monkeypatch):
    """TP-B15 with TP-B8: passing over Precarious terrain asks one balance per step
    that brings the creature onto it (the highest DC), none for the step off it."""
    m = grid("......\n......\n......")
    paint(m, "ledge", Base.CLEAR, {"precarious": {}}, (2, 1))
    s = battle(m, [large("g", 0, 0, 0, reflex=40, move=4), fighter("b", 1, 5, 2)])
    turn_of(s, "g")
    rolls(monkeypatch, 1)  # the balance is kept
    events = [e for e in apply(s, Move((3, 0))) if e.kind == "terrain_effect"]
    assert [(e.tile, e.source, e.landed) for e in events] == [((2, 1), "precarious", False)]
    assert s.pos[index(s, "g")] == (3, 0)


# ------------------------------------------------------------------ TP-B16: borders
def fence(m: MapModel, props: dict, *edges: tuple[tuple[int, int], tuple[int, int]]) -> None:
    from sodwa_editor.engine.grid import edge_between

    name = "fence-" + "-".join(props)
    tid = m.registry.id_of(name) if name in m.registry else \
        m.registry.register(name, Base.DIFFICULT, props)
    for a, b in edges:
        m.set_border(edge_between(a, b), tid)


def test_a_cover_border_on_the_targets_side_is_cover():
    """TP-B16: "When a Target is in a Space which provides Cover with respect to a
    location, or obstacles otherwise provide them Cover": a Cover border (a low wall)
    on the side of the target's tile facing the attacker covers it; on the attacker's
    own side it does not ("assumed to Move to the edge of that Terrain to make an
    Attack")."""
    m = grid("......\n......")
    fence(m, {"cover": {}}, ((4, 0), (5, 0)))
    s = battle(m, [fighter("a", 0, 0, 0, range=9), fighter("b", 1, 5, 0),
                   fighter("c", 1, 4, 1)])
    assert sources(s, "a", "b") == {"cover (cover border)": ("defense", 20)}
    s = battle(m, [fighter("a", 0, 5, 0, range=9), fighter("b", 1, 0, 0)])
    assert sources(s, "a", "b") == {}


def test_a_full_cover_border_refuses_ranged_attacks_and_a_screen_hides():
    """TP-B16: Full Cover: "Obstacles or Terrain which would completely block projectiles
    (e.g. walls)"; Obscured: "partially blocks the vision of Characters seeing into, out
    of or through it"."""
    m = grid("......\n......")
    fence(m, {"full_cover": {}}, ((4, 0), (5, 0)))
    s = battle(m, [fighter("a", 0, 0, 0, range=9), fighter("b", 1, 5, 0)])
    turn_of(s, "a")
    assert refusal(s, Attack(index(s, "b"))) == \
        "'b' is behind Full Cover (a border): ranged attacks at it fail automatically"
    m = grid("......\n......")
    fence(m, {"obscured": {}}, ((2, 0), (3, 0)))
    s = battle(m, [fighter("a", 0, 0, 0, range=9), fighter("b", 1, 5, 0, evasion=10)])
    assert sources(s, "a", "b") == {"attacker unseen (no Evasion)": ("evasion", -10)}


def test_a_line_through_a_corner_passes_a_border_only_both_ways_round():
    """TP-B16 at a corner, as two walls meeting at a corner block a line (RB): a
    diagonal line through the corner of a Cover fence is covered only when both ways
    round the corner cross it."""
    m = grid("....\n....\n....")
    fence(m, {"cover": {}}, ((1, 1), (2, 1)))
    s = battle(m, [fighter("a", 0, 0, 0, range=9), fighter("b", 1, 2, 2)])
    assert sources(s, "a", "b") == {}
    fence(m, {"cover": {}}, ((2, 1), (2, 2)))  # an L round (2, 1): still one way open
    s = battle(m, [fighter("a", 0, 0, 0, range=9), fighter("b", 1, 2, 2)])
    assert sources(s, "a", "b") == {}
    fence(m, {"cover": {}}, ((1, 2), (2, 2)))  # the fence runs on through the corner
    s = battle(m, [fighter("a", 0, 0, 0, range=9), fighter("b", 1, 2, 2)])
    assert sources(s, "a", "b") == {"cover (cover border)": ("defense", 20)}


def test_an_area_through_a_cover_border_gives_its_victims_defense():
    """TP-B16 with TP-B4: "if an Area Effect extends from a point of origin through
    Cover"."""
    m = grid("......\n......")
    fence(m, {"cover": {}}, ((2, 0), (3, 0)))
    zap = ability_from_dict({"name": "Zap", "area": "AoE - Blast - Sphere: 3",
                             "damage": 5, "damage_type": "physical", "ip_cost": 250,
                             "accuracy": 60}, "physical", "test")
    s = battle(m, [fighter("c", 0, 0, 0, abilities=(zap,)), fighter("e", 1, 3, 0),
                   fighter("f", 1, 2, 1)])
    c = turn_of(s, "c")
    mods = {v.character: [x.source for x in v.modifiers]
            for v in preview_ability(s, c, UseAbility("Zap")).victims}
    assert "area through cover" in mods[index(s, "e")]
    assert "area through cover" not in mods[index(s, "f")]
