"""The arrays the LoS kernel reads (:mod:`.los_kernel`), built from a
:class:`~.model.MapModel` and kept in step with it: the rules for crossed
features per elevation context live here (docs/rules.md L4, L6-L11).

An edit that names the tiles it changed (every mutator but a bulk change)
patches a copy of the arrays there instead of rebuilding them: during a paint
stroke on a 256x256 map that is the difference between a few hundred tiles and
65,536.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import numpy as np
from numba import njit
from numba.extending import register_jitable

from . import los_kernel as k
from .model import Change, MapModel, Rect

Tile = tuple[int, int]
#: change layers that cannot affect a line of sight
NO_LOS = frozenset({"start_zones", "properties", "terrain_properties"})
#: change layers whose rectangle bounds everything the change touched for LoS
LOCAL = frozenset({"terrain", "elevation", "borders", "characters", "objects", "transition",
                   "transition_borders", "indoor"})
Stack = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]


@dataclass
class LosInputs:
    """Per-map arrays the kernel reads, kept in step with the model: after an edit
    whose rectangle is known, :func:`los_inputs` hands out a copy patched there
    (the arrays of an older revision, which a :class:`~.los.LosBoard` may hold,
    never change); after any other change they are rebuilt."""

    revision: int
    tile_los: np.ndarray  # uint8 (H, W): LoS class of the tile's terrain
    obj: np.ndarray  # bool (H, W): an object that impedes LoS stands here
    occ: np.ndarray  # bool (H, W): a character stands here
    elev: np.ndarray  # int16 (H, W)
    be: np.ndarray  # uint8 (H, W-1): LoS class of the east border
    bs: np.ndarray  # uint8 (H-1, W): LoS class of the south border
    target: np.ndarray  # coded uint8 (H, W): the tile as the target's own tile
    contexts: dict[tuple[int, bool], tuple[np.ndarray, np.ndarray, np.ndarray]]
    terrain: dict[tuple[int, bool], tuple[np.ndarray, np.ndarray, np.ndarray]] = field(
        default_factory=dict)
    stacks: dict[int, tuple[Stack, list[tuple[int, bool]]]] = field(default_factory=dict)
    packs: tuple[int, Stack, list[tuple[int, bool]]] | None = None
    #: :func:`pack_keys` of :attr:`packs`' keys.
    pack_arrays: tuple[np.ndarray, np.ndarray] | None = None
    sats: dict[tuple[int, bool], np.ndarray] = field(default_factory=dict)
    _levels: tuple[np.ndarray, np.ndarray] | None = None
    _counts: np.ndarray = field(default_factory=lambda: np.zeros(256, np.intp))
    #: tiles changed since ``revision`` (None: nothing yet), or "all"
    dirty: Rect | str | None = None

    def on_change(self, change: Change) -> None:
        """Model listener: remember where the map changed since ``revision``."""
        if change.layer in NO_LOS or self.dirty == "all":
            return
        r, d = change.rect, self.dirty
        if r is None or change.layer not in LOCAL:
            self.dirty = "all"
        elif d is None:
            self.dirty = r
        else:
            assert isinstance(d, Rect)
            self.dirty = Rect(min(r.x0, d.x0), min(r.y0, d.y0), max(r.x1, d.x1), max(r.y1, d.y1))

    def patched(self, model: MapModel, rect: Rect) -> LosInputs:
        """A copy brought up to date in ``rect`` (grown by one tile: the borders
        around it and the elevation pairs they depend on); the terrain contexts
        built so far are patched there too, the rest is rebuilt when asked for."""
        g = rect.grow(1, model.width, model.height)
        ys, xs = slice(g.y0, g.y1 + 1), slice(g.x0, g.x1 + 1)
        table = model.registry.los_table()
        tile_los, elev = self.tile_los.copy(), self.elev.copy()
        be, bs, target = self.be.copy(), self.bs.copy(), self.target.copy()
        tile_los[ys, xs] = table[model.terrain[ys, xs]]
        elev[ys, xs] = model.elevation[ys, xs]
        ex = slice(g.x0, min(g.x1 + 1, model.width - 1))
        sy = slice(g.y0, min(g.y1 + 1, model.height - 1))
        be[ys, ex] = table[model.border_e[ys, ex]]
        bs[sy, xs] = table[model.border_s[sy, xs]]
        obj = model.object_impeding()
        target[ys, xs] = _target(tile_los[ys, xs], obj[ys, xs])
        new = LosInputs(model.revision, tile_los, obj, model.occupancy(), elev, be, bs,
                        target, {})
        if self._levels is not None:
            new._counts = self._counts.copy()
            levels, ctx = self._levels
            new._levels = (levels, ctx.copy())
            new._patch_levels(self.elev[ys, xs].ravel().astype(np.intp), ys, xs)
        # terrain contexts: recomputed on the window; the edges inside it are the
        # east edges of columns g.x0..g.x1-1 and south edges of rows g.y0..g.y1-1
        for (lo, level), (tc, ec, sc) in self.terrain.items():
            w = _context(elev[ys, xs], tile_los[ys, xs], obj[ys, xs], be[ys, g.x0:g.x1],
                         bs[g.y0:g.y1, xs], lo, level)
            arrays = (tc.copy(), ec.copy(), sc.copy())
            arrays[0][ys, xs] = w[0]
            arrays[1][ys, g.x0:g.x1] = w[1]
            arrays[2][g.y0:g.y1, xs] = w[2]
            for a in arrays:
                a.flags.writeable = False
            new.terrain[(lo, level)] = arrays
        return new

    def levels(self) -> tuple[np.ndarray, np.ndarray]:
        """The map's elevation levels (sorted) and, per tile, its level's index."""
        if self._levels is None:
            self._counts = np.bincount(self.elev.ravel().astype(np.intp), minlength=256)
            levels = np.flatnonzero(self._counts)
            index = np.zeros(len(self._counts), np.intp)
            index[levels] = np.arange(len(levels))
            self._levels = (levels, index[self.elev])
        return self._levels

    def _patch_levels(self, old: np.ndarray, ys: slice, xs: slice) -> None:
        """Keep :meth:`levels` in step after the elevations in a window changed
        (``old`` held them before): only the window when no level appeared or
        vanished."""
        assert self._levels is not None
        counts = self._counts
        n = len(counts)
        counts -= np.bincount(old, minlength=n)[:n]
        counts += np.bincount(self.elev[ys, xs].ravel().astype(np.intp), minlength=n)[:n]
        levels, ctx = self._levels
        if not np.array_equal(np.flatnonzero(counts), levels):
            self._levels = None
            return
        ctx[ys, xs] = np.searchsorted(levels, self.elev[ys, xs])

    def feature_sat(self, lo: int, level: bool) -> np.ndarray:
        """Summed-area table (H+1, W+1) of the tiles that hold a feature in the
        context ``(lo, level)`` with the model's characters: a non-clear crossed
        tile, east or south border.  A line whose bounding box holds none meets
        only its target's tile."""
        key = (lo, level)
        if key not in self.sats:
            tc, ec, sc = self.context(lo, level)
            flag = tc != 0
            flag[:, :-1] |= ec != 0
            flag[:-1, :] |= sc != 0
            sat = np.zeros((flag.shape[0] + 1, flag.shape[1] + 1), np.int32)
            sat[1:, 1:] = flag.cumsum(0, dtype=np.int32).cumsum(1, dtype=np.int32)
            self.sats[key] = sat
        return self.sats[key]

    def context(self, lo: int, level: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Coded class arrays (crossed tiles, east borders, south borders) for a pair
        whose lower endpoint stands at ``lo`` and which is level or not, with the
        model's characters."""
        key = (lo, level)
        if key not in self.contexts:
            tc, ec, sc = self.terrain_context(lo, level)
            ys, xs = np.nonzero(self.occ)
            self.contexts[key] = (_place_characters(self, tc, lo, level, xs, ys), ec, sc)
        return self.contexts[key]

    def terrain_stack(self, a: int) -> tuple[Stack, list[tuple[int, bool]]]:
        """:func:`_stack` of the terrain contexts for a viewer at level ``a`` (shared,
        read-only) and the ``(lo, level)`` key of each stacked layer."""
        hit = self.stacks.get(a)
        if hit is None:
            stack, keys = _stack(self, self.terrain_context, a)
            for arr in stack:
                arr.flags.writeable = False
            hit = self.stacks[a] = (stack, keys)
        return hit

    def terrain_packed(self) -> tuple[int, Stack, list[tuple[int, bool]]]:
        """:meth:`terrain_stack` of every viewer level in one set of arrays (shared,
        read-only): ``(lo, (ctx, tcs, ecs, scs), keys)`` where a viewer at ``level``
        walks to target ``t`` with layer ``ctx[level - lo][t]`` (``lo`` the lowest
        level; each distinct ``(lo, level)`` context once, its key in ``keys``)."""
        if self.packs is None:
            levels, index = self.levels()
            lo, hi = int(levels[0]), int(levels[-1])
            keys = sorted({pair_key(a, b) for a in levels.tolist() for b in levels.tolist()})
            at = {key: i for i, key in enumerate(keys)}
            ctx = np.zeros((hi - lo + 1, *self.elev.shape), np.int64)
            for a in levels.tolist():
                lut = np.array([at[pair_key(a, b)] for b in levels.tolist()], np.int64)
                ctx[a - lo] = lut[index]
            arrays = [self.terrain_context(*key) for key in keys]
            stack = (ctx, *(np.stack([c[i] for c in arrays]) for i in range(3)))
            for arr in stack:
                arr.flags.writeable = False
            self.packs = (lo, stack, keys)  # type: ignore[assignment]
            self.pack_arrays = pack_keys(keys)
        assert self.packs is not None
        return self.packs

    def packed_with(self, xs: np.ndarray, ys: np.ndarray) -> tuple[int, Stack]:
        """:meth:`terrain_packed` with characters on the tiles ``(xs[i], ys[i])`` (L4):
        ``(lo, (ctx, tcs, ecs, scs))``, the tile contexts a new array, the rest
        shared."""
        lo, (ctx, tcs, ecs, scs), _keys = self.terrain_packed()
        assert self.pack_arrays is not None
        los, levels = self.pack_arrays
        return lo, (ctx, marked_copy(tcs, los, levels, self.elev, self.tile_los, xs, ys),
                    ecs, scs)

    def marked_class(self, xs: np.ndarray, ys: np.ndarray, src: Tile, dst: Tile) -> int:
        """The kernel's class of the line from ``src`` to ``dst`` (both on the map) with
        characters on the tiles ``(xs[i], ys[i])`` (:func:`marked_walk` on
        :meth:`terrain_packed`), before the adjacency exception (L5)."""
        lo, (ctx, tcs, ecs, scs), _keys = self.terrain_packed()
        assert self.pack_arrays is not None
        los, levels = self.pack_arrays
        return marked_walk(src[0], src[1], dst[0], dst[1], lo, ctx, tcs, ecs, scs, los, levels,
                           self.elev, self.tile_los, self.target, xs, ys)

    def terrain_context(self, lo: int, level: bool
                        ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """As :meth:`context` without any character (shared, read-only arrays)."""
        key = (lo, level)
        if key not in self.terrain:
            arrays = _pair_context(self, lo, level)
            for a in arrays:
                a.flags.writeable = False
            self.terrain[key] = arrays
        return self.terrain[key]


def _code(cls: np.ndarray, kind: int) -> np.ndarray:
    return (cls | (kind << 2)).astype(np.uint8)


#: Coded class of a crossed tile where a character blocks (L4).
CHARACTER_CODE = 2 | (k.R_CHARACTER << 2)


def _pair_context(
    inp: LosInputs, lo: int, level: bool
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The LoS rules for crossed terrain features (docs/rules.md L6-L11; characters
    are added by :func:`_place_characters`).

    A crossed tile above ``lo`` is Elevated Terrain, Obstructing for the lower
    party (L6); below ``lo`` it is seen over.  At ``lo``: Obstructing blocks
    (L7); for a level pair Impeding terrain or an object impedes (L11); a pair
    at different elevations ignores them (L8).  A border stands at the higher of
    its two tiles (L9): ignored below ``lo``, Obstructing blocks, Impeding
    impedes when level or above ``lo``.
    """
    return _context(inp.elev, inp.tile_los, inp.obj, inp.be, inp.bs, lo, level)


def _context(e: np.ndarray, t: np.ndarray, obj: np.ndarray, be: np.ndarray, bs: np.ndarray,
             lo: int, level: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`_pair_context` on arrays (the whole map, or a window of it)."""
    at = e == lo
    tc = np.zeros(e.shape, np.uint8)
    tc[e > lo] = 2 | (k.R_ELEVATION << 2)
    wall = at & (t == 2)
    tc[wall] = 2 | (k.R_TILE << 2)
    if level:
        rest = at & ~wall
        tc[rest & (t == 1)] = 1 | (k.R_TILE << 2)
        tc[rest & (t != 1) & obj] = 1 | (k.R_OBJECT << 2)
    ec = _border_context(be, np.maximum(e[:, :-1], e[:, 1:]), lo, level)
    sc = _border_context(bs, np.maximum(e[:-1, :], e[1:, :]), lo, level)
    return tc, ec, sc


def _place_characters(inp: LosInputs, tc: np.ndarray, lo: int, level: bool,
                      xs: Iterable[int], ys: Iterable[int]) -> np.ndarray:
    """A copy of the terrain context ``tc`` with characters standing on tiles ``(xs,
    ys)``: RB *Line of Sight* "If this imaginary line crosses ... any tiles occupied by
    characters, then LoS is blocked" (L4), for a level pair only and on tiles at
    ``lo`` (a pair at different elevations ignores characters at ``lo``: "Elevated
    characters ignore all grounded characters", L8; higher tiles block anyway).
    :func:`mark_characters` in one compiled call (:func:`marked_copy`)."""
    return marked_copy(tc[np.newaxis], np.array([lo], np.int64), np.array([level], np.int64),
                       inp.elev, inp.tile_los, np.asarray(xs, np.int64),
                       np.asarray(ys, np.int64))[0]


@register_jitable  # also compiled: :func:`mark_stack`
def mark_characters(out, lo, level, elev, tile_los, xs, ys):
    """Characters on tiles ``(xs[i], ys[i])`` marked in the coded tile context ``out``
    of a pair at ``lo`` that is ``level`` or not (the one statement of L4, with L8:
    only a level pair, only on tiles at ``lo``, where the tile itself does not block
    already)."""
    if level:
        for i in range(len(xs)):
            x, y = xs[i], ys[i]
            if elev[y, x] == lo and tile_los[y, x] != 2:
                out[y, x] = CHARACTER_CODE


@njit(cache=True, nogil=True)
def mark_stack(tcs, los, levels, elev, tile_los, xs, ys):  # pragma: no cover - compiled
    """:func:`mark_characters` in every layer ``j`` of stacked tile contexts ``tcs``,
    layer ``j`` keyed ``(los[j], levels[j])``."""
    for j in range(tcs.shape[0]):
        mark_characters(tcs[j], los[j], levels[j] != 0, elev, tile_los, xs, ys)


@njit(cache=True, nogil=True)
def marked_copy(tcs, los, levels, elev, tile_los, xs, ys):  # pragma: no cover - compiled
    """A copy of ``tcs`` with :func:`mark_stack` applied (one call: a caller that
    builds many arrangements pays no Python per layer or character)."""
    out = tcs.copy()
    mark_stack(out, los, levels, elev, tile_los, xs, ys)
    return out


@njit(cache=True, nogil=True)
def marked_walk(ax, ay, bx, by, lo, ctx, tcs, ecs, scs, los, levels, elev, tile_los, target,
                xs, ys):  # pragma: no cover - compiled
    """The class of the line from tile A to tile B (:func:`.los_kernel.walk_in`) on
    packed terrain contexts (``lo``, ``ctx``, ``tcs``, ``ecs``, ``scs`` of
    :meth:`LosInputs.terrain_packed`, the layers keyed ``(los[j], levels[j])``) with
    characters on the tiles ``(xs[i], ys[i])``: only the layer the line is walked on is
    copied and marked (:func:`mark_characters`), so a caller that asks a few lines of an
    arrangement builds no context for it."""
    c = ctx[elev[ay, ax] - lo, by, bx]
    tc = tcs[c:c + 1].copy()
    mark_characters(tc[0], los[c], levels[c] != 0, elev, tile_los, xs, ys)
    return k.walk_in(ax, ay, bx, by, tc, ecs[c:c + 1], scs[c:c + 1], 0, target)[0]


def pack_keys(keys: list[tuple[int, bool]]) -> tuple[np.ndarray, np.ndarray]:
    """The ``(lo, level)`` keys of stacked layers as two arrays (:func:`mark_stack`)."""
    return (np.array([key[0] for key in keys], np.int64),
            np.array([key[1] for key in keys], np.int64))


def _border_context(cls: np.ndarray, elev: np.ndarray, lo: int, level: bool) -> np.ndarray:
    keep = elev >= lo
    impede_ok = (elev > lo) | level
    out = np.where(keep & (cls == 2), 2, np.where(keep & (cls == 1) & impede_ok, 1, 0))
    return np.ascontiguousarray(out, dtype=np.uint8)


_cache: weakref.WeakKeyDictionary[MapModel, LosInputs] = weakref.WeakKeyDictionary()


def _target(tile_los: np.ndarray, obj: np.ndarray) -> np.ndarray:
    target = np.zeros(tile_los.shape, np.uint8)
    target[(tile_los == 1) | obj] = 1 | (k.R_TARGET << 2)
    target[tile_los == 2] = 2 | (k.R_TARGET << 2)
    return target


def los_inputs(model: MapModel) -> LosInputs:
    """Kernel inputs for ``model``, kept until the model changes: patched where an
    edit says where it changed the map, else rebuilt."""
    cached = _cache.get(model)
    if cached is not None:
        if cached.revision == model.revision:
            return cached
        if cached.dirty is None:  # only changes that do not touch LoS
            cached.revision = model.revision
            return cached
        model.remove_listener(cached.on_change)
        if isinstance(cached.dirty, Rect):
            inputs = cached.patched(model, cached.dirty)
            model.add_listener(inputs.on_change)
            _cache[model] = inputs
            return inputs
    table = model.registry.los_table()
    tile_los = np.ascontiguousarray(table[model.terrain])
    obj = model.object_impeding()
    inputs = LosInputs(
        model.revision,
        tile_los,
        obj,
        model.occupancy(),
        model.elevation.copy(),
        np.ascontiguousarray(table[model.border_e]),
        np.ascontiguousarray(table[model.border_s]),
        _target(tile_los, obj),
        {},
    )
    model.add_listener(inputs.on_change)
    _cache[model] = inputs
    return inputs


def pair_key(a: int, b: int) -> tuple[int, bool]:
    """The ``(lo, level)`` key of the context a line between parties at levels ``a``
    and ``b`` is walked on: the lower party's level, and whether the pair is level
    (docs/rules.md L6-L11: higher tiles are Elevated Terrain for the lower party, and
    Impeding terrain, objects and characters count for a level pair only)."""
    return min(a, b), a == b


def _stack(inp: LosInputs, context: Callable[[int, bool], tuple[np.ndarray, ...]],
           a: int) -> tuple[Stack, list[tuple[int, bool]]]:
    """``(ctx, tcs, ecs, scs)`` for a viewer at level ``a``: ``ctx[y, x]`` is the index
    of the stacked context arrays that apply to a target on ``(x, y)`` (they depend on
    the target's level relative to the viewer's); and the ``(lo, level)`` keys."""
    levels, ctx = inp.levels()  # ctx: target level -> context index
    keys = [pair_key(a, int(b)) for b in levels]
    stacked = [context(lo, level) for lo, level in keys]
    return (ctx, np.stack([c[0] for c in stacked]), np.stack([c[1] for c in stacked]),
            np.stack([c[2] for c in stacked])), keys
