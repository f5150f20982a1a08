"""The map view: zoom (wheel, Ctrl +/-, fit, 100%), pan (middle drag or
Space + drag) and forwarding of mouse and key events to the active tool.

The view never moves under the pointer by itself (Tiled's map view does the
same): the wheel zooms about the scene point under the pointer, which the view
can always keep there because the scrollable area reaches :data:`MARGIN` of the
viewport beyond each side of the map; a fitted view (Ctrl+0, a map opened)
stays fitted when the viewport changes size, until the user zooms or pans.
"""

from __future__ import annotations

import contextlib
import traceback

from PySide6.QtCore import QEvent, QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QKeyEvent, QMouseEvent, QPainter, QResizeEvent, QTransform, QWheelEvent
from PySide6.QtWidgets import QGraphicsView

from .style import TILE
from .tools.base import ToolEvent, ViewTool

MIN_ZOOM, MAX_ZOOM = 0.02, 16.0
#: how far (a fraction of the viewport) the view scrolls beyond each side of the map
MARGIN = 0.9
#: free pixels around a fitted map (as QGraphicsView.fitInView)
FIT_PAD = 2


class MapView(QGraphicsView):
    #: pointer position in tile units (fx, fy), or None when it leaves the view
    hovered = Signal(object)
    zoom_changed = Signal(float)
    #: Alt+click on a tile (pins the preview source)
    pin_requested = Signal(int, int)

    def __init__(self, scene, parent=None) -> None:
        super().__init__(scene, parent)
        self.tool: ViewTool | None = None
        self.setRenderHint(QPainter.RenderHint.Antialiasing)
        self.setRenderHint(QPainter.RenderHint.TextAntialiasing)
        # zooming anchors by hand (see set_zoom): Qt's AnchorUnderMouse needs the
        # base class's mouse tracking and is lost when the transform is reset
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.NoAnchor)
        self.setResizeAnchor(QGraphicsView.ViewportAnchor.AnchorViewCenter)
        # scroll bars that come and go would resize the viewport under the pointer
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOn)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOn)
        self.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.SmartViewportUpdate)
        self.setOptimizationFlag(QGraphicsView.OptimizationFlag.DontSavePainterState)
        self.setMouseTracking(True)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self._pan_from: QPointF | None = None
        self._picked = False  # a right-button press picked (eyedropper)
        self._space = False
        #: where the pointer last was over the viewport (viewport pixels), or None
        self.pointer: QPointF | None = None
        #: the view is fitted (Ctrl+0, a map opened) and stays so until zoomed or panned
        self.fitted = False
        #: (viewport point, scene point) the wheel zooms about; reset when the pointer moves
        self._wheel_anchor: tuple[QPointF, QPointF] | None = None
        scene.sceneRectChanged.connect(self._update_scroll_rect)
        for bar in (self.horizontalScrollBar(), self.verticalScrollBar()):
            bar.actionTriggered.connect(self._unfit)
        self._update_scroll_rect()

    # ------------------------------------------------------------------ zoom
    def zoom(self) -> float:
        return self.transform().m11()

    def _unfit(self, *_args: object) -> None:
        self.fitted = False

    def _update_scroll_rect(self, *_args: object, zoom: float | None = None) -> None:
        """Let the view scroll :data:`MARGIN` of the viewport beyond each side of the map
        at ``zoom`` (the current zoom by default), so that any map point can be brought
        under the pointer (or the centre) whatever the zoom."""
        scene = self.scene()
        if scene is None:
            return
        z = zoom if zoom is not None else self.zoom()
        vp = self.viewport().size()
        mx, my = vp.width() * MARGIN / z, vp.height() * MARGIN / z
        self.setSceneRect(scene.sceneRect().adjusted(-mx, -my, mx, my))

    def scene_point(self, view_point: QPointF) -> QPointF:
        """The scene point at a viewport point (sub-pixel, unlike ``mapToScene``)."""
        inverse, _ok = self.viewportTransform().inverted()
        return inverse.map(QPointF(view_point))

    def place(self, scene_point: QPointF, view_point: QPointF) -> None:
        """Scroll so that ``scene_point`` lies at ``view_point`` of the viewport."""
        now = self.viewportTransform().map(scene_point)
        h, v = self.horizontalScrollBar(), self.verticalScrollBar()
        h.setValue(h.value() + round(now.x() - view_point.x()))
        v.setValue(v.value() + round(now.y() - view_point.y()))

    def set_zoom(self, z: float, anchor: tuple[QPointF, QPointF] | None = None) -> None:
        """Zoom to ``z`` keeping ``anchor`` = (viewport point, scene point) in place
        (by default the scene point at the centre of the viewport)."""
        self._set_zoom(z, anchor)
        self.fitted = False

    def _set_zoom(self, z: float, anchor: tuple[QPointF, QPointF] | None) -> None:
        z = min(MAX_ZOOM, max(MIN_ZOOM, z))
        if anchor is None:
            centre = QRectF(self.viewport().rect()).center()
            anchor = (centre, self.scene_point(centre))
        if z < self.zoom():  # zooming out: widen the scrollable area first
            self._update_scroll_rect(zoom=z)
        self.setTransform(QTransform.fromScale(z, z))
        self._update_scroll_rect()
        self.place(anchor[1], anchor[0])
        self.zoom_changed.emit(z)

    def zoom_by(self, factor: float) -> None:
        self.set_zoom(self.zoom() * factor)

    def zoom_in(self) -> None:
        self.zoom_by(1.25)

    def zoom_out(self) -> None:
        self.zoom_by(0.8)

    def zoom_reset(self) -> None:
        self.set_zoom(1.0)

    def fit_zoom(self) -> float:
        """The zoom at which the whole map (with its coordinate labels) fits the viewport."""
        rect = self.scene().sceneRect()
        vp = self.viewport().size()
        return min((vp.width() - 2 * FIT_PAD) / rect.width(),
                   (vp.height() - 2 * FIT_PAD) / rect.height())

    def zoom_fit(self) -> None:
        """Fit the whole map and stay fitted while the viewport changes size (a window
        laid out, maximised or resized after the map was opened), until the user zooms
        or pans."""
        rect = self.scene().sceneRect()
        if rect.isEmpty() or self.viewport().width() <= 2 * FIT_PAD \
                or self.viewport().height() <= 2 * FIT_PAD:
            self.fitted = True  # fitted once the viewport has a size (resizeEvent)
            return
        self._set_zoom(self.fit_zoom(), (QRectF(self.viewport().rect()).center(), rect.center()))
        self.fitted = True

    def centerOn(self, *args) -> None:  # noqa: N802 (Qt override)
        super().centerOn(*args)
        self.fitted = False

    def center_on_tile(self, x: int, y: int) -> None:
        self.centerOn((x + 0.5) * TILE, (y + 0.5) * TILE)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802
        super().resizeEvent(event)
        self._update_scroll_rect()
        if self.fitted:
            self.zoom_fit()

    def wheelEvent(self, event: QWheelEvent) -> None:  # noqa: N802
        """Zoom about the scene point under the pointer: it stays under the pointer
        (to the pixel) however many notches follow, because every notch anchors the
        same scene point, taken when the pointer last moved."""
        delta = event.angleDelta().y()
        if delta == 0:
            super().wheelEvent(event)
            return
        pos = event.position()
        if self._wheel_anchor is None or self._wheel_anchor[0] != pos:
            self._wheel_anchor = (QPointF(pos), self.scene_point(pos))
        self.set_zoom(self.zoom() * 1.0015 ** delta, self._wheel_anchor)

    # ------------------------------------------------------------------ tool
    def set_tool(self, tool: ViewTool | None) -> None:
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

    def pick_at_pointer(self) -> None:
        """The Eyedropper action: what is under the pointer picked into the tool."""
        tool = self.tool
        if tool is None:
            return
        if self.pointer is None:
            tool.message("Eyedropper: point at the map first (or right-click there)")
            return
        p = self.scene_point(self.pointer)
        if not self._dispatch("eyedrop", ToolEvent(p.x() / TILE, p.y() / TILE)):
            tool.message(f"Eyedropper: the {tool.label} tool has nothing to pick")

    def _panning(self, event: QMouseEvent) -> bool:
        return event.button() == Qt.MouseButton.MiddleButton or (
            self._space and event.button() == Qt.MouseButton.LeftButton)

    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        self.setFocus()
        self.pointer = QPointF(event.position())
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
            ev = self._event(event)
            if event.button() == Qt.MouseButton.RightButton and self._dispatch("eyedrop", ev):
                self._picked = True  # its release belongs to the pick
                return
            self._dispatch("press", ev)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        self._wheel_anchor = None
        self.pointer = QPointF(event.position())
        if self._pan_from is not None:
            self.fitted = False
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
        if self._picked and event.button() == Qt.MouseButton.RightButton:
            self._picked = False
            return
        if self.tool is not None:
            self._dispatch("release", self._event(event))

    def leaveEvent(self, event: QEvent) -> None:  # noqa: N802
        self.pointer = None
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
