"""The ``sodwa-editor`` entry point: one clear line without a display, and
headless screenshots with overlays."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import subprocess
import sys

import pytest
from PySide6.QtGui import QImage

from sodwa_editor.editor.app import main, parse_overlay
from sodwa_editor.editor.style import TILE
from sodwa_editor.engine import samples
from sodwa_editor.io import save_map


def test_no_display_prints_one_line_instead_of_aborting():
    env = {k: v for k, v in os.environ.items()
           if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    out = subprocess.run([sys.executable, "-m", "sodwa_editor.editor.app"], env=env,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 2
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1
    assert "no display" in lines[0] and "--screenshot" in lines[0]


def test_parse_overlay():
    assert parse_overlay("los:3,2") == ("los", (3, 2), None)
    assert parse_overlay("reach:3,2:5") == ("reach", (3, 2), 5)
    assert parse_overlay("graph") == ("graph", None, None)
    for bad in ("fog:1,1", "los:1", "los:a,b", "los:1,2,3", "reach:1,2:-5", "los:1,2:3", ""):
        with pytest.raises(ValueError, match=r"use los:X,Y, reach:X,Y\[:MOVE\] or graph"):
            parse_overlay(bad)


@pytest.mark.parametrize("scale", ["0", "nan", "-1", "x", "9"])
def test_screenshot_scale_is_checked(scale, capsys):
    with pytest.raises(SystemExit) as info:
        main(["--screenshot", "out.png", "map.json", "--scale", scale])
    assert info.value.code == 2
    assert f"argument --scale: {scale!r} is not a scale from 0.05 to 8" in capsys.readouterr().err


def test_screenshot_of_a_map_file(qapp, tmp_path, capsys):
    path = tmp_path / "keep.json"
    save_map(samples.tiered_keep(), path)
    out = tmp_path / "keep.png"
    assert main(["--screenshot", str(out), str(path), "--overlay", "los:7,7",
                 "--overlay", "graph"]) == 0
    img = QImage(str(out))
    assert (img.width(), img.height()) == (16 * TILE + 2 * TILE, 16 * TILE + 2 * TILE)
    assert "wrote" in capsys.readouterr().out


def test_screenshot_errors_are_one_clear_message(qapp, tmp_path, capsys):
    out = tmp_path / "x.png"
    assert main(["--screenshot", str(out), "sample:tiered-keep", "--overlay", "los:99,0"]) == 1
    assert "outside" in capsys.readouterr().err
    assert main(["--screenshot", str(out), "sample:tiered-keep", "--overlay", "bad"]) == 2
    bad = tmp_path / "bad.json"
    bad.write_text("{", encoding="utf-8")
    assert main(["--screenshot", str(out), str(bad)]) == 1
    assert "cannot open" in capsys.readouterr().err
    assert not out.exists()


def test_screenshot_hides_layers(qapp, tmp_path):
    a, b = tmp_path / "a.png", tmp_path / "b.png"
    assert main(["--screenshot", str(a), "sample:indoor-compound"]) == 0
    assert main(["--screenshot", str(b), "sample:indoor-compound",
                 "--layers", "grid,coordinates"]) == 0
    assert QImage(str(a)) != QImage(str(b))
