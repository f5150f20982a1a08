"""The sample maps in maps/: in sync with their builders, valid, and behaving as designed."""

from __future__ import annotations

from pathlib import Path

import pytest

from sodwa_editor.engine.adjacency import pair_crossing
from sodwa_editor.engine.los import los
from sodwa_editor.engine.movement import reach
from sodwa_editor.engine.samples import RULEBOOK_ELEVATED_LOS_EXPECTED, SAMPLE_MAPS
from sodwa_editor.engine.terrain import Base, Crossing
from sodwa_editor.io import dumps_map, load_map, read_map

MAPS = Path(__file__).resolve().parents[1] / "maps"


@pytest.mark.parametrize("name", sorted(SAMPLE_MAPS))
def test_sample_file_is_what_its_builder_writes(name):
    """Regenerate with `python -m sodwa_editor.io.sample_files maps`."""
    text = (MAPS / f"{name}.json").read_text(encoding="utf-8")
    assert text == dumps_map(SAMPLE_MAPS[name]())


@pytest.mark.parametrize("path", sorted(MAPS.glob("*.json")), ids=lambda p: p.name)
def test_sample_maps_validate_without_problems(path):
    """Clean, except the rulebook LoS diagram, whose plateau has no way up as in the
    rulebook's picture (docs/rules.md, after R3)."""
    model, problems = read_map(path)
    assert model is not None
    expected = ["zones-unreachable"] if path.stem == "rulebook-elevated-los" else []
    assert [p.code for p in problems] == expected


@pytest.mark.parametrize(("viewer", "target"), sorted(RULEBOOK_ELEVATED_LOS_EXPECTED))
def test_rulebook_map_file_gives_the_rulebook_results(viewer, target):
    m = load_map(MAPS / "rulebook-elevated-los.json")
    a, b = m.characters[viewer], m.characters[target]
    assert los(m, (a.x, a.y), (b.x, b.y)).crossing.label == \
        RULEBOOK_ELEVATED_LOS_EXPECTED[(viewer, target)]


def test_indoor_walls_stop_flight_and_doors_let_walkers_through():
    m = load_map(MAPS / "indoor-compound.json")
    assert m.setting == "indoor"
    # the wall between the west hall and the corridor: not adjacent, not even for flyers
    assert pair_crossing(m, (8, 0), (9, 0))[0] is Crossing.BLOCKED
    assert pair_crossing(m, (8, 0), (9, 0), flight=True)[0] is Crossing.BLOCKED
    # the doorway at row 3 is a gap
    assert pair_crossing(m, (8, 3), (9, 3))[0] is Crossing.CLEAR
    # the curtain impedes LoS but is passable (ends movement)
    assert pair_crossing(m, (16, 6), (16, 7))[0] is Crossing.IMPEDED
    assert los(m, (16, 4), (16, 9)).crossing is Crossing.IMPEDED
    # the knight (Move 5) reaches into the hall but not through the door to the corridor
    r = reach(m, (0, 0))
    assert (9, 3) not in r and (4, 3) in r


def test_tiered_keep_levels_connect_only_by_stairs_and_ladder():
    m = load_map(MAPS / "tiered-keep.json")
    assert sorted(set(m.elevation.ravel().tolist())) == [0, 1, 2]
    # ground stairs (7,13) -> terrace (7,12) across the transition border
    assert pair_crossing(m, (7, 13), (7, 12))[0] is Crossing.IMPEDED
    # elsewhere the terrace rim is not adjacent to the ground
    assert pair_crossing(m, (5, 13), (5, 12))[0] is Crossing.BLOCKED
    # ladder to the outcrop
    assert pair_crossing(m, (13, 2), (13, 1))[0] is Crossing.IMPEDED
    # a grounded slinger cannot see a defender in the middle of the keep top
    assert los(m, (9, 14), (7, 7)).crossing is Crossing.BLOCKED
    # the flyer reaches the terrace without stairs
    r = reach(m, (12, 15))
    assert any(m.elevation[y, x] == 1 for (x, y) in r.tiles())


def test_outdoor_skirmish_has_every_terrain_type_as_tile_and_border():
    m = load_map(MAPS / "outdoor-skirmish.json")
    tile_bases = {m.registry[int(t)].base for t in set(m.terrain.ravel().tolist())}
    assert tile_bases == set(Base)
    border_bases = {m.registry[tid].base for _e, tid in m.borders()}
    assert border_bases == {Base.OBSTRUCTING, Base.IMPEDING, Base.DIFFICULT, Base.LIQUID}
    assert [t.name for t in m.registry.special_types()] == ["icy"]
    assert any(m.border_is_indoor(e) for e, _ in m.borders())
    assert m.objects and m.transition.any() and m.elevation.max() == 1
    # flyers cross the outdoor ruin wall but not its Indoor-flagged section
    assert pair_crossing(m, (8, 11), (9, 11))[0] is Crossing.BLOCKED
    assert pair_crossing(m, (8, 11), (9, 11), flight=True)[0] is not Crossing.BLOCKED
    assert pair_crossing(m, (8, 12), (9, 12), flight=True)[0] is Crossing.BLOCKED
