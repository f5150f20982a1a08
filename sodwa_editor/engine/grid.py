"""Grid keys: :class:`Edge` (the one key of the edge between two orthogonal tiles,
see :mod:`sodwa_editor.engine.model`) and :class:`Rect` (a rectangle of tiles a
change touched).  Re-exported by :mod:`.model`, where callers import them from."""

from __future__ import annotations

from typing import Literal, NamedTuple

Side = Literal["E", "S"]

__all__ = ["Edge", "Rect", "Side", "edge_between"]


class Edge(NamedTuple):
    """Canonical key of the edge on the east (``"E"``) or south (``"S"``) side of tile (x, y)."""

    x: int
    y: int
    side: Side

    @property
    def tiles(self) -> tuple[tuple[int, int], tuple[int, int]]:
        """The two tiles the edge separates, west/north one first."""
        if self.side == "E":
            return (self.x, self.y), (self.x + 1, self.y)
        return (self.x, self.y), (self.x, self.y + 1)

    def __str__(self) -> str:
        return f"{self.x},{self.y},{self.side}"


def edge_between(a: tuple[int, int], b: tuple[int, int]) -> Edge:
    """Canonical :class:`Edge` between two orthogonally adjacent tiles.

    >>> edge_between((3, 4), (2, 4))
    Edge(x=2, y=4, side='E')
    """
    (ax, ay), (bx, by) = a, b
    if ay == by and abs(ax - bx) == 1:
        return Edge(min(ax, bx), ay, "E")
    if ax == bx and abs(ay - by) == 1:
        return Edge(ax, min(ay, by), "S")
    raise ValueError(f"tiles {a} and {b} are not orthogonal neighbours")


class Rect(NamedTuple):
    """Inclusive rectangle of tiles ``x0..x1, y0..y1`` that a change touched."""

    x0: int
    y0: int
    x1: int
    y1: int

    def grow(self, n: int, width: int, height: int) -> Rect:
        return Rect(
            max(0, self.x0 - n), max(0, self.y0 - n),
            min(width - 1, self.x1 + n), min(height - 1, self.y1 + n),
        )
