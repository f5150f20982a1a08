"""The team and formation editor (Tools > Teams and Formations), driven with real
mouse and key events: a team built from the roster with its points against the cap,
a member dragged onto a formation cell, a second formation added, renamed and made
the default, undo and redo, saved and reopened identical, and the placement preview
on a sample map (decision B4) with the inexact-placement warning."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QFileDialog, QMessageBox

from sodwa_editor.battle import team_doc as td
from sodwa_editor.battle.teams import load_team, place_formation
from sodwa_editor.editor.playtest.setup_dialog import PlaytestChoice, SetupDialog, build_setup
from sodwa_editor.editor.team_editor.dialog import TeamEditor
from sodwa_editor.editor.team_editor.model import TeamDocument
from sodwa_editor.editor.testing import click_tile
from sodwa_editor.io.files import load_map

ROOT = Path(__file__).resolve().parents[1]
Left = Qt.MouseButton.LeftButton
Ctrl = Qt.KeyboardModifier.ControlModifier


@pytest.fixture
def editor(qtbot):
    ed = TeamEditor(TeamDocument(cap=400))
    # no unsaved-team prompt when the test's widgets are closed
    qtbot.addWidget(ed, before_close_func=lambda w: w.team.undo_stack.setClean())
    ed.show()
    qtbot.waitExposed(ed)
    ed.activateWindow()
    return ed


def add_members(qtbot, ed: TeamEditor, *archetypes: str) -> None:
    """Choose each archetype in the picker with the keyboard and click Add Member."""
    picker = ed.members.archetype
    for name in archetypes:
        picker.setFocus()
        target = picker.findData(name)
        while picker.currentIndex() != target:
            key = Qt.Key.Key_Down if picker.currentIndex() < target else Qt.Key.Key_Up
            QTest.keyClick(picker, key)
        qtbot.mouseClick(ed.members.add, Left)


def type_in_cell(qtbot, ed: TeamEditor, row: int, col: int, text: str) -> None:
    """Click a cell of the members table, F2 to edit it, type ``text`` over it, Enter;
    wait until the edit is applied or refused (once the cell's editor has closed)."""
    table = ed.members.table
    rect = table.visualItemRect(table.item(row, col))
    qtbot.mouseClick(table.viewport(), Left, pos=rect.center())
    QTest.keyClick(table, Qt.Key.Key_F2)
    field = QApplication.focusWidget()
    assert field is not table
    QTest.keyClick(field, Qt.Key.Key_A, Ctrl)
    QTest.keyClicks(field, text)
    steps, said = ed.team.undo_stack.index(), ed.problem.text()
    QTest.keyClick(field, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: ed.team.undo_stack.index() != steps or ed.problem.text() != said)


def cell_point(ed: TeamEditor, cell: tuple[int, int]) -> QPoint:
    return ed.grid.cell_rect(cell).center().toPoint()


def drag_cell(ed: TeamEditor, start: tuple[int, int], end: tuple[int, int]) -> None:
    """Press on a cell of the formation grid, move the mouse over to another, release."""
    grid = ed.grid
    a, b = cell_point(ed, start), cell_point(ed, end)
    QTest.mouseMove(grid, a)
    QTest.mousePress(grid, Left, Qt.KeyboardModifier.NoModifier, a)
    for k in range(1, 5):
        QTest.mouseMove(grid, a + (b - a) * (k / 4))
    QTest.mouseRelease(grid, Left, Qt.KeyboardModifier.NoModifier, b)


def press_shortcut(ed: TeamEditor, key: Qt.Key, modifiers=Ctrl) -> None:
    ed.activateWindow()
    QTest.keyClick(ed.grid, key, modifiers)


def test_a_team_is_built_from_the_roster_with_its_points_against_the_cap(qtbot, editor):
    add_members(qtbot, editor, "Knight", "Archer", "Knight")
    doc = editor.team.doc
    assert [(m.id, m.archetype) for m in doc.members] == [
        ("knight", "Knight"), ("archer", "Archer"), ("knight-2", "Knight")]
    table = editor.members.table
    assert [table.item(r, 3).text() for r in range(3)] == ["120", "100", "120"]
    assert editor.members.points.text() == "Points: 340 of 400"
    assert "color" not in editor.members.points.styleSheet()
    add_members(qtbot, editor, "Hawk")  # 470: over the 400-point cap, shown red
    assert editor.members.points.text() == "Points: 470 of 400 - over the cap"
    assert "#b00020" in editor.members.points.styleSheet()
    assert "costs 470 points, over the 400-point cap" in editor.problem.text()
    cap = editor.members.cap  # the cap raised with the keyboard: no longer over
    cap.setFocus()
    cap.selectAll()
    QTest.keyClicks(cap, "500")
    QTest.keyClick(cap, Qt.Key.Key_Return)
    assert editor.team.cap == 500 and "color" not in editor.members.points.styleSheet()
    assert editor.team.doc.ids() == ["knight", "archer", "knight-2", "hawk"]  # Enter added none
    # the second Knight removed: chosen in the table, Remove clicked
    rect = table.visualItemRect(table.item(2, 0))
    qtbot.mouseClick(table.viewport(), Left, pos=rect.center())
    qtbot.mouseClick(editor.members.remove, Left)
    assert editor.team.doc.ids() == ["knight", "archer", "hawk"]
    assert editor.team.undo_stack.undoText() == "Remove Member knight-2"


def test_member_ids_and_names_are_edited_in_the_table(qtbot, editor):
    add_members(qtbot, editor, "Archer")
    table = editor.members.table
    for col, text in ((0, "robin"), (1, "Robin Hood")):
        type_in_cell(qtbot, editor, 0, col, text)
    assert editor.team.doc.members[0] == td.MemberEntry("robin", "Archer", "Robin Hood")
    assert editor.team.undo_stack.undoText() == "Rename Member"
    # a bad id is refused in one line and the table shows the member as it is
    type_in_cell(qtbot, editor, 0, 0, "robin hood")
    assert editor.team.doc.ids() == ["robin"] and table.item(0, 0).text() == "robin"
    assert "member id 'robin hood': use 1-32 letters, digits, _ or -" in editor.problem.text()


def test_a_member_dragged_onto_a_cell_is_one_undo_step(qtbot, editor):
    add_members(qtbot, editor, "Knight", "Archer", "Mage")
    qtbot.mouseClick(editor.formations.buttons["add"], Left)
    f = editor.team.doc.formations
    assert len(f) == 1 and dict(f[0].cells) == {"knight": (0, 0), "archer": (1, 0),
                                                "mage": (2, 0)}
    drag_cell(editor, (2, 0), (7, 3))  # the mage to column 7, row 3
    assert editor.team.doc.formations[0].cell("mage") == (7, 3)
    assert editor.team.undo_stack.undoText() == "Move Member"
    assert editor.team.undo_stack.count() == 5  # 3 members, Add Formation, Move Member
    drag_cell(editor, (0, 0), (1, 0))  # the knight onto the archer: they swap
    assert dict(editor.team.doc.formations[0].cells) == {
        "knight": (1, 0), "archer": (0, 0), "mage": (7, 3)}
    press_shortcut(editor, Qt.Key.Key_Z)
    assert editor.team.doc.formations[0].cell("knight") == (0, 0)
    press_shortcut(editor, Qt.Key.Key_Z)
    assert editor.team.doc.formations[0].cell("mage") == (2, 0)
    press_shortcut(editor, Qt.Key.Key_Z, Ctrl | Qt.KeyboardModifier.ShiftModifier)
    assert editor.team.doc.formations[0].cell("mage") == (7, 3)
    # a drag off the grid or cancelled with Escape changes nothing
    before = editor.team.doc
    grid = editor.grid
    QTest.mousePress(grid, Left, Qt.KeyboardModifier.NoModifier, cell_point(editor, (7, 3)))
    QTest.keyClick(grid, Qt.Key.Key_Escape)
    QTest.mouseRelease(grid, Left, Qt.KeyboardModifier.NoModifier, cell_point(editor, (9, 9)))
    assert editor.team.doc == before
    # the arrow keys move the selected member one cell
    QTest.keyClick(grid, Qt.Key.Key_Down)
    assert editor.team.doc.formations[0].cell("mage") == (7, 4)


def test_without_a_formation_the_grid_shows_rows_of_four_and_moves_nothing(qtbot, editor):
    add_members(qtbot, editor, "Knight", "Archer", "Mage", "Rogue", "Brute")
    assert editor.team.formation == -1
    assert dict(editor.grid.cells())["brute"] == (0, 1)
    drag_cell(editor, (0, 1), (5, 5))
    assert editor.team.doc.formations == () and editor.team.undo_stack.count() == 5


def test_formations_are_added_renamed_duplicated_reordered_and_deleted(qtbot, editor):
    add_members(qtbot, editor, "Knight", "Archer")
    buttons = editor.formations.buttons
    qtbot.mouseClick(buttons["add"], Left)
    drag_cell(editor, (1, 0), (1, 2))
    qtbot.mouseClick(buttons["add"], Left)  # a second formation, shown
    assert [f.name for f in editor.team.doc.formations] == ["formation", "formation 2"]
    assert editor.team.formation == 1 and editor.grid.cells()[1] == ("archer", (1, 0))
    listing = editor.formations.list
    listing.setFocus()
    QTest.keyClick(listing, Qt.Key.Key_F2)
    field = QApplication.focusWidget()
    QTest.keyClick(field, Qt.Key.Key_A, Ctrl)
    QTest.keyClicks(field, "wedge")
    QTest.keyClick(field, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: editor.team.undo_stack.undoText() == "Rename Formation")
    assert [f.name for f in editor.team.doc.formations] == ["formation", "wedge"]
    assert editor.team.undo_stack.undoText() == "Rename Formation"
    qtbot.mouseClick(buttons["default"], Left)  # the wedge becomes the default
    assert [f.name for f in editor.team.doc.formations] == ["wedge", "formation"]
    assert listing.item(0).font().bold() and not listing.item(1).font().bold()
    assert editor.team.formation == 0 and not buttons["up"].isEnabled()
    qtbot.mouseClick(buttons["duplicate"], Left)
    assert [f.name for f in editor.team.doc.formations] == ["wedge", "wedge copy", "formation"]
    qtbot.mouseClick(buttons["down"], Left)
    assert [f.name for f in editor.team.doc.formations] == ["wedge", "formation", "wedge copy"]
    qtbot.mouseClick(buttons["delete"], Left)
    assert [f.name for f in editor.team.doc.formations] == ["wedge", "formation"]
    # choosing a formation in the list shows it on the grid
    qtbot.mouseClick(listing.viewport(), Left, pos=listing.visualItemRect(
        listing.item(1)).center())
    assert editor.team.formation == 1 and dict(editor.grid.cells())["archer"] == (1, 2)
    stack = editor.team.undo_stack
    names = [stack.text(i) for i in range(stack.count())]
    assert names[-6:] == ["Add Formation", "Rename Formation", "Make Formation Default",
                          "Duplicate Formation", "Move Formation", "Delete Formation"]
    while stack.canUndo():
        stack.undo()
    assert editor.team.doc == td.TeamDoc("new team")
    while stack.canRedo():
        stack.redo()
    assert [f.name for f in editor.team.doc.formations] == ["wedge", "formation"]


def test_saved_and_reopened_identical_and_the_battle_takes_it(qtbot, editor, tmp_path,
                                                              monkeypatch):
    add_members(qtbot, editor, "Knight", "Archer", "Mage")
    editor.name.setFocus()
    editor.name.selectAll()
    QTest.keyClicks(editor.name, "Vanguard")
    QTest.keyClick(editor.name, Qt.Key.Key_Return)
    assert editor.team.doc.name == "Vanguard"
    qtbot.mouseClick(editor.formations.buttons["add"], Left)
    drag_cell(editor, (0, 0), (4, 0))
    qtbot.mouseClick(editor.formations.buttons["add"], Left)
    drag_cell(editor, (2, 0), (2, 3))
    path = tmp_path / "vanguard.json"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(path), ""))
    assert editor.isWindowModified()
    press_shortcut(editor, Qt.Key.Key_S)  # Ctrl+S of a new team asks where
    assert path.is_file() and not editor.team.modified and not editor.isWindowModified()
    saved = editor.team.doc
    other = TeamEditor(TeamDocument())
    qtbot.addWidget(other)
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(path), ""))
    other.file_actions["open"].trigger()
    assert other.team.doc == saved and other.team.path == path
    assert other.team.undo_stack.count() == 0
    data = json.loads(path.read_text())
    assert [f["name"] for f in data["formations"]] == ["formation", "formation 2"]
    assert data["formations"][0]["positions"]["knight"] == [4, 0]
    # the playtest setup takes the new file as it takes any team file
    model = load_map(ROOT / "maps" / "tiered-keep.json")
    assert load_team(path, other.team.roster).formation().name == "formation"
    setup = build_setup(model, PlaytestChoice(team_files=(path, path),
                                              zones=("attackers", "defenders"), seed=1))
    state = setup.state(1)
    assert len(state.names) == 6 and "attackers.knight" in state.names
    dialog = SetupDialog(model)
    qtbot.addWidget(dialog)
    dialog.teams[0].set_team_file(path)
    assert dialog.teams[0].cost() == 120 + 100 + 95


def test_a_team_file_that_cannot_be_read_keeps_the_team_and_says_why(qtbot, editor, tmp_path):
    add_members(qtbot, editor, "Knight")
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"format": "sodwa-team", "format_version": 1, "name": "x",
                               "members": [{"id": "a", "archetype": "Dragon"}]}))
    assert not editor.open_file(bad)
    assert editor.team.doc.ids() == ["knight"]
    assert "members[0].archetype: no archetype 'Dragon'" in editor.problem.text()


def test_closing_with_unsaved_changes_asks(qtbot, editor, monkeypatch):
    add_members(qtbot, editor, "Knight")
    monkeypatch.setattr(QMessageBox, "question",
                        lambda *a, **k: QMessageBox.StandardButton.Cancel)
    editor.close()
    assert editor.isVisible()
    monkeypatch.setattr(QMessageBox, "question",
                        lambda *a, **k: QMessageBox.StandardButton.Discard)
    editor.close()
    assert not editor.isVisible()


def open_editor(win) -> TeamEditor:
    """Tools > Teams and Formations, from the menu."""
    tools = next(a.menu() for a in win.menuBar().actions() if a.text() == "&Tools")
    action = next(a for a in tools.actions() if a.text() == "&Teams and Formations...")
    action.trigger()
    return win.team_editor


def test_the_formation_preview_lands_in_a_start_zone_of_the_open_map(qtbot, make_window):
    path = ROOT / "maps" / "tiered-keep.json"
    win = make_window(load_map(path), path)
    ed = open_editor(win)
    qtbot.waitExposed(ed)
    add_members(qtbot, ed, "Knight", "Archer", "Mage", "Rogue")
    qtbot.mouseClick(ed.formations.buttons["add"], Left)
    drag_cell(ed, (3, 0), (1, 1))  # the rogue behind the archer
    preview = ed.preview
    assert preview is not None and ed.show_preview.isChecked()
    assert ed.zone.currentText() == "attackers"
    item = preview.item
    assert item.scene() is win.scene and item in win.scene.transient_items()
    expected = place_formation(win.document.model, "attackers",
                               ed.team.doc.formations[0].as_formation())
    assert item.is_shown() and item.tiles == expected.tiles and expected.exact
    assert item.labels == ("knight", "archer", "mage", "rogue")
    assert ed.preview_line.text() == ("formation 'formation' in start zone 'attackers', "
                                      "facing north, as drawn")
    assert "color" not in ed.preview_line.styleSheet()
    # five abreast in the 4x4 defenders' zone: inexact, warned in the editor and on the map
    add_members(qtbot, ed, "Brute")  # on the first free cell: (3, 0), the rogue's old one
    drag_cell(ed, (1, 1), (4, 0))  # the rogue to the front row's end
    assert [c for _m, c in ed.team.doc.formations[0].cells] == [(k, 0) for k in
                                                               (0, 1, 2, 4, 3)]
    ed.zone.setFocus()
    QTest.keyClick(ed.zone, Qt.Key.Key_Down)
    assert ed.zone.currentText() == "defenders"
    assert not item.exact and item.note.isVisible()
    assert item.note.text() == ("⚠ inexact placement: 'formation' does not fit\n"
                                "start zone 'defenders' as drawn; each member\n"
                                "took the nearest free tile")
    assert "#b00020" in ed.preview_line.styleSheet()
    zone = win.document.model.start_zones["defenders"]
    assert set(item.tiles) <= set(zone) and len(set(item.tiles)) == 5
    # the map edited under the preview: it follows (a wall on a tile it used)
    wall = item.tiles[0]
    win.set_tool("brush")
    win.state.set("terrain_id", win.document.model.registry.id_of("obstructing"))
    click_tile(win.view, *wall)
    assert win.document.model.base_at(*wall).name == "OBSTRUCTING"
    assert wall not in item.tiles and len(item.tiles) == 5
    win.document.undo()
    assert wall in item.tiles
    # a closed editor leaves nothing on the map
    ed.team.undo_stack.setClean()
    ed.close()
    assert not item.isVisible()
    win.action_map["team_editor"].trigger()
    assert item.is_shown()


def test_the_preview_says_why_it_cannot_place(qtbot, make_window):
    from sodwa_editor.engine.model import MapModel

    m = MapModel(8, 8)
    m.set_start_zone("north", [(3, 0), (4, 0)])
    win = make_window(m)
    ed = open_editor(win)
    assert ed.preview_line.text() == "no preview: the team has no members"
    add_members(qtbot, ed, "Knight", "Archer", "Mage")
    assert ed.preview_line.text() == ("no preview: the start zone of team 'north' has room "
                                      "for 2 character(s); the team has 3")
    assert not ed.preview.item.isVisible()
    qtbot.mouseClick(ed.show_preview, Left)
    assert not ed.show_preview.isChecked() and ed.preview_line.text() == ""


def test_closing_the_window_asks_about_an_unsaved_team(qtbot, make_window, monkeypatch):
    win = make_window()
    ed = open_editor(win)
    add_members(qtbot, ed, "Knight")
    asked = []

    def cancel(*args, **kwargs):
        asked.append(args[1])
        return QMessageBox.StandardButton.Cancel

    monkeypatch.setattr(QMessageBox, "question", cancel)
    win.close()
    assert win.isVisible() and asked == ["Unsaved Team"]


def test_a_members_archetype_is_changed_in_the_table(qtbot, editor):
    add_members(qtbot, editor, "Knight")
    box = editor.members.table.cellWidget(0, 2)
    box.setFocus()
    QTest.keyClick(box, Qt.Key.Key_Down)  # Knight -> the next archetype of the roster
    roster = editor.team.roster.names()
    after = roster[roster.index("Knight") + 1]
    assert editor.team.doc.members[0].archetype == after
    assert editor.team.undo_stack.undoText() == "Change Archetype"
    cost = editor.team.roster.find(after).values["cost"]
    assert editor.members.table.item(0, 3).text() == str(cost)
    assert editor.members.points.text() == f"Points: {cost} of 400"
    editor.team.undo_stack.undo()
    assert editor.team.doc.members[0].archetype == "Knight" and box.currentText() == "Knight"
