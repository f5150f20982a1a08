"""Typed designer properties as Tiled and LDtk have them: a name, a type
(``string``, ``int``, ``float``, ``bool``, ``color``, ``file``) and a value of
that type.  Pure Python (no Qt): the custom-properties editor uses these to
make a new property's first value, to read what was typed and to keep what it
can when a property changes type.

>>> parse("int", " 12 ")
12
>>> convert("float", "int", 2.0)
2
>>> convert("bool", "color", True)
'#000000'
>>> parse("color", "red")
Traceback (most recent call last):
ValueError: 'red' is not a colour: write #rrggbb or #aarrggbb
"""

from __future__ import annotations

import math
import re
from typing import Any, NamedTuple

from ...engine.terrain_properties import CUSTOM_TYPES, INT_RANGE

#: the value types, in the order the editor offers them (the map format's)
TYPES = CUSTOM_TYPES
#: Tiled keeps ``int`` properties in 32 bits; the map format too
INT_MIN, INT_MAX = INT_RANGE
_COLOR_RE = re.compile(r"#(?:[0-9a-fA-F]{6}|[0-9a-fA-F]{8})")


class PropertyRow(NamedTuple):
    """One custom property: its name, type (:data:`TYPES`) and value."""

    name: str
    type: str
    value: Any


def default(kind: str) -> Any:
    """The value a new property of type ``kind`` starts with."""
    return {"string": "", "int": 0, "float": 0.0, "bool": False, "color": "#000000",
            "file": ""}[kind]


def parse(kind: str, text: str) -> Any:
    """The value of type ``kind`` that ``text`` writes; ``ValueError`` says what is
    wrong in one line."""
    stripped = text.strip()
    if kind in ("string", "file"):
        return text
    if kind == "int":
        try:
            value = int(stripped)
        except ValueError:
            raise ValueError(f"{stripped!r} is not a whole number") from None
        if not INT_MIN <= value <= INT_MAX:
            raise ValueError(f"{value} is outside {INT_MIN}..{INT_MAX}")
        return value
    if kind == "float":
        try:
            number = float(stripped)
        except ValueError:
            raise ValueError(f"{stripped!r} is not a number") from None
        if not math.isfinite(number):
            raise ValueError(f"{stripped!r} is not a finite number")
        return number
    if kind == "bool":
        if stripped.lower() in ("true", "yes", "1", "on"):
            return True
        if stripped.lower() in ("false", "no", "0", "off"):
            return False
        raise ValueError(f"{stripped!r} is not true or false")
    if kind == "color":
        if not _COLOR_RE.fullmatch(stripped):
            raise ValueError(f"{stripped!r} is not a colour: write #rrggbb or #aarrggbb")
        return stripped.lower()
    raise ValueError(f"unknown property type {kind!r} (one of {', '.join(TYPES)})")


def text_of(kind: str, value: Any) -> str:
    """How a value is written in the editor (``parse`` reads it back)."""
    if kind == "bool":
        return "true" if value else "false"
    if kind == "float":
        return repr(float(value))
    return str(value)


def convert(old: str, new: str, value: Any) -> Any:
    """``value`` of type ``old`` as type ``new`` when it reads as one (``"3"`` ->
    3), else the new type's :func:`default`."""
    if old == new:
        return value
    if old == "float" and new == "int" and float(value).is_integer():
        return int(value)
    try:
        return parse(new, text_of(old, value))
    except ValueError:
        return default(new)


def check_value(kind: str, value: Any) -> bool:
    """Whether ``value`` is a value of type ``kind``."""
    if kind in ("string", "file"):
        return isinstance(value, str)
    if kind == "int":
        return isinstance(value, int) and not isinstance(value, bool) \
            and INT_MIN <= value <= INT_MAX
    if kind == "float":
        return isinstance(value, int | float) and not isinstance(value, bool) \
            and math.isfinite(value)
    if kind == "bool":
        return isinstance(value, bool)
    if kind == "color":
        return isinstance(value, str) and bool(_COLOR_RE.fullmatch(value))
    return False
