"""A Character Panel (RB *The Battle UI*, 1): one character's name, team colour,
HP as a bar with its numbers, and every attribute of its sheet
(:class:`~sodwa_editor.battle.sheet.Sheet`) in the rulebook's four sections:

* Combat: Melee and Ranged Accuracy, Defense and Damage;
* Character Info: Cost, Move, Range, Evasion, Damage Reduction, flight;
* Initiative: Initiative, current IP and ticks until the next turn;
* Saving Throws: Fortitude, Reflex, Power.

The playtest shows two: the active character (bottom left) and the last one
clicked on the map or in the Turn-Sequence Bar (bottom right).  The sections'
contents are :func:`panel_groups` (Qt-free); the widget only lays them out.
Given the playtest model, a panel follows it: the ``active`` one the model's
active character, the ``picked`` one the character last picked.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QGridLayout,
    QGroupBox,
    QLabel,
    QProgressBar,
    QVBoxLayout,
    QWidget,
)

from ...battle.state import BattleState
from .model import PlaytestModel
from .tsb_bar import side_colors

#: (section, [(label, value)]) in the rulebook's order: upper left, upper right,
#: bottom left, bottom right
Groups = list[tuple[str, list[tuple[str, str]]]]
SECTIONS = ("Combat", "Character Info", "Initiative", "Saving Throws")


def panel_groups(state: BattleState, i: int) -> Groups:
    """The attributes of character ``i`` of ``state``, by section."""
    s = state.sheets[i]
    clock = state.clock
    if not state.alive(i):
        ticks = "defeated"
    elif state.actor == i:
        ticks = "acting now"
    else:
        ticks = str(clock.ticks_until_turn(i))
    return [
        ("Combat", [("Melee Accuracy", str(s.melee_accuracy)),
                    ("Ranged Accuracy", str(s.ranged_accuracy)),
                    ("Melee Defense", str(s.melee_defense)),
                    ("Ranged Defense", str(s.ranged_defense)),
                    ("Melee Damage", str(s.melee_damage)),
                    ("Ranged Damage", str(s.ranged_damage))]),
        ("Character Info", [("Cost", str(s.cost)), ("Move", str(s.move)),
                            ("Range", str(s.range)), ("Evasion", str(s.evasion)),
                            ("Damage Reduction", str(s.damage_reduction)),
                            ("Flight", "yes" if s.flight else "no")]),
        ("Initiative", [("Initiative", str(s.initiative)), ("IP", str(clock.ip[i])),
                        ("Ticks to next turn", ticks)]),
        ("Saving Throws", [("Fortitude", str(s.fortitude)), ("Reflex", str(s.reflex)),
                           ("Power", str(s.power))]),
    ]


HP_BAR = ("QProgressBar { border: 1px solid #555; text-align: center; } "
          "QProgressBar::chunk { background: #c0392b; }")  # RB: "HP ... red bars"


class CharacterPanel(QWidget):
    """One Character Panel (see the module docstring); ``title`` says which (its
    dock's title), ``role`` whom it shows of ``model``'s battle."""

    def __init__(self, title: str, model: PlaytestModel | None = None,
                 role: Literal["active", "picked"] = "active",
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.title = title
        self.model = model
        self.role = role
        self.index: int | None = None
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 2, 4, 2)
        lay.setSpacing(2)
        self.name = QLabel("no character")
        self.name.setObjectName("character_name")
        lay.addWidget(self.name)
        self.hp = QProgressBar()
        self.hp.setObjectName("character_hp")
        self.hp.setFormat("HP %v / %m")
        self.hp.setStyleSheet(HP_BAR)
        self.hp.setMaximumHeight(18)
        lay.addWidget(self.hp)
        grid = QGridLayout()
        grid.setSpacing(2)
        lay.addLayout(grid)
        self.sections: dict[str, QGroupBox] = {}
        #: (section, label) -> the value's label
        self.values: dict[tuple[str, str], QLabel] = {}
        self._grids: dict[str, QGridLayout] = {}
        for k, section in enumerate(SECTIONS):
            box = QGroupBox(section)
            box.setObjectName(f"section_{section.lower().replace(' ', '_')}")
            g = QGridLayout(box)
            g.setContentsMargins(4, 2, 4, 2)
            g.setVerticalSpacing(0)
            g.setHorizontalSpacing(8)
            self._grids[section] = g
            self.sections[section] = box
            grid.addWidget(box, k // 2, k % 2)
        for col, head in ((1, "Melee"), (2, "Ranged")):  # RB: the Sword, the Reticle
            self._grids["Combat"].addWidget(QLabel(f"<i>{head}</i>"), 0, col)
        lay.addStretch(1)
        if model is not None:
            model.changed.connect(self._show_model)
            if role == "picked":
                model.picked_changed.connect(self._show_model)

    def _show_model(self, *_changed: object) -> None:
        m = self.model
        if m is not None and m.session is not None:
            who = m.active if self.role == "active" else m.picked
            self.show_character(m.session.state, who, m.colors or None)

    def value(self, section: str, label: str) -> str:
        return self.values[(section, label)].text()

    def show_character(self, state: BattleState, i: int | None,
                       colors: Mapping[str, QColor] | None = None) -> None:
        """Show character ``i`` of ``state`` (None: an empty panel)."""
        self.index = i
        if i is None:
            self.name.setText("no character")
            self.name.setStyleSheet("")
            self.hp.setRange(0, 1)
            self.hp.setValue(0)
            for shown in self.values.values():
                shown.setText("")
            return
        f = state.fighters[i]
        color = (colors or side_colors(state)).get(f.side, QColor("gray"))
        ink = "black" if color.lightness() > 140 else "white"
        kind = f" ({f.sheet.archetype})" if f.sheet.archetype else ""
        gone = "" if state.alive(i) else " (defeated)"
        text = f"<b>{state.names[i]}</b>{kind}: {f.side}, team {f.team + 1}{gone}"
        sheet = f"background: {color.name()}; color: {ink}; padding: 2px;"
        if (self.name.text(), self.name.styleSheet()) != (text, sheet):
            self.name.setText(text)
            self.name.setStyleSheet(sheet)
        hp = max(0, state.hp[i]) if state.alive(i) else 0
        if (self.hp.maximum(), self.hp.value()) != (f.sheet.health, hp):
            self.hp.setRange(0, f.sheet.health)
            self.hp.setValue(hp)
        for section, rows in panel_groups(state, i):
            for k, (label, value) in enumerate(rows):
                key = (section, label)
                if key not in self.values:
                    self._add_field(section, k, label, len(rows))
                if self.values[key].text() != value:
                    self.values[key].setText(value)

    def _add_field(self, section: str, k: int, label: str, count: int) -> None:
        """Lay out the ``k``-th of ``count`` fields of ``section``: Combat as a table of
        Accuracy / Defense / Damage by Melee / Ranged, more than 3 fields in two
        columns, else one."""
        g = self._grids[section]
        value = QLabel()
        value.setObjectName("character_value")
        self.values[(section, label)] = value
        if section == "Combat":
            row = 1 + k // 2
            if k % 2 == 0:
                g.addWidget(QLabel(label.split(" ", 1)[1]), row, 0)
            g.addWidget(value, row, 1 + k % 2)
            return
        per = 3 if count > 3 else count
        row, col = k % per, 2 * (k // per)
        g.addWidget(QLabel(label), row, col)
        g.addWidget(value, row, col + 1)
