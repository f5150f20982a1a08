"""Tools > Roster Editor: the roster in use as a table of archetypes above its matchup
table (a splitter between them), with its own tool bar, undo history and message line.

The dialog is given the :class:`~.editing.RosterEditing` it shows (and the rules the
matchups use) and writes only through it; it never reaches the main window.  What it
opened last is remembered in the ``settings`` given (:func:`remembered_roster`), so
the editor comes back on the same roster file or pack.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings, QSize, Qt
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QFileDialog,
    QLabel,
    QMessageBox,
    QSplitter,
    QTableView,
    QTabWidget,
    QToolBar,
    QVBoxLayout,
    QWidget,
)

from ...battle.jsonfiles import BattleInputError
from ...battle.rules import Rules, default_rules, load_rules
from ...io.roster_doc import open_roster
from ..dialogs import text_box
from ..roster_in_use import SOURCE_KEY
from .abilities_view import AbilityPanel
from .editing import RosterEditing
from .matchup_view import MatchupPanel
from .table import ArchetypeTableModel, CellDelegate

ROSTER_FILTER = "Roster files and map packs (*.json);;All files (*)"
RULES_FILTER = "Rules files (*.json);;All files (*)"
PROBLEM_STYLE = "color: #b00020;"


def remembered_roster(settings: QSettings | None) -> RosterEditing:
    """A :class:`RosterEditing` over the roster opened last (the shipped one when none
    was, or when that file cannot be used any more: the message says why)."""
    path = str(settings.value(SOURCE_KEY, "") or "") if settings is not None else ""
    note = ""
    document = None
    if path:
        try:
            document = open_roster(path)
        except BattleInputError as exc:
            note = f"{exc}; opened the shipped roster instead"
    editing = RosterEditing(document)
    editing.startup_note = note or editing.document.note
    return editing


class RosterEditorDialog(QDialog):
    """The roster editor over ``editing``; matchups under ``rules`` (default rules)."""

    def __init__(self, editing: RosterEditing, parent: QWidget | None = None, *,
                 rules: Rules | None = None, settings: QSettings | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("roster_editor")
        self.editing, self.settings = editing, settings
        self.table_model = ArchetypeTableModel(editing, self)
        self.table = QTableView()
        self.table.setObjectName("archetype_table")
        self.table.setModel(self.table_model)
        self.delegate = CellDelegate(self.table_model, self)
        self.table.setItemDelegate(self.delegate)
        self.table.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 10)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectItems)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.DoubleClicked
                                   | QAbstractItemView.EditTrigger.EditKeyPressed
                                   | QAbstractItemView.EditTrigger.AnyKeyPressed)
        self.matchups = MatchupPanel(editing, rules or default_rules(), self)
        self.abilities = AbilityPanel(editing, self)
        self.tabs = QTabWidget()
        self.tabs.setObjectName("roster_tabs")
        self.tabs.addTab(self.matchups, "Matchups")
        self.tabs.addTab(self.abilities, "Abilities")
        self.rules_label = QLabel()
        self.message_label = QLabel()
        self.message_label.setObjectName("roster_message")
        self.actions_by_key = self._build_actions()
        bar = QToolBar("Roster", self)
        for key in ("open", "save", "save_as", "save_pack", "-", "add", "duplicate", "delete",
                    "-", "undo", "redo", "-", "rules"):
            if key == "-":
                bar.addSeparator()
            else:
                bar.addAction(self.actions_by_key[key])
        bar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        split = QSplitter(Qt.Orientation.Vertical)
        split.setObjectName("roster_splitter")
        split.addWidget(self.table)
        split.addWidget(self.tabs)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        split.setChildrenCollapsible(False)
        split.setSizes([330, 460])  # the matchups' 13 rows fit at the default size
        layout = QVBoxLayout(self)
        layout.addWidget(bar)
        layout.addWidget(split, 1)
        layout.addWidget(self.rules_label)
        layout.addWidget(text_box(self.message_label, 2, "roster_message_box"))
        self._set_rules(rules or default_rules(), "the default rules")
        editing.message.connect(self.say)
        editing.changed.connect(self._show_row)
        editing.source_changed.connect(self._source_changed)
        editing.modified_changed.connect(self._update_title)
        self.delegate.problem.connect(self._typing_problem)
        self.abilities.delegate.problem.connect(self._typing_problem)
        self.table.selectionModel().currentRowChanged.connect(self._row_chosen)
        self.table_model.modelReset.connect(self._reconnect_rows)
        self._update_title()
        self.table.resizeColumnsToContents()
        self.say(editing.startup_note
                 or f"Editing {editing.source.label}: double-click or type in a cell; hover "
                 "a suggested cost for its terms, a matchup for its numbers", False)

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt override)
        return QSize(1180, 840)

    # ------------------------------------------------------------- actions
    def _build_actions(self) -> dict[str, QAction]:
        e = self.editing
        rows = (
            ("open", "&Open...", QKeySequence.StandardKey.Open,
             "Open a roster file, or the roster of a map pack", self.open_file),
            ("save", "&Save", QKeySequence.StandardKey.Save,
             "Save where the roster came from (a roster file or a pack)", self.save),
            ("save_as", "Save &As...", "Ctrl+Shift+S", "Save as a roster file", self.save_as),
            ("save_pack", "Save Into &Pack...", None,
             "Put the roster into a map pack (its maps kept)", self.save_into_pack),
            ("add", "&Add", "Ctrl+N", "Add an archetype (the default sheet)", self.add),
            ("duplicate", "D&uplicate", "Ctrl+D", "Copy the current archetype below it",
             self.duplicate),
            ("delete", "&Delete", "Ctrl+Del", "Delete the current archetype", self.delete),
            ("rules", "&Rules...", None, "The rules file the matchups use", self.choose_rules),
        )
        out: dict[str, QAction] = {}
        for key, text, keys, tip, slot in rows:
            act = QAction(text, self)
            act.setObjectName(f"roster_{key}")
            if isinstance(keys, tuple):
                act.setShortcuts([QKeySequence(k) for k in keys])
            elif keys is not None:
                act.setShortcut(QKeySequence(keys))
            act.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
            if tip:
                act.setToolTip(tip)
            act.triggered.connect(lambda _c=False, s=slot: s())
            self.addAction(act)
            out[key] = act
        # Qt's own undo and redo actions follow the stack (named after the command)
        # and are disconnected by Qt when either side is deleted
        stacked: tuple[tuple[str, QAction, tuple[str, ...]], ...] = (
            ("undo", e.undo_stack.createUndoAction(self, "&Undo"), ("Ctrl+Z",)),
            ("redo", e.undo_stack.createRedoAction(self, "&Redo"), ("Ctrl+Shift+Z", "Ctrl+Y")))
        for key, act, combos in stacked:
            act.setObjectName(f"roster_{key}")
            act.setShortcuts([QKeySequence(k) for k in combos])
            act.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
            act.setIconText(key.title())
            self.addAction(act)
            out[key] = act
        return out

    def current_row(self) -> int:
        index = self.table.currentIndex()
        return index.row() if index.isValid() else -1

    def add(self) -> int:
        row = self.current_row()
        return self.editing.add(None if row < 0 else row + 1)

    def duplicate(self) -> int:
        row = self.current_row()
        if row < 0:
            self.say("choose an archetype to duplicate (click a cell of its row)", True)
            return -1
        return self.editing.duplicate(row)

    def delete(self) -> bool:
        row = self.current_row()
        if row < 0:
            self.say("choose an archetype to delete (click a cell of its row)", True)
            return False
        return self.editing.delete(row)

    # --------------------------------------------------------------- files
    def _start_dir(self) -> str:
        src = self.editing.source
        return str(src.path.parent) if src.kind != "default" else str(Path.home())

    def _ask(self, title: str, filter_: str = ROSTER_FILTER, save: bool = False) -> str:
        """A file chosen in a file dialog ("" when cancelled)."""
        if save:
            start = str(Path(self._start_dir()) / "roster.json")
            return QFileDialog.getSaveFileName(self, title, start, filter_)[0]
        return QFileDialog.getOpenFileName(self, title, self._start_dir(), filter_)[0]

    def open_file(self, path: Path | str | None = None) -> bool:
        if not self.maybe_save():
            return False
        path = path or self._ask("Open Roster")
        return bool(path) and self.editing.open(path)

    def save(self) -> bool:
        if self.editing.source.kind == "default":
            return self.save_as()
        return self.editing.save()

    def save_as(self, path: Path | str | None = None) -> bool:
        path = path or self._ask("Save Roster As", save=True)
        return bool(path) and self.editing.save_as(path)

    def save_into_pack(self, path: Path | str | None = None) -> bool:
        path = path or self._ask("Save Roster Into Map Pack")
        return bool(path) and self.editing.save_into_pack(path)

    def choose_rules(self, path: Path | str | None = None) -> bool:
        """The rules file the matchups use (the default rules until one is chosen)."""
        path = path or self._ask("Rules For The Matchups", RULES_FILTER)
        if not path:
            return False
        try:
            rules = load_rules(path)
        except BattleInputError as exc:
            self.say(str(exc), True)
            return False
        self._set_rules(rules, Path(path).name)
        return True

    def _set_rules(self, rules: Rules, label: str) -> None:
        self.matchups.model.set_rules(rules)
        self.rules_label.setText(f"Matchups under {label}")

    def maybe_save(self) -> bool:
        """Ask about unsaved roster changes; False when the user cancels."""
        if not self.editing.modified:
            return True
        answer = QMessageBox.question(
            self, "Unsaved Roster", f"Save the changes to {self.editing.source.label}?",
            QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard
            | QMessageBox.StandardButton.Cancel)
        if answer == QMessageBox.StandardButton.Save:
            return self.save()
        return answer == QMessageBox.StandardButton.Discard

    # ------------------------------------------------------------- feedback
    def say(self, text: str, is_problem: bool = False) -> None:
        self.message_label.setText(text)
        self.message_label.setStyleSheet(PROBLEM_STYLE if is_problem else "")

    def _typing_problem(self, why: str) -> None:
        if why:
            self.say(why, True)
        else:
            self.say("", False)

    def _show_row(self, row: int) -> None:
        if row >= 0:
            col = max(0, self.table.currentIndex().column())
            self.table.setCurrentIndex(self.table_model.index(row, col))
        self._row_chosen(self.table.currentIndex())  # (a renamed archetype: its tab)

    def _row_chosen(self, current, _previous=None) -> None:
        row = current.row() if current.isValid() else -1
        self.abilities.set_archetype(row)
        name = self.editing.name_of(row) if row >= 0 else ""
        self.tabs.setTabText(1, f"Abilities of {name}" if name else "Abilities")

    def _reconnect_rows(self) -> None:
        """After a reset (an archetype added or deleted) the current row is shown again."""
        self._row_chosen(self.table.currentIndex())

    def _source_changed(self) -> None:
        src = self.editing.source
        if self.settings is not None:
            self.settings.setValue(SOURCE_KEY, "" if src.kind == "default" else str(src.path))
        self._update_title()

    def _update_title(self, *_args: object) -> None:
        self.setWindowTitle(f"Roster Editor - {self.editing.source.label}[*]")
        self.setWindowModified(self.editing.modified)

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 (Qt override)
        # Closing only hides the editor: its roster and history stay until the
        # window closes (which asks about unsaved changes through maybe_save).
        event.accept()
