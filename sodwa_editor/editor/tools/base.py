"""Tool protocol and the editor state tools read (current terrain, brush size...).

A tool turns pointer gestures into :class:`~sodwa_editor.editor.document.Document`
calls; it never writes the model.  Every tool (:class:`ViewTool`, what the map
view drives) has ``activate``/``deactivate``,
``press``/``move``/``release`` (plus ``hover`` when no button is down),
``cancel`` (Escape: drop the gesture, leaving no partial edit) and ``key``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QKeyEvent

from ...engine.model import Rect
from ..geometry import Tile, tile_at
from ..properties.document_props import PRESET_BASE, is_preset_type, preset_id
from . import eyedropper

if TYPE_CHECKING:
    from ...engine.model import MapModel
    from ...engine.terrain import TerrainRegistry
    from ..document import Document
    from ..roster_in_use import RosterInUse
    from ..scene.map_scene import MapScene


@dataclass
class ToolEvent:
    """A pointer event in tile units (``fx``, ``fy``)."""

    fx: float
    fy: float
    button: Qt.MouseButton = Qt.MouseButton.NoButton
    buttons: Qt.MouseButton = Qt.MouseButton.NoButton
    modifiers: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier

    @property
    def tile(self) -> Tile:
        return tile_at(self.fx, self.fy)

    @property
    def erase(self) -> bool:
        """Shift means the opposite action: erase/remove/lower (the right button
        picks, see :mod:`.eyedropper`; the Eraser paints Clear with either)."""
        return bool(self.modifiers & Qt.KeyboardModifier.ShiftModifier)


@dataclass
class Selection:
    """What the inspector shows: a tile, an edge, a character or an object."""

    kind: str  # tile | edge | character | object | region
    value: Any
    extra: dict[str, Any] = field(default_factory=dict)


#: settings each tool keeps for itself (a zone painted 3x3 leaves the brush at its size)
PER_TOOL = {"brush_size": 1}


class EditorState(QObject):
    """Current tool settings shared by tools, tool options and docks.  The chosen
    terrain, border type, team... are shared; :data:`PER_TOOL` settings are kept per
    tool and read for the active one (:attr:`tool`)."""

    changed = Signal(str)
    selection_changed = Signal(object)
    #: what the active tool would do here (status bar text, e.g. the Fill tool's count)
    hint = Signal(str)
    #: a line for the status bar (what the eyedropper picked)
    status = Signal(str)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.tool = ""  # name of the active tool
        self._per_tool: dict[tuple[str, str], Any] = {}
        self.terrain_id = 1
        self.border_id = 2  # obstructing
        self.border_indoor: bool | None = None
        self.border_mode = "edges"  # edges | room (BORDER_MODES)
        self.zone_mode = "brush"  # brush | rectangle (ZONE_MODES)
        self.elevation_mode = "raise"  # raise | lower | set | plateau
        self.elevation_level = 1
        self.team = "blue"
        self.roster_entry: dict[str, Any] | None = None
        #: the roster in use the Character tool and the eyedropper take entries from
        #: (set by the editor context; None: the shipped roster)
        self.roster_in_use: RosterInUse | None = None
        #: the Character tool's creature size (engine.sizes.SIZES; follows the roster
        #: entry's size when one is chosen)
        self.creature_size = "medium"
        self.object_kind = "crate"
        #: the radius a light source placed with the object tool gets
        self.light_radius = 1
        #: symmetry painting: off | x | y | both | rotate (engine.symmetry.MODES)
        self.symmetry = "off"
        #: the AoE template tool's area (its notation as typed) and the recent ones
        self.area_notation = "AoE - Blast - Sphere: Range: 6, Reach: 1"
        self.area_recent: list[str] = []
        self.selection: Selection | None = None
        #: the selected region (Copy, Cut, Delete, a drag of the Select tool): its
        #: bounding rectangle and its tiles in it (None: the whole rectangle)
        self.region: Rect | None = None
        self.region_mask: np.ndarray | None = None
        self._registry: TerrainRegistry | None = None  # of the map the ids refer to

    def follow_types(self, model: MapModel) -> None:
        """The map or its terrain types were swapped (open, new, undo or redo of a
        declared type): point the chosen terrain and border types at the types of
        the same *name* in the new map (ids differ between maps).  A preset's type
        that is gone (its first stroke undone) is the preset again, so the next
        stroke declares it as the first did; any other type that is gone falls
        back to Impeding.  Connected before the palette and the tool options,
        which rebuild from these ids."""
        old, self._registry = self._registry, model.registry
        if old is None or old is model.registry:
            return
        kept = {key: old[tid] if 0 <= (tid := getattr(self, key)) < len(old) else None
                for key in ("terrain_id", "border_id")}  # all read before any is set
        if self.terrain_id >= PRESET_BASE:  # a preset stays chosen (the palette maps it)
            kept.pop("terrain_id")
        reg = model.registry
        for key, t in kept.items():
            if t is not None and t.name in reg:
                self.set(key, reg.id_of(t.name))
            elif key == "terrain_id" and t is not None and is_preset_type(t):
                self.set(key, preset_id(t.name))
            else:
                self.set(key, 1)

    @property
    def brush_size(self) -> int:
        """The active tool's brush size."""
        return int(self._per_tool.get((self.tool, "brush_size"), PER_TOOL["brush_size"]))

    @brush_size.setter
    def brush_size(self, value: int) -> None:
        self._per_tool[(self.tool, "brush_size")] = value

    def set_tool(self, name: str) -> None:
        """Another tool is active: its own per-tool settings apply (and are shown)."""
        if name != self.tool:
            self.tool = name
            for key in PER_TOOL:
                self.changed.emit(key)

    def set(self, name: str, value: Any) -> None:
        if getattr(self, name) != value:
            setattr(self, name, value)
            self.changed.emit(name)

    def select(self, selection: Selection | None) -> None:
        self.selection = selection
        self.selection_changed.emit(selection)


class ViewTool:
    """What the map view drives: the gesture hooks, all doing nothing here.  The
    editing tools are :class:`Tool`; the playtest has its own."""

    name = "tool"
    label = "Tool"
    shortcut = ""
    tip = ""
    cursor = Qt.CursorShape.CrossCursor
    #: names of EditorState settings shown in the tool options bar
    options: tuple[str, ...] = ()

    def __init__(self) -> None:
        self.active = False

    def message(self, text: str) -> None:
        """Say ``text`` to the user (a refused gesture, a tool's failure)."""
        raise NotImplementedError

    def activate(self) -> None:
        self.active = True

    def deactivate(self) -> None:
        self.active = False

    def press(self, ev: ToolEvent) -> None:
        pass

    def move(self, ev: ToolEvent) -> None:
        if ev.buttons == Qt.MouseButton.NoButton:
            self.hover(ev)

    def hover(self, ev: ToolEvent) -> None:
        pass

    def release(self, ev: ToolEvent) -> None:
        pass

    def leave(self) -> None:
        pass

    def cancel(self) -> None:
        pass

    def key(self, event: QKeyEvent) -> bool:
        return False

    def eyedrop(self, ev: ToolEvent) -> bool:
        """The eyedropper at ``ev`` (a right-button press, or the Eyedropper action at
        the pointer): True when the tool picks (then the press does nothing else)."""
        return False


class Tool(ViewTool):
    """Base editing tool: takes the document it edits, the scene it marks (hover,
    tool preview) and the editing state it reads; subclasses override the
    gesture hooks."""

    def __init__(self, document: Document, scene: MapScene, state: EditorState) -> None:
        super().__init__()
        self.doc = document
        self.scene = scene
        self.state = state

    #: what the eyedropper picks into this tool (:data:`.eyedropper.PICKS`), or ""
    picks = ""

    @property
    def model(self):
        return self.doc.model

    def eyedrop(self, ev: ToolEvent) -> bool:
        if not self.picks:
            return False
        self.state.status.emit(eyedropper.pick(self.picks, self.model, self.state, ev.fx, ev.fy,
                                    self.label))
        return True

    def message(self, text: str) -> None:
        self.doc.message.emit(text)

    def deactivate(self) -> None:
        self.cancel()
        self.scene.hover.clear()
        super().deactivate()

    def hover(self, ev: ToolEvent) -> None:
        x, y = ev.tile
        self.scene.hover.set_shape([(x, y)] if self.model.in_bounds(x, y) else [])

    def leave(self) -> None:
        self.scene.hover.clear()


class StrokeTool(Tool):
    """A tool whose drag is one undo step (a Document stroke)."""

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.stroking = False
        self.last: Tile | None = None

    def press(self, ev: ToolEvent) -> None:
        if ev.button not in (Qt.MouseButton.LeftButton, Qt.MouseButton.RightButton):
            return
        self.doc.begin_stroke()
        self.stroking = True
        self.erasing = ev.erase
        self.last = None
        self.stroke_to(ev)

    def move(self, ev: ToolEvent) -> None:
        if self.stroking:
            self.stroke_to(ev)
        else:
            self.hover(ev)

    def release(self, ev: ToolEvent) -> None:
        if self.stroking:
            self.stroking = False
            self.doc.end_stroke()
            self.finish()

    def cancel(self) -> None:
        if self.stroking:
            self.stroking = False
            self.doc.cancel_stroke()
            self.finish()

    def finish(self) -> None:
        """Called when a stroke ends or is cancelled."""
        self.last = None

    def stroke_to(self, ev: ToolEvent) -> None:
        raise NotImplementedError
