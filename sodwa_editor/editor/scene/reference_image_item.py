"""The reference image layer: the map's reference image (issue 29) drawn over
the terrain colours and under every line, number and token, at the opacity,
scale and offset the map saves, so a designer traces a sketch or a screenshot.

The path in the map is relative to the map file's folder (:attr:`base_dir`,
which the window keeps in step with the document's path).  A file that is
missing or not an image draws nothing; :attr:`problem` says why in one line.
"""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

from PySide6.QtCore import QRectF
from PySide6.QtGui import QImage, QPainter
from PySide6.QtWidgets import QStyleOptionGraphicsItem, QWidget

from ...engine.annotations import ReferenceImage
from ...engine.model import Rect
from ..style import TILE
from .layers import LayerItem


def resolve(path: str, base_dir: Path | None) -> Path:
    """The file a map's reference image path names (relative: to ``base_dir``, the
    map file's folder; an unsaved map: the working folder)."""
    p = Path(path).expanduser()
    return p if p.is_absolute() or base_dir is None else base_dir / p


def stored_path(file: Path, map_path: Path | None) -> str:
    """How the map file writes an image's path: relative to the map's folder when
    the map is saved (and the image on the same drive), else absolute."""
    if map_path is None:
        return str(file.resolve())
    try:
        return Path(os.path.relpath(file.resolve(), map_path.resolve().parent)).as_posix()
    except ValueError:  # another drive (Windows)
        return str(file.resolve())



def anchored(ref: ReferenceImage, folder: Path) -> ReferenceImage:
    """``ref`` with its path made absolute against ``folder`` (a map read from a
    file that will not be its SODWA file: a Tiled map, whose image paths are
    relative to the ``.tmj``)."""
    return dataclasses.replace(ref, path=str(resolve(ref.path, folder).resolve()))


class ReferenceImageItem(LayerItem):
    """Draws ``model.reference_image``; loads the file when the setting changes."""

    layers = frozenset({"reference_image"})

    def __init__(self) -> None:
        super().__init__()
        self.base_dir: Path | None = None
        self.image = QImage()
        self.loaded: tuple[Path, float] | None = None  # the file and its mtime
        #: why the image is not drawn (one line), or None
        self.problem: str | None = None

    def set_base_dir(self, base_dir: Path | None) -> None:
        if base_dir != self.base_dir:
            self.base_dir = base_dir
            self.refresh(None)

    @property
    def setting(self) -> ReferenceImage | None:
        return self.model.reference_image if self.model is not None else None

    def refresh(self, rect: Rect | None) -> None:
        self.prepareGeometryChange()
        ref = self.setting
        self.problem = None
        if ref is None:
            self.image, self.loaded = QImage(), None
        else:
            self._load(resolve(ref.path, self.base_dir))
        self.update()

    def _load(self, file: Path) -> None:
        try:
            stamp = (file, file.stat().st_mtime)
        except OSError:
            self.image, self.loaded = QImage(), None
            self.problem = f"reference image {file} not found; the map shows without it"
            return
        if stamp == self.loaded:
            return
        image = QImage(str(file))
        if image.isNull():
            self.image, self.loaded = QImage(), None
            self.problem = f"reference image {file} is not an image Qt can read"
            return
        self.image, self.loaded = image, stamp

    def target(self) -> QRectF:
        """Where the image lies in the scene."""
        ref = self.setting
        if ref is None or self.image.isNull():
            return QRectF()
        return QRectF(ref.offset_x * TILE, ref.offset_y * TILE,
                      self.image.width() * ref.scale, self.image.height() * ref.scale)

    def boundingRect(self) -> QRectF:  # noqa: N802
        return self.target()

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        ref = self.setting
        if ref is None or self.image.isNull():
            return
        painter.setOpacity(painter.opacity() * ref.opacity)
        painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
        painter.drawImage(self.target(), self.image)
