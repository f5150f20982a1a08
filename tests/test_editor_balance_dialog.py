"""The Balance Run dialog, issue 24 sections 1 and 3, driven with real events: its
form is never squeezed (default size, long messages, the splitter dragged), Cancel
labels the previous run's results, the threshold box changes the verdict and is
remembered, the HTML says whether unsaved edits were played, and the table shows
area ability use per archetype."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, QSettings, Qt
from PySide6.QtWidgets import QFormLayout

from sodwa_editor.battle.batch import play, run_batch
from sodwa_editor.battle.report import summarize
from sodwa_editor.editor.balance.dialog import BalanceDialog
from sodwa_editor.editor.balance.runner import BalanceRun
from sodwa_editor.editor.document import Document
from sodwa_editor.editor.testing import click_tile
from sodwa_editor.engine.model import Character, MapModel
from sodwa_editor.io import read_map
from sodwa_editor.io.files import save_map

Left = Qt.MouseButton.LeftButton
MAPS = Path(__file__).resolve().parents[1] / "maps"


def tiny_map() -> MapModel:
    m = MapModel(6, 3)
    m.characters["a"] = Character("a", "blue", 0, 1)
    m.characters["b"] = Character("b", "red", 5, 1)
    return m


class InProcess(BalanceRun):
    """``BalanceRun`` without the worker pool (the same records, no process start)."""

    def run(self) -> None:
        s = self.settings
        records = run_batch(self.setup, s.battles, seed=s.seed, swap_sides=s.swap_sides,
                            progress=self.progressed.emit)
        self.succeeded.emit(records, summarize(self.setup, records, seed=s.seed,
                                               swap_sides=s.swap_sides, names=s.names,
                                               threshold=s.threshold))


class EvenSplit(BalanceRun):
    """100 battles, 50 won by each side (one real record, its winner set): a share of
    50 % [40.4-59.6], not clear within 50 ± 5 %, balanced within 50 ± 10 %."""

    def run(self) -> None:
        s = self.settings
        first = play(self.setup, 0, 0, False)
        records = [{**first, "index": i, "winner": i % 2} for i in range(100)]
        self.succeeded.emit(records, summarize(self.setup, records, seed=s.seed,
                                               swap_sides=False, threshold=s.threshold))


class Slow(BalanceRun):
    """Says 3 battles are done, then waits for Cancel."""

    def run(self) -> None:
        self.progressed.emit(3, self.settings.battles)
        while not self._stop.is_set():
            time.sleep(0.01)
        self.cancelled.emit()


def make_dialog(qtbot, model=None, *, settings=None, path=None, runner=InProcess):
    doc = Document(model or tiny_map(), path)
    dialog = BalanceDialog(doc, runner=runner, settings=settings)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    return doc, dialog


def type_value(qtbot, spin, value: int) -> None:
    qtbot.mouseClick(spin.lineEdit(), Left)
    spin.selectAll()
    qtbot.keyClicks(spin, str(value))
    qtbot.keyClick(spin, Qt.Key.Key_Tab)
    assert spin.value() == value


def click_run(qtbot, dialog) -> None:
    qtbot.mouseClick(dialog.run_button, Left)
    qtbot.waitUntil(lambda: not dialog.is_running(), timeout=120_000)


def rows_keep_their_height(dialog) -> list[str]:
    """Form rows (label and field) lower than their size hint."""
    form = dialog.form.rows
    low = []
    for r in range(form.rowCount()):
        for role in (QFormLayout.ItemRole.LabelRole, QFormLayout.ItemRole.FieldRole):
            item = form.itemAt(r, role)
            if item is not None and item.geometry().height() < item.sizeHint().height():
                low.append(f"row {r} {role.name}: {item.geometry().height()} < "
                           f"{item.sizeHint().height()}")
    return low


def test_the_form_is_never_squeezed_whatever_the_messages_and_the_splitter(qtbot, tmp_path):
    doc, dialog = make_dialog(qtbot)
    assert rows_keep_their_height(dialog) == []  # at its default size
    # a long problem (a team file path typed) and a long status (Run refused)
    long = str(tmp_path / ("very-long-folder-name-" * 12) / "team.json")
    for box in dialog.team_files:
        qtbot.mouseClick(box, Left)
        qtbot.keyClicks(box, long)
    assert long in dialog.problem.text()
    qtbot.mouseClick(dialog.run_button, Left)
    assert dialog.status.text().startswith("Cannot run: ") and long in dialog.status.text()
    qtbot.wait(20)
    assert rows_keep_their_height(dialog) == []
    # a screen too small for the dialog (the window manager makes it smaller than it
    # asks): the inputs scroll, their rows keep their height
    size = dialog.size()
    dialog.setMinimumSize(1, 1)
    dialog.resize(size.width(), 420)
    qtbot.waitUntil(lambda: dialog.height() == 420)
    qtbot.wait(20)
    assert rows_keep_their_height(dialog) == []
    assert dialog.inputs_box.verticalScrollBar().maximum() > 0
    dialog.resize(size)
    qtbot.waitUntil(lambda: dialog.size() == size)
    # the results below the form in a splitter; dragged up, the form keeps its rows
    splitter = dialog.splitter
    assert splitter.widget(1) is dialog.results and splitter.orientation() == \
        Qt.Orientation.Vertical
    top_before, results_before = splitter.sizes()
    handle = splitter.handle(1)
    middle = handle.rect().center()
    for dy in (-300, 250):
        qtbot.mousePress(handle, Left, pos=middle)
        qtbot.mouseMove(handle, middle + QPoint(0, dy // 2))
        qtbot.mouseMove(handle, middle + QPoint(0, dy))
        qtbot.mouseRelease(handle, Left, pos=middle + QPoint(0, dy))
        qtbot.wait(20)
        assert rows_keep_their_height(dialog) == []
        top, results = splitter.sizes()
        assert top >= splitter.widget(0).minimumSizeHint().height()
        assert results >= dialog.results.minimumSizeHint().height() > 0
        if dy > 0:
            assert results < results_before and top > top_before  # the drag moved it


def test_cancel_labels_the_previous_runs_results(qtbot):
    _doc, dialog = make_dialog(qtbot)
    type_value(qtbot, dialog.battles, 6)
    click_run(qtbot, dialog)
    assert dialog.report is not None
    shown = [dialog.outcomes.item(r, 1).text() for r in range(dialog.outcomes.rowCount())]
    assert dialog.results.note.text().startswith("Results of the run of 6 battles, seed 0")
    dialog.runner = Slow
    type_value(qtbot, dialog.battles, 50)
    qtbot.mouseClick(dialog.run_button, Left)
    qtbot.waitUntil(lambda: dialog.progress.value() == 3, timeout=10_000)
    assert dialog.results.note.text().startswith("Running 50 battle(s): showing the "
                                                 "previous run (6 battles, seed 0")
    qtbot.mouseClick(dialog.cancel_button, Left)
    qtbot.waitUntil(lambda: not dialog.is_running(), timeout=10_000)
    assert dialog.status.text() == "Cancelled after 3 of 50 battles."
    note = dialog.results.note
    assert note.isVisible() and note.text() == (
        f"Cancelled after 3 of 50 battles: showing the previous run ({dialog.result_of})")
    assert dialog.result_of.startswith("6 battles, seed 0, ")
    # the previous run's table, results and buttons, as they were
    assert [dialog.outcomes.item(r, 1).text()
            for r in range(dialog.outcomes.rowCount())] == shown
    assert dialog.report["battles"] == 6 and dialog.export_button.isEnabled()


def test_the_threshold_box_changes_the_verdict_and_is_remembered(qtbot, tmp_path):
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    _doc, dialog = make_dialog(qtbot, settings=settings, runner=EvenSplit)
    assert dialog.threshold.value() == 5
    click_run(qtbot, dialog)
    headline = dialog.results.headline
    assert headline.text().startswith("blue (team 0, 100 pts) wins 50 % [40-60] of 100 "
                                      "decided battle(s) against red (team 1, 100 pts)")
    assert "not clear yet: run more battles" in headline.text()
    type_value(qtbot, dialog.threshold, 10)
    assert headline.text().endswith(": balanced (within 50 ± 10 %)")
    assert dialog.report["verdict"]["word"] == "balanced" and dialog.report["threshold"] == 10
    assert dialog.results.details.text().splitlines() == [
        "Sides swapped: no, not requested.",
        f"rules 'SODWA rulebook defaults' {dialog.report['rules']['hash'][:19]}: the defaults"]
    type_value(qtbot, dialog.threshold, 4)
    assert "not clear yet" in headline.text()
    type_value(qtbot, dialog.threshold, 10)
    settings.sync()
    _doc2, again = make_dialog(qtbot, settings=QSettings(str(tmp_path / "s.ini"),
                                                         QSettings.Format.IniFormat))
    assert again.threshold.value() == 10


def test_the_html_says_whether_unsaved_edits_were_played(make_window, qtbot, tmp_path):
    path = tmp_path / "tiny.json"
    save_map(tiny_map(), path)
    win = make_window(read_map(path)[0], path)
    dialog = win.open_balance_dialog()
    qtbot.waitExposed(dialog)
    dialog.runner = InProcess
    type_value(qtbot, dialog.battles, 2)
    click_run(qtbot, dialog)
    out = tmp_path / "saved.html"
    assert dialog.export_html(out)
    assert "the file as saved" in out.read_text() and "unsaved" not in out.read_text()
    assert dialog.results.note.text().endswith(" on the map as saved.")
    win.set_tool("brush")
    click_tile(win.view, 2, 0)  # an edit, not saved
    click_run(qtbot, dialog)
    assert dialog.export_html(out)
    page = out.read_text()
    assert "includes unsaved edits (the file on disk has hash sha256:" in page
    assert dialog.results.note.text().endswith(" on the map with its unsaved edits.")


@pytest.mark.parametrize("swap", [False, True])
def test_the_abilities_tab_shows_area_ability_use_per_archetype(qtbot, swap):
    model = read_map(MAPS / "indoor-compound.json")[0]
    _doc, dialog = make_dialog(qtbot, model)
    type_value(qtbot, dialog.battles, 2)
    if swap:
        qtbot.mouseClick(dialog.swap, Left, pos=QPoint(8, dialog.swap.height() // 2))
    click_run(qtbot, dialog)
    table = dialog.results.abilities
    rows = {(table.item(r, 0).text(), table.item(r, 1).text()): r
            for r in range(table.rowCount())}
    assert set(rows) == {("Mage", "Fireball"), ("Brute", "Ground Slam")}
    bar = dialog.tabs.tabBar()
    assert bar.tabText(1) == "Abilities"
    qtbot.mouseClick(bar, Left, pos=bar.tabRect(1).center())
    assert table.isVisible()
    uses = {k: int(table.item(r, 2).text()) for k, r in rows.items()}
    assert uses == {(a["archetype"], a["ability"]): a["uses"]
                    for a in dialog.report["abilities"]}
