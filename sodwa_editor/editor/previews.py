"""Live previews from the engine: LoS fan, movement range, adjacency graph.

The preview source is the hovered tile, or a tile pinned with P or Alt+click
(again to unpin).  With a pinned source, hovering another tile also shows the
line of sight to it, why it is blocked or impeded (the deciding tile, edge or
corner ringed on the map, the reason in the status bar), and the movement
path to it.  Model edits schedule one recompute on the next event loop turn,
and the fan is recomputed only for the targets whose line an edit can affect
(:class:`~sodwa_editor.engine.los_fan.FanTracker`).

During a stroke (a drag of a tool) the previews wait for its end: after the
tile under the press, the fan and the movement range stay as they were,
faded, the line to the hovered tile is hidden and the status bar says
"updating when the stroke ends"; releasing the button or Escape
(``Document.stroke_ended``) recomputes them once.

The controller takes the document it previews and the scene whose preview
items it fills; what it has to say (the LoS reason, a path length) it emits as
:attr:`PreviewController.info`, which the editor context passes to the status
bar.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QTimer, Signal

from ..engine.terrain import Crossing
from . import footprint_previews as fp
from .flank_preview import COVER, FlankView, flank_view

if TYPE_CHECKING:
    from ..engine.los_fan import FanTracker
    from .document import Document
    from .scene.footprint_items import CreatureRings, FootprintGhost
    from .scene.map_scene import MapScene

PREVIEWS = ("los", "reach", "graph", "flank")
#: in ``live`` mode, a fan update computing more targets than this waits for the
#: end of the stroke (a 128x128 fan's worth: a few ms on a quiet machine)
DEFER_ABOVE = 16384
#: opacity of the fan and range while they wait for the end of a stroke
STALE_OPACITY = 0.45
STALE_TEXT = "LoS fan and range: updating when the stroke ends"


class PreviewController(QObject):
    """Which previews are on, their source (pinned or hovered) and the Move used
    where no character stands; fills the scene's preview items from the engine."""

    #: text describing the current preview (LoS reason, path length...; '' for none)
    info = Signal(str)
    #: a preview was turned on or off (its name, on)
    enabled_changed = Signal(str, bool)

    def __init__(self, document: Document, scene: MapScene,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.document = document
        self.scene = scene
        self.enabled = dict.fromkeys(PREVIEWS, False)
        #: while suspended (a playtest): the previews the user has on
        self._suspended: dict[str, bool] | None = None
        self.pinned: tuple[int, int] | None = None
        self.hovered: tuple[int, int] | None = None
        self.move_value = 5
        self.last_error = ""
        self.timings: list[float] = []  # ms per recompute (benchmarks)
        self._tracker: FanTracker | None = None  # of the current model, made on first use
        self._flank_rings: CreatureRings | None = None
        self._reach_target: FootprintGhost | None = None
        #: the Flanking/Cover preview shown last (tests, the status line)
        self.last_flank: FlankView | None = None
        #: How the previews follow a stroke: ``defer`` (the editor's way) leaves
        #: them as they were, faded, until the stroke ends; ``live`` recomputes
        #: them after every step (the fan only behind the changed tiles) unless
        #: the fan would recompute more than DEFER_ABOVE targets
        #: (bench/editor_latency.py --fan compares the two).
        self.in_stroke = "defer"
        #: the previews shown are from before the current stroke
        self.stale = False
        #: updates run so far in the current stroke: the first (the tile under
        #: the press: a click is a stroke of one step) is computed as usual
        self._stroke_updates = 0
        document.stroke_ended.connect(self._stroke_ended)
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.setInterval(0)
        self.timer.timeout.connect(self.update_now)

    # ----------------------------------------------------------------- items
    @property
    def fan(self):
        return self.scene.previews["los"]

    @property
    def reach_item(self):
        return self.scene.previews["reach"]

    @property
    def line(self):
        return self.scene.previews["path"]

    @property
    def graph(self):
        return self.scene.items_by_name["graph"]

    @property
    def culprit(self):
        return self.scene.previews["culprit"]

    @property
    def flank_rings(self) -> CreatureRings:
        """The Flanking/Cover preview's rings (made on first use)."""
        if self._flank_rings is None:
            from .scene.footprint_items import CreatureRings

            self._flank_rings = CreatureRings()
            self.scene.add_transient(self._flank_rings)
        return self._flank_rings

    def tracker(self) -> FanTracker:
        """The :class:`~sodwa_editor.engine.los_fan.FanTracker` of the open map."""
        m = self.document.model
        if self._tracker is None or self._tracker.model is not m:
            from ..engine.los_fan import FanTracker

            if self._tracker is not None:
                self._tracker.close()
            self._tracker = FanTracker(m)
        return self._tracker

    # ----------------------------------------------------------------- state
    @property
    def source(self) -> tuple[int, int] | None:
        return self.pinned if self.pinned is not None else self.hovered

    def set_enabled(self, name: str, on: bool) -> None:
        """Turn a preview on or off (nothing happens when it already is).  While
        the previews are suspended the choice is kept for :meth:`resume`."""
        if self._suspended is not None:
            if self._suspended[name] != on:
                self._suspended[name] = on
                self.enabled_changed.emit(name, on)
            return
        if self.enabled[name] == on:
            return
        self.enabled[name] = on
        self.update_now()
        self.enabled_changed.emit(name, on)

    def set_move_value(self, move: int) -> None:
        """The Move of the movement range from a tile where no character stands."""
        self.move_value = move
        self.update_now()

    def suspend(self) -> None:
        """Hide every preview without turning it off (a playtest shows the battle's
        own range and lines in the same items) until :meth:`resume`."""
        if self._suspended is None:
            self._suspended = dict(self.enabled)
            for name in self.enabled:
                self.enabled[name] = False
        self.update_now()

    def resume(self) -> None:
        """Show again the previews that are on (:meth:`suspend` hid them)."""
        if self._suspended is not None:
            self.enabled.update(self._suspended)
            self._suspended = None
        self.update_now()

    def pin(self, tile: tuple[int, int] | None) -> None:
        self.pinned = None if tile == self.pinned else tile
        self.update_now()

    def hover(self, fx: float, fy: float) -> None:
        tile = (int(fx // 1), int(fy // 1))
        if not self.document.model.in_bounds(*tile):
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
        if self._tracker is not None:
            self._tracker.close()
            self._tracker = None

    # --------------------------------------------------------------- compute
    def update_now(self) -> None:
        self.timer.stop()
        t0 = time.perf_counter()
        m = self.document.model
        src = self.source
        if src is not None and not m.in_bounds(*src):
            src = self.pinned = self.hovered = None
        if self._wait_for_stroke(src):
            self._show_stale()
            return
        if self.stale:
            self.stale = False
            for item in (self.fan, self.reach_item):
                item.setOpacity(1.0)
        self.scene.marker.set_shape([self.pinned] if self.pinned is not None else [])
        texts: list[str] = []
        self._line_set = False
        for update in (self._update_los, self._update_reach, self._update_graph,
                       self._update_flank):
            try:
                texts += update(m, src) or []
            except ImportError as exc:  # an engine module is not there yet
                self.last_error = f"preview unavailable: {exc}"
                texts.append(self.last_error)
        self.line.setVisible(self._line_set)
        if not self._line_set or self.line.crossing is None:
            self.culprit.set_reason(None, 0)
        self.timings.append((time.perf_counter() - t0) * 1000)
        self.info.emit("; ".join(t for t in texts if t))

    def _stroke_ended(self) -> None:
        self._stroke_updates = 0
        self.schedule()

    def _wait_for_stroke(self, src: tuple[int, int] | None) -> bool:
        """Whether the previews shown wait for the end of the current stroke
        (from its second update on: a click updates them at once, without
        fading them for the time of the click)."""
        if not self.document.in_stroke or src is None:
            return False
        self._stroke_updates += 1
        if self._stroke_updates == 1:
            return False
        fan_shown = self.enabled["los"] and self.fan.fan is not None
        shown = fan_shown or (self.enabled["reach"] and self.reach_item.steps is not None)
        if not shown:
            return False
        if self.in_stroke == "defer" or self.stale:
            return True
        return fan_shown and self.tracker().pending_count(src) > DEFER_ABOVE

    def _show_stale(self) -> None:
        """Fade the fan and range, hide the line to the hovered tile, say why."""
        if self.stale:
            return
        self.stale = True
        for item in (self.fan, self.reach_item):
            item.setOpacity(STALE_OPACITY)
        self.line.setVisible(False)
        self.culprit.set_reason(None, 0)
        self.info.emit(STALE_TEXT)

    def _target(self) -> tuple[int, int] | None:
        if self.pinned is not None and self.hovered is not None and self.hovered != self.pinned:
            return self.hovered
        return None

    def _update_los(self, m, src) -> list[str]:
        on = self.enabled["los"] and src is not None
        self.fan.setVisible(on)
        if not on:
            return []
        from ..engine.los import los

        c = m.character_at(*src)
        large = c is not None and c.footprint_at().area > 1
        if large:  # the best line from any of its squares (S9)
            try:
                self.fan.set_fan(m, fp.creature_fan(m, c))
            except ValueError as exc:  # it stands where it may not (validation says so)
                self.fan.setVisible(False)
                return [f"no LoS fan from {c.id}: {exc}"]
        else:
            tracker = self.tracker()
            self.fan.set_fan(m, tracker.fan(src), tracker.last_rect)
        target = self._target()
        if target is None:
            who = f" ({c.id}, {fp.size_label(c)})" if large else ""
            return [f"LoS fan from {src[0]}, {src[1]}{who} "
                    f"(level {int(m.elevation[src[1], src[0]])})"]
        other = m.character_at(*target)
        if other is not None and other is c:
            return [f"LoS: {target[0]}, {target[1]} is {c.id}'s own tile"]
        if large or (other is not None and other.footprint_at().area > 1):
            try:
                line = fp.creature_line(m, c or src, other or target)
            except ValueError as exc:  # a footprint on two levels, or overlapping one
                return [f"no line from {src[0]},{src[1]} to {target[0]},{target[1]}: {exc}"]
            result, (a, b) = line.result, (line.src, line.dst)
        else:
            result, (a, b) = los(m, src, target), (src, target)
        self.line.set_line(a, b, result.crossing)
        self.culprit.set_reason(result.reason, result.crossing)
        self._line_set = True
        self.last_los = result
        between = f" (from {a} to {b})" if (a, b) != (src, target) else ""
        return [f"LoS {src[0]},{src[1]} -> {target[0]},{target[1]}: {result.describe()}"
                f"{between}"]

    @property
    def reach_target(self) -> FootprintGhost:
        """Where a large creature would stand at the end of the path (made on first use)."""
        if self._reach_target is None:
            from .scene.footprint_items import FootprintGhost

            self._reach_target = FootprintGhost()
            self.scene.add_transient(self._reach_target)
        return self._reach_target

    def _update_reach(self, m, src) -> list[str]:
        on = self.enabled["reach"] and src is not None
        if self._reach_target is not None:
            self.reach_target.clear()
        self.reach_item.setVisible(on)
        if not on:
            return []
        c = m.character_at(*src)
        move = c.move if c is not None else self.move_value
        try:
            result = fp.tile_range(m, src, move)
            if isinstance(result, fp.CoveredReach):
                return self._update_covered(m, c, result)
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

    def _update_covered(self, m, c, covered: fp.CoveredReach) -> list[str]:
        """The range of a creature larger than one tile: the tiles it can cover
        (:mod:`.footprint_previews`), and the path of it centred on the hovered tile."""
        move = covered.reach.move
        self.reach_item.set_reach(m, covered)
        what = (f"Move {move} from {c.id} ({fp.size_label(c)} at {c.x}, {c.y}): "
                f"{covered.positions} position(s), {int((covered.steps >= 0).sum())} "
                "tile(s) covered")
        target = self._target()
        if target is None:
            return [what]
        path = covered.path_through_middle(target)
        if path is None:
            return [what, f"{c.id} cannot stand centred on {target[0]}, {target[1]}"]
        self.reach_target.show_at(fp.centred_anchor(target, covered.reach.footprint),
                                  covered.reach.footprint, None)
        if not self._line_set:
            self.line.set_path(path)
            self._line_set = True
        return [what, f"path of {c.id} to {target[0]}, {target[1]}: {len(path) - 1} step(s)"]

    def _update_graph(self, m, src) -> list[str]:
        self.scene.show_graph(self.enabled["graph"], self.enabled["los"])
        return []

    def _update_flank(self, m, src) -> list[str]:
        """Flanking and cover (:mod:`.flank_preview`): the hovered character's flankers;
        with a character pinned, the hovered one's cover from it."""
        if not self.enabled["flank"] or src is None:
            if self._flank_rings is not None:
                self.flank_rings.clear()
            self.last_flank = None
            return []
        pinned = m.character_at(*self.pinned) if self.pinned is not None else None
        hovered = m.character_at(*self.hovered) if self.hovered is not None else None
        target = hovered or pinned
        if target is None:
            self.flank_rings.clear()
            self.last_flank = None
            return ["Flanking: hover a character (pin an attacker with P to see cover)"]
        attacker = pinned.id if pinned is not None and pinned is not target else None
        try:
            view = self.last_flank = flank_view(m, target.id, attacker)
        except ValueError as exc:  # overlapping footprints, one on two levels
            self.flank_rings.clear()
            self.last_flank = None
            return [f"Flanking: no answer for {target.id}: {exc}"]
        rings, tile = view.rings(m)
        if view.cover is not None and not self._line_set:  # the direct line it is read on
            self.line.set_line(*view.direct_line(m), _COVER_LINE[view.cover.level])
            self._line_set = True
        self.flank_rings.set_rings(rings, tile, None if view.cover is None else
                                   COVER[view.cover.level])
        hint = "" if attacker is not None or pinned is None else \
            f" (hover a target to see its cover from {pinned.id!r})"
        return [view.describe() + hint]


#: the direct line's style by the cover it gives (as an LoS line: heavy like blocked)
_COVER_LINE = {"none": Crossing.CLEAR, "covered": Crossing.IMPEDED, "heavy": Crossing.BLOCKED}

