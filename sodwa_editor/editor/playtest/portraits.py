"""Portraits of the battle's characters: the Character Panels' "Action Shot" and
the Turn-Sequence Bar's entries (RB *The Battle UI*: "their 'Action Shot', which is
a special picture of the character"; "the character portraits in the TSB are
clickable").

A roster archetype may name an image (``portrait``: a PNG, JPEG or SVG path,
relative to the roster file; docs/map-format.md, *Roster*).  Without one (or when
the file cannot be read) the portrait is drawn: the team colour, the archetype's
glyph (:data:`ARCHETYPE_GLYPHS`: a sword for the Knight, a bow for the Archer...;
an archetype the table does not know gets the rulebook's Sword when it fights in
melee, Range 1, else its Reticle) and the character's two-letter label, the one
its token on the map wears, so the portrait and the token are told together.

:class:`Portraits` draws and caches them for one battle; the glyphs are
:func:`draw_glyph` (also the Combat section's Melee and Ranged icons).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QLinearGradient,
    QPainter,
    QPainterPath,
    QPen,
    QPixmap,
    QPolygonF,
)

from ...battle.jsonfiles import BattleInputError, read_json
from ...battle.sheet import DEFAULT_ROSTER_PATH
from ...battle.state import BattleState
from ...engine.model import Character, MapModel
from .. import style
from ..scene.token_item import token_label, unique_labels

#: the RB icons: "The Melee attributes fall under the red Sword icon, while the
#: Ranged attributes fall under the red Reticle icon"
RB_RED = QColor(200, 30, 30)

Glyph = Callable[[QPainter], None]


def _line(p: QPainter, *points: tuple[float, float]) -> None:
    for (x0, y0), (x1, y1) in zip(points, points[1:], strict=False):
        p.drawLine(QPointF(x0, y0), QPointF(x1, y1))


def _fill(p: QPainter, *points: tuple[float, float]) -> None:
    p.save()
    p.setBrush(p.pen().color())
    p.drawPolygon(QPolygonF([QPointF(x, y) for x, y in points]))
    p.restore()


def sword(p: QPainter) -> None:
    _fill(p, (0, -0.95), (0.13, -0.75), (0.13, 0.35), (-0.13, 0.35), (-0.13, -0.75))
    _line(p, (-0.45, 0.4), (0.45, 0.4))
    _line(p, (0, 0.4), (0, 0.8))
    p.drawEllipse(QPointF(0, 0.88), 0.08, 0.08)


def dagger(p: QPainter) -> None:
    _fill(p, (0, -0.6), (0.14, -0.4), (0.14, 0.2), (-0.14, 0.2), (-0.14, -0.4))
    _line(p, (-0.35, 0.25), (0.35, 0.25))
    _line(p, (0, 0.25), (0, 0.62))


def spear(p: QPainter) -> None:
    _line(p, (-0.7, 0.8), (0.45, -0.45))
    _fill(p, (0.8, -0.8), (0.32, -0.6), (0.6, -0.32))


def bow(p: QPainter) -> None:
    p.drawArc(QRectF(-1.0, -0.85, 1.1, 1.7), -70 * 16, 140 * 16)
    _line(p, (-0.26, -0.8), (-0.26, 0.8))
    _line(p, (-0.6, 0), (0.85, 0))
    _fill(p, (0.95, 0), (0.7, -0.14), (0.7, 0.14))


def arrow(p: QPainter) -> None:
    _line(p, (-0.75, 0.75), (0.55, -0.55))
    _fill(p, (0.8, -0.8), (0.35, -0.62), (0.62, -0.35))
    _line(p, (-0.75, 0.75), (-0.8, 0.45))
    _line(p, (-0.75, 0.75), (-0.45, 0.8))


def reticle(p: QPainter) -> None:
    p.drawEllipse(QPointF(0, 0), 0.6, 0.6)
    for a, b in (((0, -0.95), (0, -0.3)), ((0, 0.3), (0, 0.95)),
                 ((-0.95, 0), (-0.3, 0)), ((0.3, 0), (0.95, 0))):
        _line(p, a, b)
    p.drawEllipse(QPointF(0, 0), 0.05, 0.05)


def star(p: QPainter) -> None:
    pts = []
    for k in range(10):
        r = 0.9 if k % 2 == 0 else 0.38
        a = -math.pi / 2 + k * math.pi / 5
        pts.append((r * math.cos(a), r * math.sin(a) + 0.05))
    _fill(p, *pts)


def hammer(p: QPainter) -> None:
    _line(p, (0, -0.25), (0, 0.9))
    _fill(p, (-0.6, -0.8), (0.6, -0.8), (0.6, -0.3), (-0.6, -0.3))


def club(p: QPainter) -> None:
    _fill(p, (-0.12, 0.9), (0.12, 0.9), (0.38, -0.55), (0.2, -0.85), (-0.2, -0.85),
          (-0.38, -0.55))


def wing(p: QPainter) -> None:
    path = QPainterPath(QPointF(-0.9, -0.2))
    path.quadTo(QPointF(-0.45, -0.7), QPointF(0, 0.25))
    path.quadTo(QPointF(0.45, -0.7), QPointF(0.9, -0.2))
    p.drawPath(path)
    _line(p, (0, 0.25), (0, 0.7))


def gear(p: QPainter) -> None:
    p.drawEllipse(QPointF(0, 0), 0.5, 0.5)
    p.drawEllipse(QPointF(0, 0), 0.16, 0.16)
    for k in range(8):
        a = k * math.pi / 4
        _line(p, (0.5 * math.cos(a), 0.5 * math.sin(a)), (0.85 * math.cos(a), 0.85 * math.sin(a)))


def leaf(p: QPainter) -> None:
    path = QPainterPath(QPointF(-0.7, 0.7))
    path.quadTo(QPointF(-0.75, -0.75), QPointF(0.75, -0.75))
    path.quadTo(QPointF(0.75, 0.75), QPointF(-0.7, 0.7))
    p.drawPath(path)
    _line(p, (-0.85, 0.85), (0.4, -0.4))


def crescent(p: QPainter) -> None:
    outer = QPainterPath()
    outer.addEllipse(QPointF(0, 0), 0.8, 0.8)
    inner = QPainterPath()
    inner.addEllipse(QPointF(0.35, -0.2), 0.65, 0.65)
    p.save()
    p.setBrush(p.pen().color())
    p.drawPath(outer.subtracted(inner))
    p.restore()


GLYPHS: dict[str, Glyph] = {
    "sword": sword, "dagger": dagger, "spear": spear, "bow": bow, "arrow": arrow,
    "reticle": reticle, "star": star, "hammer": hammer, "club": club, "wing": wing,
    "gear": gear, "leaf": leaf, "crescent": crescent}
#: the shipped roster's archetypes (resources/roster.json), lower case -> glyph
ARCHETYPE_GLYPHS = {
    "knight": "sword", "archer": "bow", "mage": "star", "rogue": "dagger",
    "brute": "hammer", "sniper": "reticle", "hawk": "wing", "robot": "gear",
    "druid": "leaf", "lancer": "spear", "ogre": "club", "ranger": "arrow",
    "witch": "crescent"}


def glyph_of(archetype: str | None, attack_range: int) -> str:
    """The glyph of an archetype; the Sword (melee) or the Reticle (ranged) of a
    character the table does not know."""
    known = ARCHETYPE_GLYPHS.get((archetype or "").lower())
    return known or ("sword" if attack_range <= 1 else "reticle")


def draw_glyph(painter: QPainter, name: str, rect: QRectF, color: QColor,
               weight: float = 0.13) -> None:
    """Glyph ``name`` drawn in ``color`` to fit ``rect``."""
    painter.save()
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.translate(rect.center())
    scale = min(rect.width(), rect.height()) / 2
    painter.scale(scale, scale)
    pen = QPen(color, weight)
    pen.setCapStyle(Qt.PenCapStyle.RoundCap)
    pen.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
    painter.setPen(pen)
    painter.setBrush(Qt.BrushStyle.NoBrush)
    GLYPHS[name](painter)
    painter.restore()


def icon_pixmap(name: str, size: int, color: QColor = RB_RED) -> QPixmap:
    """A glyph alone (the Combat section's Sword and Reticle)."""
    pix = QPixmap(size, size)
    pix.fill(Qt.GlobalColor.transparent)
    p = QPainter(pix)
    draw_glyph(p, name, QRectF(1, 1, size - 2, size - 2), color, 0.16)
    p.end()
    return pix


def draw_token(painter: QPainter, rect: QRectF, color: QColor, glyph: str,
               label: str) -> None:
    """The drawn portrait: a tile of the team colour, the glyph, the label."""
    painter.save()
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    grad = QLinearGradient(rect.topLeft(), rect.bottomLeft())
    grad.setColorAt(0, color.lighter(135))
    grad.setColorAt(1, color.darker(150))
    painter.setPen(QPen(QColor(30, 30, 30), 1))
    painter.setBrush(QBrush(grad))
    painter.drawRoundedRect(rect.adjusted(0.5, 0.5, -0.5, -0.5), 4, 4)
    ink = style.label_color(color)
    s = min(rect.width(), rect.height())
    draw_glyph(painter, glyph, QRectF(rect.center().x() - s * 0.3, rect.top() + s * 0.14,
                                      s * 0.6, s * 0.6), ink)
    font = QFont()
    font.setPixelSize(max(7, int(s * 0.2)))
    font.setBold(True)
    painter.setFont(font)
    painter.setPen(ink)
    painter.drawText(QRectF(rect.left() + 3, rect.top() + 1, rect.width() - 6, s * 0.25),
                     Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop, label)
    painter.restore()


def roster_portraits(doc: Mapping[str, Any] | None, base: Path) -> dict[str, Path]:
    """Archetype (lower case) -> the image a roster names for it (``portrait``,
    relative to ``base``, the roster file's folder)."""
    out: dict[str, Path] = {}
    for entry in (doc or {}).get("characters", ()):
        name = entry.get("portrait")
        if isinstance(name, str) and name:
            out[str(entry["name"]).lower()] = base / name
    return out


def battle_labels(state: BattleState, source: MapModel | None) -> list[str]:
    """Each character's two-letter label, as its token on the map shows it."""
    def character(ident: str, side: str) -> Character:
        c = source.characters.get(ident) if source is not None else None
        return c if c is not None else Character(ident, side, 0, 0,
                                                 name=ident.split(".")[-1])

    labels = unique_labels({f.id: token_label(character(f.id, f.side))
                            for f in state.fighters})
    return [labels[f.id] for f in state.fighters]


class Portraits:
    """The portraits of one battle's characters, drawn once per size and kept.
    ``roster``: the roster document of the battle (None: the shipped one's images);
    ``base``: the folder its image paths are relative to."""

    def __init__(self, state: BattleState, colors: Mapping[str, QColor],
                 source: MapModel | None = None, roster: Mapping[str, Any] | None = None,
                 base: Path = DEFAULT_ROSTER_PATH.parent) -> None:
        self.state = state
        self.colors = colors
        self.labels = battle_labels(state, source)
        if roster is None:
            try:
                roster = read_json(DEFAULT_ROSTER_PATH)
            except BattleInputError:
                roster = None
        self.images = roster_portraits(roster, base)
        self._loaded: dict[Path, QPixmap | None] = {}
        self._cache: dict[tuple[int, int], QPixmap] = {}

    def color(self, i: int) -> QColor:
        return self.colors.get(self.state.fighters[i].side, QColor("gray"))

    def image(self, i: int) -> QPixmap | None:
        """The roster's image of character ``i``'s archetype (None: none, or unreadable)."""
        path = self.images.get((self.state.sheets[i].archetype or "").lower())
        if path is None:
            return None
        if path not in self._loaded:
            pix = QPixmap(str(path)) if path.is_file() else QPixmap()
            self._loaded[path] = None if pix.isNull() else pix
        return self._loaded[path]

    def pixmap(self, i: int, size: int) -> QPixmap:
        """Character ``i``'s portrait, ``size`` pixels square."""
        key = (i, size)
        pix = self._cache.get(key)
        if pix is None:
            pix = self._cache[key] = self._draw(i, size)
        return pix

    def _draw(self, i: int, size: int) -> QPixmap:
        pix = QPixmap(size, size)
        pix.fill(Qt.GlobalColor.transparent)
        p = QPainter(pix)
        rect = QRectF(0, 0, size, size)
        image = self.image(i)
        if image is not None:
            p.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
            scaled = image.scaled(size, size, Qt.AspectRatioMode.KeepAspectRatioByExpanding,
                                  Qt.TransformationMode.SmoothTransformation)
            p.drawPixmap(0, 0, scaled, (scaled.width() - size) // 2,
                         (scaled.height() - size) // 2, size, size)
            p.setPen(QPen(self.color(i), 3))
            p.drawRect(rect.adjusted(1.5, 1.5, -1.5, -1.5))
        else:
            sheet = self.state.sheets[i]
            draw_token(p, rect, self.color(i), glyph_of(sheet.archetype, sheet.range),
                       self.labels[i])
        p.end()
        return pix
