"""The team's members and its point total: a table (id and name edited in place,
the archetype chosen from the roster, each member's points), an archetype picker
with Add Member, Remove Member, and the total against the point cap, red when the
team is over it (RB: "your team's point value will be the sum of all assigned
characters"; ``battle.point_cap``)."""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from .model import TeamDocument

COLUMNS = ("Id", "Name", "Archetype", "Points")
OVER = "#b00020"


class MembersPanel(QWidget):
    """The members of a :class:`~.model.TeamDocument` (module docstring)."""

    #: a member was chosen in the table (its id)
    member_selected = Signal(str)

    def __init__(self, document: TeamDocument, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.document = document
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        self.table = QTableWidget(0, len(COLUMNS))
        self.table.setObjectName("team_members")
        self.table.setHorizontalHeaderLabels(COLUMNS)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.verticalHeader().setVisible(False)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        self.table.itemChanged.connect(self._item_changed)
        self.table.itemSelectionChanged.connect(self._selection_changed)
        lay.addWidget(self.table, 1)
        add_row = QHBoxLayout()
        self.archetype = QComboBox()
        self.archetype.setObjectName("team_archetype")
        self.archetype.setToolTip("The roster archetype a new member takes")
        self.add = QPushButton("&Add Member")
        self.add.setObjectName("team_add_member")
        self.add.clicked.connect(self._add)
        self.remove = QPushButton("Remo&ve")
        self.remove.setObjectName("team_remove_member")
        self.remove.clicked.connect(self._remove)
        add_row.addWidget(self.archetype, 1)
        add_row.addWidget(self.add)
        add_row.addWidget(self.remove)
        lay.addLayout(add_row)
        cap_row = QHBoxLayout()
        self.points = QLabel()
        self.points.setObjectName("team_points")
        self.cap = QSpinBox()
        self.cap.setObjectName("team_cap")
        self.cap.setRange(0, 1_000_000)
        self.cap.setSingleStep(10)
        self.cap.setSpecialValueText("no cap")
        self.cap.setToolTip("The point cap of the battles the team is for (battle.point_cap; "
                            "RB: 'teams that cost as much as 400-points'); not saved in the "
                            "team file")
        self.cap.valueChanged.connect(lambda v: document.set_cap(v or None))
        cap_row.addWidget(self.points, 1)
        cap_row.addWidget(QLabel("Point cap"))
        cap_row.addWidget(self.cap)
        lay.addLayout(cap_row)
        document.changed.connect(self.refresh)
        document.roster_changed.connect(self._fill_archetypes)
        self._fill_archetypes()
        self.refresh()

    def _fill_archetypes(self) -> None:
        self.archetype.clear()
        for arch in self.document.roster.archetypes:
            self.archetype.addItem(f"{arch.name} ({arch.values['cost']} pts)", arch.name)

    def selected_id(self) -> str | None:
        rows = self.table.selectionModel().selectedRows()
        if not rows:
            return None
        item = self.table.item(rows[0].row(), 0)
        return item.data(Qt.ItemDataRole.UserRole) if item else None

    def select_member(self, member_id: str | None) -> None:
        for row in range(self.table.rowCount()):
            item = self.table.item(row, 0)
            if item is not None and item.data(Qt.ItemDataRole.UserRole) == member_id:
                if self.table.currentRow() != row:
                    self.table.selectRow(row)
                return
        self.table.clearSelection()

    # ------------------------------------------------------------------ refresh
    def refresh(self) -> None:
        d = self.document
        keep = self.selected_id()
        self.table.blockSignals(True)
        self.table.setRowCount(len(d.doc.members))
        for row, m in enumerate(d.doc.members):
            arch = d.roster.find(m.archetype)
            cells = (m.id, m.name, m.archetype, str(arch.values["cost"]) if arch else "?")
            for col, text in enumerate(cells):
                # items are updated in place, never replaced: an edit of one arrives
                # in its own itemChanged signal
                item = self.table.item(row, col)
                if item is None:
                    item = QTableWidgetItem()
                    if col >= 2:
                        item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsEditable)
                    self.table.setItem(row, col, item)
                item.setText(text)
                item.setData(Qt.ItemDataRole.UserRole, m.id)
                tip = (f"no name: shown as {m.archetype}" if col == 1 and not m.name else
                       "not in the roster" if col == 2 and arch is None else "")
                item.setToolTip(tip)
            self._archetype_box(row, m.id, arch.name if arch else m.archetype)
        self.table.blockSignals(False)
        self.select_member(keep)
        self.remove.setEnabled(bool(d.doc.members))
        points = d.points()
        cap = f" of {d.cap}" if d.cap is not None else " (no cap)"
        self.points.setText(f"Points: {points}{cap}" + (" - over the cap" if d.over_cap()
                                                         else ""))
        self.points.setStyleSheet(f"color: {OVER}; font-weight: bold" if d.over_cap() else "")
        self.cap.blockSignals(True)
        self.cap.setValue(d.cap or 0)
        self.cap.blockSignals(False)

    def _archetype_box(self, row: int, member_id: str, current: str) -> None:
        """The row's archetype picker, kept across refreshes (a change arrives in its
        own signal); it edits the member whose id it holds."""
        box = self.table.cellWidget(row, 2)
        if not isinstance(box, QComboBox):
            box = QComboBox()
            box.setToolTip("The member's roster archetype")
            box.currentTextChanged.connect(lambda text, b=box: self._archetype_chosen(b, text))
            self.table.setCellWidget(row, 2, box)
        box.blockSignals(True)
        box.setProperty("member_id", member_id)
        names = self.document.roster.names()
        box.clear()
        box.addItems(names if current in names else [*names, current])
        box.setCurrentText(current)
        box.blockSignals(False)

    def _archetype_chosen(self, box: QComboBox, text: str) -> None:
        self.document.set_member_archetype(box.property("member_id"), text)

    # ------------------------------------------------------------------ edits
    def _item_changed(self, item: QTableWidgetItem) -> None:
        # applied once the cell's editor has closed: the edit rebuilds the table
        member_id, column, text = item.data(Qt.ItemDataRole.UserRole), item.column(), item.text()
        QTimer.singleShot(0, lambda: self._apply(member_id, column, text))

    def _apply(self, member_id: str, column: int, text: str) -> None:
        ok = (self.document.set_member_id(member_id, text.strip()) if column == 0 else
              self.document.set_member_name(member_id, text))
        if not ok:  # refused (the message says why) or unchanged: show the member as it is
            self.refresh()

    def _selection_changed(self) -> None:
        member_id = self.selected_id()
        if member_id is not None:
            self.member_selected.emit(member_id)

    def _add(self) -> None:
        name = self.archetype.currentData()
        if name and self.document.add_member(name):
            self.select_member(self.document.doc.members[-1].id)

    def _remove(self) -> None:
        member_id = self.selected_id()
        if member_id is None:
            self.document.message.emit("choose the member to remove in the table")
            return
        self.document.remove_member(member_id)
