"""The end of a playtest battle: winner, turns, ticks, survivors and, per
character, damage dealt and kills (read from the event log).  The panel takes
the playtest model: it shows when the battle is over, hides when going back
makes it not over."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ...battle.events import Attacked, Defeated, TerrainAttacked
from ...battle.state import BattleState
from .model import PlaytestModel


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
    """Per character (battle order): HP left, damage dealt to characters, kills and
    damage dealt to terrain, from the event log."""
    n = len(state.fighters)
    damage, kills, terrain = [0] * n, [0] * n, [0] * n
    for e in state.events:
        if isinstance(e, Attacked):
            damage[e.actor] += e.damage
        elif isinstance(e, Defeated):
            kills[e.by] += 1
        elif isinstance(e, TerrainAttacked):
            terrain[e.actor] += e.damage
    return [CharacterStats(f.id, f.side, state.hp[i] if state.alive(i) else 0,
                           f.sheet.health, damage[i], kills[i], terrain[i])
            for i, f in enumerate(state.fighters)]


def summary(state: BattleState) -> str:
    res = state.result
    if res is None:
        return "the battle goes on"
    sides = {f.team: f.side for f in state.fighters}
    who = "Draw" if res.winner is None else f"{sides[res.winner]} (team {res.winner + 1}) wins"
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
        lay.setContentsMargins(0, 0, 0, 0)
        self.title = QLabel()
        self.title.setObjectName("result_title")
        self.title.setWordWrap(True)
        self.title.setStyleSheet("font-weight: bold")
        lay.addWidget(self.title)
        self.table = QTableWidget(0, 6)
        self.table.setHorizontalHeaderLabels(["Character", "Team", "HP", "Damage", "Kills",
                                              "Terrain"])
        self.table.verticalHeader().setVisible(False)
        lay.addWidget(self.table)
        row = QHBoxLayout()
        self.save_button = QPushButton("Save Replay...")
        self.save_button.setObjectName("result_save_replay")
        self.save_button.clicked.connect(self.save_replay)
        again = QPushButton("Restart")
        again.clicked.connect(self.restart)
        row.addWidget(self.save_button)
        row.addWidget(again)
        lay.addLayout(row)
        self.stats: list[CharacterStats] = []
        if model is not None:
            model.changed.connect(self._show_model)

    def _show_model(self) -> None:
        s = self.model.session if self.model is not None else None
        if s is None:
            return
        if s.state.result is not None:
            self.show_result(s.state)
        self.setVisible(s.state.result is not None)

    def show_result(self, state: BattleState) -> None:
        self.title.setText(summary(state))
        self.stats = character_stats(state)
        self.table.setRowCount(len(self.stats))
        for r, s in enumerate(self.stats):
            for c, value in enumerate((s.name, s.side, f"{s.hp}/{s.health}", s.damage,
                                       s.kills, s.terrain_damage)):
                self.table.setItem(r, c, QTableWidgetItem(str(value)))
        self.table.resizeColumnsToContents()
