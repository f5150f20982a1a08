"""A Character Panel (RB *The Battle UI*, 1): one character's name (its side in
its team colour), its Action Shot (:mod:`.action_shot`: the portrait with HP as
red bars and Damage Reduction over it) and every attribute of its sheet
(:class:`~sodwa_editor.battle.sheet.Sheet`) in the rulebook's four sections:

* Combat (upper left): Accuracy, Defense and Damage under the red Sword (Melee)
  and the red Reticle (Ranged);
* Character Info (upper right): Cost, Move, Range, Evasion, flight, size (``Huge 4x4``);
* Initiative (bottom left): Initiative, current IP and the ticks until the next
  turn (RB "how many ticks until they get another turn");
* Saving Throws (bottom right): Fortitude, Reflex, Power.

The playtest shows two: the active character (bottom left of the window) and the
last one clicked on the map or in the Turn-Sequence Bar (bottom right).  The
sections' contents are :func:`panel_groups` (Qt-free); the widget only lays
them out.  A panel may hold a row of actions (:meth:`CharacterPanel.set_actions`:
the active one holds Pass; an ability adds its own button and key there).
Given the playtest model, a panel follows it: the ``active`` one the model's
active character, the ``picked`` one the character last picked.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Literal

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QColor
from PySide6.QtWidgets import (
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QStackedWidget,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ...battle.describe import side_label
from ...battle.state import BattleState
from .action_shot import ActionShot
from .model import PlaytestModel
from .portraits import Portraits, icon_pixmap
from .tsb_bar import side_colors

#: (section, [(label, value)]) in the rulebook's order: upper left, upper right,
#: bottom left, bottom right
Groups = list[tuple[str, list[tuple[str, str]]]]
SECTIONS = ("Combat", "Character Info", "Initiative", "Saving Throws")
#: each section's fields, as :func:`panel_groups` gives them (laid out at once, so
#: the panel's size never changes with what it shows)
FIELDS = {
    "Combat": ("Melee Accuracy", "Ranged Accuracy", "Melee Defense", "Ranged Defense",
               "Melee Damage", "Ranged Damage"),
    "Character Info": ("Cost", "Move", "Range", "Evasion", "Flight", "Size"),
    "Initiative": ("Initiative", "IP", "Next turn"),
    "Saving Throws": ("Fortitude", "Reflex", "Power"),
}
#: what an empty panel (no character picked yet) says instead
EMPTY_HINT = ("Click a character on the map or in the Turn-Sequence Bar to see its "
              "sheet here.")
SECTION_STYLE = ("QGroupBox { font-weight: bold; margin-top: 1.1em; padding-top: 1px; } "
                 "QGroupBox::title { subcontrol-origin: margin; left: 4px; padding: 0; } "
                 "QLabel { font-weight: normal; }")


def size_text(state: BattleState, i: int) -> str:
    """``Medium``, or ``Huge 4x4``: the size and the tiles its footprint covers."""
    size, fp = state.sheets[i].size.capitalize(), state.fp[i]
    return size if fp == (1, 1) and size == "Medium" else f"{size} {fp}"


def panel_groups(state: BattleState, i: int) -> Groups:
    """The attributes of character ``i`` of ``state``, by section."""
    s = state.sheets[i]
    clock = state.clock
    if not state.alive(i):
        ticks = "defeated"
    elif state.result is not None:
        ticks = "battle over"
    elif state.actor == i:
        ticks = "acting now"
    else:
        n = clock.ticks_until_turn(i)
        ticks = f"in {n} tick{'s' if n != 1 else ''}"
    return [
        ("Combat", [("Melee Accuracy", str(s.melee_accuracy)),
                    ("Ranged Accuracy", str(s.ranged_accuracy)),
                    ("Melee Defense", str(s.melee_defense)),
                    ("Ranged Defense", str(s.ranged_defense)),
                    ("Melee Damage", str(s.melee_damage)),
                    ("Ranged Damage", str(s.ranged_damage))]),
        ("Character Info", [("Cost", str(s.cost)), ("Move", str(s.move)),
                            ("Range", str(s.range)), ("Evasion", str(s.evasion)),
                            ("Flight", "yes" if s.flight else "no"),
                            ("Size", size_text(state, i))]),
        ("Initiative", [("Initiative", str(s.initiative)), ("IP", str(clock.ip[i])),
                        ("Next turn", ticks)]),
        ("Saving Throws", [("Fortitude", str(s.fortitude)), ("Reflex", str(s.reflex)),
                           ("Power", str(s.power))]),
    ]


class CharacterPanel(QWidget):
    """One Character Panel (see the module docstring); ``title`` says which, ``role``
    whom it shows of ``model``'s battle."""

    def __init__(self, title: str, model: PlaytestModel | None = None,
                 role: Literal["active", "picked"] = "active",
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.title = title
        self.model = model
        self.role = role
        self.index: int | None = None
        self.setObjectName(f"{role}_character_panel")
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 2, 4, 2)
        lay.setSpacing(2)
        self.name = QLabel(title)
        self.name.setObjectName("character_name")
        self.name.setToolTip(title)
        lay.addWidget(self.name)
        self.pages = QStackedWidget()
        lay.addWidget(self.pages, 1)
        self.hint = QLabel(EMPTY_HINT)
        self.hint.setObjectName("character_hint")
        self.hint.setWordWrap(True)
        self.hint.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.hint.setStyleSheet("color: #555")
        self.pages.addWidget(self.hint)
        body = QWidget()
        row = QHBoxLayout(body)
        row.setContentsMargins(0, 0, 0, 0)
        row.setSpacing(6)
        shot_column = QVBoxLayout()
        shot_column.setSpacing(2)
        self.shot = ActionShot(96)
        shot_column.addWidget(self.shot)
        #: the actions of the character's turn, under its Action Shot
        self.actions_row = QVBoxLayout()
        self.actions_row.setSpacing(1)
        shot_column.addLayout(self.actions_row)
        shot_column.addStretch(1)
        row.addLayout(shot_column)
        grid = QGridLayout()
        grid.setSpacing(3)
        grid.setRowStretch(2, 1)  # the sections keep their height; room below them
        row.addLayout(grid, 1)
        self.pages.addWidget(body)
        self.sections: dict[str, QGroupBox] = {}
        #: (section, label) -> the value's label
        self.values: dict[tuple[str, str], QLabel] = {}
        self._grids: dict[str, QGridLayout] = {}
        for k, section in enumerate(SECTIONS):
            box = QGroupBox(section)
            box.setObjectName(f"section_{section.lower().replace(' ', '_')}")
            box.setStyleSheet(SECTION_STYLE)
            g = QGridLayout(box)
            g.setContentsMargins(4, 0, 4, 1)
            g.setVerticalSpacing(0)
            g.setHorizontalSpacing(5)
            self._grids[section] = g
            self.sections[section] = box
            grid.addWidget(box, k // 2, k % 2)
        for col, (head, glyph) in enumerate((("Melee", "sword"), ("Ranged", "reticle")), 1):
            icon = QLabel()  # RB: "the red Sword icon ... the red Reticle icon"
            icon.setPixmap(icon_pixmap(glyph, 14))
            icon.setToolTip(head)
            icon.setAlignment(Qt.AlignmentFlag.AlignCenter)
            self._grids["Combat"].addWidget(icon, 0, col)
        for section, labels in FIELDS.items():
            for k, label in enumerate(labels):
                self._add_field(section, k, label, len(labels))
        self.action_buttons: list[QToolButton] = []
        self._empty()
        if model is not None:
            model.changed.connect(self._show_model)
            if role == "picked":
                model.picked_changed.connect(self._show_model)

    def set_actions(self, actions: Sequence[QAction]) -> None:
        """The buttons under the panel: one per action (its text and key), in order.
        The active character's panel holds the actions of its turn (Pass, and a
        button per area ability, shown while its action is)."""
        for b in self.action_buttons:
            self.actions_row.removeWidget(b)
            b.deleteLater()
        self.action_buttons = []
        for action in actions:
            b = QToolButton()
            b.setDefaultAction(action)
            b.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
            b.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            b.setFixedWidth(self.shot.side)
            self.actions_row.addWidget(b)
            self.action_buttons.append(b)
            action.changed.connect(self._sync_buttons)
        self._sync_buttons()

    def _sync_buttons(self) -> None:
        """A button is shown while its action is (an ability the character has) and
        says the action's text and key."""
        for b in self.action_buttons:
            action = b.defaultAction()
            keys = action.shortcut().toString()
            text = f"{action.iconText()} ({keys})" if keys else action.iconText()
            if b.text() != text:
                b.setText(text)
                b.setToolTip(action.toolTip())
            if b.isVisibleTo(self) != action.isVisible():
                b.setVisible(action.isVisible())

    def _show_model(self, *_changed: object) -> None:
        m = self.model
        if m is not None and m.session is not None:
            who = m.active if self.role == "active" else m.picked
            self.show_character(m.session.state, who, m.colors or None, m.portraits)

    def value(self, section: str, label: str) -> str:
        return self.values[(section, label)].text()

    def _empty(self) -> None:
        self.name.setText(f"<b>{self.title}</b>")
        self.name.setStyleSheet("padding: 2px;")
        self.pages.setCurrentWidget(self.hint)

    def show_character(self, state: BattleState, i: int | None,
                       colors: Mapping[str, QColor] | None = None,
                       portraits: Portraits | None = None) -> None:
        """Show character ``i`` of ``state`` (None: the hint of an empty panel)."""
        self.index = i
        if i is None:
            self._empty()
            return
        colors = colors or side_colors(state)
        f = state.fighters[i]
        color = colors.get(f.side, QColor("gray"))
        ink = "black" if color.lightness() > 140 else "white"
        kind = f" ({f.sheet.archetype})" if f.sheet.archetype else ""
        gone = "" if state.alive(i) else " (defeated)"
        text = f"<b>{state.names[i]}</b>{kind}: {side_label(f.side, f.team)}{gone}"
        sheet = f"background: {color.name()}; color: {ink}; padding: 2px;"
        if (self.name.text(), self.name.styleSheet()) != (text, sheet):
            self.name.setText(text)
            self.name.setStyleSheet(sheet)
        self.pages.setCurrentIndex(1)
        if portraits is None:
            portraits = Portraits(state, colors)
        hp = max(0, state.hp[i]) if state.alive(i) else 0
        self.shot.show_values(portraits.pixmap(i, self.shot.side), hp, f.sheet.health,
                              f.sheet.damage_reduction, not state.alive(i))
        for section, rows in panel_groups(state, i):
            for label, value in rows:
                shown = self.values[(section, label)]
                if shown.text() != value:
                    shown.setText(value)

    def _add_field(self, section: str, k: int, label: str, count: int) -> None:
        """Lay out the ``k``-th of ``count`` fields of ``section``: Combat as a table of
        Accuracy / Defense / Damage by Melee / Ranged, more than 3 fields in two
        columns, else one."""
        g = self._grids[section]
        value = QLabel()
        value.setObjectName("character_value")
        # as wide as the widest value it may show: the panel never changes width
        widest = "in 999 ticks" if label == "Next turn" else "9999"
        value.setMinimumWidth(value.fontMetrics().horizontalAdvance(widest))
        self.values[(section, label)] = value
        if section == "Combat":
            row = 1 + k // 2
            if k % 2 == 0:
                g.addWidget(QLabel(label.split(" ", 1)[1]), row, 0)
            value.setAlignment(Qt.AlignmentFlag.AlignCenter)
            g.addWidget(value, row, 1 + k % 2)
            return
        per = 3 if count > 3 else count
        row, col = k % per, 2 * (k // per)
        g.addWidget(QLabel(label), row, col)
        g.addWidget(value, row, col + 1)
