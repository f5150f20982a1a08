"""The map is drawn as the rulebook draws it: group outlines (one per
contiguous group), borders on edges, the red elevation outline with gaps at
transition borders, green transition tiles, indoor vs outdoor obstructions,
team-tinted start zones and labelled tokens; the scene mirrors the model."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import numpy as np
import pytest
import shapely
from PySide6.QtGui import QColor

from sodwa_editor.editor import style
from sodwa_editor.editor.document import Document
from sodwa_editor.editor.render import render_scene
from sodwa_editor.editor.scene.map_scene import LAYERS, MapScene
from sodwa_editor.editor.scene.outline_item import mask_outline
from sodwa_editor.editor.style import TILE
from sodwa_editor.engine import samples
from sodwa_editor.engine.model import Character, Edge, MapModel, MapObject, Rect
from sodwa_editor.engine.terrain import Base


@pytest.fixture
def scene_for(qapp):
    scenes = []

    def make(model: MapModel) -> MapScene:
        s = MapScene(model)
        scenes.append(s)
        return s

    yield make
    for s in scenes:
        s.detach()


def _lines(segments) -> shapely.Geometry:
    return shapely.union_all([shapely.LineString(seg) for seg in segments])


@pytest.mark.parametrize("seed", range(12))
def test_outline_equals_shapely_inset_union(seed):
    rng = np.random.default_rng(seed)
    mask = rng.random((9, 11)) < 0.45
    inset = 0.2
    mine = _lines(mask_outline(mask, 0, 0, inset, Rect(0, 0, 10, 8)))
    ys, xs = np.nonzero(mask)
    ref = shapely.union_all(shapely.box(xs, ys, xs + 1, ys + 1)).buffer(
        -inset, join_style="mitre").boundary
    assert mine.length == pytest.approx(ref.length)
    assert shapely.hausdorff_distance(mine, ref) < 1e-9


def test_outline_of_a_chunk_matches_the_whole_map():
    rng = np.random.default_rng(3)
    mask = rng.random((20, 20)) < 0.5
    whole = _lines(mask_outline(mask, 0, 0, 0.2, Rect(0, 0, 19, 19)))
    parts = []
    for x0 in (0, 10):
        for y0 in (0, 10):
            rx0, ry0 = max(x0 - 1, 0), max(y0 - 1, 0)
            sub = mask[ry0:y0 + 11, rx0:x0 + 11]
            parts.extend(mask_outline(sub, rx0, ry0, 0.2, Rect(x0, y0, x0 + 9, y0 + 9)))
    assert shapely.hausdorff_distance(_lines(parts), whole) < 1e-9
    assert _lines(parts).length == pytest.approx(whole.length)


def test_diagonal_contact_joins_the_outlines_once_across_chunks():
    """Rulebook *Terrain*: diagonal tiles of one type are contiguous; the outline
    shows it with one link per touching corner, whichever chunk draws it."""
    from sodwa_editor.editor.scene.outline_item import diagonal_links

    rng = np.random.default_rng(5)
    mask = rng.random((20, 20)) < 0.4
    keys = np.where(mask, 1, -1)  # -1: outside the group, never linked
    whole, owners = diagonal_links(keys, 0, 0, 0.2, Rect(0, 0, 19, 19))
    assert owners.tolist() == [1] * len(whole)
    expected = {(x, y) for y in range(19) for x in range(19)
                if (mask[y, x] and mask[y + 1, x + 1] and not mask[y, x + 1]
                    and not mask[y + 1, x])
                or (mask[y, x + 1] and mask[y + 1, x] and not mask[y, x]
                    and not mask[y + 1, x + 1])}
    corners = {(round(float(s[:, 0].mean())) - 1, round(float(s[:, 1].mean())) - 1)
               for s in whole}
    assert corners == expected and len(whole) == len(expected)
    parts = []
    for x0 in (0, 10):
        for y0 in (0, 10):
            rx0, ry0 = max(x0 - 1, 0), max(y0 - 1, 0)
            sub = keys[ry0:y0 + 11, rx0:x0 + 11]
            parts.append(diagonal_links(sub, rx0, ry0, 0.2, Rect(x0, y0, x0 + 9, y0 + 9))[0])
    joined = np.concatenate(parts)
    assert sorted(map(tuple, joined.reshape(-1, 4).tolist())) == sorted(
        map(tuple, whole.reshape(-1, 4).tolist()))


def test_one_outline_per_contiguous_group(scene_for):
    m = MapModel(10, 6)
    m.terrain[1:3, 1:4] = m.registry.id_of("impeding")  # a 3x2 group
    m.terrain[4, 7] = m.registry.id_of("impeding")  # a single tile
    s = scene_for(m)
    lines = s.items_by_name["terrain_outlines"].lines()
    key = ((style.OUTLINE[Base.IMPEDING].name(), style.OUTLINE_WIDTH),)
    # 4 straight sides per rectangular group, no line between tiles of a group
    assert len(lines[key]) == 8
    geom = _lines([[(ln.x1() / TILE, ln.y1() / TILE), (ln.x2() / TILE, ln.y2() / TILE)]
                   for ln in lines[key]])
    assert not geom.intersects(shapely.LineString([(2, 1.4), (2, 2.6)]))  # inner edge


def test_colours_follow_the_rulebook(scene_for):
    m = MapModel(9, 3)
    for x, name in ((1, "obstructing"), (3, "impeding"), (5, "difficult"), (7, "liquid")):
        m.terrain[1, x] = m.registry.id_of(name)
    s = scene_for(m)
    keys = {k[0][0] for k in s.items_by_name["terrain_outlines"].lines()}
    assert keys == {"#000000", QColor(240, 200, 0).name(), QColor(128, 128, 128).name(),
                    style.OUTLINE[Base.LIQUID].name()}
    img = render_scene(s)
    inset = TILE + int(style.OUTLINE_INSET)  # scene offset of the label margin + inset
    for x, color in ((1, style.OUTLINE[Base.OBSTRUCTING]), (3, style.OUTLINE[Base.IMPEDING])):
        px = img.pixelColor(TILE + x * TILE + TILE // 2, inset + TILE)
        assert px.name() == color.name()


def test_borders_are_thick_lines_on_the_edge(scene_for):
    m = MapModel(6, 4)
    m.set_border(Edge(2, 1, "E"), m.registry.id_of("obstructing"))
    m.set_border(Edge(2, 2, "E"), m.registry.id_of("obstructing"))
    m.set_border(Edge(4, 0, "S"), m.registry.id_of("impeding"))
    s = scene_for(m)
    lines = s.items_by_name["borders"].lines()
    black = next(v for k, v in lines.items() if k[0][0] == "#000000")
    assert len(black) == 1  # two collinear edges merged into one line
    ln = black[0]
    assert (ln.x1(), ln.y1(), ln.x2(), ln.y2()) == (3 * TILE, TILE, 3 * TILE, 3 * TILE)
    assert all(p[0][1] == style.BORDER_WIDTH for p in lines)


def test_walls_are_drawn_over_crossing_borders_and_stay_inside_the_map(scene_for):
    """A fence crossing a wall must not look like a door in it (Obstructing is
    drawn last), and no border sticks out past the map's edge."""
    m = MapModel(8, 6)
    for y in range(6):
        m.set_border(Edge(2, y, "E"), m.registry.id_of("obstructing"))
    for x in range(8):
        m.set_border(Edge(x, 1, "S"), m.registry.id_of("impeding"))
        m.set_border(Edge(x, 3, "S"), m.registry.id_of("liquid"))
    img = render_scene(scene_for(m))
    margin = TILE  # the coordinate labels' margin around the map in the scene
    for gy in (2, 4):  # where the fence and the stream cross the wall at x = 3
        assert img.pixelColor(margin + 3 * TILE, margin + gy * TILE).name() == "#000000"
    outside = img.pixelColor(margin + 8 * TILE + 2, margin + 2 * TILE)  # right of the map
    assert outside.name() == style.BACKGROUND.name()


def test_indoor_obstructions_look_different(scene_for):
    m = MapModel(4, 2)
    obst = m.registry.id_of("obstructing")
    m.terrain[0, 0] = obst
    m.terrain[0, 2] = obst
    m.set_tile_indoor(2, 0, True)
    m.set_border(Edge(0, 1, "E"), obst)
    m.set_border(Edge(2, 1, "E"), obst, indoor=True)
    s = scene_for(m)
    rgba = s.items_by_name["terrain_fill"].rgba
    assert tuple(rgba[0, 0, :3]) == style.FILL[Base.OBSTRUCTING]
    assert tuple(rgba[0, 2, :3]) == style.FILL_INDOOR_OBSTRUCTING
    pens = {len(k) for k in s.items_by_name["borders"].lines()}
    assert pens == {1, 2}  # the indoor border has a second (core) pen
    Document(m).set_setting("indoor")
    s.flush()
    assert tuple(s.items_by_name["terrain_fill"].rgba[0, 0, :3]) == style.FILL_INDOOR_OBSTRUCTING


def test_each_level_is_shaded_darker_than_the_one_below(scene_for):
    m = MapModel(12, 1)
    m.elevation[0] = np.arange(12)
    rgb = scene_for(m).items_by_name["terrain_fill"].rgba[0, :, :3].astype(int).sum(axis=1)
    assert np.all(np.diff(rgb) < 0)  # strictly darker, level by level, up to 11


def test_elevation_outline_has_gap_at_transition_border(scene_for):
    m = MapModel(6, 6)
    m.elevation[2:5, 2:5] = 1
    s = scene_for(m)
    item = s.items_by_name["elevation_outlines"]

    def red_geom():
        (lines,) = item.lines().values()
        return _lines([[(ln.x1() / TILE, ln.y1() / TILE), (ln.x2() / TILE, ln.y2() / TILE)]
                       for ln in lines])

    probe = shapely.LineString([(3.5, 1.9), (3.5, 2.4)])  # across the top side of (3, 2)
    assert red_geom().intersects(probe)
    doc = Document(m)
    doc.set_transition_edges([Edge(3, 1, "S")], True)
    doc.set_transition_tiles([(3, 1)], True)
    s.flush()
    assert not red_geom().intersects(probe)
    assert s.items_by_name["transition_tint"].rgba[1, 3, 3] > 0
    assert s.items_by_name["transition_marks"].lines()
    doc.undo_stack.undo()
    doc.undo_stack.undo()
    s.flush()
    assert red_geom().intersects(probe)


def _per_level_outlines(m: MapModel, cx: int, cy: int) -> np.ndarray:
    """The elevation outline of one chunk as it was first drawn: one
    ``mask_outline`` per level, one level after the other."""
    from sodwa_editor.editor.scene.layers import CHUNK
    from sodwa_editor.editor.scene.outline_item import transition_gaps

    rect = Rect(cx * CHUNK, cy * CHUNK, min(m.width, (cx + 1) * CHUNK) - 1,
                min(m.height, (cy + 1) * CHUNK) - 1)
    reg = rect.grow(1, m.width, m.height)
    elev = m.elevation[reg.y0:reg.y1 + 1, reg.x0:reg.x1 + 1]
    gh, gv = transition_gaps(m, reg)
    inset = style.ELEVATION_INSET / TILE
    parts = [mask_outline(elev >= lv, reg.x0, reg.y0, inset, rect, gh, gv)
             for lv in np.unique(elev).tolist() if lv > 0]
    return np.concatenate(parts) if parts else np.zeros((0, 2, 2))


def _random_elevation_map(seed: int) -> MapModel:
    rng = np.random.default_rng(seed)
    w, h = (int(v) for v in rng.integers(5, 40, 2))
    m = MapModel(w, h)
    top = int(rng.integers(1, 8))
    m.elevation[:, :] = rng.integers(0, top + 1, (h, w))
    if seed % 3 == 0:  # smooth areas: long runs and concave corners
        m.elevation[:, :] = np.repeat(np.repeat(m.elevation[::4, ::4], 4, 0), 4, 1)[:h, :w]
    m.transition_e[:, :] = rng.random(m.transition_e.shape) < 0.15
    m.transition_s[:, :] = rng.random(m.transition_s.shape) < 0.15
    m.notify_bulk_change()
    return m


def _ramp(size: int) -> MapModel:
    m = MapModel(size, size)
    ys, xs = np.mgrid[0:size, 0:size]
    m.elevation[:, :] = (xs + ys) % 100
    m.notify_bulk_change()
    return m


@pytest.mark.parametrize("source", [*(f"random-{seed}" for seed in range(12)), "ramp",
                                    *samples.SAMPLE_MAPS])
def test_elevation_outlines_of_all_levels_at_once_equal_one_level_at_a_time(scene_for, source):
    if source.startswith("random-"):
        m = _random_elevation_map(int(source.split("-")[1]))
    elif source == "ramp":
        m = _ramp(70)
    else:
        m = samples.SAMPLE_MAPS[source]()
    layer = scene_for(m).items_by_name["elevation_outlines"]
    chunks = -(-m.height // 16), -(-m.width // 16)
    for cy in range(chunks[0]):
        for cx in range(chunks[1]):
            ref = _per_level_outlines(m, cx, cy) * TILE
            item = layer.chunks.get((cx, cy))
            drawn = item.groups[0].segments if item is not None else np.zeros((0, 2, 2))
            assert drawn.shape == ref.shape, (cx, cy)
            assert np.array_equal(drawn, ref), (cx, cy)  # the same segments, same order


def test_zone_tint_and_tokens_use_team_colours(scene_for):
    m = MapModel(6, 3)
    m.start_zones = {"red": {(0, 0)}, "north": {(5, 2)}}
    m.characters["k"] = Character("k", "red", 0, 0, name="Iron Knight")
    m.characters["a"] = Character("a", "north", 5, 2, name="archer")
    s = scene_for(m)
    rgba = s.items_by_name["zones"].rgba
    red = QColor("red")
    assert rgba[0, 0, 0] > 0 and rgba[0, 0, 2] == 0  # premultiplied red
    tokens = s.items_by_name["tokens"].tokens
    assert tokens["k"].color.name() == red.name()
    assert tokens["a"].color.name() != red.name()
    from sodwa_editor.editor.scene.token_item import token_label
    assert token_label(m.characters["k"]) == "IK"
    assert token_label(m.characters["a"]) == "Ar"


def test_no_two_tokens_or_objects_read_the_same(scene_for):
    m = MapModel(8, 3)
    for i in range(3):
        m.put_character(Character(f"knight-{i}", "blue", i, 0, name="Knight"))
    m.put_character(Character("archer", "red", 4, 0, name="Archer"))
    for i, kind in enumerate(["crate", "cart", "chest", "crate"]):
        m.put_object(MapObject(f"o{i}", kind, i, 2))
    m.put_object(MapObject("under", "barrel", 4, 0))  # shares the archer's tile
    layer = scene_for(m).items_by_name["tokens"]
    assert [layer.tokens[k].label for k in ("knight-0", "knight-1", "knight-2", "archer")] == [
        "K1", "K2", "K3", "Ar"]
    assert [layer.markers[f"o{i}"].label for i in range(4)] == ["C1", "Ca", "Ch", "C2"]
    assert layer.markers["under"].beside_token and not layer.markers["o0"].beside_token


def test_team_colours_cannot_be_mistaken_and_labels_read():
    teams = ["red", "green", "blue", "yellow", "white", "goblins", "orcs", "elves"]
    colors = style.team_colors(teams)
    assert colors["red"].name() == "#ff0000"  # a colour name is its colour
    for i, a in enumerate(teams):
        for b in teams[i + 1:]:
            assert style.color_distance(colors[a], colors[b]) >= 25, (a, b)
    assert style.label_color(colors["yellow"]).name() == "#000000"
    assert style.label_color(colors["white"]).name() == "#000000"
    assert style.label_color(colors["blue"]).name() == "#ffffff"


def test_a_new_team_recolours_every_zone(scene_for):
    m = MapModel(6, 4)
    m.set_start_zone("b", {(0, 0)})
    s = scene_for(m)
    before = s.items_by_name["zones"].rgba[0, 0].copy()
    m.put_character(Character("c", "a", 5, 3))  # team "a" sorts first: "b" is recoloured
    s.flush()
    assert not np.array_equal(s.items_by_name["zones"].rgba[0, 0], before)


def test_start_zones_are_outlined_in_their_team_colour(scene_for):
    m = MapModel(8, 4)
    m.set_start_zone("green", {(1, 1), (2, 1), (3, 1)})
    m.transition[2, 5] = True  # a green transition tile must not look like the zone
    lines = scene_for(m).items_by_name["zone_outlines"].lines()
    assert [k[0][0] for k in lines] == [QColor("green").name()]
    assert len(next(iter(lines.values()))) == 4  # one rectangle around the 3x1 zone


def test_layer_toggles(scene_for):
    s = scene_for(samples.tiered_keep())
    for layer in LAYERS:
        s.set_layer_visible(layer, False)
        assert not s.layer_visible(layer)
        s.set_layer_visible(layer, True)
        assert s.layer_visible(layer)


def test_model_replacement_rebinds_every_layer(scene_for):
    s = scene_for(MapModel(4, 4))
    big = samples.outdoor_skirmish()
    s.set_model(big)
    assert s.items_by_name["terrain_fill"].rgba.shape[:2] == (18, 24)
    assert s.sceneRect().width() == 24 * TILE + 2 * TILE


def test_sample_maps_render(scene_for, tmp_path):
    for name, build in samples.SAMPLE_MAPS.items():
        s = scene_for(build())
        img = render_scene(s)
        assert not img.isNull(), name
        # something other than the background was drawn in the map area
        assert img.pixelColor(TILE + 5, TILE + 5) != style.BACKGROUND


def test_special_terrain_fills_stay_apart_and_off_the_transition_green():
    types = [("mud", Base.DIFFICULT), ("rubble", Base.DIFFICULT), ("lava", Base.OBSTRUCTING),
             ("icy", Base.DIFFICULT), ("swamp", Base.LIQUID), ("thorns", Base.IMPEDING)]
    hues = [QColor(*rgb).hue() for rgb in style.special_fills(types)]
    assert not any(80 <= h <= 160 for h in hues)
    for i, a in enumerate(hues):
        for b in hues[i + 1:]:
            assert min(abs(a - b), 360 - abs(a - b)) >= 30
    # a type's colour comes from its name: the same in every map where it clashes
    # with nothing declared before it
    assert style.special_fills([("mud", Base.DIFFICULT)]) == style.special_fills(types)[:1]
