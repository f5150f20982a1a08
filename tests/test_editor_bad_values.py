"""The editor with values no map can hold or play (issue 9): huge numbers and lone
surrogates in files it opens or recovers, a negative Move in a map it opens, Move
and Range past the bound, edges outside the map."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import json

import pytest
from PySide6.QtCore import Qt

from sodwa_editor.editor.app import main, parse_overlay
from sodwa_editor.editor.dialogs import ProblemsDialog
from sodwa_editor.editor.testing import click_tile, move
from sodwa_editor.engine.model import MAX_MOVE, MAX_RANGE, Character, Edge, MapModel, MapObject
from sodwa_editor.io import read_map

ALT = Qt.KeyboardModifier.AltModifier
HUGE = "9" * 4301


def map_text(raw_move: str = "5", raw_name: str = '"n"') -> str:
    return ('{"format": "sodwa-map", "format_version": 1, "name": "t", "width": 4, '
            '"height": 3, "terrain": ["....", "....", "...."], "start_zones": {"r": [[0, 0]]}, '
            f'"characters": [{{"id": "a", "team": "r", "x": 0, "y": 0, "move": {raw_move}, '
            f'"name": {raw_name}}}]}}')


@pytest.mark.parametrize("raw_move, raw_name, where", [
    (HUGE, '"n"', "/characters/0/move: the whole number"),
    ("5", r'"\ud800"', "/characters/0/name: the text holds \\ud800"),
])
def test_open_shows_the_problem_in_a_dialog(make_window, tmp_path, raw_move, raw_name, where):
    win = make_window()
    before = win.document.model.copy()
    path = tmp_path / "bad.json"
    path.write_text(map_text(raw_move, raw_name), encoding="utf-8")
    assert not win.files.open_map(path, ask_save=False)
    dlg = win.files.last_dialog
    assert isinstance(dlg, ProblemsDialog) and dlg.isVisible()
    assert [line.startswith("error") and where in line for line in dlg.lines()] == [True]
    assert win.document.model.same_content(before)
    dlg.close()


@pytest.mark.parametrize("map_text_", [map_text(HUGE), map_text(raw_name=r'"\udfff"')])
def test_a_recovery_file_holding_a_bad_value_does_not_stop_start_up(make_window, tmp_path,
                                                                   map_text_):
    rec = tmp_path / "rec"
    rec.mkdir()
    wrapper = {"original": None, "saved_at": 1.0, "map_name": "t", "map": map_text_}
    (rec / "old.json").write_text(json.dumps(wrapper), encoding="utf-8")
    win = make_window(recovery_dir=rec)
    assert [e.file.name for e in win.recovery.pending()] == ["old.json"]
    assert not win.offer_recovery(ask=False)
    assert "could not recover old.json" in win.statusBar().currentMessage()
    assert win.document.model.width == 12


def test_movement_preview_of_a_negative_move_says_why_there_is_no_range(make_window,
                                                                        tmp_path):
    path = tmp_path / "neg.json"
    path.write_text(map_text(raw_move="-3"), encoding="utf-8")
    model, problems = read_map(path)
    assert model is not None and any(p.code == "negative-attribute" for p in problems)
    win = make_window()
    assert win.files.open_map(path, ask_save=False)  # a rule error: the map opens
    win.action_map["preview_reach"].setChecked(True)
    item = win.scene.previews["reach"]
    move(win.view, 0.5, 0.5)  # hover the character: its own Move is used
    assert not item.isVisible()
    assert ("no movement range for 'a' on 0, 0: Move must be at least 0, not -3"
            in win.statusBar().currentMessage())
    click_tile(win.view, 0, 0, modifiers=ALT)  # pin it, then hover elsewhere
    move(win.view, 2.5, 1.5)
    assert not item.isVisible()
    move(win.view, 3.5, 2.5)  # pinned source stays the character
    click_tile(win.view, 0, 0, modifiers=ALT)  # unpin; an empty tile uses the spin box
    move(win.view, 2.5, 2.5)
    assert item.isVisible() and item.steps[2, 2] == 0


def test_screenshot_reach_overlay_of_a_negative_move_is_one_line(qapp, tmp_path, capsys):
    path = tmp_path / "neg.json"
    path.write_text(map_text(raw_move="-3"), encoding="utf-8")
    out = tmp_path / "x.png"
    assert main(["--screenshot", str(out), str(path), "--overlay", "reach:0,0"]) == 1
    assert capsys.readouterr().err.splitlines() == [
        "sodwa-editor: no movement range from 0,0: Move must be at least 0, not -3 (fix the "
        "map, or give reach:X,Y:MOVE)"]
    assert not out.exists()
    assert main(["--screenshot", str(out), str(path), "--overlay", "reach:0,0:2"]) == 0


@pytest.mark.parametrize("spec", [f"reach:0,0:{MAX_MOVE + 1}", "reach:0,0:100000000000000000000",
                                  f"reach:0,0:{HUGE}", f"reach:{HUGE},0:2"])
def test_overlay_move_past_the_bound_is_a_usage_error(qapp, tmp_path, capsys, spec):
    assert parse_overlay(f"reach:0,0:{MAX_MOVE}") == ("reach", (0, 0), MAX_MOVE)
    with pytest.raises(ValueError, match="bad overlay"):
        parse_overlay(spec)
    out = tmp_path / "x.png"
    assert main(["--screenshot", str(out), "sample:tiered-keep", "--overlay", spec]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and len(err) < 200 and not out.exists()


def test_move_and_range_inputs_stop_at_the_bound(make_window):
    m = MapModel(6, 5)
    m.characters["k"] = Character("k", "blue", 1, 1)
    win = make_window(m)
    assert win.layers.move_spin.maximum() == MAX_MOVE
    win.set_tool("select")
    click_tile(win.view, 1, 1)
    assert win.inspector.fields["move"].maximum() == MAX_MOVE
    assert win.inspector.fields["range"].maximum() == MAX_RANGE


def test_document_refuses_move_range_and_attributes_past_the_bound(make_window, tmp_path):
    m = MapModel(6, 5)
    m.characters["k"] = Character("k", "blue", 1, 1, move=-2)  # as a file may hold it
    win = make_window(m)
    doc, messages = win.document, []
    doc.message.connect(messages.append)
    assert not doc.update_character("k", move=MAX_MOVE + 1)
    assert not doc.update_character("k", range=-1)
    assert not doc.update_character("k", attributes={"hp": 10**6})
    assert not doc.place_character(Character("c", "blue", 2, 2, range=MAX_RANGE + 1))
    assert doc.undo_stack.count() == 0
    assert messages[:2] == [f"Move {MAX_MOVE + 1} refused: it is a whole number from 0 to "
                            f"{MAX_MOVE}", "Range -1 refused: it is a whole number from 0 to "
                            f"{MAX_RANGE}"]
    assert len(messages) == 4
    assert doc.update_character("k", name="still editable")  # the old Move -2 is kept
    assert doc.update_character("k", move=MAX_MOVE, attributes={"hp": 999_999})
    assert win.files.save_as(tmp_path / "ok.json")


def test_document_refuses_lone_surrogates_in_every_text(make_window):
    m = MapModel(6, 5)
    m.characters["k"] = Character("k", "blue", 1, 1)
    win = make_window(m)
    doc, messages = win.document, []
    doc.message.connect(messages.append)
    assert not doc.set_properties("map \ud800", "")
    assert not doc.set_properties("map", "text \udfff")
    assert not doc.set_zone_tiles("team \ud800", [(0, 0)], True)
    assert not doc.place_object(MapObject("o", "crate\ud800", 2, 2))
    assert not doc.place_character(Character("c\ud800", "blue", 2, 2))
    assert not doc.update_character("k", name="\udcff")
    assert not doc.update_character("k", team="\udcff")
    assert not doc.update_character("k", attributes={"h\ud800": 1})
    assert doc.undo_stack.count() == 0
    assert len(messages) == 8
    assert messages[0] == ("the map name cannot be stored: the text holds \\ud800, a lone "
                           "UTF-16 surrogate (not a Unicode character)")


def test_saving_a_lone_surrogate_that_got_in_shows_the_save_dialog(make_window, tmp_path):
    m = MapModel(4, 3)
    m.characters["k"] = Character("k", "blue", 1, 1, name="\ud800")  # past the Document
    win = make_window(m)
    path = tmp_path / "m.json"
    assert not win.files.save_as(path)
    assert not path.exists() and list(tmp_path.glob("*.tmp")) == []
    assert "not saved" in win.files.last_dialog.text()
    assert "/characters/0/name: the text holds \\ud800" in win.files.last_dialog.text()
    win.files.last_dialog.close()


def test_edge_edits_skip_edges_outside_the_map_alike(make_window):
    """set_borders and set_transition_edges always dropped edges outside the map;
    set_border_indoor raised IndexError for them."""
    m = MapModel(4, 3)
    m.elevation[:, 2:] = 1
    win = make_window(m)
    doc = win.document
    wall = doc.model.registry.id_of("obstructing")
    outside = [Edge(3, 0, "E"), Edge(0, 2, "S"), Edge(9, 9, "E"), Edge(-1, 0, "S")]
    inner = Edge(1, 1, "E")
    assert doc.set_borders([*outside, inner], wall)
    assert doc.set_border_indoor([*outside, inner], True)
    assert doc.model.indoor_e[1, 1] == 1
    assert not doc.set_border_indoor(outside, False)  # nothing left to change
    assert doc.set_transition_edges([*outside, inner], True)
    assert doc.undo_stack.count() == 3
