"""The formation grid: the team's members on the :data:`~sodwa_editor.battle.team_doc.GRID`
x ``GRID`` cells of the formation shown, row 0 (the front row, towards the enemy)
at the top.  Drag a member with the mouse onto another cell to move it there (a
member already there swaps with it); arrow keys move the selected member one cell.
Each move is one undo step ("Move Member") of the :class:`~.model.TeamDocument`.

A team without formations enters battle in rows of four (decision B5): the grid
shows that arrangement greyed, and moves nothing until a formation is added.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QFont, QKeyEvent, QMouseEvent, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

from ...battle.team_doc import GRID, Cell
from ...battle.teams import default_formation
from .model import TeamDocument

#: pixels of the margin above the grid (the "front" label) and left of it (row numbers)
TOP, LEFT = 22, 20
MIN_CELL = 22
FRONT = QColor(213, 94, 0)  # Okabe-Ito vermillion: the side facing the enemy
TOKEN = QColor(0, 114, 178)  # Okabe-Ito blue
SELECTED = QColor(240, 228, 66)  # Okabe-Ito yellow
TARGET = QColor(0, 158, 115)  # Okabe-Ito bluish green
GREYED = QColor(150, 150, 150)
ARROWS = {Qt.Key.Key_Left: (-1, 0), Qt.Key.Key_Right: (1, 0), Qt.Key.Key_Up: (0, -1),
          Qt.Key.Key_Down: (0, 1)}


class FormationGrid(QWidget):
    """The formation shown by a :class:`~.model.TeamDocument` (module docstring)."""

    #: a member was chosen on the grid (its id)
    member_selected = Signal(str)
    #: what is under the pointer (the cell and the member on it), "" off the grid
    hovered = Signal(str)

    def __init__(self, document: TeamDocument, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("formation_grid")
        self.document = document
        self.selected: str | None = None
        self._drag: str | None = None
        self._drag_pos: QPointF | None = None
        self.setMouseTracking(True)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setMinimumSize(LEFT + GRID * MIN_CELL + 2, TOP + GRID * MIN_CELL + 2)
        document.changed.connect(self.update)
        document.formation_changed.connect(self._formation_shown)

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt override)
        return QSize(LEFT + GRID * 30 + 2, TOP + GRID * 30 + 2)

    # ------------------------------------------------------------------ geometry
    def cell_px(self) -> float:
        return max(float(MIN_CELL), min((self.width() - LEFT - 2) / GRID,
                                        (self.height() - TOP - 2) / GRID))

    def cell_rect(self, cell: Cell) -> QRectF:
        s = self.cell_px()
        return QRectF(LEFT + cell[0] * s, TOP + cell[1] * s, s, s)

    def cell_at(self, pos: QPointF) -> Cell | None:
        s = self.cell_px()
        c, r = int((pos.x() - LEFT) // s), int((pos.y() - TOP) // s)
        return (c, r) if 0 <= c < GRID and 0 <= r < GRID and pos.x() >= LEFT \
            and pos.y() >= TOP else None

    def cells(self) -> list[tuple[str, Cell]]:
        """The members and their cells as shown (the default arrangement when the
        team has no formations)."""
        doc = self.document.doc
        if self.document.formation >= 0:
            return list(doc.formations[self.document.formation].cells)
        return list(zip(doc.ids(), default_formation(len(doc.members)).positions, strict=True))

    def editable(self) -> bool:
        return self.document.formation >= 0

    # ------------------------------------------------------------------ selection
    def select_member(self, member_id: str | None) -> None:
        if member_id != self.selected:
            self.selected = member_id
            self.update()

    def _formation_shown(self, _index: int) -> None:
        self._drag = None
        self.update()

    # ------------------------------------------------------------------ mouse
    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        if event.button() != Qt.MouseButton.LeftButton:
            return
        self.setFocus()
        cell = self.cell_at(event.position())
        member = next((m for m, c in self.cells() if c == cell), None)
        if member is not None:
            self.select_member(member)
            self.member_selected.emit(member)
            if self.editable():
                self._drag, self._drag_pos = member, event.position()

    def mouseMoveEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        cell = self.cell_at(event.position())
        if self._drag is not None:
            self._drag_pos = event.position()
            self.update()
        text = self.describe(cell) if cell else ""
        self.setToolTip(text)
        self.hovered.emit(text)

    def describe(self, cell: Cell) -> str:
        """The cell and the member on it, as its tool tip says."""
        text = f"column {cell[0]}, row {cell[1]}" + (" (front)" if cell[1] == 0 else "")
        member = next((m for m, c in self.cells() if c == cell), None)
        if member is not None:
            m = self.document.doc.member(member)
            text = f"{m.id}: {m.name or m.archetype} ({m.archetype}), {text}"
        return text

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        member, self._drag = self._drag, None
        if member is None or event.button() != Qt.MouseButton.LeftButton:
            return
        cell = self.cell_at(event.position())
        if cell is not None:
            self.document.place_member(member, cell)
        self.update()

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802
        if event.key() == Qt.Key.Key_Escape and self._drag is not None:
            self._drag = None
            self.update()
            return
        step = ARROWS.get(Qt.Key(event.key()))
        if step is None or self.selected is None or not self.editable():
            super().keyPressEvent(event)
            return
        where = dict(self.cells()).get(self.selected)
        if where is not None:
            target = (where[0] + step[0], where[1] + step[1])
            if 0 <= target[0] < GRID and 0 <= target[1] < GRID:
                self.document.place_member(self.selected, target)

    # ------------------------------------------------------------------ paint
    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        s = self.cell_px()
        p.fillRect(QRectF(LEFT, TOP, GRID * s, s), QColor(FRONT.red(), FRONT.green(),
                                                          FRONT.blue(), 40))
        p.setPen(FRONT)
        font = QFont(self.font())
        font.setBold(True)
        p.setFont(font)
        p.drawText(QRectF(LEFT, 0, GRID * s, TOP), Qt.AlignmentFlag.AlignCenter,
                   "FRONT (row 0, facing the enemy)" if self.editable() else
                   "no formation: rows of 4 (add a formation to arrange them)")
        p.setFont(self.font())
        p.setPen(QPen(QColor(190, 190, 190), 1))
        for k in range(GRID + 1):
            p.drawLine(QPointF(LEFT + k * s, TOP), QPointF(LEFT + k * s, TOP + GRID * s))
            p.drawLine(QPointF(LEFT, TOP + k * s), QPointF(LEFT + GRID * s, TOP + k * s))
        p.setPen(QColor(110, 110, 110))
        for r in range(GRID):
            p.drawText(QRectF(0, TOP + r * s, LEFT - 3, s),
                       Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter, str(r))
        target = self.cell_at(self._drag_pos) if self._drag and self._drag_pos else None
        if target is not None:
            p.setPen(QPen(TARGET, 3))
            p.drawRect(self.cell_rect(target).adjusted(1.5, 1.5, -1.5, -1.5))
        for member, cell in self.cells():
            rect = self.cell_rect(cell)
            if member == self._drag and self._drag_pos is not None:
                self._token(p, rect, member, faded=True)
                rect.moveCenter(self._drag_pos)
            self._token(p, rect, member)
        p.end()

    def token_text(self, member_id: str) -> str:
        """A token's letters: its archetype's first two, numbered when the team has
        more than one of it (``Kn1``, ``Kn2``)."""
        members = self.document.doc.members
        arch = self.document.doc.member(member_id).archetype
        same = [m.id for m in members if m.archetype == arch]
        return arch[:2] + (str(same.index(member_id) + 1) if len(same) > 1 else "")

    def _token(self, p: QPainter, rect: QRectF, member_id: str, faded: bool = False) -> None:
        colour = GREYED if not self.editable() else TOKEN
        inner = rect.adjusted(2, 2, -2, -2)
        p.setOpacity(0.35 if faded else 1.0)
        p.setBrush(colour)
        p.setPen(QPen(SELECTED, 3) if member_id == self.selected else QPen(Qt.GlobalColor.black, 1))
        p.drawEllipse(inner)
        p.setPen(Qt.GlobalColor.white)
        font = QFont(self.font())
        font.setPixelSize(max(7, int(rect.height() * 0.36)))
        p.setFont(font)
        letters = self.token_text(member_id)
        p.drawText(inner, Qt.AlignmentFlag.AlignCenter, letters)
        p.setOpacity(1.0)
