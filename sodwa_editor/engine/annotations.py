"""What a map carries for its designers and never for the rules (issue 29): text
labels on tiles and the reference image traced under the map.

Both are saved in the map file (``labels``; ``editor.reference_image``, see
docs/map-format.md) and ignored by every rule: line of sight, movement and the
battles never read them.
"""

from __future__ import annotations

import re
from collections.abc import Container
from dataclasses import dataclass

#: Longest label text (characters); the schema's ``maxLength``.
MAX_LABEL_TEXT = 200
#: Label font sizes (points) a file may hold; 0 means the editor's default size.
LABEL_SIZES = range(0, 73)
#: Bounds of the reference image's scale (1.0: 32 image pixels per tile).
SCALE_RANGE = (0.01, 100.0)
#: A label colour: ``#rrggbb``.
COLOR = re.compile(r"#[0-9a-fA-F]{6}")


@dataclass
class Label:
    """A text annotation on tile (x, y); ``color`` ``#rrggbb`` ("" the default) and
    ``size`` in points (0 the default)."""

    id: str
    x: int
    y: int
    text: str
    color: str = ""
    size: int = 0


@dataclass(frozen=True)
class ReferenceImage:
    """An image drawn under the map to trace: ``path`` as written in the map file
    (relative to the map file's folder, or absolute), ``opacity`` 0..1, ``scale``
    (1.0: one image pixel is 1/32 of a tile) and ``offset`` in tiles (where the
    image's top-left corner lies)."""

    path: str
    opacity: float = 0.5
    scale: float = 1.0
    offset_x: float = 0.0
    offset_y: float = 0.0


def next_label_id(taken: Container[str]) -> str:
    """The first free id ``label-1``, ``label-2``, ...

    >>> next_label_id({"label-1": 0})
    'label-2'
    """
    n = 1
    while f"label-{n}" in taken:
        n += 1
    return f"label-{n}"
