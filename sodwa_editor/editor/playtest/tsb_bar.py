"""The Turn-Sequence Bar (RB *The Battle UI*, 3): across the top of the playtest
view, the projected order of the next turns with the ticks until each, in team
colours, the active character first.

The projection is the engine's (:meth:`~sodwa_editor.battle.clock.Clock.predict`:
every future turn assumed a pass, RB "it always assumes the character will
pass").  An entry is clickable (RB "allowing you to select targets from the TSB"):
the bar emits :attr:`TurnSequenceBar.picked` with the character's battle index and
the mode decides what the click means (show it, or take it as the target).
Given the playtest model, the bar shows its battle whenever it changes.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

from PySide6.QtCore import Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QWidget

from ...battle.state import BattleState
from .. import style
from .model import PlaytestModel

#: how many predicted turns the bar shows after the active character
TSB_LENGTH = 10
#: an entry's size in pixels (two lines: the name, the ticks)
ENTRY_SIZE = (78, 38)


class Entry(NamedTuple):
    """One place of the bar: the character, the ticks until its turn, and whether it
    is the turn being played now."""

    actor: int
    ticks: int
    now: bool


def tsb_entries(state: BattleState, n: int = TSB_LENGTH) -> list[Entry]:
    """The bar of ``state``: the active character (if a turn is being played), then
    the next ``n`` turns of ``state.clock.predict(n)``; none once the battle is over."""
    if state.result is not None:
        return []
    clock = state.clock
    out = [Entry(state.actor, 0, True)] if state.actor is not None else []
    out += [Entry(p.actor, p.tick - clock.tick, False) for p in clock.predict(n)]
    return out


def side_colors(state: BattleState) -> dict[str, QColor]:
    """Team colours when the caller has none (the map's own come from the board)."""
    return style.team_colors({f.side for f in state.fighters})


def entry_text(state: BattleState, e: Entry) -> str:
    when = "now" if e.now else f"{e.ticks} tick{'s' if e.ticks != 1 else ''}"
    return f"{state.names[e.actor]}\n{when}"


def _set(b: QPushButton, text: str, sheet: str) -> None:
    """Only what changed (a new style sheet re-polishes the button: not per frame)."""
    if b.text() != text:
        b.setText(text)
    if b.styleSheet() != sheet:
        b.setStyleSheet(sheet)


class TurnSequenceBar(QWidget):
    """The bar (see the module docstring): one button per entry."""

    #: a character's entry was clicked (its battle index)
    picked = Signal(int)

    def __init__(self, model: PlaytestModel | None = None, length: int = TSB_LENGTH,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("turn_sequence_bar")
        self.model = model
        self.length = length
        self.lay = QHBoxLayout(self)
        self.lay.setContentsMargins(2, 2, 2, 2)
        self.lay.setSpacing(3)
        self.title = QLabel("<b>Turn sequence</b>")
        self.lay.addWidget(self.title)
        self.buttons: list[QPushButton] = []
        self.entries: list[Entry] = []
        self.over = QLabel("the battle is over")
        self.lay.addWidget(self.over)
        self.lay.addStretch(1)
        if model is not None:
            model.changed.connect(self._show_model)

    def _show_model(self) -> None:
        m = self.model
        if m is not None and m.session is not None:
            self.show_state(m.session.state, m.colors or None)

    def show_state(self, state: BattleState,
                   colors: Mapping[str, QColor] | None = None) -> None:
        """Show the bar of ``state`` (``colors``: side -> colour, as on the map)."""
        colors = colors or side_colors(state)
        self.entries = tsb_entries(state, self.length)
        while len(self.buttons) < len(self.entries):
            b = QPushButton()
            b.setObjectName("tsb_entry")
            b.setFixedSize(ENTRY_SIZE[0], ENTRY_SIZE[1])  # the bar's layout never changes
            k = len(self.buttons)
            b.clicked.connect(lambda _=False, k=k: self._clicked(k))
            self.lay.insertWidget(1 + k, b)
            self.buttons.append(b)
        for k, b in enumerate(self.buttons):
            b.setVisible(k < len(self.entries))
            if k >= len(self.entries):
                continue
            e = self.entries[k]
            color = colors.get(state.fighters[e.actor].side, QColor("gray"))
            ink = "black" if color.lightness() > 140 else "white"
            border = "3px solid #ffc800" if e.now else "1px solid #333"
            _set(b, entry_text(state, e),
                 f"QPushButton {{ background: {color.name()}; color: {ink}; "
                 f"border: {border}; padding: 2px 6px; }}")
            b.setToolTip(f"{state.names[e.actor]} ({state.fighters[e.actor].side}): "
                         + ("acting now" if e.now else f"turn in {e.ticks} tick(s) "
                            "if everyone before passes") + "; click to select")
        self.over.setVisible(state.result is not None)

    def _clicked(self, k: int) -> None:
        if k < len(self.entries):
            self.picked.emit(self.entries[k].actor)
