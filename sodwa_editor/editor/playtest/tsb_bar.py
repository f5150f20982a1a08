"""The Turn-Sequence Bar (RB *The Battle UI*, 3): across the top of the playtest
view, the projected order of the next turns with the ticks until each, as the
characters' portraits (the Character Panels' Action Shots, small) in their team
colours, the active character first and framed.

The projection is the engine's (:meth:`~sodwa_editor.battle.clock.Clock.predict`:
every future turn assumed a pass, RB "it always assumes the character will
pass").  An entry is clickable (RB "The character portraits in the TSB are
clickable, allowing you to select targets from the TSB"): the bar emits
:attr:`TurnSequenceBar.picked` with the character's battle index and the mode
decides what the click means (show it, or take it as the target).  Given the
playtest model, the bar shows its battle whenever it changes.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

from PySide6.QtCore import QRectF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QFont, QPainter, QPaintEvent, QPen, QPixmap
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QWidget

from ...battle.describe import side_label
from ...battle.state import BattleState
from .. import style
from .model import PlaytestModel
from .portraits import Portraits

#: how many predicted turns the bar shows after the active character
TSB_LENGTH = 10
#: an entry's size in pixels (the portrait, then its name and the ticks)
ENTRY_SIZE = (60, 72)
PORTRAIT = 40
NOW = QColor(255, 200, 0)


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
    fp = state.fp[e.actor]  # a larger creature says so: "red.giant 4x4"
    return f"{state.names[e.actor]}{'' if fp == (1, 1) else f' {fp}'}\n{when}"


class TsbEntry(QPushButton):
    """One entry: the portrait (framed in yellow for the turn being played), the
    name and the ticks.  Its text is ``name\\nticks`` (what it says, for tests and
    screen readers); it paints itself."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("tsb_entry")
        self.setFixedSize(*ENTRY_SIZE)  # the bar's layout never changes
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self.portrait: QPixmap | None = None
        self.color = QColor("gray")
        self.now = False

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt override)
        return QSize(*ENTRY_SIZE)

    def show_entry(self, text: str, portrait: QPixmap, color: QColor, now: bool) -> None:
        """Only what changed is set (a repaint per changed entry, not per refresh)."""
        if (text, portrait, color, now) == (self.text(), self.portrait, self.color, self.now):
            return
        self.setText(text)
        self.portrait, self.color, self.now = portrait, color, now
        self.update()

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 (Qt override)
        """The entry as drawn before when it looks the same (the bar shifts by one
        entry on every turn: the same pictures come back), else drawn now."""
        ratio = self.devicePixelRatioF()
        key = (self.text(), self.portrait.cacheKey() if self.portrait is not None else 0,
               self.color.rgba(), self.now, self.isDown(), ratio,
               self.palette().windowText().color().rgba(), self.font().key())
        pix = _DRAWN.get(key)
        if pix is None:
            if len(_DRAWN) >= _DRAWN_MAX:
                _DRAWN.clear()
            pix = _DRAWN[key] = self._draw(ratio)
        p = QPainter(self)
        p.drawPixmap(0, 0, pix)
        p.end()

    def _draw(self, ratio: float) -> QPixmap:
        w, h = self.width(), self.height()
        pix = QPixmap(int(w * ratio), int(h * ratio))
        pix.setDevicePixelRatio(ratio)
        pix.fill(Qt.GlobalColor.transparent)
        p = QPainter(pix)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        back = QColor(self.color)
        back.setAlpha(70 if not self.isDown() else 140)
        p.setPen(QPen(NOW if self.now else QColor(90, 90, 90), 3 if self.now else 1))
        p.setBrush(back)
        p.drawRoundedRect(QRectF(1.5, 1.5, w - 3, h - 3), 4, 4)
        if self.portrait is not None:
            p.drawPixmap((w - PORTRAIT) // 2, 4, self.portrait)
        name, _, when = self.text().partition("\n")
        font = QFont(self.font())
        font.setPixelSize(10)
        p.setFont(font)
        p.setPen(self.palette().windowText().color())
        rect = QRectF(2, 5 + PORTRAIT, w - 4, 12)
        p.drawText(rect, Qt.AlignmentFlag.AlignCenter,
                   p.fontMetrics().elidedText(name, Qt.TextElideMode.ElideRight, w - 6))
        font.setBold(True)
        p.setFont(font)
        p.drawText(rect.translated(0, 12), Qt.AlignmentFlag.AlignCenter, when)
        p.end()
        return pix


#: entries as drawn (a few hundred small pictures at most; dropped when full)
_DRAWN: dict[tuple, QPixmap] = {}
_DRAWN_MAX = 512


class TurnSequenceBar(QWidget):
    """The bar (see the module docstring): one :class:`TsbEntry` per entry."""

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
        self.title = QLabel("<b>Turn<br>sequence</b>")
        self.lay.addWidget(self.title)
        self.buttons: list[TsbEntry] = []
        self.entries: list[Entry] = []
        self.over = QLabel("the battle is over")
        self.lay.addWidget(self.over)
        self.lay.addStretch(1)
        self._portraits: Portraits | None = None
        if model is not None:
            model.changed.connect(self._show_model)

    def full_size(self) -> QSize:
        """The bar's size with all its entries (the title, ``length`` + 1 entries)."""
        m = self.lay.contentsMargins()
        w = (self.title.sizeHint().width() + (self.length + 1) * (ENTRY_SIZE[0]
             + self.lay.spacing()) + m.left() + m.right() + self.over.sizeHint().width())
        return QSize(w, ENTRY_SIZE[1] + m.top() + m.bottom())

    def _show_model(self) -> None:
        m = self.model
        if m is not None and m.session is not None:
            self.show_state(m.session.state, m.colors or None, m.portraits)

    def show_state(self, state: BattleState, colors: Mapping[str, QColor] | None = None,
                   portraits: Portraits | None = None) -> None:
        """Show the bar of ``state`` (``colors``: side -> colour, as on the map)."""
        colors = colors or side_colors(state)
        if portraits is None:
            if self._portraits is None or self._portraits.state.fighters != state.fighters:
                self._portraits = Portraits(state, colors)
            portraits = self._portraits
        self.entries = tsb_entries(state, self.length)
        while len(self.buttons) < len(self.entries):
            b = TsbEntry()
            k = len(self.buttons)
            b.clicked.connect(lambda _=False, k=k: self._clicked(k))
            self.lay.insertWidget(1 + k, b)
            self.buttons.append(b)
        for k, b in enumerate(self.buttons):
            b.setVisible(k < len(self.entries))
            if k >= len(self.entries):
                continue
            e = self.entries[k]
            f = state.fighters[e.actor]
            b.show_entry(entry_text(state, e), portraits.pixmap(e.actor, PORTRAIT),
                         colors.get(f.side, QColor("gray")), e.now)
            tip = (f"{state.names[e.actor]} ({side_label(f.side, f.team)}): "
                   + ("acting now" if e.now else f"turn in {e.ticks} tick(s) if everyone "
                      "before passes") + "; click to select")
            if b.toolTip() != tip:
                b.setToolTip(tip)
        self.over.setVisible(state.result is not None)

    def _clicked(self, k: int) -> None:
        if k < len(self.entries):
            self.picked.emit(self.entries[k].actor)
