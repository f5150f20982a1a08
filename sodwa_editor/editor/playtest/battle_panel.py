"""The Battle dock of a playtest: whose turn and what the game waits for, both
teams' karma, the attack preview with Confirm / Cancel, the log (click a turn to
go back to it) and, at the end, the result panel.  It takes the playtest model
and shows its battle whenever it changes; its buttons and the log's turns are
signals (:attr:`BattlePanel.confirm`, :attr:`~BattlePanel.cancel`,
:attr:`~BattlePanel.turn_clicked`) that the mode connects."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from ...battle.attack import AttackPreview
from ...battle.describe import describe
from ...battle.events import Attacked, Event
from ...battle.karma import available
from ...battle.state import BattleState
from .model import PlaytestModel
from .result_panel import ResultPanel

TURN_ROLE = Qt.ItemDataRole.UserRole + 1


def team_names(state: BattleState) -> tuple[str, str]:
    """The log's names of team 0 and team 1: side and number from 1, as the dock's
    status and result say them."""
    sides = {f.team: f.side for f in state.fighters}
    return (f"{sides[0]}, team 1", f"{sides[1]}, team 2")


def preview_text(state: BattleState, attacker: int, target: int, p: AttackPreview) -> str:
    mods = ", ".join(f"{m.source} {m.amount:+d} {m.stat}" for m in p.modifiers) or "none"
    return (f"<b>{state.names[attacker]} attacks {state.names[target]}</b> ({p.kind})<br>"
            f"TAV {p.tav} vs TDV {p.tdv} (Evasion {p.evasion}; modifiers: {mods})<br>"
            f"Damage ignored {p.dr}; roll needed {p.need_roll}+; damage on a hit "
            f"{p.damage_on_hit}<br>Chance {p.hits}% ({p.hits_with_karma}% with "
            f"{p.karma} karma)")


def roll_text(state: BattleState, e: Attacked) -> str:
    karma = (f"karma spent {e.karma_spent}" if e.karma_spent else
             f"karma gained {e.karma_gained}" if e.karma_gained else "no karma")
    return (f"<b>{'Hit' if e.success else 'Miss'}</b>: difficulty {e.difficulty}, dice "
            f"{e.dice[0]} and {e.dice[1]}, roll {e.roll}{' (Doubles)' if e.doubles else ''}, "
            f"{karma}; {e.damage} damage, {state.names[e.target]} has {e.hp_after} HP left")


class BattlePanel(QWidget):
    """The dock's content (see the module docstring)."""

    confirm = Signal()
    cancel = Signal()
    turn_clicked = Signal(int)

    def __init__(self, model: PlaytestModel | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = model
        self.setObjectName("battle_panel")
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        self.status = QLabel()
        self.status.setObjectName("battle_status")
        self.status.setWordWrap(True)
        lay.addWidget(self.status)
        self.karma = QLabel()
        lay.addWidget(self.karma)
        self.bip = QGroupBox("Battle Information")
        self.bip.setObjectName("battle_bip")
        bl = QVBoxLayout(self.bip)
        self.bip_text = QLabel()
        self.bip_text.setWordWrap(True)
        bl.addWidget(self.bip_text)
        row = QHBoxLayout()
        self.confirm_button = QPushButton("Confirm")
        self.confirm_button.setObjectName("bip_confirm")
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setObjectName("bip_cancel")
        self.confirm_button.clicked.connect(self.confirm)
        self.cancel_button.clicked.connect(self.cancel)
        row.addWidget(self.confirm_button)
        row.addWidget(self.cancel_button)
        bl.addLayout(row)
        self.bip.setVisible(False)
        lay.addWidget(self.bip)
        self.result = ResultPanel(model)
        self.result.setVisible(False)
        lay.addWidget(self.result)
        self.log = QListWidget()
        self.log.setObjectName("battle_log")
        self.log.setWordWrap(True)
        self.log.itemClicked.connect(self._clicked)
        lay.addWidget(self.log, 1)
        self._shown = 0
        if model is not None:
            model.changed.connect(self._show_model)
            model.attack_changed.connect(self._show_attack)
            model.stopped.connect(self.hide_preview)

    def _show_model(self) -> None:
        m = self.model
        if m is not None and m.session is not None:
            s = m.session
            # the turns ahead after going back are in the log too (greyed)
            self.show_state(s.state, m.status_text(), s.future_events(), len(s.state.events))

    def _show_attack(self) -> None:
        """The attack awaiting Confirm, else the roll of the last one, else nothing."""
        m = self.model
        s = m.session if m is not None else None
        if m is None or s is None or (m.pending is None and m.roll is None):
            self.hide_preview()
            return
        state = s.state
        if m.pending is not None and state.actor is not None:
            actor = state.actor
            self.show_preview(preview_text(state, actor, m.pending,
                                           s.preview(actor, m.pending)), True)
        elif m.roll is not None:
            self.show_preview(roll_text(state, m.roll), False)

    def _clicked(self, item: QListWidgetItem) -> None:
        turn = item.data(TURN_ROLE)
        if turn is not None:
            self.turn_clicked.emit(int(turn))

    # ------------------------------------------------------------- showing
    def show_state(self, state: BattleState, status: str, log: Sequence[Event],
                   shown: int) -> None:
        """``log``: the events of the battle as played furthest; the first ``shown``
        of them are in ``state`` (the others are greyed: step forward to see them)."""
        self.status.setText(status)
        sides = sorted({f.side for f in state.fighters}, key=lambda s: next(
            f.team for f in state.fighters if f.side == s))
        self.karma.setText("Karma: " + ", ".join(
            f"{side} {available(state.karma, t)}" for t, side in enumerate(sides)))
        shown = min(shown, len(log))
        count = self.log.count()
        if count > len(log) or shown < self._shown or (self._shown < count
                                                        and shown != self._shown):
            self.log.clear()  # greyed lines change: rebuilt (else only appended)
        self._shown = shown
        added = self.log.count() < len(log)
        names, teams = list(state.names), team_names(state)
        for k in range(self.log.count(), len(log)):
            e = log[k]
            item = QListWidgetItem(describe(e, names, teams))
            if e.kind == "turn_started":
                item.setData(TURN_ROLE, e.to_dict()["turn"])
                font = item.font()
                font.setBold(True)
                item.setFont(font)
            if k >= shown:
                item.setForeground(QColor(150, 150, 150))
            self.log.addItem(item)
        if added:
            self.log.scrollToItem(self.log.item(max(0, min(shown, len(log)) - 1)))

    def show_preview(self, html: str, confirmable: bool) -> None:
        self.bip_text.setText(html)
        self.confirm_button.setVisible(confirmable)
        self.cancel_button.setText("Cancel" if confirmable else "Close")
        self.bip.setVisible(True)

    def hide_preview(self) -> None:
        self.bip.setVisible(False)
