"""Borders drawn as thick lines on their edge in the rulebook colour, Indoor
obstruction borders with a white dashed core; transition borders marked by a
green dashed line (the red elevation outline has a gap there)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from PySide6.QtCore import Qt
from PySide6.QtGui import QPen

from ...engine.model import INDOOR_DEFAULT, INDOOR_YES, MapModel, Rect
from ...engine.terrain import Base
from .. import style
from ..style import TILE
from .layers import ChunkedPathLayer


def _runs(mask: np.ndarray) -> list[tuple[int, int]]:
    """(start, end exclusive) of each run of True in a 1-D bool array."""
    padded = np.concatenate([[False], mask, [False]]).astype(np.int8)
    d = np.diff(padded)
    return list(zip(np.flatnonzero(d == 1).tolist(), np.flatnonzero(d == -1).tolist(),
                    strict=True))


def edge_lines(keys_e: np.ndarray, keys_s: np.ndarray, rect: Rect,
               skip: int = 0) -> dict[int, list[np.ndarray]]:
    """Polylines (tile units) of the edges in ``rect`` grouped by style key;
    consecutive collinear edges of one key become one line.  ``keys_e`` and
    ``keys_s`` are the model's full (H, W-1) and (H-1, W) key arrays."""
    out: dict[int, list[np.ndarray]] = {}
    x0, y0 = rect.x0, rect.y0
    e = keys_e[y0:rect.y1 + 1, x0:min(rect.x1 + 1, keys_e.shape[1])]
    for col in range(e.shape[1]):
        column = e[:, col]
        for key in np.unique(column).tolist():
            if key == skip:
                continue
            for a, b in _runs(column == key):
                gx = x0 + col + 1
                out.setdefault(key, []).append(np.array([[gx, y0 + a], [gx, y0 + b]], float))
    s = keys_s[y0:min(rect.y1 + 1, keys_s.shape[0]), x0:rect.x1 + 1]
    for row in range(s.shape[0]):
        line = s[row]
        for key in np.unique(line).tolist():
            if key == skip:
                continue
            for a, b in _runs(line == key):
                gy = y0 + row + 1
                out.setdefault(key, []).append(np.array([[x0 + a, gy], [x0 + b, gy]], float))
    return out


def border_keys(model: MapModel, side: str) -> np.ndarray:
    """Style key per edge: 0 none, else ``base * 2 + indoor`` (indoor only for
    Obstructing)."""
    borders = model.border_e if side == "E" else model.border_s
    codes = model.indoor_e if side == "E" else model.indoor_s
    base = model.registry.base_table()[borders].astype(np.int32)
    indoor = (codes == INDOOR_YES) | ((codes == INDOOR_DEFAULT) & (model.setting == "indoor"))
    indoor &= base == Base.OBSTRUCTING
    return np.where(borders > 0, base * 2 + indoor, 0)


class BorderLines(ChunkedPathLayer):
    layers = frozenset({"borders", "setting"})
    clip_to_map = True

    def draw_order(self, key: Any) -> Any:
        """Obstructing borders on top, so a fence or stream crossing a wall never
        looks like a door in it (the most restrictive border wins, rulebook
        *Terrain*)."""
        return int(key) // 2 == Base.OBSTRUCTING

    def refresh(self, rect: Rect | None) -> None:
        m = self.model
        if m is not None:
            self._keys = (border_keys(m, "E"), border_keys(m, "S"))
        super().refresh(rect)

    def chunk_paths(self, model: MapModel, rect: Rect) -> dict[Any, list[np.ndarray]]:
        return edge_lines(*self._keys, rect)

    def pens(self, key: Any) -> Sequence[QPen]:
        base, indoor = Base(int(key) // 2), int(key) % 2
        pen = QPen(style.OUTLINE[base], style.BORDER_WIDTH)
        pen.setCapStyle(Qt.PenCapStyle.SquareCap)
        pens = [pen]
        if indoor:
            core = QPen(style.INDOOR_BORDER_CORE, style.BORDER_WIDTH / 3)
            core.setStyle(Qt.PenStyle.DashLine)
            core.setCapStyle(Qt.PenCapStyle.FlatCap)
            pens.append(core)
        return pens


class TransitionBorderMarks(ChunkedPathLayer):
    layers = frozenset({"transition_borders"})

    def chunk_paths(self, model: MapModel, rect: Rect) -> dict[Any, list[np.ndarray]]:
        lines = edge_lines(model.transition_e.astype(np.int8),
                           model.transition_s.astype(np.int8), rect)
        return {"transition": lines.get(1, [])}

    def pens(self, key: Any) -> Sequence[QPen]:
        pen = QPen(style.TRANSITION, 2.5 * TILE / 32)
        pen.setStyle(Qt.PenStyle.DashLine)
        pen.setCapStyle(Qt.PenCapStyle.FlatCap)
        return [pen]
