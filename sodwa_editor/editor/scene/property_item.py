"""Terrain properties on the map (issue 27): each tile's vocabulary properties
as small icons along the foot of the tile (:mod:`..properties.glyphs`), the
lit area of light sources, and the property filter that dims every tile
without the chosen property.

:class:`PropertyMarks` is one item for the whole map: it keeps a bit mask per
tile (bit ``i``: property ``PROPERTY_NAMES[i]``) from the types' property
tables; a tile's icons are one picture per combination of shown properties (a
map uses a few), drawn into a picture per 16x16-tile chunk, so a repaint draws
a dozen chunk pictures.  Below :data:`MIN_PX` screen pixels per tile the icons
would be specks: it draws nothing (the filter still shows where a property
is)."""

from __future__ import annotations

import copy

import numpy as np
from PySide6.QtCore import QLineF, QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QImage, QPainter, QPen
from PySide6.QtWidgets import QStyleOptionGraphicsItem, QWidget

from ...engine.model import MapModel, MapObject, Rect
from ...engine.property_layers import light_sources, lit_tiles
from ...engine.terrain_properties import PROPERTY_NAMES
from ..properties.glyphs import paint_glyph
from ..style import TILE
from .layers import CHUNK, ImageLayer, LayerItem, exposed_tiles, premultiply, tile_pixels
from .overlay_items import mask_lines

#: screen pixels per tile below which no icon is drawn
MIN_PX = 20.0
#: icons per row along the foot of a tile, and their size in tile widths
PER_ROW, ICON = 3, 0.3
#: pixels per tile of the chunk pictures: the one nearest below the zoom's (the
#: pictures are drawn about unscaled, so cheaply; each is made on first use)
CHUNK_RES = (20, 24, 28, 32, 40, 48, 56, 64)
#: chunk pictures kept (a 512 x 512 picture is 1 MB; more than a full view needs)
CHUNKS_KEPT = 96
#: the filter's dimming of the tiles without the property (RGBA)
DIM_RGBA = (20, 20, 28, 165)
#: the dark properties a light source suppresses (seed: *Dark and Full Dark*)
SUPPRESSED = ("dark", "full_dark")
LIGHT_GLOW = QColor(255, 214, 80)
LIGHT_EDGE = QColor(200, 140, 0)
_SUPPRESSED_BITS = np.uint32(sum(1 << PROPERTY_NAMES.index(n) for n in SUPPRESSED))


def property_bits(model: MapModel) -> np.ndarray:
    """uint32 per terrain id: bit ``i`` set when the type has ``PROPERTY_NAMES[i]``."""
    reg = model.registry
    out = np.zeros(len(reg), np.uint32)
    for i, name in enumerate(PROPERTY_NAMES):
        out |= reg.property_mask(name).astype(np.uint32) << np.uint32(i)
    return out


def slots(count: int) -> list[QRectF]:
    """Where the icons of a tile go (tile units from its top-left): rows of
    :data:`PER_ROW` along the foot of the tile, the next row above."""
    size, gap = TILE * ICON, TILE * 0.02
    out = []
    for k in range(count):
        row, col = divmod(k, PER_ROW)
        out.append(QRectF(gap + col * (size + gap), TILE - (row + 1) * (size + gap), size, size))
    return out


def chunk_res(px: float) -> int:
    """The chunk pictures' pixels per tile for ``px`` screen pixels per tile."""
    return max([r for r in CHUNK_RES if r <= px * 1.1] or [CHUNK_RES[0]])


def tiles_rect(rect: Rect) -> QRectF:
    """Scene rectangle of an inclusive tile rectangle."""
    return QRectF(rect.x0 * TILE, rect.y0 * TILE, (rect.x1 - rect.x0 + 1) * TILE,
                  (rect.y1 - rect.y0 + 1) * TILE)


class PropertyMarks(LayerItem):
    """The shown properties of every tile as icons (see the module docstring).

    The icons of each 16x16-tile chunk are drawn once into a picture of the
    chunk (at about the zoom's pixels per tile, :func:`chunk_res`); a repaint
    draws a dozen chunk pictures, an edit redraws its tiles in the pictures it
    touches."""

    layers = frozenset({"terrain", "terrain_properties", "objects", "borders", "elevation",
                        "transition", "transition_borders"})

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.bits = np.zeros((1, 1), np.uint32)
        self.lit = np.zeros((1, 1), bool)
        self.shown = np.uint32((1 << len(PROPERTY_NAMES)) - 1)
        self._lights: list[tuple[str, int, int, int]] = []  # the lights of ``lit``
        #: property bits per terrain id (made again when the types may have changed:
        #: a type declared, edited or swapped reaches the scene as a whole-map change)
        self._table: np.ndarray | None = None
        self._pictures: dict[tuple[int, bool, int], np.ndarray] = {}
        #: (cx, cy, pixels per tile) -> the chunk's icons (its pixels and the image
        #: over them), least recently drawn first
        self._chunks: dict[tuple[int, int, int], tuple[np.ndarray, QImage]] = {}

    def set_shown(self, names: set[str] | frozenset[str]) -> None:
        """Draw only these properties (the Layers dock's per-property boxes)."""
        mask = np.uint32(sum(1 << i for i, n in enumerate(PROPERTY_NAMES) if n in names))
        if mask != self.shown:
            self.shown = mask
            self._chunks.clear()
            self.update()

    def refresh(self, rect: Rect | None) -> None:
        m = self.model
        if m is None:
            return
        if rect is None or self._table is None:  # the types may have changed
            self._table = property_bits(m)
        table = self._table
        before = self.lit
        lights = light_sources(m) if (table & _SUPPRESSED_BITS).any() else []
        positions = [(o.id, o.x, o.y, o.radius) for o in lights]
        if lights and (rect is None or positions != self._lights or before.shape != m.shape
                       or any(near_light(o, rect) for o in lights)):
            self.lit = lit_tiles(m)  # the lights' reach changed, or may have
        elif not lights and (self.lit.shape != m.shape or self.lit.any()):
            self.lit = np.zeros(m.shape, bool)
        self._lights = positions
        if rect is None or self.bits.shape != m.shape or before.shape != m.shape:
            self.bits = table[m.terrain]
            self._chunks.clear()
            self.update()
            return
        sl = np.s_[rect.y0:rect.y1 + 1, rect.x0:rect.x1 + 1]
        self.bits[sl] = table[m.terrain[sl]]
        self._redraw(rect)
        if self.lit is not before:  # the lights' reach may change far from the edit
            ys, xs = np.nonzero(self.lit != before)
            if len(xs):
                self._redraw(Rect(int(xs.min()), int(ys.min()), int(xs.max()), int(ys.max())))

    def _redraw(self, rect: Rect) -> None:
        """The tiles of ``rect`` drawn afresh in the chunk pictures made so far."""
        for (cx, cy, res), (pix, _image) in self._chunks.items():
            x0, y0 = max(rect.x0, cx * CHUNK), max(rect.y0, cy * CHUNK)
            x1, y1 = min(rect.x1, cx * CHUNK + CHUNK - 1), min(rect.y1, cy * CHUNK + CHUNK - 1)
            if x0 <= x1 and y0 <= y1:
                self._paint_tiles(pix, cx, cy, res, Rect(x0, y0, x1, y1))
        self.update(tiles_rect(rect))

    def tiles_with(self, name: str) -> np.ndarray:
        """bool (H, W): tiles whose type has property ``name`` (tests, the filter)."""
        return (self.bits >> np.uint32(PROPERTY_NAMES.index(name))) & np.uint32(1) > 0

    def picture(self, bits: int, lit: bool, px: int) -> np.ndarray:
        """A tile's icons for a combination of properties: premultiplied RGBA
        (px, px, 4)."""
        key = (bits, lit, px)
        pic = self._pictures.get(key)
        if pic is None:
            names = [n for i, n in enumerate(PROPERTY_NAMES) if bits >> i & 1]
            image = QImage(px, px, QImage.Format.Format_RGBA8888_Premultiplied)
            image.fill(Qt.GlobalColor.transparent)
            p = QPainter(image)
            p.scale(px / TILE, px / TILE)
            for name, box in zip(names, slots(len(names)), strict=True):
                paint_glyph(p, name, box, faded=lit and name in SUPPRESSED)
            p.end()
            view = np.frombuffer(image.constBits(), np.uint8, px * image.bytesPerLine())
            pic = view.reshape(px, image.bytesPerLine())[:, :px * 4].reshape(px, px, 4).copy()
            self._pictures[key] = pic
        return pic

    def _paint_tiles(self, pixels: np.ndarray, cx: int, cy: int, res: int, r: Rect) -> None:
        """Write the icons of the tiles of ``r`` (inside chunk cx, cy) into its pixels."""
        sl = np.s_[r.y0:r.y1 + 1, r.x0:r.x1 + 1]
        sub = self.bits[sl] & self.shown
        key = sub.astype(np.int64) * 2 + self.lit[sl]
        combos, inverse = np.unique(key, return_inverse=True)
        stack = np.stack([np.zeros((res, res, 4), np.uint8) if c < 2 else
                          self.picture(int(c) >> 1, bool(c & 1), res) for c in combos.tolist()])
        h, w = sub.shape
        block = stack[inverse.reshape(h, w)].transpose(0, 2, 1, 3, 4).reshape(h * res, w * res, 4)
        y0, x0 = (r.y0 - cy * CHUNK) * res, (r.x0 - cx * CHUNK) * res
        pixels[y0:y0 + h * res, x0:x0 + w * res] = block

    def _chunk(self, cx: int, cy: int, res: int) -> QImage:
        key = (cx, cy, res)
        entry = self._chunks.pop(key, None)
        if entry is None:
            m = self.model
            assert m is not None
            w = min(CHUNK, m.width - cx * CHUNK)
            h = min(CHUNK, m.height - cy * CHUNK)
            pixels = np.zeros((h * res, w * res, 4), np.uint8)
            self._paint_tiles(pixels, cx, cy, res, Rect(cx * CHUNK, cy * CHUNK,
                                                        cx * CHUNK + w - 1, cy * CHUNK + h - 1))
            image = QImage(pixels.data, w * res, h * res, w * res * 4,
                           QImage.Format.Format_RGBA8888_Premultiplied)
            entry = (pixels, image)  # the image reads the pixels' memory
            while len(self._chunks) >= CHUNKS_KEPT:
                del self._chunks[next(iter(self._chunks))]
        self._chunks[key] = entry  # the most recently drawn last
        return entry[1]

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        m = self.model
        r = exposed_tiles(m, option.exposedRect) if m is not None else None
        px = tile_pixels(option, painter)
        if m is None or r is None or px < MIN_PX:
            return
        res = chunk_res(px)
        painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, abs(px / res - 1) > 0.1)
        for cy in range(r.y0 // CHUNK, r.y1 // CHUNK + 1):
            for cx in range(r.x0 // CHUNK, r.x1 // CHUNK + 1):
                block = self.bits[cy * CHUNK:(cy + 1) * CHUNK, cx * CHUNK:(cx + 1) * CHUNK]
                if not (block & self.shown).any():
                    continue
                image = self._chunk(cx, cy, res)
                painter.drawImage(QRectF(cx * CHUNK * TILE, cy * CHUNK * TILE,
                                         image.width() / res * TILE,
                                         image.height() / res * TILE),
                                  image, QRectF(image.rect()))


class PropertyFilterShade(ImageLayer):
    """"Show tiles with property X": every other tile dimmed (nothing while no
    property is chosen)."""

    layers = frozenset({"terrain", "terrain_properties"})

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.prop: str | None = None

    def set_property(self, name: str | None) -> None:
        if name != self.prop:
            self.prop = name
            self.refresh(None)

    def compute(self, model: MapModel, rect: Rect) -> np.ndarray:
        sl = np.s_[rect.y0:rect.y1 + 1, rect.x0:rect.x1 + 1]
        out = np.zeros(model.terrain[sl].shape + (4,), np.uint8)
        if self.prop is not None:
            has = model.registry.property_mask(self.prop)[model.terrain[sl]]
            out[~has] = DIM_RGBA
        return premultiply(out)


def near_light(light: MapObject, rect: Rect) -> bool:
    """Whether an edit of ``rect`` can change what ``light`` lights: it lies within
    the light's radius, plus one tile (a wall on its rim), of the light."""
    reach = max(0, int(light.radius)) + 1
    return not (rect.x1 < light.x - reach or rect.x0 > light.x + reach
                or rect.y1 < light.y - reach or rect.y0 > light.y + reach)


class LightLayer(LayerItem):
    """Each light source's lit area (the engine's rule: its tile and the tiles up
    to its radius adjacency steps away, walls stop it): a warm glow over those
    tiles, a dashed outline around them and a sun on the light's tile.  An edit
    computes again only the lights near it."""

    layers = frozenset({"objects", "terrain", "borders", "elevation", "transition",
                        "transition_borders"})

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        #: per light id: the light as drawn, its lit tiles' image (one pixel per
        #: tile), where that image goes, the outline
        self.drawn: dict[str, tuple[MapObject, QImage, QRectF, list[QLineF]]] = {}

    @property
    def areas(self) -> list[tuple[MapObject, QImage, QRectF, list[QLineF]]]:
        return list(self.drawn.values())

    def refresh(self, rect: Rect | None) -> None:
        m = self.model
        if m is None:
            return
        lights = {o.id: o for o in light_sources(m)}
        if rect is None:
            stale = set(self.drawn) | set(lights)
        else:
            stale = {i for i in set(self.drawn) | set(lights)
                     if i not in lights or i not in self.drawn
                     or self.drawn[i][0] != lights[i] or near_light(lights[i], rect)}
        glow = (LIGHT_GLOW.red(), LIGHT_GLOW.green(), LIGHT_GLOW.blue(), 110)
        for light_id in stale:
            old = self.drawn.pop(light_id, None)
            if old is not None:
                self.update(old[2])
            light = lights.get(light_id)
            if light is None:
                continue
            mask = lit_tiles(m, [light])
            ys, xs = np.nonzero(mask)
            if not len(xs):
                continue
            x0, x1, y0, y1 = int(xs.min()), int(xs.max()), int(ys.min()), int(ys.max())
            box = mask[y0:y1 + 1, x0:x1 + 1]
            rgba = np.zeros(box.shape + (4,), np.uint8)
            rgba[box] = glow
            rgba = np.ascontiguousarray(premultiply(rgba))
            image = QImage(rgba.data, box.shape[1], box.shape[0], box.shape[1] * 4,
                           QImage.Format.Format_RGBA8888_Premultiplied).copy()
            where = QRectF(x0 * TILE, y0 * TILE, box.shape[1] * TILE, box.shape[0] * TILE)
            self.drawn[light_id] = (copy.deepcopy(light), image, where,
                                    mask_lines(box, x0, y0))
            self.update(where)

    def lit_area(self, light_id: str) -> list[tuple[int, int]]:
        """The tiles drawn lit around light ``light_id`` (tests)."""
        for light, image, where, _lines in self.areas:
            if light.id == light_id:
                x0, y0 = int(where.left() // TILE), int(where.top() // TILE)
                return [(x0 + x, y0 + y) for y in range(image.height())
                        for x in range(image.width()) if image.pixelColor(x, y).alpha()]
        return []

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        pen = QPen(LIGHT_EDGE, 1.5, Qt.PenStyle.DashLine)
        pen.setCosmetic(True)  # a hairline at every zoom
        for light, image, where, lines in self.areas:
            if not where.intersects(option.exposedRect):
                continue
            painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, False)
            painter.drawImage(where, image, QRectF(image.rect()))
            painter.setPen(pen)
            painter.drawLines(lines)
            painter.setRenderHint(QPainter.RenderHint.Antialiasing)
            centre = QPointF((light.x + 0.5) * TILE, (light.y + 0.5) * TILE)
            painter.setPen(QPen(LIGHT_EDGE, TILE * 0.05))
            painter.setBrush(LIGHT_GLOW)
            painter.drawEllipse(centre, TILE * 0.16, TILE * 0.16)
