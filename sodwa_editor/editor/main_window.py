"""The editor's main window: it creates the editor context
(:class:`~.context.EditorContext`), builds the chrome around it (the map view,
the menus and tool bars from the action table, the docks and their places, the
status bar) and wires signals.  It holds no logic a dock needs: each dock, tool
and mode takes the models it shows from the context (docs/editor.md,
Architecture)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QSettings, QSize, Qt, QTimer
from PySide6.QtGui import QAction, QActionGroup, QCloseEvent
from PySide6.QtWidgets import (
    QDockWidget,
    QMainWindow,
    QMenu,
    QMessageBox,
    QScrollArea,
    QUndoView,
    QWidget,
)

from ..engine.model import MapModel
from . import APP_NAME
from .actions import (
    ACTIONS,
    TOOLBAR_SKIPS,
    build_actions,
    build_menus,
    build_toolbar,
    follow_stack,
    tool_specs,
)
from .balance import BALANCE_ACTIONS
from .balance.heatmap import HeatMapControls
from .context import MESSAGE_KINDS, EditorContext
from .docks.inspector import InspectorDock
from .docks.layers import LayersDock
from .docks.legend import LegendDock
from .docks.minimap import Minimap, follow_map_size
from .docks.palette import PaletteDock
from .docks.stamp_library import STAMP_ACTIONS, StampLibraryDock
from .docks.tool_options import ToolOptionsBar
from .docks.validation import Place, ValidationDock
from .file_ops import FileController, RecentFilesMenu
from .goto_tile import GoToTileDialog
from .layout import WindowLayout
from .library_stamps import StampLibrary
from .notes import MapNotes, NoteItem
from .playtest.battle_views import BattleViews
from .playtest.controls import PLAYTEST_ACTIONS, PlaytestBar
from .playtest.lock import EditingLock
from .playtest.mode import PlaytestMode
from .previews import PREVIEWS
from .properties.type_controller import TerrainTypeController
from .recovery import Recovery
from .reference_image import ReferenceImageControl
from .roster_editor import ROSTER_EDITOR_ACTIONS
from .rules_editor import RULES_ACTIONS
from .scenario_editor import SCENARIO_ACTIONS
from .status_bar import HoverReadout, MessageLine
from .style import TILE
from .symmetry_control import SymmetryControl
from .team_editor import TEAM_ACTIONS
from .tool_dialogs import ToolDialogs
from .tools import TOOL_CLASSES
from .tools.base import Selection, Tool
from .tools.select import SelectTool
from .view import MapView

#: width a dock starts with; afterwards only the user changes it (DockBody)
DOCK_WIDTH = 260


class DockBody(QScrollArea):
    """A dock's content in a scroll area whose size hints never change: what the
    dock shows (a character's form, a long problem) cannot widen or narrow the dock
    and so move the map under the pointer.  Content wider than the dock scrolls.
    ``height``: the height the dock asks for (the Layers dock: all its rows)."""

    def __init__(self, content: QWidget, height: int = 200) -> None:
        super().__init__()
        self.setWidget(content)
        self.setWidgetResizable(True)
        self.setFrameShape(QScrollArea.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        self.height_hint = height

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt override)
        return QSize(DOCK_WIDTH, self.height_hint)

    def minimumSizeHint(self) -> QSize:  # noqa: N802 (Qt override)
        return QSize(120, 60)


def default_settings() -> QSettings:
    return QSettings("SODWA", "SODWA Editor")


class MainWindow(ToolDialogs, QMainWindow):
    #: menus built from the action table (Open Recent follows the file controller)
    view_menu: QMenu
    recent_menu: QMenu
    help_menu: QMenu
    tools_menu: QMenu

    def __init__(self, model: MapModel | None = None, path: Path | None = None, *,
                 settings: QSettings | None = None, recovery_dir: Path | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.settings = settings if settings is not None else default_settings()
        self.context = c = EditorContext(model, path, settings=self.settings, parent=self)
        self.document, self.state, self.scene, self.previews = (c.document, c.state, c.scene,
                                                                c.previews)
        self.view = MapView(self.scene, self)
        self.setCentralWidget(self.view)
        self.tools: dict[str, Tool] = {cls.name: cls(self.document, self.scene, self.state)
                                       for cls in TOOL_CLASSES}
        self.recovery = Recovery(self.document, recovery_dir)
        self.files = FileController(c, self.recovery, self)
        self.notes = MapNotes(self.view, self)
        self.terrain_types = TerrainTypeController(self.document, self.state, self)
        # what a playtest locks: the action table and the editing widgets, as built below
        self.action_map: dict[str, QAction] = {}
        self.editing_widgets: list[QWidget] = []
        self.playtest = PlaytestMode(c, EditingLock(
            c, self.view, actions=self.action_map, exempt={a.key for a in PLAYTEST_ACTIONS},
            widgets=self.editing_widgets, select_tool=self.set_tool), self)
        self._build_actions()
        self.addToolBar(build_toolbar(self, self.action_map, {"tools": [
            self.action_map[f"tool_{n}"] for n in self.tools if n not in TOOLBAR_SKIPS]}))
        self.addToolBarBreak()
        self.tool_options = ToolOptionsBar(self.document, self.state, self)
        self.tool_options.finished.connect(self.view.setFocus)
        self.addToolBar(self.tool_options)
        self._build_docks()
        self._build_menus()
        self._build_playtest_views()
        self.heat_map = HeatMapControls(self.document, self.scene)
        self.layers.add_section(self.heat_map)
        self.editing_widgets += [self.recent_menu, *(self.docks[name].widget() for name in (
            "palette", "inspector", "history", "stamps")), self.tool_options]
        self._build_status()
        c.message.connect(self._on_message)
        self.window_layout = WindowLayout(self, c, self.view, self.docks["minimap"])
        self.window_layout.restore()  # geometry, docks, layers of the last run
        follow_map_size(self.docks["minimap"], self.document.model)
        d = self.document
        d.model_replaced.connect(self._on_model_replaced)
        d.edited.connect(self._on_edited)
        d.loaded.connect(self.view.zoom_fit)  # new, open, revert, recovery: fitted
        # Bound methods, not lambdas: Qt drops them when the window is deleted.
        d.undo_stack.cleanChanged.connect(self._update_title)
        d.path_changed.connect(self._update_title)
        d.loaded.connect(self._go_to_place)  # a map opened: where it was left (never on save)
        self.view.hovered.connect(self._on_hover)
        self.view.hovered.connect(self.inspector.show_hover)
        self.view.pin_requested.connect(self._pin)
        self.view.zoom_changed.connect(self.scene.set_view_scale)
        self.set_tool("brush")
        self._sync_map_actions()
        self._update_title()
        QTimer.singleShot(0, self.view.zoom_fit)
        self.window_layout.go_to_place()  # a map file opened before: where it was left

    # ------------------------------------------------------------------ build
    def _build_actions(self) -> None:
        """Every action of the table, with the slot each calls."""
        f, d, v, p = self.files, self.document, self.view, self.previews
        slots: dict[str, Callable[[], object]] = {
            "new": f.new_map, "open": f.open_map, "save": f.save, "save_as": f.save_as,
            "revert": f.revert, "export_png": f.export_png, "export_pack": f.export_pack,
            "export_tiled": f.export_tiled,
            "quit": self.close, "undo": d.undo, "redo": d.redo, "cut": self.cut,
            "copy": self.copy, "paste": self.paste, "delete": self.delete_selection,
            "properties": f.edit_properties, "indoor": self._toggle_indoor,
            "resize": f.resize_map, "add_terrain": self.terrain_types.add,
            "map_cw": lambda: f.transform_map("cw"), "map_ccw": lambda: f.transform_map("ccw"),
            "map_mirror_x": lambda: f.transform_map("mirror_x"),
            "map_mirror_y": lambda: f.transform_map("mirror_y"),
            "zoom_in": v.zoom_in, "zoom_out": v.zoom_out, "zoom_fit": v.zoom_fit,
            "zoom_100": v.zoom_reset, "eyedropper": v.pick_at_pointer,
            "go_to_tile": self.ask_tile,
            "preview_pin": lambda: p.pin(p.hovered),
            "reset_layout": lambda: self.window_layout.reset(),
            "shortcuts": self._show_shortcuts, "legend": self.show_legend,
            "balance_run": self.open_balance_dialog,
            "roster_editor": self.open_roster_editor, "rules_editor": self.open_rules_editor,
            "scenario_editor": self.open_scenario_editor, "team_editor": self.open_team_editor,
        }
        a = self.action_map
        a.update(build_actions(self, ACTIONS + BALANCE_ACTIONS + ROSTER_EDITOR_ACTIONS
                               + RULES_ACTIONS + SCENARIO_ACTIONS + TEAM_ACTIONS, slots))
        self.symmetry = SymmetryControl(d, self.state, self.scene, self)
        a.update(self.symmetry.build_actions(self))
        self.reference = ReferenceImageControl(d, self.scene, self.context.layers, self)
        a.update(self.reference.build_actions(self))
        a.update(self.playtest.actions)
        stack = d.undo_stack
        follow_stack(a["undo"], "Undo", stack.canUndoChanged, stack.undoTextChanged,
                     stack.canUndo())
        follow_stack(a["redo"], "Redo", stack.canRedoChanged, stack.redoTextChanged,
                     stack.canRedo())
        group = QActionGroup(self)
        group.setExclusive(True)
        for name, act in zip(self.tools, build_actions(self, tool_specs(TOOL_CLASSES),
                                                       {}).values(), strict=True):
            act.setData(name)
            act.triggered.connect(lambda _c=False, n=name: self.set_tool(n))
            group.addAction(act)
            a[f"tool_{name}"] = act
        for name in PREVIEWS:
            a[f"preview_{name}"].toggled.connect(lambda on, n=name: p.set_enabled(n, on))
        p.enabled_changed.connect(self._show_preview_enabled)

    def _tool_actions(self) -> list[QAction]:
        return [self.action_map[f"tool_{n}"] for n in self.tools]

    def _dock(self, widget: QWidget, title: str, name: str,
              area=Qt.DockWidgetArea.RightDockWidgetArea, height: int = 200) -> QDockWidget:
        dock = QDockWidget(title, self)
        dock.setObjectName(name)
        dock.setWidget(DockBody(widget, height))
        self.addDockWidget(area, dock)
        return dock

    def _build_docks(self) -> None:
        c, d, s = self.context, self.document, self.state
        self.palette_dock = PaletteDock(d, s)
        self.palette_dock.add_requested.connect(self.terrain_types.add)
        self.palette_dock.edit_requested.connect(self.terrain_types.edit)
        self.inspector = InspectorDock(d, s)
        self.inspector.message.connect(self.show_note)
        self.inspector.edit_type_requested.connect(self.terrain_types.edit)
        self.layers = LayersDock(c.layers, c.previews, document=d)
        self.layers.finished.connect(self.view.setFocus)
        self.validation = ValidationDock(d, s)
        self.validation.place_chosen.connect(self.show_place)
        self.history = QUndoView(d.undo_stack)
        self.history.setEmptyLabel("<opened map>")
        left = Qt.DockWidgetArea.LeftDockWidgetArea
        self.docks = {
            "palette": self._dock(self.palette_dock, "Terrain", "palette_dock", left, 120),
            "layers": self._dock(self.layers, "Layers", "layers_dock", left,
                                 self.layers.sizeHint().height()),
            "inspector": self._dock(self.inspector, "Inspector", "inspector_dock"),
            "validation": self._dock(self.validation, "Validation", "validation_dock"),
            "history": self._dock(self.history, "History", "history_dock"),
        }
        self.minimap = Minimap(d, self.view)
        self.legend = LegendDock()
        self.docks["minimap"] = self._dock(self.minimap, "Minimap", "minimap_dock")
        self.docks["legend"] = self._dock(self.legend, "Legend", "legend_dock")
        self.stamp_library = StampLibraryDock(d, s, StampLibrary(self))  # issue 29
        self.stamp_library.message.connect(self._say_status)
        self.stamp_library.place_requested.connect(self.place_stamp)
        self.action_map.update(build_actions(self, STAMP_ACTIONS, {
            "stamp_save": self.stamp_library.save_selection}))
        self.docks["stamps"] = self._dock(self.stamp_library, "Stamp Library",
                                          "stamp_library_dock")
        self.splitDockWidget(self.docks["minimap"], self.docks["inspector"],
                             Qt.Orientation.Vertical)
        self.tabifyDockWidget(self.docks["validation"], self.docks["history"])
        self.tabifyDockWidget(self.docks["history"], self.docks["legend"])
        self.tabifyDockWidget(self.docks["legend"], self.docks["stamps"])
        self.docks["validation"].raise_()

    def _build_menus(self) -> None:
        self.recent_menu = RecentFilesMenu(self.files, self)
        menus = build_menus(self.menuBar(), self.action_map, {
            "recent": self.recent_menu, "tools": self._tool_actions(),
            "docks": [dock.toggleViewAction() for dock in self.docks.values()]})
        self.view_menu, self.tools_menu, self.help_menu = (menus["View"], menus["Tools"],
                                                           menus["Help"])

    def _build_playtest_views(self) -> None:
        """The playtest's tool bar and its Battle UI (the Turn-Sequence Bar on top,
        the Character Panels and the Battle Information Panel along the bottom),
        hidden until a battle begins."""
        mode = self.playtest
        bar = PlaytestBar(mode.model, mode.actions, self)
        self.addToolBarBreak()
        self.addToolBar(Qt.ToolBarArea.TopToolBarArea, bar)
        mode.connect_views(bar, BattleViews(self, mode.model))

    def _build_status(self) -> None:
        self.readout = r = HoverReadout(self.statusBar(), self.view, self.document, self.scene,
                                        self)
        self.tile_label, self.terrain_label, self.edge_label, self.zoom_label = (
            r.tile, r.terrain, r.edge, r.zoom)
        self.message_line = MessageLine(self.statusBar(), self.view, self)

    # ----------------------------------------------------------------- status
    def _on_hover(self, pos) -> None:
        if pos is not None:
            self.previews.hover(*pos)

    def _on_message(self, text: str, kind: str) -> None:
        if kind == "note":
            self.show_note(text)
        else:
            self.message_line.show(text, MESSAGE_KINDS[kind], hint=kind == "hint")

    def show_note(self, text: str) -> None:
        """Status bar message plus a short-lived note on the map beside the pointer
        (a refused edit, a resize that dropped characters)."""
        self.message_line.show(text, MESSAGE_KINDS["note"])
        self.notes.show(text)

    @property
    def last_note(self) -> NoteItem | None:
        return self.notes.last

    def show_legend(self) -> None:
        """Help > Legend: the Legend dock shown and raised (a background tab comes to
        the front); never hidden by it (View lists the dock's own toggle)."""
        dock = self.docks["legend"]
        dock.show()
        dock.raise_()

    def show_place(self, place: Place) -> None:
        """Highlight a place on the map (a problem's tiles or edge), centre the view on
        it and say what is there."""
        self.scene.focus.set_shape(place.tiles, place.edges)
        if place.centre is not None:
            self.center_on(*place.centre)
        if place.select is not None:  # the Inspector shows what the problem is about
            self.state.select(Selection(*place.select))
        self.context.say(place.text, "info")

    # ----------------------------------------------------------------- tools
    def set_tool(self, name: str) -> None:
        tool = self.tools[name]
        self.state.set_tool(name)  # before the tool: its own options apply
        self.view.set_tool(tool)
        act = self.action_map.get(f"tool_{name}")
        if act is not None and not act.isChecked():
            act.setChecked(True)
        self.tool_options.show_for(tool)
        self.context.say(f"{tool.label}: {tool.tip}", "brief")

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

    def place_stamp(self, stamp, what: str) -> None:
        """A stamp of the library into the Select tool's paste preview."""
        self.set_tool("select")
        self.select_tool.place_stamp(stamp, what)

    def delete_selection(self) -> None:
        self.select_tool.delete()

    def _toggle_indoor(self) -> None:
        self.document.set_setting("indoor" if self.action_map["indoor"].isChecked() else "outdoor")

    def _pin(self, x: int, y: int) -> None:
        self.previews.pin((x, y))

    def _show_preview_enabled(self, name: str, on: bool) -> None:
        self.action_map[f"preview_{name}"].setChecked(on)

    def _show_shortcuts(self) -> None:
        from .help import show_shortcuts

        show_shortcuts(self)

    # ----------------------------------------------------------- doc events
    def _on_model_replaced(self, model: MapModel) -> None:
        follow_map_size(self.docks["minimap"], model)
        self._sync_map_actions()

    def _on_edited(self) -> None:
        self._sync_map_actions()
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

    def _go_to_place(self) -> None:
        self.window_layout.go_to_place()

    def center_on(self, x: float, y: float) -> None:
        self.view.centerOn(x * TILE, y * TILE)

    def ask_tile(self) -> GoToTileDialog:
        """View -> Go to Tile (Ctrl+G): the dialog, open (not modal to the event loop)."""
        dialog = GoToTileDialog(self.document, self)
        dialog.chosen.connect(self.go_to_tile)
        dialog.finished.connect(dialog.deleteLater)
        dialog.open()
        return dialog

    def go_to_tile(self, x: int, y: int) -> None:
        """Centre the view on tile (x, y) and ring it (as a Validation problem is)."""
        self.scene.focus.set_shape([(x, y)])
        self.center_on(x + 0.5, y + 0.5)
        self.context.say(f"Went to tile {x}, {y} (ringed)", "info")

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
            self.show_note(f"could not recover {entry.file.name}{why}{where}")
            return False
        self.document.reset(model, entry.original)
        self.document.undo_stack.resetClean()  # recovered changes are unsaved
        self._update_title()
        self.recovery.forget(entry)
        self.recovery.schedule()
        self.show_note(f"Recovered {entry.describe()}; save to keep it")
        return True

    # ---------------------------------------------------------------- close
    def maybe_save(self) -> bool:
        """Ask about unsaved changes; False when the user cancels."""
        return self.files.maybe_save()

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802
        if not self.maybe_save() or any(
                editor is not None and not editor.maybe_save()
                for editor in (self.roster_editor, self.team_editor)):
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
