"""The scene showing a document's map: one item per drawing layer, fed by the
model's change notifications.

The model tells :meth:`MapScene._on_change` which layer and rectangle changed;
the scene collects these and, once the command that caused them is complete
(``Document.edited``) or on the next event-loop turn, asks only the items that
depend on that layer to redraw that rectangle.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QRectF, Qt, QTimer
from PySide6.QtGui import QBrush, QColor, QPixmapCache
from PySide6.QtWidgets import QGraphicsItem, QGraphicsScene

from ...engine.model import Change, MapModel, Rect
from .. import style
from ..style import TILE
from .border_item import BorderLines, TransitionBorderMarks
from .graph_item import GraphLayer
from .grid_item import LABEL_MARGIN, CoordinateLabels, GridLines
from .label_item import LabelLayer
from .layers import ChunkedPathLayer, LayerItem
from .outline_item import ElevationOutlines, TerrainOutlines, ZoneOutlines
from .overlay_items import ShapeOverlay, cosmetic
from .preview_items import CulpritItem, LosFanItem, PathItem, ReachItem
from .property_item import LightLayer, PropertyFilterShade, PropertyMarks
from .reference_image_item import ReferenceImageItem
from .terrain_item import ElevationLabels, TerrainFill, TransitionTint, ZoneTint
from .token_item import TokenLayer

#: Toggleable layers (Layers dock) in drawing order, each -> its items' names.
LAYERS = {
    "terrain": ("terrain_fill", "terrain_outlines"),
    "elevation": ("elevation_labels", "elevation_outlines"),
    "transitions": ("transition_tint", "transition_marks"),
    "start zones": ("zones", "zone_outlines"),
    "properties": ("property_marks", "lights"),
    "grid": ("grid",),
    "borders": ("borders",),
    "characters": ("tokens",),
    "coordinates": ("coordinates",),
    "reference": ("reference_image",),  # issue 29: the reference image, over the terrain
    "labels": ("labels",),
}
NO_REDRAW = frozenset({"properties"})
#: z of the preview items: the fan and range over the zone tints (2) and under the
#: zone outlines (3) and grid (4); the graph and line over the grid, under the
#: level numbers (5) and tokens (6); the deciding feature on top of everything
PREVIEW_Z = {"los": 2.5, "reach": 2.6, "graph": 4.3, "path": 4.4, "culprit": 40.0}
#: z of the fill preview: over the previews and the grid, under the level
#: numbers (5) and tokens (6), which it must not hide
FILL_PREVIEW_Z = 4.6
#: z of the terrain properties: light glows over the fills and tints, under the
#: zones (2); the marks over the level numbers (5), under the tokens (6); the
#: filter's dimming over all of the map (its lines and tokens too)
PROPERTY_Z = {"lights": 1.5, "property_marks": 5.5, "property_filter": 10.5}
PIXMAP_CACHE_KB = 256 * 1024
#: item data key of the items that are not part of the map (:meth:`MapScene.add_transient`)
TRANSIENT = 0x5D0A


def _union(a: Rect | None, b: Rect | None) -> Rect | None:
    if a is None or b is None:
        return None
    return Rect(min(a.x0, b.x0), min(a.y0, b.y0), max(a.x1, b.x1), max(a.y1, b.y1))


class MapScene(QGraphicsScene):
    """Scene items mirroring one :class:`MapModel` (napari style: the view
    listens to the model, never the other way round)."""

    def __init__(self, model: MapModel, parent=None) -> None:
        super().__init__(parent)
        # chunk items cache their drawing per view (DeviceCoordinateCache); the
        # default 10 MB pixmap cache thrashes on a large map and doubles paint time
        if QPixmapCache.cacheLimit() < PIXMAP_CACHE_KB:
            QPixmapCache.setCacheLimit(PIXMAP_CACHE_KB)
        self.setBackgroundBrush(QBrush(style.BACKGROUND))
        self.model: MapModel | None = None
        self.items_by_name: dict[str, LayerItem] = {}
        # Drawing order: fills and tints; the previews (LoS fan, movement range,
        # adjacency graph, the line to a target) over them but under everything
        # that names or bounds things (level numbers, tokens, the rulebook lines);
        # tokens under the rulebook lines: a character never hides the outline of
        # the terrain group it stands in (e.g. Orange on Impeding terrain).
        for z, (name, cls) in enumerate((
            ("terrain_fill", TerrainFill), ("transition_tint", TransitionTint),
            ("zones", ZoneTint), ("zone_outlines", ZoneOutlines), ("grid", GridLines),
            ("elevation_labels", ElevationLabels), ("tokens", TokenLayer),
            ("terrain_outlines", TerrainOutlines), ("elevation_outlines", ElevationOutlines),
            ("transition_marks", TransitionBorderMarks), ("borders", BorderLines),
            ("coordinates", CoordinateLabels),
        )):
            item = cls()
            item.setZValue(z)
            self.addItem(item)
            self.items_by_name[name] = item
        for name, cls in (("lights", LightLayer), ("property_marks", PropertyMarks),
                          ("property_filter", PropertyFilterShade)):
            item = cls()
            item.setZValue(PROPERTY_Z[name])
            self.addItem(item)
            self.items_by_name[name] = item
        # issue 29: the reference image over the terrain fill, the labels over the tokens
        annotations: tuple[tuple[float, str, type[LayerItem]], ...] = (
            (0.5, "reference_image", ReferenceImageItem), (6.5, "labels", LabelLayer))
        for z_value, item_name, item_cls in annotations:
            layer_item = item_cls()
            layer_item.setZValue(z_value)
            self.addItem(layer_item)
            self.items_by_name[item_name] = layer_item
        graph = GraphLayer()
        graph.setVisible(False)  # a preview: shown (and computed) on demand
        graph.setZValue(PREVIEW_Z["graph"])
        self.addItem(graph)
        self.items_by_name["graph"] = graph
        #: engine preview items filled by the preview controller (or headless)
        self.previews: dict[str, Any] = {
            "los": LosFanItem(), "reach": ReachItem(), "path": PathItem(),
            "culprit": CulpritItem()}
        for name, preview in self.previews.items():
            preview.setZValue(PREVIEW_Z[name])
            preview.setVisible(False)
            self.addItem(preview)
        self.hover = self._overlay(cosmetic(style.HOVER, 2), None, 60)
        self.preview = self._overlay(cosmetic(style.SELECTION, 2), style.PREVIEW, 61)
        # the selection's outline inside its tiles, off the walls on their edges
        self.selection = ShapeOverlay(cosmetic(style.SELECTION, 2, Qt.PenStyle.DashLine), None,
                                      62, inset=style.SELECTION_INSET,
                                      halo=cosmetic(style.HALO, 4))
        self.addItem(self.selection)
        self.focus = self._overlay(cosmetic(style.FOCUS, 3), None, 63)
        #: the Fill tool's region (drawn under level numbers and tokens)
        self.fill_preview = self._overlay(
            cosmetic(style.FILL_PREVIEW_EDGE, 2, Qt.PenStyle.DashLine), None, FILL_PREVIEW_Z)
        self.marker = self._overlay(cosmetic(QColor(255, 255, 255), 3), None, 64)
        self._pending: dict[str, Rect | None] = {}
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self.flush)
        self.set_model(model)

    def add_transient(self, item: QGraphicsItem) -> None:
        """Add an item that is not part of the map (a note, the paste preview):
        Export PNG leaves it out (:meth:`transient_items`)."""
        item.setData(TRANSIENT, True)
        self.addItem(item)

    def transient_items(self) -> list[QGraphicsItem]:
        """What the scene shows besides the map: the hover, the tool preview, the
        selection, the highlight and the items added with :meth:`add_transient`."""
        marked = [item for item in self.items() if item.data(TRANSIENT)]
        return [self.hover, self.preview, self.selection, self.focus, self.fill_preview,
                *marked]

    def _overlay(self, pen, brush, z: float) -> ShapeOverlay:
        item = ShapeOverlay(pen, brush, z)
        self.addItem(item)
        return item

    # ---------------------------------------------------------------- binding
    def set_model(self, model: MapModel) -> None:
        if self.model is not None:
            self.model.remove_listener(self._on_change)
        self.model = model
        model.add_listener(self._on_change)
        self._pending.clear()
        for item in self.items_by_name.values():
            item.bind(model)
        for ov in (self.hover, self.preview, self.selection, self.focus, self.fill_preview,
                   self.marker):
            ov.clear()
        for preview in self.previews.values():
            preview.setVisible(False)
        self.setSceneRect(QRectF(-LABEL_MARGIN, -LABEL_MARGIN,
                                 model.width * TILE + 2 * LABEL_MARGIN,
                                 model.height * TILE + 2 * LABEL_MARGIN))

    def detach(self) -> None:
        if self.model is not None:
            self.model.remove_listener(self._on_change)
            self.model = None

    def _on_change(self, change: Change) -> None:
        layer = change.layer
        if layer in NO_REDRAW:
            return
        if layer in self._pending:
            self._pending[layer] = _union(self._pending[layer], change.rect)
        else:
            self._pending[layer] = change.rect
        if not self._timer.isActive():
            self._timer.start()

    def flush(self) -> None:
        """Redraw what changed since the last flush."""
        self._timer.stop()
        pending, self._pending = self._pending, {}
        if not pending or self.model is None:
            return
        for item in self.items_by_name.values():
            known = item.layers
            hits = [r for layer, r in pending.items()
                    if layer in known or layer not in KNOWN_LAYERS]
            if not hits:
                continue
            rect = hits[0]
            for r in hits[1:]:
                rect = _union(rect, r)
            item.refresh(rect)

    def show_graph(self, on: bool, with_fan: bool = False) -> None:
        """Show or hide the adjacency graph (computed on first show); ``with_fan``:
        the LoS fan is on too, and the graph leaves out its clear pairs.  While
        the graph is shown, level numbers sit on plates that its lines pass
        under (they struck through the digits)."""
        graph = self.items_by_name["graph"]
        assert isinstance(graph, GraphLayer)
        graph.set_with_fan(with_fan)
        if graph.isVisible() != on:
            graph.setVisible(on)
        labels = self.items_by_name["elevation_labels"]
        assert isinstance(labels, ElevationLabels)
        labels.set_plates(on)

    def set_view_scale(self, scale: float) -> None:
        """The map view's zoom: layers that draw nothing below a size skip their
        items (:meth:`ChunkedPathLayer.set_view_scale`)."""
        for item in self.items_by_name.values():
            if isinstance(item, ChunkedPathLayer):
                item.set_view_scale(scale)

    # ------------------------------------------------------------- visibility
    def set_layer_visible(self, layer: str, visible: bool) -> None:
        for name in LAYERS[layer]:
            self.items_by_name[name].setVisible(visible)
        if layer == "elevation":  # the shading is part of the (opaque) terrain fill
            fill = self.items_by_name["terrain_fill"]
            assert isinstance(fill, TerrainFill)
            fill.set_shade(visible)

    def set_shown_properties(self, names: frozenset[str]) -> None:
        """Draw the marks of these terrain properties only (the Layers dock's boxes)."""
        marks = self.items_by_name["property_marks"]
        assert isinstance(marks, PropertyMarks)
        marks.set_shown(names)

    def set_property_filter(self, name: str | None) -> None:
        """Dim every tile whose terrain type lacks property ``name`` (None: none)."""
        shade = self.items_by_name["property_filter"]
        assert isinstance(shade, PropertyFilterShade)
        shade.set_property(name)

    def layer_visible(self, layer: str) -> bool:
        return self.items_by_name[LAYERS[layer][0]].isVisible()

    def set_layer_opacity(self, layer: str, opacity: float) -> None:
        """Opacity of a layer's items (the elevation shading is part of the terrain
        fill and keeps its own)."""
        for name in LAYERS[layer]:
            self.items_by_name[name].setOpacity(opacity)


KNOWN_LAYERS = frozenset({
    "terrain", "elevation", "transition", "indoor", "borders", "transition_borders",
    "setting", "start_zones", "characters", "objects", "labels", "reference_image",
})
