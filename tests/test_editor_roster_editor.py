"""The roster editor (Tools > Roster Editor) driven with real mouse and key events:
cells edited by keyboard with checks as you type, add/duplicate/delete, undo/redo,
save and reload, and the matchup table following every edit."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QFileDialog, QLineEdit, QToolBar, QToolButton

from sodwa_editor.battle.jsonfiles import read_json
from sodwa_editor.battle.sheet import DEFAULT_ROSTER_PATH
from sodwa_editor.editor.roster_editor.dialog import (
    SOURCE_KEY,
    RosterEditorDialog,
    remembered_roster,
)
from sodwa_editor.editor.roster_editor.editing import RosterEditing
from sodwa_editor.editor.roster_editor.matchup_view import IMPOSSIBLE
from sodwa_editor.io import build_pack, read_pack, save_pack

MAPS = Path(__file__).resolve().parents[1] / "maps"


@pytest.fixture
def dialog(qtbot, tmp_path):
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    dlg = RosterEditorDialog(RosterEditing(), settings=settings)
    qtbot.addWidget(dlg)
    dlg.resize(1180, 760)
    dlg.show()
    qtbot.waitExposed(dlg)
    return dlg


def click_cell(dlg, row: int, key: str) -> None:
    table = dlg.table
    index = dlg.table_model.index(row, dlg.table_model.column_of(key))
    table.scrollTo(index)
    QTest.mouseClick(table.viewport(), Qt.MouseButton.LeftButton,
                     Qt.KeyboardModifier.NoModifier, table.visualRect(index).center())
    assert table.currentIndex() == index


def type_cell(dlg, row: int, key: str, text: str, finish: bool = True) -> QLineEdit:
    """Click the cell, type ``text`` (the first key opens the editor, replacing the
    value) and press Enter."""
    click_cell(dlg, row, key)
    QTest.keyClick(dlg.table, text[0])
    editor = open_editor(dlg.table)
    QTest.keyClicks(editor, text[1:])
    if finish:
        press_return(editor)
    return editor


def open_editor(table) -> QLineEdit:
    """The cell editor open in ``table`` (closed ones are hidden until deleted)."""
    found = [w for w in table.findChildren(QLineEdit, "roster_cell_editor") if w.isVisible()]
    assert len(found) == 1
    return found[0]


def press_return(editor: QLineEdit) -> None:
    """Enter in a cell editor: the delegate commits in a queued call."""
    QTest.keyClick(editor, Qt.Key.Key_Return)
    QApplication.processEvents()


def button(dlg, key: str) -> QToolButton:
    bar = dlg.findChild(QToolBar)
    widget = bar.widgetForAction(dlg.actions_by_key[key])
    assert isinstance(widget, QToolButton)
    return widget


def row_of(dlg, name: str) -> int:
    return dlg.editing.roster.names().index(name)


def test_edit_a_cell_by_keyboard_updates_costs_and_matchups(dialog):
    e, matchups = dialog.editing, dialog.matchups.model
    knight, hawk, archer = row_of(dialog, "Knight"), row_of(dialog, "Hawk"), row_of(dialog,
                                                                                      "Archer")
    type_cell(dialog, knight, "attributes.health", "30")
    assert e.doc["characters"][knight]["attributes"]["health"] == 30
    assert e.undo_stack.undoText() == "Edit Knight Health"
    assert dialog.actions_by_key["undo"].text() == "&Undo Edit Knight Health"
    cost_col = dialog.table_model.suggested_column
    shown = dialog.table_model.index(knight, cost_col).data()
    # durability grows with Health: 117.8 x sqrt(30 / 14) = 172.4 -> 170, set 120
    assert shown == "170 (+50)"
    assert "durability" in dialog.table_model.index(knight, cost_col).data(
        Qt.ItemDataRole.ToolTipRole)
    # melee, no one moved: the Archer needs 115 + 30 - 45 = 100 against the Hawk
    cell = matchups.index(archer, hawk)
    assert cell.data() == "100+"
    assert cell.data(Qt.ItemDataRole.BackgroundRole).color() == IMPOSSIBLE
    type_cell(dialog, hawk, "attributes.evasion", "0")
    cell = matchups.index(archer, hawk)
    assert cell.data() == "70+" and cell.data(Qt.ItemDataRole.BackgroundRole) is None
    assert "Total Defense 115" in cell.data(Qt.ItemDataRole.ToolTipRole)
    QTest.keyClick(dialog.table, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert matchups.index(archer, hawk).data() == "100+"
    assert dialog.isWindowModified()


def test_a_refused_value_turns_the_cell_red_and_changes_nothing(dialog):
    e = dialog.editing
    before = read_json(DEFAULT_ROSTER_PATH)
    editor = type_cell(dialog, 0, "attributes.health", "0", finish=False)
    why = "roster.json: characters[0].attributes.health: 0 is less than the minimum of 1"
    assert editor.property("problem") == why and editor.toolTip() == why
    assert "background" in editor.styleSheet()
    assert dialog.message_label.text() == why
    QTest.keyClicks(editor, "x")  # "0x": not a number
    assert editor.property("problem").endswith("Health: '0x' is not a whole number")
    QTest.keyClick(editor, Qt.Key.Key_Backspace)
    QTest.keyClick(editor, Qt.Key.Key_Backspace)
    QTest.keyClicks(editor, "9")
    assert editor.property("problem") == "" and editor.styleSheet() == ""
    QTest.keyClick(editor, Qt.Key.Key_Backspace)
    QTest.keyClicks(editor, "0")
    press_return(editor)
    assert e.doc == before and e.undo_stack.count() == 0
    assert dialog.message_label.text() == why
    # a name another archetype has (ignoring case) is refused as the loader refuses it
    type_cell(dialog, 1, "name", "KNIGHT")
    assert e.doc == before
    assert dialog.message_label.text().endswith("archetype 'KNIGHT' appears twice")


def test_flight_toggles_with_the_space_key(dialog):
    knight = row_of(dialog, "Knight")
    click_cell(dialog, knight, "flight")
    QTest.keyClick(dialog.table, Qt.Key.Key_Space)
    assert dialog.editing.doc["characters"][knight]["flight"] is True
    assert dialog.editing.undo_stack.undoText() == "Edit Knight Flight"


def test_add_duplicate_delete_with_undo_and_redo(dialog):
    e = dialog.editing
    start = read_json(DEFAULT_ROSTER_PATH)
    n = len(start["characters"])
    mage = row_of(dialog, "Mage")
    click_cell(dialog, mage, "name")
    QTest.mouseClick(button(dialog, "duplicate"), Qt.MouseButton.LeftButton)
    assert e.name_of(mage + 1) == "Mage copy" and dialog.table.currentIndex().row() == mage + 1
    assert e.doc["characters"][mage + 1]["abilities"] == start["characters"][mage]["abilities"]
    assert dialog.matchups.model.rowCount() == n + 1
    QTest.keyClick(dialog.table, Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier)
    assert e.name_of(mage + 2) == "New Archetype"
    assert e.undo_stack.undoText() == "Add Archetype"
    QTest.keyClick(dialog.table, Qt.Key.Key_Delete, Qt.KeyboardModifier.ControlModifier)
    assert e.row_count() == n + 1 and e.undo_stack.undoText() == "Delete New Archetype"
    after = e.doc
    for _ in range(3):
        QTest.keyClick(dialog.table, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert e.doc == start and dialog.table_model.rowCount() == n
    for _ in range(3):
        QTest.keyClick(dialog.table, Qt.Key.Key_Y, Qt.KeyboardModifier.ControlModifier)
    assert e.doc == after
    assert [e.undo_stack.text(i) for i in range(e.undo_stack.count())] == [
        "Duplicate Mage", "Add Archetype", "Delete New Archetype"]


def test_the_last_archetype_cannot_be_deleted(qtbot, tmp_path):
    doc = read_json(DEFAULT_ROSTER_PATH)
    doc["characters"] = doc["characters"][:1]
    path = tmp_path / "one.json"
    path.write_text(__import__("json").dumps(doc), encoding="utf-8")
    editing = RosterEditing()
    assert editing.open(path)
    dlg = RosterEditorDialog(editing)
    qtbot.addWidget(dlg)
    dlg.show()
    click_cell(dlg, 0, "name")
    QTest.mouseClick(button(dlg, "delete"), Qt.MouseButton.LeftButton)
    assert editing.row_count() == 1 and editing.undo_stack.count() == 0
    assert "characters" in dlg.message_label.text()


def test_save_as_then_reload_round_trip(dialog, tmp_path, monkeypatch):
    out = tmp_path / "my-roster.json"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(out), ""))
    type_cell(dialog, row_of(dialog, "Ogre"), "move", "6")
    # the shipped roster is never written over: Save asks where (Save As)
    QTest.keyClick(dialog.table, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    assert out.exists() and not dialog.isWindowModified()
    assert dialog.editing.source.kind == "file" and "my-roster.json" in dialog.windowTitle()
    assert dialog.settings.value(SOURCE_KEY) == str(out)
    saved = read_json(out)
    assert saved == dialog.editing.doc
    assert saved["characters"][row_of(dialog, "Ogre")]["move"] == 6
    # a second editor (the window reopened) comes back on the same file, same values
    again = remembered_roster(dialog.settings)
    assert again.source.path == out and again.doc == saved
    # Save writes the file it came from
    type_cell(dialog, 0, "attributes.cost", "125")
    QTest.mouseClick(button(dialog, "save"), Qt.MouseButton.LeftButton)
    assert read_json(out)["characters"][0]["attributes"]["cost"] == 125


def test_save_into_a_pack_and_open_it(dialog, tmp_path, monkeypatch):
    pack, problems = build_pack([MAPS / "outdoor-skirmish.json"], name="p", version="1")
    assert pack is not None, problems
    path = tmp_path / "pack.json"
    save_pack(pack, path)
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(path), ""))
    type_cell(dialog, 0, "range", "2")
    QTest.mouseClick(button(dialog, "save_pack"), Qt.MouseButton.LeftButton)
    stored, problems = read_pack(path)
    assert not [p for p in problems if p.is_error]
    assert stored["roster"] == dialog.editing.doc and stored["maps"] == pack["maps"]
    assert dialog.editing.source.kind == "pack"
    fresh = RosterEditing()
    assert fresh.open(path) and fresh.doc["characters"][0]["range"] == 2


def test_the_matchup_case_controls(dialog):
    panel = dialog.matchups
    archer, hawk = row_of(dialog, "Archer"), row_of(dialog, "Hawk")
    panel.kind.setCurrentIndex(1)  # Ranged
    panel.moves.setCurrentIndex(3)  # Both moved
    QTest.mouseClick(panel.impeded, Qt.MouseButton.LeftButton)
    assert panel.model.case.label == "ranged, both moved, impeded"
    cell = panel.model.index(archer, hawk)
    assert cell.data() == "100+" and "Total Defense 175" in cell.data(
        Qt.ItemDataRole.ToolTipRole)
    panel.show_box.setCurrentIndex(2)  # karma per miss
    assert panel.model.index(archer, hawk).data() == "0"
    knight = row_of(dialog, "Knight")
    assert panel.model.index(knight, hawk).data() == "-"  # Range 1: no ranged attack
    assert "impossible" in panel.counts.text()


def test_the_window_opens_it_from_the_tools_menu(make_window):
    win = make_window()
    act = win.action_map["roster_editor"]
    assert act in win.tools_menu.actions()
    act.trigger()
    dlg = win.roster_editor
    assert isinstance(dlg, RosterEditorDialog) and dlg.isVisible()
    act.trigger()
    assert win.roster_editor is dlg  # one editor, its history kept
    dlg.close()


def test_abilities_tab_edits_the_current_archetypes_abilities(dialog):
    e, panel = dialog.editing, dialog.abilities
    start = read_json(DEFAULT_ROSTER_PATH)
    mage = row_of(dialog, "Mage")
    click_cell(dialog, mage, "attributes.health")
    bar = dialog.tabs.tabBar()
    QTest.mouseClick(bar, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                     bar.tabRect(1).center())
    assert dialog.tabs.currentWidget() is panel and bar.tabText(1) == "Abilities of Mage"
    assert panel.model.rowCount() == 1 and panel.caption.text() == "Abilities of Mage: 1"
    cost_before = dialog.table_model.index(mage, dialog.table_model.suggested_column).data()
    table = panel.table
    damage = panel.model.index(0, [c.key for c in panel.model.columns].index("damage"))
    QTest.mouseClick(table.viewport(), Qt.MouseButton.LeftButton,
                     Qt.KeyboardModifier.NoModifier, table.visualRect(damage).center())
    QTest.keyClick(table, "9")
    editor = open_editor(table)
    press_return(editor)
    assert e.doc["characters"][mage]["abilities"][0]["damage"] == 9
    assert e.undo_stack.undoText() == "Edit Mage Fireball Damage"
    assert dialog.table_model.index(mage, dialog.table_model.suggested_column).data() \
        != cost_before  # a stronger Fireball: a dearer Mage
    # an area the parser cannot read turns the cell red with the loader's line
    area = panel.model.index(0, [c.key for c in panel.model.columns].index("area"))
    QTest.mouseClick(table.viewport(), Qt.MouseButton.LeftButton,
                     Qt.KeyboardModifier.NoModifier, table.visualRect(area).center())
    QTest.keyClick(table, Qt.Key.Key_F2)
    editor = open_editor(table)
    editor.selectAll()
    QTest.keyClicks(editor, "AoE - Blast - Blob: 1")
    assert f"characters[{mage}].abilities[0].area: Blob: unknown shape" in \
        editor.property("problem")
    press_return(editor)
    assert e.doc["characters"][mage]["abilities"][0]["area"].endswith("Range: 6, Reach: 1")
    QTest.mouseClick(panel.add_button, Qt.MouseButton.LeftButton)
    assert [a["name"] for a in e.abilities(mage)] == ["Fireball", "New Ability"]
    assert e.undo_stack.undoText() == "Add Ability to Mage"
    QTest.mouseClick(panel.delete_button, Qt.MouseButton.LeftButton)  # the new one: current
    assert [a["name"] for a in e.abilities(mage)] == ["Fireball"]
    assert e.undo_stack.undoText() == "Delete Mage New Ability"
    for _ in range(3):
        QTest.keyClick(table, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert e.doc == start


def test_a_rules_variant_changes_the_matchups(dialog, tmp_path, monkeypatch):
    rules = tmp_path / "rules.json"
    rules.write_text('{"format": "sodwa-rules", "format_version": 1, '
                     '"modifiers": {"moved_defense": 40}}', encoding="utf-8")
    panel = dialog.matchups
    panel.moves.setCurrentIndex(2)  # defender moved
    knight = row_of(dialog, "Knight")
    assert panel.model.index(knight, knight).data() == "55+"  # 105 + 5 + 10 - 65
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(rules), ""))
    QTest.mouseClick(button(dialog, "rules"), Qt.MouseButton.LeftButton)
    assert panel.model.index(knight, knight).data() == "85+"  # moved_defense 40
    assert dialog.rules_label.text() == "Matchups under rules.json"
    rules.write_text('{"format": "sodwa-rules", "format_version": 1, "clock": '
                     '{"turn_cost": -5}}', encoding="utf-8")
    QTest.mouseClick(button(dialog, "rules"), Qt.MouseButton.LeftButton)
    assert dialog.message_label.text() == (f"{rules}: clock.turn_cost: -5 is less than the "
                                           "minimum of 1")
    assert panel.model.index(knight, knight).data() == "85+"


def test_a_broken_roster_file_is_not_opened(dialog, tmp_path, monkeypatch):
    broken = tmp_path / "bad.json"
    broken.write_text('{"format": "sodwa-roster", "format_version": 2, "defaults": {}, '
                      '"characters": []}', encoding="utf-8")
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(broken), ""))
    before = dialog.editing.doc
    QTest.keyClick(dialog.table, Qt.Key.Key_O, Qt.KeyboardModifier.ControlModifier)
    assert dialog.editing.doc is before and dialog.editing.source.kind == "default"
    assert dialog.message_label.text().startswith(f"{broken}: ")


def test_closing_the_window_asks_about_unsaved_roster_changes(make_window, qtbot,
                                                              monkeypatch):
    from PySide6.QtWidgets import QMessageBox

    win = make_window()
    dlg = win.open_roster_editor()
    qtbot.waitExposed(dlg)
    type_cell(dlg, 0, "move", "7")
    asked = []

    def cancel(*args, **kwargs):
        asked.append(args[1])
        return QMessageBox.StandardButton.Cancel

    monkeypatch.setattr(QMessageBox, "question", cancel)
    assert not win.close() and win.isVisible()
    assert asked == ["Unsaved Roster"]
    monkeypatch.setattr(QMessageBox, "question",
                        lambda *a, **k: QMessageBox.StandardButton.Discard)
    assert win.close()


def test_a_key_left_out_shows_what_it_means(dialog):
    e, panel = dialog.editing, dialog.abilities
    brute = row_of(dialog, "Brute")
    assert "damage_type" not in e.doc["characters"][brute]["abilities"][0]
    click_cell(dialog, brute, "name")
    kind = panel.model.index(0, [c.key for c in panel.model.columns].index("damage_type"))
    assert kind.data() == "physical"  # the Brute's own damage type, inherited
    assert kind.data(Qt.ItemDataRole.ToolTipRole) == "not set: physical (the default)"
    type_cell(dialog, brute, "damage_type", "magical")
    kind = panel.model.index(0, [c.key for c in panel.model.columns].index("damage_type"))
    assert kind.data() == "magical"  # as the battle reads it: the archetype's
    assert e.roster.find("Brute").abilities[0].damage_type == "magical"
    attack = panel.model.index(0, [c.key for c in panel.model.columns].index("with_attack"))
    assert attack.data(Qt.ItemDataRole.CheckStateRole) == Qt.CheckState.Unchecked
