"""The matchup table beside the archetype table: every archetype (rows, attacking)
against every archetype (columns, defending) for one :class:`~sodwa_editor.battle.
matchup.Case`, recomputed whenever the roster changes.

The numbers are :func:`sodwa_editor.battle.matchup.matchup_table`'s (the battle's own
attack preview); the panel chooses the case (melee or ranged, who has moved, impeded
line of sight, an unaware defender) and which number each cell shows, colours the
flagged cells and explains every cell on hover.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, QPersistentModelIndex, Qt
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from ...battle.matchup import Case, Kind, Matchup, flagged, matchup_table
from ...battle.rules import Rules
from .editing import RosterEditing

AnyIndex = QModelIndex | QPersistentModelIndex

#: cell colours (the legend shows the same)
IMPOSSIBLE = QColor("#f2a7a7")
NEAR_CERTAIN = QColor("#a9dca9")
UNAVAILABLE = QColor("#e4e4e4")

#: what a cell may show: (label, the text of a matchup)
SHOWS: tuple[tuple[str, Callable[[Matchup], str]], ...] = (
    ("Roll needed", lambda m: f"{m.need}+"),
    ("Chance to hit", lambda m: f"{m.chance:.0%}"),
    ("Karma per miss", lambda m: str(m.karma_per_miss)),
    ("Damage after DR", lambda m: str(m.damage)),
    ("Damage per 1,000 IP", lambda m: f"{m.damage_per_1000_ip:.2f}"),
)
#: the move modifiers' choices: (label, attacker moved, defender moved)
MOVES = (("No one moved", False, False), ("Attacker moved", True, False),
         ("Defender moved", False, True), ("Both moved", True, True))


class MatchupTableModel(QAbstractTableModel):
    """Rows attack, columns defend; one :class:`Case`, one number shown."""

    def __init__(self, editing: RosterEditing, rules: Rules,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.editing, self.rules = editing, rules
        self.case = Case("melee")
        self.show = 0
        self.table: list[list[Matchup]] = []
        self.recompute()
        editing.changed.connect(self.recompute)

    def recompute(self, *_args: object) -> None:
        """The table again from the roster as it stands (any edit, any case)."""
        self.beginResetModel()
        sheets = [a.sheet() for a in self.editing.roster.archetypes]
        self.table = matchup_table(sheets, self.case, self.rules)
        self.endResetModel()

    def set_case(self, case: Case) -> None:
        self.case = case
        self.recompute()

    def set_rules(self, rules: Rules) -> None:
        self.rules = rules
        self.recompute()

    def set_show(self, which: int) -> None:
        self.show = which
        if self.table:
            self.dataChanged.emit(self.index(0, 0),
                                  self.index(len(self.table) - 1, len(self.table) - 1))

    def cell(self, row: int, column: int) -> Matchup:
        return self.table[row][column]

    def rowCount(self, parent: AnyIndex | None = None) -> int:  # noqa: N802
        return 0 if parent is not None and parent.isValid() else len(self.table)

    def columnCount(self, parent: AnyIndex | None = None) -> int:  # noqa: N802
        return 0 if parent is not None and parent.isValid() else len(self.table)

    def headerData(self, section: int, orientation: Qt.Orientation,  # noqa: N802
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role not in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
            return None
        name = self.editing.roster.archetypes[section].name
        if role == Qt.ItemDataRole.ToolTipRole:
            side = "attacking" if orientation == Qt.Orientation.Vertical else "defending"
            return f"{name} {side}"
        return name

    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        m = self.table[index.row()][index.column()]
        if role == Qt.ItemDataRole.DisplayRole:
            return SHOWS[self.show][1](m) if m.possible else "-"
        if role == Qt.ItemDataRole.ToolTipRole:
            return "\n".join(m.lines())
        if role == Qt.ItemDataRole.BackgroundRole:
            colour = UNAVAILABLE if not m.possible else IMPOSSIBLE if m.impossible \
                else NEAR_CERTAIN if m.near_certain else None
            return QBrush(colour) if colour is not None else None
        if role == Qt.ItemDataRole.ForegroundRole and m.possible:
            return QBrush(QColor("black")) if (m.impossible or m.near_certain) else None
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return int(Qt.AlignmentFlag.AlignCenter)
        return None


def _swatch(colour: QColor, text: str) -> QLabel:
    label = QLabel(f"<span style='background:{colour.name()}'>&nbsp;&nbsp;&nbsp;&nbsp;"
                   f"</span>&nbsp;{text}")
    return label


class MatchupPanel(QWidget):
    """The matchup table with its choices (kind, moves, impeded, aware, what to show),
    a count of the flagged cells and the legend of its colours."""

    def __init__(self, editing: RosterEditing, rules: Rules,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = MatchupTableModel(editing, rules, self)
        top = QHBoxLayout()
        self.kind = QComboBox()
        self.kind.addItem("Melee", "melee")
        self.kind.addItem("Ranged", "ranged")
        self.moves = QComboBox()
        for label, _a, _d in MOVES:
            self.moves.addItem(label)
        self.impeded = QCheckBox("Impeded LoS")
        self.impeded.setToolTip("Impeding terrain on the line of sight (ranged attacks: "
                                "rules modifiers.impeded_defense)")
        self.aware = QCheckBox("Defender aware")
        self.aware.setChecked(True)
        self.aware.setToolTip("The defender sees the attacker: its Evasion counts (B19)")
        self.show_box = QComboBox()
        for label, _f in SHOWS:
            self.show_box.addItem(label)
        rows: tuple[tuple[str, QWidget], ...] = (
            ("Attack", self.kind), ("Moves", self.moves), ("", self.impeded), ("", self.aware),
            ("Show", self.show_box))
        for label, widget in rows:
            if label:
                top.addWidget(QLabel(label))
            top.addWidget(widget)
        top.addStretch(1)
        self.table = QTableView()
        self.table.setObjectName("matchup_table")
        self.table.setModel(self.model)
        self.table.horizontalHeader().setSectionResizeMode(
            QHeaderView.ResizeMode.ResizeToContents)
        self.table.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 8)
        self.counts = QLabel()
        legend = QHBoxLayout()
        for colour, text in ((IMPOSSIBLE, "impossible: only 00 hits"),
                             (NEAR_CERTAIN, "near-certain: only 01 misses"),
                             (UNAVAILABLE, "- the attacker cannot make this attack")):
            legend.addWidget(_swatch(colour, text))
        legend.addStretch(1)
        legend.addWidget(self.counts)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        caption = QLabel("Rows attack, columns defend (Basic Attack; karma only from misses "
                         "that needed less than the karma threshold)")
        caption.setWordWrap(True)
        layout.addLayout(top)
        layout.addWidget(self.table, 1)
        layout.addLayout(legend)
        layout.addWidget(caption)
        for box in (self.kind, self.moves):
            box.currentIndexChanged.connect(self._case_changed)
        for check in (self.impeded, self.aware):
            check.toggled.connect(self._case_changed)
        self.show_box.currentIndexChanged.connect(self.model.set_show)
        self.model.modelReset.connect(self._count)
        self._case_changed()

    def case(self) -> Case:
        _label, attacker, defender = MOVES[self.moves.currentIndex()]
        kind: Kind = self.kind.currentData()
        return Case(kind, attacker, defender, self.impeded.isChecked() and kind == "ranged",
                    self.aware.isChecked())

    def _case_changed(self, *_args: object) -> None:
        self.impeded.setEnabled(self.kind.currentData() == "ranged")
        self.model.set_case(self.case())

    def _count(self) -> None:
        impossible, certain = flagged(self.model.table)
        self.counts.setText(f"{self.model.case.label}: {impossible} impossible, "
                            f"{certain} near-certain")
