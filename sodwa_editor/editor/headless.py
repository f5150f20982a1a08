"""Render a map with optional engine overlays to a PNG, without a window."""

from __future__ import annotations

from pathlib import Path

from ..engine.model import MapModel
from .render import save_png
from .scene.map_scene import LAYERS, MapScene
from .scene.overlay_items import ShapeOverlay, cosmetic
from .scene.preview_items import GraphItem, LosFanItem, ReachItem


def build_scene(model: MapModel, overlays=(), hidden=()) -> MapScene:
    scene = MapScene(model)
    for name in hidden:
        if name not in LAYERS:
            raise ValueError(f"unknown layer {name!r} (layers: {', '.join(LAYERS)})")
        scene.set_layer_visible(name, False)
    for kind, tile, n in overlays:
        if tile is not None and not model.in_bounds(*tile):
            raise IndexError(f"overlay tile {tile[0]},{tile[1]} is outside the "
                             f"{model.width}x{model.height} map")
        if kind == "los":
            from ..engine.los import los_fan

            item = LosFanItem()
            item.set_fan(model, los_fan(model, tile))
        elif kind == "reach":
            from ..engine.movement import reach

            c = model.character_at(*tile)
            move = n if n is not None else (c.move if c is not None else 5)
            item = ReachItem()
            item.set_reach(model, reach(model, tile, move))
        else:
            item = GraphItem()
            item.set_model(model)
        scene.add_preview(item)
        if tile is not None:
            marker = ShapeOverlay(cosmetic(LosFanItem.source_color, 3), None, 64)
            scene.addItem(marker)
            marker.set_shape([tile])
    scene.flush()
    return scene


def render_map(model: MapModel, out: Path, overlays=(), *, scale: float = 1.0,
               hidden=()) -> None:
    save_png(build_scene(model, overlays, hidden), Path(out), scale)
