"""Tools > Balance Run (issue 13 section 3) driven with real events: a small run shows
the table and the plots and equals ``run_batch`` and ``sodwa simulate`` for the same
inputs; Cancel stops a run promptly with the window responsive and no worker process
left; the heat map overlay shows the run's per-tile counts and is cleared."""

from __future__ import annotations

import json
import multiprocessing
import os

import numpy as np
import pytest
from PySide6.QtCore import QObject, QPoint, QPointF, Qt

from sodwa_editor.battle.batch import run_batch
from sodwa_editor.battle.report import summarize, tile_grid
from sodwa_editor.battle.setup import BattleSetup
from sodwa_editor.cli import main
from sodwa_editor.editor.balance.heatmap import tile_pixel_colour
from sodwa_editor.editor.style import TILE
from sodwa_editor.editor.testing import click_tile
from sodwa_editor.engine.generate import make_mixed_map
from sodwa_editor.engine.model import Character, MapModel
from sodwa_editor.io.files import save_map

Left = Qt.MouseButton.LeftButton


def tiny_map() -> MapModel:
    """A 6 x 3 field, one character against one: a battle takes a fraction of a second."""
    m = MapModel(6, 3)
    m.characters["a"] = Character("a", "blue", 0, 1)
    m.characters["b"] = Character("b", "red", 5, 1)
    return m


def open_dialog(win, qtbot):
    menu = win.tools_menu
    act = win.action_map["balance_run"]
    assert act in menu.actions()
    act.trigger()
    dialog = win.balance_dialog
    qtbot.waitExposed(dialog)
    return dialog


def type_value(qtbot, spin, value: int) -> None:
    spin.setFocus()
    spin.selectAll()
    qtbot.keyClicks(spin, str(value))
    qtbot.keyClick(spin, Qt.Key.Key_Tab)
    assert spin.value() == value


def set_inputs(qtbot, dialog, *, battles: int, seed: int, workers: int = 1,
               ai=("random", "random"), swap: bool = True) -> None:
    type_value(qtbot, dialog.battles, battles)
    type_value(qtbot, dialog.seed, seed)
    type_value(qtbot, dialog.workers, workers)
    for box, name in zip(dialog.ai, ai, strict=True):
        box.setCurrentText(name)
    if dialog.swap.isChecked() != swap:
        qtbot.mouseClick(dialog.swap, Left, pos=QPoint(8, dialog.swap.height() // 2))
    assert dialog.swap.isChecked() == swap


def run_small(win, qtbot, battles: int = 6, seed: int = 3):
    dialog = open_dialog(win, qtbot)
    set_inputs(qtbot, dialog, battles=battles, seed=seed)
    qtbot.mouseClick(dialog.run_button, Left)
    qtbot.waitUntil(lambda: dialog.report is not None and not dialog.is_running(),
                    timeout=120_000)
    return dialog


def test_a_small_run_shows_the_table_and_plots_and_equals_batch_and_the_cli(
        make_window, qtbot, tmp_path, capsys):
    win = make_window(tiny_map())
    # an unsaved edit: the run uses the map as it stands in the editor
    assert win.document.place_character(Character("c", "red", 5, 0))
    undo_index, modified = win.document.undo_stack.index(), win.document.modified
    dialog = run_small(win, qtbot)
    report = dialog.report
    assert {c["id"] for c in report["characters"]} == {"a", "b", "c"}
    assert win.document.undo_stack.index() == undo_index
    assert win.document.modified == modified and win.document.path is None
    # the table and one tab per plot of the HTML report
    assert dialog.progress.value() == dialog.progress.maximum() == 6
    texts = [dialog.outcomes.item(r, 0).text() for r in range(dialog.outcomes.rowCount())]
    assert "blue (team 0, 100 pts) wins" in texts and "draws" in texts
    assert dialog.characters.rowCount() == 3
    assert [dialog.tabs.tabText(i) for i in range(dialog.tabs.count())] == \
        ["Table", "Abilities", "Outcomes", "Length", "Characters", "Luck && karma", "Tiles"]
    for i, canvas in enumerate(dialog.canvases, start=2):
        dialog.tabs.setCurrentIndex(i)
        qtbot.waitExposed(canvas)
        assert canvas.figure.axes
        image = canvas.grab().toImage()
        colours = {image.pixel(x, y) for x in range(0, image.width(), 4)
                   for y in range(0, image.height(), 4)}
        assert image.width() > 100 and len(colours) > 5  # drawn: axes, bars, text
    # the same engine call as sodwa simulate: equal records and report
    setup = BattleSetup.from_map(win.document.model.copy(), ai=("random", "random"))
    records = run_batch(setup, 6, seed=3, swap_sides=True, workers=1)
    assert dialog.records == records
    assert report == summarize(setup, records, seed=3, swap_sides=True)
    path = tmp_path / "edited.json"
    save_map(win.document.model, path)  # a copy on disk for the CLI; the document untouched

    assert main(["simulate", str(path), "--battles", "6", "--seed", "3", "--swap-sides",
                 "--ai", "random,random", "--json"]) == 0
    cli = json.loads(capsys.readouterr().out)["maps"][0]
    assert {k: v for k, v in cli.items() if k not in ("map", "map_hash", "file_hash")} == report
    # the HTML export is the CLI's report, byte for byte but for the map's name and
    # the file it came from: the dialog played a map never saved
    out = tmp_path / "report.html"
    assert dialog.export_html(out)
    page = out.read_text()
    assert page.count("src='data:image/png;base64,") == 5
    from sodwa_editor.battle.report_html import render

    assert page == render([{**cli, "map": win.document.display_name(), "file_hash": None}])
    assert "includes unsaved edits (the map was never saved)" in page


def test_cancel_stops_the_run_promptly_with_the_window_responsive(make_window, qtbot):
    win = make_window(make_mixed_map(12, seed=4))  # seconds per battle
    dialog = open_dialog(win, qtbot)
    set_inputs(qtbot, dialog, battles=400, seed=1, workers=2)
    qtbot.mouseClick(dialog.run_button, Left)
    assert dialog.is_running() and not dialog.run_button.isEnabled()
    workers: set[int] = set()

    def pool_running() -> bool:
        workers.update(p.pid for p in multiprocessing.active_children())
        return len(workers) >= 2

    qtbot.waitUntil(pool_running, timeout=30_000)
    # the window repaints and takes input while the battles run
    painted = PaintCounter(win.view.viewport())
    win.view.viewport().update()
    qtbot.waitUntil(lambda: painted.count > 0, timeout=5_000)
    win.set_tool("brush")
    before = win.document.model.terrain.copy()
    click_tile(win.view, 6, 6)
    assert not np.array_equal(win.document.model.terrain, before)
    assert dialog.is_running() and dialog.progress.value() < 400
    qtbot.mouseClick(dialog.cancel_button, Left)
    qtbot.waitUntil(lambda: not dialog.is_running(), timeout=5_000)
    done = dialog.progress.value()
    assert dialog.status.text() == f"Cancelled after {done} of 400 battles."
    assert dialog.report is None and dialog.results.note.text() == (
        f"Cancelled after {done} of 400 battles: no results yet")
    assert dialog.run_button.isEnabled() and not dialog.cancel_button.isEnabled()
    assert not multiprocessing.active_children()
    for pid in workers:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)


class PaintCounter(QObject):
    def __init__(self, widget) -> None:
        super().__init__(widget)
        self.count = 0
        widget.installEventFilter(self)

    def eventFilter(self, obj, event) -> bool:  # noqa: N802
        from PySide6.QtCore import QEvent

        if event.type() == QEvent.Type.Paint:
            self.count += 1
        return False


def tile_colour(win, x: int, y: int):
    win.scene.flush()
    vp = win.view.viewport()
    image = vp.grab().toImage()
    p = win.view.mapFromScene(QPointF((x + 0.5) * TILE, (y + 0.3) * TILE))  # above the count
    ratio = image.devicePixelRatio()
    return image.pixelColor(int(p.x() * ratio), int(p.y() * ratio))


def test_heat_map_overlay_shows_the_counts_and_is_cleared(make_window, qtbot):
    win = make_window(tiny_map())
    dialog = run_small(win, qtbot, battles=8, seed=5)
    item, controls = win.heat_map.item, win.heat_map
    assert item.is_empty() and not controls.show_box.isVisible()
    dialog.heat_kind.setCurrentIndex(dialog.heat_kind.findData("attacked_from"))
    under = {(x, y): tile_colour(win, x, y) for y in range(3) for x in range(6)}
    qtbot.mouseClick(dialog.heat_button, Left)
    grid = np.array(tile_grid(dialog.report, "attacked_from"))
    assert grid.sum() > 0 and np.array_equal(item.counts, grid)
    # its caption is in the status bar only: no note drawn over the tiles it colours
    assert win.statusBar().currentMessage().startswith("Heat map: ")
    assert win.last_note is None or win.last_note.scene() is None
    # one AI with one profile on both placed teams: the swap changes nothing, and says so
    assert not dialog.report["swap"]["done"]
    assert dialog.results.details.text().startswith("Sides swapped: no, requested but "
                                                    "pointless: ")
    assert "requested but pointless" in dialog.report["swap"]["reason"]
    assert item.scene() is win.scene and item.isVisible()
    assert controls.high.text() == str(grid.max())
    type_value(qtbot, controls.opacity, 100)
    free = [(x, y) for y in range(3) for x in range(6)
            if grid[y, x] > 0 and (x, y) not in ((0, 1), (5, 1))]
    x, y = max(free, key=lambda t: grid[t[1], t[0]])
    want = tile_pixel_colour(int(grid[y, x]), int(grid.max()))
    got = tile_colour(win, x, y)
    # the tile's heat colour, blended by its own alpha over what was drawn there before
    a, bg = want.alpha() / 255, under[(x, y)]
    blend = [c * a + b * (1 - a) for c, b in zip(want.getRgb()[:3], bg.getRgb()[:3], strict=True)]
    assert np.allclose(got.getRgb()[:3], blend, atol=2)
    # the other kind
    dialog.heat_kind.setCurrentIndex(dialog.heat_kind.findData("defeated"))
    qtbot.mouseClick(dialog.heat_button, Left)
    assert np.array_equal(item.counts, np.array(tile_grid(dialog.report, "defeated")))
    # cleared on demand: the tile shows the map again
    qtbot.mouseClick(controls.clear_button, Left)
    assert item.is_empty()
    assert tile_colour(win, x, y) != got
    # and when the map changes
    dialog.heat_kind.setCurrentIndex(dialog.heat_kind.findData("attacked_from"))
    qtbot.mouseClick(dialog.heat_button, Left)
    assert not item.is_empty()
    win.set_tool("brush")
    click_tile(win.view, 2, 0)
    assert item.is_empty()
    assert not dialog.heat_button.isEnabled()  # that run is of the map as it was


def test_a_map_no_battle_can_start_from_is_refused_with_the_message(make_window, qtbot):
    m = MapModel(6, 3)
    m.characters["a"] = Character("a", "blue", 0, 1)
    win = make_window(m)
    dialog = open_dialog(win, qtbot)
    qtbot.mouseClick(dialog.run_button, Left)
    assert not dialog.is_running() and dialog.report is None
    assert dialog.status.text() == ("Cannot run: a battle needs characters of exactly 2 "
                                    "teams; the map has 1: blue")
    assert dialog.run_button.isEnabled()


def test_an_ai_profile_file_is_played_by_both_ais_as_with_the_cli(
        make_window, qtbot, tmp_path, capsys):
    from sodwa_editor.battle.ai.profile import load_profile

    profile = tmp_path / "bold.json"
    head = {"format": "sodwa-ai-profile", "format_version": 1}
    profile.write_text(json.dumps({**head, "greedy": {"damage": 0.0, "kill": 0.0, "threat": 5.0}}))
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({**head, "greedy": {"kill": "lots"}}))
    win = make_window(tiny_map())
    dialog = open_dialog(win, qtbot)
    set_inputs(qtbot, dialog, battles=2, seed=5)
    for box in dialog.ai:
        box.setCurrentText("greedy")
    # a bad profile is refused with the key, and nothing runs
    qtbot.mouseClick(dialog.profile, Left)
    qtbot.keyClicks(dialog.profile, str(bad))
    qtbot.mouseClick(dialog.run_button, Left)
    assert not dialog.is_running() and dialog.report is None
    assert dialog.status.text().startswith("Cannot run: ") and "kill" in dialog.status.text()
    dialog.profile.clear()
    qtbot.keyClicks(dialog.profile, str(profile))
    qtbot.mouseClick(dialog.run_button, Left)
    qtbot.waitUntil(lambda: dialog.report is not None and not dialog.is_running(),
                    timeout=120_000)
    setup = BattleSetup.from_map(win.document.model.copy(), ai=("greedy", "greedy"),
                                 profiles=[load_profile(profile)] * 2)
    assert dialog.records == run_batch(setup, 2, seed=5, swap_sides=True, workers=1)
    shipped = BattleSetup.from_map(win.document.model.copy(), ai=("greedy", "greedy"))
    assert dialog.records != run_batch(shipped, 2, seed=5, swap_sides=True, workers=1)
    path = tmp_path / "tiny.json"
    save_map(win.document.model, path)
    assert main(["simulate", str(path), "--battles", "2", "--seed", "5", "--swap-sides",
                 "--ai", "greedy,greedy", "--ai-profile", str(profile), "--json"]) == 0
    cli = json.loads(capsys.readouterr().out)["maps"][0]
    assert {k: v for k, v in cli.items()
            if k not in ("map", "map_hash", "file_hash")} == dialog.report


def zoned_map() -> MapModel:
    """8 x 4 with a placed character per side and two start zones of 4 tiles."""
    m = MapModel(8, 4)
    m.characters["a"] = Character("a", "blue", 0, 1, name="Knight")
    m.characters["b"] = Character("b", "red", 7, 1, name="Archer")
    m.start_zones = {"east": [(7, y) for y in range(4)], "west": [(0, y) for y in range(4)]}
    m.notify_bulk_change()
    return m


def team_file(path, name: str, archetypes: list[str]):
    path.write_text(json.dumps({"format": "sodwa-team", "format_version": 1, "name": name,
                                "members": [{"id": f"m{i}", "archetype": a}
                                            for i, a in enumerate(archetypes)]}))
    return path


def test_a_team_file_per_side_with_point_totals_plays_as_simulate_teams(
        make_window, qtbot, tmp_path, capsys):
    from sodwa_editor.battle.rules import DEFAULT_RULES_PATH
    from sodwa_editor.battle.sheet import load_roster

    cost = {a.name: a.sheet(a.name).cost for a in map(load_roster().find, ("Knight", "Archer",
                                                                          "Mage"))}
    cap = 250
    rules_doc = json.loads(DEFAULT_RULES_PATH.read_text())
    rules_doc["battle"]["point_cap"] = cap
    rules = tmp_path / "capped.json"
    rules.write_text(json.dumps(rules_doc))
    t0 = team_file(tmp_path / "duo.json", "duo", ["Knight", "Archer"])
    t1 = team_file(tmp_path / "solo.json", "solo", ["Mage"])
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "sodwa-team", "members": [')
    win = make_window(zoned_map())
    dialog = open_dialog(win, qtbot)
    # the map's placed characters by default: their totals (blue first, as team 0)
    assert [p.text() for p in dialog.team_points] == [
        f"{cost['Knight']} points", f"{cost['Archer']} points"]  # the shipped rules: no cap
    qtbot.mouseClick(dialog.rules, Left)
    qtbot.keyClicks(dialog.rules, str(rules))
    assert [p.text() for p in dialog.team_points] == [
        f"{cost['Knight']} / {cap} points", f"{cost['Archer']} / {cap} points"]
    set_inputs(qtbot, dialog, battles=4, seed=2)
    # one side only: refused, in one line
    qtbot.mouseClick(dialog.team_files[0], Left)
    qtbot.keyClicks(dialog.team_files[0], str(t0))
    want = "give a team file for both teams, or neither (the map's placed characters)"
    assert dialog.problem.text() == want
    qtbot.mouseClick(dialog.run_button, Left)
    assert not dialog.is_running() and dialog.status.text() == f"Cannot run: {want}"
    # a broken file: one line naming it, nothing runs
    qtbot.mouseClick(dialog.team_files[1], Left)
    qtbot.keyClicks(dialog.team_files[1], str(broken))
    assert str(broken) in dialog.problem.text() and "\n" not in dialog.problem.text()
    assert dialog.team_points[1].text() == f"? / {cap} points"
    qtbot.mouseClick(dialog.run_button, Left)
    assert not dialog.is_running() and dialog.report is None
    assert dialog.status.text().startswith(f"Cannot run: {broken}")
    # both files: their totals, and the run equals sodwa simulate --teams
    dialog.team_files[1].selectAll()
    qtbot.keyClicks(dialog.team_files[1], str(t1))
    assert dialog.problem.text() == ""
    assert [p.text() for p in dialog.team_points] == [
        f"{cost['Knight'] + cost['Archer']} / {cap} points", f"{cost['Mage']} / {cap} points"]
    qtbot.mouseClick(dialog.run_button, Left)
    qtbot.waitUntil(lambda: dialog.report is not None and not dialog.is_running(),
                    timeout=120_000)
    assert {c["id"].split(".")[-1] for c in dialog.report["characters"]} == {"m0", "m1"}
    path = tmp_path / "zoned.json"
    save_map(win.document.model, path)
    assert main(["simulate", str(path), "--teams", str(t0), "--teams", str(t1), "--rules",
                 str(rules), "--battles", "4", "--seed", "2", "--swap-sides", "--ai",
                 "random,random", "--json"]) == 0
    cli = json.loads(capsys.readouterr().out)["maps"][0]
    assert {k: v for k, v in cli.items()
            if k not in ("map", "map_hash", "file_hash")} == dialog.report


def test_the_dialog_runs_on_the_document_it_is_given_and_asks_by_signals(qtbot):
    from sodwa_editor.editor.balance.dialog import BalanceDialog
    from sodwa_editor.editor.document import Document

    doc = Document(tiny_map())  # no main window anywhere
    dialog = BalanceDialog(doc)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    set_inputs(qtbot, dialog, battles=2, seed=4)
    qtbot.mouseClick(dialog.run_button, Left)
    qtbot.waitUntil(lambda: dialog.report is not None and not dialog.is_running(),
                    timeout=120_000)
    assert {c["id"] for c in dialog.report["characters"]} == {"a", "b"}
    messages: list[str] = []
    dialog.message.connect(messages.append)
    with qtbot.waitSignal(dialog.heat_map_requested) as got:
        qtbot.mouseClick(dialog.heat_button, Left)
    assert got.args == [dialog.report, dialog.heat_kind.currentData()]
    assert messages and messages[0].startswith("Heat map: ")
    doc.place_character(Character("c", "red", 3, 0))
    assert not dialog.heat_button.isEnabled()  # the document changed since the run


def test_the_dialog_plays_through_the_runner_it_is_given(qtbot):
    """The runner makes the run (here one that fails at once, and one that is
    cancelled): the dialog shows what it says and takes input again."""
    from sodwa_editor.editor.balance.dialog import BalanceDialog
    from sodwa_editor.editor.balance.runner import BalanceRun
    from sodwa_editor.editor.document import Document

    made: list[tuple] = []

    class Failing(BalanceRun):
        def run(self) -> None:
            made.append((self.settings.battles, self.settings.seed))
            self.progressed.emit(1, self.settings.battles)
            self.failed.emit("the cluster is gone")

    class Cancelled(BalanceRun):
        def run(self) -> None:
            self.cancelled.emit()

    dialog = BalanceDialog(Document(tiny_map()), runner=Failing)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    set_inputs(qtbot, dialog, battles=5, seed=8)
    qtbot.mouseClick(dialog.run_button, Left)
    qtbot.waitUntil(lambda: not dialog.is_running(), timeout=10_000)
    assert made == [(5, 8)]
    assert dialog.status.text() == "Failed: the cluster is gone" and dialog.report is None
    assert dialog.run_button.isEnabled() and not dialog.cancel_button.isEnabled()
    dialog.runner = Cancelled
    qtbot.mouseClick(dialog.run_button, Left)
    qtbot.waitUntil(lambda: not dialog.is_running(), timeout=10_000)
    assert dialog.status.text() == "Cancelled after 0 of 5 battles."


def test_the_heat_map_takes_the_document_and_the_scene(qtbot):
    """Built alone: shown from a report's counts on the scene, cleared by its button
    and by any change of the document."""
    from sodwa_editor.editor.balance.heatmap import HeatMapControls
    from sodwa_editor.editor.document import Document
    from sodwa_editor.editor.scene.map_scene import MapScene

    doc = Document(tiny_map())
    scene = MapScene(doc.model)
    controls = HeatMapControls(doc, scene)
    qtbot.addWidget(controls)
    controls.show()
    assert controls.item.scene() is scene and controls.item.is_empty()
    assert not controls.clear_button.isVisible() and "none" in controls.title.text()
    report = {"tiles": {"width": 6, "height": 3, "defeated": [[2, 1, 4], [3, 0, 1]]}}
    controls.show_report(report, "defeated")
    assert controls.item.value_at(2, 1) == 4 and controls.high.text() == "4"
    assert controls.clear_button.isVisible() and controls.legend.top == 4
    qtbot.mouseClick(controls.clear_button, Left)
    assert controls.item.is_empty() and not controls.clear_button.isVisible()
    controls.show_report(report, "defeated")
    doc.paint_terrain([(0, 0)], 2)  # the counts belong to the map as it was
    assert controls.item.is_empty()


def run_and_kill_a_worker(qtbot, dialog) -> int:
    """Click Run on a 12-battle random-vs-random run with 2 workers, wait for the first
    battle (the workers have loaded the engine), then SIGKILL one worker process
    (issue 22 item 1: with a multiprocessing.Pool the run waited forever).  Returns
    the pid killed."""
    import signal

    set_inputs(qtbot, dialog, battles=12, seed=5, workers=2, swap=False)
    qtbot.mouseClick(dialog.run_button, Left)
    assert dialog.is_running()
    qtbot.waitUntil(lambda: dialog.progress.value() >= 1
                    and len(multiprocessing.active_children()) > 0, timeout=120_000)
    victim = multiprocessing.active_children()[0].pid
    os.kill(victim, signal.SIGKILL)
    qtbot.waitUntil(lambda: not dialog.is_running(), timeout=300_000)
    return victim


def mixed_dialog(qtbot):
    from sodwa_editor.editor.balance.dialog import BalanceDialog
    from sodwa_editor.editor.document import Document

    doc = Document(make_mixed_map(12, seed=4))
    dialog = BalanceDialog(doc)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    return doc, dialog


def test_a_worker_killed_mid_run_is_replaced_and_the_run_ends_with_the_same_report(qtbot):
    """A worker process killed during a Balance Run costs only the battles it held:
    a new worker plays them again, the dialog says so, and the records and report
    are those of an undisturbed run."""
    doc, dialog = mixed_dialog(qtbot)
    run_and_kill_a_worker(qtbot, dialog)
    setup = BattleSetup.from_map(doc.model.copy(), ai=("random", "random"))
    records = run_batch(setup, 12, seed=5, workers=1)
    assert dialog.records == records
    assert dialog.report == summarize(setup, records, seed=5, swap_sides=False)
    status = dialog.status.text()
    assert status.startswith("12 battle(s) in ") and status.endswith(
        " 1 worker process(es) lost on the way; their battles were played again, with the "
        "same results."), status
    assert dialog.notices and "was killed by SIGKILL while playing battle" in dialog.notices[0]
    assert dialog.run_button.isEnabled() and dialog.heat_button.isEnabled()
    assert not multiprocessing.active_children()


def test_a_run_that_loses_more_workers_than_it_survives_fails_in_one_line(qtbot, monkeypatch):
    """Past the lost workers a batch survives (here none) the run stops: one line in
    the dialog, which takes input again, and no worker process left."""
    import sodwa_editor.battle.batch_pool as batch_pool

    monkeypatch.setattr(batch_pool, "LOST_WORKERS_MAX", 0)
    _doc, dialog = mixed_dialog(qtbot)
    run_and_kill_a_worker(qtbot, dialog)
    status = dialog.status.text()
    assert status.startswith("Failed: the balance run failed: a worker process was killed by "
                             "SIGKILL while playing battle"), status
    assert "more than the 0 a batch survives" in status and "\n" not in status
    assert dialog.report is None and dialog.run_button.isEnabled()
    assert not dialog.cancel_button.isEnabled() and not dialog.heat_button.isEnabled()
    assert not multiprocessing.active_children()


def test_the_workers_box_stops_at_the_cores_the_editor_may_use(qtbot):
    """As ``sodwa simulate`` without --oversubscribe (issue 22 item 6): one worker per
    core this process may run on, at most (it allowed four times ``os.cpu_count()``)."""
    cores = len(os.sched_getaffinity(0))
    _doc, dialog = mixed_dialog(qtbot)
    dialog.workers.setFocus()
    dialog.workers.selectAll()
    qtbot.keyClicks(dialog.workers, str(cores + 1))
    qtbot.keyClick(dialog.workers, Qt.Key.Key_Tab)
    assert dialog.workers.maximum() == cores and dialog.workers.value() <= cores
    for _ in range(cores + 2):
        qtbot.keyClick(dialog.workers, Qt.Key.Key_Up)
    assert dialog.workers.value() == cores
