"""JSON Schemas of the map and map-pack files, compiled once, and their errors as Problems.

The schema files live in ``schemas/`` at the project root (read through the
``sodwa_editor/data/schemas`` link, which a wheel turns into copies).  Validators are
Draft 2020-12 validators built once per process (:func:`functools.cache`), with
one deliberate strictness: an "integer" must be a JSON number written without a
fraction (``3``, not ``3.0``), so coordinates are always Python ``int``.

Validating thousands of border objects with :mod:`jsonschema` costs ~55 us each,
so :func:`map_schema_problems` checks the long arrays (borders, transition
tiles, indoor overrides, start-zone tiles) with hand-written tests of exactly
the schema's ``$defs`` rules (or stricter) and asks jsonschema only about the
entries those tests reject; every reported error still comes from the schema.
``tests/test_io_schema.py`` cross-checks the two.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable, Iterable, Sequence
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator, ValidationError
from jsonschema.validators import extend
from referencing import Registry, Resource

from ..engine.model import MAX_SIDE
from .problems import Problem, capped, error, pointer

SCHEMA_DIR = Path(__file__).parents[1] / "data" / "schemas"  # -> schemas/ (pyproject)
MAP_SCHEMA_ID = "urn:sodwa:schema:map:2"
PACK_SCHEMA_ID = "urn:sodwa:schema:mappack:2"
#: Battle documents a pack may carry (their schemas are the battle package's).
BATTLE_SCHEMA_IDS = {"rules": "urn:sodwa:schema:rules:1", "roster": "urn:sodwa:schema:roster:1"}
MAX_SCHEMA_PROBLEMS = 200

_NAME_RE = re.compile(r"[a-z][a-z0-9_-]{0,31}")


def _is_int(_checker: object, instance: object) -> bool:
    return isinstance(instance, int) and not isinstance(instance, bool)


_StrictValidator = extend(
    Draft202012Validator,
    type_checker=Draft202012Validator.TYPE_CHECKER.redefine("integer", _is_int),
)


@cache
def load_schema(name: str) -> dict[str, Any]:
    """The parsed schema file ``schemas/<name>.schema.json`` (``map``, ``mappack``,
    ``rules``, ``roster``)."""
    with open(SCHEMA_DIR / f"{name}.schema.json", encoding="utf-8") as f:
        return json.load(f)


@cache
def map_text_limits() -> dict[str, int]:
    """Longest text the map schema accepts in each free-text field (``maxLength``).

    Keys: ``name`` and ``description`` (the map's), ``team``, ``id`` (character
    and object ids), ``character_name``, ``object_kind``.  The editor caps its
    text boxes with these, so nothing typed can make a file that will not load.
    """
    schema = load_schema("map")
    props, defs = schema["properties"], schema["$defs"]
    return {
        "name": props["name"]["maxLength"],
        "description": props["description"]["maxLength"],
        "team": defs["team"]["maxLength"],
        "id": defs["ident"]["maxLength"],
        "character_name": defs["character"]["properties"]["name"]["maxLength"],
        "object_kind": defs["object"]["properties"]["kind"]["maxLength"],
    }


@cache
def _registry() -> Registry:
    return Registry().with_resources(
        (load_schema(n)["$id"], Resource.from_contents(load_schema(n)))
        for n in ("map", "mappack", "stamp-library", *BATTLE_SCHEMA_IDS, "team", "ai-profile",
                  "scenario")
    )


@cache
def map_validator() -> Draft202012Validator:
    """The compiled validator of a whole map document."""
    schema = load_schema("map")
    Draft202012Validator.check_schema(schema)
    return _StrictValidator(schema, registry=_registry())


@cache
def _def_validator(fragment: str) -> Draft202012Validator:
    """Validator of one part of the map schema, e.g. ``#/$defs/border``."""
    return _StrictValidator({"$ref": MAP_SCHEMA_ID + fragment}, registry=_registry())


@cache
def pack_validator() -> Draft202012Validator:
    """The compiled validator of a pack document (maps included, via ``$ref``)."""
    schema = load_schema("mappack")
    Draft202012Validator.check_schema(schema)
    return _StrictValidator(schema, registry=_registry())


@cache
def pack_header_validator() -> Draft202012Validator:
    """Pack validator that only checks that each map is an object (maps are checked apart)."""
    schema = copy.deepcopy(load_schema("mappack"))
    schema["properties"]["maps"]["items"] = {"type": "object"}
    return _StrictValidator(schema, registry=_registry())


@lru_cache(maxsize=4096)
def _name_ok(name: str) -> bool:
    return _NAME_RE.fullmatch(name) is not None


def border_entry_ok(entry: object) -> bool:
    """Fast test of ``#/$defs/border``: True only if the schema accepts ``entry``."""
    if type(entry) is not dict:
        return False
    e = entry.get("edge")
    if type(e) is not list or len(e) != 3:
        return False
    x, y, side = e
    if type(x) is not int or type(y) is not int or type(side) is not str or (
            side != "E" and side != "S"):
        return False
    for key, value in entry.items():
        if key == "terrain":
            if type(value) is not str or not _name_ok(value):
                return False
        elif key == "transition" or key == "indoor":
            if type(value) is not bool:
                return False
        elif key != "edge":
            return False
    return True


def tile_ok(item: object) -> bool:
    """Fast test of ``#/$defs/tile``."""
    return (type(item) is list and len(item) == 2 and type(item[0]) is int
            and type(item[1]) is int)


def indoor_override_ok(item: object) -> bool:
    """Fast test of ``#/$defs/indoor_override``."""
    return (type(item) is dict and len(item) == 2 and tile_ok(item.get("tile"))
            and type(item.get("indoor")) is bool)


#: Longest elevation row: MAX_SIDE two-digit levels and the spaces between them.
MAX_ELEVATION_ROW = 3 * MAX_SIDE - 1
_ELEVATION_ROW = re.compile(r"^[0-9]{1,2}( [0-9]{1,2})*$")


def terrain_row_ok(item: object) -> bool:
    """Fast test of a ``terrain`` row."""
    return type(item) is str and 1 <= len(item) <= MAX_SIDE


def elevation_row_ok(item: object) -> bool:
    """Fast test of an ``elevation`` row (same regex semantics as jsonschema: search)."""
    return (type(item) is str and len(item) <= MAX_ELEVATION_ROW
            and _ELEVATION_ROW.search(item) is not None)


#: Arrays of a map document whose items are checked by a fast test: key -> (test,
#: schema of one item).  The schema itself sees only the first item (so array-level
#: keywords like minItems still apply) unless the array's length is out of bounds.
FAST_ARRAYS: dict[str, tuple[Callable[[object], bool], str]] = {
    "terrain": (terrain_row_ok, "#/properties/terrain/items"),
    "elevation": (elevation_row_ok, "#/properties/elevation/items"),
    "borders": (border_entry_ok, "#/$defs/border"),
    "transition_tiles": (tile_ok, "#/$defs/tile"),
    "indoor_overrides": (indoor_override_ok, "#/$defs/indoor_override"),
}


def map_schema_problems(doc: object) -> list[Problem]:
    """Every schema error of a map document, as problems with JSON pointers."""
    validator = map_validator()
    if not isinstance(doc, dict):
        return _to_problems(((), e) for e in validator.iter_errors(doc))
    props = load_schema("map")["properties"]
    shallow = dict(doc)
    rejected: list[tuple[tuple[object, ...], object, str]] = []
    for key, (test, item_schema) in FAST_ARRAYS.items():
        items = doc.get(key)
        if not isinstance(items, list):
            continue
        if props[key].get("minItems", 0) <= len(items) <= props[key].get("maxItems", len(items)):
            shallow[key] = items[:1]
            rejected += [((key, i), it, item_schema)
                         for i, it in enumerate(items[1:], 1) if not test(it)]
    zones = doc.get("start_zones")
    if isinstance(zones, dict):
        # The schema sees each zone's first tile (for minItems and the tile's own
        # errors); the other tiles are tested fast.
        shallow["start_zones"] = {k: v[:1] if isinstance(v, list) else v
                                  for k, v in zones.items()}
        rejected += [(("start_zones", team, j), t, "#/$defs/tile")
                     for team, tiles in zones.items() if isinstance(tiles, list)
                     for j, t in enumerate(tiles[1:], 1) if not tile_ok(t)]
    found: list[tuple[Sequence[object], ValidationError]] = [
        ((), e) for e in validator.iter_errors(shallow)
    ]
    for where, item, item_schema in rejected:
        found += [(where, e) for e in _def_validator(item_schema).iter_errors(item)]
    return _to_problems(found)


def pack_schema_problems(doc: object) -> list[Problem]:
    """Schema errors of a pack document's own fields, its rules and roster included
    (its maps are checked one by one)."""
    return _to_problems(((), e) for e in pack_header_validator().iter_errors(doc))


@cache
def _battle_validator(name: str) -> Draft202012Validator:
    return _StrictValidator({"$ref": BATTLE_SCHEMA_IDS[name]}, registry=_registry())


def battle_schema_problems(name: str, doc: object) -> list[Problem]:
    """Schema errors of a ``rules`` or ``roster`` document (e.g. a file given to
    ``sodwa pack build``), as problems with JSON pointers into it."""
    return _to_problems(((), e) for e in _battle_validator(name).iter_errors(doc))


def _to_problems(errors: Iterable[tuple[Sequence[object], ValidationError]]) -> list[Problem]:
    problems = (
        error(describe(e), pointer(*prefix, *e.absolute_path), code="schema")
        for prefix, e in errors
    )
    # dict.fromkeys drops repeats (jsonschema reports "required" once per missing field).
    return list(capped(dict.fromkeys(problems), MAX_SCHEMA_PROBLEMS))


def describe(err: ValidationError) -> str:
    """A designer-readable sentence for one schema error."""
    kind, value, inst = err.validator, err.validator_value, err.instance
    key = "key " if "propertyNames" in err.relative_schema_path else ""
    if kind == "required" and isinstance(inst, dict):
        missing = [k for k in value if k not in inst]
        return "missing required field " + ", ".join(repr(k) for k in missing)
    if kind == "additionalProperties" and value is False and isinstance(inst, dict):
        allowed = list(err.schema.get("properties", {}))
        extra = [k for k in inst if k not in allowed]
        return (f"unknown field {', '.join(repr(k) for k in extra)} "
                f"(allowed: {', '.join(allowed)})")
    if kind == "type":
        got = "null" if inst is None else f"{_kind(inst)} {_short(inst)}"
        return f"{key}must be {_a(value)}, not {got}"
    if kind == "const":
        return f"must be {json.dumps(value)}, not {_short(inst)}"
    if kind == "enum":
        return f"must be one of {', '.join(json.dumps(v) for v in value)}, not {_short(inst)}"
    if kind in ("minimum", "maximum"):
        bounds = (err.schema.get("minimum", "..."), err.schema.get("maximum", "..."))
        return f"{_short(inst)} is outside the allowed range {bounds[0]}..{bounds[1]}"
    if kind == "minItems":
        return f"needs at least {value} item(s), has {len(inst)}"
    if kind == "maxItems":
        return f"has {len(inst)} items, at most {value} allowed"
    if kind == "items" and value is False:
        n = len(err.schema.get("prefixItems", []))
        return f"has {len(inst)} items but takes exactly {n}"
    if kind == "minLength":
        return f"{key}{_short(inst)} is too short (at least {value} character(s))"
    if kind == "maxLength":
        return f"{key}{_short(inst)} is too long (at most {value} character(s))"
    if kind == "pattern":
        what = err.schema.get("description", f"the pattern {value}")
        return f"{key}{_short(inst)} is not {what}"
    return f"{key}{err.message}"


def _a(type_name: object) -> str:
    names = type_name if isinstance(type_name, list) else [type_name]
    words = {"integer": "an integer (whole number)", "array": "a list", "object": "an object",
             "string": "a string", "boolean": "true or false", "number": "a number"}
    return " or ".join(words.get(str(n), str(n)) for n in names)


def _kind(inst: object) -> str:
    if isinstance(inst, bool):
        return "boolean"
    if isinstance(inst, int | float):
        return "number"
    return {dict: "object", list: "list", str: "string", type(None): "null"}.get(
        type(inst), type(inst).__name__)


def _short(inst: object, limit: int = 40) -> str:
    text = json.dumps(inst, ensure_ascii=False)
    return text if len(text) <= limit else text[: limit - 3] + "..."
