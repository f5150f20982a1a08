"""Issue 24, Playtest: the setup dialog never squashes its own rows when its problem
is long, a broken team file's first message is its own (the JSON error), and
the teams are named as everywhere (``attackers (team 0)``)."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QFileDialog, QWidget

from sodwa_editor.editor.playtest.setup_dialog import SetupDialog
from sodwa_editor.io import read_map

MAPS = Path(__file__).parents[1] / "maps"
LEFT = Qt.MouseButton.LeftButton


def dialog(qtbot) -> SetupDialog:
    model, _ = read_map(MAPS / "tiered-keep.json")
    dlg = SetupDialog(model)
    qtbot.addWidget(dlg)
    dlg.show()
    qtbot.waitExposed(dlg)
    return dlg


def rows_of(dlg: SetupDialog) -> list[QWidget]:
    out: list[QWidget] = []
    for box in dlg.teams:
        out += [box, box.controller, box.pick, box.placed, box.zone, box.points, box.source]
    return out + [dlg.cap, dlg.seed]


def files(tmp_path: Path) -> tuple[Path, Path]:
    """A broken team file in a folder of a long name, and a good one."""
    folder = tmp_path / ("a-folder-with-a-rather-long-name-" * 5)
    folder.mkdir()
    broken = folder / "broken-team.json"
    broken.write_text('{"format": "sodwa-team", "format_version": 1, "members": [',
                      encoding="utf-8")
    good = tmp_path / "duo.json"
    good.write_text('{"format": "sodwa-team", "format_version": 1, "name": "duo", '
                    '"members": [{"id": "a", "archetype": "Archer"}]}', encoding="utf-8")
    return broken, good


def choose_file(monkeypatch, dlg: SetupDialog, team: int, path: Path) -> None:
    """Team File... of team ``team``, and ``path`` chosen in the file dialog."""
    monkeypatch.setattr(QFileDialog, "getOpenFileName",
                        lambda *a, **k: (str(path), "Team files (*.json)"))
    QTest.mouseClick(dlg.teams[team].pick, LEFT)


def test_a_long_problem_never_squashes_the_rows(qtbot, tmp_path, monkeypatch):
    dlg = dialog(qtbot)
    broken, good = files(tmp_path)
    choose_file(monkeypatch, dlg, 1, good)
    before = {id(w): w.height() for w in rows_of(dlg)}
    choose_file(monkeypatch, dlg, 0, broken)
    qtbot.wait(50)
    problem = dlg.problem.text()
    assert problem.startswith(f"{broken}: invalid JSON at line 1") and len(problem) > 200
    assert not dlg.buttons.buttons()[0].isEnabled()
    for w in rows_of(dlg):  # no row is squashed: each as high as before the problem
        assert w.height() >= min(before[id(w)], w.sizeHint().height()), w
        assert w.height() >= w.minimumSizeHint().height(), w
    # the problem reads in full in its own box (it scrolls there)
    assert dlg.problem.isVisibleTo(dlg) and dlg.problem.width() <= dlg.width()


def test_a_broken_team_file_says_why_first_and_the_sides_are_named(
        qtbot, tmp_path, monkeypatch):
    dlg = dialog(qtbot)
    assert [b.title() for b in dlg.teams] == ["attackers (team 0)", "defenders (team 1)"]
    broken, good = files(tmp_path)
    choose_file(monkeypatch, dlg, 0, broken)  # the other team is the map's
    # its own error first (not "one team from the map and one from a team file...")
    assert dlg.problem.text().startswith(f"{broken}: invalid JSON at line 1")
    QTest.mouseClick(dlg.teams[0].placed, LEFT)
    choose_file(monkeypatch, dlg, 0, good)
    assert dlg.problem.text().startswith("one team from the map and one from a team file")
    choose_file(monkeypatch, dlg, 1, good)
    # a team file's side is named after the start zone it enters
    dlg.teams[0].zone.setCurrentText("defenders")
    dlg.teams[1].zone.setCurrentText("attackers")
    assert [b.title() for b in dlg.teams] == ["defenders (team 0)", "attackers (team 1)"]
