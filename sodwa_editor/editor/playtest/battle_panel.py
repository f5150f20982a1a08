"""The Battle Information Panel (RB *The Battle UI*, 2: "The area at the bottom
middle of the screen, between the two Character Panels ... attack difficulties,
battle logs, terrain descriptions, and just about any other kind of
information"): what the game waits for, the karma of each side, the terrain of
the tile under the pointer, the attack previewed with Confirm (Enter) / Cancel
(Esc) and then its roll, the battle log (click a turn to go back to it) and, at
the end, the result (:mod:`.result_panel`, its own tab).

It takes the playtest model and shows its battle whenever it changes; its
buttons and the log's turns are signals (:attr:`BattlePanel.confirm`,
:attr:`~BattlePanel.cancel`, :attr:`~BattlePanel.turn_clicked`) that the mode
connects.  The attack box holds a column of buttons beside its text
(:attr:`BattlePanel.attack_buttons`): Confirm and Cancel, and room for what an
ability's target needs.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from ...battle.attack import AttackPreview
from ...battle.describe import describe, side_label
from ...battle.events import Event
from ...battle.karma import available
from ...battle.state import BattleState
from .ability_aim import AbilityAim
from .ability_text import preview_html
from .last_result import result_html
from .model import PlaytestModel
from .result_panel import ResultPanel
from .tile_info import tile_description

TURN_ROLE = Qt.ItemDataRole.UserRole + 1
#: the share of the Battle tab the attack box takes while an area ability is previewed
AREA_SHARE = 0.62
#: what the terrain line says before the pointer is on the map
TERRAIN_HINT = "Point at a tile of the map: its terrain is described here."


def team_names(state: BattleState) -> tuple[str, str]:
    """The log's names of team 0 and team 1 (``attackers (team 0)``: the one naming
    of the editor, the Balance Run and the command line)."""
    sides = {f.team: f.side for f in state.fighters}
    return (side_label(sides.get(0), 0), side_label(sides.get(1), 1))


def karma_text(state: BattleState) -> str:
    """The Karma Pool: the side that holds its points, and how many (RB: "only one
    player at a time has access to Karma Points")."""
    names = team_names(state)
    held = [(names[t], available(state.karma, t)) for t in (0, 1)
            if available(state.karma, t)]
    return "Karma: " + (f"{held[0][0]} {held[0][1]}" if held else "none held")


def preview_text(state: BattleState, attacker: int, target: int, p: AttackPreview) -> str:
    """The BIP before Confirm (RB: "the kind of attack being performed (Melee or
    Ranged), your Total Attack Value ..., the target's Total Defense Value ..., how
    much damage they'll ignore, and what you'll need to roll to succeed and how
    much damage you'll deal if you do succeed")."""
    mods = ", ".join(f"{m.source} {m.amount:+d} {m.stat}" for m in p.modifiers) or "none"
    return (f"<b>{state.names[attacker]} attacks {state.names[target]}</b> ({p.kind}): "
            f"TAV {p.tav} vs TDV {p.tdv} (Evasion {p.evasion}; modifiers: {mods})<br>"
            f"roll needed {p.need_roll}+: chance {p.hits}% ({p.hits_with_karma}% with "
            f"{p.karma} karma); damage on a hit {p.damage_on_hit}, damage ignored {p.dr}")


class FitScroll(QScrollArea):
    """A scroll area that asks for its text's whole height at its width (a word-wrapped
    label's height for that width) and scrolls when it gets less."""

    def sizeHint(self) -> QSize:
        hint = super().sizeHint()
        w = self.widget()
        if w is None or not w.hasHeightForWidth():
            return hint
        width = self.viewport().width() if self.isVisible() else hint.width()
        return QSize(hint.width(), w.heightForWidth(max(width, 60)) + 2 * self.frameWidth())

    def minimumSizeHint(self) -> QSize:
        hint = super().minimumSizeHint()
        return QSize(hint.width(), 3 * self.fontMetrics().lineSpacing())

    def fit(self) -> None:
        """The text changed: its height again (the area does not see a label's text)."""
        w = self.widget()
        if w is not None:
            w.adjustSize()
        self.updateGeometry()


class BattlePanel(QWidget):
    """The Battle Information Panel (see the module docstring)."""

    confirm = Signal()
    cancel = Signal()
    turn_clicked = Signal(int)

    def __init__(self, model: PlaytestModel | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = model
        self.setObjectName("battle_panel")
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 2, 4, 2)
        lay.setSpacing(2)
        self.status = QLabel()
        self.status.setObjectName("battle_status")
        self.status.setWordWrap(True)
        self.status.setStyleSheet("font-weight: bold")
        lay.addWidget(self.status)
        self.tabs = QTabWidget()
        self.tabs.setObjectName("battle_tabs")
        self.tabs.setDocumentMode(True)
        lay.addWidget(self.tabs, 1)
        self.karma = QLabel()  # beside the tabs: the log keeps the height
        self.karma.setObjectName("battle_karma")
        self.karma.setContentsMargins(0, 0, 4, 0)
        self.tabs.setCornerWidget(self.karma, Qt.Corner.TopRightCorner)
        split = QSplitter(Qt.Orientation.Horizontal)
        split.setChildrenCollapsible(False)
        self.split = split
        info = QWidget()
        info_lay = QVBoxLayout(info)
        info_lay.setContentsMargins(0, 0, 0, 0)
        info_lay.setSpacing(2)
        self.terrain = QLabel(TERRAIN_HINT)
        self.terrain.setObjectName("battle_terrain")
        self.terrain.setWordWrap(True)
        self.terrain.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.attack_box = QFrame()
        self.attack_box.setObjectName("battle_attack")
        self.attack_box.setFrameShape(QFrame.Shape.StyledPanel)
        al = QHBoxLayout(self.attack_box)
        al.setContentsMargins(4, 0, 4, 2)
        self.attack_text = QLabel()
        self.attack_text.setWordWrap(True)
        self.attack_text.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        # an area's result has a line per victim: more than the box holds scrolls in it
        # (never cut, never taller than the panel)
        self.attack_scroll = FitScroll()
        self.attack_scroll.setObjectName("battle_attack_scroll")
        self.attack_scroll.setWidget(self.attack_text)
        self.attack_scroll.setWidgetResizable(True)
        self.attack_scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.attack_scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.attack_scroll.setSizePolicy(QSizePolicy.Policy.Expanding,
                                         QSizePolicy.Policy.Preferred)
        al.addWidget(self.attack_scroll, 1)
        self.attack_buttons = QVBoxLayout()
        self.attack_buttons.setSpacing(2)
        self.confirm_button = QPushButton("Confirm\n(Enter)")
        self.confirm_button.setObjectName("bip_confirm")
        self.cancel_button = QPushButton("Cancel\n(Esc)")
        self.cancel_button.setObjectName("bip_cancel")
        for b in (self.confirm_button, self.cancel_button):
            b.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # the keys stay the window's
        self.confirm_button.clicked.connect(self.confirm)
        self.cancel_button.clicked.connect(self.cancel)
        self.attack_buttons.addWidget(self.confirm_button)
        self.attack_buttons.addWidget(self.cancel_button)
        self.attack_buttons.addStretch(1)
        al.addLayout(self.attack_buttons)
        self.attack_box.setVisible(False)
        info_lay.addWidget(self.attack_box)
        info_lay.addWidget(self.terrain)  # under the attack: the first to give way
        info_lay.addStretch(1)
        split.addWidget(info)
        self.log = QListWidget()
        self.log.setObjectName("battle_log")
        self.log.setWordWrap(True)
        self.log.itemClicked.connect(self._clicked)
        split.addWidget(self.log)
        split.setStretchFactor(0, 1)
        split.setStretchFactor(1, 1)
        self.tabs.addTab(split, "Battle")
        self.result = ResultPanel(model)
        self.tabs.addTab(self.result, "Result")
        self.tabs.setTabEnabled(1, False)
        self._shown = 0
        #: the area ability a person aims (:meth:`follow_aim`)
        self.aim: AbilityAim | None = None
        if model is not None:
            model.changed.connect(self._show_model)
            model.attack_changed.connect(self._show_attack)
            model.hovered_changed.connect(self._show_tile)
            model.result_changed.connect(self._show_result)
            model.restarted.connect(self._restarted)
            model.stopped.connect(self.hide_preview)

    def follow_aim(self, aim: AbilityAim) -> None:
        """Preview the area ability ``aim`` holds for Confirm, as an attack."""
        self.aim = aim
        aim.changed.connect(self._show_attack)

    def _show_model(self) -> None:
        m = self.model
        if m is not None and m.session is not None:
            s = m.session
            # the turns ahead after going back are in the log too (greyed)
            self.show_state(s.state, m.status_text(), s.future_events(), len(s.state.events))
            if m.hovered is not None:
                self._show_tile(m.hovered)

    def _restarted(self) -> None:
        self.log.clear()
        self._shown = 0

    def _show_tile(self, tile: tuple[int, int] | None) -> None:
        m = self.model
        s = m.session if m is not None else None
        text = tile_description(s.state, *tile) if s is not None and tile is not None else ""
        text = text or TERRAIN_HINT
        if self.terrain.text() != text:
            self.terrain.setText(text)

    def _show_result(self, result: object) -> None:
        """The Result tab opens at the end, and goes when going back."""
        self.tabs.setTabEnabled(1, result is not None)
        self.tabs.setCurrentIndex(1 if result is not None else 0)

    def _show_attack(self) -> None:
        """The area ability or the attack awaiting Confirm, else the roll of the last
        one, else nothing."""
        m = self.model
        s = m.session if m is not None else None
        aim = self.aim
        if s is not None and aim is not None and aim.preview is not None:
            self.show_preview(preview_html(s.state, aim.preview), True)
            sizes = self.split.sizes()  # a line per victim: the box gets the room
            total = sum(sizes)
            if total and sizes[0] < AREA_SHARE * total:
                self.split.setSizes([int(AREA_SHARE * total), total - int(AREA_SHARE * total)])
            return
        if m is None or s is None or (m.pending is None and m.roll is None):
            self.hide_preview()
            return
        state = s.state
        if m.pending is not None and state.actor is not None:
            actor = state.actor
            self.show_preview(preview_text(state, actor, m.pending,
                                           s.preview(actor, m.pending)), True)
        elif m.roll is not None:
            self.show_preview(result_html(state, m.roll), False)

    def _clicked(self, item: QListWidgetItem) -> None:
        turn = item.data(TURN_ROLE)
        if turn is not None:
            self.turn_clicked.emit(int(turn))

    # ------------------------------------------------------------- showing
    def show_state(self, state: BattleState, status: str, log: Sequence[Event],
                   shown: int) -> None:
        """``log``: the events of the battle as played furthest; the first ``shown``
        of them are in ``state`` (the others are greyed: step forward to see them)."""
        if self.status.text() != status:
            self.status.setText(status)
        karma = karma_text(state)
        if self.karma.text() != karma:
            self.karma.setText(karma)
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
        """The attack to confirm (the terrain line gives it its room meanwhile), or
        the roll of the last one."""
        self.attack_text.setText(html)
        self.attack_scroll.fit()
        self.confirm_button.setVisible(confirmable)
        self.cancel_button.setVisible(confirmable)  # a roll goes with the next turn
        self.terrain.setVisible(not confirmable)
        self.attack_box.setVisible(True)

    def hide_preview(self) -> None:
        self.attack_box.setVisible(False)
        self.terrain.setVisible(True)
