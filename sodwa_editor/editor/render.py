"""Render a map scene to an image (screenshots, Export PNG)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QImage, QImageWriter, QPainter
from PySide6.QtWidgets import QGraphicsScene

from ..io.paths import writable_target
from . import style

#: Longest side of an exported image, in pixels (8320 x 8320 x 4 bytes = 264 MiB):
#: a 256 x 256 map at 32 px per tile with its coordinate margin (8256 px) fits;
#: a larger map is scaled down to fit.
MAX_IMAGE_SIDE = 8320


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


def fitted_scale(scene: QGraphicsScene, scale: float = 1.0) -> float:
    """``scale``, reduced so that neither side of the image exceeds :data:`MAX_IMAGE_SIDE`."""
    rect = scene.sceneRect()
    longest = max(rect.width(), rect.height(), 1.0) * scale
    return scale if longest <= MAX_IMAGE_SIDE else MAX_IMAGE_SIDE / max(rect.width(),
                                                                        rect.height())


def save_png(scene: QGraphicsScene, path: Path, scale: float = 1.0) -> float:
    """Write the scene to a PNG at ``scale`` (reduced to fit :data:`MAX_IMAGE_SIDE`);
    returns the scale used.  Raises ``OSError`` saying why when it cannot."""
    writable_target(path)  # a FIFO would block the writer; a device is not an image file
    used = fitted_scale(scene, scale)
    image = render_scene(scene, used)
    if image.isNull():
        raise OSError(f"could not write {path}: not enough memory for a "
                      f"{image.width()}x{image.height()} image")
    writer = QImageWriter(str(path), b"png")
    if not writer.write(image):
        raise OSError(f"could not write {path}: {writer.errorString()}")
    return used
