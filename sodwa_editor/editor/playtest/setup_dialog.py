"""The playtest setup: per team the controller (Human or an AI) and the team (the
map's placed characters, or a team file into a start zone), the rules file, an
optional point cap and the seed; the roster it plays with is shown (the roster in
use, :mod:`..roster_in_use`, or a map pack's scenario's pack roster).

:func:`build_setup` turns a :class:`PlaytestChoice` into a checked
:class:`~sodwa_editor.battle.setup.BattleSetup`, or raises the battle package's
one-line :class:`~sodwa_editor.battle.jsonfiles.BattleInputError` (the same
wording ``sodwa battle`` prints), which the dialog shows and refuses to start on.
"""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QLayout,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from ...battle.ai import CONTROLLERS
from ...battle.describe import side_label
from ...battle.jsonfiles import BattleInputError, read_json
from ...battle.rules import DEFAULT_RULES_PATH, Rules, load_rules
from ...battle.scenario import playtest_controllers, scenario_setup
from ...battle.setup import HUMAN, BattleSetup
from ...battle.sheet import Roster
from ...battle.teams import Team, combatants_from_map, load_team, team_cost
from ...engine.model import MapModel
from ...io.scenarios import scenarios_in_file
from ..dialogs import text_box
from ..roster import UsedRoster, scenario_roster, shipped_roster
from ..roster_in_use import roster_line

if TYPE_CHECKING:
    from ..roster_in_use import RosterInUse

#: controller names offered, Human first
CONTROLLER_CHOICES = (HUMAN, *sorted(CONTROLLERS))
MAX_SEED = 2**31 - 1


@dataclass
class PlaytestChoice:
    """What the setup dialog chose (plain data: tests build it directly).

    ``team_files[t]`` None: team ``t`` is the map's placed characters; else the team
    file entering start zone ``zones[t]``.  ``cap`` None: the rules' point cap."""

    controllers: tuple[str, str] = (HUMAN, "greedy")
    team_files: tuple[Path | None, Path | None] = (None, None)
    zones: tuple[str | None, str | None] = (None, None)
    rules_path: Path | None = None
    cap: int | None = None
    seed: int = field(default_factory=lambda: random.randint(0, MAX_SEED))
    #: a scenario document (Tools > Scenario Editor's Play): its sides, rules and
    #: cap; ``controllers`` then say who plays each team (team 0 first)
    scenario: dict[str, Any] | None = None
    #: the roster the battle plays with (None: the shipped one): the roster in use,
    #: or the pack's roster of a pack's scenario
    roster: UsedRoster | None = None
    #: the file the scenario came from (a pack, a scenario file): the setup reads its
    #: pack's roster again when shown, so a roster saved into the pack since is played
    scenario_file: Path | None = None


def ai_names(controllers: tuple[str, str]) -> tuple[str, str]:
    """The setup's AI names (a Human side keeps ``pass`` as its placeholder: the
    session asks the person instead)."""
    a, b = (("pass" if c == HUMAN else c) for c in controllers)
    return a, b


def load_playtest_rules(choice: PlaytestChoice) -> tuple[Rules, dict[str, Any]]:
    path = choice.rules_path or DEFAULT_RULES_PATH
    rules = load_rules(path)
    if choice.cap is not None:
        rules = dataclasses.replace(rules, battle=dataclasses.replace(rules.battle,
                                                                       point_cap=choice.cap))
    return rules, {"rules_path": str(path)}


def build_setup(model: MapModel, choice: PlaytestChoice) -> BattleSetup:
    """The checked battle setup of ``choice`` on ``model`` (an in-memory copy of
    the document's map).  Raises :class:`BattleInputError` with one line."""
    for name in choice.controllers:
        if name not in CONTROLLER_CHOICES:
            raise BattleInputError(f"unknown controller {name!r} (known: "
                                   f"{', '.join(CONTROLLER_CHOICES)})")
    used = choice.roster if choice.roster is not None else shipped_roster()
    roster_doc, roster = used.doc, used.roster
    if choice.scenario is not None:
        setup = scenario_setup(choice.scenario, model, roster, roster_doc=roster_doc,
                               source=f"scenario {choice.scenario.get('name', '')!r}",
                               ai=ai_names(choice.controllers))
        setup.state(choice.seed)
        return setup
    rules, docs = load_playtest_rules(choice)
    docs["roster"] = roster_doc
    files = choice.team_files
    teams = None
    # a team file that cannot be read says so first (its JSON error, its problem),
    # before whether the two teams can meet
    loaded = {t: load_team(path, roster) for t, path in enumerate(files) if path is not None}
    if loaded:
        if len(loaded) < len(files):
            raise BattleInputError("one team from the map and one from a team file cannot "
                                   "meet: choose a team file for both teams, or neither")
        sides: list[tuple[str, Team, str | None]] = []
        team_docs = []
        for t, path in enumerate(files):
            assert path is not None
            zone = choice.zones[t]
            if not zone:
                raise BattleInputError(f"team {t}: choose the start zone its team enters")
            sides.append((zone, loaded[t], None))
            team_docs.append(read_json(path))
        teams = sides
        docs["teams"] = team_docs
    setup = BattleSetup.from_map(model, rules=rules, roster=roster,
                                 ai=ai_names(choice.controllers), teams=teams, docs=docs)
    setup.state(choice.seed)  # the characters' tiles are checked when a battle starts
    return setup


def map_sides(model: MapModel) -> list[str]:
    """The map's character teams in battle order (team 0 first)."""
    return sorted({c.team for c in model.characters.values()})


class TeamBox(QGroupBox):
    """One team's controller, team source and point total; its title names the side
    as everywhere (``attackers (team 0)``: its start zone, its number from 0)."""

    def __init__(self, index: int, dialog: SetupDialog) -> None:
        super().__init__(side_label(None, index))
        self.index, self.dialog = index, dialog
        self.team_file: Path | None = None
        form = QFormLayout(self)
        self.controller = QComboBox()
        for name in CONTROLLER_CHOICES:
            self.controller.addItem("Human" if name == HUMAN else f"AI: {name}", name)
        self.controller.setCurrentIndex(0 if index == 0 else CONTROLLER_CHOICES.index("greedy"))
        form.addRow("Controller", self.controller)
        row = QHBoxLayout()
        self.source = QLabel()
        self.pick = QPushButton("Team File...")
        self.pick.clicked.connect(self._pick)
        self.placed = QPushButton("Placed")
        self.placed.setToolTip("The map's placed characters of this team")
        self.placed.clicked.connect(lambda: self.set_team_file(None))
        row.addWidget(self.source, 1)
        row.addWidget(self.placed)
        row.addWidget(self.pick)
        holder = QWidget()
        holder.setLayout(row)
        form.addRow("Team", holder)
        self.zone = QComboBox()
        self.zone.addItems(sorted(dialog.model.start_zones))
        if index < self.zone.count():
            self.zone.setCurrentIndex(index)
        form.addRow("Start zone", self.zone)
        self.points = QLabel()
        form.addRow("Points", self.points)
        self.controller.currentIndexChanged.connect(dialog.refresh)
        self.zone.currentIndexChanged.connect(dialog.refresh)
        self.set_team_file(None)

    def side(self) -> str | None:
        """The side's name: the zone its team file enters, else the map's team."""
        if self.team_file is not None:
            return self.zone.currentText() or None
        sides = map_sides(self.dialog.model)
        return sides[self.index] if self.index < len(sides) else None

    def _pick(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Team File", "", "Team files (*.json)")
        if path:
            self.set_team_file(Path(path))

    def set_team_file(self, path: Path | None) -> None:
        self.team_file = path
        sides = map_sides(self.dialog.model)
        if path is None:
            side = sides[self.index] if self.index < len(sides) else "(none)"
            self.source.setText(f"placed on the map: {side}")
        else:
            self.source.setText(path.name)
        self.zone.setEnabled(path is not None)
        self.dialog.refresh()

    def cost(self) -> int | None:
        """The team's point total, None when it cannot be read."""
        d = self.dialog
        try:
            if self.team_file is not None:
                return team_cost(load_team(self.team_file, d.roster()))
            sides = map_sides(d.model)
            if self.index >= len(sides):
                return None
            side = sides[self.index]
            return team_cost(c.sheet for c in combatants_from_map(d.model, d.roster())
                             if c.side == side)
        except BattleInputError:
            return None


class SetupDialog(QDialog):
    """Playtest setup (see the module docstring); :attr:`choice` after accept."""

    def __init__(self, model: MapModel, parent: QWidget | None = None,
                 choice: PlaytestChoice | None = None, *,
                 roster_in_use: RosterInUse | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("playtest_setup")
        self.setWindowTitle("Playtest")
        self.model = model
        self.roster_in_use = roster_in_use
        #: the pack roster a map pack's scenario plays with (None: the roster in use)
        self.scenario_roster: UsedRoster | None = None
        self.scenario_file: Path | None = None
        self.rules_path: Path | None = None
        self.setup: BattleSetup | None = None
        lay = QVBoxLayout(self)
        # never smaller than its rows: a long problem cannot squash the team boxes
        lay.setSizeConstraint(QLayout.SizeConstraint.SetMinimumSize)
        self._refreshing = True
        rules_row = QHBoxLayout()
        self.rules_label = QLabel()
        choose = QPushButton("Rules File...")
        choose.clicked.connect(self._pick_rules)
        rules_row.addWidget(QLabel("Rules"))
        rules_row.addWidget(self.rules_label, 1)
        rules_row.addWidget(choose)
        self.rules_button = choose
        #: a scenario (a scenario file's or a map pack's on this map): its sides, rules
        #: and cap replace the rows below; the controllers stay the person's choice
        self.scenario: dict[str, Any] | None = None
        scenario_row = QHBoxLayout()
        self.scenario_label = QLabel()
        self.scenario_label.setObjectName("playtest_scenario")
        pick_scenario = QPushButton("Scenario...")
        pick_scenario.setObjectName("playtest_pick_scenario")
        pick_scenario.clicked.connect(lambda: self.pick_scenario())
        no_scenario = QPushButton("None")
        no_scenario.setObjectName("playtest_no_scenario")
        no_scenario.clicked.connect(lambda: self.set_scenario(None))
        scenario_row.addWidget(QLabel("Scenario"))
        scenario_row.addWidget(self.scenario_label, 1)
        scenario_row.addWidget(pick_scenario)
        scenario_row.addWidget(no_scenario)
        lay.addLayout(scenario_row)
        lay.addLayout(rules_row)
        self.roster_label = roster_line("playtest_roster")
        lay.addWidget(self.roster_label)
        self.teams = [TeamBox(0, self), TeamBox(1, self)]
        for box in self.teams:
            lay.addWidget(box)
        form = QFormLayout()
        self.cap = QSpinBox()
        self.cap.setRange(0, 1_000_000)
        self.cap.setSpecialValueText("the rules' cap")
        self.cap.valueChanged.connect(self.refresh)
        form.addRow("Point cap", self.cap)
        seed_row = QHBoxLayout()
        self.seed = QSpinBox()
        self.seed.setRange(0, MAX_SEED)
        again = QPushButton("Random")
        again.clicked.connect(lambda: self.seed.setValue(random.randint(0, MAX_SEED)))
        seed_row.addWidget(self.seed, 1)
        seed_row.addWidget(again)
        form.addRow("Seed", seed_row)
        lay.addLayout(form)
        self.problem = QLabel()
        self.problem.setObjectName("playtest_problem")
        self.problem.setStyleSheet("color: #b00020")
        # a problem of any length scrolls in a box of four lines: the rows above it
        # keep their height whatever it says
        self.problem_box = text_box(self.problem, 4, "playtest_problem_box")
        lay.addWidget(self.problem_box)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Start")
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        self.buttons = buttons
        lay.addWidget(buttons)
        self._refreshing = False
        self.set_choice(choice or PlaytestChoice())
        if roster_in_use is not None:
            roster_in_use.changed.connect(self._roster_changed)

    # ----------------------------------------------------------------- state
    def used_roster(self) -> UsedRoster:
        """The roster the battle plays with: a pack's scenario's pack roster, else the
        roster in use (the shipped one without a model of it)."""
        if self.scenario is not None and self.scenario_roster is not None:
            return self.scenario_roster
        return self.roster_in_use.current if self.roster_in_use is not None \
            else shipped_roster()

    def roster(self) -> Roster:
        return self.used_roster().roster

    def _reload_scenario_roster(self) -> None:
        """The pack roster of the scenario's file as it is now (a roster saved into the
        pack since it was chosen: that one); one line when it can no longer be read."""
        if self.scenario_file is None:
            return
        fallback = self.roster_in_use.current if self.roster_in_use is not None \
            else shipped_roster()
        try:
            pack = scenario_roster(self.scenario_file, fallback)
        except BattleInputError as exc:
            self.problem.setText(str(exc))
            return
        self.scenario_roster = pack if pack is not fallback else None

    def _roster_changed(self) -> None:
        self._reload_scenario_roster()
        self.refresh()

    def set_choice(self, choice: PlaytestChoice) -> None:
        self._refreshing = True
        for box, name, path, zone in zip(self.teams, choice.controllers, choice.team_files,
                                         choice.zones, strict=True):
            box.controller.setCurrentIndex(CONTROLLER_CHOICES.index(name))
            box.set_team_file(path)
            if zone:
                box.zone.setCurrentText(zone)
        self.rules_path = choice.rules_path
        self.scenario_roster = choice.roster if choice.scenario is not None else None
        self.scenario_file = choice.scenario_file if choice.scenario is not None else None
        self._reload_scenario_roster()
        self.cap.setValue(choice.cap or 0)
        self.seed.setValue(choice.seed)
        self._refreshing = False
        self.set_scenario(choice.scenario, keep_controllers=True)

    def choice(self) -> PlaytestChoice:
        c0, c1 = (b.controller.currentData() for b in self.teams)
        f0, f1 = (b.team_file for b in self.teams)
        z0, z1 = (b.zone.currentText() or None if b.team_file else None for b in self.teams)
        return PlaytestChoice((c0, c1), (f0, f1), (z0, z1), self.rules_path,
                              self.cap.value() or None, self.seed.value(), self.scenario,
                              self.used_roster(), self.scenario_file)

    def set_scenario(self, doc: dict[str, Any] | None, *,
                     keep_controllers: bool = False) -> None:
        """Play ``doc`` (None: the rows below): its sides, rules and cap replace the
        team, rules and cap rows; who plays each team starts as the scenario says."""
        self.scenario = doc
        if doc is None:
            self.scenario_roster = self.scenario_file = None
        for box in self.teams:
            for w in (box.pick, box.placed, box.zone):
                w.setEnabled(doc is None and (w is not box.zone or box.team_file is not None))
        self.rules_button.setEnabled(doc is None)
        self.cap.setEnabled(doc is None)
        if doc is None:
            self.scenario_label.setText("none: the teams, rules and cap below")
        else:
            self.scenario_label.setText(f"{doc['name']} (its sides, rules and cap)")
            if not keep_controllers:
                try:
                    names = playtest_controllers(doc, self.model)
                except BattleInputError:
                    names = None
                for box, name in zip(self.teams, names or (), strict=False):
                    box.controller.setCurrentIndex(CONTROLLER_CHOICES.index(name))
        self.refresh()

    def _scenario_points(self) -> None:
        """Each team's points and cap as the scenario sets them up."""
        setup = self.setup
        for box in self.teams:
            box.setTitle(side_label(None, box.index))
            box.points.setText("?")
        if setup is None:
            return
        cap = setup.rules.battle.point_cap
        if setup.teams is not None:
            costs = [team_cost(t) for _z, t, _f in setup.teams]
            sides = [z for z, _t, _f in setup.teams]
        else:
            placed = combatants_from_map(setup.model, setup.roster)
            costs = [team_cost(c.sheet for c in placed if c.team == t) for t in (0, 1)]
            sides = map_sides(setup.model)
        for box, cost, side in zip(self.teams, costs, sides, strict=False):
            box.setTitle(side_label(side, box.index))
            box.points.setText(f"{cost} / {cap} cap" if cap else f"{cost} (no cap)")

    def pick_scenario(self, path: Path | None = None, name: str | None = None) -> bool:
        """Play a scenario of a file: a scenario file, or a map pack's scenario on this
        map (``name``, else chosen from its list); one line when there is none."""
        if path is None:
            text, _ = QFileDialog.getOpenFileName(self, "Scenario", "",
                                                  "Scenarios and map packs (*.json)")
            if not text:
                return False
            path = Path(text)
        try:
            found = scenarios_in_file(path, self.model.name)
            fallback = self.roster_in_use.current if self.roster_in_use is not None \
                else shipped_roster()
            pack = scenario_roster(path, fallback)
        except BattleInputError as exc:
            self.problem.setText(str(exc))
            return False
        names = [s["name"] for s in found]
        if name is None and len(found) > 1:
            name, ok = QInputDialog.getItem(self, "Scenario", "Scenario:", names, 0, False)
            if not ok:
                return False
        self.scenario_roster = pack if pack is not fallback else None
        self.scenario_file = path
        self.set_scenario(found[names.index(name)] if name in names else found[0])
        return True

    def _pick_rules(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Rules File", "", "Rules (*.json)")
        if path:
            self.rules_path = Path(path)
            self.refresh()

    def check(self) -> str | None:
        """Why no battle can start from the dialog's choice (one line), or None."""
        try:
            self.setup = build_setup(self.model, self.choice())
        except BattleInputError as exc:
            self.setup = None
            return str(exc)
        return None

    def refresh(self, *_args: object) -> None:
        if self._refreshing:
            return
        self.rules_label.setText(str(self.rules_path or DEFAULT_RULES_PATH.name))
        self.roster_label.setText(f"Roster: {self.used_roster().label}")
        try:
            cap = self.cap.value() or load_playtest_rules(self.choice())[0].battle.point_cap
        except BattleInputError:
            cap = None
        for box in self.teams:
            box.setTitle(side_label(box.side(), box.index))
            cost = box.cost()
            text = "?" if cost is None else str(cost)
            over = cost is not None and cap is not None and cost > cap
            box.points.setText(f"{text} / {cap} cap" if cap else f"{text} (no cap)")
            box.points.setStyleSheet("color: #b00020" if over else "")
        why = self.check()
        if self.scenario is not None:
            self._scenario_points()
        self.problem.setText(why or "")
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(why is None)

    def accept(self) -> None:
        """Start only from a setup a battle can start from."""
        why = self.check()
        if why is not None:
            self.problem.setText(why)
            return
        super().accept()
