"""The start group of a move (docs/rules.md M5-M7): the tiles a character that begins
its turn on hindering terrain may pass through without stopping, and the step classes
out of them.  Read by :mod:`.movement`'s search."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from . import adjacency as adj
from .groups import terrain_group_mask, transition_group_mask
from .model import MapModel, Rect

Tile = tuple[int, int]


def start_group(model: MapModel, start: Tile, tile_class: np.ndarray) -> np.ndarray:
    """Rulebook *Impeding Terrain*: "If they start their turn occupying a Tile of Impeding
    Terrain, their Move attribute is halved but they may move through any contiguous
    tiles of Impeding Terrain without ending their movement"; *Elevated Terrain*: "If the
    border is part of a transition tile and the character starts its turn in that tile,
    its movement is halved like normal but it does not need to end it turn after passing
    through the transition border".

    The tiles the mover may pass through freely: the terrain group of the start tile
    (same id and elevation, 8-connected) when its terrain hinders movement, together
    with its stairway (:func:`.groups.transition_group_mask`: the contiguous
    transition tiles, never an Obstructing one) when the start is a transition tile.
    Empty when the start tile does not hinder.  Which transition borders are free is
    narrower (only the start tile's own, :func:`group_steps`)."""
    x, y = start
    group = np.zeros(model.shape, np.bool_)
    if tile_class[y, x] != adj.IMPEDED:
        return group
    move = model.registry.move_table()
    if move[model.terrain[y, x]] == adj.IMPEDED:
        group |= terrain_group_mask(model, start)
    if model.transition[y, x]:
        group |= transition_group_mask(model, start)
    return group


def group_steps(model: MapModel, group: np.ndarray, starts: Sequence[Tile],
                 flight: bool) -> np.ndarray:
    """Step classes out of start-group tiles: the same adjacency rule, on inputs where
    the group's own tiles do not hinder and, for each start tile that is a transition
    tile, the transition borders on its own edges are not Difficult.  RB: "If the
    border is part of a transition tile and the character starts its turn in that
    tile, ... it does not need to end it turn after passing through the transition
    border": the tile the character starts in, not another tile of its group or
    stairway (docs/rules.md M7); ``starts`` is that one tile, or every square a large
    creature starts on (S7).  Only hindering (``IMPEDED``) group tiles become
    ``CLEAR``: a tile that cannot be occupied stays ``BLOCKED``."""
    ys, xs = np.nonzero(group)
    win = Rect(int(xs.min()), int(ys.min()), int(xs.max()), int(ys.max())).grow(
        1, model.width, model.height)
    inp = adj.inputs(model, flight=flight, rect=win)
    g = group[win.y0 : win.y1 + 1, win.x0 : win.x1 + 1]
    own = np.zeros(g.shape, np.bool_)  # the start tiles that are transition tiles
    for sx, sy in starts:
        if win.x0 <= sx <= win.x1 and win.y0 <= sy <= win.y1:
            own[sy - win.y0, sx - win.x0] = group[sy, sx] and model.transition[sy, sx]
    free_e = inp.link_e & (own[:, :-1] | own[:, 1:])
    free_s = inp.link_s & (own[:-1, :] | own[1:, :])
    inp = replace(inp, tile=np.where(g & (inp.tile == adj.IMPEDED), adj.CLEAR,
                                     inp.tile).astype(np.uint8),
                  cross_e=np.where(free_e, inp.side_e, inp.cross_e),
                  cross_s=np.where(free_s, inp.side_s, inp.cross_s))
    out = np.full((8, *model.shape), adj.BLOCKED, np.uint8)
    out[:, win.y0 : win.y1 + 1, win.x0 : win.x1 + 1] = adj.step_array(
        adj._pair_classes(inp), g.shape)
    return out
