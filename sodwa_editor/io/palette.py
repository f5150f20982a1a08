"""The editor's tile colours as plain RGB(A) tuples, without Qt: the one place the
terrain fills, the elevation shading and the transition and zone tints are defined.

The editor's drawing constants (:mod:`sodwa_editor.editor.style`) take them from
here, and so does the Tiled tileset (:mod:`.tiled_tileset`), which is written by
``sodwa export-tiled`` without Qt, so that a map looks the same in Tiled as in
the editor.  Rulebook drawing conventions are in ``style``'s docstring.

>>> special_fills([("icy", Base.DIFFICULT)])
[(200, 129, 185)]
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

import numpy as np

from ..engine.terrain import Base, TerrainRegistry

RGB = tuple[int, int, int]
RGBA = tuple[int, int, int, int]

#: Tile fill (RGB) per base type.
FILL: dict[Base, RGB] = {
    Base.CLEAR: (236, 232, 218),
    Base.IMPEDING: (226, 232, 160),
    Base.OBSTRUCTING: (110, 100, 90),  # outdoor rock
    Base.DIFFICULT: (200, 196, 188),
    Base.LIQUID: (150, 196, 236),
}
#: Indoor obstructions are solid near-black (they rise floor to ceiling) and
#: carry a cross-hatch of :data:`INDOOR_HATCH_RGBA`; outdoor ones are brown-gray
#: rock without hatch.
FILL_INDOOR_OBSTRUCTING: RGB = (40, 40, 48)
INDOOR_HATCH_RGBA: RGBA = (255, 255, 255, 90)

#: Elevation shading: level n is tinted with ``ELEVATION_TINT`` at alpha
#: ``MAX * (1 - (1 - FIRST / MAX) ** n)``: level 1 gets FIRST, and every further
#: level is a little darker than the one below (up to ~12 levels are told apart;
#: the level number, in :data:`LEVEL_NUMBER_RGBA`, is always written on the tile).
ELEVATION_TINT: RGB = (120, 60, 20)
ELEVATION_ALPHA_FIRST = 38
ELEVATION_ALPHA_MAX = 170
LEVEL_NUMBER_RGBA: RGBA = (150, 20, 20, 150)
TRANSITION_TILE_RGBA: RGBA = (30, 170, 60, 110)
#: alpha of a start zone's tint (in its team's colour) and of its dashed outline
START_ZONE_ALPHA = 90
#: Border line colour per base type (rulebook conventions: Obstructing black,
#: Impeding yellow, Difficult gray; Liquid blue is the editor's choice).
OUTLINE: dict[Base, RGB] = {
    Base.OBSTRUCTING: (0, 0, 0),
    Base.IMPEDING: (240, 200, 0),
    Base.DIFFICULT: (128, 128, 128),
    Base.LIQUID: (20, 100, 220),
}


def elevation_alpha(levels: np.ndarray) -> np.ndarray:
    """Shading alpha (0..ELEVATION_ALPHA_MAX) of elevation levels."""
    q = 1 - ELEVATION_ALPHA_FIRST / ELEVATION_ALPHA_MAX
    return np.rint(ELEVATION_ALPHA_MAX * (1 - q ** np.asarray(levels, float))).astype(np.int32)


def special_fills(types: Iterable[tuple[str, Base]]) -> list[RGB]:
    """Fills of a map's special terrain types, in declaration order: each its
    base fill turned to a hue picked from its name (stable across maps), moved
    on by 37 degrees while it is in the green band of transition tiles and of
    the clear-LoS preview (80-160) or within 30 degrees of a type before it."""
    taken: list[int] = []
    out = []
    for name, base in types:
        h, s, v = _hsv(FILL[base])
        hue = (max(h, 0) + 60 + hashlib.sha1(name.encode()).digest()[0]) % 360
        for _ in range(12):
            if not 80 <= hue <= 160 and all(min(abs(hue - t), 360 - abs(hue - t)) >= 30
                                            for t in taken):
                break
            hue = (hue + 37) % 360
        taken.append(hue)
        out.append(_rgb(hue, max(s, 90), v))
    return out


def terrain_fills(registry: TerrainRegistry) -> list[RGB]:
    """Fill colour of each terrain id of ``registry``: built-in types their base's,
    special types :func:`special_fills`."""
    specials = iter(special_fills((t.name, t.base) for t in registry.special_types()))
    return [FILL[t.base] if t.builtin else next(specials) for t in registry]


# Qt's HSV conversion (QColor::toHsv, QColor::toRgb: 16-bit channels, single
# precision), so that the colours are the ones the editor drew with QColor;
# tests/test_tiled_tileset.py checks every hue of every base against QColor.
_USHRT = 65535


def _f32(x: float) -> float:
    return float(np.float32(x))


def _qround(x: float) -> int:
    return int(x + 0.5) if x >= 0 else int(x - 0.5)


def _hsv(rgb: RGB) -> tuple[int, int, int]:
    """``QColor(r, g, b)``'s ``hue()`` (-1: none), ``saturation()`` and ``value()``."""
    hi16, lo16 = max(rgb) * 0x101, min(rgb) * 0x101
    if hi16 == lo16:
        return -1, 0, _div257(hi16)
    sat16 = (2 * (hi16 - lo16) * _USHRT + hi16) // (2 * hi16)  # rounded half up
    r, g, b = (_f32(c * 0x101 / _USHRT) for c in rgb)
    hi, lo = max(r, g, b), min(r, g, b)
    delta = _f32(hi - lo)
    if r == hi:
        hue = _f32((g - b) / delta)
    elif g == hi:
        hue = _f32(2.0 + _f32((b - r) / delta))
    else:
        hue = _f32(4.0 + _f32((r - g) / delta))
    hue = _f32(hue * 60.0)
    if hue < 0:
        hue = _f32(hue + 360.0)
    return _qround(_f32(hue * 100)) // 100, _div257(sat16), _div257(hi16)


def _rgb(hue: int, sat: int, value: int) -> RGB:
    """The 8-bit channels of ``QColor.setHsv(hue, sat, value)``."""
    h = (hue % 360) * 100
    s, v = _f32(sat * 0x101 / _USHRT), _f32(value * 0x101 / _USHRT)
    if sat == 0:
        c = _div257(value * 0x101)
        return c, c, c
    hf = _f32(h / 6000.0)
    i = int(hf)
    f = _f32(hf - i)
    p = _f32(v * _f32(1.0 - s))
    if i & 1:
        q = _f32(v * _f32(1.0 - _f32(s * f)))
        r, g, b = {1: (q, v, p), 3: (p, q, v), 5: (v, p, q)}[i]
    else:
        t = _f32(v * _f32(1.0 - _f32(s * _f32(1.0 - f))))
        r, g, b = {0: (v, t, p), 2: (p, v, t), 4: (t, p, v)}[i]
    return (_div257(_qround(_f32(r * _USHRT))), _div257(_qround(_f32(g * _USHRT))),
            _div257(_qround(_f32(b * _USHRT))))


def _div257(x: int) -> int:
    """Qt's ``qt_div_257``: a 16-bit channel to 8 bits."""
    return (x - ((x + 128) >> 8) + 128) >> 8
