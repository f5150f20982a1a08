"""What the window remembers from one run to the next (``QSettings``): its
geometry, the docks and tool bars, the layers shown, and, per map file, the
zoom and the place the view was at.

A map opened for the first time (or a new, unsaved one) opens fitted; one
opened before opens where it was left.  The Layers dock remembers its locks
and opacities itself (``layers/...``).  View -> Reset Layout goes back to the
default window: size, docks, every layer shown, unlocked and opaque, the map
fitted.

The layout takes the window it restores (any ``QMainWindow``), the editor
context (settings, document, layer state), the map view and the minimap's dock.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QByteArray, QPointF, QTimer
from PySide6.QtWidgets import QDockWidget, QMainWindow

from .docks.minimap import follow_map_size
from .scene.map_scene import LAYERS
from .style import TILE

if TYPE_CHECKING:
    from .context import EditorContext
    from .view import MapView

DEFAULT_SIZE = (1280, 860)
#: how many map files keep their zoom and place
PLACES = 30


class WindowLayout:
    """What ``window`` remembers (see the module docstring)."""

    def __init__(self, window: QMainWindow, context: EditorContext, view: MapView,
                 minimap: QDockWidget) -> None:
        self.win = window
        self.context = context
        self.settings = context.settings
        self.view = view
        self.minimap = minimap
        self.default_state = QByteArray()

    # ----------------------------------------------------------- window
    def restore(self) -> None:
        """Apply the remembered geometry, docks and layers (call once the
        window is built; keeps the default layout for Reset Layout)."""
        win, s = self.win, self.settings
        self.default_state = win.saveState()
        win.resize(*DEFAULT_SIZE)
        geometry = s.value("window/geometry")
        if isinstance(geometry, QByteArray) and not geometry.isEmpty():
            win.restoreGeometry(geometry)
        state = s.value("window/state")
        if isinstance(state, QByteArray) and not state.isEmpty():
            win.restoreState(state)
        minimap = s.value("view/minimap")
        if minimap is not None:  # shown or not by the user, whatever the last map's size
            wanted = str(minimap).lower() == "true"
            self.minimap.setProperty("wanted", wanted)
            self.minimap.setVisible(wanted)
        hidden = s.value("view/hidden_layers", "")
        for name in str(hidden or "").split(","):
            if name in LAYERS:
                self.context.layers.set_visible(name, False)

    def save(self) -> None:
        win, s = self.win, self.settings
        s.setValue("window/geometry", win.saveGeometry())
        s.setValue("window/state", win.saveState())
        dock = self.minimap
        wanted = (not dock.isHidden() if dock.toggleViewAction().isEnabled()
                  else dock.property("wanted") is not False)
        s.setValue("view/minimap", "true" if wanted else "false")
        hidden = [n for n in LAYERS if not self.context.layers.visible[n]]
        s.setValue("view/hidden_layers", ",".join(hidden))
        self.remember_place()
        s.sync()

    def reset(self) -> None:
        """View -> Reset Layout."""
        win, s = self.win, self.settings
        for key in ("window/geometry", "window/state", "view/hidden_layers", "view/minimap"):
            s.remove(key)
        if win.isMaximized() or win.isFullScreen():
            win.showNormal()
        if not self.default_state.isEmpty():
            win.restoreState(self.default_state)
        self.minimap.setProperty("wanted", True)  # the default: shown on big maps
        follow_map_size(self.minimap, self.context.document.model)  # hidden on small ones
        win.resize(*DEFAULT_SIZE)
        self.context.layers.reset()
        self.view.zoom_fit()
        self.context.say(
            "Layout reset: default window, docks and layers (shown, unlocked, opaque)", "brief")

    # ------------------------------------------------------- map places
    def _places(self) -> dict[str, list[float]]:
        try:
            data = json.loads(str(self.settings.value("view/places", "{}") or "{}"))
        except ValueError:
            return {}
        return data if isinstance(data, dict) else {}

    def remember_place(self) -> None:
        """Store the zoom and the centre of the view for the open map's file."""
        path = self.context.document.path
        if path is None:
            return
        view = self.view
        c = view.mapToScene(view.viewport().rect().center())
        places = self._places()
        places.pop(str(path), None)
        places[str(path)] = [view.zoom(), c.x() / TILE, c.y() / TILE]
        while len(places) > PLACES:
            places.pop(next(iter(places)))
        self.settings.setValue("view/places", json.dumps(places))

    def place_of(self, path: Path | None) -> tuple[float, float, float] | None:
        if path is None:
            return None
        entry = self._places().get(str(path))
        if (not isinstance(entry, list) or len(entry) != 3
                or not all(isinstance(v, int | float) for v in entry)):
            return None
        return float(entry[0]), float(entry[1]), float(entry[2])

    def go_to_place(self) -> None:
        """Show the open map where it was left last time (after the fit the
        window does on opening)."""
        def apply() -> None:
            place = self.place_of(self.context.document.path)
            if place is None:
                return
            zoom, fx, fy = place
            m = self.context.document.model
            if not (0 <= fx <= m.width and 0 <= fy <= m.height):
                return
            self.view.set_zoom(zoom)
            self.view.centerOn(QPointF(fx * TILE, fy * TILE))

        QTimer.singleShot(0, apply)
