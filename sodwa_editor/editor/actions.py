"""Menus, tool bars and keyboard shortcuts of the main window (Tiled tradition:
B brush, R rectangle, L line, F fill, E eraser, S select, W border, H elevation,
T transition; Ctrl+Z / Ctrl+Shift+Z / Ctrl+Y; Ctrl+C/X/V; Delete; Escape
cancels the current gesture).  Shortcuts are shown in menus and tool tips."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import QToolBar

if TYPE_CHECKING:
    from .main_window import MainWindow

SK = QKeySequence.StandardKey


def _tip(action: QAction) -> None:
    keys = action.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
    text = action.text().replace("&", "")
    base = action.toolTip() if action.toolTip() and action.toolTip() != text else text
    action.setToolTip(f"{base} ({keys})" if keys else base)


def make_action(win: MainWindow, text: str, slot: Callable | None = None,
                shortcut: str | QKeySequence.StandardKey | list | None = None,
                tip: str = "", checkable: bool = False) -> QAction:
    action = QAction(text, win)
    if shortcut is not None:
        if isinstance(shortcut, list):
            action.setShortcuts([QKeySequence(s) for s in shortcut])
        else:
            action.setShortcut(QKeySequence(shortcut))
    if tip:
        action.setToolTip(tip)
        action.setStatusTip(tip)
    action.setCheckable(checkable)
    if slot is not None:
        action.triggered.connect(lambda *_: slot())
    _tip(action)
    return action


def build(win: MainWindow) -> dict[str, QAction]:
    """Create every action, the menu bar and the tool bars; return the actions."""
    f, doc, view = win.files, win.document, win.view
    stack = doc.undo_stack
    a: dict[str, QAction] = {}
    a["new"] = make_action(win, "&New...", f.new_map, SK.New, "Create a new map")
    a["open"] = make_action(win, "&Open...", f.open_map, SK.Open, "Open a map file")
    a["save"] = make_action(win, "&Save", f.save, SK.Save, "Save the map")
    a["save_as"] = make_action(win, "Save &As...", f.save_as, "Ctrl+Shift+S",
                               "Save the map under a new name")
    a["revert"] = make_action(win, "&Revert", f.revert, None,
                              "Reload the file, dropping unsaved changes")
    a["export_png"] = make_action(win, "Export &PNG...", f.export_png, "Ctrl+Shift+E",
                                  "Render the map (with visible layers) to a PNG")
    a["export_pack"] = make_action(win, "Export Map &Pack...", f.export_pack, None,
                                   "Bundle map files into a map pack")
    a["quit"] = make_action(win, "&Quit", win.close, SK.Quit)
    a.update(win.playtest.actions)  # Play menu (playtest/controls.py), Open Replay

    undo = make_action(win, "&Undo", doc.undo, "Ctrl+Z")
    redo = make_action(win, "&Redo", doc.redo, ["Ctrl+Shift+Z", "Ctrl+Y"])
    _follow_stack(undo, "Undo", stack.canUndoChanged, stack.undoTextChanged, stack.canUndo())
    _follow_stack(redo, "Redo", stack.canRedoChanged, stack.redoTextChanged, stack.canRedo())
    a["undo"], a["redo"] = undo, redo
    a["cut"] = make_action(win, "Cu&t", win.cut, "Ctrl+X", "Cut the selected region")
    a["copy"] = make_action(win, "&Copy", win.copy, "Ctrl+C", "Copy the selected region")
    a["paste"] = make_action(win, "&Paste", win.paste, "Ctrl+V",
                             "Paste the copied stamp (Z rotates, X/Y flip)")
    a["delete"] = make_action(win, "&Delete", win.delete_selection, "Delete",
                              "Clear the selected region or remove the selected character")

    a["properties"] = make_action(win, "Map &Properties...", f.edit_properties)
    a["indoor"] = make_action(win, "&Indoor Map", win.toggle_indoor, None,
                              "Indoor map: obstructions rise to the ceiling (no flight over)",
                              checkable=True)
    a["resize"] = make_action(win, "Re&size Map...", f.resize_map)
    a["add_terrain"] = make_action(win, "Add &Terrain Type...", f.add_terrain_type)
    for key, label in (("cw", "Rotate 90° &Clockwise"), ("ccw", "Rotate 90° C&ounter-clockwise"),
                       ("mirror_x", "Mirror &Left-Right"), ("mirror_y", "Mirror &Top-Bottom")):
        a[f"map_{key}"] = make_action(win, label, lambda k=key: f.transform_map(k))

    a["zoom_in"] = make_action(win, "Zoom &In", view.zoom_in, ["Ctrl++", "Ctrl+="])
    a["zoom_out"] = make_action(win, "Zoom &Out", view.zoom_out, "Ctrl+-")
    a["zoom_fit"] = make_action(win, "&Fit Map", view.zoom_fit, "Ctrl+0")
    a["zoom_100"] = make_action(win, "&Actual Size", view.zoom_reset, "Ctrl+1")

    group = QActionGroup(win)
    group.setExclusive(True)
    for name, tool in win.tools.items():
        act = make_action(win, tool.label, None, tool.shortcut, tool.tip, checkable=True)
        act.setData(name)
        act.triggered.connect(lambda _c=False, n=name: win.set_tool(n))
        group.addAction(act)
        a[f"tool_{name}"] = act

    for name, label, key in (("los", "&LoS Fan", "Ctrl+Shift+L"),
                             ("reach", "&Movement Range", "Ctrl+Shift+M"),
                             ("graph", "&Adjacency Graph", "Ctrl+Shift+G")):
        act = make_action(win, label, None, key, checkable=True)
        act.toggled.connect(lambda on, n=name: win.set_preview(n, on))
        a[f"preview_{name}"] = act

    a["preview_pin"] = make_action(
        win, "&Pin Preview Source", lambda: win.previews.pin(win.previews.hovered), "P",
        "Pin (or unpin) the preview source at the hovered tile: P over it (or Alt+click it)")
    a["reset_layout"] = make_action(win, "Reset &Layout", lambda: win.window_layout.reset(),
                                    None, "Default window size, docks and layers; map fitted")
    from .help import show_shortcuts

    a["shortcuts"] = make_action(win, "Keyboard &Shortcuts", lambda: show_shortcuts(win), "F1",
                                 "Every keyboard and mouse shortcut")

    mb = win.menuBar()
    m = mb.addMenu("&File")
    m.addActions([a["new"], a["open"]])
    win.recent_menu = m.addMenu("Open &Recent")
    m.addSeparator()
    m.addActions([a["save"], a["save_as"], a["revert"]])
    m.addSeparator()
    m.addAction(a["open_replay"])
    m.addSeparator()
    m.addActions([a["export_png"], a["export_pack"]])
    m.addSeparator()
    m.addAction(a["quit"])
    m = mb.addMenu("&Edit")
    m.addActions([a["undo"], a["redo"]])
    m.addSeparator()
    m.addActions([a["cut"], a["copy"], a["paste"], a["delete"]])
    m = mb.addMenu("&Map")
    m.addActions([a["properties"], a["indoor"], a["resize"], a["add_terrain"]])
    m.addSeparator()
    m.addActions([a["map_cw"], a["map_ccw"], a["map_mirror_x"], a["map_mirror_y"]])
    m = mb.addMenu("&View")
    m.addActions([a["zoom_in"], a["zoom_out"], a["zoom_fit"], a["zoom_100"]])
    win.view_menu = m
    m.addSeparator()
    m.addAction(a["reset_layout"])
    m.addSeparator()
    m = mb.addMenu("&Tools")
    m.addActions([a[f"tool_{n}"] for n in win.tools])
    win.tools_menu = m  # Balance Run joins it (editor.balance.install)
    m = mb.addMenu("&Preview")
    m.addActions([a["preview_los"], a["preview_reach"], a["preview_graph"]])
    m.addSeparator()
    m.addAction(a["preview_pin"])
    win.help_menu = mb.addMenu("&Help")
    win.help_menu.addAction(a["shortcuts"])  # the Legend dock's entry follows (main window)

    tb = QToolBar("Main", win)
    tb.setObjectName("main_toolbar")
    tb.addActions([a["new"], a["open"], a["save"]])
    tb.addSeparator()
    tb.addActions([a["undo"], a["redo"]])
    tb.addSeparator()
    tb.addActions([a[f"tool_{n}"] for n in win.tools])
    tb.addSeparator()
    tb.addActions([a["preview_los"], a["preview_reach"], a["preview_graph"]])
    tb.addSeparator()
    tb.addAction(a["playtest"])
    # Short button texts keep the whole bar visible on a 1280-pixel screen; the
    # menus and tool tips keep the full names.
    for key, short in (("preview_los", "LoS"), ("preview_reach", "Reach"),
                       ("preview_graph", "Graph"), ("tool_indoor", "In/Out"),
                       ("tool_rect", "Rect"), ("tool_zone", "Zone"), ("playtest", "Play")):
        if key in a:
            a[key].setIconText(short)
    tb.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
    win.addToolBar(tb)
    win.addToolBarBreak()
    return a


def _follow_stack(action: QAction, verb: str, can_changed, text_changed, can: bool) -> None:
    """Undo/Redo name the command in the menu and the tool tip ("Undo Paint Line
    (Ctrl+Z)") while the tool bar button keeps its short, fixed text, so the
    buttons after it never move (Tiled does the same)."""
    keys = action.shortcut().toString(QKeySequence.SequenceFormat.NativeText)

    def named(command: str) -> None:
        label = f"{verb} {command}" if command else verb
        action.setText(f"&{label}")
        action.setToolTip(f"{label} ({keys})")

    action.setIconText(verb)
    action.setEnabled(can)
    can_changed.connect(action.setEnabled)
    text_changed.connect(named)
