"""The map view: zoom (wheel, Ctrl +/-, fit, 100%), pan (middle drag or
Space + drag) and forwarding of mouse and key events to the active tool."""

from __future__ import annotations

import contextlib
import traceback

from PySide6.QtCore import QEvent, QPointF, Qt, Signal
from PySide6.QtGui import QKeyEvent, QMouseEvent, QPainter, QWheelEvent
from PySide6.QtWidgets import QGraphicsView

from .style import TILE
from .tools.base import Tool, ToolEvent

MIN_ZOOM, MAX_ZOOM = 0.02, 16.0


class MapView(QGraphicsView):
    #: pointer position in tile units (fx, fy), or None when it leaves the view
    hovered = Signal(object)
    zoom_changed = Signal(float)
    #: Alt+click on a tile (pins the preview source)
    pin_requested = Signal(int, int)

    def __init__(self, scene, parent=None) -> None:
        super().__init__(scene, parent)
        self.tool: Tool | None = None
        self.setRenderHint(QPainter.RenderHint.Antialiasing)
        self.setRenderHint(QPainter.RenderHint.TextAntialiasing)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        self.setResizeAnchor(QGraphicsView.ViewportAnchor.AnchorViewCenter)
        self.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.SmartViewportUpdate)
        self.setOptimizationFlag(QGraphicsView.OptimizationFlag.DontSavePainterState)
        self.setMouseTracking(True)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self._pan_from: QPointF | None = None
        self._space = False

    # ------------------------------------------------------------------ zoom
    def zoom(self) -> float:
        return self.transform().m11()

    def set_zoom(self, z: float) -> None:
        z = min(MAX_ZOOM, max(MIN_ZOOM, z))
        self.resetTransform()
        self.scale(z, z)
        self.zoom_changed.emit(z)

    def zoom_by(self, factor: float) -> None:
        self.set_zoom(self.zoom() * factor)

    def zoom_in(self) -> None:
        self.zoom_by(1.25)

    def zoom_out(self) -> None:
        self.zoom_by(0.8)

    def zoom_reset(self) -> None:
        self.set_zoom(1.0)

    def zoom_fit(self) -> None:
        rect = self.scene().sceneRect()
        if rect.isEmpty():
            return
        self.fitInView(rect, Qt.AspectRatioMode.KeepAspectRatio)
        self.zoom_changed.emit(self.zoom())

    def center_on_tile(self, x: int, y: int) -> None:
        self.centerOn((x + 0.5) * TILE, (y + 0.5) * TILE)

    def wheelEvent(self, event: QWheelEvent) -> None:  # noqa: N802
        delta = event.angleDelta().y()
        if delta == 0:
            super().wheelEvent(event)
            return
        self.zoom_by(1.0015 ** delta)

    # ------------------------------------------------------------------ tool
    def set_tool(self, tool: Tool | None) -> None:
        if self.tool is not None:
            self.tool.deactivate()
        self.tool = tool
        if tool is not None:
            tool.activate()
            self.viewport().setCursor(tool.cursor)

    def _event(self, event: QMouseEvent) -> ToolEvent:
        p = self.mapToScene(event.position().toPoint())
        return ToolEvent(p.x() / TILE, p.y() / TILE, event.button(), event.buttons(),
                         event.modifiers())

    def _dispatch(self, handler: str, *args: object) -> object:
        """Call a handler of the current tool.  A bug in a tool must not escape into
        Qt (an exception inside an event handler can take the whole application,
        and the user's unsaved work, down): the gesture is cancelled, which takes
        back its partial edits, the error is reported in the status bar and its
        traceback printed on stderr."""
        tool = self.tool
        if tool is None:
            return None
        try:
            return getattr(tool, handler)(*args)
        except Exception as exc:  # noqa: BLE001  (any tool bug; reported below)
            traceback.print_exc()
            with contextlib.suppress(Exception):
                tool.cancel()
            tool.message(f"{tool.label} tool failed ({type(exc).__name__}: {exc}); "
                         "the gesture was cancelled, the map is as before it")
            return None

    def _panning(self, event: QMouseEvent) -> bool:
        return event.button() == Qt.MouseButton.MiddleButton or (
            self._space and event.button() == Qt.MouseButton.LeftButton)

    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        self.setFocus()
        if (event.modifiers() & Qt.KeyboardModifier.AltModifier
                and event.button() == Qt.MouseButton.LeftButton):
            ev = self._event(event)
            self.pin_requested.emit(*ev.tile)
            return
        if self._panning(event):
            self._pan_from = event.position()
            self.viewport().setCursor(Qt.CursorShape.ClosedHandCursor)
            return
        if self.tool is not None:
            self._dispatch("press", self._event(event))

    def mouseMoveEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        if self._pan_from is not None:
            d = event.position() - self._pan_from
            self._pan_from = event.position()
            self.horizontalScrollBar().setValue(self.horizontalScrollBar().value() - int(d.x()))
            self.verticalScrollBar().setValue(self.verticalScrollBar().value() - int(d.y()))
            return
        ev = self._event(event)
        self.hovered.emit((ev.fx, ev.fy))
        if self.tool is not None:
            self._dispatch("move", ev)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        if self._pan_from is not None and (
                event.button() in (Qt.MouseButton.MiddleButton, Qt.MouseButton.LeftButton)):
            self._pan_from = None
            cursor = Qt.CursorShape.OpenHandCursor if self._space else (
                self.tool.cursor if self.tool else Qt.CursorShape.ArrowCursor)
            self.viewport().setCursor(cursor)
            return
        if self.tool is not None:
            self._dispatch("release", self._event(event))

    def leaveEvent(self, event: QEvent) -> None:  # noqa: N802
        self.hovered.emit(None)
        if self.tool is not None:
            self._dispatch("leave")
        super().leaveEvent(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802
        if event.key() == Qt.Key.Key_Space and not event.isAutoRepeat():
            self._space = True
            self.viewport().setCursor(Qt.CursorShape.OpenHandCursor)
            return
        if event.key() == Qt.Key.Key_Escape and self.tool is not None:
            self._dispatch("cancel")
            return
        if self.tool is not None and self._dispatch("key", event):
            return
        super().keyPressEvent(event)

    def keyReleaseEvent(self, event: QKeyEvent) -> None:  # noqa: N802
        if event.key() == Qt.Key.Key_Space and not event.isAutoRepeat():
            self._space = False
            self._pan_from = None
            self.viewport().setCursor(self.tool.cursor if self.tool else Qt.CursorShape.ArrowCursor)
            return
        super().keyReleaseEvent(event)
