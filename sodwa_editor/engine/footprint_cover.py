"""Cover (companion rulebook ``creature-sizes-flanking-cover.txt``, quoted as *CS*;
docs/rules.md S15-S18).  Pure: no battle state, no Qt.

*CS*: "Cover can help prevent ranged attacks from hitting you. You are Covered when:
There's Rough Terrain directly in between you and someone else's line of sight ...;
There's a creature directly in between you and someone else (since creatures are also
Rough Terrain). You are Heavily Covered when there's Blocking Terrain directly in between
you and someone else's line of sight."

SODWA already has both facts on its own line (RB *Line of Sight*): Impeding terrain
crossed gives the target +20 Defense, and an Obstructing feature or a character crossed
blocks the line (no ranged attack at all).  The companion's Rough terrain is SODWA's
Impeding, its Blocking terrain SODWA's Obstructing.  So cover is read on the **direct
line** (S15): the line between the *middle squares* of the two creatures, walked by the
engine's LoS rules (L1-L13, with the viewer's and the target's own squares read as S9
does).  For two one-tile creatures that is the very line SODWA walks, and cover says
nothing SODWA does not (S16); for a large creature SODWA's line is the best of many
(S9), and the direct line tells whether the target is partly behind something.

>>> from sodwa_editor.engine.model import MapModel, Rect
>>> from sodwa_editor.engine.footprint import Footprint
>>> m = MapModel(9, 4)
>>> m.set_terrain(4, 1, m.registry.id_of("obstructing"))
>>> c = cover(m, ((0, 0), Footprint(2, 4)), ((7, 0), Footprint(2, 4)), creatures={})
>>> c.level, c.ring, c.line
('heavy', (4, 1), 'clear')
>>> c.reason
'heavily covered: the Obstructing tile (4, 1) is directly between (1, 1) and (7, 1)'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

import numpy as np

from .footprint import Footprint, check_on_map, creatures_adjacent, overlaps
from .footprint_los import _best, _level, footprint_los
from .los import CROSSINGS, Reason, _explain
from .los_inputs import los_inputs, marked_copy, pack_keys, pair_key
from .model import MapModel
from .terrain import Base, Crossing

Tile = tuple[int, int]
Placed = tuple[Tile, Footprint]
LEVELS = ("none", "covered", "heavy")


@dataclass(frozen=True)
class Cover:
    """A target's cover from one attacker.

    ``level``: ``"none"``, ``"covered"`` or ``"heavy"`` (Heavily Covered); ``reason``: one
    line; ``ring``: the tile that gives it, or the anchor of the creature that does (for
    ``"none"``, the tile that blocks the line when there is no line, else None);
    ``creature``: the creature that covers the target; ``line``: SODWA's class of the best
    line (S9: ``"clear"``, ``"impeded"``, ``"blocked"``), which the battle needs so as not
    to count an impeded line twice (S17)."""

    level: str
    reason: str
    ring: Tile | None = None
    creature: str | None = None
    line: str = "clear"

    def to_json(self) -> dict[str, object]:
        return {"level": self.level, "reason": self.reason,
                "ring": list(self.ring) if self.ring is not None else None,
                "creature": self.creature, "line": self.line}


def middle_square(anchor: Tile, fp: Footprint, toward: Tile) -> Tile:
    """The middle square of a footprint (S15): on each axis the middle tile, and for an
    even side of the two middle tiles the one nearer ``toward`` (the other creature's
    middle, in doubled coordinates ``2 * x + 1``), the lower one on a tie.

    >>> middle_square((0, 0), Footprint(4, 3), (20, 3))
    (2, 1)
    """
    out = []
    for start, side, goal in ((anchor[0], fp.width, toward[0]), (anchor[1], fp.height,
                                                                  toward[1])):
        lo = start + (side - 1) // 2
        hi = start + side // 2
        out.append(hi if abs(2 * hi + 1 - goal) < abs(2 * lo + 1 - goal) else lo)
    return out[0], out[1]


def _doubled_centre(anchor: Tile, fp: Footprint) -> Tile:
    return 2 * anchor[0] + fp.width, 2 * anchor[1] + fp.height


def direct_line(a: Placed, b: Placed) -> tuple[Tile, Tile]:
    """The two squares the direct line joins (S15): each creature's middle square,
    chosen toward the other's centre."""
    return (middle_square(*a, _doubled_centre(*b)), middle_square(*b, _doubled_centre(*a)))


def cover(model: MapModel, attacker: Placed, target: Placed, *,
          creatures: Mapping[str, Placed]) -> Cover:
    """The cover ``target`` has from ``attacker`` (each its top-left tile and footprint),
    docs/rules.md S15-S18.  ``creatures``: every other creature on the map (name -> top-left
    tile and footprint; entries overlapping the attacker or the target are the two
    themselves and are left out).

    In order: adjacent creatures (S5) make a melee attack, and cover is against ranged
    ones ("none").  SODWA's best line (S9) blocked: there is no ranged attack to cover
    against ("none", the blocker ringed).  Else the direct line (:func:`direct_line`):
    Obstructing terrain on it (a tile, border, walled corner or elevated terrain,
    walked without creatures) makes the target **heavy** (Heavily Covered: *CS*'s
    Blocking terrain, "can be seen around"); else a creature on it makes it **covered**
    (the creature named and its anchor ringed); else Impeding terrain on it (the
    companion's Rough terrain, SODWA's impeded line) makes it **covered**; else "none".
    """
    (a, fa), (b, fb) = attacker, target
    check_on_map(model, a, fa)
    check_on_map(model, b, fb)
    if overlaps(a, fa, b, fb):
        raise ValueError(f"the footprints {fa} at {a} and {fb} at {b} overlap")
    others = {n: p for n, p in creatures.items()
              if not overlaps(*p, a, fa) and not overlaps(*p, b, fb)}
    if creatures_adjacent(model, a, fa, b, fb):
        return Cover("none", "no cover: adjacent creatures fight in melee, and cover is "
                     "against ranged attacks", line="clear")
    occupied = [t for anchor, fp in others.values() for t in fp.squares(anchor)]
    who = _namer(others)
    best = footprint_los(model, a, fa, b, fb, occupied=occupied, names=who)
    line = best.crossing.label
    if best.crossing is Crossing.BLOCKED:
        reason = best.result.reason
        return Cover("none", f"no cover: no line of sight ({best.describe()})",
                     _ring(model, reason), line=line)
    p, q = direct_line(attacker, target)
    bare = _walk(model, a, fa, b, fb, p, q, [])
    if bare[0] is Crossing.BLOCKED:
        ring = _ring(model, bare[1])
        return Cover("heavy", f"heavily covered: {_what(bare[1])} is directly between {p} "
                     f"and {q}", ring, line=line)
    crowded = _walk(model, a, fa, b, fb, p, q, occupied, who)
    if crowded[0] is Crossing.BLOCKED and crowded[1] is not None:
        tile = crowded[1].tile
        name = who(tile) if tile is not None else None
        anchor = others[name][0] if name is not None else tile
        return Cover("covered", f"covered: creature {name!r} is directly between {p} and "
                     f"{q}", anchor, name, line=line)
    if bare[0] is Crossing.IMPEDED:
        return Cover("covered", f"covered: {_what(bare[1])} is directly between {p} and {q}",
                     _ring(model, bare[1]), line=line)
    return Cover("none", f"no cover: nothing is directly between {p} and {q}", line=line)


def _namer(others: Mapping[str, Placed]) -> Callable[[Tile], str | None]:
    def who(tile: Tile) -> str | None:
        for name, (anchor, fp) in others.items():
            if fp.covers(anchor, tile):
                return name
        return None
    return who


def _what(reason: Reason | None) -> str:
    """``blocked by the Obstructing tile (4, 1)`` -> ``the Obstructing tile (4, 1)``."""
    if reason is None:
        return "something"
    if reason.kind == "target-tile" and reason.tile is not None:
        return f"the target's own tile {reason.tile}, of Impeding terrain,"
    if reason.kind == "corner" and reason.corner is not None:
        return f"the corner {reason.corner}, walled both ways round,"
    text = reason.text
    for verb in ("blocked by ", "impeded by "):
        if text.startswith(verb):
            return text[len(verb):]
    return text.split(": ", 1)[-1]


def _ring(model: MapModel, reason: Reason | None) -> Tile | None:
    """The tile to ring for a reason: its tile, the tile west/north of its edge, or of the
    four tiles around its corner the first (row-major) whose terrain is not Clear."""
    if reason is None:
        return None
    if reason.tile is not None:
        return reason.tile
    if reason.edge is not None:
        return reason.edge.x, reason.edge.y
    if reason.corner is not None:
        cx, cy = reason.corner
        bases = model.registry.base_table()
        for y in (cy - 1, cy):
            for x in (cx - 1, cx):
                if (0 <= x < model.width and 0 <= y < model.height
                        and bases[model.terrain[y, x]] != Base.CLEAR):
                    return x, y
        return cx, cy
    return None


def _walk(model: MapModel, a: Tile, fa: Footprint, b: Tile, fb: Footprint, p: Tile, q: Tile,
          occupied: list[Tile], who: Callable[[Tile], str | None] | None = None
          ) -> tuple[Crossing, Reason | None]:
    """The class and reason of the line ``p`` -> ``q`` read as :func:`.footprint_los` reads
    a line between the two creatures (their own squares as S9 says), with creatures on
    ``occupied``."""
    inp = los_inputs(model)
    lo, level = pair_key(_level(model, a, fa), _level(model, b, fb))
    tc, ec, sc = inp.terrain_context(lo, level)
    xs = np.array([t[0] for t in occupied], np.int64)
    ys = np.array([t[1] for t in occupied], np.int64)
    tc = marked_copy(tc[np.newaxis], *pack_keys([(lo, level)]), inp.elev, inp.tile_los,
                     xs, ys)[0]
    tc[a[1] : a[1] + fa.height, a[0] : a[0] + fa.width] = 0
    tgt = np.s_[b[1] : b[1] + fb.height, b[0] : b[0] + fb.width]
    tc[tgt] = inp.target[tgt]
    one = np.array([0], np.int64)
    cls, _at, kind, rx, ry, side = _best(one + p[0], one + p[1], one + q[0], one + q[1],
                                         tc, ec, sc, inp.target)
    crossing = CROSSINGS[int(cls)]
    return crossing, _explain(model, crossing, int(kind), int(rx), int(ry), int(side), who=who)

