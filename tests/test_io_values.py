"""Values JSON allows but no map can hold (integers past 4,300 digits, numbers past
the float range, lone UTF-16 surrogates) are one clear problem at their path on
every way in, and the writer refuses them with MapSaveError (issue 9)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from sodwa_editor.engine.model import Character, MapModel, MapObject
from sodwa_editor.engine.terrain_properties import make_custom
from sodwa_editor.io import (
    MapSaveError,
    atomic_write_text,
    build_pack,
    parse_json,
    parse_map,
    read_any,
    read_map,
    read_pack,
    save_map,
    save_pack,
)
from sodwa_editor.io.values import MAX_INT_DIGITS

HUGE = "9" * (MAX_INT_DIGITS + 1)
#: The problems every file reader reports for a path.
READERS = {"read_map": lambda p: read_map(p)[1], "read_pack": lambda p: read_pack(p)[1],
           "read_any": lambda p: read_any(p)[1]}


def small_map(**character: object) -> dict:
    return {"format": "sodwa-map", "format_version": 1, "name": "t", "width": 2, "height": 1,
            "terrain": [".."], "characters": [{"id": "a", "team": "r", "x": 0, "y": 0,
                                               **character}]}


def with_raw(doc: dict, key: str, raw: str) -> str:
    """The JSON text of ``doc`` with the value of ``key`` (holding 0) replaced by ``raw``."""
    text = json.dumps(doc)
    assert text.count(f'"{key}": 0') == 1
    return text.replace(f'"{key}": 0', f'"{key}": {raw}')


def only_error(problems):
    assert len(problems) == 1 and problems[0].is_error
    return problems[0]


@pytest.fixture
def huge_move(tmp_path) -> Path:
    path = tmp_path / "huge-move.json"
    path.write_text(with_raw(small_map(move=0), "move", HUGE), encoding="utf-8")
    return path


def test_a_huge_integer_is_one_problem_at_its_path_on_every_reader(huge_move, tmp_path):
    alone = tmp_path / "alone.json"
    alone.write_text(HUGE, encoding="utf-8")
    for reader in READERS.values():
        for path, where in ((huge_move, "/characters/0/move"), (alone, "/")):
            p = only_error(reader(path))
            assert (p.code, p.location(), p.source) == ("json", where, str(path))
            assert f"has {MAX_INT_DIGITS + 1} digits" in p.message
            assert f"more than {MAX_INT_DIGITS} digits are refused" in p.message
    doc, problems = parse_json("[1, -" + HUGE + "]")
    assert doc is None and only_error(problems).path == "/1"


@pytest.mark.parametrize("limit", [0, 640])
def test_the_digit_limit_holds_whatever_the_interpreter_allows(limit):
    """PYTHONINTMAXSTRDIGITS=0 lifts Python's limit (converting then takes quadratic
    time): ours still applies; a lower one is named in the message."""
    old = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(limit)
    try:
        _, problems = parse_json('{"a": [' + HUGE + "]}")
        p = only_error(problems)
        assert p.path == "/a/0"
        assert f"more than {limit or MAX_INT_DIGITS} digits" in p.message
        assert parse_json("[" + "9" * 600 + "]")[0] == [int("9" * 600)]
    finally:
        sys.set_int_max_str_digits(old)


def test_a_number_beyond_the_float_range_is_refused_at_its_path():
    doc = small_map()
    doc["objects"] = [{"id": "o", "kind": "crate", "x": 1, "y": 0, "properties": {"hp": 0}}]
    model, problems = parse_map(with_raw(doc, "hp", "-1e400"))
    p = only_error(problems)
    assert model is None and p.path == "/objects/0/properties/hp"
    assert "-1e400 is too large" in p.message


@pytest.mark.parametrize("raw, where", [
    (r'"\ud800"', "/characters/0/name"),
    (r'"ok \udfff end"', "/characters/0/name"),
    (r'"\ude00\ud83d"', "/characters/0/name"),  # both halves, in the wrong order
])
def test_a_lone_surrogate_is_refused_at_load_with_its_path(tmp_path, raw, where):
    path = tmp_path / "s.json"
    path.write_text(with_raw(small_map(name=0), "name", raw), encoding="utf-8")
    for reader in READERS.values():
        p = only_error(reader(path))
        assert (p.code, p.path) == ("encoding", where)
        assert "a lone UTF-16 surrogate" in p.message
        str(p).encode("utf-8")  # printable: the path and message hold no surrogate


def test_a_pair_of_surrogates_is_one_character_and_loads():
    model, problems = parse_map(with_raw(small_map(name=0), "name", r'"\ud83d\ude00"'))
    assert model is not None and model.characters["a"].name == "\U0001f600"


def test_a_lone_surrogate_in_a_key_is_reported_at_the_object_holding_it():
    doc = small_map()
    doc["start_zones"] = {"KEY": [[0, 0]]}
    doc["objects"] = [{"id": "o", "kind": "k", "x": 1, "y": 0, "properties": {"n": {"KEY": 1}}}]
    text = json.dumps(doc).replace("KEY", r"b\udc80d")
    _, problems = parse_map(text)
    assert [(p.path, p.code) for p in problems] == [
        ("/start_zones", "encoding"), ("/objects/0/properties/n", "encoding")]
    assert all('the key "b\\udc80d" holds \\udc80' in p.message for p in problems)
    for p in problems:
        str(p).encode("utf-8")


def test_lone_surrogates_in_bytes_and_in_text_given_directly():
    text = json.dumps(small_map(name="x\ud800"), ensure_ascii=False)  # a raw surrogate
    assert only_error(parse_map(text)[1]).path == "/characters/0/name"
    data = text.encode("utf-8", "surrogatepass")  # json.loads lets these through
    assert only_error(parse_map(data)[1]).path == "/characters/0/name"


def surrogate_model() -> MapModel:
    m = MapModel(3, 2, name="ok")
    m.characters["a"] = Character("a", "red", 0, 0, name="bad \ud800")
    return m


def test_save_map_refuses_a_lone_surrogate_with_map_save_error(tmp_path):
    path = tmp_path / "m.json"
    save_map(MapModel(2, 2), path)
    before = path.read_bytes()
    for model in (surrogate_model(), MapModel(2, 2, name="\udcff")):
        with pytest.raises(MapSaveError, match=r"(/characters/0/name|/name): the text holds "
                                               r"\\u(d800|dcff)"):
            save_map(model, path)
    m = MapModel(3, 2)
    m.objects["o"] = MapObject("o", "crate", 1, 1, custom={"\ud800": make_custom("int", 1)})
    with pytest.raises(MapSaveError, match=r"/objects/0/custom: the key"):
        save_map(m, path)
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.json"]


def test_atomic_write_refuses_text_utf8_cannot_hold(tmp_path):
    path = tmp_path / "x.json"
    with pytest.raises(MapSaveError, match=r"the text holds \\ud800.*previous file is unchanged"):
        atomic_write_text(path, '{"a": "\ud800"}')
    assert list(tmp_path.iterdir()) == []


def test_packs_refuse_lone_surrogates_in_their_own_fields(tmp_path):
    path = tmp_path / "m.json"
    save_map(MapModel(2, 2, name="m"), path)
    pack, problems = build_pack([path], name="pack \udcff", version="1")
    assert pack is None
    assert [(p.path, p.code) for p in problems] == [("/name", "encoding")]
    good, _ = build_pack([path], name="pack", version="1")
    assert good is not None
    good["author"] = "\ud800"
    with pytest.raises(MapSaveError, match=r"/author: the text holds \\ud800"):
        save_pack(good, tmp_path / "p.json")
    assert not (tmp_path / "p.json").exists()
