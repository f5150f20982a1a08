"""One side of the scenario being made (:class:`SideBox`): where its characters come
from (the map's characters of one team, or a team file entering a start zone in one
of its formations), who plays it (a person or an AI, with an optional AI profile)
and its point total against the cap."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from PySide6.QtWidgets import (
    QComboBox,
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QWidget,
)

from ...battle.ai import CONTROLLERS
from ...battle.jsonfiles import BattleInputError, read_json, validate
from ...battle.scenario import DEFAULT_AI, scenario_rules
from ...battle.sheet import Roster
from ...battle.teams import team_cost, team_from_dict

if TYPE_CHECKING:
    from ..document import Document



class SideHost(Protocol):
    """What a side box needs of the dialog it sits in (the scenario dialog)."""

    document: Document

    @property
    def roster(self) -> Roster: ...
    def folder(self) -> str: ...
    def say(self, text: str, *, problem: bool = True) -> None: ...
    def refresh(self, *_args: object) -> None: ...
    def scenario(self) -> dict[str, Any]: ...

#: the source combo's entry for a team file (the map's teams come before it)
TEAM_FILE = "__team_file__"


class SideBox(QGroupBox):
    """Side ``index`` (0: team 0 as the scenario lists it)."""

    def __init__(self, index: int, dialog: SideHost) -> None:
        super().__init__(f"Side {index}")
        self.index, self.dialog = index, dialog
        self.setObjectName(f"scenario_side_{index}")
        self.team_doc: dict[str, Any] | None = None
        self.team_source = ""
        form = QFormLayout(self)
        self.label = QLineEdit()
        self.label.setPlaceholderText("how reports name the side (default: its team)")
        form.addRow("Label", self.label)
        self.source = QComboBox()
        self.source.setObjectName(f"scenario_source_{index}")
        form.addRow("Characters", self.source)
        team_row = QHBoxLayout()
        self.team_label = QLabel()
        self.pick = QPushButton("Team File...")
        self.pick.clicked.connect(lambda: self.pick_team())
        team_row.addWidget(self.team_label, 1)
        team_row.addWidget(self.pick)
        holder = QWidget()
        holder.setLayout(team_row)
        form.addRow("Team", holder)
        self.formation = QComboBox()
        self.formation.setObjectName(f"scenario_formation_{index}")
        form.addRow("Formation", self.formation)
        self.zone = QComboBox()
        self.zone.setObjectName(f"scenario_zone_{index}")
        form.addRow("Start zone", self.zone)
        self.controller = QComboBox()
        self.controller.setObjectName(f"scenario_controller_{index}")
        self.controller.addItem("Human", "human")
        self.controller.addItem("AI", "ai")
        self.controller.setCurrentIndex(0 if index == 0 else 1)
        form.addRow("Played by", self.controller)
        self.ai = QComboBox()
        self.ai.setObjectName(f"scenario_ai_{index}")
        for name in sorted(CONTROLLERS):
            self.ai.addItem(name, name)
        self.ai.setCurrentIndex(self.ai.findData(DEFAULT_AI))
        self.ai.setToolTip("the AI that plays the side (headless battles and the Balance "
                           "Run play a person's side by it too)")
        form.addRow("AI", self.ai)
        profile_row = QHBoxLayout()
        self.profile_doc: dict[str, Any] | None = None
        self.profile_label = QLabel("the default AI profile")
        pick_profile = QPushButton("AI Profile...")
        pick_profile.clicked.connect(lambda: self.pick_profile())
        profile_row.addWidget(self.profile_label, 1)
        profile_row.addWidget(pick_profile)
        holder2 = QWidget()
        holder2.setLayout(profile_row)
        form.addRow("AI profile", holder2)
        self.points = QLabel()
        form.addRow("Points", self.points)
        for combo in (self.source, self.formation, self.zone, self.controller, self.ai):
            combo.currentIndexChanged.connect(self._changed)
        self.label.editingFinished.connect(self._changed)
        self._quiet = False

    # ----------------------------------------------------------------- state
    def map_changed(self) -> None:
        """Offer the open map's teams and start zones (keeping the choices that still
        exist)."""
        model = self.dialog.document.model
        self._quiet = True
        chosen, zone = self.source.currentData(), self.zone.currentText()
        self.source.clear()
        teams = sorted({c.team for c in model.characters.values()})
        for t in teams:
            self.source.addItem(f"the map's characters of team {t}", t)
        self.source.addItem("a team file entering a start zone", TEAM_FILE)
        at = self.source.findData(chosen)
        self.source.setCurrentIndex(at if at >= 0 else min(self.index, len(teams)))
        self.zone.clear()
        self.zone.addItems(sorted(model.start_zones))
        if zone and self.zone.findText(zone) >= 0:
            self.zone.setCurrentText(zone)
        elif self.index < self.zone.count():
            self.zone.setCurrentIndex(self.index)
        self._quiet = False
        self._enable()

    def uses_team(self) -> bool:
        return self.source.currentData() == TEAM_FILE

    def _enable(self) -> None:
        team = self.uses_team()
        for w in (self.formation, self.zone):  # (Team File... always: it switches)
            w.setEnabled(team)
        self.team_label.setText(self.team_source if team and self.team_doc else
                                "(choose a team file)" if team else "-")

    def _changed(self, *_args: object) -> None:
        if not self._quiet:
            self._enable()
            self.dialog.refresh()

    def set_team(self, doc: dict[str, Any] | None, source: str = "") -> None:
        self.team_doc, self.team_source = doc, source
        self._quiet = True
        self.formation.clear()
        self.formation.addItem("(its first)", None)
        for f in (doc or {}).get("formations", []):
            self.formation.addItem(f["name"], f["name"])
        self._quiet = False
        self._changed()

    def pick_team(self, path: Path | None = None) -> bool:
        if path is None:
            name, _ = QFileDialog.getOpenFileName(self, "Team File", self.dialog.folder(),
                                                  "Team files (*.json)")
            if not name:
                return False
            path = Path(name)
        try:
            doc = read_json(path)
            validate(doc, "team", str(path))
        except BattleInputError as exc:
            self.dialog.say(str(exc))
            return False
        at = self.source.findData(TEAM_FILE)
        self.source.setCurrentIndex(at)
        self.set_team(doc, f"{path.name} ({doc['name']}, embedded)")
        return True

    def pick_profile(self, path: Path | None = None) -> bool:
        if path is None:
            name, _ = QFileDialog.getOpenFileName(self, "AI Profile", self.dialog.folder(),
                                                  "AI profiles (*.json)")
            if not name:
                return False
            path = Path(name)
        try:
            doc = read_json(path)
            validate(doc, "ai-profile", str(path))
        except BattleInputError as exc:
            self.dialog.say(str(exc))
            return False
        self.profile_doc = doc
        self.profile_label.setText(f"{path.name} (embedded)")
        self.dialog.refresh()
        return True

    def side_doc(self) -> dict[str, Any]:
        """The side as the scenario document gives it."""
        out: dict[str, Any] = {}
        if self.label.text().strip():
            out["label"] = self.label.text().strip()
        if self.uses_team():
            if self.team_doc is not None:
                out["team"] = self.team_doc
            if self.formation.currentData():
                out["formation"] = self.formation.currentData()
            if self.zone.currentText():
                out["zone"] = self.zone.currentText()
        elif self.source.currentData() is not None:
            out["map_team"] = self.source.currentData()
        out["controller"] = self.controller.currentData()
        out["ai"] = self.ai.currentData()
        if self.profile_doc is not None:
            out["ai_profile"] = self.profile_doc
        return out

    def set_side(self, side: dict[str, Any]) -> None:
        self._quiet = True
        self.label.setText(side.get("label", ""))
        if "team" in side:
            self.source.setCurrentIndex(self.source.findData(TEAM_FILE))
        else:
            at = self.source.findData(side.get("map_team"))
            self.source.setCurrentIndex(max(at, 0))
        self._quiet = False
        self.set_team(side.get("team"), f"{side['team']['name']} (embedded)"
                      if "team" in side else "")
        self._quiet = True
        if side.get("formation"):
            self.formation.setCurrentIndex(max(self.formation.findData(side["formation"]), 0))
        if side.get("zone"):
            self.zone.setCurrentText(side["zone"])
        self.controller.setCurrentIndex(self.controller.findData(side["controller"]))
        self.ai.setCurrentIndex(max(self.ai.findData(side.get("ai", DEFAULT_AI)), 0))
        self.profile_doc = side.get("ai_profile")
        self.profile_label.setText("embedded" if self.profile_doc else
                                   "the default AI profile")
        self._quiet = False
        self._enable()

    def show_points(self) -> None:
        """The side's point total against the cap (red when over)."""
        d = self.dialog
        try:
            cap = scenario_rules(d.scenario()).battle.point_cap
        except BattleInputError:
            cap = None
        cost = None
        try:
            if self.uses_team() and self.team_doc is not None:
                cost = team_cost(team_from_dict(self.team_doc, d.roster))
            elif not self.uses_team():
                from ...battle.sheet import sheet_for

                team = self.source.currentData()
                cost = sum(sheet_for(c, d.roster).cost
                           for c in d.document.model.characters.values() if c.team == team)
        except BattleInputError:
            cost = None
        text = "?" if cost is None else str(cost)
        self.points.setText(f"{text} / {cap} cap" if cap else f"{text} (no cap)")
        over = cost is not None and cap is not None and cost > cap
        self.points.setStyleSheet("color: #b00020" if over else "")
