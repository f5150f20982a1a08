"""Tools > Balance Run: a batch of AI-vs-AI battles on the open map, as it stands in
the editor (unsaved edits included; the document is never written), with the
balance report's headline, table and plots, its HTML export and the per-tile heat
map.

The dialog is given the document it runs on and only reads it; it asks for the
heat map and for status messages by signals (:attr:`BalanceDialog.heat_map_requested`,
:attr:`BalanceDialog.message`), which whoever opens it connects.  Its inputs are
:class:`.inputs.RunForm` (the teams: the map's placed characters, or a team file per
side entering the map's first two start zones, ``sodwa simulate --teams``, with
each side's point total), its results :class:`.results.ResultsPane`, below the
inputs in a splitter: the inputs keep their rows' height whatever the dialog's
size, the results take the rest.  The verdict's threshold is remembered in the
``settings`` given (the window's).

The run is made by the ``runner`` the dialog is given, by default
:class:`.runner.BalanceRun` (``sodwa simulate``'s engine call, off the GUI
thread).  A cancelled or failed run leaves the previous run's results, labelled
"cancelled after N of M battles: showing the previous run (...)", as an editor
leaves the document as it was when an operation is cancelled.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QSettings, QSize, Qt, Signal
from PySide6.QtGui import QCloseEvent, QGuiApplication, QShowEvent
from PySide6.QtWidgets import (
    QDialog,
    QFileDialog,
    QFrame,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QScrollArea,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from ...battle.jsonfiles import BattleInputError
from ...battle.report import TILE_TITLES
from ...battle.report_html import includes_unsaved_edits, render
from ...battle.report_verdict import DEFAULT_THRESHOLD, judge
from ...battle.setup import BattleSetup
from ..dialogs import text_box
from .inputs import RunForm, stored_threshold
from .results import ResultsPane
from .runner import BalanceRun, RunSettings, format_seconds, time_left

if TYPE_CHECKING:
    from ..document import Document
    from ..roster_in_use import RosterInUse

#: what makes a run: (setup, settings, parent) -> a run with BalanceRun's signals
Runner = Callable[[BattleSetup, RunSettings, Any], BalanceRun]
#: the settings key of the verdict's threshold (percentage points around 50 %)
THRESHOLD_KEY = "balance/balanced_within"
#: lines of text the status box shows before it scrolls
STATUS_LINES = 2
#: the results area's height at the dialog's default size (the inputs above it keep
#: their own height; the splitter between them moves) ...
RESULTS_HEIGHT = 430
#: ... and the screen height left for it, at least, when the inputs take the rest
MIN_RESULTS = 260


class InputsBox(QScrollArea):
    """The dialog's inputs in a scroll area as high as they ask to be: the splitter
    never gives them less than their rows' height, and when the window itself is
    made smaller than that (a small screen), they scroll instead of squeezing."""

    def __init__(self, inputs: QWidget) -> None:
        super().__init__()
        self.setObjectName("balance_inputs_box")
        self.setWidget(inputs)
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)

    def sizeHint(self) -> QSize:  # noqa: N802
        inner = self.widget()
        return super().sizeHint() if inner is None else inner.sizeHint()

    def minimumSizeHint(self) -> QSize:  # noqa: N802
        inner = self.widget()
        if inner is None:
            return super().minimumSizeHint()
        want = inner.minimumSizeHint()
        screen = self.screen() or QGuiApplication.primaryScreen()
        room = screen.availableGeometry().height() - MIN_RESULTS if screen else want.height()
        return QSize(want.width(), max(100, min(want.height(), room)))


class BalanceDialog(QDialog):
    """The Balance Run dialog on ``document`` (one per main window, kept between
    runs).  ``heat_map_requested(report, kind)``: draw the run's per-tile counts on
    the map; ``message(text)``: a line for the window's status bar."""

    heat_map_requested = Signal(object, str)
    message = Signal(str)

    def __init__(self, document: Document, parent: QWidget | None = None, *,
                 runner: Runner = BalanceRun, settings: QSettings | None = None,
                 roster_in_use: RosterInUse | None = None) -> None:
        super().__init__(parent)
        self.document = document
        self.runner = runner
        self.store = settings  # the threshold is remembered here (None: not kept)
        self.setWindowTitle("Balance Run")
        self.run: BalanceRun | None = None
        self.records: list[dict[str, Any]] | None = None
        self.report: dict[str, Any] | None = None
        self.result_of = ""  # what the results shown are of ("100 battles, seed 0, 14:02")
        self.map_changed = False  # edited since the run started: no heat map of it
        self.running_text = ""  # the status line of the run under way
        self.notices: list[str] = []  # the run's lost workers, replaced
        self.hashes: tuple[str, str | None] = ("", None)  # the run's map and its file's
        top = QWidget()
        top.setObjectName("balance_inputs")
        lay = QVBoxLayout(top)
        lay.setContentsMargins(0, 0, 0, 0)
        kept = DEFAULT_THRESHOLD if settings is None else settings.value(THRESHOLD_KEY,
                                                                         DEFAULT_THRESHOLD)
        self.form = f = RunForm(document, stored_threshold(kept), roster_in_use=roster_in_use)
        lay.addWidget(f)
        # the inputs by name, as before the form had its own module
        self.battles, self.ai, self.swap, self.workers, self.seed = (
            f.battles, f.ai, f.swap, f.workers, f.seed)
        self.threshold, self.rules, self.profile, self.problem = (
            f.threshold, f.rules, f.profile, f.problem)
        self.team_files, self.team_points, self.inputs = f.team_files, f.team_points, f.inputs
        self.threshold.valueChanged.connect(self._on_threshold)
        self.progress = QProgressBar()
        self.progress.setFormat("%v / %m battles")
        self.eta = QLabel("")
        self.status = QLabel("The map as it stands in the editor, unsaved edits included.")
        self.status.setObjectName("balance_status")
        row = QHBoxLayout()
        self.run_button = QPushButton("&Run")
        self.run_button.setDefault(True)
        self.run_button.clicked.connect(self.start)
        self.cancel_button = QPushButton("&Cancel Run")
        self.cancel_button.setEnabled(False)
        self.cancel_button.clicked.connect(self.cancel)
        row.addWidget(self.run_button)
        row.addWidget(self.cancel_button)
        row.addWidget(self.progress, 1)
        row.addWidget(self.eta)
        lay.addLayout(row)
        lay.addWidget(text_box(self.status, STATUS_LINES, "balance_status_box"))
        lay.addStretch(1)
        self.results = r = ResultsPane()
        self.tabs, self.outcomes, self.characters = r.tabs, r.outcomes, r.characters
        self.heat_kind, self.heat_button, self.export_button = (r.heat_kind, r.heat_button,
                                                                r.export_button)
        self.heat_button.clicked.connect(self.show_heat_map)
        self.export_button.clicked.connect(self.export_html)
        # the inputs above, the results below: the inputs never squeezed (not
        # collapsible, never below their rows' height), the results take the rest
        self.splitter = QSplitter(Qt.Orientation.Vertical)
        self.splitter.setObjectName("balance_splitter")
        self.inputs_box = InputsBox(top)
        self.splitter.addWidget(self.inputs_box)
        self.splitter.addWidget(self.results)
        self.splitter.setCollapsible(0, False)
        self.splitter.setCollapsible(1, False)
        self.splitter.setStretchFactor(0, 0)
        self.splitter.setStretchFactor(1, 1)
        outer = QVBoxLayout(self)
        outer.addWidget(self.splitter)
        self._set_result_enabled(False)
        document.edited.connect(self._on_map_changed)
        document.model_replaced.connect(self._on_map_changed)
        self.resize(*self.default_size(top))

    @property
    def canvases(self) -> list[Any]:
        return self.results.canvases

    def default_size(self, top: QWidget) -> tuple[int, int]:
        """The inputs at their own height and :data:`RESULTS_HEIGHT` for the results,
        within the screen (on a small screen the results get less: the splitter)."""
        hint = top.sizeHint()
        width, height = max(860, hint.width()), hint.height() + RESULTS_HEIGHT
        screen = self.screen() or QGuiApplication.primaryScreen()
        if screen is not None:
            room = screen.availableGeometry()
            height = max(min(height, room.height() - 60), top.minimumSizeHint().height() + 200)
            width = min(width, max(room.width() - 40, 600))
        return width, height

    def refresh_teams(self, *_args: object) -> None:
        self.form.refresh_teams()

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802
        self.refresh_teams()
        super().showEvent(event)

    # ------------------------------------------------------------------ run
    def settings(self) -> RunSettings:
        return RunSettings(self.battles.value(), self.seed.value(), self.swap.isChecked(),
                           self.workers.value(), self.threshold.value(),
                           self.form.file_names())

    def make_setup(self) -> BattleSetup:
        return self.form.make_setup()

    def map_hashes(self, setup: BattleSetup) -> tuple[str, str | None]:
        """The hash of the map played (unsaved edits included) and of the document's
        file on disk (None: never saved, or unreadable), as ``sodwa simulate`` hashes
        a map file."""
        from ...battle.replay import digest
        from ...io import map_to_dict, read_map

        played = digest(map_to_dict(setup.model))
        path = self.document.path
        disk = None
        if path is not None and Path(path).is_file():
            saved = read_map(Path(path))[0]
            disk = None if saved is None else digest(map_to_dict(saved))
        return played, disk

    def start(self) -> None:
        if self.run is not None:
            return
        try:
            setup = self.make_setup()
        except BattleInputError as exc:
            self.status.setText(f"Cannot run: {exc}")
            return
        self.setup = setup
        self.hashes = self.map_hashes(setup)
        self.map_changed = False
        s = self.settings()
        self.progress.setRange(0, s.battles)
        self.progress.setValue(0)
        self.eta.setText(format_seconds(None))
        self.running_text = f"Running {s.battles} battle(s) on {s.workers} worker(s)..."
        self.notices = []
        self.status.setText(self.running_text)
        if self.report is not None:
            self.results.set_note(f"Running {s.battles} battle(s): showing the previous run "
                                  f"({self.result_of}) until it ends", stale=True)
        self._set_running(True)
        self.run = self.runner(setup, s, self)
        self.run.progressed.connect(self._on_progress)
        self.run.noticed.connect(self._on_notice)
        self.run.succeeded.connect(self._on_done)
        self.run.cancelled.connect(lambda: self._ended("Cancelled"))
        self.run.failed.connect(lambda msg: self._ended("Failed", msg))
        self.started = time.monotonic()
        self.run.start()

    def cancel(self) -> None:
        if self.run is not None:
            self.status.setText("Cancelling...")
            self.run.cancel()

    def is_running(self) -> bool:
        return self.run is not None

    def _on_progress(self, done: int, total: int) -> None:
        self.progress.setValue(done)
        self.eta.setText(format_seconds(time_left(done, total, time.monotonic() - self.started)))

    def _on_notice(self, line: str) -> None:
        """A worker process was lost and its battles are played again: say so."""
        self.notices.append(line)
        self.status.setText(f"{self.running_text} Note: {line}.")

    def _on_done(self, records: list[dict[str, Any]], report: dict[str, Any]) -> None:
        self.records, self.report = records, report
        took = time.monotonic() - self.started
        lost = len(self.notices)
        again = (f" {lost} worker process(es) lost on the way; their battles were played "
                 "again, with the same results." if lost else "")
        self._finish(f"{report['battles']} battle(s) in {took:.1f} s.{again}")
        s = self.settings()
        self.result_of = (f"{report['battles']} battles, seed {report['seed']}, "
                          f"{time.strftime('%H:%M')}")
        played = ("the map with its unsaved edits" if includes_unsaved_edits(
            self.with_map(report)) else "the map as saved")
        self.results.set_note(f"Results of the run of {self.result_of} on {played}.")
        self.show_report(self.report)
        if report["threshold"] != s.threshold:  # (the box moved during the run)
            self._on_threshold(self.threshold.value())

    def _ended(self, how: str, message: str = "") -> None:
        """A run that gave no result (cancelled, failed): the previous run's results
        stay, labelled as such, or none."""
        done, total = self.progress.value(), self.progress.maximum()
        what = (f"{how} after {done} of {total} battles" if how == "Cancelled"
                else f"{how}: {message}")
        self._finish(f"{what}." if how == "Cancelled" else what)
        if self.report is not None:
            self.results.set_note(f"{what.split(':')[0]}: showing the previous run "
                                  f"({self.result_of})", stale=True)
        else:
            self.results.set_note(f"{what.split(':')[0]}: no results yet", stale=True)

    def _finish(self, text: str) -> None:
        run, self.run = self.run, None
        if run is not None:
            run.wait()
        self.status.setText(text)
        self.eta.setText("")
        self._set_running(False)
        if self.report is not None:
            self._set_result_enabled(True)
            self.heat_button.setEnabled(not self.map_changed)

    def _set_running(self, running: bool) -> None:
        for w in self.inputs:
            w.setEnabled(not running)
        self.run_button.setEnabled(not running)
        self.cancel_button.setEnabled(running)
        if running:
            self._set_result_enabled(False)

    def _set_result_enabled(self, on: bool) -> None:
        for w in (self.heat_kind, self.heat_button, self.export_button):
            w.setEnabled(on)

    def _on_map_changed(self, *_args: object) -> None:
        if self.isVisible():
            self.refresh_teams()  # the placed characters' totals
        self.map_changed = True
        self.heat_button.setEnabled(False)
        self.heat_button.setToolTip("The map changed since this run: run again for its "
                                    "heat map")

    def _on_threshold(self, value: int) -> None:
        """The verdict's threshold: remembered, and the report shown judged again."""
        if self.store is not None:
            self.store.setValue(THRESHOLD_KEY, value)
        if self.report is not None and self.report["threshold"] != value:
            self.report = judge(self.report, value)
            self.results.show_report(self.with_map(self.report), figures=False)

    # --------------------------------------------------------------- result
    def show_report(self, report: dict[str, Any]) -> None:
        """The headline, the table and one tab per plot of ``report``."""
        self.results.show_report(self.with_map(report))
        self._set_result_enabled(True)
        self.heat_button.setEnabled(not self.map_changed)

    def show_heat_map(self) -> None:
        if self.report is None or self.map_changed:
            return
        kind = self.heat_kind.currentData()
        self.heat_map_requested.emit(self.report, kind)
        self.message.emit(f"Heat map: {TILE_TITLES[kind]} ({self.report['battles']} "
                          "battles); Layers dock to hide or clear it")

    def with_map(self, report: dict[str, Any]) -> dict[str, Any]:
        """``report`` with the hashes of the map the run played (unsaved edits
        included) and of its file on disk (None: never saved), taken when it started."""
        played, disk = self.hashes
        return {"map_hash": played, "file_hash": disk, **report}

    def html_report(self) -> dict[str, Any]:
        """The report as ``sodwa simulate`` puts it in the HTML file, with its map and
        the hashes that say whether unsaved edits were included."""
        assert self.report is not None
        d = self.document
        name = str(d.path) if d.path is not None else d.display_name()
        return {"map": name, **self.with_map(self.report)}

    def export_html(self, path: str | Path | None = None) -> bool:
        if self.report is None:
            return False
        if not path:
            path, _ = QFileDialog.getSaveFileName(self, "Export Balance Report",
                                                  "balance-report.html", "HTML (*.html)")
            if not path:
                return False
        from ...io.files import atomic_write_text

        try:
            atomic_write_text(Path(path), render([self.html_report()]))
        except OSError as exc:
            self.status.setText(f"Could not export: {exc}")
            return False
        self.status.setText(f"Wrote {path}")
        return True

    # ---------------------------------------------------------------- close
    def stop(self) -> None:
        """Cancel a run and wait for it (closing the dialog or the window)."""
        if self.run is not None:
            self.run.cancel()
            self.run.wait()
            self.run = None
            self._set_running(False)

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802
        self.stop()
        super().closeEvent(event)

    def reject(self) -> None:
        self.stop()
        super().reject()

