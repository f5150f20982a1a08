"""The editor's main window: the map view, tool bars, docks and status bar
around one :class:`~.document.Document`."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QPointF, QSettings, QSize, Qt, QTimer
from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import (
    QDockWidget,
    QGraphicsSimpleTextItem,
    QLabel,
    QMainWindow,
    QMenu,
    QMessageBox,
    QScrollArea,
    QUndoView,
    QWidget,
)

from ..engine.model import MapModel
from ..engine.terrain import Base
from . import actions, style
from .docks.inspector import InspectorDock
from .docks.layers import LayersDock
from .docks.legend import LegendDock
from .docks.minimap import Minimap, follow_map_size
from .docks.palette import PaletteDock
from .docks.tool_options import ToolOptionsBar
from .docks.validation import ValidationDock
from .document import Document
from .file_ops import FileController
from .geometry import nearest_edge
from .layout import WindowLayout
from .notes import place_note
from .recovery import Recovery
from .scene.map_scene import MapScene
from .style import TILE
from .tools import TOOL_CLASSES, EditorState
from .tools.base import Tool
from .tools.select import SelectTool
from .view import MapView

if TYPE_CHECKING:
    from .balance.dialog import BalanceDialog
    from .balance.heatmap import HeatMapControls

APP_NAME = "SODWA Editor"
#: width a dock starts with; afterwards only the user changes it (DockBody)
DOCK_WIDTH = 260


class DockBody(QScrollArea):
    """A dock's content in a scroll area whose size hints never change: what the
    dock shows (a character's form, a long problem) cannot widen or narrow the dock
    and so move the map under the pointer.  Content wider than the dock scrolls."""

    def __init__(self, content: QWidget) -> None:
        super().__init__()
        self.setWidget(content)
        self.setWidgetResizable(True)
        self.setFrameShape(QScrollArea.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt override)
        return QSize(DOCK_WIDTH, 200)

    def minimumSizeHint(self) -> QSize:  # noqa: N802 (Qt override)
        return QSize(120, 60)


def default_settings() -> QSettings:
    return QSettings("SODWA", "SODWA Editor")


class StatusField(QLabel):
    """A status bar field (the hovered tile, its terrain, the edge near the
    pointer) whose width only grows.  A plain label asks for the window's
    layout again whenever its text changes, and the main window then lays
    out its docks again: on every hover move, and on every step of a
    stroke, where that was a third of the repaint.  Fixed at its widest
    text so far, a new text that fits changes nothing but the label."""

    def setText(self, text: str) -> None:  # noqa: N802 (Qt override)
        super().setText(text)
        hint = self.sizeHint()
        if hint.width() > self.maximumWidth() or hint.height() != self.maximumHeight():
            self.setFixedSize(max(hint.width(), self.minimumWidth()), hint.height())


class MainWindow(QMainWindow):
    #: menus the actions module builds (Open Recent is refilled by the file controller)
    view_menu: QMenu
    recent_menu: QMenu
    help_menu: QMenu
    tools_menu: QMenu
    heat_map: HeatMapControls  # the balance heat map and its Layers dock section
    balance_dialog: BalanceDialog | None = None

    def __init__(self, model: MapModel | None = None, path: Path | None = None, *,
                 settings: QSettings | None = None, recovery_dir: Path | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.settings = settings if settings is not None else default_settings()
        self.document = Document(model, path, self)
        self.state = EditorState(self)
        self.state.follow_types(self.document.model)
        self.document.model_replaced.connect(self.state.follow_types)  # before the docks
        self.scene = MapScene(self.document.model, self)
        self.view = MapView(self.scene, self)
        self.setCentralWidget(self.view)
        self.tools: dict[str, Tool] = {cls.name: cls(self.document, self.scene, self.state)
                                       for cls in TOOL_CLASSES}
        self.files = FileController(self)
        self.last_note: QGraphicsSimpleTextItem | None = None
        self.note_timer = QTimer(self)  # owned by the window: never fires after it is gone
        self.note_timer.setSingleShot(True)
        self.note_timer.setInterval(2500)
        self.note_timer.timeout.connect(self._drop_note)
        self.recovery = Recovery(self.document, recovery_dir)
        from .previews import PreviewController

        self.previews = PreviewController(self)
        from .playtest.mode import PlaytestMode

        self.playtest = PlaytestMode(self)  # its actions join the menus and tool bar
        self.action_map = actions.build(self)
        self.tool_options = ToolOptionsBar(self)
        self.addToolBar(self.tool_options)
        self._build_docks()
        self.playtest.build_ui()
        from .balance import install as install_balance

        install_balance(self)  # Tools > Balance Run, the heat map in the Layers dock
        self.document.layer_guard = self.layers.refusal  # hidden or locked: refused
        self._build_status()
        self.state.hint.connect(self.statusBar().showMessage)
        self.window_layout = WindowLayout(self)
        self.window_layout.restore()  # geometry, docks, layers of the last run
        follow_map_size(self.docks["minimap"], self.document.model)
        d = self.document
        d.model_replaced.connect(self._on_model_replaced)
        d.edited.connect(self.scene.flush)
        d.edited.connect(self._on_edited)
        d.message.connect(self.show_message)
        d.loaded.connect(self.view.zoom_fit)  # new, open, revert, recovery: fitted
        # Bound methods, not lambdas: Qt drops them when the window is deleted.
        d.undo_stack.cleanChanged.connect(self._update_title)
        d.path_changed.connect(self._update_title)
        d.path_changed.connect(lambda _p: self.window_layout.go_to_place())
        self.view.hovered.connect(self._on_hover)
        self.view.pin_requested.connect(lambda x, y: self.previews.pin((x, y)))
        self.view.zoom_changed.connect(lambda z: self.zoom_label.setText(f"{z * 100:.0f}%"))
        self.files.refresh_recent()
        self.set_tool("brush")
        self._sync_map_actions()
        self._update_title()
        QTimer.singleShot(0, self.view.zoom_fit)
        self.window_layout.go_to_place()  # a map file opened before: where it was left

    # ------------------------------------------------------------------ build
    def _dock(self, widget: QWidget, title: str, name: str,
              area=Qt.DockWidgetArea.RightDockWidgetArea) -> QDockWidget:
        dock = QDockWidget(title, self)
        dock.setObjectName(name)
        dock.setWidget(DockBody(widget))
        self.addDockWidget(area, dock)
        self.view_menu.addAction(dock.toggleViewAction())
        return dock

    def _build_docks(self) -> None:
        self.palette_dock = PaletteDock(self)
        self.inspector = InspectorDock(self)
        self.layers = LayersDock(self)
        self.validation = ValidationDock(self)
        self.history = QUndoView(self.document.undo_stack)
        self.history.setEmptyLabel("<opened map>")
        left = Qt.DockWidgetArea.LeftDockWidgetArea
        self.docks = {
            "palette": self._dock(self.palette_dock, "Terrain", "palette_dock", left),
            "layers": self._dock(self.layers, "Layers", "layers_dock", left),
            "inspector": self._dock(self.inspector, "Inspector", "inspector_dock"),
            "validation": self._dock(self.validation, "Validation", "validation_dock"),
            "history": self._dock(self.history, "History", "history_dock"),
        }
        self.minimap = Minimap(self)
        self.legend = LegendDock(self)
        self.docks["minimap"] = self._dock(self.minimap, "Minimap", "minimap_dock")
        self.docks["legend"] = self._dock(self.legend, "Legend", "legend_dock")
        self.splitDockWidget(self.docks["minimap"], self.docks["inspector"],
                             Qt.Orientation.Vertical)
        self.tabifyDockWidget(self.docks["validation"], self.docks["history"])
        self.tabifyDockWidget(self.docks["history"], self.docks["legend"])
        self.docks["validation"].raise_()
        legend = self.docks["legend"].toggleViewAction()
        legend.setText("&Legend")
        legend.setToolTip("What every line, fill and preview colour means")
        self.help_menu.addAction(legend)

    def _build_status(self) -> None:
        sb = self.statusBar()
        self.tile_label = StatusField("")
        self.terrain_label = StatusField("")
        self.edge_label = StatusField("")
        self.zoom_label = StatusField("100%")
        for w in (self.tile_label, self.terrain_label, self.edge_label, self.zoom_label):
            sb.addPermanentWidget(w)

    # ----------------------------------------------------------------- status
    def _on_hover(self, pos) -> None:
        # the map shown: the document's, or a playtest's board (walls it destroyed)
        m = self.scene.model if self.scene.model is not None else self.document.model
        if pos is None:
            self.tile_label.setText("")
            self.terrain_label.setText("")
            self.edge_label.setText("")
            return
        fx, fy = pos
        x, y = int(fx // 1), int(fy // 1)
        if not m.in_bounds(x, y):
            self.tile_label.setText("")
            self.terrain_label.setText("")
            self.edge_label.setText("")
        else:
            self.tile_label.setText(f"{x}, {y}")
            t = m.registry[int(m.terrain[y, x])].name
            extra = " transition" if m.transition[y, x] else ""
            if m.base_at(x, y) is Base.OBSTRUCTING:
                extra += ", indoor" if m.tile_is_indoor(x, y) else ", outdoor"
            self.terrain_label.setText(f"{t}, level {int(m.elevation[y, x])}{extra}")
            edge, dist = nearest_edge(m, fx, fy)
            if edge is not None and dist < 0.2:
                b = m.border_at(edge)
                what = m.registry[b].name if b else "no border"
                if b and m.registry[b].base is Base.OBSTRUCTING:
                    what += ", indoor" if m.border_is_indoor(edge) else ", outdoor"
                if m.is_transition_edge(edge):
                    what += ", transition"
                self.edge_label.setText(f"edge {edge}: {what}")
            else:
                self.edge_label.setText("")
        self.previews.hover(fx, fy)

    def show_status(self, text: str) -> None:
        """A status bar message only: information with nothing on the map to look at
        (a note there would cover the tiles it is about)."""
        self.statusBar().showMessage(text, 6000)

    def show_message(self, text: str) -> None:
        """Status bar message plus a short-lived note on the map, at the pointer (a
        refused edit, a resize that dropped characters)."""
        self.show_status(text)
        note = QGraphicsSimpleTextItem(text)
        note.setBrush(style.FOCUS)
        note.setZValue(100)
        note.setFlag(QGraphicsSimpleTextItem.GraphicsItemFlag.ItemIgnoresTransformations)
        # at the pointer, wrapped and moved to lie inside the view
        place_note(self.view, note, QPointF(self.view.viewport().mapFromGlobal(
            self.cursor().pos())))
        if self.last_note is not None and self.last_note.scene() is self.scene:
            self.scene.removeItem(self.last_note)
        self.scene.addItem(note)
        self.last_note = note
        self.note_timer.start()

    def _drop_note(self) -> None:
        if self.last_note is not None and self.last_note.scene() is self.scene:
            self.scene.removeItem(self.last_note)

    # ----------------------------------------------------------------- tools
    def set_tool(self, name: str) -> None:
        tool = self.tools[name]
        self.state.set_tool(name)  # before the tool: its own options apply
        self.view.set_tool(tool)
        act = self.action_map.get(f"tool_{name}")
        if act is not None and not act.isChecked():
            act.setChecked(True)
        self.tool_options.show_for(tool)
        self.statusBar().showMessage(f"{tool.label}: {tool.tip}", 4000)

    @property
    def tool(self):
        return self.view.tool

    @property
    def select_tool(self) -> SelectTool:
        """The select tool, which owns the selection and the clipboard stamp."""
        tool = self.tools["select"]
        assert isinstance(tool, SelectTool)
        return tool

    def copy(self) -> None:
        self.select_tool.copy()

    def cut(self) -> None:
        self.select_tool.cut()

    def paste(self) -> None:
        self.set_tool("select")
        self.select_tool.paste()

    def delete_selection(self) -> None:
        self.select_tool.delete()

    def toggle_indoor(self) -> None:
        self.document.set_setting("indoor" if self.action_map["indoor"].isChecked() else "outdoor")

    def set_preview(self, name: str, on: bool) -> None:
        self.previews.set_enabled(name, on)
        self.layers.sync()

    # ----------------------------------------------------------- doc events
    def _on_model_replaced(self, model: MapModel) -> None:
        self.scene.set_model(model)
        follow_map_size(self.docks["minimap"], model)
        self.state.select(None)
        self._sync_map_actions()
        self.previews.model_replaced()

    def _on_edited(self) -> None:
        self._sync_map_actions()
        self.previews.schedule()
        self.recovery.schedule()

    def _sync_map_actions(self) -> None:
        act = self.action_map["indoor"]
        act.blockSignals(True)
        act.setChecked(self.document.model.setting == "indoor")
        act.blockSignals(False)

    def _update_title(self, *_changed: object) -> None:
        d = self.document
        self.setWindowTitle(f"{d.display_name()}[*] - {APP_NAME}")
        self.setWindowModified(d.modified)

    def center_on(self, x: float, y: float) -> None:
        self.view.centerOn(x * TILE, y * TILE)

    # -------------------------------------------------------------- recovery
    def offer_recovery(self, ask: bool = True) -> bool:
        """Offer the autosaved maps of editors that crashed; True if one was
        recovered (it opens modified, with its original path)."""
        for entry in self.recovery.pending():
            if ask:
                answer = QMessageBox.question(
                    self, "Recover Unsaved Changes",
                    f"The editor closed unexpectedly. Recover {entry.describe()}?",
                    QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No
                    | QMessageBox.StandardButton.Discard)
                if answer == QMessageBox.StandardButton.Discard:
                    self.recovery.forget(entry)
                    continue
                if answer != QMessageBox.StandardButton.Yes:
                    continue
            if self.recover(entry):
                return True
        return False

    def recover(self, entry) -> bool:
        model, problems = self.recovery.load(entry)
        if model is None:  # moved aside after this one attempt: not offered again
            why = f": {problems[0]}" if problems else ""
            moved = self.recovery.set_aside(entry)
            where = f"; moved it to {moved}" if moved else "; it could not be moved aside"
            self.show_message(f"could not recover {entry.file.name}{why}{where}")
            return False
        self.document.reset(model, entry.original)
        self.document.undo_stack.resetClean()  # recovered changes are unsaved
        self._update_title()
        self.recovery.forget(entry)
        self.recovery.schedule()
        self.show_message(f"Recovered {entry.describe()}; save to keep it")
        return True

    # ---------------------------------------------------------------- close
    def maybe_save(self) -> bool:
        """Ask about unsaved changes; False when the user cancels."""
        if not self.document.modified:
            return True
        answer = QMessageBox.warning(
            self, APP_NAME, f"{self.document.display_name()} has unsaved changes.",
            QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard
            | QMessageBox.StandardButton.Cancel, QMessageBox.StandardButton.Save)
        if answer == QMessageBox.StandardButton.Save:
            return self.files.save()
        return answer == QMessageBox.StandardButton.Discard

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802
        if not self.maybe_save():
            event.ignore()
            return
        self.playtest.stop()  # the scene back on the document's map, no timer left
        self.window_layout.save()
        if self.balance_dialog is not None:
            self.balance_dialog.stop()  # no battle process outlives the window
        self.previews.shutdown()
        self.recovery.discard()
        self.scene.detach()
        # The document outlives the window until Python collects it; its
        # last signals (the undo stack clearing) must not reach deleted widgets.
        self.document.blockSignals(True)
        self.document.undo_stack.blockSignals(True)
        event.accept()
