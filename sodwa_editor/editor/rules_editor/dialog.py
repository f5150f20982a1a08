"""Tools > Rules Editor: a rules variant edited key by key, generated from
``schemas/rules.schema.json``.

Each key is a row under its section: the value (an editor fitted to its type and
range, :mod:`.value_editors`), the default, the range or choices and whether the
rulebook fixes it (RB) or leaves it open; changed keys are bold on a tinted row and
counted in the section's row.  The pane beside the table says what the selected key
means and quotes the docs/rules.md decisions it rests on (B10 ...) with their
sentences, linked to the file.  A filter finds keys by name, meaning or decision;
"Changed only" hides the rest.  Open, Save and Save As read and write rules files
that give only the changed keys, so the variant keeps following every default it
does not change; Playtest (F5) and the Balance Run take such a file as their rules.

The dialog is given the :class:`~.model.RulesDocument` it shows and only talks to
it; a refused value or file is one line in the dialog's status, never a crash.
"""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Any, TypeVar

from PySide6.QtCore import QSettings, Qt, QUrl, Signal
from PySide6.QtGui import QBrush, QCloseEvent, QColor, QFont, QKeySequence
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QSplitter,
    QTextBrowser,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ...battle.jsonfiles import BattleInputError
from ...battle.rules_catalog import RuleDocs, RuleKey, rule_docs
from .model import RulesDocument
from .value_editors import ValueEditor

COLUMNS = ("Key", "Value", "Default", "Range", "Basis")
KEY, VALUE, DEFAULT, RANGE, BASIS = range(5)
CHANGED_BRUSH = QBrush(QColor(255, 243, 196))
BASIS_TIPS = {"RB": "fixed by the rulebook (change it for experiments only)",
              "open": "left open by the rulebook: the default is this project's decision",
              "seed": "a companion rulebook's number"}
#: a filter word that is a decision id (``b10``, ``tp-b3``): matched whole
DECISION_WORD = re.compile(r"[a-z]{1,2}(?:-[a-z]{1,2})?\d{1,3}")
#: the settings key of the folder the last rules file was opened from or saved to
FOLDER_KEY = "rules_editor/folder"


W = TypeVar("W", bound=QWidget)


def named(widget: W, name: str, placeholder: str = "") -> W:
    """``widget`` with its object name (tests find it by that) and placeholder text."""
    widget.setObjectName(name)
    if placeholder and isinstance(widget, QLineEdit):
        widget.setPlaceholderText(placeholder)
    return widget


def shown(value: Any) -> str:
    """A value as the table shows it (``null`` as "none", lists comma-separated)."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list | tuple):
        return ", ".join(map(str, value)) or "(none)"
    return str(value)


class RulesEditor(QDialog):
    """The rules editor over one :class:`RulesDocument`."""

    saved = Signal(Path)  # a rules file was written

    def __init__(self, document: RulesDocument | None = None, parent: QWidget | None = None,
                 *, docs: RuleDocs | None = None, settings: QSettings | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("rules_editor")
        self.document = document if document is not None else RulesDocument(parent=self)
        self.docs = docs if docs is not None else rule_docs()
        self.settings = settings
        self.resize(1100, 680)
        self.items: dict[str, QTreeWidgetItem] = {}
        self.editors: dict[str, ValueEditor] = {}
        self.sections: dict[str, QTreeWidgetItem] = {}
        self._build()
        d = self.document
        d.key_changed.connect(self._show_key)
        d.reloaded.connect(self._show_all)
        d.header_changed.connect(self._show_header)
        d.path_changed.connect(self._show_title)
        self._show_all()
        self._show_header()
        self._show_title()

    # -- building ------------------------------------------------------------------------
    def _build(self) -> None:
        top = QVBoxLayout(self)
        head = QHBoxLayout()
        self.name = named(QLineEdit(), "rules_name", "name of this variant")
        self.description = named(QLineEdit(), "rules_description", "what it is for")
        for w in (self.name, self.description):
            w.editingFinished.connect(self._rename)
        head.addWidget(QLabel("Name:"))
        head.addWidget(self.name, 1)
        head.addWidget(QLabel("Description:"))
        head.addWidget(self.description, 2)
        top.addLayout(head)

        bar = QHBoxLayout()
        self.filter = named(QLineEdit(), "rules_filter",
                            "Filter keys by name, meaning or decision (B10)")
        self.filter.setClearButtonEnabled(True)
        self.filter.textChanged.connect(lambda _t: self._apply_filter())
        self.changed_only = named(QCheckBox("Changed only"), "rules_changed_only")
        self.changed_only.toggled.connect(lambda _on: self._apply_filter())
        self.count = named(QLabel(), "rules_count")
        bar.addWidget(self.filter, 1)
        bar.addWidget(self.changed_only)
        bar.addWidget(self.count)
        top.addLayout(bar)

        split = QSplitter(Qt.Orientation.Horizontal)
        self.tree = named(QTreeWidget(), "rules_tree")
        self.tree.setColumnCount(len(COLUMNS))
        self.tree.setHeaderLabels(list(COLUMNS))
        self.tree.setUniformRowHeights(False)  # rows as high as their editors
        self.tree.setAlternatingRowColors(False)
        header = self.tree.header()
        header.setSectionResizeMode(KEY, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(VALUE, QHeaderView.ResizeMode.Interactive)
        for col, width in ((VALUE, 210), (DEFAULT, 110), (RANGE, 120), (BASIS, 50)):
            header.resizeSection(col, width)
        for key in self.document.variant.keys.values():
            self._add_row(key)
        self.tree.expandAll()
        self.tree.currentItemChanged.connect(lambda _c, _p: self._show_details())
        self.details = named(QTextBrowser(), "rules_details")
        self.details.setOpenExternalLinks(True)
        split.addWidget(self.tree)
        split.addWidget(self.details)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        split.setSizes([760, 440])
        top.addWidget(split, 1)

        self.status = named(QLabel(), "rules_status")
        self.status.setWordWrap(True)
        top.addWidget(self.status)
        buttons = QHBoxLayout()
        stack = self.document.undo_stack
        self.undo_button = self._button(buttons, "Undo", stack.undo, QKeySequence.StandardKey.Undo)
        self.redo_button = self._button(buttons, "Redo", stack.redo, QKeySequence.StandardKey.Redo)
        stack.canUndoChanged.connect(self.undo_button.setEnabled)
        stack.canRedoChanged.connect(self.redo_button.setEnabled)
        stack.undoTextChanged.connect(self._undo_tip)
        stack.redoTextChanged.connect(self._redo_tip)
        self.undo_button.setEnabled(stack.canUndo())
        self.redo_button.setEnabled(stack.canRedo())
        self.reset_key_button = self._button(buttons, "Reset Key", self.reset_current)
        self._button(buttons, "Reset All", self.document.reset_all)
        buttons.addStretch(1)
        self._button(buttons, "Open...", self.open_file, QKeySequence.StandardKey.Open)
        self._button(buttons, "Save", self.save_file, QKeySequence.StandardKey.Save)
        self._button(buttons, "Save As...", self.save_file_as, QKeySequence("Ctrl+Shift+S"))
        self._button(buttons, "Close", self.close)
        top.addLayout(buttons)

    def _undo_tip(self, text: str) -> None:
        self.undo_button.setToolTip(f"Undo {text}")

    def _redo_tip(self, text: str) -> None:
        self.redo_button.setToolTip(f"Redo {text}")

    def _button(self, row: QHBoxLayout, text: str, slot: Any,
                shortcut: QKeySequence | QKeySequence.StandardKey | None = None) -> QPushButton:
        b = named(QPushButton(text), f"rules_{text.strip('.').lower().replace(' ', '_')}")
        b.setAutoDefault(False)
        b.clicked.connect(lambda _c=False: slot())
        if shortcut is not None:
            b.setShortcut(QKeySequence(shortcut))
        row.addWidget(b)
        return b

    def _add_row(self, key: RuleKey) -> None:
        section = self.sections.get(key.section)
        if section is None:
            section = self.sections[key.section] = QTreeWidgetItem(self.tree, [key.section])
            section.setFirstColumnSpanned(False)
            f = section.font(KEY)
            f.setBold(True)
            section.setFont(KEY, f)
        label = key.key[len(key.section) + 1:]
        item = QTreeWidgetItem(section, [label, "", shown(key.default), key.range_text(),
                                         key.basis])
        item.setData(KEY, Qt.ItemDataRole.UserRole, key.key)
        item.setToolTip(KEY, key.key)
        item.setToolTip(BASIS, BASIS_TIPS.get(key.basis, ""))
        editor = ValueEditor(key)
        editor.edited.connect(lambda value, k=key.key: self._edited(k, value))
        item.setSizeHint(VALUE, editor.sizeHint())  # rows as high as their editors
        self.tree.setItemWidget(item, VALUE, editor)
        self.items[key.key] = item
        self.editors[key.key] = editor

    # -- showing -------------------------------------------------------------------------
    def _show_key(self, key: str) -> None:
        variant = self.document.variant
        item, editor = self.items[key], self.editors[key]
        editor.show_value(variant.value(key))
        changed = variant.is_changed(key)
        font = QFont(item.font(KEY))
        font.setBold(changed)
        for col in range(len(COLUMNS)):
            item.setFont(col, font)
            item.setBackground(col, CHANGED_BRUSH if changed else QBrush())
        item.setToolTip(VALUE, "changed from the default" if changed else "the default")
        self._show_counts()
        if self.tree.currentItem() is item:
            self._show_details()

    def _show_all(self) -> None:
        for key in self.items:
            self._show_key(key)
        self._apply_filter()
        self._show_details()

    def _show_counts(self) -> None:
        changed = self.document.variant.changed()
        for name, section in self.sections.items():
            n = sum(1 for k in changed if k.split(".")[0] == name)
            section.setText(VALUE, f"{n} changed" if n else "")
        self.count.setText(f"{len(changed)} of {len(self.items)} keys changed")

    def _show_header(self) -> None:
        v = self.document.variant
        self.name.setText(v.name)
        self.description.setText(v.description)

    def _show_title(self) -> None:
        d = self.document
        where = str(d.path) if d.path is not None else "unsaved variant"
        self.setWindowTitle(f"Rules Editor - {where}{' *' if d.modified else ''}")

    def current_key(self) -> str | None:
        item = self.tree.currentItem()
        return None if item is None else item.data(KEY, Qt.ItemDataRole.UserRole)

    def _show_details(self) -> None:
        key = self.current_key()
        self.reset_key_button.setEnabled(
            key is not None and self.document.variant.is_changed(key))
        if key is None:
            self.details.setHtml("<p>Select a key to see what it means and the decision "
                                 "it rests on.</p>")
            return
        self.details.setHtml(details_html(self.document.variant.keys[key],
                                          self.document.variant.value(key), self.docs))

    def _apply_filter(self) -> None:
        words = self.filter.text().lower().split()
        only = self.changed_only.isChecked()
        variant = self.document.variant
        for key, item in self.items.items():
            rk = variant.keys[key]
            text = " ".join((key, rk.description, rk.meaning)).lower()
            ids = {i.lower() for i in rk.decisions}
            # a decision id (B10) finds the keys resting on it, not TP-B10's
            found = all(w in ids if DECISION_WORD.fullmatch(w) else w in text for w in words)
            item.setHidden((only and not variant.is_changed(key)) or not found)
        for section in self.sections.values():
            section.setHidden(all(self.tree.isRowHidden(i, self.tree.indexFromItem(section))
                                  for i in range(section.childCount())))

    # -- edits ---------------------------------------------------------------------------
    def _edited(self, key: str, value: Any) -> None:
        error = self.document.set_value(key, value)
        if error is not None:
            self.say(error, error=True)
            self._show_key(key)  # the editor shows the value in force again
        else:
            self.say("")

    def _rename(self) -> None:
        self.document.rename(self.name.text().strip(), self.description.text().strip())

    def reset_current(self) -> None:
        key = self.current_key()
        if key is not None:
            self.document.reset_value(key)

    def say(self, text: str, *, error: bool = False) -> None:
        self.status.setText(text)
        self.status.setStyleSheet("color: #b00020;" if error else "")

    # -- files ---------------------------------------------------------------------------
    def _folder(self) -> str:
        if self.document.path is not None:
            return str(self.document.path.parent)
        return str(self.settings.value(FOLDER_KEY, "")) if self.settings is not None else ""

    def _remember(self, path: Path) -> None:
        if self.settings is not None:
            self.settings.setValue(FOLDER_KEY, str(path.parent))

    def open_file(self, path: Path | None = None) -> bool:
        if not self._may_drop_changes():
            return False
        if path is None:
            name, _ = QFileDialog.getOpenFileName(self, "Open Rules File", self._folder(),
                                                  "Rules files (*.json)")
            if not name:
                return False
            path = Path(name)
        try:
            self.document.open(path)
        except BattleInputError as exc:
            self.say(str(exc), error=True)
            return False
        self._remember(path)
        n = len(self.document.variant.changed())
        self.say(f"opened {path.name}: {n} key{'s' if n != 1 else ''} differ from the defaults")
        return True

    def save_file(self, path: Path | None = None) -> bool:
        if path is None and self.document.path is None:
            return self.save_file_as()
        try:
            written = self.document.save(path)
        except BattleInputError as exc:
            self.say(str(exc), error=True)
            return False
        self._remember(written)
        self.say(f"saved {written}: {len(self.document.variant.changed())} changed keys")
        self.saved.emit(written)
        return True

    def save_file_as(self) -> bool:
        start = self._folder()
        name, _ = QFileDialog.getSaveFileName(self, "Save Rules File", start,
                                              "Rules files (*.json)")
        if not name:
            return False
        path = Path(name)
        if path.suffix != ".json":
            path = path.with_suffix(".json")
        return self.save_file(path)

    def _may_drop_changes(self) -> bool:
        if not self.document.modified:
            return True
        answer = QMessageBox.question(
            self, "Unsaved Rules", "The rules variant has unsaved changes. Save them?",
            QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard
            | QMessageBox.StandardButton.Cancel)
        if answer == QMessageBox.StandardButton.Save:
            return self.save_file()
        return answer == QMessageBox.StandardButton.Discard

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 - Qt override
        if self._may_drop_changes():
            event.accept()
        else:
            event.ignore()


def _md(text: str) -> str:
    """docs/rules.md's inline markdown as HTML: `code`, **bold**, *italic*."""
    out = html.escape(text, quote=False)
    out = re.sub(r"`([^`]+)`", r"<code>\1</code>", out)
    out = re.sub(r"\*\*([^*]+)\*\*", r"<b>\1</b>", out)
    return re.sub(r"\*([^*]+)\*", r"<i>\1</i>", out)


def details_html(key: RuleKey, value: Any, docs: RuleDocs) -> str:
    """The details pane of a key: what it means, its default and range, its basis and
    the decisions it rests on, quoted from docs/rules.md with a link to the file."""
    e = html.escape
    parts = [f"<h3><code>{e(key.key)}</code></h3>"]
    if key.meaning:
        parts.append(f"<p>{_md(key.meaning)}</p>")
    if key.description and key.description != key.meaning:
        parts.append(f"<p style='color:#555'>{e(key.description)}</p>")
    facts = [f"value <b>{e(shown(value))}</b>", f"default {e(shown(key.default))}"]
    if key.range_text():
        facts.append(f"range {e(key.range_text())}")
    facts.append(f"<b>{e(key.basis)}</b>: {e(BASIS_TIPS.get(key.basis, ''))}")
    parts.append("<p>" + " &middot; ".join(facts) + "</p>")
    for ident in key.decisions:
        decision = docs.decisions.get(ident)
        if decision is None:
            continue
        parts.append(f"<h4>{e(ident)}</h4><p>{_md(decision.text)}</p>")
        if decision.rests_on:
            parts.append(f"<p><i>Rests on:</i> {_md(decision.rests_on)}</p>")
        if decision.tests:
            parts.append(f"<p><i>Tests:</i> {_md(decision.tests)}</p>")
    if docs.path is not None:
        url = QUrl.fromLocalFile(str(docs.path)).toString()
        parts.append(f"<p><a href='{e(url)}'>docs/rules.md</a></p>")
    return "\n".join(parts)
