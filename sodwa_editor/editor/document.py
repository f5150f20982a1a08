"""The open map: the :class:`MapModel`, its file path and its undo stack.

:class:`Document` is the only thing in the editor that changes a map.  Tools,
docks and scene items call its methods; each method builds one command and
pushes it on the undo stack (nothing happens, and nothing is pushed, when the
edit would change nothing).  A drag gesture is a *stroke*: its commands apply
as the pointer moves, merge, and reach the undo stack as one step when the
stroke ends; :meth:`cancel_stroke` takes the whole stroke back and leaves the
undo stack exactly as it was (the redo step available before included).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable
from pathlib import Path

import numpy as np
from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoCommand, QUndoStack

from ..engine.model import Edge, MapModel, Setting
from . import commands as c
from . import symmetry_edits as sym
from .document_annotations import AnnotationEdits
from .document_tokens import TokenEdits
from .geometry import Tile, edge_index, tile_index
from .properties.document_props import PRESET_BASE, PropertyEdits

_strokes = itertools.count(1)
#: the Layers-dock layers a stamp writes (paste, cut, delete)
STAMP_LAYERS = ("terrain", "elevation", "transitions", "borders")


class Document(QObject, TokenEdits, PropertyEdits, AnnotationEdits):
    """Owner and sole mutator of one map (characters and objects: :class:`TokenEdits`;
    terrain types and custom properties: :class:`PropertyEdits`; labels and the
    reference image: :class:`AnnotationEdits`)."""

    #: the model object was swapped (open, new, resize, revert)
    model_replaced = Signal(object)
    #: a command was applied, undone or redone (after the model changed)
    edited = Signal()
    #: file path changed (None for an unsaved map)
    path_changed = Signal(object)
    #: a user-facing message (a refused edit, a saved file)
    message = Signal(str)
    #: another map was loaded (new, open, revert, recovery): the view fits it
    loaded = Signal()
    #: a stroke ended (put on the undo stack, or cancelled): what waited for it
    #: (the previews) catches up
    stroke_ended = Signal()

    def __init__(self, model: MapModel | None = None, path: Path | None = None,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.model = model if model is not None else MapModel(32, 24)
        self.path = Path(path) if path is not None else None
        self.undo_stack = QUndoStack(self)
        self.undo_stack.indexChanged.connect(self._on_index_changed)
        self._stroke: int | None = None
        self._pending: list[QUndoCommand] = []  # the open stroke's commands, applied
        #: why an edit of these Layers-dock layers is refused (hidden, locked), or None
        self.layer_guard: Callable[[Iterable[str]], str | None] | None = None
        self._refused: str | None = None  # the refusal already said in this stroke
        #: symmetry painting (:data:`~..engine.symmetry.MODES`): the painting edits
        #: (tiles, edges, zones, placed characters) write their images too, same step
        self.symmetry = "off"

    # ------------------------------------------------------------ bookkeeping
    def _on_index_changed(self, _index: int) -> None:
        self.edited.emit()

    @property
    def modified(self) -> bool:
        return not self.undo_stack.isClean()

    def display_name(self) -> str:
        return self.path.name if self.path else (self.model.name or "untitled")

    def push(self, cmd: QUndoCommand) -> bool:
        """Push ``cmd`` unless it is an empty cell edit. True when pushed.

        During a stroke the command is applied at once and kept (merged with the
        stroke's previous one when it can) until the stroke ends."""
        if isinstance(cmd, c.EditCells) and cmd.cell_count() == 0:
            return False
        if self._stroke is not None:
            cmd.redo()
            if not (self._pending and self._pending[-1].mergeWith(cmd)):
                self._pending.append(cmd)
            self.edited.emit()
            return True
        self.undo_stack.push(cmd)
        return True

    def replace_model(self, model: MapModel) -> None:
        """Swap the model object (used by :class:`~.commands.ReplaceMap`)."""
        self.model = model
        self.model_replaced.emit(model)

    def reset(self, model: MapModel, path: Path | None) -> None:
        """Start over with another map (New, Open, Revert): history is cleared."""
        self._stroke, self._pending = None, []
        self.undo_stack.clear()
        self.replace_model(model)
        self.path = Path(path) if path is not None else None
        self.path_changed.emit(self.path)
        self.undo_stack.setClean()
        self.edited.emit()
        self.loaded.emit()

    def mark_saved(self, path: Path) -> None:
        self.path = Path(path)
        self.undo_stack.setClean()
        self.path_changed.emit(self.path)

    def undo(self) -> None:
        """Undo the last step (the Undo action); not while a stroke is in progress."""
        if not self._stroke_in_progress("undo"):
            self.undo_stack.undo()

    def redo(self) -> None:
        if not self._stroke_in_progress("redo"):
            self.undo_stack.redo()

    # ---------------------------------------------------------------- strokes
    @property
    def in_stroke(self) -> bool:
        """True between :meth:`begin_stroke` and the end (or cancel) of a drag."""
        return self._stroke is not None

    def begin_stroke(self) -> int:
        """Open a stroke: its edits apply at once (the map shows them) but reach the
        undo stack only at :meth:`end_stroke`, as one step."""
        self._stroke = next(_strokes)
        self._pending = []
        self._refused = None
        return self._stroke

    def end_stroke(self) -> None:
        """Put the stroke on the undo stack as one step (nothing when it changed nothing)."""
        pending = self._pending
        self._stroke, self._pending = None, []
        if pending:
            self.undo_stack.push(c.Stroke(pending))
        self.stroke_ended.emit()

    def cancel_stroke(self) -> None:
        """Take back everything the current stroke did.  The undo stack never saw the
        stroke, so it is exactly as before it: the same steps, the same redo step
        and the same saved (clean) state."""
        pending = self._pending
        self._stroke, self._pending = None, []
        for cmd in reversed(pending):
            cmd.undo()
        if pending:
            self.edited.emit()
        self.stroke_ended.emit()

    def _stroke_in_progress(self, what: str) -> bool:
        if self._stroke is None:
            return False
        self.message.emit(f"release the mouse button before you {what} "
                          "(Escape cancels the stroke)")
        return True

    def _layer_refused(self, *layers: str) -> bool:
        """Refuse (with the reason, once per stroke) an edit of a hidden or locked layer."""
        reason = self.layer_guard(layers) if self.layer_guard is not None else None
        if reason is None:
            return False
        if self._stroke is None or reason != self._refused:
            self._refused = reason
            self.message.emit(reason)
        return True

    def _edit(self, cls: type[c.EditCells], text: str, edits: list[c.FieldEdit]) -> bool:
        return self.push(cls(self, text, edits, self._stroke))

    # ----------------------------------------------------------------- tiles
    def _tile_edit(self, field: str, cells: Iterable[Tile] | np.ndarray,
                   value: int | np.ndarray) -> c.FieldEdit:
        cells = cells if isinstance(cells, np.ndarray) else list(cells)
        idx = tile_index(self.model, cells)
        if self.symmetry != "off":
            idx, value = sym.mirror_index(self.symmetry, self.model, idx, value)
        return c.FieldEdit.capture(self.model, field, idx, value)

    def paint_terrain(self, cells: Iterable[Tile] | np.ndarray, terrain_id: int,
                      text: str = "Paint Terrain") -> bool:
        if terrain_id >= PRESET_BASE:  # a preset: declared by its first stroke
            return self.paint_preset(cells, terrain_id, text)
        if not 0 <= terrain_id < len(self.model.registry):
            self.message.emit(f"this map has no terrain type {terrain_id}; pick one in the palette")
            return False
        if self._layer_refused("terrain"):
            return False
        return self._edit(c.PaintTerrain, text,
                          [self._tile_edit("terrain", cells, terrain_id)])

    def set_elevation(self, cells: Iterable[Tile] | np.ndarray, level: int | np.ndarray,
                      text: str = "Set Elevation") -> bool:
        if self._layer_refused("elevation"):
            return False
        return self._edit(c.SetElevation, text, [self._tile_edit("elevation", cells, level)])

    def set_transition_tiles(self, cells: Iterable[Tile], on: bool) -> bool:
        text = "Add Transition Tile" if on else "Remove Transition Tile"
        if self._layer_refused("transitions"):
            return False
        return self._edit(c.SetTransition, text,
                          [self._tile_edit("transition", cells, int(on))])

    def make_stair(self, tile: Tile, edge: Edge) -> bool:
        """A stair: ``tile`` becomes a transition tile and ``edge`` (one of its edges)
        a transition border, as one undo step."""
        if self._layer_refused("transitions"):
            return False
        return self._edit(c.SetTransition, "Add Stair",
                          [self._tile_edit("transition", [tile], 1),
                           *self._edge_edits("transition", [edge], 1)])

    def set_tile_indoor(self, cells: Iterable[Tile], indoor: bool | None) -> bool:
        code = -1 if indoor is None else int(indoor)
        if self._layer_refused("terrain"):
            return False
        return self._edit(c.SetIndoor, f"Set Obstruction {_indoor_word(indoor)}",
                          [self._tile_edit("tile_indoor", cells, code)])

    # ----------------------------------------------------------------- edges
    def _edge_edits(self, prefix: str, edges: Iterable[Edge], value: int | np.ndarray,
                    mirror: bool = True) -> list[c.FieldEdit]:
        if mirror and self.symmetry != "off" and np.ndim(value) == 0:
            edges = sym.edge_images(self.symmetry, self.model.width, self.model.height, edges)
        idx = edge_index(self.model, [e for e in edges if self.model.edge_in_bounds(e)])
        return [c.FieldEdit.capture(self.model, f"{prefix}_{s.lower()}", i, value)
                for s, i in idx.items() if len(i)]

    def set_borders(self, edges: Iterable[Edge], terrain_id: int,
                    indoor: bool | None = None, text: str | None = None) -> bool:
        """Put a border of ``terrain_id`` (0 removes) on each edge; ``text`` names the
        undo step (default Place Border / Remove Border)."""
        if not 0 <= terrain_id < len(self.model.registry):
            self.message.emit(f"this map has no terrain type {terrain_id}; pick a border type")
            return False
        if terrain_id:
            from ..engine.terrain import BORDER_BASES

            if self.model.registry[terrain_id].base not in BORDER_BASES:
                self.message.emit(f"{self.model.registry[terrain_id].name} cannot be a border")
                return False
        if self._layer_refused("borders"):
            return False
        code = -1 if indoor is None else int(indoor)
        text = text or ("Remove Border" if terrain_id == 0 else "Place Border")
        edges = list(edges)
        value = terrain_id * 4 + (code + 1 if terrain_id else 0)
        return self._edit(c.SetBorders, text, self._edge_edits("border", edges, value))

    def set_border_indoor(self, edges: Iterable[Edge], indoor: bool | None) -> bool:
        """Set the Indoor/Outdoor override of the borders on ``edges`` (edges without a
        border, and edges outside the map, are skipped like in :meth:`set_borders`)."""
        if self._layer_refused("borders"):
            return False
        code = -1 if indoor is None else int(indoor)
        m = self.model
        edits = []
        if self.symmetry != "off":  # each image keeps its own border type
            edges = sym.edge_images(self.symmetry, m.width, m.height, edges)
        for e in edges:
            if not m.edge_in_bounds(e):
                continue
            tid = m.border_at(e)
            if tid:
                edits += self._edge_edits("border", [e], tid * 4 + code + 1, mirror=False)
        return self._edit(c.SetBorders, f"Set Border {_indoor_word(indoor)}", edits)

    def set_transition_edges(self, edges: Iterable[Edge], on: bool) -> bool:
        text = "Add Transition Border" if on else "Remove Transition Border"
        if self._layer_refused("transitions"):
            return False
        return self._edit(c.SetTransition, text,
                          self._edge_edits("transition", edges, int(on)))

    # ------------------------------------------------------------ map scalars
    def set_setting(self, setting: Setting) -> bool:
        if setting == self.model.setting:
            return False
        return self.push(c.SetMapSetting(self, setting))

    def set_properties(self, name: str, description: str) -> bool:
        if (name, description) == (self.model.name, self.model.description):
            return False
        if self._too_long("map name", name, "name") or \
                self._too_long("map description", description, "description"):
            return False
        return self.push(c.SetMapProperties(self, name, description))

    def replace_map(self, model: MapModel, text: str) -> bool:
        return self.push(c.ReplaceMap(self, text, model))

    # ---------------------------------------------------------- start zones
    def set_zone_tiles(self, team: str, cells: Iterable[Tile], on: bool) -> bool:
        """Add tiles to a team's start zone (taking them from any other team's: a
        tile starts one team) or, with ``on`` False, clear them from every zone."""
        team = team.strip()
        if on and not team:
            self.message.emit("give the team a name first")
            return False
        if on and self._too_long("team name", team, "team"):
            return False
        if self._layer_refused("start zones"):
            return False
        cells = {(int(x), int(y)) for x, y in cells if self.model.in_bounds(x, y)}
        by_team = sym.zone_images(self.symmetry, self.model, team, cells)
        current = self.model.start_zones
        after = {t: set(z) - set().union(*by_team.values()) for t, z in current.items()}
        for t, tiles in by_team.items() if on else ():
            after[t] = after.get(t, set()) | tiles
        if {t: z for t, z in after.items() if z} == current:
            return False
        text = "Paint Start Zone" if on else "Erase Start Zone"
        return self.push(c.SetStartZone(self, after, self._stroke, text))

    def paste_stamp(self, stamp, ox: int, oy: int, text: str = "Paste Stamp", *,
                    mirror: bool = True) -> bool:
        """Write a :class:`~.stamp.Stamp` with its top-left tile at (ox, oy), what
        stands on its tiles included (:mod:`.stamp_contents`), as one undo step;
        with ``mirror`` and symmetry painting on, its images too
        (:func:`.symmetry_edits.stamp_images`), in the same step.

        Terrain is matched by type name; special types the stamp uses that this
        map does not declare are declared first (with their vocabulary and custom
        properties), in the same undo step.
        """
        from .region_move import paste_refusal
        from .stamp_contents import paste_command

        if self._layer_refused(*STAMP_LAYERS) or (
                stamp.contents and self._layer_refused("start zones", "characters")):
            return False
        placements = [(stamp, ox, oy)]
        if mirror and self.symmetry != "off":
            placements += sym.stamp_images(self.symmetry, self.model, stamp, ox, oy)
        missing = stamp.missing_types(self.model)
        if not missing and len(placements) == 1 and not stamp.contents:
            return self._edit(c.PasteStamp, text, stamp.edits(self.model, ox, oy))
        declared = self.model.copy()
        try:
            for t in missing:
                declared.registry.register(t.name, t.base, t.properties, custom=t.custom)
        except ValueError as exc:  # e.g. the map already has 256 terrain types
            self.message.emit(f"cannot paste: {exc}")
            return False
        skipped, refused = 0, []
        self.begin_macro(text)
        if missing:
            self.push(c.ReplaceMap(self, "Declare " + ", ".join(t.name for t in missing),
                                   declared))
        for st, x, y in placements:  # each written over what the ones before wrote
            if st is not stamp:  # an image: not where it leaves a creature unable to stand
                why = paste_refusal(self.model, st, x, y)
                if why is not None:
                    refused.append(f"its image at ({x}, {y}) is not placed: {why}")
                    continue
            self._edit(c.PasteStamp, text, st.edits(self.model, x, y))
            if st.contents:
                place, n = paste_command(self, st.contents, st.footprint(x, y), x, y, text)
                skipped += n
                if place is not None:
                    self.push(place)
        self.end_macro()
        if skipped:
            self.message.emit(f"{skipped} character(s) of the stamp not placed: their tile "
                              "holds a character already")
        for why in refused:
            self.message.emit(why)
        if missing:
            self.message.emit("declared terrain type(s) " + ", ".join(t.name for t in missing)
                              + " from the copied map")
        return True

    def stamp_image_tiles(self, stamp, ox: int, oy: int) -> list[Tile]:
        """The tiles the mirrored copies of ``stamp`` placed at (ox, oy) would
        write under symmetry painting (none when it is off): the paste preview
        draws them as the hover's images."""
        if self.symmetry == "off":
            return []
        m = self.model
        return [t for st, x, y in sym.stamp_images(self.symmetry, m, stamp, ox, oy)
                for t in st.footprint(x, y) if m.in_bounds(*t)]

    def clear_region(self, rect, text: str = "Delete Region", mask=None) -> bool:
        """Reset a rectangle (with ``mask``, bool of its shape: those tiles of it) to
        Clear ground level 0 without borders on their edges (never mirrored: it
        acts on the selection)."""
        from .stamp import Stamp

        empty = Stamp.empty(rect.x1 - rect.x0 + 1, rect.y1 - rect.y0 + 1).with_mask(mask)
        return self.paste_stamp(empty, rect.x0, rect.y0, text, mirror=False)

    def cut_region(self, rect, mask=None) -> bool:
        """Cut: the region cleared as Delete does, and what stands on it (zones,
        characters, objects) taken off, one undo step (Copy took them)."""
        from .stamp_contents import removal_command

        remove = removal_command(self, rect, mask, "Cut Region")
        if remove is None:
            return self.clear_region(rect, "Cut Region", mask)
        if self._layer_refused(*STAMP_LAYERS, "start zones", "characters"):
            return False
        self.begin_macro("Cut Region")
        self.clear_region(rect, "Cut Region", mask)
        self.push(remove)
        self.end_macro()
        return True

    def move_region(self, rect, mask, dx: int, dy: int) -> bool:
        """Move a selection's tiles and all on them by (dx, dy) (:mod:`.region_move`)."""
        from .region_move import MoveSelection, plan_move

        if self._layer_refused(*STAMP_LAYERS, "start zones", "characters"):
            return False
        plan = plan_move(self.model, rect, mask, dx, dy)
        if isinstance(plan, str):
            self.message.emit(plan)
            return False
        return self.push(MoveSelection(self, plan))

    # ------------------------------------------------------------ composite
    def begin_macro(self, text: str) -> None:
        self.undo_stack.beginMacro(text)

    def end_macro(self) -> None:
        self.undo_stack.endMacro()


def _indoor_word(indoor: bool | None) -> str:
    """How an undo step names an Indoor/Outdoor choice."""
    return "to Map Default" if indoor is None else ("Indoor" if indoor else "Outdoor")
