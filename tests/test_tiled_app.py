"""The Tiled editor itself opens what ``sodwa export-tiled`` writes and saves it
again, and the map Tiled saved imports as the same SODWA map (issue 29).

Opt-in: runs where the Tiled editor is installed (``apt-get install tiled``;
Debian's Tiled 1.8.2 was used), skipped elsewhere.  The maintained Python
reader (pytiled-parser) is checked always, in tests/test_tiled_files.py."""

from __future__ import annotations

import json
import math
import os
import posixpath
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from test_io_roundtrip import MAPS
from tiled_maps import tiled_maps

from sodwa_editor.engine.model import Character, MapModel
from sodwa_editor.engine.sizes import Footprint
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


def as_tiled_keeps(value):
    """The map document ``value`` up to what Tiled 1.8 may change in custom properties
    (docs/map-format.md, *Tiled*): a ``float`` within 15 significant digits (-0.0 as 0),
    a ``color`` as ``#aarrggbb`` and a ``file`` path cleaned
    (Tiled writes ``a/`` as ``a``); everything else exactly."""
    if isinstance(value, dict):
        if value.get("type") == "float" and isinstance(value.get("value"), float):
            return {**value, "value": Close(value["value"])}
        if value.get("type") == "file" and isinstance(value.get("value"), str):
            return {**value, "value": posixpath.normpath(value["value"])}  # ("a/" -> "a")
        if value.get("type") == "color" and len(value.get("value", "")) == 7:
            return {**value, "value": "#ff" + value["value"][1:]}
        return {k: as_tiled_keeps(v) for k, v in value.items()}
    if isinstance(value, list):
        return [as_tiled_keeps(v) for v in value]
    return value


class Close(float):
    """A float equal to any within Tiled's 15 significant digits (-0.0 is 0)."""

    def __eq__(self, other):
        return isinstance(other, float) and math.isclose(self, other, rel_tol=1e-14)

    __hash__ = float.__hash__


def floats_in(value):
    if isinstance(value, dict):
        return [f for v in value.values() for f in floats_in(v)]
    if isinstance(value, list):
        return [f for v in value for f in floats_in(v)]
    return [value] if isinstance(value, float) else []


def same_as_tiled_keeps(again, model):
    """``again`` (imported from what Tiled saved) is ``model`` as Tiled keeps it."""
    a, b = (as_tiled_keeps(json.loads(dumps_map(m))) for m in (again, model))
    for key in b:
        assert a.get(key) == b[key], (key, a.get(key), b[key])
    assert a == b


@pytest.mark.parametrize("name", ["full", "many-types", "mixed-48"])
def test_awkward_maps_through_tiled(tmp_path, name):
    model = MAPS[name]()
    same_as_tiled_keeps(through_tiled(model, tmp_path), model)


def test_sized_creatures_through_tiled(tmp_path):
    """Issue 26: Tiled keeps a large creature's rectangle and its size and footprint
    properties; the map it saved imports as the same map, byte for byte."""
    model = MapModel(12, 10, name="sizes")
    model.characters["ogre"] = Character("ogre", "red", 1, 2, size="large")
    model.characters["giant"] = Character("giant", "red", 6, 1, size="huge", move=7)
    model.characters["eel"] = Character("eel", "blue", 0, 6, size="massive",
                                        footprint=Footprint(4, 3))
    model.characters["mouse"] = Character("mouse", "blue", 11, 9, size="tiny")
    assert dumps_map(through_tiled(model, tmp_path)) == dumps_map(model)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.data_too_large])
@given(tiled_maps())
def test_random_maps_through_tiled(tmp_path_factory, model):
    # Known, open: Tiled 1.8 writes the largest floats (1.7976931348623157e308) with 15
    # digits, beyond the float range, which the import then refuses; left out here.
    assume(not any(abs(v) > 1e300 for v in floats_in(json.loads(dumps_map(model)))))
    same_as_tiled_keeps(through_tiled(model, tmp_path_factory.mktemp("app")), model)
