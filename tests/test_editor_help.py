"""Help menu: the shortcut sheet (the README's table, generated from one
source), the Legend dock drawn with the real style constants, and the P key
named wherever Alt+click is."""

from __future__ import annotations

import os
import re
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QColor
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QLabel, QMenu

from sodwa_editor.editor import shortcuts, style
from sodwa_editor.editor.help import ShortcutSheet

ROOT = Path(__file__).parents[1]


def test_f1_shows_the_shortcut_sheet_with_every_key(make_window, qtbot):
    win = make_window()
    QTest.keyClick(win.view, Qt.Key.Key_F1)
    sheet = win.findChild(ShortcutSheet, "shortcut_sheet")
    assert sheet is not None and sheet.isVisible()
    text = sheet.text.toPlainText()
    for key in shortcuts.sheet_keys():
        assert key in text, key
    assert "select" in text and "Ctrl+Shift+L" in text and "Alt+click" in text
    QTest.keyClick(sheet, Qt.Key.Key_Escape)
    assert not sheet.isVisible()


def test_sheet_and_readme_come_from_one_table(make_window):
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = shortcuts.readme_block(readme)
    for group, text in shortcuts.rows():  # every row of the sheet, in the README as written
        assert f"| {group} | {shortcuts.KEY.sub(lambda m: f'`{m.group(1)}`', text)} |" in block
    # the tools row is made from the tools themselves
    win = make_window()
    for name, tool in win.tools.items():
        assert f"`{tool.shortcut}` {tool.label.lower()}" in block, name


def _menu(win, title: str) -> QMenu:
    for action in win.menuBar().actions():
        if action.text().replace("&", "") == title:
            return action.menu()
    raise AssertionError(title)


def _click_menu_entry(win, qtbot, title: str, entry: str) -> None:
    """Open a menu with a real click on the menu bar, then click the entry."""
    bar = win.menuBar()
    menu = _menu(win, title)
    target = next(a for a in menu.actions() if a.text().replace("&", "") == entry)
    clicked = []

    def pick() -> None:
        assert menu.isVisible()
        QTest.mouseClick(menu, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                         menu.actionGeometry(target).center())
        clicked.append(True)

    QTimer.singleShot(50, pick)
    QTest.mouseClick(bar, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                     bar.actionGeometry(menu.menuAction()).center())
    qtbot.waitUntil(lambda: bool(clicked), timeout=3000)
    QApplication.processEvents()


def test_help_menu_opens_the_legend(make_window, qtbot):
    win = make_window()
    dock = win.docks["legend"]
    dock.hide()
    _click_menu_entry(win, qtbot, "Help", "Legend")
    assert dock.isVisible()
    texts = " ".join(lbl.text() for lbl in dock.findChildren(QLabel))
    for words in ("Obstructing: thick black", "Impeding: thick yellow", "Difficult: thick gray",
                  "red line", "Transition border", "Transition tile", "Indoor obstruction",
                  "Start zone", "Impeded: hatched", "Blocked: shaded", "ringed", "Reachable",
                  "not adjacent"):
        assert words in texts, words


def _colors(pixmap) -> set[tuple[int, int, int]]:
    img = pixmap.toImage()
    return {QColor(img.pixel(x, y)).getRgb()[:3]
            for y in range(img.height()) for x in range(img.width())}


def test_legend_swatches_are_drawn_with_the_style_constants(qapp, monkeypatch):
    """Change a constant and the legend follows: nothing in it is a copy."""
    from sodwa_editor.editor.docks.legend import LegendDock

    rim, blocked = (11, 222, 33), (201, 13, 177)
    monkeypatch.setattr(style, "ELEVATED", QColor(*rim))
    monkeypatch.setattr(style, "LOS_LINE", (*style.LOS_LINE[:2], QColor(*blocked)))
    monkeypatch.setattr(style, "OUTLINE", {**style.OUTLINE,
                                           style.Base.IMPEDING: QColor(5, 6, 250)})
    legend = LegendDock()
    sw = legend.swatches
    assert rim in _colors(sw["Elevated terrain: darker per level, level number, red line "
                             "inside the rim"].pixmap())
    assert blocked in _colors(sw["Line: blocked (dotted)"].pixmap())
    assert (5, 6, 250) in _colors(sw["Impeding: thick yellow line; impedes LoS"].pixmap())


def test_p_is_named_next_to_every_alt_click(make_window):
    win = make_window()
    hints = [w.text() for w in win.findChildren(QLabel)]
    for action in win.findChildren(type(win.action_map["preview_pin"])):
        hints += [action.toolTip(), action.statusTip(), action.text()]
    hints += [(ROOT / "docs" / "editor.md").read_text(encoding="utf-8"),
              (ROOT / "README.md").read_text(encoding="utf-8")]
    with_alt = [h for h in hints if "alt+click" in h.lower()]
    assert with_alt
    for h in with_alt:
        for sentence in re.split(r"(?<=[.;:])\s|\n\n", h):
            if "alt+click" in sentence.lower():
                assert re.search(r"\bP\b|`P`", sentence), sentence
