"""The rulebook's own line-of-sight examples, one test per sentence."""

from __future__ import annotations

import pytest

from sodwa_editor.engine.los import los, los_fan
from sodwa_editor.engine.model import Character, Edge, MapModel, MapObject
from sodwa_editor.engine.samples import (
    RULEBOOK_ELEVATED_LOS_EXPECTED,
    rulebook_elevated_los,
    rulebook_wall_between_plateaus,
)
from sodwa_editor.engine.terrain import Base, Crossing


def tile_of(model, cid):
    c = model.characters[cid]
    return (c.x, c.y)


@pytest.mark.parametrize(("viewer", "target"), sorted(RULEBOOK_ELEVATED_LOS_EXPECTED))
def test_elevated_terrain_los_diagram(viewer, target):
    """Each per-character paragraph of *Elevated Terrain LoS*."""
    m = rulebook_elevated_los()
    result = los(m, tile_of(m, viewer), tile_of(m, target))
    assert result.crossing.label == RULEBOOK_ELEVATED_LOS_EXPECTED[(viewer, target)], result


def test_diagram_reasons():
    m = rulebook_elevated_los()
    # "His LoS to the Blue character is obstructed by the Green character"
    assert los(m, tile_of(m, "purple"), tile_of(m, "blue")).reason.kind == "character"
    # "his LoS to the Red, Yellow, and Orange characters are obstructed by the tiles of
    #  Elevated Terrain between himself and those characters"
    for t in ("red", "yellow", "orange"):
        assert los(m, tile_of(m, "purple"), tile_of(m, t)).reason.kind == "elevation"
    # Green vs Orange: "the Green character's LoS is still affected by that tile"
    r = los(m, tile_of(m, "green"), tile_of(m, "orange"))
    assert r.reason.kind == "target-tile" and r.reason.tile == (7, 3)


def test_orange_own_tile_does_not_impede_but_targets_tile_does():
    """"if the tile between the Orange and Red characters was clear terrain, the Orange
    character would have unimpeded LoS to the Red character, but the Red character would
    still have impeded LoS to the Orange character.\""""
    m = rulebook_elevated_los()
    m.set_terrain(6, 2, 0)
    assert los(m, tile_of(m, "orange"), tile_of(m, "red")).crossing is Crossing.CLEAR
    assert los(m, tile_of(m, "red"), tile_of(m, "orange")).crossing is Crossing.IMPEDED


def test_obstructing_terrain_elevation_wall():
    """"it wouldn't obstruct Blue to Green, but it would obstruct Red to Yellow.\""""
    m = rulebook_wall_between_plateaus()
    assert los(m, tile_of(m, "blue"), tile_of(m, "green")).crossing is Crossing.CLEAR
    r = los(m, tile_of(m, "red"), tile_of(m, "yellow"))
    assert r.crossing is Crossing.BLOCKED and r.reason.edge == Edge(5, 2, "E")
    # "It would obstruct the LoS between the lower-elevation characters and the
    #  higher-elevation characters": Yellow (grounded) to Green (elevated) crosses it
    r = los(m, tile_of(m, "yellow"), tile_of(m, "green"))
    assert r.crossing is Crossing.BLOCKED and r.reason.edge == Edge(5, 2, "E")


def test_adding_clarity_elevated_character_away_from_edge():
    """"If an elevated character isn't at the edge of elevated terrain, he can neither see
    nor be seen by grounded characters.\""""
    m = MapModel(9, 3)
    m.elevation[:, 3:9] = 1
    assert los(m, (0, 1), (3, 1)).crossing is Crossing.CLEAR  # at the edge
    assert los(m, (0, 1), (4, 1)).crossing is Crossing.BLOCKED  # one tile in
    assert los(m, (4, 1), (0, 1)).crossing is Crossing.BLOCKED


def make(w, h):
    return MapModel(w, h)


def test_obstructing_tile_blocks_and_impeding_impedes_difficult_liquid_do_not():
    m = make(5, 1)
    for base, expected in (
        (Base.OBSTRUCTING, Crossing.BLOCKED),
        (Base.IMPEDING, Crossing.IMPEDED),
        (Base.DIFFICULT, Crossing.CLEAR),
        (Base.LIQUID, Crossing.CLEAR),
    ):
        m.set_terrain(2, 0, int(base))
        assert los(m, (0, 0), (4, 0)).crossing is expected, base


def test_most_restrictive_wins():
    """"if LoS crosses both Impeding Terrain and Obstructing Terrain, the Obstructing
    Terrain would take precedence\""""
    m = make(6, 1)
    m.set_terrain(1, 0, int(Base.IMPEDING))
    m.set_terrain(3, 0, int(Base.OBSTRUCTING))
    r = los(m, (0, 0), (5, 0))
    assert r.crossing is Crossing.BLOCKED and r.reason.tile == (3, 0)


def test_characters_block_but_not_the_endpoints():
    m = make(5, 1)
    m.put_character(Character("a", "x", 0, 0))
    m.put_character(Character("b", "y", 4, 0))
    assert los(m, (0, 0), (4, 0)).crossing is Crossing.CLEAR
    m.put_character(Character("c", "y", 2, 0))
    r = los(m, (0, 0), (4, 0))
    assert r.crossing is Crossing.BLOCKED and r.reason.kind == "character"


def test_impeding_border_and_obstructing_border():
    m = make(4, 2)
    m.set_border(Edge(1, 0, "E"), int(Base.IMPEDING))
    assert los(m, (0, 0), (3, 0)).crossing is Crossing.IMPEDED
    m.set_border(Edge(1, 0, "E"), int(Base.OBSTRUCTING))
    assert los(m, (0, 0), (3, 0)).crossing is Crossing.BLOCKED
    assert los(m, (0, 1), (3, 1)).crossing is Crossing.CLEAR


def rulebook_corner_map(upper_left: Base, bottom_right: Base) -> MapModel:
    """The 4-tile block of *Terrain*: 1:1 upper left, 2:2 bottom right, at (1,1)-(2,2)."""
    m = make(4, 4)
    m.set_terrain(1, 1, int(upper_left))
    m.set_terrain(2, 2, int(bottom_right))
    return m


def test_diagonal_intersection_least_restrictive_governs():
    """"Tiles 1:1 and 2:2 ... are Impeding and Obstructing ... If LoS moved through those
    tiles of Clear Terrain across that intersection ... considered Impeding Terrain.\""""
    m = rulebook_corner_map(Base.IMPEDING, Base.OBSTRUCTING)
    r = los(m, (3, 0), (0, 3))  # through clear 2:1=(2,1) and 1:2=(1,2) via corner (2,2)
    assert r.crossing is Crossing.IMPEDED
    assert r.reason.kind == "corner" and r.reason.corner == (2, 2)


def test_diagonal_intersection_two_obstructing_is_a_wall():
    """"If 1:1 and 2:2 were both Obstructing Terrain, then any movement or LoS through that
    intersection would be considered blocked\""""
    m = rulebook_corner_map(Base.OBSTRUCTING, Base.OBSTRUCTING)
    r = los(m, (3, 0), (0, 3))
    assert r.crossing is Crossing.BLOCKED and r.reason.corner == (2, 2)
    # a single obstructing diagonal tile does not block a line through the corner
    m.set_terrain(1, 1, 0)
    assert los(m, (3, 0), (0, 3)).crossing is Crossing.CLEAR


@pytest.mark.parametrize(
    ("edges", "expected"),
    [
        ([Edge(1, 0, "E"), Edge(1, 1, "E")], Crossing.BLOCKED),  # straight vertical wall
        ([Edge(1, 0, "S"), Edge(2, 0, "S")], Crossing.BLOCKED),  # straight horizontal wall
        ([Edge(1, 0, "E"), Edge(1, 0, "S")], Crossing.BLOCKED),  # L around the start tile
        ([Edge(1, 0, "E"), Edge(2, 0, "S")], Crossing.CLEAR),  # L around the side tile
        ([Edge(1, 0, "E")], Crossing.CLEAR),  # the end of one wall segment
    ],
)
def test_border_walls_meeting_at_a_corner(edges, expected):
    """Borders meeting at the corner count in the diagonal-intersection rule: the line
    from (1,0) to (2,1) crosses the corner (2,1); it is blocked when both ways around the
    corner cross a wall, so a line never slips between two wall segments."""
    m = make(4, 3)
    for e in edges:
        m.set_border(e, int(Base.OBSTRUCTING))
    assert los(m, (0, 0), (3, 2)).crossing is Crossing.CLEAR or edges  # sanity: defined
    assert los(m, (1, 0), (2, 1)).crossing is expected


def test_objects_impede_when_level():
    m = make(5, 1)
    m.put_object(MapObject("crate", "crate", 2, 0))
    r = los(m, (0, 0), (4, 0))
    assert r.crossing is Crossing.IMPEDED and r.reason.kind == "object"
    m.objects["crate"].impedes_los = False
    m.notify_bulk_change()
    assert los(m, (0, 0), (4, 0)).crossing is Crossing.CLEAR


def test_elevated_characters_ignore_grounded_characters_and_impeding():
    """Bullets 1 and 3: elevated pairs ignore grounded characters, objects and Impeding."""
    m = make(7, 1)
    m.elevation[0, 0] = m.elevation[0, 6] = 1
    m.terrain[0, 2] = int(Base.IMPEDING)
    m.characters["g"] = Character("g", "t", 3, 0)
    m.objects["o"] = MapObject("o", "crate", 4, 0)
    m.notify_bulk_change()
    assert los(m, (0, 0), (6, 0)).crossing is Crossing.CLEAR


def test_grounded_obstruction_does_not_block_higher_pair_but_does_block_mixed():
    m = make(7, 1)
    m.elevation[0, 0] = m.elevation[0, 6] = 1
    m.terrain[0, 3] = int(Base.OBSTRUCTING)
    assert los(m, (0, 0), (6, 0)).crossing is Crossing.CLEAR
    m.elevation[0, 6] = 0
    m.notify_bulk_change()
    assert los(m, (0, 0), (6, 0)).crossing is Crossing.BLOCKED


def test_multi_level_higher_tiles_block_level_pair():
    """elevated-terrain-levels.txt: "If a line of fire between two characters on the same
    elevation crosses elevated terrain of a higher level, it is blocked.\""""
    m = make(5, 1)
    m.elevation[0, :] = 1
    m.elevation[0, 2] = 2
    r = los(m, (0, 0), (4, 0))
    assert r.crossing is Crossing.BLOCKED and r.reason.kind == "elevation"
    m.elevation[0, 2] = 0
    m.notify_bulk_change()
    assert los(m, (0, 0), (4, 0)).crossing is Crossing.CLEAR


def test_multi_level_mixed_blocked_by_any_higher_level_except_higher_tile():
    """elevated-terrain-levels.txt: blocked by "Elevated terrain of any level higher than the
    level occupied by the character on the lower elevation, except the square occupied by
    the character on the higher elevation.\""""
    m = make(4, 1)
    m.elevation[0, :] = [1, 1, 2, 3]
    assert los(m, (0, 0), (3, 0)).crossing is Crossing.BLOCKED  # level-2 tile in between
    assert los(m, (1, 0), (2, 0)).crossing is Crossing.CLEAR  # rim: only the higher tile
    assert los(m, (2, 0), (3, 0)).crossing is Crossing.CLEAR


def test_impeding_rim_border_of_higher_tile_impedes_mixed_pair():
    """A fence on the rim stands at the higher level, so it is not "grounded Impeding
    Terrain" and still impedes a grounded viewer (decision in docs/rules.md)."""
    m = make(4, 1)
    m.elevation[0, 3] = 1
    m.set_border(Edge(2, 0, "E"), int(Base.IMPEDING))
    assert los(m, (0, 0), (3, 0)).crossing is Crossing.IMPEDED
    m.set_border(Edge(0, 0, "E"), int(Base.IMPEDING))
    m.set_border(Edge(2, 0, "E"), 0)
    assert los(m, (0, 0), (3, 0)).crossing is Crossing.CLEAR  # grounded fence ignored


def test_rim_wall_stands_on_top_and_blocks_the_upper_pair():
    """L9 (our decision): a wall on a plateau's rim stands on the plateau, so two
    characters on top whose line dips over the lower ground between them do not see
    over it, while the lower ground itself is seen over (RB: Obstructing Terrain "will
    not obstruct LoS if both characters are at a higher elevation")."""
    m = make(5, 1)
    m.elevation[0, :] = [1, 1, 0, 1, 1]
    m.notify_bulk_change()
    assert los(m, (0, 0), (4, 0)).crossing is Crossing.CLEAR
    m.set_border(Edge(1, 0, "E"), int(Base.OBSTRUCTING))
    r = los(m, (0, 0), (4, 0))
    assert r.crossing is Crossing.BLOCKED and r.reason.edge == Edge(1, 0, "E")


def test_target_obstructing_tile_is_blocked():
    m = make(3, 1)
    m.set_terrain(2, 0, int(Base.OBSTRUCTING))
    r = los(m, (0, 0), (2, 0))
    assert r.crossing is Crossing.BLOCKED and r.reason.kind == "target-tile"


def test_fan_equals_single_queries():
    m = rulebook_wall_between_plateaus()
    for src in [(1, 2), (3, 2), (5, 2), (7, 3)]:
        fan = los_fan(m, src)
        for x, y in m.tiles():
            assert fan[y, x] == los(m, src, (x, y)).crossing, (src, (x, y))


def test_out_of_map_is_a_clear_error():
    with pytest.raises(IndexError, match=r"\(9, 0\) is outside the 3x1 map"):
        los(make(3, 1), (0, 0), (9, 0))
    from sodwa_editor.engine.los import LosBoard

    board = LosBoard(make(3, 1), [(1, 0)])
    for src, dst in (((0, 0), (9, 0)), ((-1, 0), (2, 0)), ((0, 3), (2, 0))):
        with pytest.raises(IndexError, match="is outside the 3x1 map"):
            board.crossing(src, dst)
