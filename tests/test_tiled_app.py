"""The Tiled editor itself opens what ``sodwa export-tiled`` writes and saves it
again, and the map Tiled saved imports as the same SODWA map (issue 29).

Opt-in: runs where the Tiled editor is installed (``apt-get install tiled``;
Debian's Tiled 1.8.2 was used), skipped elsewhere.  The maintained Python
reader (pytiled-parser) is checked always, in tests/test_tiled_files.py."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from test_io_roundtrip import MAPS
from tiled_maps import tiled_maps

from sodwa_editor.io import dumps_map, load_map
from sodwa_editor.io.tiled_export import write_tiled
from sodwa_editor.io.tiled_import import import_tiled

TILED = shutil.which("tiled")
pytestmark = pytest.mark.skipif(TILED is None, reason="the Tiled editor is not installed "
                                                      "(apt-get install tiled)")
SAMPLES = {p.stem: p for p in sorted((Path(__file__).parent.parent / "maps").glob("*.json"))}


def through_tiled(model, folder: Path):
    """Export ``model``, have Tiled load the map and write it again, import that."""
    first = write_tiled(model, folder / "sodwa.tmj")[0]
    again = folder / "by-tiled.tmj"
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen",
           "XDG_RUNTIME_DIR": str(folder)}
    done = subprocess.run([str(TILED), "--export-map", "json", str(first), str(again)],
                          env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and again.exists(), done.stderr
    result = import_tiled(again)
    assert result.model is not None, [str(p) for p in result.problems]
    return result.model


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_sample_maps_through_tiled(tmp_path, name):
    model = load_map(SAMPLES[name], strict=False)
    assert dumps_map(through_tiled(model, tmp_path)) == SAMPLES[name].read_text(
        encoding="utf-8")


@pytest.mark.parametrize("name", ["full", "many-types", "mixed-48"])
def test_awkward_maps_through_tiled(tmp_path, name):
    model = MAPS[name]()
    assert dumps_map(through_tiled(model, tmp_path)) == dumps_map(model)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.data_too_large])
@given(tiled_maps())
def test_random_maps_through_tiled(tmp_path_factory, model):
    assert dumps_map(through_tiled(model, tmp_path_factory.mktemp("app"))) == dumps_map(model)
