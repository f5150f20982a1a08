"""Tools > Scenario Editor: a scenario on the open map (issue 28 section 4) -- a name
and briefing, two sides (the map's characters of one team, or a team file entering
a start zone in one of its formations; who plays it: a person or an AI, with an AI
profile), a rules variant and a point cap -- checked live as a battle would check it,
saved as a scenario file or into a map pack, opened again, and played at once (Play:
the playtest with this scenario, unsaved map edits included).

The dialog is given the document whose map the scenario is on and only reads it;
it asks for a playtest by :attr:`ScenarioDialog.play_requested` (a
:class:`~..playtest.setup_dialog.PlaytestChoice`), which whoever opens it connects.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QSettings, Signal
from PySide6.QtWidgets import (
    QDialog,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from ...battle.jsonfiles import BattleInputError, read_json, validate
from ...battle.scenario import playtest_controllers, scenario_setup
from ...battle.setup import HUMAN
from ...battle.sheet import Roster
from ...io.files import atomic_write_text
from ...io.packs import save_scenario_into_pack
from ...io.problems import MapLoadError
from ...io.scenarios import scenario_file_text, scenarios_in_file
from ..dialogs import text_box
from ..playtest.setup_dialog import MAX_SEED, PlaytestChoice
from ..roster import UsedRoster, scenario_roster, shipped_roster
from ..roster_in_use import roster_line
from .side_box import SideBox

if TYPE_CHECKING:
    from ..document import Document
    from ..roster_in_use import RosterInUse

#: the settings key of the folder scenario files were last opened from or saved to
FOLDER_KEY = "scenario_editor/folder"


class ScenarioDialog(QDialog):
    """The scenario being made on ``document``'s map."""

    play_requested = Signal(object)  # a PlaytestChoice with the scenario

    def __init__(self, document: Document, parent: QWidget | None = None, *,
                 settings: QSettings | None = None,
                 roster_in_use: RosterInUse | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("scenario_editor")
        self.setWindowTitle("Scenario Editor")
        self.document = document
        self.settings = settings
        self.rules_doc: dict[str, Any] | None = None
        self.rules_source = ""
        self.roster_in_use = roster_in_use
        #: the map pack's roster the scenario plays with, once it was opened from or
        #: saved into a pack that carries one (None: the roster in use)
        self.pack_roster: UsedRoster | None = None
        lay = QVBoxLayout(self)
        form = QFormLayout()
        self.name = QLineEdit("New scenario")
        self.name.setObjectName("scenario_name")
        self.briefing = QPlainTextEdit()
        self.briefing.setObjectName("scenario_briefing")
        self.briefing.setFixedHeight(70)
        self.map_label = QLabel()
        form.addRow("Name", self.name)
        form.addRow("Briefing", self.briefing)
        form.addRow("Map", self.map_label)
        self.roster_label = roster_line("scenario_roster")
        form.addRow("Roster", self.roster_label)
        rules_row = QHBoxLayout()
        self.rules_label = QLabel()
        pick_rules = QPushButton("Rules File...")
        pick_rules.clicked.connect(lambda: self.pick_rules())
        default_rules = QPushButton("Defaults")
        default_rules.clicked.connect(lambda: self.set_rules(None))
        rules_row.addWidget(self.rules_label, 1)
        rules_row.addWidget(pick_rules)
        rules_row.addWidget(default_rules)
        form.addRow("Rules", rules_row)
        self.cap = QSpinBox()
        self.cap.setObjectName("scenario_cap")
        self.cap.setRange(0, 1_000_000)
        self.cap.setSpecialValueText("the rules' cap")
        self.cap.valueChanged.connect(self.refresh)
        form.addRow("Point cap", self.cap)
        lay.addLayout(form)
        self.sides = [SideBox(0, self), SideBox(1, self)]
        pair = QHBoxLayout()  # the two sides side by side, as the two teams face
        for box in self.sides:
            pair.addWidget(box)
        lay.addLayout(pair)
        self.problem = QLabel()
        self.problem.setObjectName("scenario_problem")
        lay.addWidget(text_box(self.problem, 3, "scenario_problem_box"))
        buttons = QHBoxLayout()
        for text, slot in (("Open...", self.open_scenario), ("Save As...", self.save_file),
                           ("Save Into Pack...", self.save_into_pack), ("Play", self.play),
                           ("Close", self.close)):
            b = QPushButton(text)
            b.setObjectName(f"scenario_{text.strip('.').lower().replace(' ', '_')}")
            b.setAutoDefault(False)
            b.clicked.connect(lambda _c=False, s=slot: s())
            buttons.addWidget(b)
            if text == "Save Into Pack...":
                buttons.addStretch(1)
        lay.addLayout(buttons)
        for button in self.findChildren(QPushButton):  # Enter in a field clicks nothing
            button.setAutoDefault(False)
        self.name.textChanged.connect(self.refresh)
        self.set_rules(None)
        document.edited.connect(self._map_changed)
        document.model_replaced.connect(self._map_changed)
        self._map_changed()
        if roster_in_use is not None:
            roster_in_use.changed.connect(self.refresh)

    # ----------------------------------------------------------------- the roster
    def used_roster(self) -> UsedRoster:
        """The roster the scenario is checked and played with: its pack's (opened from
        or saved into a pack with one), else the roster in use."""
        if self.pack_roster is not None:
            return self.pack_roster
        return self.roster_in_use.current if self.roster_in_use is not None \
            else shipped_roster()

    @property
    def roster(self) -> Roster:
        return self.used_roster().roster

    def _take_pack_roster(self, path: Path) -> None:
        """A pack's scenario (or a scenario file on ``PACK.json#MAP``) plays with the
        pack's roster when it carries one, as ``sodwa battle`` plays it."""
        self.pack_roster = None
        try:
            found = scenario_roster(path, shipped_roster())
        except BattleInputError:
            return
        if found.kind == "pack":
            self.pack_roster = found

    # ----------------------------------------------------------------- the scenario
    def scenario(self) -> dict[str, Any]:
        """The scenario document the dialog shows (its map: the open map's name)."""
        doc: dict[str, Any] = {"format": "sodwa-scenario", "format_version": 1,
                               "name": self.name.text().strip(),
                               "map": self.document.model.name}
        text = self.briefing.toPlainText().strip()
        if text:
            doc["briefing"] = text
        if self.rules_doc is not None:
            doc["rules"] = self.rules_doc
        if self.cap.value():
            doc["point_cap"] = self.cap.value()
        doc["sides"] = [box.side_doc() for box in self.sides]
        return doc

    def set_scenario(self, doc: dict[str, Any], source: str = "") -> None:
        """Show a scenario (validated first: a bad one raises, the form unchanged)."""
        validate(doc, "scenario", source or "scenario")
        self.name.setText(doc["name"])
        self.briefing.setPlainText(doc.get("briefing", ""))
        self.set_rules(doc.get("rules"), "the scenario's rules" if "rules" in doc else "")
        self.cap.setValue(doc.get("point_cap") or 0)
        for box, side in zip(self.sides, doc["sides"], strict=True):
            box.set_side(side)
        self.refresh()

    def check(self) -> str | None:
        """Why no battle can start from the scenario on the map as it stands (one
        line), or None."""
        doc = self.scenario()
        if not doc["name"]:
            return "name the scenario"
        try:
            used = self.used_roster()
            scenario_setup(doc, self.document.model.copy(), used.roster,
                           roster_doc=used.doc, source="scenario")
        except BattleInputError as exc:
            return str(exc).removeprefix("scenario: ")
        return None

    def refresh(self, *_args: object) -> None:
        self.roster_label.setText(self.used_roster().label)
        why = self.check()
        self.problem.setText(why or "ready: a battle can start from this scenario")
        self.problem.setStyleSheet("color: #b00020" if why else "color: #1b5e20")
        for box in self.sides:
            box.show_points()

    def _map_changed(self, *_args: object) -> None:
        m = self.document.model
        self.map_label.setText(f"{m.name} (the open map, as it stands)")
        for box in self.sides:
            box.map_changed()
        self.refresh()

    # ----------------------------------------------------------------- inputs
    def folder(self) -> str:
        return str(self.settings.value(FOLDER_KEY, "")) if self.settings is not None else ""

    def remember(self, path: Path) -> None:
        if self.settings is not None:
            self.settings.setValue(FOLDER_KEY, str(path.parent))

    def set_rules(self, doc: dict[str, Any] | None, source: str = "") -> None:
        self.rules_doc = doc
        self.rules_source = source
        self.rules_label.setText(source or "the default rules (resources/rules.json)")
        self.refresh()

    def pick_rules(self, path: Path | None = None) -> bool:
        if path is None:
            name, _ = QFileDialog.getOpenFileName(self, "Rules File", self.folder(),
                                                  "Rules files (*.json)")
            if not name:
                return False
            path = Path(name)
        try:
            doc = read_json(path)
            validate(doc, "rules", str(path))
        except BattleInputError as exc:
            self.say(str(exc))
            return False
        self.set_rules(doc, f"{path.name} (embedded: its changed keys)")
        return True

    def say(self, text: str, *, problem: bool = True) -> None:
        self.problem.setText(text)
        self.problem.setStyleSheet("color: #b00020" if problem else "color: #1b5e20")

    # ----------------------------------------------------------------- files
    def open_scenario(self, path: Path | None = None, name: str | None = None) -> bool:
        """Open a scenario file, or a map pack's scenario on this map (``name``, or
        chosen from a list)."""
        if path is None:
            text, _ = QFileDialog.getOpenFileName(
                self, "Open Scenario", self.folder(),
                "Scenarios and map packs (*.json)")
            if not text:
                return False
            path = Path(text)
        try:
            found = scenarios_in_file(path, self.document.model.name)
            names = [s["name"] for s in found]
            if name is None and len(names) > 1:
                name, ok = QInputDialog.getItem(self, "Open Scenario", "Scenario:",
                                                names, 0, False)
                if not ok:
                    return False
            doc = found[names.index(name) if name in names else 0]
            self._take_pack_roster(path)
            self.set_scenario(doc, str(path))
        except BattleInputError as exc:
            self.say(str(exc))
            return False
        self.remember(path)
        return True

    def save_file(self, path: Path | None = None) -> bool:
        """Save as a scenario file (its map named by the map file, relative to it)."""
        map_path = self.document.path
        if map_path is None:
            self.say("save the map first: a scenario file names its map's file")
            return False
        if path is None:
            text, _ = QFileDialog.getSaveFileName(self, "Save Scenario", self.folder(),
                                                  "Scenario files (*.json)")
            if not text:
                return False
            path = Path(text) if text.endswith(".json") else Path(f"{text}.json")
        try:
            validate(self.scenario(), "scenario", str(path))
            atomic_write_text(path, scenario_file_text(self.scenario(), path, map_path))
        except (BattleInputError, OSError) as exc:
            self.say(str(exc))
            return False
        self.remember(path)
        self.say(f"saved {path}", problem=False)
        return True

    def save_into_pack(self, path: Path | None = None) -> bool:
        """Add the scenario to a map pack holding this map (or replace the one of its
        name); the pack is checked whole and written atomically."""
        if path is None:
            text, _ = QFileDialog.getOpenFileName(self, "Save Into Pack", self.folder(),
                                                  "Map packs (*.json)")
            if not text:
                return False
            path = Path(text)
        try:
            replaced = save_scenario_into_pack(path, self.scenario())
        except (MapLoadError, OSError) as exc:
            lines = str(exc).splitlines()
            self.say(" ".join(line.strip() for line in lines[:3]))
            return False
        self.remember(path)
        self._take_pack_roster(path)
        self.refresh()
        self.say(f"{'replaced' if replaced else 'added'} {self.scenario()['name']!r} in "
                 f"{path}", problem=False)
        return True

    def play(self) -> bool:
        """Ask for a playtest of the scenario (refused with its reason when no battle
        can start from it)."""
        why = self.check()
        if why is not None:
            self.say(why)
            return False
        doc = self.scenario()
        controllers = playtest_controllers(doc, self.document.model)
        self.play_requested.emit(PlaytestChoice(controllers=controllers, scenario=doc,
                                                seed=random.randint(0, MAX_SEED),
                                                roster=self.used_roster()))
        return True


__all__ = ["HUMAN", "ScenarioDialog"]
