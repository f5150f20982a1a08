"""Areas of effect cast by a creature larger than one tile (docs/rules.md AE18, S29):
Range from its nearest square, the best line of sight from any square, an area centred
on it reaching from every square, a line, cone or ray starting from its square nearest
the aim; golden tests with a 2x2 (Large) caster."""

from __future__ import annotations

import random

import pytest
from battle_maps import battle, fighter, grid, index, turn_of

from sodwa_editor.battle.abilities import UseAbility
from sodwa_editor.battle.ability_defs import ability_from_dict
from sodwa_editor.battle.actions import apply, refusal
from sodwa_editor.battle.area_abilities import ability_actions, ability_area, preview_ability
from sodwa_editor.battle.dice import d100_from_value
from sodwa_editor.engine.area_notation import parse_area
from sodwa_editor.engine.areas import AreaError, area
from sodwa_editor.engine.model import MapModel
from sodwa_editor.engine.sizes import Footprint

LARGE = Footprint(2, 2)


def ab(text: str, *, name: str = "Zap", **more: object):
    return ability_from_dict({"name": name, "area": text, "damage": 5,
                              "damage_type": "physical", "ip_cost": 250, "accuracy": 60,
                              **more}, "physical", "test")


def square(x0: int, y0: int, x1: int, y1: int) -> tuple[tuple[int, int], ...]:
    return tuple((x, y) for y in range(y0, y1 + 1) for x in range(x0, x1 + 1))


# ------------------------------------------------------------------ the engine
def test_an_area_centred_on_a_large_caster_reaches_from_every_square():
    """AE18: *TP* "a Sphere Effect with a location of Self and a Radius of 1 Space would
    be capable of affecting any Spaces which are Adjacent to you": adjacent to a creature
    is adjacent to any square it occupies (S5), so the Reach counts from every square,
    and the caster (the point of origin) is inside it (AE9)."""
    m = MapModel(12, 12)
    a = area(m, parse_area("AoE - Blast - Sphere: 1"), (4, 4), footprint=LARGE)
    assert a.origin == (4, 4)
    assert a.affected == square(3, 3, 6, 6)
    assert area(m, parse_area("AoE - Emanation - Sphere: 0"), (4, 4),
                footprint=LARGE).affected == square(4, 4, 5, 5)


def test_a_line_of_a_large_caster_starts_from_its_square_nearest_the_aim():
    """AE18: *AE* "From the Center of our Tiles our effects may grasp our enemies"; a
    Line "Hits all targets in a straight Line out to the targeted Tile's Center": it
    starts at the centre of the caster's square nearest the aim and never hits the
    caster's own squares; so do a Cone and a Ray (AE11, AE16)."""
    m = MapModel(12, 12)
    line = area(m, parse_area("AoE - Blast - Line: 4"), (4, 4), target=(9, 5), footprint=LARGE)
    assert line.caster == line.origin == (5, 5)
    assert line.affected == ((6, 5), (7, 5), (8, 5), (9, 5))
    for text in ("AoE - Blast - Cone: 4|2:1", "AoE - Aura - Ray: 3",
                 "AoE - Blast - Rail: Range: 4, Reach: 1"):
        for aim in ((9, 4), (1, 1), (4, 9), (9, 9), (0, 5)):
            a = area(m, parse_area(text), (4, 4), target=aim, footprint=LARGE)
            assert a.refused is None and a.affected, (text, aim)
            assert not set(a.affected) & set(square(4, 4, 5, 5)), (text, aim)
            assert a.caster == LARGE.nearest((4, 4), aim)
    with pytest.raises(AreaError, match="aims at a tile, not a direction"):
        area(m, parse_area("AoE - Blast - Line: 4"), (4, 4), direction="E", footprint=LARGE)


def test_range_counts_from_the_nearest_square_and_sight_is_the_best_line():
    """AE18 with S24 and S9: a point of origin at Range is within Range of the caster's
    nearest square, and any square of the caster with a line not blocked sees it."""
    m = grid("""
        .........
        ...X.....
        .........
        .........
        .........""")
    sphere = parse_area("AoE - Blast - Sphere: Range: 4, Reach: 0")
    a = area(m, sphere, (1, 1), target=(6, 1), footprint=LARGE)
    assert a.refused is None and a.affected == ((6, 1),)
    # from the top-left tile alone: 5 tiles away, and its line is blocked by the pillar
    assert "out of Range 4" in (area(m, sphere, (1, 1), target=(6, 1)).refused or "")
    assert "out of Range 4" in (area(m, sphere, (1, 1), target=(7, 1),
                                     footprint=LARGE).refused or "")
    assert "no line of sight" in (area(m, sphere, (1, 1), target=(6, 0),
                                       footprint=LARGE).refused or "")


def test_a_one_tile_footprint_is_exactly_the_one_tile_area():
    """AE18 changes nothing for a Medium caster (random shapes, casters and aims)."""
    rng = random.Random(29)
    texts = ["AoE - Blast - Sphere: 2", "AoE - Blast - Sphere: Range: 4, Reach: 1",
             "AoE - Emanation - Cone: 5|3:2", "AoE - Blast - Line: 5", "AoE - Aura - Ray: 3",
             "AoE - Blast - Rail: Range: 4, Reach: 1", "AoE - Engulf - Cube: 3"]
    for _ in range(60):
        m = MapModel(10, 10)
        for _w in range(12):
            m.terrain[rng.randrange(10), rng.randrange(10)] = 3  # Obstructing
        m.notify_bulk_change()
        caster, aim = (rng.randrange(10), rng.randrange(10)), (rng.randrange(10),
                                                               rng.randrange(10))
        spec = parse_area(rng.choice(texts))
        target = aim if spec.range is not None or spec.shape.value != "Sphere" else None
        kw = {"target": target, "damage": 6}
        assert area(m, spec, caster, **kw) == area(m, spec, caster, footprint=Footprint(),
                                                   **kw)


# ------------------------------------------------------------------ in battles
def test_a_large_casters_aims_count_from_its_squares():
    """S29 (AB2 by footprint): Range from the nearest square, the best line of sight from
    any square with the characters where they stand, a line never aimed at its own
    squares; the listed aims are exactly the allowed ones."""
    m = grid("""
        ..........
        ...X......
        ..........
        ..........
        ..........""")
    sphere = ab("AoE - Blast - Sphere: Range: 4, Reach: 0")
    line = ab("AoE - Blast - Line: 3", name="Bolt")
    s = battle(m, [fighter("c", 0, 1, 1, abilities=(sphere, line), size="large"),
                   fighter("e", 1, 8, 4)])
    c = turn_of(s, "c")
    assert refusal(s, UseAbility("Zap", (6, 1))) is None  # 4 from (2, 1), seen from (2, 2)
    assert refusal(s, UseAbility("Zap", (7, 1))) == "(7, 1) is 5 tiles away, beyond 'Zap''s 4"
    assert refusal(s, UseAbility("Zap", (6, 0))).startswith("no line of sight to (6, 0)")
    assert refusal(s, UseAbility("Bolt", (2, 2))) == \
        "'Bolt' is aimed away from its caster: choose another tile"
    assert refusal(s, UseAbility("Bolt", (5, 4))) is None  # 3 from (2, 2)
    listed = set(ability_actions(s, c))
    assert UseAbility("Zap", (6, 1)) in listed and UseAbility("Bolt", (5, 4)) in listed
    assert all(refusal(s, a) is None for a in listed)
    a = ability_area(s, c, UseAbility("Bolt", (5, 4)))
    assert a.caster == (2, 2)  # its square nearest (5, 4)
    assert a.affected == ((3, 2), (3, 3), (4, 3), (4, 4), (5, 4))


def test_an_area_centred_on_a_large_caster_hits_whoever_touches_it():
    """S29: a Sphere: 1 centred on a 2x2 caster hits an enemy beside its bottom-right
    square, which the area from its top-left tile alone would miss, and every victim
    is rolled once."""
    burst = ab("AoE - Blast - Sphere: 1")
    s = battle(grid("\n".join(["." * 10] * 8)),
               [fighter("c", 0, 2, 2, abilities=(burst,), size="large"),
                fighter("e", 1, 4, 4), fighter("f", 1, 7, 7)])
    c = turn_of(s, "c")
    p = preview_ability(s, c, UseAbility("Zap"))
    assert p.refused is None
    assert [v.character for v in p.victims] == [c, index(s, "e")]
    rolls = iter([d100_from_value(99), d100_from_value(99)])
    events = apply(s, UseAbility("Zap"), roll=lambda: next(rolls))
    assert [e.target for e in events if e.kind == "area_hit"] == [c, index(s, "e")]


def test_a_victim_is_aware_of_a_large_casters_area_when_it_sees_any_square():
    """S29 with B19: the point of origin of an area centred on a larger caster is every
    square it stands on; a victim whose line to one square is blocked and to another
    clear is aware (its Evasion counts)."""
    m = grid("""
        ........
        ........
        ...X....
        ........
        ........""")
    burst = ab("AoE - Emanation - Sphere: 3")
    s = battle(m, [fighter("c", 0, 1, 1, abilities=(burst,), size="large"),
                   fighter("e", 1, 5, 2, evasion=10)])
    c = turn_of(s, "c")
    p = preview_ability(s, c, UseAbility("Zap"))
    e = next(v for v in p.victims if v.character == index(s, "e"))
    assert e.aware and e.evasion == 10


@pytest.mark.parametrize("seed", range(3))
def test_random_battles_with_large_casters_keep_every_invariant(seed):
    """S29: random battles where 2x2 and 4x4 creatures cast every shape the battles play
    (an independent re-derivation of each aim by footprint: invariants)."""
    from collections import Counter

    from battle_maps import with_rules

    from sodwa_editor.battle import invariants
    from sodwa_editor.battle.ai import make_controllers
    from sodwa_editor.battle.loop import run_battle
    from sodwa_editor.engine.generate import make_mixed_map

    kit = (ab("AoE - Blast - Sphere: Range: 5, Reach: 1", name="Ball"),
           ab("AoE - Blast - Line: 5", name="Bolt"),
           ab("AoE - Emanation - Cone: 4|2:1", name="Fan"),
           ab("AoE - Aura - Ray: 3", name="Ray"),
           ab("AoE - Blast - Sphere: 1", name="Burst"),
           ab("AoE - Engulf - Sphere: 1, Emanating: 1, Duration: 2", name="Fog"))
    m = make_mixed_map(16, seed=seed)
    from sodwa_editor.battle.board import prepare
    from sodwa_editor.battle.state import BattleState
    from sodwa_editor.engine.footprint import cannot_stand

    spots = [(x, y) for y in range(0, 14) for x in range(0, 14)
             if cannot_stand(m, (x, y), Footprint(4, 4), others=()) is None]
    if len(spots) < 2:
        pytest.skip("no room for two Huge creatures on this map")
    big = [spots[0], spots[-1]]
    fighters = [fighter("g0", 0, *big[0], abilities=kit, size="huge"),
                fighter("g1", 1, *big[1], abilities=kit, size="large")]
    rules = with_rules(battle={"max_turns": 30})
    state = BattleState(prepare(m), fighters, rules, seed)
    problems: Counter[str] = Counter()
    run_battle(state, make_controllers(["random", "random"], state),
               before_action=lambda s, a: problems.update(invariants.action_problems(s, a)),
               after_turn=lambda s: problems.update(invariants.state_problems(s)))
    assert not problems, problems.most_common(3)
    used = [e for e in state.events if e.kind == "ability_used"]
    assert used


def test_a_large_striker_reaches_a_falling_object_from_its_nearest_square():
    """S29 with AB12: striking a falling object is a ranged Basic Attack, so a larger
    striker counts Range from its nearest square (S24) and sees it by the best line
    over the terrain (S9)."""
    from sodwa_editor.battle.area_effects import STRIKE

    rain = ab("AoE - Falling 4/2 - Sphere: Range: 8, Reach: 1")
    m = grid("\n".join(["." * 11] * 9))
    s = battle(m, [fighter("c", 0, 2, 8, abilities=(rain,)),
                   fighter("e", 1, 6, 5, range=3, size="large")])
    turn_of(s, "c")
    apply(s, UseAbility("Zap", (10, 8)))
    turn_of(s, "e")  # (10, 8) is 4 from its top-left tile, 3 from its square (7, 6)
    assert refusal(s, UseAbility(STRIKE, (0,))) is None
