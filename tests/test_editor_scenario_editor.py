"""Tools > Scenario Editor (issue 28 section 4) driven with real events: a scenario
made on the open map (a team file in a formation entering a start zone against the
map's characters is refused, two team files are not), checked live, saved as a file
and into a pack, opened again, played by the playtest and by ``sodwa battle``."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QComboBox, QFileDialog, QPushButton

from sodwa_editor.battle.jsonfiles import read_json
from sodwa_editor.cli import main
from sodwa_editor.editor.playtest.setup_dialog import PlaytestChoice, build_setup
from sodwa_editor.io import read_map
from sodwa_editor.io.packs import build_pack, save_pack

Left = Qt.MouseButton.LeftButton
MAPS = Path(__file__).resolve().parents[1] / "maps"


def team_file(tmp_path: Path, name: str, *archetypes: str) -> Path:
    ids = [f"m{i}" for i in range(len(archetypes))]
    doc = {"format": "sodwa-team", "format_version": 1, "name": name,
           "members": [{"id": i, "archetype": a} for i, a in zip(ids, archetypes, strict=True)],
           "formations": [{"name": "line", "positions": {i: [k, 0] for k, i in enumerate(ids)}},
                          {"name": "column", "positions": {i: [0, k]
                                                           for k, i in enumerate(ids)}}]}
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


@pytest.fixture
def skirmish(tmp_path, make_window):
    path = tmp_path / "skirmish.json"
    shutil.copy(MAPS / "outdoor-skirmish.json", path)
    win = make_window(read_map(path)[0], path)
    dialog = win.open_scenario_editor()
    yield win, dialog
    dialog.close()


def choose(combo: QComboBox, data: object) -> None:
    """Pick an entry with the keyboard, as a user does."""
    combo.setFocus()
    target = combo.findData(data)
    assert target >= 0, data
    while combo.currentIndex() != target:
        QTest.keyClick(combo, Qt.Key.Key_Down if combo.currentIndex() < target
                       else Qt.Key.Key_Up)


def click(dialog, name: str) -> None:
    button = dialog.findChild(QPushButton, name)
    assert button is not None, name
    QTest.mouseClick(button, Left)


def make_two_teams(dialog, tmp_path, monkeypatch) -> None:
    knights = team_file(tmp_path, "Knights", "Knight", "Knight")
    archers = team_file(tmp_path, "Archers", "Archer", "Archer")
    for box, path in zip(dialog.sides, (knights, archers), strict=True):
        monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, p=path, **k: (str(p), ""))
        QTest.mouseClick(box.pick, Left)
    choose(dialog.sides[0].formation, "column")
    zone = dialog.sides[1].zone
    zone.setFocus()
    while zone.currentText() != "south":
        QTest.keyClick(zone, Qt.Key.Key_Down)


def test_the_tools_menu_opens_it_on_the_open_map_with_the_maps_characters(skirmish):
    win, dialog = skirmish
    assert win.action_map["scenario_editor"] in next(
        a.menu() for a in win.menuBar().actions() if a.text() == "&Tools").actions()
    assert "Outdoor skirmish" in dialog.map_label.text()
    doc = dialog.scenario()
    assert [s.get("map_team") for s in doc["sides"]] == ["north", "south"]
    assert dialog.problem.text().startswith("ready")


def test_a_team_side_against_the_maps_characters_is_refused_in_one_line(
        skirmish, tmp_path, monkeypatch):
    _win, dialog = skirmish
    path = team_file(tmp_path, "Knights", "Knight", "Knight")
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(path), ""))
    QTest.mouseClick(dialog.sides[0].pick, Left)
    assert "both sides are teams or both are the map's characters" in dialog.problem.text()
    assert not dialog.play()


def test_two_teams_with_a_formation_are_checked_saved_reopened_and_played(
        skirmish, tmp_path, monkeypatch):
    win, dialog = skirmish
    make_two_teams(dialog, tmp_path, monkeypatch)
    dialog.name.setFocus()
    dialog.name.selectAll()
    QTest.keyClicks(dialog.name, "Knights vs archers")
    choose(dialog.sides[1].controller, "ai")
    choose(dialog.sides[1].ai, "random")
    assert dialog.problem.text().startswith("ready"), dialog.problem.text()
    doc = dialog.scenario()
    assert doc["sides"][0]["formation"] == "column" and doc["sides"][0]["zone"] == "north"
    assert doc["sides"][1]["zone"] == "south" and doc["sides"][1]["ai"] == "random"
    # the cap: 240 points of knights over a 200 cap is refused, live
    dialog.cap.setFocus()
    dialog.cap.selectAll()
    QTest.keyClicks(dialog.cap, "200")
    QTest.keyClick(dialog.cap, Qt.Key.Key_Return)
    assert "costs 240 points, over the 200-point cap" in dialog.problem.text()
    assert dialog.sides[0].points.text() == "240 / 200 cap"
    dialog.cap.selectAll()
    QTest.keyClicks(dialog.cap, "300")
    QTest.keyClick(dialog.cap, Qt.Key.Key_Return)
    # saved as a file that names its map relative to itself, and played by the CLI
    out = tmp_path / "kva"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(out), ""))
    click(dialog, "scenario_save_as")
    saved = read_json(tmp_path / "kva.json")
    assert saved["map"] == "skirmish.json" and saved["point_cap"] == 300
    assert main(["battle", str(tmp_path / "kva.json"), "--seed", "1"]) == 0
    # opened again in the same dialog after a change: the scenario comes back
    dialog.name.setText("changed")
    monkeypatch.setattr(QFileDialog, "getOpenFileName",
                        lambda *a, **k: (str(tmp_path / "kva.json"), ""))
    click(dialog, "scenario_open")
    assert dialog.scenario() == {**saved, "map": "Outdoor skirmish"}
    # played: the playtest starts with the scenario's teams, person vs random AI
    click(dialog, "scenario_play")
    assert win.playtest.active
    session = win.playtest.session
    assert session is not None
    ids = sorted(f.id for f in session.state.fighters)
    assert ids == ["north.m0", "north.m1", "south.m0", "south.m1"]
    assert win.playtest.choice.controllers == ("human", "random")
    win.playtest.stop()


def test_saved_into_a_pack_the_scenario_plays_by_name(skirmish, tmp_path, monkeypatch, capsys):
    _win, dialog = skirmish
    pack, problems = build_pack([tmp_path / "skirmish.json"], name="p", version="1")
    assert pack is not None, problems
    pack_path = tmp_path / "pack.json"
    save_pack(pack, pack_path)
    dialog.name.setText("As placed")
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(pack_path), ""))
    click(dialog, "scenario_save_into_pack")
    assert "added 'As placed'" in dialog.problem.text()
    assert read_json(pack_path)["scenarios"][0]["name"] == "As placed"
    click(dialog, "scenario_save_into_pack")
    assert "replaced 'As placed'" in dialog.problem.text()
    assert len(read_json(pack_path)["scenarios"]) == 1
    capsys.readouterr()
    assert main(["battle", f"{pack_path}#As placed", "--seed", "2"]) == 0


def test_a_scenario_file_needs_the_map_saved_first(make_window, tmp_path):
    win = make_window(read_map(MAPS / "outdoor-skirmish.json")[0])  # never saved
    dialog = win.open_scenario_editor()
    assert not dialog.save_file(tmp_path / "x.json")
    assert dialog.problem.text() == "save the map first: a scenario file names its map's file"
    assert not (tmp_path / "x.json").exists()
    dialog.close()


def test_the_playtest_plays_a_scenario_choice_with_its_rules_and_cap():
    model = read_map(MAPS / "outdoor-skirmish.json")[0]
    doc = {"format": "sodwa-scenario", "format_version": 1, "name": "s",
           "map": "Outdoor skirmish",
           "rules": {"format": "sodwa-rules", "format_version": 1,
                     "clock": {"turn_cost": 400}},
           "sides": [{"map_team": "north", "controller": "human"},
                     {"map_team": "south", "controller": "ai", "ai": "random"}]}
    setup = build_setup(model, PlaytestChoice(("human", "random"), scenario=doc, seed=3))
    assert setup.rules.clock.turn_cost == 400 and setup.ai == ("pass", "random")



def test_export_map_pack_carries_scenario_files(skirmish, tmp_path, monkeypatch):
    from sodwa_editor.editor.dialogs import ExportPackDialog

    win, dialog = skirmish
    dialog.name.setText("As placed")
    assert dialog.save_file(tmp_path / "placed.json")
    box = ExportPackDialog([tmp_path / "skirmish.json"])
    monkeypatch.setattr(QFileDialog, "getOpenFileNames",
                        lambda *a, **k: ([str(tmp_path / "placed.json")], ""))
    QTest.mouseClick(next(b for b in box.findChildren(QPushButton)
                          if b.text() == "Add Scenarios..."), Left)
    values = box.values()
    assert values["scenarios"] == [tmp_path / "placed.json"]
    values.update(name="demo", version="1.0.0")
    box.deleteLater()
    assert win.files.export_pack(tmp_path / "pack.json", values)
    pack = read_json(tmp_path / "pack.json")
    assert [s["name"] for s in pack["scenarios"]] == ["As placed"]
    assert pack["scenarios"][0]["map"] == "Outdoor skirmish"
