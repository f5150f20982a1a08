"""The compiled chunk-geometry kernels (editor/scene/kernels.py) give exactly
what the numpy geometry they replace gives, and rectangles drawn straight from
an array draw the same pixels as a list of QRectF."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QImage, QPainter, QPainterPath, QPainterPathStroker, QPen

from sodwa_editor.editor.scene.graph_item import FORWARD, TICK, pair_lines
from sodwa_editor.editor.scene.kernels import keyed_links, keyed_outline, mask_segments
from sodwa_editor.editor.scene.line_groups import LineGroup, _segment_rects
from sodwa_editor.editor.scene.outline_item import diagonal_links, mask_outline
from sodwa_editor.editor.style import TILE
from sodwa_editor.engine.adjacency import pair_classes
from sodwa_editor.engine.generate import make_mixed_map
from sodwa_editor.engine.model import MapModel, Rect
from sodwa_editor.engine.terrain import Crossing


@st.composite
def regions(draw, lo: int = 0):
    """A key array (a region whose top-left tile is ox, oy) and a clip inside it."""
    h, w = draw(st.integers(1, 14)), draw(st.integers(1, 14))
    n = draw(st.integers(1, 4))
    keys = np.array(draw(st.lists(st.integers(lo, n - 1), min_size=h * w, max_size=h * w)),
                    np.int64).reshape(h, w)
    ox, oy = draw(st.integers(0, 40)), draw(st.integers(0, 40))
    y0 = draw(st.integers(0, h - 1))
    y1 = draw(st.integers(y0, h - 1))
    x0 = draw(st.integers(0, w - 1))
    x1 = draw(st.integers(x0, w - 1))
    return keys, ox, oy, Rect(ox + x0, oy + y0, ox + x1, oy + y1)


def assert_shows_what_a_full_repaint_draws(win, app) -> None:
    """The map view as drawn so far equals what it shows once every scene item is
    drawn afresh (cached pixmaps included).  Only the view's viewport is compared:
    the rest of the window (the Minimap redraws on a 200 ms timer) may legitimately
    change between the two grabs on a loaded machine."""
    from PySide6.QtCore import QPoint, QRect

    def grab_view():
        vp = win.view.viewport()
        image = app.primaryScreen().grabWindow(win.winId()).toImage()
        ratio = image.devicePixelRatio()
        top_left = vp.mapTo(win, QPoint(0, 0)) * ratio
        return image.copy(QRect(top_left, vp.size() * ratio))

    for _ in range(3):
        app.processEvents()
    drawn = grab_view()
    for item in win.scene.items():
        item.update()
    for _ in range(3):
        app.processEvents()
    assert grab_view() == drawn


@settings(max_examples=150, deadline=None)
@given(regions(), st.sampled_from([0.0, 0.125, 0.2]))
def test_keyed_outline_is_mask_outline_of_each_key(region, inset):
    keys, ox, oy, clip = region
    want = np.unique(keys).tolist()
    got = keyed_outline(keys, want, ox, oy, inset, clip)
    assert len(got) == len(want)
    for key, segs in zip(want, got, strict=True):
        ref = mask_outline(keys == key, ox, oy, inset, clip)
        assert segs.shape == ref.shape and np.array_equal(segs, ref)
    mask = keys == want[0]
    assert np.array_equal(mask_segments(mask, ox, oy, clip),
                          mask_outline(mask, ox, oy, 0.0, clip))


@settings(max_examples=150, deadline=None)
@given(regions(lo=-1))
def test_keyed_links_are_diagonal_links(region):
    keys, ox, oy, clip = region
    segs, owners = keyed_links(keys, ox, oy, 0.2, clip)
    ref_segs, ref_owners = diagonal_links(keys, ox, oy, 0.2, clip)
    assert np.array_equal(segs, ref_segs) and np.array_equal(owners, ref_owners)


def _pair_lines_by_hand(model, rect: Rect) -> dict[int, list[tuple]]:
    """The graph preview's segments pair by pair from the adjacency rule."""
    out: dict[int, list[tuple]] = {int(c): [] for c in Crossing}
    win = Rect(rect.x0, rect.y0, min(rect.x1 + 1, model.width - 1),
               min(rect.y1 + 1, model.height - 1))
    pc = pair_classes(model, rect=win)
    for c in Crossing:
        for name, (fx, fy), (dx, dy) in FORWARD:
            cls = getattr(pc, name)
            for y in range(min(cls.shape[0], rect.y1 - win.y0 + 1)):
                for x in range(min(cls.shape[1], rect.x1 - win.x0 + 1)):
                    if cls[y, x] != c:
                        continue
                    ax, ay = win.x0 + x + fx + 0.5, win.y0 + y + fy + 0.5
                    if c is Crossing.BLOCKED:
                        norm = (dx * dx + dy * dy) ** 0.5
                        px, py = -dy / norm * TICK, dx / norm * TICK
                        mx, my = ax + dx / 2, ay + dy / 2
                        out[int(c)].append((mx - px, my - py, mx + px, my + py))
                    else:
                        out[int(c)].append((ax, ay, ax + dx, ay + dy))
    return out


@pytest.mark.parametrize("size", [8, 21])
def test_pair_lines_follow_the_adjacency_rule_pair_by_pair(size):
    m = make_mixed_map(size, seed=size)
    for y0 in range(0, size, 16):
        for x0 in range(0, size, 16):
            rect = Rect(x0, y0, min(size, x0 + 16) - 1, min(size, y0 + 16) - 1)
            got = pair_lines(m, rect)
            ref = _pair_lines_by_hand(m, rect)
            for c in Crossing:
                segs = np.concatenate(got[int(c)]) if got[int(c)] else np.zeros((0, 2, 2))
                assert np.allclose(segs.reshape(-1, 4), np.array(ref[int(c)]).reshape(-1, 4),
                                   rtol=0, atol=1e-12)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.integers(-4, 40), st.integers(-4, 40), st.integers(-4, 40),
                          st.booleans()), min_size=1, max_size=12),
       st.sampled_from([1.0, 2.5, 4.0]), st.booleans(), st.booleans())
def test_segment_rects_cover_the_stroke(spec, width, square, clipped):
    """Each rectangle is the bounding box of the pen's stroke of its segment
    (cut to the clip): filling it draws the stroke of an axis-aligned segment."""
    seg = np.array([[[a / 2, b / 2], [c / 2, b / 2]] if horizontal else
                    [[b / 2, a / 2], [b / 2, c / 2]] for a, b, c, horizontal in spec])
    pen = QPen(QColor("red"), width)
    pen.setCapStyle(Qt.PenCapStyle.SquareCap if square else Qt.PenCapStyle.FlatCap)
    clip = QRectF(0, 0, 15, 12) if clipped else None
    rects = _segment_rects(seg, pen, clip)
    assert rects is not None and rects.shape == (len(seg), 4)
    stroker = QPainterPathStroker(pen)
    for (x0, y0), (x1, y1) in seg.tolist():
        if (x0, y0) == (x1, y1):
            continue  # a zero-length segment strokes nothing
        path = QPainterPath()
        path.moveTo(x0, y0)
        path.lineTo(x1, y1)
        box = stroker.createStroke(path).boundingRect()
        if clip is not None:
            box = box.intersected(clip) if box.intersects(clip) else None
        row = rects[[i for i, s in enumerate(seg.tolist()) if s == [[x0, y0], [x1, y1]]][0]]
        if box is None:
            assert row[2] * row[3] == 0
        else:
            assert np.allclose(row, [box.x(), box.y(), box.width(), box.height()], atol=1e-9)
    diagonal = np.array([[[0.0, 0.0], [1.0, 1.0]]])
    assert _segment_rects(np.concatenate([seg, diagonal]), pen, clip) is None


def _render(draw) -> QImage:
    img = QImage(64, 48, QImage.Format.Format_ARGB32_Premultiplied)
    img.fill(0)
    p = QPainter(img)
    draw(p)
    p.end()
    return img


def test_line_group_draws_its_rectangles_from_the_array(qapp):
    seg = np.array([[[2.0, 3.0], [30.0, 3.0]], [[10.0, 5.0], [10.0, 40.0]],
                    [[40.0, 20.0], [60.0, 20.0]]])
    pen = QPen(QColor(200, 30, 30), 4)
    pen.setCapStyle(Qt.PenCapStyle.SquareCap)
    group = LineGroup(seg, [pen])
    (rects,) = group.rects
    assert rects is not None

    def by_list(p: QPainter) -> None:
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(pen.color())
        p.drawRects([QRectF(*r) for r in rects.tolist()])

    drawn = _render(group.paint)
    assert drawn == _render(by_list)
    assert drawn != _render(lambda p: None)


def test_graph_layer_runs_the_rule_once_per_refresh_and_draws_each_chunks_pairs(
        qapp, monkeypatch):
    from sodwa_editor.editor.scene.graph_item import GraphLayer
    from sodwa_editor.engine import adjacency

    m = make_mixed_map(40, seed=3)
    layer = GraphLayer()
    calls = []
    real = adjacency.pair_classes
    monkeypatch.setattr(adjacency, "pair_classes",
                        lambda *a, **k: calls.append(k.get("rect")) or real(*a, **k))
    layer.bind(m)
    n = layer.chunk
    assert n == 8  # a map up to 64 a side: 8x8-tile chunks
    rebuilt = []
    real_rebuild = layer._rebuild
    monkeypatch.setattr(layer, "_rebuild", lambda m, cx, cy, *a: rebuilt.append((cx, cy))
                        or real_rebuild(m, cx, cy, *a))
    m.set_terrain(16, 16, 2)  # on a chunk corner: four chunks rebuilt
    calls.clear()
    layer.refresh(Rect(16, 16, 16, 16))
    assert len(calls) == 1
    assert sorted(rebuilt) == [(1, 1), (1, 2), (2, 1), (2, 2)]
    # a pair's class depends on its 2x2 block, kept with its top-left tile: a tile
    # on a chunk's last column and row changes pairs of that chunk only
    m.set_terrain(15, 15, 2)
    rebuilt.clear()
    layer.refresh(Rect(15, 15, 15, 15))
    assert rebuilt == [(1, 1)]
    chunks = {(cx, cy) for cx, cy, _plane in layer.chunks}
    for cx, cy in chunks:  # each class's halo and line in planes 2 * class and 2 * class + 1
        rect = Rect(cx * n, cy * n, min(40, (cx + 1) * n) - 1, min(40, (cy + 1) * n) - 1)
        ref = {c: v for c, v in pair_lines(m, rect).items() if v}
        drawn = {plane: [g.segments.tolist() for g in item.groups]
                 for (x, y, plane), item in layer.chunks.items() if (x, y) == (cx, cy)}
        assert drawn == {2 * c + pen: [(np.concatenate(v) * TILE).tolist()]
                         for c, v in ref.items() for pen in (0, 1)}
    for side, chunk in ((64, 8), (65, 16), (256, 16)):  # bigger maps, bigger chunks
        layer.bind(MapModel(side, 10))
        assert layer.chunk == chunk


def test_a_stroke_redraws_only_near_its_tiles_and_leaves_what_a_full_repaint_draws(
        make_window, qtbot):
    """Chunks rebuilt by a stroke redraw only the area near the edit (their
    cached pixmap and the view); the window then shows exactly what a repaint
    of everything shows (the offscreen screen grabs the window's backing store,
    which holds what the partial repaints left)."""
    from PySide6.QtWidgets import QApplication

    from sodwa_editor.editor.testing import move, press, release

    win = make_window(make_mixed_map(40, seed=2))
    win.resize(1000, 800)
    win.action_map["preview_graph"].setChecked(True)
    win.view.set_zoom(20 / TILE)  # tiles of 20 pixels: the graph is drawn
    win.view.center_on_tile(16, 16)
    win.set_tool("brush")
    win.state.set("terrain_id", win.document.model.registry.id_of("obstructing"))
    app = QApplication.instance()
    for _ in range(3):
        app.processEvents()
    graph = win.scene.items_by_name["graph"]
    corner = graph.chunks[(0, 0, 0)]
    updates = []
    real_update = type(corner).update
    qtbot_patch = pytest.MonkeyPatch()
    qtbot_patch.setattr(type(corner), "update",
                        lambda self, *a: updates.append((self, *a)) or real_update(self, *a))
    press(win.view, 14.5, 16.5)  # along row 16, on the chunk boundary at x 16
    for x in range(15, 20):
        move(win.view, x + 0.5, 16.5, Qt.MouseButton.LeftButton)
        app.processEvents()
    release(win.view, 19.5, 16.5)
    qtbot_patch.undo()
    partial = [a[0] for item, *a in updates if a]
    assert partial and all(r.width() <= 6 * TILE and r.height() <= 4 * TILE for r in partial)
    assert_shows_what_a_full_repaint_draws(win, app)



@pytest.mark.parametrize("tile_px", [20, 12.3])
def test_a_stroke_step_repaints_the_view_near_its_tile_not_the_whole_graph_chunk(
        make_window, tile_px):
    """With the adjacency graph shown, a brush step repaints the view around
    the tile it painted (the lines that changed and their neighbours), not
    the whole 8x8-tile graph chunk the tile is in; the window then shows
    exactly what drawing everything afresh shows, the graph's one-pixel
    diagonal lines included."""
    from PySide6.QtCore import QEvent, QObject
    from PySide6.QtWidgets import QApplication

    from sodwa_editor.editor.testing import move, press, release

    class Regions(QObject):
        def __init__(self) -> None:
            super().__init__()
            self.rects: list = []

        def eventFilter(self, obj, event):  # noqa: N802 (Qt override)
            if event.type() == QEvent.Type.Paint:
                self.rects.append(event.region().boundingRect())
            return False

    win = make_window(MapModel(64, 64))  # the graph in 8x8-tile chunks
    win.resize(1000, 800)
    win.action_map["preview_graph"].setChecked(True)
    assert win.scene.items_by_name["graph"].chunk == 8
    win.view.set_zoom(tile_px / TILE)
    win.view.center_on_tile(12, 12)
    win.set_tool("brush")
    win.state.set("terrain_id", win.document.model.registry.id_of("obstructing"))
    app = QApplication.instance()
    press(win.view, 10.5, 12.5)  # tiles 10 and 11 of row 12: inside chunk (1, 1)
    for _ in range(3):
        app.processEvents()
    regions = Regions()
    win.view.viewport().installEventFilter(regions)
    move(win.view, 11.5, 12.5, Qt.MouseButton.LeftButton)
    for _ in range(3):
        app.processEvents()
    win.view.viewport().removeEventFilter(regions)
    assert win.document.model.terrain[12, 11] == win.state.terrain_id
    assert regions.rects
    chunk_px = 8 * tile_px
    for r in regions.rects:  # the graph around tile 11 (2 tiles), the outline, the hover
        assert r.width() <= 0.75 * chunk_px and r.height() <= 0.75 * chunk_px, r
    release(win.view, 11.5, 12.5)
    assert_shows_what_a_full_repaint_draws(win, app)


@pytest.mark.parametrize("tile_px", [16, 23.7, 12.3])
def test_terrain_and_elevation_strokes_under_a_pinned_fan_leave_what_a_full_repaint_draws(
        make_window, tile_px):
    """Terrain and elevation strokes under a pinned fan (previews waiting for
    the end of each stroke, level numbers drawn as prepared static texts)
    repaint only what they change: the window then shows exactly what drawing
    everything afresh shows."""
    from PySide6.QtWidgets import QApplication

    from sodwa_editor.editor.testing import move, press, release

    win = make_window(make_mixed_map(40, seed=2))
    win.resize(1000, 800)
    win.action_map["preview_graph"].setChecked(True)
    win.action_map["preview_los"].setChecked(True)
    win.view.set_zoom(tile_px / TILE)  # level numbers and the graph are drawn
    win.view.center_on_tile(16, 16)
    win.previews.pin((18, 20))
    app = QApplication.instance()
    strokes = [("brush", "terrain_id", 2, [(9.5, 12.5), (14.5, 14.5), (14.5, 20.5)]),
               ("elevation", "elevation_mode", "raise", [(20.5, 9.5), (24.5, 9.5), (24.5, 13.5)]),
               ("brush", "terrain_id", 0, [(12.5, 14.5), (14.5, 17.5)]),
               ("elevation", "elevation_mode", "lower", [(22.5, 9.5), (22.5, 12.5)])]
    for tool, key, value, points in strokes:
        win.set_tool(tool)
        win.state.set(key, value)
        press(win.view, *points[0])
        for a, b in zip(points, points[1:], strict=False):
            for t in np.linspace(0, 1, 8)[1:]:
                move(win.view, a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t,
                     Qt.MouseButton.LeftButton)
        release(win.view, *points[-1])
    assert_shows_what_a_full_repaint_draws(win, app)


@pytest.mark.parametrize("tile_px", [20, 32, 48])
def test_the_graph_in_small_chunks_draws_what_one_chunk_for_the_whole_map_draws(
        make_window, monkeypatch, tile_px):
    """The adjacency graph on a map up to 64 a side is kept in 8x8-tile chunks;
    on screen it must not show the chunks: a chunk's white halos must not
    cover the lines and "not adjacent" ticks of the chunk drawn before it
    where their lines meet (issue 24: ticks and line ends were lost along
    every chunk boundary).  Each pen is drawn in a plane over all chunks, so
    the view shows what one chunk holding the whole map shows."""
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication

    from sodwa_editor.editor.scene import graph_item
    from sodwa_editor.engine import samples

    win = make_window(samples.indoor_compound())
    win.resize(1000, 760)
    app = QApplication.instance()
    win.view.setFocus()
    QTest.keyClick(win.view, Qt.Key.Key_G, Qt.KeyboardModifier.ControlModifier
                   | Qt.KeyboardModifier.ShiftModifier)  # Preview > Adjacency Graph
    graph = win.scene.items_by_name["graph"]
    assert graph.isVisible() and graph.chunk == 8
    win.view.set_zoom(tile_px / TILE)
    win.view.center_on_tile(10, 7)
    for _ in range(3):
        app.processEvents()
    small = win.view.viewport().grab().toImage()
    monkeypatch.setattr(graph_item, "CHUNK", 64)  # one chunk for the whole 20x14 map
    monkeypatch.setattr(graph_item, "TINY_CHUNKS_UP_TO", 0)
    monkeypatch.setattr(graph_item, "SMALL_CHUNKS_UP_TO", 0)
    graph.bind(win.document.model)
    assert graph.chunk == 64 and {key[:2] for key in graph.chunks} == {(0, 0)}
    for _ in range(3):
        app.processEvents()
    whole = win.view.viewport().grab().toImage()
    assert small == whole
