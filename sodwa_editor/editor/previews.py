"""Live previews from the engine: LoS fan, movement range, adjacency graph.

The preview source is the hovered tile, or a tile pinned with Alt+click
(Alt+click it again to unpin).  With a pinned source, hovering another tile
also shows the line of sight to it and why it is blocked or impeded, and the
movement path to it.  Model edits schedule one recompute on the next event
loop turn, so a paint stroke never waits for the engine more than once per
batch of input events.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QTimer, Signal

if TYPE_CHECKING:
    from .main_window import MainWindow

PREVIEWS = ("los", "reach", "graph")


class PreviewController(QObject):
    #: text describing the current preview (LoS reason, path length...)
    info = Signal(str)

    def __init__(self, win: MainWindow) -> None:
        super().__init__(win)
        self.win = win
        self.enabled = dict.fromkeys(PREVIEWS, False)
        self.pinned: tuple[int, int] | None = None
        self.hovered: tuple[int, int] | None = None
        self.move_value = 5
        self.last_error = ""
        self.timings: list[float] = []  # ms per recompute (benchmarks)
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.setInterval(0)
        self.timer.timeout.connect(self.update_now)

    # ----------------------------------------------------------------- items
    @property
    def fan(self):
        return self.win.scene.previews["los"]

    @property
    def reach_item(self):
        return self.win.scene.previews["reach"]

    @property
    def line(self):
        return self.win.scene.previews["path"]

    @property
    def graph(self):
        return self.win.scene.items_by_name["graph"]

    # ----------------------------------------------------------------- state
    @property
    def source(self) -> tuple[int, int] | None:
        return self.pinned if self.pinned is not None else self.hovered

    def set_enabled(self, name: str, on: bool) -> None:
        self.enabled[name] = on
        self.update_now()

    def pin(self, tile: tuple[int, int] | None) -> None:
        self.pinned = None if tile == self.pinned else tile
        self.update_now()

    def hover(self, fx: float, fy: float) -> None:
        tile = (int(fx // 1), int(fy // 1))
        if not self.win.document.model.in_bounds(*tile):
            return
        if tile != self.hovered:
            self.hovered = tile
            self.schedule()  # coalesced with edits: one engine query per event-loop turn

    def schedule(self) -> None:
        if any(self.enabled.values()) and not self.timer.isActive():
            self.timer.start()

    def model_replaced(self) -> None:
        self.pinned = self.hovered = None
        self.update_now()

    def shutdown(self) -> None:
        self.timer.stop()

    # --------------------------------------------------------------- compute
    def update_now(self) -> None:
        self.timer.stop()
        t0 = time.perf_counter()
        m = self.win.document.model
        src = self.source
        if src is not None and not m.in_bounds(*src):
            src = self.pinned = self.hovered = None
        self.win.scene.marker.set_shape([self.pinned] if self.pinned is not None else [])
        texts: list[str] = []
        self._line_set = False
        for update in (self._update_los, self._update_reach, self._update_graph):
            try:
                texts += update(m, src) or []
            except ImportError as exc:  # an engine module is not there yet
                self.last_error = f"preview unavailable: {exc}"
                texts.append(self.last_error)
        self.line.setVisible(self._line_set)
        self.timings.append((time.perf_counter() - t0) * 1000)
        text = "; ".join(t for t in texts if t)
        if text:
            self.win.statusBar().showMessage(text, 8000)
        self.info.emit(text)

    def _target(self) -> tuple[int, int] | None:
        if self.pinned is not None and self.hovered is not None and self.hovered != self.pinned:
            return self.hovered
        return None

    def _update_los(self, m, src) -> list[str]:
        on = self.enabled["los"] and src is not None
        self.fan.setVisible(on)
        if not on:
            return []
        from ..engine.los import los, los_fan

        self.fan.set_fan(m, los_fan(m, src))
        target = self._target()
        if target is None:
            return [f"LoS fan from {src[0]}, {src[1]} (level {int(m.elevation[src[1], src[0]])})"]
        result = los(m, src, target)
        self.line.set_line(src, target, result.crossing)
        self._line_set = True
        self.last_los = result
        return [f"LoS {src[0]},{src[1]} -> {target[0]},{target[1]}: {result.describe()}"]

    def _update_reach(self, m, src) -> list[str]:
        on = self.enabled["reach"] and src is not None
        self.reach_item.setVisible(on)
        if not on:
            return []
        from ..engine.movement import reach

        c = m.character_at(*src)
        move = c.move if c is not None else self.move_value
        try:
            result = reach(m, src, move)
        except ValueError as exc:  # e.g. a negative Move: a rule error the map opens with
            self.reach_item.setVisible(False)
            who = f"{c.id!r} on " if c is not None else ""
            return [f"no movement range for {who}{src[0]}, {src[1]}: {exc}"]
        self.reach_item.set_reach(m, result)
        target = self._target()
        if target is None:
            n = self.reach_item.count
            return [f"Move {move} from {src[0]}, {src[1]}: {n} tile(s) reachable"]
        path = result.path_to(target)
        if path is None:
            return [f"{target[0]}, {target[1]} is out of reach"]
        if not self._line_set:  # the LoS line wins when both previews are on
            self.line.set_path(path)
            self._line_set = True
        return [f"path to {target[0]}, {target[1]}: {len(path) - 1} step(s)"]

    def _update_graph(self, m, src) -> list[str]:
        if self.graph.isVisible() != self.enabled["graph"]:
            self.graph.setVisible(self.enabled["graph"])  # computes on first show
        return []
