"""Grid geometry for tools: tiles and edges under a point, brush footprints,
lines and flood fill.  Pure functions on tile coordinates (no Qt)."""

from __future__ import annotations

import numpy as np
from numba import njit

from ..engine.model import Edge, MapModel

Tile = tuple[int, int]


def tile_at(fx: float, fy: float) -> Tile:
    """Tile containing the point (in tile units)."""
    return int(np.floor(fx)), int(np.floor(fy))


def nearest_edge(model: MapModel, fx: float, fy: float) -> tuple[Edge | None, float]:
    """Inner edge nearest to a point (tile units) and the distance to it."""
    tx, ty = tile_at(fx, fy)
    dv = abs(fx - round(fx))  # distance to the nearest vertical grid line
    dh = abs(fy - round(fy))
    candidates: list[tuple[float, Edge]] = []
    vx, hy = round(fx), round(fy)
    candidates.append((dv, Edge(vx - 1, ty, "E")))
    candidates.append((dh, Edge(tx, hy - 1, "S")))
    candidates.sort(key=lambda c: c[0])
    for dist, edge in candidates:
        if model.edge_in_bounds(edge):
            return edge, dist
    return None, float("inf")


def edge_endpoints(edge: Edge) -> tuple[tuple[int, int], tuple[int, int]]:
    """The edge's two grid points (tile units)."""
    x, y, side = edge
    if side == "E":
        return (x + 1, y), (x + 1, y + 1)
    return (x, y + 1), (x + 1, y + 1)


def edges_between_points(model: MapModel, a: tuple[float, float],
                         b: tuple[float, float]) -> list[Edge]:
    """Edges snapped along a drag from ``a`` to ``b`` (tile units), in order,
    without repeats.  The segment is sampled at quarter tiles; a mostly vertical
    drag snaps to vertical edges only and a mostly horizontal one to horizontal
    edges, so dragging along a grid line never catches the crossing lines."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    n = max(1, int(np.ceil(max(abs(dx), abs(dy)) * 4)))
    vertical = abs(dy) > abs(dx)
    out: list[Edge] = []
    for i in range(n + 1):
        t = i / n
        fx, fy = a[0] + dx * t, a[1] + dy * t
        if vertical:
            e = Edge(round(fx) - 1, int(np.floor(fy)), "E")
        else:
            e = Edge(int(np.floor(fx)), round(fy) - 1, "S")
        if model.edge_in_bounds(e) and e not in out:
            out.append(e)
    return out


def brush_cells(model: MapModel, center: Tile, size: int) -> list[Tile]:
    """Square brush footprint of ``size`` tiles centred on ``center`` (clipped)."""
    cx, cy = center
    lo = -((size - 1) // 2)
    hi = size // 2
    return [(x, y) for y in range(cy + lo, cy + hi + 1) for x in range(cx + lo, cx + hi + 1)
            if model.in_bounds(x, y)]


def line_cells(a: Tile, b: Tile) -> list[Tile]:
    """Bresenham line of tiles from ``a`` to ``b`` inclusive."""
    (x0, y0), (x1, y1) = a, b
    dx, dy = abs(x1 - x0), -abs(y1 - y0)
    sx, sy = (1 if x0 < x1 else -1), (1 if y0 < y1 else -1)
    err = dx + dy
    out = []
    while True:
        out.append((x0, y0))
        if (x0, y0) == (x1, y1):
            return out
        e2 = 2 * err
        if e2 >= dy:
            err += dy
            x0 += sx
        if e2 <= dx:
            err += dx
            y0 += sy


def room_edges(model: MapModel, a: Tile, b: Tile) -> list[Edge]:
    """The edges around the rectangle of tiles with corners ``a`` and ``b`` (the four
    walls of a room), clockwise from the north-west corner; edges on the map's
    boundary do not exist and are left out."""
    x0, x1 = sorted((a[0], b[0]))
    y0, y1 = sorted((a[1], b[1]))
    out = [Edge(x, y0 - 1, "S") for x in range(x0, x1 + 1)]
    out += [Edge(x1, y, "E") for y in range(y0, y1 + 1)]
    out += [Edge(x, y1, "S") for x in range(x1, x0 - 1, -1)]
    out += [Edge(x0 - 1, y, "E") for y in range(y1, y0 - 1, -1)]
    return [e for e in out if model.edge_in_bounds(e)]


def rect_cells(a: Tile, b: Tile) -> list[Tile]:
    x0, x1 = sorted((a[0], b[0]))
    y0, y1 = sorted((a[1], b[1]))
    return [(x, y) for y in range(y0, y1 + 1) for x in range(x0, x1 + 1)]


def flood_region(model: MapModel, start: Tile, *, respect_borders: bool = True) -> np.ndarray:
    """bool (H, W): tiles 4-connected to ``start`` with the same terrain id and
    elevation; with ``respect_borders`` a border of any type stops the fill.
    Compiled (a 256x256 area in well under a millisecond), so the Fill tool can
    show the area under the pointer before the click."""
    h, w = model.shape
    sx, sy = start
    same = (model.terrain == model.terrain[sy, sx]) & (model.elevation == model.elevation[sy, sx])
    open_e = np.ones((h, max(w - 1, 0)), np.bool_)
    open_s = np.ones((max(h - 1, 0), w), np.bool_)
    if respect_borders:
        open_e = model.border_e == 0
        open_s = model.border_s == 0
    return _flood(same, open_e, open_s, int(sx), int(sy))


@njit(cache=True, nogil=True)
def _flood(same, open_e, open_s, sx, sy):  # pragma: no cover - compiled
    """Breadth-first fill of ``same`` from (sx, sy) through open edges."""
    h, w = same.shape
    out = np.zeros((h, w), np.bool_)
    queue = np.empty(h * w, np.int64)
    out[sy, sx] = True
    queue[0] = sy * w + sx
    head, tail = 0, 1
    while head < tail:
        k = queue[head]
        head += 1
        y, x = k // w, k % w
        for d in range(4):
            if d == 0:
                nx, ny, ok = x + 1, y, x + 1 < w and open_e[y, x]
            elif d == 1:
                nx, ny, ok = x - 1, y, x > 0 and open_e[y, x - 1]
            elif d == 2:
                nx, ny, ok = x, y + 1, y + 1 < h and open_s[y, x]
            else:
                nx, ny, ok = x, y - 1, y > 0 and open_s[y - 1, x]
            if ok and same[ny, nx] and not out[ny, nx]:
                out[ny, nx] = True
                queue[tail] = ny * w + nx
                tail += 1
    return out


def tile_index(model: MapModel, cells: list[Tile] | np.ndarray) -> np.ndarray:
    """Flat indices of tiles into (H, W) layers."""
    if isinstance(cells, np.ndarray) and cells.dtype == bool:
        return np.flatnonzero(cells)
    if not len(cells):
        return np.zeros(0, np.intp)
    arr = np.asarray(cells, np.intp)
    return arr[:, 1] * model.width + arr[:, 0]


def edge_index(model: MapModel, edges: list[Edge]) -> dict[str, np.ndarray]:
    """Flat indices of edges into the east and south edge layers."""
    out: dict[str, list[int]] = {"E": [], "S": []}
    for e in edges:
        width = model.width - 1 if e.side == "E" else model.width
        out[e.side].append(e.y * width + e.x)
    return {k: np.asarray(v, np.intp) for k, v in out.items()}


def elevation_changes_at(model: MapModel, tile: Tile) -> bool:
    """Whether a tile has an orthogonal neighbour at another elevation."""
    x, y = tile
    e = model.elevation[y, x]
    return any(model.in_bounds(nx, ny) and model.elevation[ny, nx] != e
               for nx, ny in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)))


def edge_changes_elevation(model: MapModel, edge: Edge) -> bool:
    (ax, ay), (bx, by) = edge.tiles
    return bool(model.elevation[ay, ax] != model.elevation[by, bx])
