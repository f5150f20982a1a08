"""Render a map with optional engine overlays to a PNG, without a window."""

from __future__ import annotations

from pathlib import Path

from ..engine.model import MapModel
from .render import save_png
from .scene.map_scene import LAYERS, MapScene


def build_scene(model: MapModel, overlays=(), hidden=()) -> MapScene:
    """A scene of ``model`` with layers hidden and engine overlays shown
    (``(kind, tile, n)`` as parsed by :func:`.app.parse_overlay`)."""
    scene = MapScene(model)
    for name in hidden:
        if name not in LAYERS:
            raise ValueError(f"unknown layer {name!r} (layers: {', '.join(LAYERS)})")
        scene.set_layer_visible(name, False)
    markers = []
    for kind, tile, n in overlays:
        if tile is not None and not model.in_bounds(*tile):
            raise IndexError(f"overlay tile {tile[0]},{tile[1]} is outside the "
                             f"{model.width}x{model.height} map")
        if kind == "los":
            from ..engine.los import los_fan
            from .footprint_previews import creature_fan

            c = model.character_at(*tile)
            large = c is not None and c.footprint_at().area > 1  # its squares' best (S9)
            fan = creature_fan(model, c) if large and c is not None else los_fan(model, tile)
            scene.previews["los"].set_fan(model, fan)
            scene.previews["los"].setVisible(True)
        elif kind == "reach":
            from .footprint_previews import tile_range

            c = model.character_at(*tile)
            move = n if n is not None else (c.move if c is not None else 5)
            try:
                result = tile_range(model, tile, move)
            except ValueError as exc:  # e.g. a negative Move: a rule error the map loads with
                raise ValueError(f"no movement range from {tile[0]},{tile[1]}: {exc} (fix the "
                                 "map, or give reach:X,Y:MOVE)") from exc
            scene.previews["reach"].set_reach(model, result)
            scene.previews["reach"].setVisible(True)
        else:
            scene.show_graph(True, with_fan=any(k == "los" for k, _t, _n in overlays))
        if tile is not None:
            markers.append(tile)
    scene.marker.set_shape(markers)
    scene.flush()
    return scene


def render_map(model: MapModel, out: Path, overlays=(), *, scale: float = 1.0,
               hidden=()) -> None:
    save_png(build_scene(model, overlays, hidden), Path(out), scale)
