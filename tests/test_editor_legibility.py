"""Previews a designer can read at a glance: every preview line and hatch stands
out from every background the map can show (terrain fills, elevation shades,
zone tints in every team colour, transition tiles, the fan's shadow), the LoS
classes stay apart for colour-blind eyes, overlays are drawn under tokens and
level numbers, and hovering a target rings the tile, edge or corner that
decided its line of sight."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import numpy as np
import pytest
from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor

from sodwa_editor.editor import style
from sodwa_editor.editor.render import render_scene
from sodwa_editor.editor.scene.graph_item import GraphLayer
from sodwa_editor.editor.scene.map_scene import MapScene
from sodwa_editor.editor.scene.preview_items import CulpritItem, PathItem
from sodwa_editor.editor.testing import click_tile, move
from sodwa_editor.engine.model import Character, Edge, MapModel
from sodwa_editor.engine.terrain import Base, Crossing

ALT = Qt.KeyboardModifier.AltModifier
TEAM_NAMES = ("red", "blue", "green", "yellow", "orange", "purple", "white", "black")


def _over(bg: QColor, rgba) -> QColor:
    r, g, b, a = rgba
    return QColor(*(round(c * (255 - a) / 255 + x * a / 255)
                    for c, x in zip((bg.red(), bg.green(), bg.blue()), (r, g, b), strict=True)))


def backgrounds() -> dict[str, QColor]:
    """Every colour a tile can show under the previews."""
    out: dict[str, QColor] = {}
    fills = {b.name: QColor(*rgb) for b, rgb in style.FILL.items()}
    fills["indoor"] = QColor(*style.FILL_INDOOR_OBSTRUCTING)
    for name, rgb in zip("ab", style.special_fills([("icy", Base.DIFFICULT),
                                                    ("mud", Base.IMPEDING)]), strict=True):
        fills[f"special {name}"] = QColor(*rgb)
    for name, c in fills.items():
        for level in range(0, 9):
            alpha = int(style.elevation_alpha(np.array([level]))[0])
            out[f"{name} level {level}"] = _over(c, (*style.ELEVATION_TINT, alpha))
    teams = list(style.TEAM_PALETTE) + [QColor(n) for n in TEAM_NAMES]
    for key, c in list(out.items()):
        out[f"{key}, transition"] = _over(c, style.TRANSITION_TILE_RGBA)
        for i, t in enumerate(teams):
            out[f"{key}, zone {i}"] = _over(c, (t.red(), t.green(), t.blue(),
                                                style.START_ZONE_ALPHA))
    for key, c in list(out.items()):
        out[f"{key}, blocked"] = _over(c, style.LOS_RGBA[Crossing.BLOCKED])
        out[f"{key}, reach"] = _over(c, style.REACH_RGBA)
    return out


def preview_lines() -> dict[str, tuple[QColor, list[QColor]]]:
    """(core, halos innermost first) of every preview line, read from the items."""
    out = {}
    for c in Crossing:
        item = PathItem()
        item.set_line((0, 0), (3, 1), c)
        *halos, core = [p.color() for p in item.pens]
        out[f"LoS line {c.label}"] = (core, halos[::-1])
        ring = CulpritItem()
        ring.set_reason(None, c)
        *halos, core = [p.color() for p in ring.pens]
        out[f"deciding feature {c.label}"] = (core, halos[::-1])
        *halos, core = [p.color() for p in GraphLayer().pens(c)]
        out[f"graph {c.label}"] = (core, halos[::-1])
    item = PathItem()
    item.set_path([(0, 0), (1, 0)])
    *halos, core = [p.color() for p in item.pens]
    out["movement path"] = (core, halos[::-1])
    for name, color in (("LoS shadow edge", style.LOS_EDGE), ("reach edge", style.REACH_EDGE),
                        ("impeded hatch", style.LOS_HATCH),
                        ("must-stop hatch", style.REACH_STOP_HATCH)):
        out[name] = (color, [style.HALO])
    return out


@pytest.mark.parametrize("name", sorted(preview_lines()))
def test_every_preview_line_stands_out_from_every_background(qapp, name):
    core, halos = preview_lines()[name]
    bad = [k for k, bg in backgrounds().items() if not style.legible(core, halos, bg)]
    assert bad == [], f"{name} hard to read over {len(bad)} backgrounds, e.g. {bad[:3]}"


def test_the_fan_shadow_darkens_every_walkable_background(qapp):
    """Blocked reads as "out of sight" over any colour: visibly darker."""
    for key, bg in backgrounds().items():
        if "OBSTRUCTING" in key or "indoor" in key or "blocked" in key:
            continue
        shaded = _over(bg, style.LOS_RGBA[Crossing.BLOCKED])
        assert style.contrast(bg, shaded) >= 1.45, key


# Machado, Oliveira & Fernandes (2009) simulation matrices, severity 1.0 (linear RGB)
SIMULATIONS = {
    "protanopia": [[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216],
                   [-0.003882, -0.048116, 1.051998]],
    "deuteranopia": [[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413],
                     [-0.011820, 0.042940, 0.968881]],
    "tritanopia": [[1.255528, -0.076749, -0.178779], [-0.078411, 0.930809, 0.147602],
                   [0.004733, 0.691367, 0.303900]],
    "typical": np.eye(3).tolist(),
}


def _lab(color: QColor, matrix) -> np.ndarray:
    c = np.array([color.red(), color.green(), color.blue()]) / 255
    lin = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    lin = np.clip(np.asarray(matrix) @ lin, 0, 1)
    xyz = np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722],
                    [0.0193, 0.1192, 0.9505]]) @ lin / np.array([0.95047, 1.0, 1.08883])
    f = np.where(xyz > 0.008856, np.cbrt(xyz), 7.787 * xyz + 16 / 116)
    return np.array([116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])])


@pytest.mark.parametrize("vision", sorted(SIMULATIONS))
def test_los_classes_stay_apart_for_colour_blind_eyes(qapp, vision):
    colors = [_lab(c, SIMULATIONS[vision]) for c in style.LOS_LINE]
    for i in range(3):
        for j in range(i + 1, 3):
            assert np.linalg.norm(colors[i] - colors[j]) >= 15, (vision, i, j)
    assert len(set(style.LOS_LINE_STYLE)) == 3  # and a dash pattern of its own each


def test_overlays_are_drawn_under_tokens_and_level_numbers(qapp):
    m = MapModel(5, 3)
    m.elevation[1, 3] = 2
    m.put_character(Character("k", "red", 1, 1))
    m.notify_bulk_change()
    plain = MapScene(m)
    scene = MapScene(m)
    from sodwa_editor.engine.los import los_fan

    scene.previews["los"].set_fan(m, los_fan(m, (4, 0)))
    scene.previews["los"].setVisible(True)
    scene.items_by_name["graph"].setVisible(True)
    scene.previews["path"].set_line((0, 1), (4, 1), Crossing.BLOCKED)
    scene.previews["path"].setVisible(True)
    tile = QRectF(1 * style.TILE, 1 * style.TILE, style.TILE, style.TILE)
    token = tile.adjusted(12, 12, -12, -12)  # the middle of the token
    a = render_scene(plain, 2.0, token)
    b = render_scene(scene, 2.0, token)
    assert a == b  # nothing of the fan, graph or line shows through the token
    labels = scene.items_by_name["elevation_labels"].zValue()
    for item in (*scene.previews.values(), scene.items_by_name["graph"]):
        if item is not scene.previews["culprit"]:
            assert item.zValue() < labels < scene.items_by_name["tokens"].zValue()


@pytest.mark.parametrize("setup, target, kind, place", [
    ("tile", (6, 1), "tile", (3, 1)),
    ("edge", (6, 1), "edge", (3, 1, "E")),
    ("corner", (3, 3), "corner", (2, 2)),
])
def test_hovering_a_target_rings_what_decided_its_line(make_window, setup, target, kind,
                                                       place):
    m = MapModel(8, 5)
    if setup == "tile":
        m.set_terrain(3, 1, int(Base.OBSTRUCTING))
    elif setup == "edge":
        m.set_border(Edge(3, 1, "E"), int(Base.IMPEDING))
    else:  # both ways around corner (2, 2) cross a wall: blocked at the corner
        m.set_terrain(2, 1, int(Base.OBSTRUCTING))
        m.set_terrain(1, 2, int(Base.OBSTRUCTING))
    win = make_window(m)
    win.action_map["preview_los"].setChecked(True)
    ring = win.scene.previews["culprit"]
    source = (0, 1) if setup != "corner" else (0, 0)
    click_tile(win.view, *source, modifiers=ALT)
    assert not ring.isVisible()
    move(win.view, target[0] + 0.5, target[1] + 0.5)
    result = win.previews.last_los
    assert result.crossing is not Crossing.CLEAR
    assert ring.isVisible() and (ring.kind, ring.place) == (kind, place)
    assert ring.pens[-1].color() == style.LOS_LINE[int(result.crossing)]
    assert win.scene.previews["path"].isVisible()
    move(win.view, source[0] + 1.5, source[1] + 0.5)  # a clear neighbour: no ring
    assert not ring.isVisible()
