"""The character roster offered by the character tool (``resources/roster.json``)."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..engine.model import Character
from ..engine.sizes import Footprint

ROSTER_PATH = Path(__file__).parents[1] / "data" / "resources" / "roster.json"
FALLBACK = {"characters": [{"name": "Soldier", "move": 5, "range": 5, "flight": False,
                            "attributes": {}}], "objects": ["crate"]}


@lru_cache(maxsize=1)
def load_roster(path: Path = ROSTER_PATH) -> dict[str, Any]:
    """The roster; a built-in one-entry roster when the file is missing or broken."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if not data.get("characters"):
            raise ValueError("no characters")
        return data
    except (OSError, ValueError):
        return FALLBACK


def make_character(entry: dict[str, Any], cid: str, team: str, x: int, y: int, *,
                   size: str | None = None) -> Character:
    """A character of a roster entry; ``size`` (the Character tool's choice) replaces the
    entry's size, and with it the entry's free dimensions unless it is the same size."""
    own = str(entry.get("size", "medium"))
    dims = entry.get("footprint")
    footprint = Footprint(*dims) if dims and (size is None or size == own) else None
    return Character(
        cid, team, x, y, move=int(entry.get("move", 5)), range=int(entry.get("range", 5)),
        flight=bool(entry.get("flight", False)), name=str(entry.get("name", cid)),
        attributes={k: int(v) for k, v in entry.get("attributes", {}).items()},
        size=size or own, footprint=footprint,
    )
