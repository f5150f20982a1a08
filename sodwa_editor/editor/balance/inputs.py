"""The Balance Run dialog's inputs (:mod:`.dialog`): battles, the AI of each team,
swapped sides, workers, seed, the verdict's threshold, the rules and AI profile
files and a team file per side (or the map's placed characters) with each side's
point total, and the problem that keeps a run from starting, in one line.

:class:`RunForm` takes the document (read, never written) and makes the run's
:class:`~sodwa_editor.battle.setup.BattleSetup` from the map as it stands.  A
problem of any length scrolls in a box of :data:`PROBLEM_LINES` lines: the rows
above it keep their height.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from ...battle.ai import CONTROLLERS
from ...battle.ai.profile import load_profile
from ...battle.batch import MAX_BATTLES, available_cores
from ...battle.jsonfiles import BattleInputError
from ...battle.report_verdict import DEFAULT_THRESHOLD, MAX_THRESHOLD, MIN_THRESHOLD
from ...battle.rules import Rules, load_rules
from ...battle.scenario import scenario_setup
from ...battle.setup import BattleSetup
from ...battle.teams import combatants_from_map, team_cost, teams_from_files
from ...io.scenarios import scenarios_in_file
from ..dialogs import text_box
from ..roster import UsedRoster, scenario_roster, shipped_roster
from ..roster_in_use import roster_line

if TYPE_CHECKING:
    from ..document import Document
    from ..roster_in_use import RosterInUse

DEFAULT_AI = "greedy"
#: lines of text the problem box shows before it scrolls
PROBLEM_LINES = 2


def stored_threshold(value: object) -> int:
    """The threshold kept in the settings, or the default for a missing or broken one."""
    try:
        number = int(str(value))
    except ValueError:
        return DEFAULT_THRESHOLD
    return min(MAX_THRESHOLD, max(MIN_THRESHOLD, number))


class RunForm(QWidget):
    """The inputs of a balance run on ``document`` (see the module docstring)."""

    def __init__(self, document: Document, threshold: int = DEFAULT_THRESHOLD,
                 parent: QWidget | None = None, *,
                 roster_in_use: RosterInUse | None = None) -> None:
        super().__init__(parent)
        self.document = document
        #: the roster the battles play with (and the point totals count): the roster
        #: in use, or a pack's scenario's pack roster
        self.roster_in_use = roster_in_use
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        self.rows = form = QFormLayout()
        lay.addLayout(form)
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
        self.threshold = QSpinBox()
        self.threshold.setObjectName("balance_threshold")
        self.threshold.setRange(MIN_THRESHOLD, MAX_THRESHOLD)
        self.threshold.setPrefix("50 ± ")
        self.threshold.setSuffix(" %")
        self.threshold.setToolTip(
            "The verdict: the leading side's share of the decided battles is balanced when "
            "its 95 % interval lies within 50 ± this, unbalanced when it lies wholly "
            "outside, else not clear yet (run more battles)")
        self.threshold.setValue(threshold)
        form.addRow("Balanced &within:", self.threshold)
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
        self.scenario, browse_scenario = self._file_row(
            form, "Scenario:", "none (a scenario file, or PACK.json#NAME)",
            "Scenario or Map Pack")
        self.scenario.setToolTip("A scenario on this map (a scenario file, a map pack with "
                                 "one, or PACK.json#NAME): its sides, formations, zones, "
                                 "rules variant and cap replace the team files; the AIs and "
                                 "a rules or AI profile file chosen here replace its own")
        self.scenario.textChanged.connect(self.refresh_teams)
        self.rules.textChanged.connect(self.refresh_teams)
        self.inputs: list[QWidget] = [self.battles, *self.ai, self.swap, self.workers,
                                      self.seed, self.rules, browse_rules, self.profile,
                                      browse_profile, *self.team_files, *browse_teams,
                                      self.scenario, browse_scenario]
        self.roster_label = roster_line("balance_roster")
        form.addRow("Roster:", self.roster_label)
        if roster_in_use is not None:
            roster_in_use.changed.connect(self.refresh_teams)
        self.problem = QLabel("")
        self.problem.setObjectName("balance_problem")
        self.problem.setStyleSheet("color: #b00020")
        self.problem_box = text_box(self.problem, PROBLEM_LINES, "balance_problem_box")
        self.problem_box.hide()  # (shown with a problem)
        lay.addWidget(self.problem_box)

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
    def rules_file(self) -> Rules:
        text = self.rules.text().strip()
        return load_rules(Path(text) if text else None)

    def team_paths(self) -> list[Path] | None:
        """The team files (None: the map's placed characters); one line if only one
        side has one."""
        files = [e.text().strip() for e in self.team_files]
        if not any(files):
            return None
        if not all(files):
            raise BattleInputError("give a team file for both teams, or neither (the map's "
                                   "placed characters)")
        return [Path(f) for f in files]

    def scenario_doc(self) -> dict[str, Any] | None:
        """The scenario chosen (None: none), on the open map; one line when the file
        holds none on this map."""
        text = self.scenario.text().strip()
        if not text:
            return None
        base, _, name = text.partition("#")
        found = scenarios_in_file(Path(base), self.document.model.name)
        names = [s["name"] for s in found]
        if name in names:
            return found[names.index(name)]
        if not name and len(found) == 1:
            return found[0]
        raise BattleInputError(
            f"{base}: " + (f"no scenario {name!r} on the map {self.document.model.name!r}"
                           if name else f"name one of its scenarios on this map as {base}#NAME")
            + f" (it has: {', '.join(map(repr, names))})")

    def used_roster(self) -> UsedRoster:
        """The roster of the run: the pack's of a map pack's scenario (or of a scenario
        file on ``PACK.json#MAP``), else the roster in use; one line when the scenario's
        file cannot be read."""
        fallback = self.roster_in_use.current if self.roster_in_use is not None \
            else shipped_roster()
        text = self.scenario.text().strip()
        return scenario_roster(Path(text.partition("#")[0]), fallback) if text else fallback

    def _show_roster(self) -> None:
        try:
            label = self.used_roster().label
        except BattleInputError:
            label = "? (the scenario's file cannot be read)"
        self.roster_label.setText(label)

    def refresh_teams(self, *_args: object) -> None:
        """Each side's point total (against the rules' cap) and why no run can start
        from the teams given, in one line."""
        self._show_roster()
        has_scenario = bool(self.scenario.text().strip())
        for edit in self.team_files:
            edit.setEnabled(not has_scenario)
        if has_scenario:
            self._refresh_scenario()
            return
        model = self.document.model
        roster = self.used_roster().roster
        problem = ""
        try:
            cap = self.rules_file().battle.point_cap
        except BattleInputError as exc:
            cap, problem = None, str(exc)
        costs: list[int | None] = [None, None]
        try:
            paths = self.team_paths()
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
        self.problem_box.setVisible(bool(problem))

    def file_names(self) -> dict[str, list[str]]:
        """The team and profile files by name, for the report's entries (as ``sodwa
        simulate`` names them)."""
        names = {}
        teams = [e.text().strip() for e in self.team_files]
        if all(teams):
            names["team_file"] = [Path(t).name for t in teams]
        if self.profile.text().strip():
            names["profile"] = [Path(self.profile.text().strip()).name]
        return names

    def make_setup(self) -> BattleSetup:
        """The setup of the open map as it stands (a copy: the run never touches the
        document), the chosen rules, AIs and AI profile (both teams' AIs play by it,
        as ``sodwa simulate --ai-profile FILE``); bad input raises BattleInputError."""
        rules = self.rules_file()
        text = self.profile.text().strip()
        profiles = [load_profile(Path(text))] * 2 if text else None
        model = self.document.model.copy()
        scenario = self.scenario_doc()
        used = self.used_roster()
        if scenario is not None:
            return scenario_setup(
                scenario, model, used.roster,
                roster_doc=used.doc, source=self.scenario.text().strip(),
                rules=rules if self.rules.text().strip() else None,
                ai=[box.currentText() for box in self.ai], profiles=profiles)
        paths = self.team_paths()
        teams = None
        docs: dict[str, Any] = {"roster": used.doc}
        if paths is not None:
            teams, docs["teams"] = teams_from_files(model, paths, used.roster)
        return BattleSetup.from_map(model, rules=rules, roster=used.roster, teams=teams,
                                    docs=docs,
                                    ai=[box.currentText() for box in self.ai],
                                    profiles=profiles)

    def _refresh_scenario(self) -> None:
        """The scenario's sides' point totals against its cap, or why it cannot run."""
        problem = ""
        costs: list[int | None] = [None, None]
        cap = None
        try:
            setup = self.make_setup()
            cap = setup.rules.battle.point_cap
            if setup.teams is not None:
                costs = [team_cost(t) for _z, t, _f in setup.teams]
            else:
                placed = combatants_from_map(setup.model, setup.roster)
                costs = [team_cost(c.sheet for c in placed if c.team == t) for t in (0, 1)]
        except BattleInputError as exc:
            problem = str(exc)
        for label, cost in zip(self.team_points, costs, strict=True):
            text = "?" if cost is None else str(cost)
            label.setText(f"{text} / {cap} points" if cap else f"{text} points")
            label.setStyleSheet("")
        self.problem.setText(problem)
        self.problem_box.setVisible(bool(problem))
