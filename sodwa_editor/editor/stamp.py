"""Stamps: a copied rectangle of a map (its tile layers and every edge of its
tiles, the rectangle's outline included), rotated or flipped and pasted back as
one command.

A selection owns the edges on its outline: copying the tiles of a walled room
copies its walls, pasting writes them, and Cut/Delete clear them.  Every layer
a tile or an edge carries goes with it: terrain, elevation, transition tile and
the Indoor/Outdoor flag of a tile; border type with its Indoor/Outdoor flag and
transition border of an edge; and what stands on its tiles: their start-zone
membership, characters and objects (:mod:`.stamp_contents`).  Outline edges
that lie on the map's boundary do not exist; they are stored as :data:`MISSING`
and a paste leaves the target's edge there as it is.

A stamp remembers the terrain types of the map it was copied from, so it can be
pasted into another map: terrain is matched by type *name*, and special types
the target does not declare are declared with the paste (see
:meth:`Document.paste_stamp`).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

import numpy as np

from ..engine.model import INDOOR_DEFAULT, Edge, MapModel, Rect
from ..engine.terrain import TerrainRegistry, TerrainType
from .commands import FieldEdit, read_field
from .stamp_contents import StampContents, capture

#: the widest gap in a wall (edges) taken for a door
DOOR_WIDTH = 3
TILE_FIELDS = ("terrain", "elevation", "transition", "tile_indoor")
EDGE_FIELDS = ("border_e", "border_s", "transition_e", "transition_s")
#: an outline edge on the boundary of the source map: no edge, nothing to paste
MISSING = -1


@dataclass
class Stamp:
    """Tile layers (h, w) and edge layers with the outline: east (h, w+1), column
    ``c`` the edge east of tile ``c - 1`` (column 0: the outline's west side);
    south (h+1, w), row ``r`` the edge south of tile row ``r - 1``.  Border values
    are packed as in :func:`~.commands.read_field`; :data:`MISSING` marks an
    outline edge beyond the map."""

    tiles: dict[str, np.ndarray]
    border_e: np.ndarray
    border_s: np.ndarray
    transition_e: np.ndarray
    transition_s: np.ndarray
    #: terrain types of the source map, indexed by the ids in the layers
    types: tuple[TerrainType, ...] = field(default_factory=lambda: tuple(TerrainRegistry()))
    #: bool (h, w): the tiles of the stamp (a magic-wand selection), None: all of them
    mask: np.ndarray | None = None
    #: start zones, characters and objects on its tiles (stamp coordinates)
    contents: StampContents = field(default_factory=StampContents)

    @property
    def width(self) -> int:
        return self.tiles["terrain"].shape[1]

    @property
    def height(self) -> int:
        return self.tiles["terrain"].shape[0]

    def with_mask(self, mask: np.ndarray | None) -> Stamp:
        """The stamp of only the tiles of ``mask`` (bool (h, w)) and the edges that
        touch one of them (their outline included); the other edges become
        :data:`MISSING`, so a paste or a delete leaves them as they are."""
        if mask is None or mask.all():
            return Stamp(self.tiles, self.border_e, self.border_s, self.transition_e,
                         self.transition_s, self.types, contents=self.contents)
        touch_e, touch_s = edges_touching(mask)

        def only(a: np.ndarray, touch: np.ndarray) -> np.ndarray:
            return np.where(touch, a, MISSING).astype(np.int32)

        return Stamp(self.tiles, only(self.border_e, touch_e), only(self.border_s, touch_s),
                     only(self.transition_e, touch_e), only(self.transition_s, touch_s),
                     self.types, mask.copy(), self.contents.masked(mask))

    def with_teams(self, teams: dict[str, str]) -> Stamp:
        """The stamp with the teams of its zones and characters renamed
        (:meth:`~.stamp_contents.StampContents.with_teams`)."""
        return dataclasses.replace(self, contents=self.contents.with_teams(teams))

    def tile_count(self) -> int:
        return int(self.mask.sum()) if self.mask is not None else self.width * self.height

    @classmethod
    def from_region(cls, model: MapModel, rect: Rect, mask: np.ndarray | None = None) -> Stamp:
        """The stamp of ``rect``; with ``mask`` (bool, the rectangle's shape) only of
        those tiles (see :meth:`with_mask`)."""
        x0, y0, x1, y1 = rect
        sl = np.s_[y0:y1 + 1, x0:x1 + 1]
        tiles = {f: getattr(model, f)[sl].astype(np.int32) for f in TILE_FIELDS}

        def edges(field: str, xs: range, ys: range) -> np.ndarray:
            """Values of the edges at (xs, ys) of an edge layer; MISSING beyond it."""
            fh, fw = getattr(model, field).shape
            gy, gx = np.meshgrid(np.array(ys, np.intp), np.array(xs, np.intp), indexing="ij")
            out = np.full(gy.shape, MISSING, np.int32)
            ok = (gx >= 0) & (gy >= 0) & (gx < fw) & (gy < fh)
            if ok.any():
                out[ok] = read_field(model, field, np.ravel_multi_index((gy[ok], gx[ok]),
                                                                        (fh, fw)))
            return out

        east = (range(x0 - 1, x1 + 1), range(y0, y1 + 1))
        south = (range(x0, x1 + 1), range(y0 - 1, y1 + 1))
        return cls(tiles, edges("border_e", *east), edges("border_s", *south),
                   edges("transition_e", *east), edges("transition_s", *south),
                   tuple(model.registry), contents=capture(model, rect)).with_mask(mask)

    @classmethod
    def empty(cls, w: int, h: int) -> Stamp:
        """A stamp of Clear ground without borders or transitions, its outline
        included (what Cut and Delete leave behind)."""
        tiles = {f: np.zeros((h, w), np.int32) for f in TILE_FIELDS}
        tiles["tile_indoor"][:] = INDOOR_DEFAULT
        e = np.zeros((h, w + 1), np.int32)
        s = np.zeros((h + 1, w), np.int32)
        return cls(tiles, e, s, e.copy(), s.copy())

    def edge_layers(self) -> dict[str, np.ndarray]:
        return {"border_e": self.border_e, "border_s": self.border_s,
                "transition_e": self.transition_e, "transition_s": self.transition_s}

    def border_count(self) -> int:
        """Edges (outline included) that carry a border."""
        return int(sum((a // 4 > 0).sum() for a in (self.border_e, self.border_s)))

    # ------------------------------------------------------------ transforms
    def rotated(self, clockwise: bool = True) -> Stamp:
        """Rotated by 90 degrees: tile (x, y) goes to (h-1-y, x) clockwise; east
        edges become south edges and the other way round (the outline columns
        and rows turn with them)."""
        if not clockwise:
            return self.rotated().rotated().rotated()

        def r(a: np.ndarray) -> np.ndarray:
            return np.ascontiguousarray(np.rot90(a, -1))

        h = self.height
        return Stamp({f: r(a) for f, a in self.tiles.items()},
                     r(self.border_s), r(self.border_e),
                     r(self.transition_s), r(self.transition_e), self.types,
                     None if self.mask is None else r(self.mask),
                     self.contents.turned(lambda x, y: (h - 1 - y, x)))

    def flipped(self, horizontal: bool = True) -> Stamp:
        """Mirrored left-right (``horizontal``) or top-bottom."""
        def f(a: np.ndarray) -> np.ndarray:
            return np.ascontiguousarray(a[:, ::-1] if horizontal else a[::-1])

        w, h = self.width, self.height
        return Stamp({k: f(a) for k, a in self.tiles.items()}, f(self.border_e),
                     f(self.border_s), f(self.transition_e), f(self.transition_s), self.types,
                     None if self.mask is None else f(self.mask),
                     self.contents.turned((lambda x, y: (w - 1 - x, y)) if horizontal
                                          else (lambda x, y: (x, h - 1 - y))))

    # ----------------------------------------------------------------- paste
    def footprint(self, ox: int, oy: int) -> list[tuple[int, int]]:
        return [(ox + x, oy + y) for y in range(self.height) for x in range(self.width)
                if self.mask is None or self.mask[y, x]]

    def used_types(self) -> list[TerrainType]:
        """The terrain types that occur in the stamp's tiles or borders."""
        terrain = self.tiles["terrain"]
        ids = set(np.unique(terrain if self.mask is None else terrain[self.mask]).tolist())
        for borders in (self.border_e, self.border_s):
            ids |= {v // 4 for v in np.unique(borders).tolist() if v // 4 > 0}
        return [self.types[i] for i in sorted(ids) if i < len(self.types)]

    def missing_types(self, model: MapModel) -> list[TerrainType]:
        """Special types used by the stamp that ``model`` does not declare (by name)."""
        return [t for t in self.used_types() if t.name not in model.registry]

    def _id_map(self, model: MapModel) -> np.ndarray:
        """Stamp terrain id -> ``model`` terrain id of the same name (-1: undeclared)."""
        reg = model.registry
        return np.array([reg.id_of(t.name) if t.name in reg else -1 for t in self.types],
                        np.int64)

    def edits(self, model: MapModel, ox: int, oy: int) -> list[FieldEdit]:
        """Cell edits pasting this stamp with its top-left tile at (ox, oy); terrain
        of a type ``model`` does not declare, edges beyond the map and
        :data:`MISSING` outline edges are left out."""
        out = []
        shift = {"border_e": (-1, 0), "transition_e": (-1, 0),  # the outline's west column
                 "border_s": (0, -1), "transition_s": (0, -1)}  # and north row
        layers = [*self.tiles.items(), *self.edge_layers().items()]
        id_map = self._id_map(model)
        for field_name, arr in layers:
            if arr.size == 0:
                continue
            ys, xs = np.nonzero(arr != MISSING) if field_name in shift else \
                np.nonzero(np.ones(arr.shape, bool) if self.mask is None else self.mask)
            values = arr[ys, xs].astype(np.int64)
            dx, dy = shift.get(field_name, (0, 0))
            ty, tx = ys + oy + dy, xs + ox + dx
            fh, fw = getattr(model, field_name).shape
            ok = (tx >= 0) & (ty >= 0) & (tx < fw) & (ty < fh)
            if field_name == "terrain":
                values = id_map[values]
                ok &= values >= 0
            elif field_name.startswith("border"):
                mapped = id_map[values // 4]
                ok &= mapped >= 0
                values = np.maximum(mapped, 0) * 4 + values % 4
            idx = ty[ok] * fw + tx[ok]
            out.append(FieldEdit.capture(model, field_name, idx, values[ok].astype(np.int32)))
        return out

    # ------------------------------------------------------------ neighbours
    def outline_changes(self, model: MapModel, ox: int, oy: int
                        ) -> tuple[list[Edge], list[Edge]]:
        """What pasting at (ox, oy) does to the borders of the tiles around the
        stamp: the outline edges whose border the target has and the paste
        replaces or removes (``replaced``), and the empty outline edges in a gap
        of a target wall (a door: at most :data:`DOOR_WIDTH` empty edges between
        two borders along the wall) the paste closes with a border (``closed``)."""
        ids = self._id_map(model)
        w, h = self.width, self.height
        replaced: list[Edge] = []
        closed: list[Edge] = []
        sides = (  # the stamp's outline values, the target's edges, the wall's direction
            (self.border_e[:, 0], [Edge(ox - 1, oy + r, "E") for r in range(h)]),
            (self.border_e[:, w], [Edge(ox + w - 1, oy + r, "E") for r in range(h)]),
            (self.border_s[0, :], [Edge(ox + c, oy - 1, "S") for c in range(w)]),
            (self.border_s[h, :], [Edge(ox + c, oy + h - 1, "S") for c in range(w)]))
        for values, edges in sides:
            for value, edge in zip(values.tolist(), edges, strict=True):
                if value == MISSING or not model.edge_in_bounds(edge):
                    continue
                tid = int(ids[value // 4]) if value // 4 < len(ids) else -1
                if tid < 0:
                    continue  # a type the target lacks: declared with the paste, new
                new = tid * 4 + value % 4
                field = "border_" + edge.side.lower()
                arr = getattr(model, field)
                old = int(arr[edge.y, edge.x]) * 4 + int(
                    getattr(model, "indoor_" + edge.side.lower())[edge.y, edge.x]) + 1
                if old == new:
                    continue
                if arr[edge.y, edge.x]:
                    replaced.append(edge)
                elif tid and _in_wall_gap(arr, edge):
                    closed.append(edge)
        return replaced, closed


def edges_touching(mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The stamp edges (east (h, w+1), south (h+1, w), the outline included) that
    touch a tile of ``mask`` (bool (h, w))."""
    h, w = mask.shape
    touch_e = np.zeros((h, w + 1), bool)
    touch_e[:, 1:] |= mask
    touch_e[:, :-1] |= mask
    touch_s = np.zeros((h + 1, w), bool)
    touch_s[1:, :] |= mask
    touch_s[:-1, :] |= mask
    return touch_e, touch_s


def _in_wall_gap(arr: np.ndarray, edge: Edge) -> bool:
    """Whether an empty edge of a border layer (``border_e`` or ``border_s``) lies in
    a gap of a wall (a door): the run of empty edges along its line holding it
    has a border at both ends and is at most :data:`DOOR_WIDTH` edges long."""
    vertical = edge.side == "E"  # east edges stack in a column; south edges in a row
    line = arr[:, edge.x] if vertical else arr[edge.y, :]
    at = edge.y if vertical else edge.x
    lo = at
    while lo > 0 and not line[lo - 1] and at - lo < DOOR_WIDTH:
        lo -= 1
    hi = at
    while hi < len(line) - 1 and not line[hi + 1] and hi - at < DOOR_WIDTH:
        hi += 1
    return (hi - lo + 1 <= DOOR_WIDTH and lo > 0 and hi < len(line) - 1
            and bool(line[lo - 1]) and bool(line[hi + 1]))
