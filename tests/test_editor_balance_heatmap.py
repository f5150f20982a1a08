"""The balance heat map's counts (issue 24 section 3): they never overlap the level
numbers and never hide under tokens, at any zoom they are drawn at.

Two heat maps whose counts differ by a factor of ten have the same colours (the
colours are scaled to the highest count), so the pixels where their pictures differ
are the counts' own.  Those pixels must lie outside every level number's text box,
and be the same with a token on the tile as without it (a count under a token loses
the pixels the token covers)."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import QPointF, QRectF

from sodwa_editor.editor.balance.heatmap import COUNT_MIN_PX, count_font_px
from sodwa_editor.editor.style import TILE
from sodwa_editor.engine.model import Character, MapModel

LEVEL_TILE = (1, 1)  # elevated, no token
TOKEN_TILE = (4, 1)  # a token, not elevated


def heat_map_model(token: bool) -> MapModel:
    m = MapModel(6, 3)
    m.elevation[LEVEL_TILE[1], LEVEL_TILE[0]] = 1
    if token:
        m.characters["k"] = Character("k", "blue", *TOKEN_TILE, name="Knight")
    m.characters["z"] = Character("z", "red", 5, 2)
    m.notify_bulk_change()
    return m


def report(scale: int) -> dict:
    counts = [[*LEVEL_TILE, 7], [*TOKEN_TILE, 3], [0, 0, 9]]
    return {"tiles": {"width": 6, "height": 3,
                      "defeated": [[x, y, n * scale] for x, y, n in counts]}}


def picture(win, qtbot, scale: int) -> np.ndarray:
    win.heat_map.show_report(report(scale), "defeated")
    win.scene.flush()
    image = win.view.viewport().grab().toImage()
    qtbot.wait(1)
    ptr = image.convertToFormat(image.Format.Format_RGBA8888)
    return np.frombuffer(ptr.constBits(), np.uint8).reshape(
        ptr.height(), ptr.bytesPerLine() // 4, 4)[:, :ptr.width(), :3].copy()


def to_pixels(win, rect: QRectF) -> tuple[int, int, int, int]:
    """A scene rectangle as viewport pixel bounds (x0, y0, x1, y1), inclusive-exclusive,
    grown by a pixel for antialiasing."""
    r = win.view.mapFromScene(rect).boundingRect()
    return r.left() - 1, r.top() - 1, r.right() + 2, r.bottom() + 2


def count_pixels(win, qtbot) -> np.ndarray:
    """Where the counts' pixels are: the two heat maps' pictures differ."""
    a, b = picture(win, qtbot, 1), picture(win, qtbot, 10)
    return np.any(a != b, axis=2)


@pytest.mark.parametrize("zoom", [1.0, 1.25, 1.5625, 2.0, 3.0])
def test_counts_never_overlap_level_numbers_nor_hide_under_tokens(make_window, qtbot, zoom):
    wins = [make_window(heat_map_model(token)) for token in (False, True)]
    masks = []
    for win in wins:
        win.resize(1400, 900)
        win.view.set_zoom(zoom)
        win.view.centerOn(QPointF(3 * TILE, 1.5 * TILE))
        qtbot.wait(10)
        masks.append(count_pixels(win, qtbot))
    plain, with_token = masks
    assert wins[0].view.mapFromScene(QPointF(0, 0)) == wins[1].view.mapFromScene(QPointF(0, 0))
    tile_px = TILE * zoom
    x, y = TOKEN_TILE
    x0, y0, x1, y1 = to_pixels(wins[1], QRectF(x * TILE, y * TILE, TILE, TILE))
    drawn = plain[y0:y1, x0:x1].any()
    assert drawn == (count_font_px(tile_px) is not None) == (tile_px >= COUNT_MIN_PX)
    # the token hides none of the count's pixels
    assert np.array_equal(plain, with_token)
    # the count stays in the tile's top strip, above the token's label
    strip_bottom = y0 + 1 + round(0.28 * tile_px) + 1
    assert not with_token[strip_bottom:y1, x0:x1].any()
    # and never in a level number's text box
    labels = wins[0].scene.items_by_name["elevation_labels"]
    text, dx, dy = labels.texts[1]
    lx, ly = LEVEL_TILE
    box = QRectF(lx * TILE + dx, ly * TILE + dy, text.size().width(), text.size().height())
    bx0, by0, bx1, by1 = to_pixels(wins[0], box)
    assert not plain[by0 + 1:by1 - 1, bx0 + 1:bx1 - 1].any()
    if drawn:  # the count on the elevated tile is drawn too, in its corner
        tx0, ty0, tx1, ty1 = to_pixels(wins[0], QRectF(lx * TILE, ly * TILE, TILE, TILE))
        assert plain[ty0:ty1, tx0:tx1].any()
