"""The action table: every menu entry, tool bar button and keyboard shortcut of
the window, as data (Tiled tradition: B brush, R rectangle, L line, F fill, E
eraser, S select, W border, H elevation, T transition; Ctrl+Z / Ctrl+Shift+Z /
Ctrl+Y; Ctrl+C/X/V; Delete; Escape cancels the current gesture).  Shortcuts
are shown in menus and tool tips.

:data:`ACTIONS` holds the window's own actions; parts that bring their own
(the tools, the playtest's :data:`~.playtest.controls.PLAYTEST_ACTIONS`, the
balance run's) keep their :class:`ActionSpec` rows beside their code and return
the actions they build.  :func:`build_actions` makes ``QAction`` objects from
rows and the slots they call; :data:`MENUS` and :data:`TOOLBAR` place them by
key (``-`` a separator, ``@name`` a list or submenu the window passes in), so
the menu bar and the main tool bar are built in one place
(:func:`build_menus`, :func:`build_toolbar`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt, SignalInstance
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMenu, QMenuBar, QToolBar, QWidget

if TYPE_CHECKING:
    from .tools.base import Tool

SK = QKeySequence.StandardKey
Shortcut = str | QKeySequence.StandardKey | tuple[str, ...] | None


@dataclass(frozen=True)
class ActionSpec:
    """One row of an action table: the menu text, the shortcut (several: a tuple),
    the tool and status tip, whether it is checkable, and the tool bar's short text
    (the menus and the tool tip keep the full one)."""

    key: str
    text: str
    shortcut: Shortcut = None
    tip: str = ""
    checkable: bool = False
    short: str = ""


def _rows(*rows: tuple) -> tuple[ActionSpec, ...]:
    return tuple(ActionSpec(*row) for row in rows)


#: the window's own actions (File, Edit, Map, View, Preview, Help)
ACTIONS = _rows(
    ("new", "&New...", SK.New, "Create a new map"),
    ("open", "&Open...", SK.Open, "Open a map file"),
    ("save", "&Save", SK.Save, "Save the map"),
    ("save_as", "Save &As...", "Ctrl+Shift+S", "Save the map under a new name"),
    ("revert", "&Revert", None, "Reload the file, dropping unsaved changes"),
    ("export_png", "Export &PNG...", "Ctrl+Shift+E",
     "Render the map (with visible layers) to a PNG"),
    ("export_pack", "Export Map &Pack...", None, "Bundle map files into a map pack"),
    ("export_tiled", "Export As &Tiled Map...", None,
     "Write the map as a Tiled map (.tmj) with its tileset (.tsj and .png) beside it"),
    ("quit", "&Quit", SK.Quit),
    ("undo", "&Undo", "Ctrl+Z"),
    ("redo", "&Redo", ("Ctrl+Shift+Z", "Ctrl+Y")),
    ("cut", "Cu&t", "Ctrl+X", "Cut the selected region"),
    ("copy", "&Copy", "Ctrl+C", "Copy the selected region"),
    ("paste", "&Paste", "Ctrl+V", "Paste the copied stamp (Z rotates, X/Y flip)"),
    ("delete", "&Delete", "Delete",
     "Clear the selected region or remove the selected character"),
    ("eyedropper", "&Eyedropper", "K",
     "Pick the terrain, border, level, zone or token under the pointer into the current "
     "tool (as a right-click in it does)"),
    ("properties", "Map &Properties..."),
    ("indoor", "&Indoor Map", None,
     "Indoor map: obstructions rise to the ceiling (no flight over)", True),
    ("resize", "Re&size Map..."),
    ("add_terrain", "Add &Terrain Type..."),
    ("map_cw", "Rotate 90° &Clockwise"),
    ("map_ccw", "Rotate 90° C&ounter-clockwise"),
    ("map_mirror_x", "Mirror &Left-Right"),
    ("map_mirror_y", "Mirror &Top-Bottom"),
    ("zoom_in", "Zoom &In", ("Ctrl++", "Ctrl+=")),
    ("zoom_out", "Zoom &Out", "Ctrl+-"),
    ("zoom_fit", "&Fit Map", "Ctrl+0"),
    ("zoom_100", "&Actual Size", "Ctrl+1"),
    ("go_to_tile", "&Go to Tile...", "Ctrl+G", "Centre the map on a tile typed as X, Y"),
    ("preview_los", "&LoS Fan", "Ctrl+Shift+L", "", True, "LoS"),
    ("preview_reach", "&Movement Range", "Ctrl+Shift+M", "", True, "Reach"),
    ("preview_graph", "&Adjacency Graph", "Ctrl+Shift+G", "", True, "Graph"),
    ("preview_flank", "&Flanking and Cover", "Ctrl+Shift+F",
     "Hover a character: who flanks it; pin an attacker (P): the target's cover from it",
     True, "Flank"),
    ("preview_pin", "&Pin Preview Source", "P",
     "Pin (or unpin) the preview source at the hovered tile: P over it (or Alt+click it)"),
    ("reset_layout", "Reset &Layout", None,
     "Default window size, docks and layers; map fitted"),
    ("shortcuts", "Keyboard &Shortcuts", "F1", "Every keyboard and mouse shortcut"),
    ("legend", "&Legend", None, "What every line, fill and preview colour means"),
)

#: the tool bar texts of tools whose labels are long
TOOL_SHORT = {"indoor": "In/Out", "rect": "Rect", "zone": "Zone", "area": "AoE",
              "wand": "Wand", "select_same": "Same"}

#: tools in the Tools menu and on their keys but not on the main tool bar (it fits
#: a 1280-pixel screen; the two select modes sit beside Select in the menu; Label: N)
TOOLBAR_SKIPS = ("wand", "select_same", "label")

#: the menu bar: (title, keys); ``-`` a separator, ``@name`` what the window passes
MENUS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("&File", ("new", "open", "@recent", "-", "save", "save_as", "revert", "-",
               "open_replay", "-", "export_png", "export_pack", "export_tiled", "-",
               "quit")),
    ("&Edit", ("undo", "redo", "-", "cut", "copy", "paste", "delete", "stamp_save", "-",
               "eyedropper", "-",
               "symmetry", "symmetry_x", "symmetry_y", "symmetry_both", "symmetry_rotate")),
    ("&Map", ("properties", "indoor", "resize", "add_terrain", "-",
              "map_cw", "map_ccw", "map_mirror_x", "map_mirror_y")),
    ("&View", ("zoom_in", "zoom_out", "zoom_fit", "zoom_100", "go_to_tile", "-",
               "reference_image", "layer_reference", "layer_labels", "-",
               "reset_layout", "-",
               "@docks")),
    ("&Tools", ("@tools", "-", "balance_run", "roster_editor", "rules_editor",
                "scenario_editor", "team_editor")),
    ("&Preview", ("preview_los", "preview_reach", "preview_graph", "preview_flank", "-",
                  "preview_pin")),
    ("P&lay", ("playtest", "playtest_stop", "-", "playtest_play", "playtest_step",
               "playtest_turn", "playtest_pass", "playtest_confirm", "-", "playtest_ability_1",
               "playtest_ability_2", "playtest_ability_3", "playtest_ability_4", "-",
               "playtest_back",
               "playtest_forward", "playtest_restart", "playtest_new_seed",
               "playtest_take_over", "playtest_give_back", "-", "playtest_autoplay", "-",
               "playtest_save_replay", "open_replay")),
    ("&Help", ("shortcuts", "legend")),
)

#: the main tool bar (a short bar: it fits a 1280-pixel screen)
TOOLBAR = ("new", "open", "save", "-", "undo", "redo", "-", "@tools", "-",
           "preview_los", "preview_reach", "preview_graph", "-", "playtest")


def tool_specs(tools: Iterable[type[Tool]]) -> tuple[ActionSpec, ...]:
    """The rows of the tool actions (``tool_<name>``, checkable) from the tool classes."""
    return tuple(ActionSpec(f"tool_{t.name}", t.label, t.shortcut or None, t.tip, True,
                            TOOL_SHORT.get(t.name, "")) for t in tools)


def _tip(action: QAction) -> None:
    keys = action.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
    text = action.text().replace("&", "")
    base = action.toolTip() if action.toolTip() and action.toolTip() != text else text
    action.setToolTip(f"{base} ({keys})" if keys else base)


def make_action(parent: QObject, spec: ActionSpec,
                slot: Callable[[], object] | None = None) -> QAction:
    """The ``QAction`` of one row; ``slot`` is called when it is triggered."""
    action = QAction(spec.text, parent)
    if isinstance(spec.shortcut, tuple):
        action.setShortcuts([QKeySequence(s) for s in spec.shortcut])
    elif spec.shortcut is not None:
        action.setShortcut(QKeySequence(spec.shortcut))
    if spec.tip:
        action.setToolTip(spec.tip)
        action.setStatusTip(spec.tip)
    action.setCheckable(spec.checkable)
    if slot is not None:
        action.triggered.connect(lambda *_: slot())
    _tip(action)
    if spec.short:
        action.setIconText(spec.short)
    return action


def build_actions(parent: QObject, specs: Iterable[ActionSpec],
                  slots: Mapping[str, Callable[[], object]]) -> dict[str, QAction]:
    """The actions of ``specs`` by key, each calling ``slots[key]`` (if any) when
    triggered."""
    return {s.key: make_action(parent, s, slots.get(s.key)) for s in specs}


Entry = QAction | QMenu | Sequence[QAction]


def _fill(target: QMenu | QToolBar, keys: Iterable[str], actions: Mapping[str, QAction],
          lists: Mapping[str, Entry]) -> None:
    for key in keys:
        if key == "-":
            target.addSeparator()
        elif key.startswith("@"):
            entry = lists[key[1:]]
            if isinstance(entry, QMenu):
                assert isinstance(target, QMenu)
                target.addMenu(entry)
            elif isinstance(entry, QAction):
                target.addAction(entry)
            else:
                target.addActions(list(entry))
        else:
            target.addAction(actions[key])


def build_menus(bar: QMenuBar, actions: Mapping[str, QAction],
                lists: Mapping[str, Entry],
                menus: Sequence[tuple[str, Sequence[str]]] = MENUS) -> dict[str, QMenu]:
    """Fill the menu bar from ``menus``; the menus by title without ``&``."""
    out = {}
    for title, keys in menus:
        menu = bar.addMenu(title)
        _fill(menu, keys, actions, lists)
        out[title.replace("&", "")] = menu
    return out


def build_toolbar(parent: QWidget, actions: Mapping[str, QAction],
                  lists: Mapping[str, Entry], keys: Sequence[str] = TOOLBAR) -> QToolBar:
    """The main tool bar (text buttons) from ``keys``."""
    bar = QToolBar("Main", parent)
    bar.setObjectName("main_toolbar")
    _fill(bar, keys, actions, lists)
    bar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
    return bar


def follow_stack(action: QAction, verb: str, can_changed: SignalInstance,
                 text_changed: SignalInstance, can: bool) -> None:
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
