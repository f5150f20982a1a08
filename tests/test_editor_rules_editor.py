"""Tools > Rules Editor (issue 28 section 3) driven with real events: a key changed
with the keyboard and the mouse, highlighted and counted, undone and redone; the
details quote the decision; the filter; a variant saved with only its changed keys
and opened again; a bad file refused in one line; unsaved changes asked about."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, QSettings, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QCheckBox, QComboBox, QFileDialog, QMessageBox, QPushButton, QSpinBox

from sodwa_editor.battle.rules import default_rules, load_rules
from sodwa_editor.editor.rules_editor.dialog import CHANGED_BRUSH, KEY, RulesEditor
from sodwa_editor.editor.rules_editor.model import RulesDocument

Left = Qt.MouseButton.LeftButton


@pytest.fixture
def editor(qtbot, tmp_path):
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    dialog = RulesEditor(RulesDocument(), settings=settings)
    dialog.show()
    qtbot.waitExposed(dialog)
    yield dialog
    dialog.document.undo_stack.setClean()  # no unsaved-changes question at the end
    dialog.close()
    dialog.deleteLater()


def button(dialog, name) -> QPushButton:
    return dialog.findChild(QPushButton, name)


def spin(dialog, key) -> QSpinBox:
    box = dialog.editors[key].field
    dialog.tree.scrollToItem(dialog.items[key])
    return box


def type_into(qtbot, box: QSpinBox, text: str) -> None:
    box.setFocus()
    box.selectAll()
    QTest.keyClicks(box, text)
    QTest.keyClick(box, Qt.Key.Key_Return)


def test_a_key_typed_in_is_highlighted_counted_and_undone_as_one_step(qtbot, editor):
    box = spin(editor, "clock.turn_cost")
    type_into(qtbot, box, "400")
    d = editor.document
    assert d.variant.changed() == {"clock.turn_cost": 400}
    assert d.undo_stack.count() == 1 and d.undo_stack.undoText() == "Set clock.turn_cost"
    item = editor.items["clock.turn_cost"]
    assert item.font(KEY).bold() and item.background(KEY) == CHANGED_BRUSH
    assert editor.count.text() == f"1 of {len(editor.items)} keys changed"
    assert editor.sections["clock"].text(1) == "1 changed"
    assert editor.windowTitle().endswith("*")
    QTest.mouseClick(button(editor, "rules_undo"), Left)
    assert d.variant.changed() == {} and box.value() == 500
    assert not item.font(KEY).bold()
    QTest.mouseClick(button(editor, "rules_redo"), Left)
    assert box.value() == 400 and d.variant.is_changed("clock.turn_cost")


def test_a_value_out_of_range_cannot_be_typed_and_a_bad_list_is_one_line(qtbot, editor):
    box = spin(editor, "clock.turn_cost")
    type_into(qtbot, box, "0")  # the spin box's minimum is the schema's: 1
    assert editor.document.variant.value("clock.turn_cost") >= 1
    line = editor.editors["combat.dr_applies_to"].field
    editor.tree.scrollToItem(editor.items["combat.dr_applies_to"])
    line.setFocus()
    line.selectAll()
    QTest.keyClicks(line, "physical, Fire!")
    QTest.keyClick(line, Qt.Key.Key_Return)
    assert editor.status.text().startswith("combat.dr_applies_to: 'Fire!' does not match")
    assert not editor.document.variant.is_changed("combat.dr_applies_to")
    assert line.text() == "physical, energy, magical"  # the value in force again


def test_a_check_box_and_a_choice_edit_with_the_mouse_and_keyboard(qtbot, editor):
    check = editor.editors["clock.one_turn_per_tick"].field
    assert isinstance(check, QCheckBox)
    editor.tree.scrollToItem(editor.items["clock.one_turn_per_tick"])
    QTest.mouseClick(check, Left, pos=QPoint(8, check.height() // 2))
    assert editor.document.variant.value("clock.one_turn_per_tick") is True
    combo = editor.editors["targeting.range_metric"].field
    assert isinstance(combo, QComboBox)
    editor.tree.scrollToItem(editor.items["targeting.range_metric"])
    combo.setFocus()
    QTest.keyClick(combo, Qt.Key.Key_Down)
    assert editor.document.variant.value("targeting.range_metric") == "euclidean"
    assert editor.document.undo_stack.count() == 2


def test_the_details_quote_the_decision_a_key_rests_on(qtbot, editor):
    item = editor.items["clock.one_turn_per_tick"]
    editor.tree.scrollToItem(item)
    rect = editor.tree.visualItemRect(item)
    QTest.mouseClick(editor.tree.viewport(), Left, pos=QPoint(20, rect.center().y()))
    assert editor.current_key() == "clock.one_turn_per_tick"
    text = editor.details.toPlainText()
    assert "B10" in text and "Rests on:" in text and "docs/rules.md" in text
    assert "RB: fixed by the rulebook" in text


def test_the_filter_finds_keys_by_decision_and_changed_only_hides_the_rest(qtbot, editor):
    QTest.keyClicks(editor.filter, "B10")
    visible = [k for k, it in editor.items.items() if not it.isHidden()]
    assert visible == ["clock.one_turn_per_tick"]
    editor.filter.clear()
    type_into(qtbot, spin(editor, "karma.gain_below"), "40")
    QTest.mouseClick(editor.changed_only, Left, pos=QPoint(8, editor.changed_only.height() // 2))
    visible = [k for k, it in editor.items.items() if not it.isHidden()]
    assert visible == ["karma.gain_below"]
    assert editor.sections["clock"].isHidden() and not editor.sections["karma"].isHidden()


def test_save_as_writes_only_the_changed_keys_and_open_reads_them_back(
        qtbot, editor, tmp_path, monkeypatch):
    type_into(qtbot, spin(editor, "clock.turn_cost"), "400")
    editor.name.setFocus()
    editor.name.selectAll()
    QTest.keyClicks(editor.name, "fast turns")
    QTest.keyClick(editor.name, Qt.Key.Key_Return)
    target = tmp_path / "fast"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(target), ""))
    QTest.mouseClick(button(editor, "rules_save_as"), Left)
    saved = tmp_path / "fast.json"
    doc = json.loads(saved.read_text(encoding="utf-8"))
    assert doc == {"format": "sodwa-rules", "format_version": 1, "name": "fast turns",
                   "clock": {"turn_cost": 400}}
    assert load_rules(saved).clock.turn_cost == 400
    assert not editor.document.modified and not editor.windowTitle().endswith("*")
    fresh = RulesEditor(RulesDocument())
    qtbot.addWidget(fresh)
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(saved), ""))
    QTest.mouseClick(button(fresh, "rules_open"), Left)
    assert fresh.document.variant.changed() == {"clock.turn_cost": 400}
    assert spin(fresh, "clock.turn_cost").value() == 400 and fresh.name.text() == "fast turns"
    assert "1 key differ" in fresh.status.text()


def test_a_bad_rules_file_is_one_line_and_the_open_variant_stays(
        qtbot, editor, tmp_path, monkeypatch):
    type_into(qtbot, spin(editor, "clock.move_cost"), "300")
    editor.document.undo_stack.setClean()
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "sodwa-rules", "format_version": 1, "clock": {"turn_cost": -5}}',
                   encoding="utf-8")
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(bad), ""))
    QTest.mouseClick(button(editor, "rules_open"), Left)
    assert editor.status.text().endswith("bad.json: clock.turn_cost: -5 is less than the "
                                         "minimum of 1")
    assert editor.document.variant.changed() == {"clock.move_cost": 300}


def test_contradicting_numbers_are_not_saved(qtbot, editor, tmp_path):
    type_into(qtbot, spin(editor, "dice.auto_fail_at_or_below"), "100")
    assert not editor.save_file(tmp_path / "x.json")
    assert "must be below dice.auto_success_at_or_above" in editor.status.text()
    assert not (tmp_path / "x.json").exists()


def test_reset_key_and_reset_all_are_undoable(qtbot, editor):
    type_into(qtbot, spin(editor, "clock.turn_cost"), "400")
    type_into(qtbot, spin(editor, "clock.move_cost"), "200")
    editor.tree.setCurrentItem(editor.items["clock.turn_cost"])
    QTest.mouseClick(button(editor, "rules_reset_key"), Left)
    assert editor.document.variant.changed() == {"clock.move_cost": 200}
    QTest.mouseClick(button(editor, "rules_reset_all"), Left)
    assert editor.document.variant.changed() == {}
    assert spin(editor, "clock.move_cost").value() == 250
    editor.document.undo_stack.undo()
    assert editor.document.variant.changed() == {"clock.move_cost": 200}


def test_closing_with_unsaved_changes_asks_and_cancel_keeps_the_editor(
        qtbot, editor, monkeypatch):
    type_into(qtbot, spin(editor, "clock.turn_cost"), "400")
    monkeypatch.setattr(QMessageBox, "question",
                        lambda *a, **k: QMessageBox.StandardButton.Cancel)
    editor.close()
    assert editor.isVisible()
    monkeypatch.setattr(QMessageBox, "question",
                        lambda *a, **k: QMessageBox.StandardButton.Discard)
    editor.close()
    assert not editor.isVisible()


def test_the_tools_menu_opens_the_rules_editor(make_window):
    win = make_window()
    act = win.action_map["rules_editor"]
    tools = next(a.menu() for a in win.menuBar().actions() if a.text() == "&Tools")
    assert act in tools.actions()
    act.trigger()
    assert win.rules_editor is not None and win.rules_editor.isVisible()
    assert len(win.rules_editor.items) == len(default_rules_keys())
    win.rules_editor.close()


def default_rules_keys():
    from sodwa_editor.battle.rules_catalog import rule_keys

    return rule_keys()


def test_saved_variant_plays_as_its_rules(tmp_path):
    doc = RulesDocument()
    doc.set_value("clock.turn_cost", 450)
    path = doc.save(tmp_path / "v.json")
    assert load_rules(Path(path)).clock.turn_cost == 450
    assert default_rules().clock.turn_cost == 500


def test_a_folder_that_cannot_be_written_is_one_line_and_the_variant_stays(tmp_path):
    doc = RulesDocument()
    doc.set_value("clock.turn_cost", 450)
    with pytest.raises(Exception, match=r"cannot write the file|no-such-dir"):
        doc.save(tmp_path / "no-such-dir" / "v.json")
    assert doc.modified and doc.variant.changed() == {"clock.turn_cost": 450}
    assert list(tmp_path.iterdir()) == []
