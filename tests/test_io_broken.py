"""Broken inputs give clear problems, never a traceback, and absurd ones are refused early."""

from __future__ import annotations

import json
import tracemalloc
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sodwa_editor.engine.generate import make_mixed_map
from sodwa_editor.engine.model import MapModel
from sodwa_editor.io import (
    MapLoadError,
    build_pack,
    dumps_map,
    load_map,
    parse_map,
    read_any,
    read_map,
    save_map,
)
from sodwa_editor.io.schemas import map_validator

DATA = Path(__file__).parent / "data"


def errors(problems):
    return [p for p in problems if p.severity == "error"]


def paths_and_messages(problems):
    return [(p.path, p.message) for p in problems]


def test_invalid_json_names_line_and_column():
    model, problems = read_map(DATA / "invalid_json.json")
    assert model is None
    assert [(p.code, p.message) for p in problems] == [
        ("json", "invalid JSON at line 6, column 3: Expecting ',' delimiter")]
    assert str(problems[0]).startswith(str(DATA / "invalid_json.json") + ": /: invalid JSON")


def test_wrong_types_are_all_reported_with_paths():
    model, problems = read_map(DATA / "wrong_types.json")
    assert model is None
    got = dict(paths_and_messages(problems))
    assert got == {
        "/width": 'must be an integer (whole number), not string "ten"',
        "/height": "must be an integer (whole number), not number 2.0",
        "/setting": 'must be one of "outdoor", "indoor", not "underwater"',
        "/characters/0/x": 'must be an integer (whole number), not string "1"',
        "/characters/0/flight": "must be true or false, not number 1",
        "/terrain/1": "must be a string, not number 42",
        "/borders/1/edge/2": 'must be one of "E", "S", not "N"',
        "/borders/2/edge": "needs at least 3 item(s), has 2",
        "/borders/2/transition": 'must be true or false, not string "yes"',
    }
    assert all(p.code == "schema" for p in problems)


def test_missing_and_unknown_fields():
    _, problems = read_map(DATA / "missing_fields.json")
    assert paths_and_messages(problems)[0] == (
        "", "missing required field 'width', 'height', 'terrain'")
    assert problems[1].message.startswith("unknown field 'colour' (allowed: format,")
    assert paths_and_messages(problems)[2] == ("/characters/0", "missing required field 'team'")
    assert len(problems) == 3


def test_absurd_size_is_refused_without_allocating(monkeypatch):
    def no_model(*args, **kwargs):
        raise AssertionError("a map model was allocated")

    monkeypatch.setattr("sodwa_editor.io.decode.MapModel", no_model)
    map_validator()  # compile the schema outside the measurement
    read_map(DATA / "row_count_mismatch.json")
    tracemalloc.start()
    try:
        model, problems = read_map(DATA / "absurd_size.json")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert model is None
    assert paths_and_messages(problems) == [
        ("/width", "1000000 is outside the allowed range 1..256"),
        ("/height", "1000000 is outside the allowed range 1..256"),
    ]
    assert peak < 2**20, peak


def test_row_count_and_row_length_mismatches():
    _, problems = read_map(DATA / "row_length_mismatch.json")
    assert [(p.code, p.path) for p in problems] == [
        ("row-length", "/terrain/1"), ("row-length", "/terrain/2"), ("row-length", "/elevation/2")]
    assert problems[0].message == "terrain row 1 has 3 tile(s), but the map is 4 tile(s) wide"
    _, problems = read_map(DATA / "row_count_mismatch.json")
    assert [(p.code, p.path, p.message) for p in problems] == [
        ("row-count", "/terrain", "terrain has 2 row(s), but the map is 4 tile(s) high")]


def test_newer_format_version_and_other_formats():
    _, problems = read_map(DATA / "newer_version.json")
    assert [(p.code, p.path) for p in problems] == [("format-version", "/format_version")]
    assert "newer SODWA Editor" in problems[0].message  # and no noise about unknown fields
    _, problems = read_map(DATA / "not_a_map.json")
    assert [p.message for p in problems] == ["unknown format 'tiled-map' (expected 'sodwa-map')"]


def test_a_pack_opened_as_a_map(tmp_path):
    save_map(MapModel(2, 2, name="a"), tmp_path / "a.json")
    pack, _ = build_pack([tmp_path / "a.json"], name="p", version="1")
    (tmp_path / "p.json").write_text(json.dumps(pack), encoding="utf-8")
    _, problems = read_map(tmp_path / "p.json")
    assert [p.message for p in problems] == ["this file is a map pack, not a map"]


@pytest.mark.parametrize(("text", "expected"), [
    (b"[1, 2]", "the file holds a list, but a map file holds a JSON object {...}"),
    (b'{"format": "sodwa-map", "width": NaN}', "invalid JSON: NaN is not a number JSON allows"),
    (b'{"format": "sodwa-map", "format": "x"}', "invalid JSON: key 'format' appears twice in "
                                                 "one object"),
    (b"\xff\xfe{}", "the file is not UTF-8 text (byte 0xff at offset 0)"),
    (b"", "invalid JSON at line 1, column 1: Expecting value"),
    (b'{"format": "sodwa-map", "format_version": "1"}',
     "\"format_version\" must be a whole number (this editor reads version 2), not '1'"),
    (b'{"format": "sodwa-map"}', "missing \"format_version\" (this editor reads version 2)"),
])
def test_unreadable_texts(tmp_path, text, expected):
    path = tmp_path / "x.json"
    path.write_bytes(text)
    model, problems = read_map(path)
    assert model is None
    assert [p.message for p in problems] == [expected]


def test_missing_file_and_size_limit(tmp_path, monkeypatch):
    _, problems = read_map(tmp_path / "nope.json")
    assert [p.message for p in problems] == ["file not found"]
    path = tmp_path / "big.json"
    path.write_text(dumps_map(MapModel(40, 40)), encoding="utf-8")
    monkeypatch.setattr("sodwa_editor.io.files.MAX_FILE_BYTES", 1024)
    _, problems = read_map(path)
    assert [p.code for p in problems] == ["file-size"]


def test_load_map_raises_with_all_problems(tmp_path):
    with pytest.raises(MapLoadError) as info:
        load_map(DATA / "wrong_types.json")
    assert len(info.value.problems) == 9
    assert str(DATA / "wrong_types.json") in str(info.value)
    assert "/borders/1/edge/2" in str(info.value)
    with pytest.raises(MapLoadError) as info:
        load_map(DATA / "semantic_errors.json")  # strict: game-rule errors refuse too
    assert any(p.code == "shared-tile" for p in info.value.problems)
    assert load_map(DATA / "semantic_errors.json", strict=False).width == 5


def test_schema_problems_are_capped():
    doc = json.loads(dumps_map(MapModel(4, 4)))
    doc["borders"] = [{"edge": [0, 0, "X"]} for _ in range(1000)]
    _, problems = parse_map(json.dumps(doc))
    assert len(problems) == 201
    assert problems[-1].message.startswith("... and 800 more")


def test_read_any_kinds():
    assert read_any(DATA / "semantic_errors.json")[0] == "map"
    assert read_any(DATA / "not_a_map.json")[0] == "unknown"
    assert read_any(DATA / "invalid_json.json")[0] == "unknown"


# ------------------------------------------------------------ fuzzing
_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 2000) | st.floats(allow_nan=False)
    | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner,
                                                                 max_size=4),
    max_leaves=8,
)
_BASE = json.loads(dumps_map(make_mixed_map(12, seed=4)))


def _paths(value, prefix=()):
    yield prefix
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, (*prefix, k))
    elif isinstance(value, list):
        for i, v in enumerate(value[:3]):
            yield from _paths(v, (*prefix, i))


_ALL_PATHS = [p for p in _paths(_BASE) if p]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.sampled_from(_ALL_PATHS), _JSON), min_size=1, max_size=3))
def test_mutated_documents_never_raise(edits):
    doc = json.loads(json.dumps(_BASE))
    for path, value in edits:
        target = doc
        try:
            for part in path[:-1]:
                target = target[part]
            target[path[-1]] = value
        except (KeyError, IndexError, TypeError):
            continue
    model, problems = parse_map(json.dumps(doc))
    assert model is not None or errors(problems)
    for p in problems:
        assert p.message and p.path.startswith("/") or p.path == ""
    if model is not None:
        again, _ = parse_map(dumps_map(model))
        assert again is not None and again.same_content(model)
