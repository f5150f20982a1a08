"""Stamp libraries (issue 29): named stamps (prefabs) in a ``*.sodwa-stamps.json``
file beside the maps, or under the key ``stamps`` of a map pack (version 4).
No Qt: the editor turns its stamps into :class:`LibraryStamp` and back.

A stamp is stored as a small map document one tile larger than the stamp on
every side (schemas/stamp-library.schema.json): the stamp's tiles at
1..width, 1..height with everything they carry (terrain, elevation, transition
tile, Indoor/Outdoor flag, start zones, characters, objects), its outline edges
the edges around them.  ``tiles`` marks the stamp's own tiles when it is not the
whole rectangle; ``open_edges`` lists the outline edges a placement leaves as
they are.  Every problem of a library file is one line naming the stamp and the
place (:class:`~.problems.Problem`), and a library with errors is not loaded.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..engine.model import Edge, MapModel
from .decode import decode_map
from .encode import GENERATOR, PACK_FORMAT, PACK_STAMPS_VERSION, dumps_stamps, map_to_dict
from .files import atomic_write_text, parse_json, read_text
from .paths import PathLike
from .problems import MapSaveError, Problem, error, has_errors, pointer
from .schemas import _registry, _StrictValidator, _to_problems, load_schema

LIBRARY_FORMAT, LIBRARY_VERSION = "sodwa-stamps", 1
#: what a stamp library file's name ends with
LIBRARY_SUFFIX = ".sodwa-stamps.json"


@dataclass
class LibraryStamp:
    """A named stamp: ``model`` holds it with a one-tile margin; ``mask`` (bool
    (h, w) of the stamp, None: every tile) its own tiles; ``open_edges`` (edges of
    ``model``) the outline edges a placement leaves as they are."""

    name: str
    model: MapModel
    mask: np.ndarray | None = None
    open_edges: tuple[Edge, ...] = ()

    @property
    def size(self) -> tuple[int, int]:
        return self.model.width - 2, self.model.height - 2

    def same(self, other: LibraryStamp) -> bool:
        return (self.name == other.name and self.model.same_content(other.model)
                and self.open_edges == other.open_edges
                and (self.mask is None) == (other.mask is None)
                and (self.mask is None or other.mask is None
                     or np.array_equal(self.mask, other.mask)))


# ------------------------------------------------------------------ writing
def stamp_entry(stamp: LibraryStamp) -> dict[str, Any]:
    """The library entry of one stamp (ValueError when its map cannot be stored)."""
    entry: dict[str, Any] = {"name": stamp.name, "map": map_to_dict(stamp.model)}
    if stamp.mask is not None and not stamp.mask.all():
        entry["tiles"] = ["".join("#" if v else "." for v in row) for row in stamp.mask]
    if stamp.open_edges:
        entry["open_edges"] = [[e.x, e.y, e.side] for e in sorted(stamp.open_edges)]
    return entry


def library_doc(stamps: list[LibraryStamp]) -> dict[str, Any]:
    return {"format": LIBRARY_FORMAT, "format_version": LIBRARY_VERSION,
            "generator": GENERATOR, "stamps": [stamp_entry(s) for s in stamps]}


def dumps_library(stamps: list[LibraryStamp]) -> str:
    doc = library_doc(stamps)
    head = [f'  "format": "{LIBRARY_FORMAT}",', f'  "format_version": {LIBRARY_VERSION},',
            f"  \"generator\": {json.dumps(GENERATOR)},"]
    body = ['  "stamps": []'] if not doc["stamps"] else \
        ['  "stamps": [', *dumps_stamps(doc["stamps"], 4), "  ]"]
    return "\n".join(["{", *head, *body, "}"]) + "\n"


def save_library(stamps: list[LibraryStamp], path: PathLike) -> None:
    """Write a library file atomically; :class:`MapSaveError` saying why not."""
    try:
        text = dumps_library(stamps)
    except ValueError as exc:
        raise MapSaveError(f"cannot save stamp library {path}: {exc}") from exc
    atomic_write_text(path, text)


def save_pack_stamps(stamps: list[LibraryStamp], path: PathLike) -> None:
    """Write the stamps into the map pack ``path`` (its other keys kept as they
    are; version 4 while it carries stamps)."""
    from .packs import read_pack, save_pack

    pack, problems = read_pack(path)
    if pack is None or has_errors(problems):
        first = next((p for p in problems if p.is_error), None)
        raise MapSaveError(f"cannot save the stamps into pack {path}: {first}")
    pack = dict(pack)
    if stamps:
        pack["stamps"] = [stamp_entry(s) for s in stamps]
        pack["format_version"] = PACK_STAMPS_VERSION
    else:
        pack.pop("stamps", None)
    save_pack(pack, path)


# ------------------------------------------------------------------ reading
def stamps_from_entries(entries: Any, at: str = "/stamps"
                        ) -> tuple[list[LibraryStamp], list[Problem]]:
    """Stamps of a schema-valid ``stamps`` list, and the problems found (errors
    name the stamp and point into the file)."""
    stamps: list[LibraryStamp] = []
    problems: list[Problem] = []
    seen: dict[str, int] = {}
    for i, entry in enumerate(entries):
        where = f"{at}/{i}"
        name = entry["name"]
        label = f"stamp {name!r}"
        if name in seen:
            problems.append(error(f"{label}: the name is used twice (also {at}/{seen[name]})",
                                  where + "/name", code="stamp"))
            continue
        seen[name] = i
        model, found = decode_map(entry["map"], schema_checked=True)
        problems += [p.located(prefix=where + "/map") for p in found if p.is_error]
        if model is None:
            continue
        if model.width < 3 or model.height < 3:
            problems.append(error(f"{label}: its map is {model.width} x {model.height}; a "
                                  "stamp's map has a margin of one tile (at least 3 x 3)",
                                  where + "/map", code="stamp"))
            continue
        ok, mask = _mask(entry.get("tiles"), model, label, where, problems)
        edges = tuple(Edge(x, y, s) for x, y, s in entry.get("open_edges", []))
        bad = [e for e in edges if not model.edge_in_bounds(e)]
        if bad:
            problems.append(error(f"{label}: open edge {bad[0]} is not an edge of its map",
                                  where + "/open_edges", code="stamp"))
            continue
        if ok:
            stamps.append(LibraryStamp(name, model, mask, edges))
    return stamps, problems


def _mask(rows: Any, model: MapModel, label: str, where: str, problems: list[Problem]
          ) -> tuple[bool, np.ndarray | None]:
    """Whether the ``tiles`` rows fit the stamp, and its mask (None: every tile)."""
    if rows is None:
        return True, None
    w, h = model.width - 2, model.height - 2
    if len(rows) != h or any(len(r) != w for r in rows):
        problems.append(error(f"{label}: 'tiles' must be {h} row(s) of {w} character(s), "
                              "like the stamp", where + "/tiles", code="stamp"))
        return False, None
    mask = np.array([[c == "#" for c in r] for r in rows], bool)
    if not mask.any():
        problems.append(error(f"{label}: 'tiles' marks no tile", where + "/tiles",
                              code="stamp"))
        return False, None
    return True, mask


def library_from_doc(doc: Any, *, source: str | None = None
                     ) -> tuple[list[LibraryStamp] | None, list[Problem]]:
    """The stamps of a parsed library file, or of a map pack's ``stamps`` (a pack
    without stamps: an empty library); None with the problems when it has errors."""
    if isinstance(doc, dict) and doc.get("format") == PACK_FORMAT:
        from .packs import pack_from_doc

        pack, problems = pack_from_doc(doc, source=source)
        if pack is None:  # the pack's own structure (its stamps included) is broken
            return None, problems
        stamps, problems = stamps_from_entries(pack.get("stamps", []))
    else:
        problems = _format_problems(doc)
        if not problems:
            validator = _StrictValidator(load_schema("stamp-library"), registry=_registry())
            problems = _to_problems(((), e) for e in validator.iter_errors(doc))
        if problems:
            return None, [p.located(source=source) for p in problems]
        stamps, problems = stamps_from_entries(doc["stamps"])
    problems = [p.located(source=source) for p in problems]
    return (None if has_errors(problems) else stamps), problems


def _format_problems(doc: Any) -> list[Problem]:
    if not isinstance(doc, dict) or doc.get("format") != LIBRARY_FORMAT:
        return [error(f"not a stamp library (a {LIBRARY_SUFFIX} file with \"format\": "
                      f"\"{LIBRARY_FORMAT}\") nor a map pack", "/format", code="format")]
    version = doc.get("format_version")
    if type(version) is int and version > LIBRARY_VERSION:
        return [error(f"written by a newer SODWA Editor (stamp library version {version}); "
                      f"this editor reads version {LIBRARY_VERSION}: please update",
                      "/format_version", code="format-version")]
    return []


def read_library(path: PathLike) -> tuple[list[LibraryStamp] | None, list[Problem]]:
    """The stamps of a library file or a map pack file; never raises for bad input."""
    text, problems = read_text(path)
    if text is None:
        return None, problems
    doc, problems = parse_json(text, source=str(path))
    if problems:
        return None, problems
    return library_from_doc(doc, source=str(path))


def is_pack_file(path: PathLike) -> bool:
    """Whether ``path`` holds a map pack (the library is then its ``stamps``)."""
    text, _ = read_text(path)
    return text is not None and f'"format": "{PACK_FORMAT}"' in text[:400]


def library_beside(map_path: Path | None) -> Path | None:
    """The library file beside a map file (``stamps.sodwa-stamps.json`` in its
    folder), None for an unsaved map."""
    return None if map_path is None else map_path.parent / ("stamps" + LIBRARY_SUFFIX)


__all__ = ["LIBRARY_SUFFIX", "LibraryStamp", "dumps_library", "library_beside",
           "library_from_doc", "pointer", "read_library", "save_library", "save_pack_stamps"]
