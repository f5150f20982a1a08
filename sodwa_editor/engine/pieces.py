"""What stands on a map's tiles: characters (of any size) and objects (lights among
them), as :class:`~.model.MapModel` holds them (``characters``, ``objects``).  Plain
data; the model's methods are their only writers in the editor's document."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .sizes import GRID_SCALE_M, Footprint, footprint_for


@dataclass
class Character:
    """A placed character with the attributes the map rules need.

    ``move`` and ``range`` are the rulebook's Move and Range attributes; ``flight``
    lets movement pass over Outdoor Obstructing terrain.  ``attributes`` keeps any
    other attribute (Health, Initiative, ...) for the battle rules; ``custom``: custom values.

    ``size`` is a size category of :data:`.sizes.SIZES` (``"medium"``: one tile) and
    ``footprint`` optional free dimensions replacing the size table's (a 4x8 Massive
    creature, docs/rules.md S1); ``(x, y)`` is then the footprint's top-left tile.  Its
    tiles are :meth:`footprint_at`'s.

    >>> Character("wyrm", "red", 2, 3, size="huge").footprint_at()
    Footprint(width=4, height=4)
    >>> Character("eel", "red", 0, 0, size="massive", footprint=Footprint(4, 8)
    ...           ).footprint_at(grid_scale_m=2)
    Footprint(width=2, height=4)
    """

    id: str
    team: str
    x: int
    y: int
    move: int = 5
    range: int = 5
    flight: bool = False
    name: str = ""
    attributes: dict[str, int] = field(default_factory=dict)
    custom: dict[str, Any] = field(default_factory=dict)
    size: str = "medium"
    footprint: Footprint | None = None

    def footprint_at(self, *, grid_scale_m: float = GRID_SCALE_M) -> Footprint:
        """The tiles this character covers, ``width`` x ``height`` from ``(x, y)``: its
        ``footprint`` or its ``size``'s by the table, on a grid of ``grid_scale_m``
        metres per tile (:func:`.sizes.footprint_for`, S1-S3).  A ``ValueError`` for an
        unknown size."""
        return footprint_for(self.size, dimensions=self.footprint, grid_scale_m=grid_scale_m)

    def squares(self, *, grid_scale_m: float = GRID_SCALE_M) -> list[tuple[int, int]]:
        """The tiles this character covers, row-major from ``(x, y)``."""
        return self.footprint_at(grid_scale_m=grid_scale_m).squares((self.x, self.y))


@dataclass
class MapObject:
    """A grounded or elevated object standing on a tile (its elevation is the tile's).

    ``impedes_los``: objects count as Impeding for line of sight by default (the
    rulebook lists "grounded objects" beside "grounded Impeding Terrain" as what
    elevated characters see over), see docs/rules.md; ``radius``: lights (:mod:`.property_layers`).
    """

    id: str
    kind: str
    x: int
    y: int
    impedes_los: bool = True
    custom: dict[str, Any] = field(default_factory=dict)
    radius: int = 1
