"""Map symmetry for fair 1v1 maps (issue 29): the images of tiles and edges
under a mirror about the map's centre line(s) or a 180-degree rotation about
its centre, which team an image belongs to, and where a map differs from its
image.  No Qt; the editor paints with it, the io layer checks with it.

Modes (:data:`MODES`): ``x`` mirrors left-right (x -> W-1-x), ``y`` top-bottom,
``rotate`` turns 180 degrees (both at once), ``both`` makes all three images
(four-way).  An image made by one reflection, or by the rotation of the
``rotate`` mode, belongs to the other team; in ``both`` the rotated image (two
reflections) keeps the team.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

import numpy as np

from .footprint import transform_anchor
from .model import Edge
from .sizes import Footprint
from .transform import Symmetry

if TYPE_CHECKING:
    from .model import MapModel

#: mode -> label (menus, the options bar, messages)
MODES = {"off": "Off", "x": "Mirror X (left-right)", "y": "Mirror Y (top-bottom)",
         "both": "Mirror X and Y", "rotate": "Rotate 180\N{DEGREE SIGN}"}
#: mode -> its images: (flip x, flip y, the image belongs to the other team)
IMAGES: dict[str, tuple[tuple[bool, bool, bool], ...]] = {
    "off": (), "x": ((True, False, True),), "y": ((False, True, True),),
    "rotate": ((True, True, True),),
    "both": ((True, False, True), (False, True, True), (True, True, False)),
}


def check_mode(mode: str) -> str:
    if mode not in MODES:
        raise ValueError(f"symmetry must be one of {', '.join(MODES)}, not {mode!r}")
    return mode


def tile_image(w: int, h: int, x: int, y: int, fx: bool, fy: bool) -> tuple[int, int]:
    return (w - 1 - x if fx else x, h - 1 - y if fy else y)


def edge_image(w: int, h: int, edge: Edge, fx: bool, fy: bool) -> Edge:
    """The image of an edge: an east edge lies between x and x+1, so mirrored in x
    it lies between W-2-x and W-1-x (a south edge likewise in y)."""
    x, y = edge.x, edge.y
    if fx:
        x = (w - 2 - x) if edge.side == "E" else (w - 1 - x)
    if fy:
        y = (h - 2 - y) if edge.side == "S" else (h - 1 - y)
    return Edge(x, y, edge.side)


def tile_images(mode: str, w: int, h: int, xs: np.ndarray, ys: np.ndarray
                ) -> list[tuple[np.ndarray, np.ndarray, bool]]:
    """The images of tiles (arrays) under ``mode``: (xs, ys, other team) each."""
    return [(w - 1 - xs if fx else xs, h - 1 - ys if fy else ys, swap)
            for fx, fy, swap in IMAGES[check_mode(mode)]]


def footprint_images(mode: str, w: int, h: int, anchor: tuple[int, int], fp: Footprint
                     ) -> list[tuple[tuple[int, int], Footprint, bool]]:
    """The images of a creature's footprint under ``mode``: (top-left tile, footprint,
    other team) each; the covered rectangle is mirrored and its new top-left tile is the
    image's anchor (:func:`.footprint.transform_anchor`, docs/rules.md S10).

    >>> footprint_images("x", 10, 10, (0, 0), Footprint(2, 3))
    [((8, 0), Footprint(width=2, height=3), True)]
    """
    return [(*transform_anchor(Symmetry(False, fx, fy), anchor, fp, w, h), swap)
            for fx, fy, swap in IMAGES[check_mode(mode)]]


def edge_images(mode: str, w: int, h: int, edges: Iterable[Edge]) -> list[Edge]:
    """The edges and their images under ``mode``, each once, in order."""
    edges = list(edges)
    out = dict.fromkeys(edges)
    for fx, fy, _swap in IMAGES[check_mode(mode)]:
        out.update(dict.fromkeys(edge_image(w, h, e, fx, fy) for e in edges))
    return list(out)


def other_team(model: MapModel, team: str) -> str | None:
    """The opposing team of ``team``: the one other team of the map's start zones
    and characters, else red for blue and blue for red; None when it is unclear
    (no other team, or more than one)."""
    teams = (set(model.start_zones) | {c.team for c in model.characters.values()}) - {team}
    if len(teams) == 1:
        return next(iter(teams))
    if not teams:
        return {"blue": "red", "red": "blue"}.get(team)
    return None


def _edge_arrays(model: MapModel, side: str) -> tuple[np.ndarray, np.ndarray]:
    border = getattr(model, "border_" + side.lower()).astype(np.int64)
    packed = border * 4 + getattr(model, "indoor_" + side.lower()) + 1
    return packed, getattr(model, "transition_" + side.lower())


def _name(model: MapModel, tid: int) -> str:
    return model.registry[tid].name if 0 <= tid < len(model.registry) else str(tid)


def differences(model: MapModel, mode: str) -> list[tuple[str, object, object, str]]:
    """Where the map differs from its image under ``mode``, each pair once:
    (``"tile"``, (x, y), its image, what differs) or (``"edge"``, Edge, its image,
    what differs).  Compared: terrain, elevation, transition tile, Indoor flag,
    start zone (the image's team swapped), character (present on every square of a
    footprint, team swapped);
    border type with its Indoor flag and transition border of each edge."""
    w, h = model.width, model.height
    zone = {t: team for team, tiles in model.start_zones.items() for t in tiles}
    chars = {t: c.team for c in model.characters.values() for t in c.squares()}
    out: list[tuple[str, object, object, str]] = []
    seen: set[tuple[object, object]] = set()
    for fx, fy, swap in IMAGES[check_mode(mode)]:
        def team(t: str | None, swap: bool = swap) -> str | None:
            return (other_team(model, t) or t) if (swap and t is not None) else t

        for y in range(h):
            for x in range(w):
                ix, iy = tile_image(w, h, x, y, fx, fy)
                if ((iy, ix) < (y, x)) or ((ix, iy), (x, y)) in seen or (ix, iy) == (x, y):
                    continue
                what = []
                if model.terrain[y, x] != model.terrain[iy, ix]:
                    what.append(f"terrain {_name(model, int(model.terrain[y, x]))} vs "
                                f"{_name(model, int(model.terrain[iy, ix]))}")
                for layer, label in (("elevation", "level"), ("transition", "transition"),
                                     ("tile_indoor", "indoor flag")):
                    a, b = getattr(model, layer)[y, x], getattr(model, layer)[iy, ix]
                    if a != b:
                        what.append(f"{label} {int(a)} vs {int(b)}")
                if team(zone.get((x, y))) != zone.get((ix, iy)):
                    what.append(f"zone {zone.get((x, y), 'none')} vs {zone.get((ix, iy), 'none')}")
                if team(chars.get((x, y))) != chars.get((ix, iy)):
                    what.append(f"character {chars.get((x, y), 'none')} vs "
                                f"{chars.get((ix, iy), 'none')}")
                if what:
                    seen.add(((x, y), (ix, iy)))
                    out.append(("tile", (x, y), (ix, iy), ", ".join(what)))
        for side in ("E", "S"):
            packed, trans = _edge_arrays(model, side)
            for y, x in zip(*np.nonzero((packed > 0) | (trans > 0)), strict=True):
                e = Edge(int(x), int(y), side)
                img = edge_image(w, h, e, fx, fy)
                if img == e or (img, e) in seen or (e, img) in seen:
                    continue
                what = []
                a, b = int(packed[y, x]), int(packed[img.y, img.x])
                if a != b:
                    what.append(f"border {_name(model, a // 4) if a // 4 else 'none'} vs "
                                f"{_name(model, b // 4) if b // 4 else 'none'}"
                                + (" (indoor flag)" if a // 4 == b // 4 else ""))
                if trans[y, x] != trans[img.y, img.x]:
                    what.append("transition border vs none" if trans[y, x]
                                else "none vs transition border")
                if what:
                    seen.add((e, img))
                    out.append(("edge", e, img, ", ".join(what)))
    return out
