"""The end of a playtest battle: winner, turns, ticks, survivors and, per
character, HP left, damage dealt to characters, kills and damage dealt to
terrain (read from the event log), under a row per side (``attackers (team
0)``).  The panel takes the playtest model: it fills when the battle is over and
empties when going back makes it not over (the Battle Information Panel shows it
in its Result tab).  Every column is as wide as its widest cell, so nothing is
cut ("Ki..."), and the side is a row rather than a column, so the table fits the
middle of the window's bottom."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ...battle.describe import side_label
from ...battle.events import AreaHit, Attacked, Defeated, TerrainAttacked
from ...battle.state import BattleState
from .model import PlaytestModel

#: the table's columns
COLUMNS = ("Character", "HP left", "Damage dealt", "Kills", "Terrain damage")


@dataclass(frozen=True)
class CharacterStats:
    name: str
    side: str
    hp: int
    health: int
    damage: int
    kills: int
    terrain_damage: int


def character_stats(state: BattleState) -> list[CharacterStats]:
    """Per character (battle order): HP left, damage dealt to characters (by Basic
    Attacks and by area abilities, allies in the area included, as kills count every
    defeat), kills and damage dealt to terrain, from the event log; the side as people
    read it."""
    n = len(state.fighters)
    damage, kills, terrain = [0] * n, [0] * n, [0] * n
    for e in state.events:
        if isinstance(e, Attacked | AreaHit):
            damage[e.actor] += e.damage
        elif isinstance(e, Defeated) and e.by >= 0:  # terrain and falls kill for nobody (B54)
            kills[e.by] += 1
        elif isinstance(e, TerrainAttacked):
            terrain[e.actor] += e.damage
    return [CharacterStats(f.id, side_label(f.side, f.team),
                           state.hp[i] if state.alive(i) else 0, f.sheet.health, damage[i],
                           kills[i], terrain[i])
            for i, f in enumerate(state.fighters)]


def summary(state: BattleState) -> str:
    res = state.result
    if res is None:
        return "the battle goes on"
    sides = {f.team: f.side for f in state.fighters}
    who = "Draw" if res.winner is None else f"{side_label(sides.get(res.winner), res.winner)} wins"
    alive = [state.names[i] for i in range(len(state.fighters)) if state.alive(i)]
    return (f"{who}: {res.reason}. {state.clock.turns} turns, {state.clock.tick} ticks; "
            f"survivors: {', '.join(alive) or 'none'}")


class ResultPanel(QWidget):
    """Result text, a per-character table, Save Replay and Restart buttons."""

    save_replay = Signal()
    restart = Signal()

    def __init__(self, model: PlaytestModel | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = model
        self.setObjectName("playtest_result")
        lay = QVBoxLayout(self)
        lay.setContentsMargins(2, 2, 2, 2)
        lay.setSpacing(2)
        top = QHBoxLayout()
        self.title = QLabel()
        self.title.setObjectName("result_title")
        self.title.setWordWrap(True)
        self.title.setStyleSheet("font-weight: bold")
        top.addWidget(self.title, 1)
        self.save_button = QPushButton("Save Replay...")
        self.save_button.setObjectName("result_save_replay")
        self.save_button.clicked.connect(self.save_replay)
        self.restart_button = QPushButton("Restart")
        self.restart_button.setObjectName("result_restart")
        self.restart_button.clicked.connect(self.restart)
        for b in (self.save_button, self.restart_button):
            b.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            top.addWidget(b, 0, Qt.AlignmentFlag.AlignTop)
        lay.addLayout(top)
        self.table = QTableWidget(0, len(COLUMNS))
        self.table.setObjectName("result_table")
        self.table.setHorizontalHeaderLabels(list(COLUMNS))
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setWordWrap(False)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(True)
        lay.addWidget(self.table, 1)
        self.stats: list[CharacterStats] = []
        #: the table's row of each character of :attr:`stats` (the sides' rows between)
        self.rows: list[int] = []
        if model is not None:
            model.changed.connect(self._show_model)

    def _show_model(self) -> None:
        s = self.model.session if self.model is not None else None
        if s is None:
            return
        if s.state.result is not None:
            if not self.stats or self.title.text() != summary(s.state):
                self.show_result(s.state)
        elif self.stats:
            self.clear()

    def clear(self) -> None:
        self.stats, self.rows = [], []
        self.title.setText("")
        self.table.clearSpans()
        self.table.setRowCount(0)

    def show_result(self, state: BattleState) -> None:
        self.clear()
        self.title.setText(summary(state))
        self.stats = character_stats(state)
        order = sorted(range(len(self.stats)), key=lambda k: state.fighters[k].team)
        sides = sorted({s.side for s in self.stats}, key=lambda side: next(
            state.fighters[k].team for k in order if self.stats[k].side == side))
        table = self.table
        table.setRowCount(len(self.stats) + len(sides))
        self.rows = [0] * len(self.stats)
        r = 0
        for side in sides:
            head = QTableWidgetItem(side)
            font = head.font()
            font.setBold(True)
            head.setFont(font)
            table.setItem(r, 0, head)
            table.setSpan(r, 0, 1, len(COLUMNS))
            r += 1
            for k in order:
                s = self.stats[k]
                if s.side != side:
                    continue
                self.rows[k] = r
                for c, value in enumerate((s.name, f"{s.hp}/{s.health}", s.damage, s.kills,
                                           s.terrain_damage)):
                    item = QTableWidgetItem(str(value))
                    if c >= 1:
                        item.setTextAlignment(Qt.AlignmentFlag.AlignRight
                                              | Qt.AlignmentFlag.AlignVCenter)
                    table.setItem(r, c, item)
                r += 1
