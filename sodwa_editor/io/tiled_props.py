"""Tiled's typed custom properties (``[{"name", "type", "value"}, ...]``) and the
way SODWA's custom properties and free-form values become them.

SODWA's typed ``custom`` properties (map format 2) are Tiled's own types and are
written as ``custom.<name>`` with their type (:func:`custom_properties`).  Maps
exported by format 1 carry free-form values as below; they are read into
``custom`` properties (:func:`custom_value`).

A JSON value that Tiled can type and keep is written as that type: ``bool``,
``int`` (within Tiled's 32-bit range), ``float`` (one Tiled writes back unchanged:
at most 15 significant digits, not -0.0) and ``string``.  Anything else (an
object, a list, ``null``, a larger whole number, 1/3) is written as a ``string``
holding its compact JSON under the ``properties_json.`` prefix, so every value
comes back exactly, also after Tiled has opened and saved the map:

>>> free_properties({"hp": 3, "tags": ["a"], "ok": True})
[{'name': 'properties.hp', 'type': 'int', 'value': 3}, \
{'name': 'properties.ok', 'type': 'bool', 'value': True}, \
{'name': 'properties_json.tags', 'type': 'string', 'value': '["a"]'}]
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import Any

from ..engine.terrain_properties import CUSTOM_TYPES, infer_custom, make_custom

#: Prefixes of free-form values: ``properties.hp`` is ``{"hp": ...}`` as a typed
#: value, ``properties_json.tags`` the same key holding JSON text.
FREE, FREE_JSON = "properties.", "properties_json."
#: Prefix of a typed SODWA custom property (``custom.loot``, type kept).
CUSTOM = "custom."
#: Tiled keeps ``int`` properties in 32 bits.
INT_MIN, INT_MAX = -(2**31), 2**31 - 1


def prop(name: str, value: Any) -> dict[str, Any]:
    """One typed property (``bool``, ``int``, ``float`` or ``string`` by the value)."""
    if isinstance(value, bool):
        kind = "bool"
    elif isinstance(value, int):
        kind = "int"
    elif isinstance(value, float):
        kind = "float"
    elif isinstance(value, str):
        kind = "string"
    else:
        raise TypeError(f"property {name!r}: {type(value).__name__} is not a Tiled value")
    return {"name": name, "type": kind, "value": value}


def tiled_typed(value: Any) -> bool:
    """Whether ``value`` is written as a typed property (else as JSON text)."""
    if isinstance(value, bool | str):
        return True
    if isinstance(value, int):
        return INT_MIN <= value <= INT_MAX
    return isinstance(value, float) and tiled_keeps(value)


def tiled_keeps(value: float) -> bool:
    """Whether Tiled saves the number as it is: Tiled writes a ``float`` property
    with 15 significant digits (1/3 comes back 0.333333333333333) and -0.0 as 0."""
    if not math.isfinite(value):
        return False
    if value == 0:
        return math.copysign(1.0, value) > 0
    return float(f"{value:.15g}") == value


def free_properties(values: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The typed properties of a free-form mapping, sorted by property name."""
    out = []
    for key, value in values.items():
        if tiled_typed(value):
            out.append(prop(FREE + key, value))
        else:
            text = json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"),
                              allow_nan=False)
            out.append(prop(FREE_JSON + key, text))
    return sorted(out, key=lambda p: p["name"])


def custom_properties(custom: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Tiled properties of SODWA custom properties, sorted by name."""
    return [{"name": CUSTOM + k, "type": custom[k].type, "value": custom[k].value}
            for k in sorted(custom)]


def custom_value(name: str, kind: str, value: Any) -> dict[str, Any]:
    """The SODWA custom property ``{"type", "value"}`` of a Tiled property named
    ``custom.x`` (its Tiled type kept) or, from format-1 exports, ``properties.x`` /
    ``properties_json.x`` (typed by the value); raises :class:`PropertyError`."""
    if name.startswith(CUSTOM):
        if kind not in CUSTOM_TYPES:
            raise PropertyError(f"property {name!r}: type {kind!r} is not one of "
                                f"{', '.join(CUSTOM_TYPES)}")
        try:
            return make_custom(kind, free_value(name, kind, value), name).to_json()
        except ValueError as exc:
            raise PropertyError(str(exc)) from None
    return infer_custom(free_value(name, kind, value)).to_json()


def sorted_properties(props: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Properties in name order (as Tiled writes them)."""
    return sorted(props, key=lambda p: p["name"])


class PropertyError(ValueError):
    """A property that cannot be read (its ``args[0]`` says why, in one line)."""


def read_properties(raw: Any) -> dict[str, tuple[str, Any]]:
    """Property name -> (Tiled type, value) of a ``properties`` array (or the old
    ``{"name": value}`` object form, typed by the value).  Raises
    :class:`PropertyError` for a malformed array."""
    if raw is None:
        return {}
    if isinstance(raw, dict):  # Tiled < 1.2 wrote {name: value} (and propertytypes)
        return {str(k): (_kind_of(v), v) for k, v in raw.items()}
    if not isinstance(raw, list):
        raise PropertyError("\"properties\" is neither a list nor an object")
    out: dict[str, tuple[str, Any]] = {}
    for i, p in enumerate(raw):
        if not isinstance(p, dict) or not isinstance(p.get("name"), str) or "value" not in p:
            raise PropertyError(f"property {i} has no name or no value")
        kind = p.get("type", "string")
        if p["name"] in out:
            raise PropertyError(f"property {p['name']!r} is given twice")
        value = p["value"]
        if kind == "float" and isinstance(value, int) and not isinstance(value, bool):
            value = float(value)  # Tiled writes 3.0 as 3
        out[p["name"]] = (str(kind), value)
    return out


def _kind_of(value: Any) -> str:
    return "bool" if isinstance(value, bool) else "int" if isinstance(value, int) else (
        "float" if isinstance(value, float) else "string")


#: The Python types a value of each Tiled property type may have.
_VALUE_TYPES: dict[str, tuple[type, ...]] = {
    "bool": (bool,), "int": (int,), "float": (float, int), "string": (str,),
    "color": (str,), "file": (str,), "object": (int,), "class": (dict,),
}


def free_value(name: str, kind: str, value: Any) -> Any:
    """The SODWA value of a free-form property (``properties.x`` or
    ``properties_json.x``); raises :class:`PropertyError` saying why not."""
    if name.startswith(FREE_JSON):
        if kind != "string" or not isinstance(value, str):
            raise PropertyError(f"property {name!r} must be a string holding JSON, "
                                f"not a {kind}")
        try:
            return json.loads(value, parse_constant=_no_constant)
        except (ValueError, RecursionError) as exc:
            raise PropertyError(f"property {name!r} does not hold JSON: {exc}") from None
    allowed = _VALUE_TYPES.get(kind)
    if allowed is None or not isinstance(value, allowed) or (
            bool not in allowed and isinstance(value, bool)):
        raise PropertyError(f"property {name!r} of type {kind!r} has the value {value!r}")
    return value


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")


def check_kind(name: str, kind: str, value: Any, wanted: str) -> Any:
    """``value`` of a property that must be of Tiled type ``wanted``; raises
    :class:`PropertyError` (e.g. a Move typed ``string``)."""
    if kind != wanted:
        raise PropertyError(f"property {name!r} must be of type {wanted}, not {kind}")
    return free_value(name, kind, value)
