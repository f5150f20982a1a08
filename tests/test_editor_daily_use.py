"""Daily use, second pass (issue 24, section 4 "Editor"): what made a designer
misclick, misread or wait, each driven with real mouse and keyboard events on
the window: saving keeps the view, the status bar reads the map as it is after
every edit, Enter in a Layers dock box gives the keys back, Help > Legend
raises the Legend, the minimap on small maps and its drawing, notes that read
over anything and stay off what they speak of, the paste preview's warnings,
the fill preview, the hover square during drags, and the layout."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest
from PySide6.QtCore import QRectF, QSettings, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from sodwa_editor.editor.style import TILE
from sodwa_editor.editor.testing import click_tile, drag_tiles, move, press, release
from sodwa_editor.engine import samples
from sodwa_editor.engine.model import Edge, MapModel
from sodwa_editor.engine.terrain import Base
from sodwa_editor.io import save_map

CTRL = Qt.KeyboardModifier.ControlModifier
LEFT = Qt.MouseButton.LeftButton


def settle(n: int = 3) -> None:
    for _ in range(n):
        QApplication.processEvents()


def centre(win) -> tuple[float, float]:
    c = win.view.mapToScene(win.view.viewport().rect().center())
    return c.x() / TILE, c.y() / TILE


def key(win, k, modifiers=Qt.KeyboardModifier.NoModifier) -> None:
    """A key pressed where the keyboard is (the focus widget), as a person types it."""
    QTest.keyClick(QApplication.focusWidget() or win, k, modifiers)
    settle(1)


# --------------------------------------------------------------------- saving
def test_ctrl_s_never_moves_the_view(qtbot, tmp_path):
    """Zoomed to 150 % on the team zones, an edit, Ctrl+S: the view stays where it
    is (it jumped to the view the file was opened with, 180 % at the room)."""
    from sodwa_editor.editor.main_window import MainWindow

    path = tmp_path / "keep.json"
    save_map(samples.tiered_keep(), path)
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)

    def run() -> MainWindow:
        from sodwa_editor.io import read_map

        win = MainWindow(read_map(path)[0], path, settings=settings,
                         recovery_dir=tmp_path / "recovery")
        win.show()
        qtbot.waitExposed(win)
        settle()
        return win

    first = run()
    first.view.set_zoom(1.8)
    first.view.center_on_tile(7, 7)  # the keep
    first.close()  # remembers where the file was left
    win = run()
    assert win.view.zoom() == pytest.approx(1.8)  # opened where it was left
    win.view.setFocus()
    key(win, Qt.Key.Key_1, CTRL)
    win.view.center_on_tile(7, 14)  # the team zones
    key(win, Qt.Key.Key_Equal, CTRL)
    key(win, Qt.Key.Key_Equal, CTRL)
    zoom, place = win.view.zoom(), centre(win)
    assert zoom == pytest.approx(1.5625)
    key(win, Qt.Key.Key_B)
    click_tile(win.view, 9, 14)  # an edit
    assert win.document.modified
    for _ in range(3):
        key(win, Qt.Key.Key_S, CTRL)
        settle()
        assert not win.document.modified
        assert win.view.zoom() == pytest.approx(zoom)
        assert centre(win) == pytest.approx(place, abs=0.05)
    win.close()


# ------------------------------------------------------------------ status bar
def _obstruction_room() -> MapModel:
    m = MapModel(12, 9)
    m.set_terrain(5, 4, int(Base.OBSTRUCTING))
    m.elevation[1:4, 8:11] = 1
    m.notify_bulk_change()
    return m


@pytest.mark.parametrize("gesture", ["click", "fill", "plateau", "stair", "escape", "undo"])
def test_the_status_bar_reads_the_map_after_every_edit_without_a_move(make_window, gesture):
    """The terrain read-out follows the document, not only the pointer: after a
    click edit, a fill, a plateau, a stair, Escape or Ctrl+Z it says what the
    tile is now, with the pointer still (it kept the state before the edit until the
    mouse moved, and the designer clicked a cycling tool once too often)."""
    win = make_window(_obstruction_room())
    view = win.view
    view.setFocus()
    label = win.terrain_label
    if gesture == "click":
        key(win, Qt.Key.Key_I)  # In/Out: map default -> indoor -> outdoor -> default
        move(view, 5.5, 4.5)
        assert label.text() == "obstructing, level 0, outdoor"
        press(view, 5.5, 4.5)
        release(view, 5.5, 4.5)
        assert label.text() == "obstructing, level 0, indoor"
    elif gesture == "fill":
        key(win, Qt.Key.Key_F)
        win.state.set("terrain_id", int(Base.IMPEDING))  # as the palette does
        move(view, 1.5, 7.5)
        assert label.text() == "clear, level 0"
        press(view, 1.5, 7.5)
        release(view, 1.5, 7.5)
        assert label.text() == "impeding, level 0"
    elif gesture == "plateau":
        key(win, Qt.Key.Key_H)
        win.state.set("elevation_mode", "plateau")
        win.state.set("elevation_level", 3)
        drag_tiles(view, [(1, 6), (2, 7), (3, 7)])
        assert label.text() == "clear, level 3"
    elif gesture == "stair":
        key(win, Qt.Key.Key_T)
        move(view, 7.95, 2.5)  # on the edge west of the raised block
        assert label.text() == "clear, level 0"
        press(view, 7.95, 2.5)
        release(view, 7.95, 2.5)
        assert win.document.model.transition[2, 7]
        assert label.text() == "clear, level 0 transition"
    elif gesture == "undo":
        key(win, Qt.Key.Key_B)
        win.state.set("terrain_id", int(Base.IMPEDING))
        move(view, 2.5, 2.5)
        press(view, 2.5, 2.5)
        release(view, 2.5, 2.5)
        assert label.text() == "impeding, level 0"
        key(win, Qt.Key.Key_Z, CTRL)  # Edit > Undo, the pointer still
        assert win.document.model.terrain[2, 2] == 0
        assert label.text() == "clear, level 0"
        key(win, Qt.Key.Key_Y, CTRL)  # Edit > Redo
        assert label.text() == "impeding, level 0"
    else:
        key(win, Qt.Key.Key_B)
        win.state.set("terrain_id", int(Base.IMPEDING))
        move(view, 2.5, 2.5)
        press(view, 2.5, 2.5)
        move(view, 3.5, 2.5, LEFT)
        assert label.text() == "impeding, level 0"
        key(win, Qt.Key.Key_Escape)  # the stroke taken back, the pointer still
        assert win.document.model.terrain[2, 3] == 0
        assert label.text() == "clear, level 0"
        release(view, 3.5, 2.5)


# ------------------------------------------------------------------ keyboard
@pytest.mark.parametrize("box", ["opacity", "move"])
def test_enter_in_a_layers_dock_box_gives_the_keys_back_to_the_map(make_window, box):
    win = make_window(MapModel(24, 16))
    win.set_tool("select")
    move(win.view, 6.5, 5.5)
    spin = win.layers.opacity["grid"] if box == "opacity" else win.layers.move_spin
    QTest.mouseClick(spin.lineEdit(), LEFT)  # into the box with the mouse
    assert QApplication.focusWidget() is not win.view
    spin.lineEdit().selectAll()
    QTest.keyClicks(QApplication.focusWidget(), "7")
    key(win, Qt.Key.Key_Return)
    settle()
    assert spin.value() == 7
    assert QApplication.focusWidget() is win.view
    key(win, Qt.Key.Key_B)  # single-key shortcuts reach the tools, not the box
    assert win.tool is win.tools["brush"]
    key(win, Qt.Key.Key_P)
    assert win.previews.pinned == (6, 5)
    assert spin.value() == 7


# --------------------------------------------------------------------- legend
def test_help_legend_raises_the_legend_and_never_hides_it(make_window, qtbot):
    from test_editor_help import _click_menu_entry

    win = make_window()
    legend = win.docks["legend"]
    win.docks["validation"].raise_()  # the Legend a background tab
    settle()
    assert legend.visibleRegion().isEmpty()
    _click_menu_entry(win, qtbot, "Help", "Legend")
    assert legend.isVisible() and not legend.visibleRegion().isEmpty()
    _click_menu_entry(win, qtbot, "Help", "Legend")  # again: still in front
    assert legend.isVisible() and not legend.visibleRegion().isEmpty()
    legend.close()
    _click_menu_entry(win, qtbot, "Help", "Legend")
    assert legend.isVisible() and not legend.visibleRegion().isEmpty()


# ------------------------------------------------------------------ hover
@pytest.mark.parametrize("tool, setting", [
    ("rect", None), ("line", None), ("elevation", ("elevation_mode", "plateau")),
    ("zone", ("zone_mode", "rectangle")), ("select", None)])
def test_the_hover_square_follows_the_pointer_during_a_drag(make_window, tool, setting):
    """During a rectangle, line, plateau, zone or selection drag the hover square is
    on the tile under the pointer (it stayed on the tile pressed)."""
    win = make_window(MapModel(16, 12))
    win.view.setFocus()
    key(win, getattr(Qt.Key, f"Key_{win.tools[tool].shortcut}"))
    assert win.tool is win.tools[tool]
    if setting is not None:
        win.state.set(*setting)  # as the tool options bar does
    move(win.view, 2.5, 2.5)
    press(win.view, 2.5, 2.5)
    for x, y in ((3, 3), (5, 4), (6, 5)):
        move(win.view, x + 0.5, y + 0.5, LEFT)
        assert win.scene.hover.tiles == [(x, y)]
    release(win.view, 6.5, 5.5)


# --------------------------------------------------------------------- notes
def _bare_stair_edge(m: MapModel) -> Edge:
    """An edge between two levels with no transition border and no transition tile
    beside it (a click there makes a stair)."""
    for y in range(m.height):
        for x in range(m.width - 1):
            e = Edge(x, y, "E")
            if (m.elevation[y, x] != m.elevation[y, x + 1] and not m.is_transition_edge(e)
                    and not m.transition[y, x] and not m.transition[y, x + 1]):
                return e
    raise AssertionError("no bare edge between two levels")


def test_a_note_reads_over_the_map_and_never_covers_the_stair_it_made(make_window):
    """The stair confirmation is drawn beside the pointer, off the stair's tiles, on
    a backdrop that hides the zones, tokens and graph lines under it (magenta
    text with no backdrop was unreadable there, and covered the stair)."""
    from sodwa_editor.editor.notes import NOTE_BACKDROP

    m = samples.tiered_keep()
    edge = _bare_stair_edge(m)
    win = make_window(m)
    win.resize(900, 700)
    win.view.set_zoom(1.5)
    win.view.center_on_tile(edge.x, edge.y)
    settle()
    win.view.setFocus()
    key(win, Qt.Key.Key_G, CTRL | Qt.KeyboardModifier.ShiftModifier)  # the adjacency graph
    key(win, Qt.Key.Key_T)
    at = (edge.x + 0.97, edge.y + 0.5)  # on the edge, in the west tile
    move(win.view, *at)
    press(win.view, *at)
    release(win.view, *at)
    settle()
    (ax, ay), (bx, by) = edge.tiles
    low = (ax, ay) if m.elevation[ay, ax] < m.elevation[by, bx] else (bx, by)
    assert win.document.model.transition[low[1], low[0]]  # the stair was made
    note = win.last_note
    assert note is not None and note.scene() is win.scene and "Stair made" in note.text()
    view = win.view
    shown = QRectF(view.viewportTransform().map(note.pos()), note.boundingRect().size())
    stair = view.viewportTransform().mapRect(
        QRectF(min(ax, bx) * TILE, ay * TILE, 2 * TILE, TILE))  # both tiles of the edge
    assert QRectF(view.viewport().rect()).contains(shown)
    assert not shown.intersects(stair)
    image = view.viewport().grab().toImage()
    x = int(shown.left()) + 4  # inside the frame, left of the text: the backdrop only
    colours = {image.pixelColor(x, y).getRgb()[:3]
               for y in range(int(shown.top()) + 4, int(shown.bottom()) - 4)}
    assert all(min(c) >= NOTE_BACKDROP.alpha() - 15 for c in colours), colours


# ------------------------------------------------------------------- minimap
def test_reset_layout_on_a_small_map_leaves_the_minimap_hidden_and_its_entry_unchecked(
        make_window, qtbot):
    from test_editor_help import _click_menu_entry

    win = make_window(MapModel(24, 16))
    dock = win.docks["minimap"]
    assert not dock.isVisible() and not dock.toggleViewAction().isEnabled()
    _click_menu_entry(win, qtbot, "View", "Reset Layout")
    settle()
    action = dock.toggleViewAction()
    assert not dock.isVisible()
    assert not action.isEnabled() and not action.isChecked()  # not disabled but checked
    win.document.reset(MapModel(100, 80), None)  # a big map: the default, shown
    assert dock.isVisible() and action.isEnabled() and action.isChecked()


def _minimap_image(win):
    minimap = win.minimap
    settle()
    return minimap, minimap.grab().toImage(), minimap.map_rect()


@pytest.mark.parametrize("side, big", [(64, False), (200, False), (64, True)])
def test_the_minimap_draws_walls_and_characters_as_tile_sized_dots_inside_it(
        make_window, side, big):
    """Walls in black; each character a dot its tile's width (at least 4 px),
    outline and smoothing included, inside the map and over the view's frame
    (dots were two tiles wide, and a dot on the map's edge spilled out of it
    under the frame).  In the docked minimap a tile is 3.4 px on 64x64 and 1 px
    on 200x200 (a dot at a corner is moved inward to lie inside the map); in a
    big floating minimap a 64x64 tile is 9 px, and so is the dot."""
    from sodwa_editor.engine.model import Character

    def walled() -> MapModel:
        m = MapModel(side, side)
        for y in range(10, 50):
            m.set_border(Edge(31, y, "E"), int(Base.OBSTRUCTING))  # a wall at x = 32
        return m

    images = []
    for people in (False, True):
        m = walled()
        if people:
            m.put_character(Character("nw", "red", 0, 0))
            m.put_character(Character("se", "red", side - 1, side - 1))
            m.put_character(Character("mid", "red", 12, 30))
        win = make_window(m)
        if big:
            dock = win.docks["minimap"]
            dock.setFloating(True)
            dock.resize(640, 640)
        win.view.setFocus()
        key(win, Qt.Key.Key_0, CTRL)  # the whole map in the view: its frame on the map's edge
        minimap, image, r = _minimap_image(win)
        images.append(image)
        # (left open: closed, it would leave its layout to the next window)
    bare, image = images
    s = r.width() / side
    assert (s > 6) == big  # a big minimap: the dot a tile wide, outlined
    wide = max(s, 4.0)
    assert bare.size() == image.size()

    def px(fx: float, fy: float):
        return image.pixelColor(int(r.left() + fx * s), int(r.top() + fy * s))

    assert px(32, 30).lightness() < 60  # the wall, black
    assert px(32, 5).lightness() > 150 and px(28, 30).lightness() > 150  # clear ground
    assert minimap.view_rect().adjusted(-2, -2, 2, 2).contains(r)  # the frame on the edge
    for cx, cy in ((0.5, 0.5), (side - 0.5, side - 0.5), (12.5, 30.5)):
        x0, y0 = int(r.left() + cx * s), int(r.top() + cy * s)
        dot = [(x, y) for x in range(x0 - 12, x0 + 13) for y in range(y0 - 12, y0 + 13)
               if 0 <= x < image.width() and 0 <= y < image.height()
               and image.pixel(x, y) != bare.pixel(x, y)]  # what the character changed
        assert dot, (cx, cy)
        xs, ys = [x for x, _ in dot], [y for _, y in dot]
        # a tile wide: its pixels, a part of the pixels on either side
        assert max(xs) - min(xs) + 1 <= wide + 2 and max(ys) - min(ys) + 1 <= wide + 2, \
            (cx, cy, s, min(xs), max(xs), min(ys), max(ys))
        assert int(r.left()) <= min(xs) and max(xs) <= int(r.right()), (cx, cy)  # inside
        assert int(r.top()) <= min(ys) and max(ys) <= int(r.bottom()), (cx, cy)
        red = [(x, y) for x, y in dot if image.pixelColor(x, y).red() > 150
               and image.pixelColor(x, y).green() < 90]
        assert len(red) >= 4, (cx, cy)  # in the team colour, in sight over the frame


# ---------------------------------------------------------------------- fill
def test_the_fill_preview_shows_the_new_terrain_under_tokens_and_only_where_it_changes(
        make_window):
    """Hovering with the Fill tool tints the region with the fill of the terrain the
    click paints (it was the preview blue, which reads as Liquid or the blue team),
    under the tokens, and leaves a region already of that terrain as it is."""
    from sodwa_editor.editor.style import FILL
    from sodwa_editor.editor.testing import view_point
    from sodwa_editor.engine.model import Character

    m = MapModel(16, 12)
    for y in range(7, 10):
        for x in range(10, 14):
            m.set_terrain(x, y, int(Base.IMPEDING))
    m.put_character(Character("k", "blue", 5, 5, name="Knight"))
    win = make_window(m)
    view = win.view
    view.setFocus()
    key(win, Qt.Key.Key_F)
    palette = win.palette_dock.list
    row = palette.item(int(Base.IMPEDING))
    QTest.mouseClick(palette.viewport(), LEFT, pos=palette.visualItemRect(row).center())
    assert win.state.terrain_id == int(Base.IMPEDING)
    view.setFocus()
    move(view, 14.5, 1.5)
    move(view, 15.9, 11.9)  # nothing hovered on the tiles looked at below
    win.tool._clear()
    plain = view.viewport().grab().toImage()
    move(view, 2.5, 2.5)  # the clear ground: the click turns it impeding
    assert win.statusBar().currentMessage().startswith("Fill: click changes")
    tinted = view.viewport().grab().toImage()
    inside = tinted.pixelColor(view_point(view, 7.5, 2.5))
    want = FILL[Base.IMPEDING]
    assert abs(inside.red() - want[0]) + abs(inside.green() - want[1]) + \
        abs(inside.blue() - want[2]) < 40, inside.getRgb()
    assert inside.blue() < inside.green() and inside.blue() < inside.red()  # not blue
    token = view_point(view, 5.5, 5.5)  # the middle of the token: under it, nothing shows
    assert tinted.pixelColor(token) == plain.pixelColor(token)
    move(view, 11.5, 8.5)  # already impeding: nothing would change, nothing tinted
    assert "already impeding" in win.statusBar().currentMessage()
    same = view.viewport().grab().toImage()
    for x, y in ((10.5, 7.5), (13.5, 9.5), (12.5, 7.2)):
        assert same.pixelColor(view_point(view, x, y)) == plain.pixelColor(view_point(view, x, y))


def test_the_fill_preview_and_its_count_follow_the_click_and_undo_under_a_still_pointer(
        make_window):
    """After a fill click, with the pointer still, the status bar says the region
    is now of that terrain and nothing is tinted; Ctrl+Z brings back the tint and
    the count (the bar kept "click changes N tiles" after the click, and the
    preview stayed away after an undo until the mouse moved)."""
    m = MapModel(16, 12)
    m.set_terrain(12, 8, int(Base.IMPEDING))
    win = make_window(m)
    view = win.view
    view.setFocus()
    key(win, Qt.Key.Key_F)
    palette = win.palette_dock.list
    row = palette.item(int(Base.IMPEDING))
    QTest.mouseClick(palette.viewport(), LEFT, pos=palette.visualItemRect(row).center())
    view.setFocus()
    move(view, 3.5, 3.5)
    preview = win.scene.fill_preview
    assert preview.isVisible() and preview.mask_shape is not None
    assert win.statusBar().currentMessage().startswith("Fill: click changes 191 clear")
    press(view, 3.5, 3.5)
    release(view, 3.5, 3.5)
    settle()
    assert win.document.model.terrain[3, 3] == int(Base.IMPEDING)
    assert "already impeding" in win.statusBar().currentMessage()
    assert preview.mask_shape is None  # nothing a click would change
    key(win, Qt.Key.Key_Z, CTRL)  # Edit > Undo, the pointer still
    settle()
    assert win.document.model.terrain[3, 3] == 0
    assert win.statusBar().currentMessage().startswith("Fill: click changes 191 clear")
    assert preview.mask_shape is not None and preview.mask_shape.count == 191


# --------------------------------------------------------------------- paste
def _two_rooms() -> MapModel:
    """Room B (tiles 2..4 x 2..5) to copy, walled, its east wall impeding on row 4;
    room A (tiles 10..13 x 2..5), obstructing walls, a door in its west wall on
    row 3."""
    m = MapModel(18, 9)
    wall, fence = int(Base.OBSTRUCTING), int(Base.IMPEDING)

    def walls(x0: int, x1: int, y0: int, y1: int) -> None:
        for x in range(x0, x1 + 1):
            m.set_border(Edge(x, y0 - 1, "S"), wall)
            m.set_border(Edge(x, y1, "S"), wall)
        for y in range(y0, y1 + 1):
            m.set_border(Edge(x0 - 1, y, "E"), wall)
            m.set_border(Edge(x1, y, "E"), wall)

    walls(2, 4, 2, 5)
    m.set_border(Edge(4, 4, "E"), fence)
    walls(10, 13, 2, 5)
    m.set_border(Edge(9, 3, "E"), 0)  # the door
    return m


def test_the_paste_preview_marks_the_neighbours_borders_it_would_replace(make_window):
    """Pasting a walled room against another room marks the borders of that room
    the paste would change (a wall replaced by a fence, its door closed) and the
    status bar counts them, before the click (it replaced them silently)."""
    win = make_window(_two_rooms())
    view = win.view
    view.setFocus()
    key(win, Qt.Key.Key_S)
    drag_tiles(view, [(2, 2), (3, 4), (4, 5)])  # select room B
    key(win, Qt.Key.Key_C, CTRL)
    key(win, Qt.Key.Key_V, CTRL)
    move(view, 8.5, 4.5)  # its east outline on room A's west wall (stamp at 7..9 x 2..5)
    marks = win.tools["select"].marks
    assert marks.isVisible()
    assert sorted(marks.edges) == [Edge(9, 3, "E"), Edge(9, 4, "E")]  # the door, the fence
    text = win.statusBar().currentMessage()
    assert "replaces 1 border(s)" in text and "closes 1 door gap(s)" in text
    move(view, 5.5, 6.5)  # on open ground: nothing of a neighbour changes
    assert not marks.isVisible()
    assert "changes no border" in win.statusBar().currentMessage()
    move(view, 8.5, 4.5)
    image = view.viewport().grab().toImage()
    from sodwa_editor.editor.style import REPLACED_BORDER
    from sodwa_editor.editor.testing import view_point

    door = image.pixelColor(view_point(view, 10.0, 3.3))
    assert door == REPLACED_BORDER  # the marked door, drawn over the paste preview
    press(view, 8.5, 4.5)  # pasting anyway does what was marked
    release(view, 8.5, 4.5)
    assert win.document.model.border_at(Edge(9, 3, "E")) == int(Base.OBSTRUCTING)
    assert win.document.model.border_at(Edge(9, 4, "E")) == int(Base.IMPEDING)
    key(win, Qt.Key.Key_Escape)
    assert not marks.isVisible()


def test_the_paste_count_comes_back_when_a_note_over_it_expires(make_window, qtbot,
                                                                monkeypatch):
    """The paste's border count is said once per change; a note shown after it
    ("Click to place the stamp", on Ctrl+V again) hides it for a while, then the
    count is back (the status bar stayed empty until the count changed: seen in
    a real window, where the note lasts 6 s)."""
    from sodwa_editor.editor import context

    for kind in ("note", "brief"):
        monkeypatch.setitem(context.MESSAGE_KINDS, kind, 150)  # their 4-6 s, shortened
    win = make_window(_two_rooms())
    view = win.view
    view.setFocus()
    key(win, Qt.Key.Key_S)
    drag_tiles(view, [(2, 2), (3, 4), (4, 5)])  # select room B
    key(win, Qt.Key.Key_C, CTRL)
    key(win, Qt.Key.Key_V, CTRL)
    move(view, 8.5, 4.5)  # on room A's west wall
    bar = win.statusBar()
    assert "replaces 1 border(s)" in bar.currentMessage()
    key(win, Qt.Key.Key_V, CTRL)  # again: the note over the count
    assert bar.currentMessage().startswith("Click to place the stamp")
    qtbot.waitUntil(lambda: "replaces 1 border(s)" in bar.currentMessage(), timeout=3000)
    move(view, 8.6, 4.5)  # the same count: said again only by the status bar
    assert "replaces 1 border(s)" in bar.currentMessage()
    key(win, Qt.Key.Key_Escape)  # out of paste mode: the count is gone for good
    key(win, Qt.Key.Key_B)  # another tool ("Brush: ...", a brief message)
    qtbot.wait(400)  # expired: the paste's count does not come back
    assert bar.currentMessage() == ""


# ------------------------------------------------------------------ previews
def _grab(win):
    settle()
    return win.view.viewport().grab().toImage()


def test_graph_lines_do_not_strike_through_level_numbers(make_window):
    """With the adjacency graph shown, each level number sits on a plate its lines
    pass under (they ran through the digits at the tile centres)."""
    from sodwa_editor.editor import style

    m = MapModel(8, 6)
    m.elevation[1:5, 1:6] = 2
    m.notify_bulk_change()
    win = make_window(m)
    win.view.set_zoom(2.0)
    win.view.center_on_tile(3, 3)
    win.view.setFocus()
    key(win, Qt.Key.Key_G, CTRL | Qt.KeyboardModifier.ShiftModifier)
    image = _grab(win)
    labels = win.scene.items_by_name["elevation_labels"]
    text, dx, dy = labels.texts[2]
    size = text.size()
    graph = {style.GRAPH_CLEAR.rgb(), style.HALO.rgb()}
    for x, y in ((2, 2), (3, 3), (4, 2)):
        box = win.view.viewportTransform().mapRect(
            QRectF(x * TILE + dx, y * TILE + dy, size.width(), size.height()))
        hits = [(px, py) for px in range(int(box.left()) + 1, int(box.right()))
                for py in range(int(box.top()) + 1, int(box.bottom()))
                if image.pixel(px, py) in graph]
        assert not hits, (x, y, hits[:5])


def test_the_los_fan_and_the_graph_read_together_on_a_busy_map(make_window):
    """With the LoS fan on, the graph draws only what it has to say (the ticks of
    pairs that are not adjacent and the impeded pairs) and leaves the fan's
    shading and hatching alone everywhere else: the clear pairs' lines, dark
    blue and diagonal like the hatching, made both unreadable on a busy map."""
    import numpy as np

    from sodwa_editor.engine.adjacency import steps

    m = samples.outdoor_skirmish()
    win = make_window(m)
    win.resize(1100, 800)
    win.view.set_zoom(1.0)
    win.view.center_on_tile(12, 9)
    view = win.view
    view.setFocus()
    key(win, Qt.Key.Key_L, CTRL | Qt.KeyboardModifier.ShiftModifier)
    move(view, 2.5, 1.5)
    key(win, Qt.Key.Key_P)  # the fan pinned on the ranger's tile
    move(view, 23.9, 17.9)
    fan_only = _grab(win)
    key(win, Qt.Key.Key_G, CTRL | Qt.KeyboardModifier.ShiftModifier)
    both = _grab(win)
    step = steps(m).step  # per direction, per tile: its pair's class
    quiet = (step == 0).all(axis=0)  # all eight pairs of the tile clear
    seen = view.mapToScene(view.viewport().rect()).boundingRect()
    same = differ = 0
    for y, x in zip(*np.nonzero(quiet), strict=True):
        tile = QRectF(x * TILE + 8, y * TILE + 8, TILE - 16, TILE - 16)  # away from ticks
        if not seen.contains(tile) or m.elevation[y, x]:
            continue  # off screen; or with a level number on its plate
        box = view.viewportTransform().mapRect(tile).toRect()
        for px in range(box.left(), box.right(), 3):
            for py in range(box.top(), box.bottom(), 3):
                same += fan_only.pixel(px, py) == both.pixel(px, py)
                differ += fan_only.pixel(px, py) != both.pixel(px, py)
    assert same > 1000 and differ == 0
    assert fan_only != both  # the ticks and impeded pairs are still drawn


# -------------------------------------------------------------------- layout
def test_the_selection_outline_does_not_sit_on_the_walls(make_window):
    """A selected walled room shows its outline inside its tiles, clear of the
    walls on their edges (the dashed outline ran exactly along the walls)."""
    from sodwa_editor.editor.style import BORDER_WIDTH, OUTLINE, SELECTION
    from sodwa_editor.editor.testing import view_point

    win = make_window(_two_rooms())
    view = win.view
    view.set_zoom(1.5)
    view.center_on_tile(4, 4)
    view.setFocus()
    key(win, Qt.Key.Key_S)
    drag_tiles(view, [(2, 2), (4, 5)])
    lines = win.scene.selection.lines
    assert lines
    clear = BORDER_WIDTH / 2 + 1
    for ln in lines:
        along = ln.x1() if ln.x1() == ln.x2() else ln.y1()  # where the line runs
        off = along % TILE
        assert clear <= off <= TILE - clear, ln
    image = _grab(win)
    wall = OUTLINE[Base.OBSTRUCTING]
    for fy in (2.3, 3.5, 4.7):  # along room B's west wall: the wall, not the selection
        p = view_point(view, 2.0, fy)
        assert image.pixelColor(p) == wall, fy
    inside = [image.pixelColor(view_point(view, 2.0 + off / TILE, 3.5 + k / TILE))
              for off in range(8, 14) for k in range(-6, 7)]
    assert SELECTION in inside  # its dashes just inside the wall


def _in_modal(check) -> list:
    """Run ``check(dialog)`` on the next modal dialog once it is open (what a person
    does in it); the list gets what ``check`` returned, or the error it raised."""
    from PySide6.QtCore import QTimer

    out: list = []

    def run() -> None:
        dlg = QApplication.activeModalWidget()
        if dlg is None:
            QTimer.singleShot(20, run)
            return
        try:
            out.append(check(dlg))
        except Exception as exc:  # noqa: BLE001  (reported by the test after exec)
            out.append(exc)
            dlg.reject()

    QTimer.singleShot(20, run)
    return out


def _done(out: list) -> list:
    """What :func:`_in_modal` collected; the error ``check`` raised, raised here."""
    assert out, "no modal dialog was shown"
    if isinstance(out[0], Exception):
        raise out[0]
    return out


def test_the_resize_dialogs_anchor_buttons_show_arrows_from_the_anchor(make_window):
    """Each anchor button shows what it is: the map (a square) on the chosen anchor,
    arrows pointing the way the map grows elsewhere (they were blank squares)."""
    from sodwa_editor.editor.dialogs import ResizeDialog

    def dark_pixels(button) -> set:
        image = button.icon().pixmap(button.iconSize()).toImage()
        return {(x, y) for x in range(image.width()) for y in range(image.height())
                if image.pixelColor(x, y).alpha() > 128}

    def look(dlg) -> tuple:
        assert isinstance(dlg, ResizeDialog)
        buttons = [dlg.anchor_group.button(i) for i in range(9)]
        before = [dark_pixels(b) for b in buttons]
        QTest.mouseClick(buttons[8], LEFT)  # bottom-right
        after = [dark_pixels(b) for b in buttons]
        tips = [b.toolTip() for b in buttons]
        dlg.reject()
        return before, after, tips

    win = make_window(MapModel(20, 10))
    shown = _in_modal(look)
    win.action_map["resize"].trigger()  # Map > Resize Map...
    (before, after, tips), = _done(shown)
    assert all(before) and all(after)  # every button shows something
    centre = (10, 10)
    assert centre in before[0] and centre in after[8]  # the map: a filled square
    assert before[8] != after[8] and before[0] != after[0]  # they follow the anchor
    assert before[1] == before[2]  # both point right, away from the top-left anchor
    assert after[0] == {(19 - x, 19 - y) for x, y in before[8]}  # mirrored arrows
    assert "bottom right" in tips[8]


def test_export_png_and_the_pack_open_in_the_maps_folder(make_window, tmp_path, monkeypatch):
    from PySide6.QtWidgets import QFileDialog

    folder = tmp_path / "maps"
    folder.mkdir()
    path = folder / "keep.json"
    save_map(samples.tiered_keep(), path)
    win = make_window(samples.tiered_keep(), path)
    asked: list[str] = []

    def cancelled(_parent, _title, start, _filter):
        asked.append(start)
        return "", ""

    monkeypatch.setattr(QFileDialog, "getSaveFileName", cancelled)
    monkeypatch.chdir(tmp_path)  # the working folder is not the map's
    win.view.setFocus()
    key(win, Qt.Key.Key_E, CTRL | Qt.KeyboardModifier.ShiftModifier)  # File > Export PNG
    assert asked == [str(folder / "keep.png")]
    assert not win.files.export_pack(values={"maps": [path], "name": "demo", "version": "1"})
    assert asked[1] == str(folder / "demo.json")


def test_the_map_pack_dialog_takes_rules_and_roster_as_sodwa_pack_build(
        make_window, tmp_path, monkeypatch, capsys, qtbot):
    """Export Map Pack has the rules and roster files of ``sodwa pack build
    --rules/--roster``: a wrong file is refused with the command's own one-line
    message as soon as it is typed, and the pack carries the files given."""
    import json
    from pathlib import Path

    from PySide6.QtWidgets import QDialogButtonBox, QFileDialog

    from sodwa_editor import cli
    from sodwa_editor.editor.dialogs import ExportPackDialog

    root = Path(__file__).parents[1] / "resources"
    bad = tmp_path / "bad-rules.json"
    bad.write_text('{"x": 1}', encoding="utf-8")
    path = tmp_path / "keep.json"
    save_map(samples.tiered_keep(), path)
    cli.main(["pack", "build", str(path), "-o", str(tmp_path / "cli.json"), "--rules", str(bad)])
    said = capsys.readouterr().err.splitlines()[0].strip()  # the command's first problem
    assert said.startswith("error: ") and str(bad) in said
    win = make_window(samples.tiered_keep(), path)
    out = tmp_path / "pack.json"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a: (str(out), ""))

    def fill_in(dlg) -> str:
        assert isinstance(dlg, ExportPackDialog)
        ok = dlg.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Ok)
        rules, roster = dlg.files["rules"], dlg.files["roster"]
        QTest.mouseClick(rules, LEFT)
        QTest.keyClicks(rules, str(bad))
        shown = dlg.problem.text()
        assert dlg.problem.isVisible()
        QTest.mouseClick(ok, LEFT)
        assert dlg.isVisible()  # refused while the file is wrong
        rules.selectAll()
        QTest.keyClicks(rules, str(root / "rules.json"))
        QTest.mouseClick(roster, LEFT)
        QTest.keyClicks(roster, str(tmp_path / "none.json"))
        missing = dlg.problem.text()
        roster.selectAll()
        QTest.keyClicks(roster, str(root / "roster.json"))
        assert not dlg.problem.isVisible()
        QTest.mouseClick(ok, LEFT)
        return shown, missing

    from test_editor_help import _click_menu_entry

    answers = _in_modal(fill_in)
    _click_menu_entry(win, qtbot, "File", "Export Map Pack...")
    (shown, missing), = _done(answers)
    assert shown == said
    assert missing == f"error: {tmp_path / 'none.json'}: /: file not found"
    pack = json.loads(out.read_text(encoding="utf-8"))
    assert pack["rules"] == json.loads((root / "rules.json").read_text(encoding="utf-8"))
    assert pack["roster"] == json.loads((root / "roster.json").read_text(encoding="utf-8"))
    assert "and its rules and roster" in win.statusBar().currentMessage()


def test_the_layers_dock_shows_its_move_row_whole_at_the_default_size(make_window):
    """At the default window size the Layers dock shows every row, the Move label
    and its spin box whole (they were cut off at the dock's bottom)."""
    from sodwa_editor.editor.layout import DEFAULT_SIZE

    win = make_window(MapModel(24, 16))
    settle()
    assert (win.width(), win.height()) == DEFAULT_SIZE
    body = win.docks["layers"].widget()
    seen = body.viewport().rect()
    for w in (win.layers.move_label, win.layers.move_spin):
        box = w.rect().translated(w.mapTo(body.viewport(), w.rect().topLeft()))
        assert seen.contains(box), (w, box, seen)
        assert w.height() >= w.sizeHint().height() - 1  # not squeezed
    label = win.layers.move_label
    assert label.height() >= label.heightForWidth(label.width())  # every line of it
    assert label.text() == "Move (no character on the tile)"
    assert body.verticalScrollBar().maximum() == 0  # nothing to scroll to


def test_the_status_read_outs_never_run_into_the_zoom(make_window):
    """The tile, terrain and edge read-outs and the zoom keep a gap between their
    texts, whatever they say."""
    m = MapModel(24, 16)
    m.set_border(Edge(5, 5, "E"), int(Base.OBSTRUCTING))
    m.set_terrain(5, 5, int(Base.OBSTRUCTING))
    win = make_window(m)
    move(win.view, 5.95, 5.5)  # on the wall: every read-out speaks
    settle()  # laid out
    fields = [win.tile_label, win.terrain_label, win.edge_label, win.zoom_label]
    assert all(f.text() for f in fields)
    bar = win.statusBar()
    spans = []
    for f in fields:
        left = f.mapTo(bar, f.contentsRect().topLeft()).x()
        spans.append((left, left + f.fontMetrics().horizontalAdvance(f.text())))
    for (_a, right), (left, _b) in zip(spans, spans[1:], strict=False):
        assert left - right >= 10, spans
    assert spans[-1][1] <= bar.width()
