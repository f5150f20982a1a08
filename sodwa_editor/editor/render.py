"""Render a map scene to an image (screenshots, Export PNG)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QImage, QPainter
from PySide6.QtWidgets import QGraphicsScene

from . import style


def render_scene(scene: QGraphicsScene, scale: float = 1.0,
                 source: QRectF | None = None) -> QImage:
    """The scene (or ``source`` rectangle of it) as an ARGB image at ``scale``."""
    if hasattr(scene, "flush"):
        scene.flush()
    src = source if source is not None else scene.sceneRect()
    w = max(1, round(src.width() * scale))
    h = max(1, round(src.height() * scale))
    image = QImage(w, h, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(style.BACKGROUND)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setRenderHint(QPainter.RenderHint.TextAntialiasing)
    scene.render(painter, QRectF(0, 0, w, h), src, Qt.AspectRatioMode.KeepAspectRatio)
    painter.end()
    return image


def save_png(scene: QGraphicsScene, path: Path, scale: float = 1.0) -> None:
    image = render_scene(scene, scale)
    if not image.save(str(path), "PNG"):  # type: ignore[call-overload]  # runtime takes str
        raise OSError(f"could not write {path}")
