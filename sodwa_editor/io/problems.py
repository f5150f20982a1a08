"""Problems found in a map or map pack, and the errors that carry them.

A :class:`Problem` is one finding a designer can act on: a severity, a message
in the designer's words, a JSON pointer into the file (``/borders/12/edge``) and,
where it applies, the tile or edge on the map.

>>> p = Problem("error", "character 'red' stands on Obstructing tile (4, 5)",
...             "/characters/2", tile=(4, 5), source="maps/x.json")
>>> str(p)
"maps/x.json: /characters/2: character 'red' stands on Obstructing tile (4, 5)"
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from typing import Any, Literal

from ..engine.model import Edge

Severity = Literal["error", "warning"]

#: At most this many problems of one kind are reported one by one; the rest are
#: summed up in a single problem ("... and 812 more like this").
MAX_PER_KIND = 50


def pointer(*parts: object) -> str:
    """JSON pointer (RFC 6901) from path parts: ``pointer("borders", 3) == "/borders/3"``."""
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)


def edge_label(edge: Edge) -> str:
    """How messages name an edge: ``(3, 4, E)``, the file's ``[3, 4, "E"]`` key."""
    return f"({edge.x}, {edge.y}, {edge.side})"


@dataclass(frozen=True)
class Problem:
    """One finding in a map document or an in-memory map.

    ``path`` is a JSON pointer into the map file ("" is the whole document);
    ``code`` is a stable machine-readable name of the check (see
    docs/map-format.md); ``source`` the file and ``map_name`` the map (set for
    maps inside a pack).
    """

    severity: Severity
    message: str
    path: str = ""
    tile: tuple[int, int] | None = None
    edge: Edge | None = None
    code: str = ""
    source: str | None = None
    map_name: str | None = None

    @property
    def is_error(self) -> bool:
        return self.severity == "error"

    def location(self) -> str:
        """Where the problem is: the JSON pointer, plus the map name inside a pack."""
        where = self.path or "/"
        if self.map_name is not None:
            where += f" (map {self.map_name!r})"
        return where

    def __str__(self) -> str:
        head = f"{self.source}: " if self.source else ""
        return f"{head}{self.location()}: {self.message}"

    def to_json(self) -> dict[str, Any]:
        """Plain-JSON form for ``sodwa validate --json`` and other tools."""
        return {
            "severity": self.severity,
            "code": self.code,
            "message": self.message,
            "path": self.path,
            "tile": list(self.tile) if self.tile is not None else None,
            "edge": list(self.edge) if self.edge is not None else None,
            "file": self.source,
            "map": self.map_name,
        }

    def located(self, *, source: str | None = None, prefix: str = "",
                map_name: str | None = None) -> Problem:
        """Copy of the problem with a file name, a path prefix and/or a map name."""
        return replace(
            self,
            source=source if source is not None else self.source,
            path=prefix + self.path,
            map_name=map_name if map_name is not None else self.map_name,
        )


def error(message: str, path: str = "", *, code: str, tile: tuple[int, int] | None = None,
          edge: Edge | None = None) -> Problem:
    return Problem("error", message, path, tile, edge, code)


def warning(message: str, path: str = "", *, code: str, tile: tuple[int, int] | None = None,
            edge: Edge | None = None) -> Problem:
    return Problem("warning", message, path, tile, edge, code)


def capped(problems: Iterable[Problem], limit: int = MAX_PER_KIND) -> Iterator[Problem]:
    """Yield at most ``limit`` problems, then one summary of how many were left out."""
    extra = 0
    last: Problem | None = None
    for i, p in enumerate(problems):
        if i < limit:
            yield p
        else:
            extra += 1
            last = p
    if last is not None:
        yield replace(last, message=f"... and {extra} more problem(s) like the ones above",
                      tile=None, edge=None)


def has_errors(problems: Iterable[Problem]) -> bool:
    return any(p.severity == "error" for p in problems)


class MapLoadError(Exception):
    """A map (or pack) could not be loaded; ``problems`` lists everything found."""

    def __init__(self, source: str, problems: list[Problem]) -> None:
        self.source = source
        self.problems = problems
        errors = [p for p in problems if p.severity == "error"]
        shown = "\n".join(f"  {p.location()}: {p.message}" for p in errors[:20])
        more = f"\n  ... and {len(errors) - 20} more" if len(errors) > 20 else ""
        super().__init__(f"{source}: {len(errors)} error(s):\n{shown}{more}")


class MapSaveError(OSError):
    """Saving failed; the previous file (if any) is left untouched."""
