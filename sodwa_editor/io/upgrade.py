"""Upgrade steps of map documents from older format versions to the newest.

Version 1 -> 2 (issue 27): version 1 kept a terrain type's and an object's
``properties`` as any JSON object "for rules to come".  Version 2 gives terrain
types ``properties`` from the fixed vocabulary (what the battle rules read) and
everything else typed ``custom`` properties (as Tiled's).  No version-1 value is a
vocabulary property (none existed), so every one becomes a ``custom`` property of
the type its value has (bool, int, float, string); a list, an object, ``null`` or
a whole number beyond 32 bits becomes a ``string`` holding its compact JSON, with
a warning naming it, so no value is lost.

>>> doc = {"format": "sodwa-map", "format_version": 1, "objects": [
...     {"id": "c", "kind": "crate", "x": 0, "y": 0, "properties": {"hp": 3, "tags": ["a"]}}]}
>>> new, notes = upgrade_map_doc(doc)
>>> new["format_version"], new["objects"][0]["custom"]["hp"]
(2, {'type': 'int', 'value': 3})
>>> [n.message for n in notes]
["custom property 'tags' was a list in version 1: kept as its JSON text"]
"""

from __future__ import annotations

from typing import Any

from ..engine.terrain_properties import infer_custom
from .problems import Problem, error, pointer, warning


def upgrade_map_doc(doc: dict[str, Any]) -> tuple[dict[str, Any], list[Problem]]:
    """``doc`` (format, version checked) in the newest format, and notes of what
    changed; ``doc`` itself is not modified."""
    notes: list[Problem] = []
    if doc.get("format_version") == 1:
        doc = _v1_to_v2(doc, notes)
    return doc, notes


def _v1_to_v2(doc: dict[str, Any], notes: list[Problem]) -> dict[str, Any]:
    out = dict(doc, format_version=2)
    for key in ("terrain_types", "objects"):
        items = doc.get(key)
        if isinstance(items, list):
            out[key] = [_item(key, i, it, notes) for i, it in enumerate(items)]
    return out


_KIND = {list: "a list", dict: "an object", type(None): "null"}


def _item(key: str, i: int, item: Any, notes: list[Problem]) -> Any:
    if not isinstance(item, dict) or "properties" not in item:
        return item
    free = item["properties"]
    where = pointer(key, i, "properties")
    if not isinstance(free, dict):
        notes.append(error(f"properties must be an object, not {free!r}", where, code="schema"))
        return item
    new = {k: v for k, v in item.items() if k != "properties"}
    custom = {}
    for name, value in free.items():
        typed = infer_custom(value)
        if typed.type == "string" and not isinstance(value, str):
            what = _KIND.get(type(value), "a whole number beyond 32 bits")
            notes.append(warning(f"custom property {name!r} was {what} in version 1: kept as "
                                 "its JSON text", pointer(key, i, "custom", name),
                                 code="upgraded-value"))
        custom[name] = typed.to_json()
    if custom:
        new["custom"] = custom
    return new
