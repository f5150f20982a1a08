"""The Balance Run plays a scenario (issue 28 section 4): a scenario file or a map
pack's scenario on the open map, typed into the dialog, replaces the team files;
its sides' points show against its cap; a pack without one on this map is one line."""

from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtCore import QSettings, Qt
from PySide6.QtTest import QTest
from test_editor_balance_dialog import InProcess, make_dialog
from test_scenarios import knights_vs_archers

from sodwa_editor.editor.document import Document
from sodwa_editor.io import read_map
from sodwa_editor.io.packs import build_pack, save_pack

MAPS = Path(__file__).resolve().parents[1] / "maps"
SKIRMISH = MAPS / "outdoor-skirmish.json"


def pack_with_scenario(tmp_path: Path) -> Path:
    pack, problems = build_pack([SKIRMISH], name="p", version="1")
    assert pack is not None, problems
    pack["scenarios"] = [knights_vs_archers()]
    path = tmp_path / "pack.json"
    save_pack(pack, path)
    return path


def type_scenario(dialog, text: str) -> None:
    edit = dialog.form.scenario
    edit.setFocus()
    edit.selectAll()
    QTest.keyClicks(edit, text)


def test_a_packs_scenario_replaces_the_team_files_and_runs(qtbot, tmp_path):
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    doc, dialog = make_dialog(qtbot, read_map(SKIRMISH)[0], settings=settings,
                              runner=InProcess)
    type_scenario(dialog, f"{pack_with_scenario(tmp_path)}#Knights vs archers")
    form = dialog.form
    assert not form.problem_box.isVisible(), form.problem.text()
    assert [p.text() for p in form.team_points] == ["240 / 300 points", "200 / 300 points"]
    assert not any(e.isEnabled() for e in form.team_files)
    setup = dialog.make_setup()
    assert setup.rules.clock.turn_cost == 400  # the scenario's variant
    assert [t.name for _z, t, _f in setup.teams] == ["Knights", "Archers"]
    assert list(setup.ai) == [box.currentText() for box in form.ai]  # the dialog's AIs
    dialog.battles.setValue(4)
    QTest.mouseClick(dialog.run_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not dialog.is_running(), timeout=120_000)
    assert dialog.report is not None and dialog.report["battles"] == 4


def test_a_pack_without_that_scenario_is_one_line(qtbot, tmp_path):
    _doc, dialog = make_dialog(qtbot, read_map(SKIRMISH)[0])
    type_scenario(dialog, f"{pack_with_scenario(tmp_path)}#Nope")
    text = dialog.form.problem.text()
    assert "no scenario 'Nope' on the map 'Outdoor skirmish'" in text
    assert "(it has: 'Knights vs archers')" in text and "\n" not in text


def test_a_scenario_file_plays_on_the_open_map(qtbot, tmp_path):
    sc = knights_vs_archers()
    sc["map"] = "elsewhere.json"  # a scenario file's map: the open map is played
    path = tmp_path / "kva.json"
    path.write_text(json.dumps(sc), encoding="utf-8")
    doc = Document(read_map(SKIRMISH)[0])
    _doc, dialog = make_dialog(qtbot, doc.model)
    type_scenario(dialog, str(path))
    assert not dialog.form.problem_box.isVisible(), dialog.form.problem.text()
    assert dialog.make_setup().rules.battle.point_cap == 300
