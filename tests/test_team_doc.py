"""The team document (battle/team_doc.py): members by archetype with ids and names,
the point total against a cap, named formations on the 16x16 grid with the default
first, and the team file read, checked and written back."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from sodwa_editor.battle import team_doc as td
from sodwa_editor.battle.jsonfiles import BattleInputError, load_schema
from sodwa_editor.battle.sheet import load_roster
from sodwa_editor.battle.teams import default_formation, load_team, place_formation
from sodwa_editor.io.problems import MapSaveError
from sodwa_editor.io.team_files import save_team_file

ROSTER = load_roster()
DOC_EXAMPLE = {
    "format": "sodwa-team", "format_version": 1, "name": "Vanguard",
    "members": [{"id": "knight", "archetype": "Knight"},
                {"id": "robin", "archetype": "Archer", "name": "Robin"}],
    "formations": [{"name": "screen", "positions": {"knight": [0, 0], "robin": [0, 1]}}],
}


def team(*archetypes: str, formations: int = 0) -> td.TeamDoc:
    doc = td.TeamDoc("squad")
    for a in archetypes:
        doc = td.add_member(doc, a)
    for _ in range(formations):
        doc = td.add_formation(doc)
    return doc


def test_grid_and_limits_come_from_the_team_schema():
    props = load_schema("team")["properties"]
    assert td.GRID == 16
    assert props["members"]["maxItems"] == td.MAX_MEMBERS
    assert props["formations"]["maxItems"] == td.MAX_FORMATIONS


def test_members_get_ids_from_their_archetype_and_points_add_up():
    doc = team("Knight", "Knight", "Archer")
    assert doc.ids() == ["knight", "knight-2", "archer"]
    assert td.team_points(doc, ROSTER) == 120 + 120 + 100
    assert td.problems(doc, ROSTER, 400) == []
    assert td.problems(doc, ROSTER, 300) == [
        "team 'squad' costs 340 points, over the 300-point cap"]


def test_a_new_member_takes_the_first_free_cell_of_each_formation():
    doc = team("Knight", "Archer", formations=2)
    doc = td.place_member(doc, 1, "knight", (2, 0))
    doc = td.add_member(doc, "Mage")
    assert doc.formations[0].cell("mage") == (2, 0)  # rows of 4: (0,0), (1,0) taken
    assert doc.formations[1].cell("mage") == (0, 0)  # the knight left (0, 0) free


def test_add_formation_starts_as_the_default_arrangement():
    doc = team("Knight", "Archer", "Mage", "Rogue", "Brute", formations=1)
    assert doc.formations[0].as_formation().positions == default_formation(5).positions
    assert doc.formations[0].name == "formation"
    assert td.add_formation(doc).formations[1].name == "formation 2"


def test_dropping_a_member_on_another_swaps_them():
    doc = team("Knight", "Archer", formations=1)
    moved = td.place_member(doc, 0, "knight", (1, 0))
    assert dict(moved.formations[0].cells) == {"knight": (1, 0), "archer": (0, 0)}
    free = td.place_member(doc, 0, "archer", (15, 15))
    assert free.formations[0].cell("archer") == (15, 15)
    with pytest.raises(td.TeamEditError, match="off the 16x16 formation grid"):
        td.place_member(doc, 0, "archer", (16, 0))


def test_renaming_a_member_id_carries_its_cells():
    doc = team("Knight", "Archer", formations=2)
    doc = td.set_member(doc, "knight", new_id="sir-k", name="Sir K")
    assert doc.members[0] == td.MemberEntry("sir-k", "Knight", "Sir K")
    assert all(f.cell("sir-k") == (0, 0) for f in doc.formations)
    with pytest.raises(td.TeamEditError, match="'archer' is taken"):
        td.set_member(doc, "sir-k", new_id="archer")
    with pytest.raises(td.TeamEditError, match="use 1-32 letters"):
        td.set_member(doc, "sir-k", new_id="sir k")


def test_removing_a_member_removes_its_cells():
    doc = td.remove_member(team("Knight", "Archer", formations=1), "knight")
    assert doc.ids() == ["archer"] and doc.formations[0].cells == (("archer", (1, 0)),)


def test_formations_rename_duplicate_reorder_delete():
    doc = team("Knight", "Archer", formations=2)
    doc = td.rename_formation(doc, 1, "wedge")
    doc = td.place_member(doc, 1, "archer", (5, 3))
    doc = td.duplicate_formation(doc, 1)
    assert [f.name for f in doc.formations] == ["formation", "wedge", "wedge copy"]
    assert doc.formations[2].cells == doc.formations[1].cells
    doc = td.move_formation(doc, 2, 0)  # the copy becomes the default
    assert [f.name for f in doc.formations] == ["wedge copy", "formation", "wedge"]
    doc = td.delete_formation(doc, 1)
    assert [f.name for f in doc.formations] == ["wedge copy", "wedge"]
    with pytest.raises(td.TeamEditError, match="already has a formation 'wedge'"):
        td.rename_formation(doc, 0, "wedge")
    with pytest.raises(td.TeamEditError, match="no formation 5"):
        td.delete_formation(doc, 5)


def test_the_documented_example_reads_and_writes_back_identical(tmp_path):
    doc = td.team_doc_from_dict(DOC_EXAMPLE, ROSTER)
    assert td.team_doc_to_dict(doc) == DOC_EXAMPLE
    path = tmp_path / "vanguard.json"
    save_team_file(doc, ROSTER, path)
    assert json.loads(path.read_text()) == DOC_EXAMPLE
    assert '"knight": [0, 0]' in path.read_text()  # a cell on one line
    assert td.load_team_doc(path, ROSTER) == doc
    # the battle reads what the editor writes
    assert load_team(path, ROSTER).formation().positions == ((0, 0), (0, 1))


def test_a_team_without_formations_stays_without(tmp_path):
    raw = {k: v for k, v in DOC_EXAMPLE.items() if k != "formations"}
    doc = td.team_doc_from_dict(raw, ROSTER)
    assert doc.formations == () and td.team_doc_to_dict(doc) == raw


def test_bad_files_are_one_line_errors(tmp_path):
    bad = dict(DOC_EXAMPLE, members=[{"id": "k", "archetype": "Dragon"}], formations=[])
    with pytest.raises(BattleInputError, match=r"members\[0\]\.archetype: no archetype 'Dragon'"):
        td.team_doc_from_dict(bad, ROSTER, "t.json")
    path = tmp_path / "broken.json"
    path.write_text("{")
    with pytest.raises(BattleInputError, match="broken.json: invalid JSON"):
        td.load_team_doc(path, ROSTER)


def test_saving_an_invalid_team_writes_nothing_and_keeps_the_old_file(tmp_path):
    path = tmp_path / "t.json"
    save_team_file(td.team_doc_from_dict(DOC_EXAMPLE, ROSTER), ROSTER, path)
    before = path.read_bytes()
    with pytest.raises(BattleInputError, match="has no members"):
        save_team_file(td.TeamDoc("empty"), ROSTER, path)
    with pytest.raises(BattleInputError, match="no archetype 'Dragon'"):
        save_team_file(td.add_member(td.TeamDoc("x"), "Dragon"), ROSTER, path)
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.json"]


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="needs a read-only folder")
def test_a_save_that_cannot_be_written_says_so_and_keeps_the_old_file(tmp_path):
    path = tmp_path / "t.json"
    save_team_file(td.team_doc_from_dict(DOC_EXAMPLE, ROSTER), ROSTER, path)
    before = path.read_bytes()
    tmp_path.chmod(0o500)
    try:
        with pytest.raises(MapSaveError, match="cannot save"):
            save_team_file(team("Mage"), ROSTER, path)
    finally:
        tmp_path.chmod(0o700)
    assert path.read_bytes() == before


def test_the_edited_formation_places_as_the_battle_places_it():
    from sodwa_editor.engine.model import MapModel

    m = MapModel(10, 10)
    m.set_start_zone("south", [(x, y) for y in (8, 9) for x in range(3, 7)])
    doc = td.place_member(team("Knight", "Archer", formations=1), 0, "archer", (0, 1))
    placed = place_formation(m, "south", doc.formations[0].as_formation())
    assert placed.exact and placed.facing == "north"
    knight, archer = placed.tiles
    assert archer == (knight[0], knight[1] + 1)  # row 1 behind row 0, facing north
    assert td.to_team(doc, ROSTER).members[1].sheet.archetype == "Archer"


def test_path_round_trip_of_every_edit(tmp_path):
    doc = team("Knight", "Archer", "Hawk", formations=2)
    doc = td.set_member(doc, "hawk", name="Skye")
    doc = td.place_member(td.rename_formation(doc, 1, "line"), 1, "hawk", (8, 0))
    path = Path(tmp_path / "r.json")
    save_team_file(doc, ROSTER, path)
    assert td.load_team_doc(path, ROSTER) == doc
