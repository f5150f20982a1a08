"""The roster in use (issue 28 section 1: "the map pack's, else a roster file, else the
default"), driven with real events in the main window: a change saved in the Roster
Editor is what F5 and the Balance Run play, what the Character tool lists and the team
editor costs; a map pack's scenario plays with its pack's roster in the editor as
``sodwa battle PACK.json#SCENARIO`` plays it."""

from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtCore import QSettings, Qt, QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QFileDialog
from test_editor_balance_dialog import InProcess
from test_editor_roster_editor import button, row_of, type_cell
from test_scenarios import knights_vs_archers

from sodwa_editor.battle.jsonfiles import BattleInputError, read_json
from sodwa_editor.battle.sheet import DEFAULT_ROSTER_PATH
from sodwa_editor.editor.playtest.setup_dialog import SetupDialog
from sodwa_editor.editor.roster import scenario_roster, shipped_roster, used_roster
from sodwa_editor.editor.roster_in_use import SOURCE_KEY, RosterInUse
from sodwa_editor.editor.testing import click_tile
from sodwa_editor.io import read_map
from sodwa_editor.io.packs import build_pack, save_pack

MAPS = Path(__file__).resolve().parents[1] / "maps"
SKIRMISH = MAPS / "outdoor-skirmish.json"
Left = Qt.MouseButton.LeftButton


def ai_scenario() -> dict:
    """Knights against archers, both sides AI (so the CLI and the editor play alike)."""
    doc = knights_vs_archers()
    for side in doc["sides"]:
        side["controller"] = "ai"
        side["ai"] = "greedy"
    return doc


def pack_with_scenario(tmp_path: Path, scenario: dict | None = None) -> Path:
    pack, problems = build_pack([SKIRMISH], name="p", version="1")
    assert pack is not None, problems
    pack["scenarios"] = [scenario or knights_vs_archers()]
    path = tmp_path / "pack.json"
    save_pack(pack, path)
    return path


def skirmish_window(make_window):
    return make_window(read_map(SKIRMISH)[0], SKIRMISH)


def save_knight_health_into_pack(win, pack: Path, monkeypatch, health: int = 30):
    """Roster Editor: the Knight's Health typed, then Save Into Pack (the pack chosen)."""
    dlg = win.open_roster_editor()
    type_cell(dlg, row_of(dlg, "Knight"), "attributes.health", str(health))
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(pack), ""))
    QTest.mouseClick(button(dlg, "save_pack"), Left)
    assert dlg.editing.source.kind == "pack", dlg.message_label.text()
    return dlg


def back_to_window(win, qtbot, dialog) -> None:
    """The dialog closed, the window active again with the map view focused."""
    dialog.close()
    win.activateWindow()
    qtbot.waitUntil(win.isActiveWindow, timeout=2000)
    win.view.setFocus()


def knight_healths(state) -> list[int]:
    return [f.sheet.health for f in state.fighters if f.sheet.archetype == "Knight"]


# ------------------------------------------------------------------ Qt-free model
def test_the_roster_of_a_pack_a_file_and_the_shipped_one(tmp_path):
    shipped = shipped_roster()
    assert (shipped.kind, shipped.label) == ("default", "shipped")
    pack = pack_with_scenario(tmp_path)
    assert used_roster(pack).kind == "default"  # a pack without a roster: the shipped one
    doc = read_json(pack)
    roster_doc = read_json(DEFAULT_ROSTER_PATH)
    roster_doc["characters"][0]["attributes"]["health"] = 31
    doc["roster"] = roster_doc
    pack.write_text(json.dumps(doc), encoding="utf-8")
    used = used_roster(pack)
    assert (used.kind, used.label) == ("pack", "pack.json: /roster")
    assert used.roster.find("Knight").values["health"] == 31
    # a scenario file whose map is PACK.json#MAP plays with that pack's roster (as the CLI)
    file = tmp_path / "ford.json"
    file.write_text(json.dumps({**knights_vs_archers(), "map": "pack.json#Outdoor skirmish"}),
                    encoding="utf-8")
    assert scenario_roster(file, shipped).kind == "pack"
    assert scenario_roster(pack, shipped).label == "pack.json: /roster"
    plain = tmp_path / "plain.json"
    plain.write_text(json.dumps({**knights_vs_archers(), "map": str(SKIRMISH)}),
                     encoding="utf-8")
    assert scenario_roster(plain, shipped) is shipped
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "sodwa-roster", "format_version": 3, "characters": []}',
                      encoding="utf-8")
    try:
        used_roster(broken)
    except BattleInputError as exc:
        assert str(exc).startswith(f"{broken}: ")
    else:
        raise AssertionError("a roster without characters was taken")


def test_the_remembered_roster_is_in_use_and_a_broken_one_says_why(qtbot, tmp_path):
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    assert RosterInUse(settings).label == "Roster: shipped"
    roster = tmp_path / "mine.json"
    doc = read_json(DEFAULT_ROSTER_PATH)
    doc["characters"][0]["name"] = "Paladin"
    roster.write_text(json.dumps(doc), encoding="utf-8")
    settings.setValue(SOURCE_KEY, str(roster))
    in_use = RosterInUse(settings)
    assert in_use.label == "Roster: mine.json" and in_use.note == ""
    assert in_use.current.roster.names()[0] == "Paladin"
    roster.write_text("{", encoding="utf-8")
    broken = RosterInUse(settings)
    assert broken.current.kind == "default" and str(roster) in broken.note
    seen = []
    broken.changed.connect(lambda: seen.append(broken.label))
    assert broken.use(roster) is not None and seen == []  # refused: nothing changed


# ------------------------------------------------------------------ F5
def test_a_roster_change_saved_into_the_pack_is_what_f5_plays(make_window, tmp_path,
                                                              monkeypatch, qtbot):
    pack = pack_with_scenario(tmp_path)
    win = skirmish_window(make_window)
    back_to_window(win, qtbot, save_knight_health_into_pack(win, pack, monkeypatch))
    assert win.context.roster_in_use.label == "Roster: pack.json: /roster"
    seen: dict = {}

    def fill() -> None:
        dlg = QApplication.activeModalWidget()
        assert isinstance(dlg, SetupDialog)
        seen["before"] = dlg.roster_label.text()
        pick = next(b for b in dlg.findChildren(type(dlg.buttons.buttons()[0]))
                    if b.objectName() == "playtest_pick_scenario")
        QTest.mouseClick(pick, Left)  # the pack (monkeypatched file dialog): its scenario
        seen["scenario"] = dlg.scenario_label.text()
        seen["roster"] = dlg.roster_label.text()
        seen["problem"] = dlg.problem.text()
        QTest.mouseClick(dlg.buttons.buttons()[0], Left)

    QTimer.singleShot(50, fill)
    QTest.keyClick(win.view, Qt.Key.Key_F5)
    assert seen["scenario"].startswith("Knights vs archers"), seen
    assert seen["roster"] == "Roster: pack.json: /roster", seen
    assert win.playtest.active, seen["problem"]
    assert knight_healths(win.playtest.session.state) == [30, 30]
    assert win.playtest.session.setup.docs["roster"]["characters"][0]["attributes"][
        "health"] == 30
    win.playtest.stop()
    # saved into the pack again: F5 offers the same scenario, with the pack as it is now
    dlg = win.open_roster_editor()
    type_cell(dlg, row_of(dlg, "Knight"), "attributes.health", "35")
    QTest.mouseClick(button(dlg, "save"), Left)
    back_to_window(win, qtbot, dlg)
    again: dict = {}

    def start() -> None:
        setup = QApplication.activeModalWidget()
        assert isinstance(setup, SetupDialog)
        again["scenario"] = setup.scenario_label.text()
        QTest.mouseClick(setup.buttons.buttons()[0], Left)

    QTimer.singleShot(50, start)
    QTest.keyClick(win.view, Qt.Key.Key_F5)
    assert again["scenario"].startswith("Knights vs archers")
    assert knight_healths(win.playtest.session.state) == [35, 35]
    win.playtest.stop()


def test_a_packs_scenario_plays_with_the_packs_roster_not_the_one_in_use(make_window,
                                                                         tmp_path, qtbot):
    """The roster in use is a file with Health 40 Knights and Health 33 Druids; the
    pack's own says 30: the pack's scenario plays with the pack's, the map's placed
    characters with the file's."""
    pack = pack_with_scenario(tmp_path)
    doc = read_json(pack)
    roster_doc = read_json(DEFAULT_ROSTER_PATH)
    roster_doc["characters"][0]["attributes"]["health"] = 30
    doc["roster"] = roster_doc
    pack.write_text(json.dumps(doc), encoding="utf-8")
    mine = tmp_path / "mine.json"
    roster_doc["characters"][0]["attributes"]["health"] = 40
    druid = next(c for c in roster_doc["characters"] if c["name"] == "Druid")
    druid["attributes"]["health"] = 33
    mine.write_text(json.dumps(roster_doc), encoding="utf-8")
    win = skirmish_window(make_window)
    assert win.context.roster_in_use.use(mine) is None
    dlg = SetupDialog(win.document.model.copy(), win,
                      roster_in_use=win.context.roster_in_use)
    qtbot.addWidget(dlg)
    assert dlg.roster_label.text() == "Roster: mine.json"
    assert dlg.choice().roster.label == "mine.json"
    placed = dlg.setup.state(1)
    assert [f.sheet.health for f in placed.fighters if f.sheet.archetype == "Druid"] == [33]
    assert dlg.pick_scenario(pack)
    assert dlg.roster_label.text() == "Roster: pack.json: /roster"
    assert knight_healths(dlg.setup.state(1)) == [30, 30]
    QTest.mouseClick(dlg.findChild(type(dlg.buttons.buttons()[0]), "playtest_no_scenario"),
                     Left)
    assert dlg.roster_label.text() == "Roster: mine.json"


# ------------------------------------------------------------------ Balance Run
class Recorded(InProcess):
    runs: list = []

    def run(self) -> None:
        Recorded.runs.append(self.setup)
        super().run()


def test_the_balance_run_plays_the_pack_roster_and_counts_its_costs(make_window, tmp_path,
                                                                    monkeypatch, qtbot):
    pack = pack_with_scenario(tmp_path)
    win = skirmish_window(make_window)
    dlg = save_knight_health_into_pack(win, pack, monkeypatch)
    type_cell(dlg, row_of(dlg, "Knight"), "attributes.cost", "140")
    QTest.mouseClick(button(dlg, "save"), Left)  # Save: into the pack it came from
    balance = win.open_balance_dialog()
    balance.runner = Recorded
    form = balance.form
    form.scenario.setFocus()
    QTest.keyClicks(form.scenario, f"{pack}#Knights vs archers")
    assert form.roster_label.text() == "pack.json: /roster"
    assert [p.text() for p in form.team_points] == ["280 / 300 points", "200 / 300 points"]
    balance.battles.setValue(2)
    Recorded.runs.clear()
    QTest.mouseClick(balance.run_button, Left)
    qtbot.waitUntil(lambda: not balance.is_running(), timeout=120_000)
    assert balance.report is not None and balance.report["battles"] == 2
    (setup,) = Recorded.runs
    assert knight_healths(setup.state(0)) == [30, 30]
    balance.close()


# ------------------------------------------------------------------ the Character tool
def test_the_character_tool_lists_an_archetype_added_and_saved(make_window, tmp_path,
                                                               monkeypatch, qtbot):
    win = make_window()  # a blank map: every tile takes a character
    options = win.tool_options
    assert options.roster_label.text().strip() == "Roster: shipped"
    dlg = win.open_roster_editor()
    QTest.mouseClick(button(dlg, "add"), Left)
    added = dlg.editing.name_of(dlg.editing.row_count() - 1)
    assert options.roster.findText(f"{added} (", Qt.MatchFlag.MatchStartsWith) < 0  # unsaved
    out = tmp_path / "mine.json"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(out), ""))
    QTest.mouseClick(button(dlg, "save_as"), Left)
    assert options.roster_label.text().strip() == "Roster: mine.json"
    index = options.roster.findText(f"{added} (", Qt.MatchFlag.MatchStartsWith)
    assert index >= 0
    back_to_window(win, qtbot, dlg)
    QTest.keyClick(win.view, Qt.Key.Key_C)  # the Character tool
    options.roster.setCurrentIndex(index)
    model = win.document.model
    tile = (3, 3)
    before = set(model.characters)
    click_tile(win.view, *tile)
    new = [c for cid, c in win.document.model.characters.items() if cid not in before]
    assert [c.name for c in new] == [added]
    # the eyedropper picks it back (by name, in the roster in use)
    options.roster.setCurrentIndex(0)
    click_tile(win.view, *tile, Qt.MouseButton.RightButton)
    assert win.state.roster_entry["name"] == added


# ------------------------------------------------------------------ the team editor
def test_team_editor_points_follow_the_packs_costs(make_window, tmp_path, monkeypatch, qtbot):
    pack = pack_with_scenario(tmp_path)
    win = skirmish_window(make_window)
    editor = win.open_team_editor()
    members = editor.members
    members.archetype.setCurrentIndex(members.archetype.findData("Knight"))
    QTest.mouseClick(members.add, Left)
    QTest.mouseClick(members.add, Left)
    assert editor.team.points() == 240 and "240" in members.points.text()
    assert editor.roster_label.text() == "Roster: shipped"
    dlg = win.open_roster_editor()
    type_cell(dlg, row_of(dlg, "Knight"), "attributes.cost", "150")
    assert editor.team.points() == 240  # unsaved: not in use
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(pack), ""))
    QTest.mouseClick(button(dlg, "save_pack"), Left)
    assert editor.roster_label.text() == "Roster: pack.json: /roster"
    assert editor.team.points() == 300 and "300" in members.points.text()
    assert members.table.item(0, 3).text() == "150"


# ------------------------------------------------------------------ editor = CLI
def test_a_pack_scenario_starts_alike_in_the_editor_and_sodwa_battle(make_window, tmp_path,
                                                                     monkeypatch, qtbot,
                                                                     capsys):
    from sodwa_editor.cli import main

    pack = pack_with_scenario(tmp_path, ai_scenario())
    win = skirmish_window(make_window)
    save_knight_health_into_pack(win, pack, monkeypatch, health=25)
    dlg = SetupDialog(win.document.model.copy(), win, roster_in_use=win.context.roster_in_use)
    qtbot.addWidget(dlg)
    assert dlg.pick_scenario(pack, "Knights vs archers")
    dlg.seed.setValue(7)
    assert win.playtest.start(dlg.choice()), dlg.problem.text()
    session = win.playtest.session
    session.run_to_end()
    editor_events = [e.to_dict() for e in session.events]
    win.playtest.stop()
    assert main(["battle", f"{pack}#Knights vs archers", "--seed", "7", "--json"]) == 0
    log = json.loads(capsys.readouterr().out)
    knights = [c for c in log["characters"] if c["sheet"]["archetype"] == "Knight"]
    assert [c["sheet"]["health"] for c in knights] == [25, 25]
    assert editor_events[:40] == log["events"][:40]
    assert len(editor_events) == len(log["events"])


# ------------------------------------------------------------------ the Scenario Editor
def test_the_scenario_editor_plays_a_packs_scenario_with_its_roster(make_window, tmp_path,
                                                                    monkeypatch, qtbot):
    from PySide6.QtWidgets import QPushButton

    pack = pack_with_scenario(tmp_path)
    win = skirmish_window(make_window)
    back_to_window(win, qtbot, save_knight_health_into_pack(win, pack, monkeypatch,
                                                            health=27))
    mine = tmp_path / "mine.json"
    mine.write_text(json.dumps(read_json(DEFAULT_ROSTER_PATH)), encoding="utf-8")
    assert win.context.roster_in_use.use(mine) is None  # another roster in use now
    dialog = win.open_scenario_editor()
    assert dialog.roster_label.text() == "mine.json"
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(pack), ""))
    QTest.mouseClick(dialog.findChild(QPushButton, "scenario_open"), Left)
    assert dialog.roster_label.text() == "pack.json: /roster"
    QTest.mouseClick(dialog.findChild(QPushButton, "scenario_play"), Left)
    assert win.playtest.active, dialog.problem.text()
    assert knight_healths(win.playtest.session.state) == [27, 27]
    win.playtest.stop()
    dialog.close()


# ------------------------------------------------------------------ sizes at the grid scale
def test_size_lists_show_the_battle_footprint_at_the_rules_grid_scale(make_window,
                                                                      monkeypatch, qtbot):
    """Issue 26: a size's footprint comes from the size table and the rules key
    ``sizes.grid_scale_m`` (docs/rules.md S3): at 2 m per tile a Huge creature is 2x2 in
    battle, which the Character tool's and the Inspector's size lists say."""
    import dataclasses

    from sodwa_editor.battle.rules import default_rules
    from sodwa_editor.editor.docks import creature_size
    from sodwa_editor.editor.docks.creature_size import CreatureSizeEditor

    win = make_window()
    huge = win.tool_options.creature_size.itemText(
        win.tool_options.creature_size.findData("huge"))
    assert huge == "Huge 4x4"  # the shipped rules: 1 m per tile
    rules = default_rules()
    two = dataclasses.replace(rules, sizes=dataclasses.replace(rules.sizes, grid_scale_m=2))
    monkeypatch.setattr(creature_size, "default_rules", lambda: two)
    win2 = make_window()
    box = win2.tool_options.creature_size
    assert box.itemText(box.findData("huge")) == "Huge 4x4 (2x2 in battle at 2 m per tile)"
    assert box.itemText(box.findData("large")) == "Large 2x2 (1x1 in battle at 2 m per tile)"
    assert box.itemText(box.findData("medium")) == "Medium 1x1"
    QTest.keyClick(win2.view, Qt.Key.Key_C)
    click_tile(win2.view, 3, 3)
    (cid,) = win2.document.model.characters
    row = CreatureSizeEditor(win2.document, cid)
    qtbot.addWidget(row)
    assert row.size_box.itemText(row.size_box.findData("huge")).endswith(
        "(2x2 in battle at 2 m per tile)")
