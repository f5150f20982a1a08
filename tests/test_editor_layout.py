"""The window remembers its geometry, docks, layers and, per map file, the zoom
and place of the view from one run to the next (QSettings in a temporary
file); View -> Reset Layout goes back to the defaults."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest
from PySide6.QtCore import QPoint, QSettings, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from sodwa_editor.editor.layout import DEFAULT_SIZE
from sodwa_editor.editor.style import TILE
from sodwa_editor.engine.model import MapModel
from sodwa_editor.io import save_map

CTRL = Qt.KeyboardModifier.ControlModifier


@pytest.fixture
def run_editor(qtbot, tmp_path):
    """Start an editor 'run' on the map file with the settings file of this test."""
    from sodwa_editor.editor.main_window import MainWindow

    path = tmp_path / "keep.json"
    save_map(MapModel(40, 30), path)
    windows = []

    def run():
        settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
        win = MainWindow(MapModel(40, 30), path, settings=settings,
                         recovery_dir=tmp_path / "recovery")
        win.show()
        qtbot.waitExposed(win)
        for _ in range(3):
            QApplication.processEvents()  # the fit, then the remembered place
        windows.append(win)
        return win

    yield run
    for win in windows:
        win.document.undo_stack.setClean()
        win.close()


def _click(widget) -> None:
    QTest.mouseClick(widget, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                     QPoint(8, widget.height() // 2))


def _centre(win) -> tuple[float, float]:
    c = win.view.mapToScene(win.view.viewport().rect().center())
    return c.x() / TILE, c.y() / TILE


def test_layout_layers_and_zoom_are_remembered_across_runs(run_editor):
    win = run_editor()
    win.resize(780, 600)  # within the offscreen screen: restoring keeps a window on screen
    size = (win.width(), win.height())
    assert size != DEFAULT_SIZE
    _click(win.layers.boxes["grid"])  # hide the grid with the mouse
    assert not win.scene.layer_visible("grid")
    win.docks["history"].toggleViewAction().trigger()  # close the History dock
    assert not win.docks["history"].isVisible()
    win.view.setFocus()
    QTest.keyClick(win.view, Qt.Key.Key_1, CTRL)
    QTest.keyClick(win.view, Qt.Key.Key_Equal, CTRL)
    QTest.keyClick(win.view, Qt.Key.Key_Equal, CTRL)
    win.view.center_on_tile(30, 20)
    zoom, centre = win.view.zoom(), _centre(win)
    win.close()

    again = run_editor()
    assert (again.width(), again.height()) == size
    assert not again.scene.layer_visible("grid")
    assert not again.layers.boxes["grid"].isChecked()
    assert not again.docks["history"].isVisible()
    assert again.view.zoom() == pytest.approx(zoom)
    assert _centre(again) == pytest.approx(centre, abs=0.6)


def test_a_map_never_opened_before_opens_fitted(run_editor, tmp_path):
    win = run_editor()
    win.view.set_zoom(3.0)
    win.close()
    other = tmp_path / "other.json"
    save_map(MapModel(40, 30), other)
    again = run_editor()
    assert again.view.zoom() == pytest.approx(3.0)  # the same map: where it was left
    again.files.open_map(other, ask_save=False)
    for _ in range(3):
        QApplication.processEvents()
    assert again.view.zoom() < 3.0  # another map: fitted


def test_reset_layout_from_the_view_menu(run_editor, qtbot):
    from test_editor_help import _click_menu_entry

    win = run_editor()
    win.resize(900, 600)
    _click(win.layers.boxes["borders"])
    win.docks["layers"].toggleViewAction().trigger()
    win.view.set_zoom(4.0)
    _click_menu_entry(win, qtbot, "View", "Reset Layout")
    assert (win.width(), win.height()) == DEFAULT_SIZE
    assert win.docks["layers"].isVisible()
    assert win.scene.layer_visible("borders") and win.layers.boxes["borders"].isChecked()
    assert win.view.zoom() < 4.0  # fitted
    assert win.settings.value("window/state") is None


def test_tests_never_touch_the_users_settings(qapp):
    from sodwa_editor.editor.main_window import default_settings

    assert default_settings().fileName().startswith(os.environ["XDG_CONFIG_HOME"])


def test_minimap_shows_on_a_big_map_after_a_run_on_a_small_one(qtbot, tmp_path):
    from sodwa_editor.editor.main_window import MainWindow

    def run(model):
        win = MainWindow(model, settings=QSettings(str(tmp_path / "s.ini"),
                                                   QSettings.Format.IniFormat),
                         recovery_dir=tmp_path / "recovery")
        win.show()
        qtbot.waitExposed(win)
        return win

    small = run(MapModel(20, 20))
    assert not small.docks["minimap"].isVisible()  # hidden for the small map only
    small.close()
    big = run(MapModel(100, 100))
    assert big.docks["minimap"].isVisible()
    big.docks["minimap"].toggleViewAction().trigger()  # closed by the user
    big.close()
    again = run(MapModel(100, 100))
    assert not again.docks["minimap"].isVisible()
    again.close()


def test_reset_layout_unlocks_every_layer_and_makes_it_opaque_for_good(run_editor, qtbot):
    from test_editor_help import _click_menu_entry

    win = run_editor()
    _click(win.layers.locks["borders"])
    spin = win.layers.opacity["start zones"]
    spin.setFocus()
    spin.selectAll()
    QTest.keyClicks(spin, "30")
    QTest.keyClick(spin, Qt.Key.Key_Return)
    assert win.layers.locks["borders"].isChecked()
    assert win.scene.items_by_name["zones"].opacity() == pytest.approx(0.3)
    win.close()
    win = run_editor()  # remembered across runs
    assert win.layers.locks["borders"].isChecked()
    assert win.layers.opacity["start zones"].value() == 30
    _click_menu_entry(win, qtbot, "View", "Reset Layout")
    assert not any(box.isChecked() for box in win.layers.locks.values())
    assert all(spin.value() == 100 for spin in win.layers.opacity.values())
    assert all(item.opacity() == 1.0 for item in win.scene.items_by_name.values())
    assert win.layers.refusal(["borders"]) is None  # editable again
    win.close()
    again = run_editor()  # the reset holds in the next run
    assert not again.layers.locks["borders"].isChecked()
    assert again.layers.opacity["start zones"].value() == 100
    assert again.scene.items_by_name["zones"].opacity() == 1.0
