"""Semantic validation: each check reports its problem at the right path and tile/edge."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from sodwa_editor.engine.generate import make_mixed_map
from sodwa_editor.engine.model import (
    MAX_ATTRIBUTE,
    MAX_MOVE,
    MAX_RANGE,
    Character,
    Edge,
    MapModel,
    MapObject,
)
from sodwa_editor.engine.samples import SAMPLE_MAPS
from sodwa_editor.engine.terrain import Base
from sodwa_editor.io import MODEL_CHECKS, Problem, read_map, register_check, validate_model
from sodwa_editor.io.problems import MAX_PER_KIND

DATA = Path(__file__).parent / "data"


def summary(problems: list[Problem]) -> list[tuple]:
    return [(p.severity, p.code, p.path, p.tile, tuple(p.edge) if p.edge else None)
            for p in problems]


def codes(problems: list[Problem]) -> list[str]:
    return [p.code for p in problems]


def test_semantic_fixture_reports_every_problem_at_its_file_position():
    model, problems = read_map(DATA / "semantic_errors.json")
    assert model is not None  # rule errors do not stop the editor from opening the map
    assert summary(problems) == [
        ("error", "transition-same-elevation", "/borders/0/edge", None, (0, 0, "E")),
        ("error", "transition-obstructing", "/borders/1", None, (2, 1, "E")),
        ("warning", "transition-tile-without-border", "/transition_tiles/0", (2, 2), None),
        ("error", "character-on-obstructing", "/characters/1", (2, 0), None),
        ("error", "shared-tile", "/characters/2", (0, 3), None),
        ("error", "negative-attribute", "/characters/2/move", None, None),
        ("error", "negative-attribute", "/characters/3/range", None, None),
        ("error", "object-on-obstructing", "/objects/0", (4, 3), None),
        ("error", "zone-on-obstructing", "/start_zones/red/1", (4, 3), None),
        ("warning", "character-outside-zone", "/characters/1", (2, 0), None),
        ("warning", "team-without-zone", "/characters/3", None, None),
        ("warning", "indoor-not-obstructing", "/indoor_overrides/0", (1, 1), None),
        ("warning", "indoor-not-obstructing", "/borders/2/indoor", None, (0, 2, "S")),
        ("warning", "isolated-region", "/terrain/0", (3, 0), None),  # the level-1 block
    ]
    text = str(problems[3])
    assert text == (f"{DATA / 'semantic_errors.json'}: /characters/1: character 'b' stands on "
                    "Obstructing tile (2, 0)")


def test_document_fixture_reports_every_problem_before_building():
    model, problems = read_map(DATA / "document_errors.json")
    assert model is None
    assert summary(problems) == [
        ("error", "duplicate-terrain-type", "/terrain_types/0/name", None, None),
        ("error", "unknown-terrain", "/legend/L", None, None),
        ("error", "unknown-terrain-char", "/terrain/1", (2, 1), None),
        ("error", "outside", "/transition_tiles/0", (4, 0), None),
        ("error", "outside", "/borders/0/edge", None, (3, 0, "E")),
        ("error", "duplicate-edge", "/borders/2/edge", None, (1, 1, "S")),
        ("error", "unknown-terrain", "/borders/3/terrain", None, (0, 0, "S")),
        ("error", "border-base", "/borders/4/terrain", None, (0, 1, "E")),
        ("warning", "empty-border", "/borders/5", None, (2, 2, "E")),
        ("error", "outside", "/start_zones/red/1", (0, -1), None),
        ("error", "duplicate-id", "/characters/1/id", None, None),
        ("error", "outside", "/characters/2", (9, 9), None),
        ("error", "outside", "/objects/0", (-1, 0), None),
    ]
    assert "outer boundary" in problems[4].message


@pytest.mark.parametrize("name", sorted(SAMPLE_MAPS))
def test_sample_maps_are_clean(name):
    """Clean, except the rulebook LoS diagram's plateau with no way up (rules.md R2)."""
    expected = ["zones-unreachable"] if name == "rulebook-elevated-los" else []
    assert codes(validate_model(SAMPLE_MAPS[name]())) == expected


@pytest.mark.parametrize(("size", "seed"), [(8, 0), (33, 1), (64, 2), (256, 1)])
def test_generated_maps_are_clean(size, seed):
    """Random benchmark maps break no rule; their random walls may wall off pockets."""
    assert set(codes(validate_model(make_mixed_map(size, seed=seed)))) <= {"isolated-region"}


# ------------------------------------------------------- in-memory, per check
def base_map() -> MapModel:
    m = MapModel(6, 5)
    m.elevation[0:2, 3:6] = 1  # a plateau in the top right corner
    m.set_start_zone("red", [(0, 4), (1, 4)])
    m.put_character(Character("r1", "red", 0, 4))
    return m


REACHABILITY = {"isolated-region", "zones-unreachable"}


def only(m: MapModel) -> list[tuple]:
    """The problems of ``m`` but the reachability warnings (base_map's plateau has no
    way up on purpose; those checks have their own tests in test_regions.py)."""
    return [s for s in summary(validate_model(m)) if s[1] not in REACHABILITY]


def test_base_map_is_clean():
    assert only(base_map()) == []


def test_transition_border_between_equal_elevations():
    m = base_map()
    m.set_transition_edge(Edge(3, 0, "E"), True)  # both tiles on the plateau
    m.set_transition_edge(Edge(2, 0, "E"), True)  # ground -> plateau: fine
    assert only(m) == [("error", "transition-same-elevation", "/borders/1/edge", None,
                        (3, 0, "E"))]


def test_transition_border_that_is_also_a_wall():
    m = base_map()
    m.set_transition_edge(Edge(3, 1, "S"), True)
    m.set_border(Edge(3, 1, "S"), int(Base.OBSTRUCTING))
    assert only(m) == [("error", "transition-obstructing", "/borders/0", None, (3, 1, "S"))]


def test_transition_border_with_impeding_border_is_fine():
    m = base_map()
    m.set_transition_edge(Edge(3, 1, "S"), True)
    m.set_border(Edge(3, 1, "S"), int(Base.IMPEDING))
    assert only(m) == []


def test_transition_tile_needs_a_transition_border():
    m = base_map()
    m.set_transition(3, 2, True)
    m.set_transition(2, 1, True)
    m.set_transition_edge(Edge(2, 1, "E"), True)  # (2, 1) has one, on its east side
    assert only(m) == [("warning", "transition-tile-without-border", "/transition_tiles/1",
                        (3, 2), None)]


@pytest.mark.parametrize("wall", ["obstructing", "special"])
def test_obstructing_transition_tile_is_reported(wall):
    """docs/rules.md G2: an Obstructing tile flagged as a transition tile is a wall, no
    part of a stairway (a special Obstructing type as well)."""
    m = base_map()
    tid = int(Base.OBSTRUCTING) if wall == "obstructing" else \
        m.registry.register("cliff", Base.OBSTRUCTING)
    m.set_transition(2, 1, True)
    m.set_transition_edge(Edge(2, 1, "E"), True)
    m.set_transition(2, 0, True)
    m.set_transition_edge(Edge(2, 0, "E"), True)
    m.set_terrain(2, 0, tid)
    assert only(m) == [("warning", "transition-tile-obstructing", "/transition_tiles/0",
                        (2, 0), None)]
    m.destroy_obstruction_tile(2, 0)  # rubble: Difficult, a stair again
    assert only(m) == []


@pytest.mark.parametrize("wall", ["obstructing", "special"])
def test_character_object_and_zone_on_obstructing(wall):
    m = base_map()
    tid = int(Base.OBSTRUCTING) if wall == "obstructing" else m.registry.register(
        "wall", Base.OBSTRUCTING)
    m.terrain[4, 1] = tid
    m.terrain[2, 2] = tid
    m.put_character(Character("r2", "red", 1, 4))
    m.put_object(MapObject("crate", "crate", 2, 2))
    assert only(m) == [
        ("error", "character-on-obstructing", "/characters/1", (1, 4), None),
        ("error", "object-on-obstructing", "/objects/0", (2, 2), None),
        ("error", "zone-on-obstructing", "/start_zones/red/1", (1, 4), None),
    ]
    msg = validate_model(m)[0].message
    assert ("terrain 'wall'" in msg) == (wall == "special")


def test_two_characters_on_one_tile_and_negative_attributes():
    m = base_map()
    m.put_character(Character("r0", "red", 0, 4, move=-1, range=-3))
    # canonical paths: characters sorted by id -> r0 is /characters/0, r1 /characters/1
    assert only(m) == [
        ("error", "negative-attribute", "/characters/0/move", None, None),
        ("error", "negative-attribute", "/characters/0/range", None, None),
        ("error", "shared-tile", "/characters/1", (0, 4), None),
    ]


def test_attributes_past_what_a_file_holds_are_reported_in_memory():
    m = base_map()
    m.put_character(Character("r0", "red", 1, 4, move=MAX_MOVE + 1, range=MAX_RANGE,
                              attributes={"hp": -MAX_ATTRIBUTE - 1, "ok": MAX_ATTRIBUTE}))
    assert only(m) == [
        ("error", "attribute-range", "/characters/0/move", None, None),
        ("error", "attribute-range", "/characters/0/attributes/hp", None, None),
    ]


def test_team_without_zone_and_character_outside_zone():
    m = base_map()
    m.put_character(Character("r2", "red", 2, 4))
    m.put_character(Character("b1", "blue", 5, 4))
    m.put_character(Character("b2", "blue", 5, 3))
    assert only(m) == [
        ("warning", "team-without-zone", "/characters/0", None, None),
        ("warning", "character-outside-zone", "/characters/3", (2, 4), None),
    ]
    assert "team 'blue' has 2 character(s) but no start zone" in validate_model(m)[0].message


def test_overlapping_start_zones_are_a_warning():
    m = base_map()
    m.set_start_zone("blue", [(1, 4), (2, 4)])  # (1, 4) is red's too
    assert only(m) == [("warning", "zone-overlap", "/start_zones/red/1", (1, 4), None)]
    assert validate_model(m)[0].message == "tile (1, 4) is in the start zones of both " \
        "'blue' and 'red'"


def test_indoor_overrides_on_non_obstructing():
    m = base_map()
    m.terrain[2, 2] = Base.OBSTRUCTING
    m.set_tile_indoor(2, 2, True)  # fine
    m.set_tile_indoor(0, 0, False)  # clear tile: no effect
    m.set_border(Edge(1, 1, "E"), int(Base.OBSTRUCTING), indoor=True)  # fine
    m.set_border(Edge(1, 2, "E"), int(Base.IMPEDING), indoor=True)  # fence: no effect
    assert only(m) == [
        ("warning", "indoor-not-obstructing", "/indoor_overrides/0", (0, 0), None),
        ("warning", "indoor-not-obstructing", "/borders/1/indoor", None, (1, 2, "E")),
    ]


def test_integrity_of_models_built_in_memory():
    m = base_map()
    m.terrain[0, 0] = 77  # no such terrain id
    m.border_s[1, 1] = int(Base.CLEAR) + 0  # id 0 means "no border": fine
    m.border_e[2, 2] = len(m.registry)  # unknown id
    void = m.registry.register("void", Base.CLEAR)
    m.border_s[2, 2] = void  # clear base on a border
    m.elevation[4, 5] = 100
    m.characters["ghost"] = Character("ghost", "red", 9, 9)
    m.characters["alias"] = Character("real", "red", 1, 4)
    m.objects["far"] = MapObject("far", "rock", -1, 0)
    m.start_zones["red"].add((6, 0))
    found = codes(validate_model(m))
    assert found.count("unknown-terrain") == 1
    assert found.count("border-base") == 2
    assert found.count("elevation-range") == 1
    assert found.count("id-mismatch") == 1
    assert found.count("outside") == 3


def test_many_identical_problems_are_capped_with_a_summary():
    m = MapModel(20, 20)
    m.terrain[:] = Base.OBSTRUCTING
    for i in range(120):
        m.characters[f"c{i:03d}"] = Character(f"c{i:03d}", "t", i % 20, i // 20)
    m.start_zones["t"] = {(x, y) for x in range(20) for y in range(6)}
    problems = [p for p in validate_model(m) if p.code == "character-on-obstructing"]
    assert len(problems) == MAX_PER_KIND + 1
    assert problems[-1].message.startswith("... and 70 more")


def test_other_modules_can_add_checks(monkeypatch):
    monkeypatch.setattr("sodwa_editor.io.checks.MODEL_CHECKS", list(MODEL_CHECKS))

    def no_liquid(model, loc):
        for y, x in zip(*np.nonzero(model.terrain == Base.LIQUID), strict=True):
            yield Problem("warning", "liquid!", loc.row("terrain", int(y)), (int(x), int(y)),
                          code="no-liquid")

    register_check(no_liquid)
    m = base_map()
    m.terrain[3, 3] = Base.LIQUID
    assert only(m) == [("warning", "no-liquid", "/terrain/3", (3, 3), None)]
    assert validate_model(m, checks=[]) == []
