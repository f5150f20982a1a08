"""Tools > Teams and Formations: the team editor window.  It takes a
:class:`~.model.TeamDocument` (the team, its roster, cap, file and undo stack)
and a :class:`~.preview.PlacementPreview` (the formation on the open map), and
lays out their views: the members with the point total, the formations, the
formation grid, the preview's zone and its line, and the file commands.  It never
reaches the main window; :meth:`TeamEditor.for_context` builds it from the
editor context.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QAction, QCloseEvent, QHideEvent, QKeySequence, QShowEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QFileDialog,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QSplitter,
    QToolBar,
    QVBoxLayout,
    QWidget,
)

from ...battle.jsonfiles import BattleInputError
from ..context import EditorContext
from ..dialogs import text_box
from ..roster import used_roster
from .formations import FormationsPanel
from .grid import FormationGrid
from .members import MembersPanel
from .model import TeamDocument
from .preview import PlacementPreview

PROBLEM = "#b00020"
FILTER = "Team files (*.json);;All files (*)"
SK = QKeySequence.StandardKey


class TeamEditor(QDialog):
    """The team and formation editor (module docstring)."""

    def __init__(self, team: TeamDocument, preview: PlacementPreview | None = None,
                 settings: QSettings | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("team_editor")
        self.setModal(False)
        self.team, self.preview, self.settings = team, preview, settings
        # the team and its preview live as long as their window, never longer: the
        # window's views are disconnected before the team's undo stack goes
        for part in (team, preview):
            if part is not None and part.parent() is None:
                part.setParent(self)
        lay = QVBoxLayout(self)
        self.file_actions = self._build_actions()
        bar = QToolBar()
        bar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        for key in ("new", "open", "save", "save_as", "-", "undo", "redo", "-", "roster"):
            if key == "-":
                bar.addSeparator()
            else:
                bar.addAction(self.file_actions[key])
        lay.addWidget(bar)
        name_row = QHBoxLayout()
        self.name = QLineEdit()
        self.name.setObjectName("team_name")
        self.name.setMaxLength(200)
        self.name.editingFinished.connect(self._name_edited)
        self.file_label = QLabel()
        self.roster_label = QLabel()
        name_row.addWidget(QLabel("Team &name"))
        name_row.itemAt(0).widget().setBuddy(self.name)  # type: ignore[union-attr]
        name_row.addWidget(self.name, 1)
        name_row.addWidget(self.file_label)
        name_row.addWidget(self.roster_label)
        lay.addLayout(name_row)
        self.members = MembersPanel(team)
        self.formations = FormationsPanel(team)
        self.grid = FormationGrid(team)
        split = QSplitter()
        split.setChildrenCollapsible(False)
        for title, widget in (("Members", self.members), ("Formations", self.formations),
                              ("Formation grid", self.grid)):
            box = QGroupBox(title)
            QVBoxLayout(box).addWidget(widget)
            split.addWidget(box)
        split.setStretchFactor(2, 1)
        split.setSizes([380, 220, 520])
        lay.addWidget(split, 1)
        self.grid_line = QLabel()
        self.grid_line.setObjectName("team_grid_line")
        self.grid.hovered.connect(self.grid_line.setText)
        split.widget(2).layout().addWidget(self.grid_line)  # type: ignore[union-attr]
        self.members.member_selected.connect(self.grid.select_member)
        self.grid.member_selected.connect(self.members.select_member)
        lay.addWidget(self._build_preview_row())
        self.problem = QLabel()
        self.problem.setObjectName("team_problem")
        self.problem.setStyleSheet(f"color: {PROBLEM}")
        lay.addWidget(text_box(self.problem, 3, "team_problem_box"))
        self._message = ""
        for button in self.findChildren(QPushButton):  # Enter in a field clicks nothing
            button.setAutoDefault(False)
            button.setDefault(False)
        team.changed.connect(self._edited)
        team.path_changed.connect(self.refresh)
        team.roster_changed.connect(self.refresh)
        team.undo_stack.cleanChanged.connect(self.refresh)
        team.message.connect(self.say)
        self.resize(1100, 680)
        self.refresh()
        team.show_formation(0)

    @classmethod
    def for_context(cls, context: EditorContext, parent: QWidget | None = None) -> TeamEditor:
        """The editor over a new team, previewing on the context's map."""
        team = TeamDocument(context.roster_in_use.current.roster)
        team.follow(context.roster_in_use)  # a roster saved in the Roster Editor: its costs
        preview = PlacementPreview(team, context.document, context.scene)
        return cls(team, preview, context.settings, parent)

    # ------------------------------------------------------------------ build
    def _build_actions(self) -> dict[str, QAction]:
        t = self.team
        out: dict[str, QAction] = {}
        for key, text, keys, slot in (
            ("new", "&New Team", SK.New, self.new_team),
            ("open", "&Open...", SK.Open, self.ask_open),
            ("save", "&Save", SK.Save, self.save),
            ("save_as", "Save &As...", "Ctrl+Shift+S", self.ask_save_as),
            ("roster", "&Roster...", None, self.ask_roster),
        ):
            act = QAction(text, self)
            if keys is not None:
                act.setShortcut(QKeySequence(keys))
            act.triggered.connect(lambda _c=False, s=slot: s())
            out[key] = act
        out["undo"] = t.undo_stack.createUndoAction(self, "&Undo")
        out["undo"].setShortcut(QKeySequence("Ctrl+Z"))
        out["redo"] = t.undo_stack.createRedoAction(self, "&Redo")
        out["redo"].setShortcuts([QKeySequence("Ctrl+Shift+Z"), QKeySequence("Ctrl+Y")])
        for act in out.values():
            act.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
            self.addAction(act)
        out["roster"].setToolTip("Take the archetypes and costs from another roster file")
        return out

    def _build_preview_row(self) -> QWidget:
        box = QGroupBox("Preview on the map (decision B4)")
        row = QHBoxLayout(box)
        self.show_preview = QCheckBox("&Show on the map in start zone")
        self.show_preview.setObjectName("team_preview_show")
        self.zone = QComboBox()
        self.zone.setObjectName("team_preview_zone")
        self.preview_line = QLabel()
        self.preview_line.setObjectName("team_preview_line")
        self.preview_line.setWordWrap(True)
        row.addWidget(self.show_preview)
        row.addWidget(self.zone)
        row.addWidget(self.preview_line, 1)
        p = self.preview
        if p is None:
            box.setEnabled(False)
            self.preview_line.setText("no map to preview on")
            return box
        self._fill_zones(p.zones())
        p.zones_changed.connect(self._fill_zones)
        p.result.connect(self._show_result)
        self.zone.currentTextChanged.connect(p.set_zone)
        self.show_preview.toggled.connect(p.set_shown)
        p.set_zone(self.zone.currentText())
        self.show_preview.setChecked(bool(p.zones()))
        return box

    def _fill_zones(self, zones: list[str]) -> None:
        keep = self.zone.currentText()
        self.zone.blockSignals(True)
        self.zone.clear()
        self.zone.addItems(zones)
        if keep in zones:
            self.zone.setCurrentText(keep)
        self.zone.blockSignals(False)
        if self.preview is not None and self.zone.currentText() != self.preview.zone:
            self.preview.set_zone(self.zone.currentText())

    def _show_result(self, text: str, warning: bool) -> None:
        self.preview_line.setText(text)
        self.preview_line.setStyleSheet(f"color: {PROBLEM}; font-weight: bold" if warning
                                        else "")

    # ------------------------------------------------------------------ state
    def refresh(self, *_args: object) -> None:
        t = self.team
        if self.name.text() != t.doc.name and not self.name.hasFocus():
            self.name.setText(t.doc.name)
        self.file_label.setText(t.path.name if t.path else "(not saved)")
        self.roster_label.setText(f"Roster: {t.roster_label}")
        self.roster_label.setToolTip("The roster the members' points and checks come from: "
                                     "the roster in use (the Roster Editor's last, else the "
                                     "shipped one) until Roster... picks another")
        self.setWindowTitle(f"Team Editor - {t.doc.name}[*]")
        self.setWindowModified(t.modified)
        self._show_problems()

    def _edited(self) -> None:
        self._message = ""  # an edit went through: the last refusal is old news
        self.refresh()

    def say(self, text: str) -> None:
        """A refused edit or a file problem, shown until the next edit."""
        self._message = text
        self._show_problems()

    def _show_problems(self) -> None:
        lines = ([self._message] if self._message else []) + self.team.problems()
        self.problem.setText("\n".join(lines))

    def _name_edited(self) -> None:
        text = self.name.text()
        if text != self.team.doc.name and not self.team.set_name(text):
            self.name.setText(self.team.doc.name)

    # ------------------------------------------------------------------ files
    def _folder(self) -> str:
        if self.team.path is not None:
            return str(self.team.path.parent)
        return str(self.settings.value("team_editor/folder", "")) if self.settings else ""

    def _remember(self, path: Path) -> None:
        if self.settings is not None:
            self.settings.setValue("team_editor/folder", str(path.parent))

    def maybe_save(self) -> bool:
        """Ask about unsaved team changes; False when the user cancels."""
        if not self.team.modified:
            return True
        answer = QMessageBox.question(
            self, "Unsaved Team", f"Save the changes to team {self.team.doc.name!r}?",
            QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard
            | QMessageBox.StandardButton.Cancel)
        if answer == QMessageBox.StandardButton.Save:
            return self.save()
        return answer == QMessageBox.StandardButton.Discard

    def new_team(self) -> None:
        if self.maybe_save():
            self._message = ""
            self.team.new()

    def ask_open(self) -> None:
        if not self.maybe_save():
            return
        path, _ = QFileDialog.getOpenFileName(self, "Open Team", self._folder(), FILTER)
        if path:
            self.open_file(Path(path))

    def open_file(self, path: Path) -> bool:
        self._message = ""
        ok = self.team.open(path)
        if ok:
            self._remember(path)
        return ok

    def save(self) -> bool:
        if self.team.path is None:
            return self.ask_save_as()
        return self._saved(self.team.save())

    def ask_save_as(self) -> bool:
        start = str(Path(self._folder()) / f"{self.team.doc.name}.json")
        path, _ = QFileDialog.getSaveFileName(self, "Save Team", start, FILTER)
        if not path:
            return False
        return self.save_as(Path(path))

    def save_as(self, path: Path) -> bool:
        if self._saved(self.team.save(path)):
            self._remember(path)
            return True
        return False

    def _saved(self, ok: bool) -> bool:
        if ok:
            self._message = ""
            self._show_problems()
        return ok

    def ask_roster(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Roster", self._folder(), FILTER)
        if path:
            self.load_roster(Path(path))

    def load_roster(self, path: Path) -> bool:
        """Take the archetypes and costs of a roster file or a map pack's roster."""
        try:
            used = used_roster(path)
        except BattleInputError as exc:
            self.say(str(exc))
            return False
        self.team.set_roster(used.roster, path, used.label)
        return True

    # ------------------------------------------------------------------ window
    def present(self) -> None:
        self.show()
        self.raise_()
        self.activateWindow()

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802
        super().showEvent(event)
        if self.preview is not None:
            self.preview.set_shown(self.show_preview.isChecked())

    def hideEvent(self, event: QHideEvent) -> None:  # noqa: N802
        super().hideEvent(event)
        if self.preview is not None:  # a closed editor leaves nothing on the map
            self.preview.set_shown(False)

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802
        if not self.maybe_save():
            event.ignore()
            return
        event.accept()

    def reject(self) -> None:  # Escape: close as the window's close button does
        self.close()
