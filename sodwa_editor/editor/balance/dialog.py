"""Tools > Balance Run: a batch of AI-vs-AI battles on the open map, as it stands in
the editor (unsaved edits included; the document is never written), with the
balance report's table and plots, its HTML export and the per-tile heat map.

The dialog is given the document it runs on and only reads it; it asks for the
heat map and for status messages by signals (:attr:`BalanceDialog.heat_map_requested`,
:attr:`BalanceDialog.message`), which whoever opens it connects.  The teams are the
map's placed characters, or a team file per side entering the map's first two
start zones (``sodwa simulate --teams``), with each side's point total.

The run is made by the ``runner`` the dialog is given, by default
:class:`.runner.BalanceRun` (``sodwa simulate``'s engine call, off the GUI
thread).  The plots are the HTML report's own figure functions
(:data:`~sodwa_editor.battle.report_html.FIGURES`) on matplotlib's Qt canvas.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from matplotlib.backends.backend_qtagg import FigureCanvasQTAgg
from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QCloseEvent, QShowEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from ...battle.ai import CONTROLLERS
from ...battle.ai.profile import load_profile
from ...battle.batch import MAX_BATTLES, available_cores
from ...battle.jsonfiles import BattleInputError, read_json
from ...battle.report import TILE_KINDS, TILE_TITLES
from ...battle.report_html import FIGURES, render
from ...battle.rules import Rules, load_rules
from ...battle.setup import BattleSetup
from ...battle.sheet import DEFAULT_ROSTER_PATH, Roster, roster_from_dict
from ...battle.teams import combatants_from_map, team_cost, teams_from_files
from .runner import BalanceRun, RunSettings, format_seconds, time_left

if TYPE_CHECKING:
    from ..document import Document

#: what makes a run: (setup, settings, parent) -> a run with BalanceRun's signals
Runner = Callable[[BattleSetup, RunSettings, Any], BalanceRun]
FIGURE_TABS = ("Outcomes", "Length", "Characters", "Luck && karma", "Tiles")
DEFAULT_AI = "greedy"


def pct(rate: dict[str, Any]) -> str:
    lo, hi = rate["ci95"]
    return f"{100 * rate['rate']:.1f} % ({100 * lo:.1f}-{100 * hi:.1f})"


class BalanceDialog(QDialog):
    """The Balance Run dialog on ``document`` (one per main window, kept between
    runs).  ``heat_map_requested(report, kind)``: draw the run's per-tile counts on
    the map; ``message(text)``: a line for the window's status bar."""

    heat_map_requested = Signal(object, str)
    message = Signal(str)

    def __init__(self, document: Document, parent: QWidget | None = None, *,
                 runner: Runner = BalanceRun) -> None:
        super().__init__(parent)
        self.document = document
        self.runner = runner
        self._roster: Roster | None = None  # the shipped roster, for the point totals
        self.setWindowTitle("Balance Run")
        self.run: BalanceRun | None = None
        self.records: list[dict[str, Any]] | None = None
        self.report: dict[str, Any] | None = None
        self.map_changed = False  # edited since the run started: no heat map of it
        self.running_text = ""  # the status line of the run under way
        self.notices: list[str] = []  # the run's lost workers, replaced
        self.canvases: list[FigureCanvasQTAgg] = []
        lay = QVBoxLayout(self)
        lay.addLayout(self._build_form())
        self.problem = QLabel("")
        self.problem.setObjectName("balance_problem")
        self.problem.setWordWrap(True)
        self.problem.setStyleSheet("color: #b00020")
        lay.addWidget(self.problem)
        self.progress = QProgressBar()
        self.progress.setFormat("%v / %m battles")
        self.eta = QLabel("")
        self.status = QLabel("The map as it stands in the editor, unsaved edits included.")
        self.status.setWordWrap(True)
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
        lay.addWidget(self.status)
        self.tabs = QTabWidget()
        self.outcomes = QTableWidget(0, 2)
        self.outcomes.setHorizontalHeaderLabels(["", "rate (95 % Wilson interval)"])
        self.characters = QTableWidget(0, 9)
        self.characters.setHorizontalHeaderLabels(
            ["character", "side", "cost", "dealt", "taken", "kills", "survival",
             "hits", "expected hits"])
        summary = QWidget()
        sl = QVBoxLayout(summary)
        sl.addWidget(self.outcomes)
        sl.addWidget(self.characters, 1)
        self.tabs.addTab(summary, "Table")
        lay.addWidget(self.tabs, 1)
        row = QHBoxLayout()
        self.heat_kind = QComboBox()
        for kind in TILE_KINDS:
            self.heat_kind.addItem(TILE_TITLES[kind].capitalize(), kind)
        self.heat_button = QPushButton("Show on &Map")
        self.heat_button.setToolTip("Draw the run's per-tile counts over the map (Layers dock)")
        self.heat_button.clicked.connect(self.show_heat_map)
        self.export_button = QPushButton("&Export HTML...")
        self.export_button.setToolTip("The same HTML report as sodwa simulate --report")
        self.export_button.clicked.connect(self.export_html)
        row.addWidget(QLabel("Heat map:"))
        row.addWidget(self.heat_kind)
        row.addWidget(self.heat_button)
        row.addStretch(1)
        row.addWidget(self.export_button)
        lay.addLayout(row)
        self._set_result_enabled(False)
        document.edited.connect(self._on_map_changed)
        document.model_replaced.connect(self._on_map_changed)
        self.resize(860, 720)

    def _build_form(self) -> QFormLayout:
        form = QFormLayout()
        self.battles = QSpinBox()
        self.battles.setRange(1, MAX_BATTLES)
        self.battles.setValue(100)
        form.addRow("&Battles:", self.battles)
        self.ai: list[QComboBox] = []
        for team in (0, 1):
            box = QComboBox()
            box.addItems(sorted(CONTROLLERS))
            box.setCurrentText(DEFAULT_AI)
            form.addRow(f"AI of team &{team}:", box)
            self.ai.append(box)
        self.swap = QCheckBox("Every other battle with the sides swapped (same dice)")
        form.addRow("", self.swap)
        self.workers = QSpinBox()
        self.workers.setRange(1, available_cores())  # (as sodwa simulate without
        self.workers.setValue(min(2, available_cores()))  # --oversubscribe)
        form.addRow("&Workers:", self.workers)
        self.seed = QSpinBox()
        self.seed.setRange(0, 2**31 - 1)
        form.addRow("&Seed:", self.seed)
        self.rules, browse_rules = self._file_row(
            form, "Rules file:", "default rules (resources/rules.json)", "Rules File")
        self.profile, browse_profile = self._file_row(
            form, "AI profile:", "shipped profile (resources/ai-profile.json)",
            "AI Profile")
        self.team_files: list[QLineEdit] = []
        self.team_points: list[QLabel] = []
        browse_teams = []
        for team in (0, 1):
            points = QLabel("")
            points.setObjectName(f"balance_points_{team}")
            edit, browse = self._file_row(form, f"Team {team} file:",
                                          "the map's placed characters", "Team File", points)
            edit.textChanged.connect(self.refresh_teams)
            self.team_files.append(edit)
            self.team_points.append(points)
            browse_teams.append(browse)
        self.rules.textChanged.connect(self.refresh_teams)
        self.inputs: list[QWidget] = [self.battles, *self.ai, self.swap, self.workers,
                                      self.seed, self.rules, browse_rules, self.profile,
                                      browse_profile, *self.team_files, *browse_teams]
        return form

    def _file_row(self, form: QFormLayout, label: str, placeholder: str,
                  title: str, extra: QWidget | None = None) -> tuple[QLineEdit, QPushButton]:
        """A file name box with a browse button (empty: the shipped default)."""
        row = QHBoxLayout()
        edit = QLineEdit()
        edit.setPlaceholderText(placeholder)
        browse = QPushButton("...")

        def choose() -> None:
            path, _ = QFileDialog.getOpenFileName(self, title, "", "JSON (*.json)")
            if path:
                edit.setText(path)

        browse.clicked.connect(choose)
        row.addWidget(edit, 1)
        row.addWidget(browse)
        if extra is not None:
            row.addWidget(extra)
        form.addRow(label, row)
        return edit, browse

    # ----------------------------------------------------------------- teams
    def _rules(self) -> Rules:
        text = self.rules.text().strip()
        return load_rules(Path(text) if text else None)

    def _team_paths(self) -> list[Path] | None:
        """The team files (None: the map's placed characters); one line if only one
        side has one."""
        files = [e.text().strip() for e in self.team_files]
        if not any(files):
            return None
        if not all(files):
            raise BattleInputError("give a team file for both teams, or neither (the map's "
                                   "placed characters)")
        return [Path(f) for f in files]

    def refresh_teams(self, *_args: object) -> None:
        """Each side's point total (against the rules' cap) and why no run can start
        from the teams given, in one line."""
        model = self.document.model
        if self._roster is None:
            self._roster = roster_from_dict(read_json(DEFAULT_ROSTER_PATH),
                                            str(DEFAULT_ROSTER_PATH))
        roster = self._roster
        problem = ""
        try:
            cap = self._rules().battle.point_cap
        except BattleInputError as exc:
            cap, problem = None, str(exc)
        costs: list[int | None] = [None, None]
        try:
            paths = self._team_paths()
            if paths is None:
                sides = sorted({c.team for c in model.characters.values()})
                placed = combatants_from_map(model, roster)
                costs = [team_cost(c.sheet for c in placed if c.side == side) for side in sides]
                costs += [None] * (2 - len(costs))
            else:
                teams, _docs = teams_from_files(model, paths, roster)
                costs = [team_cost(t) for _z, t, _f in teams]
        except BattleInputError as exc:
            problem = problem or str(exc)
        for label, cost in zip(self.team_points, costs, strict=False):
            over = cost is not None and cap is not None and cost > cap
            text = "?" if cost is None else str(cost)
            label.setText(f"{text} / {cap} points" if cap else f"{text} points")
            label.setStyleSheet("color: #b00020" if over else "")
        self.problem.setText(problem)

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802
        self.refresh_teams()
        super().showEvent(event)

    # ------------------------------------------------------------------ run
    def settings(self) -> RunSettings:
        return RunSettings(self.battles.value(), self.seed.value(), self.swap.isChecked(),
                           self.workers.value())

    def make_setup(self) -> BattleSetup:
        """The setup of the open map as it stands (a copy: the run never touches the
        document), the chosen rules, AIs and AI profile (both teams' AIs play by it,
        as ``sodwa simulate --ai-profile FILE``); bad input raises BattleInputError."""
        rules = self._rules()
        text = self.profile.text().strip()
        profiles = [load_profile(Path(text))] * 2 if text else None
        model = self.document.model.copy()
        paths = self._team_paths()
        roster = teams = docs = None
        if paths is not None:
            roster_doc = read_json(DEFAULT_ROSTER_PATH)
            roster = roster_from_dict(roster_doc, str(DEFAULT_ROSTER_PATH))
            teams, team_docs = teams_from_files(model, paths, roster)
            docs = {"roster": roster_doc, "teams": team_docs}
        return BattleSetup.from_map(model, rules=rules, roster=roster, teams=teams, docs=docs,
                                    ai=[box.currentText() for box in self.ai],
                                    profiles=profiles)

    def start(self) -> None:
        if self.run is not None:
            return
        try:
            setup = self.make_setup()
        except BattleInputError as exc:
            self.status.setText(f"Cannot run: {exc}")
            return
        self.setup = setup
        self.map_changed = False
        s = self.settings()
        self.progress.setRange(0, s.battles)
        self.progress.setValue(0)
        self.eta.setText(format_seconds(None))
        self.running_text = f"Running {s.battles} battle(s) on {s.workers} worker(s)..."
        self.notices = []
        self.status.setText(self.running_text)
        self._set_running(True)
        self.run = self.runner(setup, s, self)
        self.run.progressed.connect(self._on_progress)
        self.run.noticed.connect(self._on_notice)
        self.run.succeeded.connect(self._on_done)
        self.run.cancelled.connect(lambda: self._finish("Cancelled."))
        self.run.failed.connect(lambda msg: self._finish(f"Failed: {msg}"))
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
        self.show_report(report)

    def _finish(self, text: str) -> None:
        run, self.run = self.run, None
        if run is not None:
            run.wait()
        self.status.setText(text)
        self.eta.setText("")
        self._set_running(False)

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

    # --------------------------------------------------------------- result
    def show_report(self, report: dict[str, Any]) -> None:
        """The table and one tab per plot of ``report``."""
        rows = [(f"team {s['team']} ({s['side']}) wins", pct(s["wins"]))
                for s in report["sides"]]
        rows.append(("draws", pct(report["draws"])))
        if report.get("swap_note"):
            rows.append(("sides", f"{report['swap_note']}; each battle has its own seed"))
        if report["swap_sides"]:
            rows += [(f"AI #{a['entry'] + 1} {a['ai']} wins", pct(a["wins"]))
                     for a in report["ai_wins"]]
        rows.append(("first mover wins", pct(report["first_mover"]["wins"])))
        t, k = report["length"]["turns"], report["length"]["ticks"]
        rows.append(("length (turns)", f"median {t['median']}, p95 {t['p95']}, "
                                       f"{t['min']}-{t['max']}"))
        rows.append(("length (ticks)", f"median {k['median']}, p95 {k['p95']}"))
        for lk in report["luck"]:
            rows.append((f"{lk['side']} natural hits", f"{lk['hits']} vs expected "
                                                        f"{lk['expected_hits']:.1f}"))
        fill(self.outcomes, rows)
        fill(self.characters, [
            (c["id"], c["side"], c["cost"], f"{c['damage_dealt']:.1f}",
             f"{c['damage_taken']:.1f}", f"{c['kills']:.2f}", pct(c["survival"]), c["hits"],
             f"{c['expected_hits']:.1f}") for c in report["characters"]])
        while self.tabs.count() > 1:
            page = self.tabs.widget(1)
            self.tabs.removeTab(1)
            if page is not None:
                page.deleteLater()
        self.canvases = []
        for make, title in zip(FIGURES, FIGURE_TABS, strict=True):
            canvas = FigureCanvasQTAgg(make(report))
            self.canvases.append(canvas)
            self.tabs.addTab(canvas, title)
        self._set_result_enabled(True)
        self.heat_button.setEnabled(not self.map_changed)

    def show_heat_map(self) -> None:
        if self.report is None or self.map_changed:
            return
        kind = self.heat_kind.currentData()
        self.heat_map_requested.emit(self.report, kind)
        self.message.emit(f"Heat map: {TILE_TITLES[kind]} ({self.report['battles']} "
                          "battles); Layers dock to hide or clear it")

    def html_report(self) -> dict[str, Any]:
        """The report as ``sodwa simulate`` puts it in the HTML file (with its map)."""
        assert self.report is not None
        from ...battle.replay import digest
        from ...io import map_to_dict

        d = self.document
        name = str(d.path) if d.path is not None else d.display_name()
        return {"map": name, "map_hash": digest(map_to_dict(self.setup.model)), **self.report}

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


def fill(table: QTableWidget, rows: list[tuple[Any, ...]]) -> None:
    table.setRowCount(len(rows))
    for r, row in enumerate(rows):
        for c, value in enumerate(row):
            item = QTableWidgetItem(str(value))
            item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsEditable)
            table.setItem(r, c, item)
    table.resizeColumnsToContents()
