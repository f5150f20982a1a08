"""AoE template tool (M), like Foundry VTT's measured templates (issue 25): the
area of effect written in the tool options bar (typed, or picked from the
roster's abilities and the recent entries) is laid on the map from an origin to a
target, live.

Click a tile (a character's tile, or any tile: with a character selected when the
tool is taken, its tile is the origin at once), then move the pointer: the area
cast from there toward the pointer is drawn as it moves (for a Sphere, Disk or
Cube with a Range the pointer is its point of origin; for a Line, Rail, Cone or
Ray its direction; a Specified area or a Trail adds a chosen tile per click), and
a second click, or releasing a drag, leaves it there.  The affected tiles are
tinted, the stopped ones crossed out; over a stopped tile the status bar says
why and the wall, edge or corner that stopped it is ringed as the LoS preview
rings what decided a line.  Escape takes the template away.  The geometry is the
engine's (:func:`~sodwa_editor.engine.areas.area`); the tool edits nothing (the
template is a transient item: Export PNG leaves it out).  A notation that cannot
be read is said in one line in the options bar (:func:`read_notation`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from PySide6.QtCore import Qt

from ...engine.area_notation import AreaSpec, NotationError, Shape, parse_area
from ...engine.areas import Area, AreaError, area
from ..geometry import Tile
from ..scene.area_item import REFUSED, TEMPLATE, AreaItem
from .base import Tool, ToolEvent

#: how many recent notations the options bar lists
RECENT_KEPT = 8
#: shapes whose tiles are chosen one click at a time
CHOSEN_SHAPES = (Shape.SPECIFIED, Shape.TRAIL)


def read_notation(text: str) -> tuple[AreaSpec | None, str]:
    """The area ``text`` writes, and the options bar's line: the canonical form, or
    what is wrong in one line (never an exception)."""
    text = text.strip()
    if not text:
        return None, "type an area (AoE - Blast - Sphere: 2) or pick one from the list"
    try:
        spec = parse_area(text)
    except NotationError as exc:
        return None, f"cannot read the area: {exc}"
    return spec, str(spec)


def roster_areas(roster: Mapping[str, Any]) -> list[tuple[str, str]]:
    """(label, notation) of every ability of the roster's characters, in order."""
    out = []
    for entry in roster.get("characters", []):
        for ability in entry.get("abilities", []) or []:
            notation = ability.get("area")
            if isinstance(notation, str):
                out.append((f"{ability.get('name', '?')} ({entry.get('name', '?')}): "
                            f"{notation}", notation))
    return out


def remember(recent: Iterable[str], notation: str) -> list[str]:
    """``recent`` with ``notation`` first (once), at most :data:`RECENT_KEPT`."""
    return [notation, *(n for n in recent if n != notation)][:RECENT_KEPT]


class AreaTool(Tool):
    name = "area"
    label = "AoE Template"
    shortcut = "M"
    tip = ("Lay an area of effect on the map: click its origin, move to its target or "
           "direction, click again (or drag); hover a crossed-out tile for why it was "
           "stopped; Esc clears")
    options = ("area_notation",)
    cursor = Qt.CursorShape.CrossCursor

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.item = AreaItem(TEMPLATE)
        #: the origin clicked (the caster's tile), the target, the chosen tiles
        self.origin: Tile | None = None
        self.target: Tile | None = None
        self.chosen: list[Tile] = []
        #: the target follows the pointer (the origin is placed, not yet the target)
        self.placing = False
        #: the tile a drag began on
        self.pressed: Tile | None = None
        #: the area drawn
        self.area: Area | None = None
        self._shown: tuple | None = None

    @property
    def spec(self) -> AreaSpec | None:
        return read_notation(self.state.area_notation)[0]

    # ------------------------------------------------------------ gestures
    def activate(self) -> None:
        super().activate()
        if self.item.scene() is not self.scene:
            self.scene.add_transient(self.item)
            self.scene.add_transient(self.item.culprit)
        sel = self.state.selection
        c = self.model.characters.get(sel.value) if sel is not None and \
            sel.kind == "character" and isinstance(sel.value, str) else None
        if c is not None and self.origin is None:  # from the selected character
            self.origin, self.target, self.chosen, self.placing = (c.x, c.y), None, [], True
            self._show(None)
            self.state.hint.emit(f"origin at {c.name or c.id} ({c.x}, {c.y}): move the "
                                 "pointer to the target and click")

    def deactivate(self) -> None:
        super().deactivate()  # (cancel: the template goes)
        self.item.remove()

    def press(self, ev: ToolEvent) -> None:
        if ev.button != Qt.MouseButton.LeftButton:
            return
        tile = ev.tile
        if not self.model.in_bounds(*tile):
            return
        spec, said = read_notation(self.state.area_notation)
        if spec is None:
            self.message(said)
            return
        if self.placing and self.origin is not None:
            if spec.shape in CHOSEN_SHAPES:
                self.chosen.append(tile)
                self._show(None)
                return
            self._fix(tile)
            return
        self.origin, self.target, self.chosen, self.placing = tile, None, [], True
        self.pressed = tile
        self._show(None)

    def move(self, ev: ToolEvent) -> None:
        if ev.buttons & Qt.MouseButton.LeftButton and self.pressed is not None:
            self.scene.hover.set_shape([ev.tile] if self.model.in_bounds(*ev.tile) else [])
            if self.placing:
                self._show(ev.tile)
            return
        self.hover(ev)

    def release(self, ev: ToolEvent) -> None:
        pressed, self.pressed = self.pressed, None
        if pressed is not None and self.placing and ev.tile != pressed \
                and self.model.in_bounds(*ev.tile) and self.spec is not None \
                and self.spec.shape not in CHOSEN_SHAPES:
            self._fix(ev.tile)  # a drag from the origin to the target

    def hover(self, ev: ToolEvent) -> None:
        super().hover(ev)
        tile = ev.tile
        inside = self.model.in_bounds(*tile)
        if self.placing and self.origin is not None:
            self._show(tile if inside else None)
        self._explain(tile if inside else None)

    def leave(self) -> None:
        super().leave()
        self.item.show_reason(None)

    def cancel(self) -> None:
        """Escape: the template goes."""
        self.origin, self.target, self.chosen, self.placing = None, None, [], False
        self.pressed, self.area, self._shown = None, None, None
        self.item.clear()

    # ------------------------------------------------------------ the area
    def _fix(self, tile: Tile) -> None:
        """The target placed: the template stays."""
        self.target, self.placing = tile, False
        self._show(tile)
        notation = self.state.area_notation.strip()
        if self.area is not None and self.area.refused is None:
            self.state.set("area_recent", remember(self.state.area_recent, notation))

    def _show(self, pointer: Tile | None) -> None:
        """Draw the area from the origin toward ``pointer`` (the target, the point of
        origin or the next chosen tile; None: none yet)."""
        spec, said = read_notation(self.state.area_notation)
        if self.origin is None or spec is None:
            self.item.clear()
            if spec is None:
                self.state.hint.emit(said)
            return
        chosen = list(self.chosen)
        target = pointer
        if spec.shape in CHOSEN_SHAPES:
            if pointer is not None and self.placing:
                chosen.append(pointer)
            target = None
        key = (spec, self.origin, target, tuple(chosen), id(self.model), self.model.revision)
        if key == self._shown:
            return
        self._shown = key
        try:
            a = area(self.model, spec, self.origin, target=target, chosen=chosen,
                     occupied=[(c.x, c.y) for c in self.model.characters.values()])
        except AreaError as exc:
            self.area = None
            self.item.clear()
            self.state.hint.emit(f"{spec}: {exc}")
            return
        self.area = a
        self.item.set_area(a.affected, tuple(s.tile for s in a.stopped), a.origin,
                           self.origin, "", REFUSED if a.refused else TEMPLATE)
        if a.refused is not None:
            self.state.hint.emit(f"{spec}: {a.refused}")
        else:
            self.state.hint.emit(f"{spec}: {len(a.affected)} tiles affected, "
                                 f"{len(a.stopped)} stopped")

    def _explain(self, tile: Tile | None) -> None:
        """The pointer over ``tile``: a stopped tile's reason said and its cause ringed."""
        a = self.area
        stop = next((s for s in a.stopped if s.tile == tile), None) \
            if a is not None and tile is not None and self.item.isVisible() else None
        self.item.show_reason(stop.reason if stop is not None else None)
        if stop is not None and tile is not None:
            self.state.hint.emit(f"({tile[0]}, {tile[1]}) not reached: {stop.reason.text}")
