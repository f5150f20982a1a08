"""Teams: files, point values and the cap, formations placed into start zones, and a
battle from the characters already on the map."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sodwa_editor.battle.jsonfiles import BattleInputError
from sodwa_editor.battle.sheet import load_roster
from sodwa_editor.battle.teams import (
    Formation,
    check_point_cap,
    combatants_from_map,
    default_formation,
    facings_towards_centre,
    load_team,
    oriented,
    place_formation,
    place_team,
    place_teams,
    team_cost,
    team_from_dict,
)
from sodwa_editor.engine.model import Character, MapModel
from sodwa_editor.io.files import load_map

ROOT = Path(__file__).resolve().parents[1]
ROSTER = load_roster()


def team_doc(*archetypes, formations=None, name="squad"):
    doc = {"format": "sodwa-team", "format_version": 1, "name": name,
           "members": [{"id": f"m{i}", "archetype": a} for i, a in enumerate(archetypes)]}
    if formations is not None:
        doc["formations"] = formations
    return doc


def zone_map(width=12, height=12, zones=None):
    m = MapModel(width, height)
    for side, tiles in (zones or {}).items():
        m.set_start_zone(side, tiles)
    return m


def rect(x0, y0, w, h):
    return [(x, y) for y in range(y0, y0 + h) for x in range(x0, x0 + w)]


def test_point_value_is_the_sum_and_the_cap_refuses_a_team_over_it(tmp_path):
    """RB: "The point value of a team of characters is the sum of each of their
    individual point values"; "each player can use teams that cost as much as
    400-points"."""
    path = tmp_path / "t.json"
    path.write_text(json.dumps(team_doc("Knight", "Archer", "Mage", "Hawk")))
    team = load_team(path, ROSTER)
    expected = sum(ROSTER.find(a).values["cost"] for a in ("Knight", "Archer", "Mage", "Hawk"))
    assert team_cost(team) == expected == 445
    check_point_cap(team.name, team_cost(team), 445)
    check_point_cap(team.name, team_cost(team), None)
    with pytest.raises(BattleInputError, match="^team 'squad' costs 445 points, over the "
                                               "400-point cap$"):
        check_point_cap(team.name, team_cost(team), 400)
    m = zone_map(zones={"a": rect(0, 0, 4, 2), "b": rect(8, 10, 4, 2)})
    with pytest.raises(BattleInputError, match="costs 445 points, over the 400-point cap"):
        place_teams(m, [("a", team, None), ("b", team, None)], cap=400)


@pytest.mark.parametrize(("change", "message"), [
    (lambda d: d["members"].append({"id": "m0", "archetype": "Mage"}),
     "t.json: members[2].id: 'm0' appears twice"),
    (lambda d: d["members"][1].update(archetype="Knigt"),
     "t.json: members[1].archetype: no archetype 'Knigt' in the roster (has: Knight, "),
    (lambda d: d.update(formations=[{"name": "f", "positions": {"m0": [0, 0]}}]),
     "t.json: formations[0].positions: no position for m1"),
    (lambda d: d.update(formations=[{"name": "f", "positions": {"m0": [0, 0], "m1": [0, 0]}}]),
     "t.json: formations[0].positions: two members share one grid cell"),
    (lambda d: d.update(formations=[{"name": "f", "positions": {"m0": [0, 0], "m1": [0, 1],
                                                                  "zz": [1, 1]}}]),
     "t.json: formations[0].positions: zz is not a member"),
    (lambda d: d["members"][0].update(id="a b"), "t.json: members[0].id: 'a b' does not match"),
    (lambda d: d.update(members=[]), "t.json: members: [] should be non-empty"),
])
def test_bad_team_files_get_one_line(change, message):
    doc = team_doc("Knight", "Archer")
    change(doc)
    with pytest.raises(BattleInputError) as err:
        team_from_dict(doc, ROSTER, "t.json")
    assert str(err.value).startswith(message) and "\n" not in str(err.value)


def test_formation_choice_by_name():
    """RB: "You'll be able to save several different formations per team, choosing
    which one you would like to use at the beginning of each battle." """
    team = team_from_dict(team_doc("Knight", "Archer", formations=[
        {"name": "line", "positions": {"m0": [0, 0], "m1": [1, 0]}},
        {"name": "column", "positions": {"m0": [0, 0], "m1": [0, 1]}}]), ROSTER)
    assert team.formation().name == "line"
    assert team.formation("column").positions == ((0, 0), (0, 1))
    with pytest.raises(BattleInputError, match="has no formation 'wedge' .has: line, column."):
        team.formation("wedge")
    plain = team_from_dict(team_doc("Knight", "Archer", "Mage", "Rogue", "Hawk"), ROSTER)
    assert plain.formation() == default_formation(5)
    assert default_formation(5).positions == ((0, 0), (1, 0), (2, 0), (3, 0), (0, 1))


def test_formation_front_row_faces_the_map_centre():
    """B4: row 0 (the front) is the row nearest the enemy side."""
    m = zone_map(zones={"top": rect(4, 0, 4, 3), "bottom": rect(4, 9, 4, 3),
                        "left": rect(0, 4, 3, 4), "right": rect(9, 4, 3, 4)})
    f = Formation("wedge", ((0, 0), (1, 0), (0, 1)))  # two in front, one behind the left
    top = place_formation(m, "top", f)
    assert (top.facing, top.exact) == ("south", True)
    assert top.tiles[0][1] == top.tiles[1][1] > top.tiles[2][1]  # front row further south
    assert top.tiles[0][0] > top.tiles[1][0] and top.tiles[2][0] == top.tiles[0][0]
    bottom = place_formation(m, "bottom", f)
    assert bottom.facing == "north" and bottom.tiles[0][1] < bottom.tiles[2][1]
    assert bottom.tiles[0][0] < bottom.tiles[1][0] and bottom.tiles[2][0] == bottom.tiles[0][0]
    left = place_formation(m, "left", f)
    assert left.facing == "east" and left.tiles[0][0] > left.tiles[2][0]
    right = place_formation(m, "right", f)
    assert right.facing == "west" and right.tiles[0][0] < right.tiles[2][0]
    assert facings_towards_centre(m, rect(0, 0, 2, 2)) == ["east", "south"]  # tie: east
    assert facings_towards_centre(m, rect(0, 0, 2, 5)) == ["east", "south"]
    assert facings_towards_centre(m, rect(0, 0, 5, 2)) == ["south", "east"]
    assert facings_towards_centre(m, rect(5, 5, 2, 2)) == ["north"]  # centred


def test_oriented_offsets_rotate_the_grid():
    f = Formation("l", ((0, 0), (1, 0), (0, 1)))
    assert oriented(f, "north") == [(0, 0), (1, 0), (0, 1)]
    assert oriented(f, "south") == [(1, 1), (0, 1), (1, 0)]
    assert oriented(f, "east") == [(1, 0), (1, 1), (0, 0)]
    assert oriented(f, "west") == [(0, 1), (0, 0), (1, 1)]


def test_formation_is_centred_in_the_zone_and_avoids_walls_and_taken_tiles():
    m = zone_map(zones={"a": rect(2, 0, 7, 3)})
    line = Formation("line", ((0, 0), (1, 0), (2, 0)))
    p = place_formation(m, "a", line)
    assert p.exact and p.facing == "south"
    assert sorted(p.tiles) == [(4, 1), (5, 1), (6, 1)]  # centred: columns 4-6, middle row
    m.set_terrain(5, 1, m.registry.id_of("obstructing"))
    p = place_formation(m, "a", line)
    assert p.exact and (5, 1) not in p.tiles and len(set(p.tiles)) == 3
    taken = {(x, 1) for x in range(2, 9)}
    p = place_formation(m, "a", line, taken=taken)
    assert p.exact and all(t not in taken for t in p.tiles)


def test_formation_that_does_not_fit_takes_the_nearest_free_tiles():
    """B4: no anchor fits: each member in order takes the free zone tile nearest its
    place (the placement is marked inexact)."""
    m = zone_map(zones={"a": [(0, 0), (2, 0), (4, 0), (6, 0)]})
    p = place_formation(m, "a", Formation("line", ((0, 0), (1, 0), (2, 0))))
    assert not p.exact and len(set(p.tiles)) == 3
    assert set(p.tiles) <= {(0, 0), (2, 0), (4, 0), (6, 0)}


def test_zone_too_small_or_missing_is_one_line():
    m = zone_map(zones={"a": rect(0, 0, 2, 1)})
    m.set_terrain(1, 0, m.registry.id_of("obstructing"))
    team = team_from_dict(team_doc("Knight", "Archer"), ROSTER)
    with pytest.raises(BattleInputError, match="^the start zone of team 'a' has room for 1 "
                                               r"character\(s\); the team has 2$"):
        place_team(m, "a", 0, team)
    with pytest.raises(BattleInputError, match="^the map has no start zone for team 'b'$"):
        place_team(m, "b", 1, team)


def test_place_teams_gives_both_sides_with_qualified_ids():
    m = load_map(ROOT / "maps" / "outdoor-skirmish.json")
    team = team_from_dict(team_doc("Knight", "Archer", "Mage", "Rogue"), ROSTER)
    cs = place_teams(m, [("north", team, None), ("south", team, None)], cap=445)
    assert [c.id for c in cs] == [f"{s}.m{i}" for s in ("north", "south") for i in range(4)]
    assert [c.team for c in cs] == [0] * 4 + [1] * 4
    assert len({(c.x, c.y) for c in cs}) == 8
    assert all((c.x, c.y) in m.start_zones[c.side] for c in cs)


def test_overlapping_zones_never_share_a_tile():
    m = zone_map(zones={"a": rect(0, 0, 4, 2), "b": rect(0, 0, 4, 2)})
    team = team_from_dict(team_doc("Knight", "Archer", "Mage", "Rogue"), ROSTER)
    cs = place_teams(m, [("a", team, None), ("b", team, None)])
    assert len({(c.x, c.y) for c in cs}) == 8


def test_battle_from_the_characters_on_the_map():
    """B3: the map's characters as they stand, teams in name order, then by id."""
    m = load_map(ROOT / "maps" / "outdoor-skirmish.json")
    cs = combatants_from_map(m, ROSTER)
    assert [(c.side, c.team) for c in cs] == [("north", 0)] * 3 + [("south", 1)] * 3
    assert [c.id for c in cs] == ["druid", "lancer", "ranger", "hawk", "ogre", "witch"]
    assert all((c.x, c.y) == (m.characters[c.id].x, m.characters[c.id].y) for c in cs)
    north_cost = sum(c.sheet.cost for c in cs if c.team == 0)
    with pytest.raises(BattleInputError, match=f"team 'north' costs {north_cost} points"):
        combatants_from_map(m, ROSTER, cap=north_cost - 1)


def test_battle_from_the_map_needs_two_teams():
    m = MapModel(4, 4)
    with pytest.raises(BattleInputError, match="^a battle needs characters of exactly 2 teams; "
                                               "the map has 0$"):
        combatants_from_map(m, ROSTER)
    for i, team in enumerate(("a", "b", "c")):
        m.put_character(Character(f"c{i}", team, i, 0))
    with pytest.raises(BattleInputError, match="the map has 3: a, b, c"):
        combatants_from_map(m, ROSTER)


def test_team_example_in_the_format_doc_is_a_valid_team():
    import re

    text = (ROOT / "docs" / "map-format.md").read_text(encoding="utf-8")
    example = re.search(r"### Teams\n\n```json\n(.*?)```", text, re.S).group(1)
    team = team_from_dict(json.loads(example), ROSTER, "example")
    assert [m.sheet.name for m in team.members] == ["Knight", "Robin"]
    assert team.formation().positions == ((0, 0), (0, 1))
