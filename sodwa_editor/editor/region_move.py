"""Moving a selection (issue 29: the Select tool drags the selected tiles).

The selected tiles go to their new place with everything they carry: terrain,
elevation, transition tile and Indoor/Outdoor flag, the borders and transition
borders of their edges (inside and on the selection's outline, as Copy takes
them), their start-zone membership, the characters and the objects standing on
them.  The tiles left behind become what Cut leaves: Clear ground at level 0
without borders, in no start zone.  The moved tiles replace what was at their
new place, except characters and objects, which are never overwritten: a move
that would cover one that does not move with the selection is refused, as is a
move of any tile off the map.  A creature larger than one tile moves whole: it
moves when all its tiles are selected, and a selection holding only some of them
is refused (it would cut the creature in two); one that stays may not be covered
by any moved tile.

:func:`plan_move` works the move out (or says why it is refused);
:class:`MoveSelection` is its one undo step, pushed by
:meth:`~.document.Document.move_region`.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass

import numpy as np
from PySide6.QtGui import QUndoCommand

from ..engine.creatures import placements, where_refused
from ..engine.model import Character, MapModel, MapObject, Rect
from .commands import FieldEdit, MapHolder, PasteStamp, SetStartZone, write_field
from .stamp import Stamp


@dataclass
class MovePlan:
    """What a move writes: the cells, the start zones after, the characters and
    objects that move (before and after, the same ids)."""

    cells: list[FieldEdit]
    zones: dict[str, set[tuple[int, int]]]
    characters: list[tuple[Character, Character]]
    objects: list[tuple[MapObject, MapObject]]


def _mask(model: MapModel, rect: Rect, mask: np.ndarray | None) -> np.ndarray:
    """bool (H, W): the selected tiles of the map."""
    out = np.zeros(model.shape, bool)
    out[rect.y0:rect.y1 + 1, rect.x0:rect.x1 + 1] = True if mask is None else mask
    return out


def refusal(model: MapModel, rect: Rect, mask: np.ndarray | None, dx: int, dy: int
            ) -> str | None:
    """Why moving the selection by (dx, dy) is refused, or None when it is not."""
    w, h = model.width, model.height
    if rect.x0 + dx < 0 or rect.y0 + dy < 0 or rect.x1 + dx >= w or rect.y1 + dy >= h:
        return (f"the selection would leave the map (its tiles {rect.x0 + dx}..{rect.x1 + dx}, "
                f"{rect.y0 + dy}..{rect.y1 + dy} on a {w} x {h} map); not moved")
    src = _mask(model, rect, mask)
    dst = np.zeros_like(src)
    ys, xs = np.nonzero(src)
    dst[ys + dy, xs + dx] = True
    staying = dst & ~src  # tiles covered that do not move with the selection
    for cid, (anchor, fp) in placements(model).items():
        squares = fp.squares(anchor)
        inside = [t for t in squares if model.in_bounds(*t) and src[t[1], t[0]]]
        if inside and len(inside) < len(squares):
            return (f"the selection holds {len(inside)} of the {len(squares)} tiles of "
                    f"character {cid} ({fp} at {anchor[0]}, {anchor[1]}): select all of "
                    "them or none; not moved")
        hit = next((t for t in squares if model.in_bounds(*t) and staying[t[1], t[0]]), None)
        if hit is not None:
            return (f"the selection would cover character {cid} at ({hit[0]}, {hit[1]}); "
                    f"move or remove it first; not moved")
    for it in model.objects.values():
        if staying[it.y, it.x]:
            return (f"the selection would cover object {it.id} at ({it.x}, {it.y}); "
                    f"move or remove it first; not moved")
    return None


def paste_refusal(model: MapModel, stamp: Stamp, ox: int, oy: int) -> str | None:
    """Why pasting ``stamp`` with its top-left tile at (ox, oy) (a paste, or what Cut
    and Delete write) is refused, or None: it would leave a creature standing on
    some of its tiles unable to stand there (a wall under it, two levels, a wall
    through it; docs/rules.md S4)."""
    tiles = set(stamp.footprint(ox, oy))
    hit = [c for c in model.characters.values() if tiles.intersection(c.squares())]
    if not hit:
        return None
    after = model.copy()
    for e in stamp.edits(after, ox, oy):
        write_field(after, e.field, e.idx, e.after)
    for c in hit:
        why = where_refused(after, c)
        if why is not None and why.kind != "character":
            return (f"it would leave character {c.id} ({c.size} {c.footprint_at()} at "
                    f"{c.x}, {c.y}) where it cannot stand: {why.text}; move the character "
                    "first")
    return None


def plan_move(model: MapModel, rect: Rect, mask: np.ndarray | None, dx: int, dy: int
              ) -> MovePlan | str:
    """The move of the selection (``rect`` and its ``mask``, None: all of it) by
    (dx, dy), or why it is refused (one line)."""
    if (dx, dy) == (0, 0):
        return "the selection is where it was; not moved"
    why = refusal(model, rect, mask, dx, dy)
    if why is not None:
        return why
    w, h = rect.x1 - rect.x0 + 1, rect.y1 - rect.y0 + 1
    stamp = Stamp.from_region(model, rect, mask)
    clear = Stamp.empty(w, h).with_mask(mask).edits(model, rect.x0, rect.y0)
    after_clear = model.copy()
    for e in clear:
        write_field(after_clear, e.field, e.idx, e.after)
    paste = {e.field: e for e in stamp.edits(after_clear, rect.x0 + dx, rect.y0 + dy)}
    cells = []
    for e in clear:  # the clear's "before" is the map's; the paste's "after" wins
        both = e.merged(paste.pop(e.field)) if e.field in paste else e
        keep = both.before != both.after
        cells.append(FieldEdit(e.field, both.idx[keep], both.before[keep], both.after[keep]))
    cells += paste.values()  # fields the clear did not touch (not expected, kept safe)
    src = _mask(model, rect, mask)
    ys, xs = np.nonzero(src)
    covered = {(int(x), int(y)) for x, y in zip(xs + dx, ys + dy, strict=True)}
    zones = {}
    for team, tiles in model.start_zones.items():
        moved = {(x + dx, y + dy) for x, y in tiles if src[y, x]}
        zones[team] = {t for t in tiles if not src[t[1], t[0]] and t not in covered} | moved
    characters = [(ch, _shifted(ch, dx, dy)) for ch in model.characters.values()
                  if src[ch.y, ch.x]]
    objects = [(ob, _shifted(ob, dx, dy)) for ob in model.objects.values() if src[ob.y, ob.x]]
    return MovePlan(cells, zones, characters, objects)


def _shifted(item, dx: int, dy: int):
    out = copy.deepcopy(item)
    out.x, out.y = item.x + dx, item.y + dy
    return out


class MoveSelection(QUndoCommand):
    """Move Selection: the cells, the start zones, the characters and the objects
    of a :class:`MovePlan` as one undo step."""

    def __init__(self, doc: MapHolder, plan: MovePlan, text: str = "Move Selection") -> None:
        super().__init__(text)
        self.doc = doc
        self.cells = PasteStamp(doc, text, plan.cells)
        self.zones = SetStartZone(doc, plan.zones, text=text)
        self.characters = [(copy.deepcopy(a), copy.deepcopy(b)) for a, b in plan.characters]
        self.objects = [(copy.deepcopy(a), copy.deepcopy(b)) for a, b in plan.objects]

    def cell_count(self) -> int:
        return self.cells.cell_count()

    def _put(self, which: int) -> None:
        model = self.doc.model
        for ch in self.characters:  # the same ids: put_character replaces each
            model.put_character(copy.deepcopy(ch[which]))
        for ob in self.objects:
            model.put_object(copy.deepcopy(ob[which]))

    def redo(self) -> None:
        self.cells.redo()
        self.zones.redo()
        self._put(1)

    def undo(self) -> None:
        self._put(0)
        self.zones.undo()
        self.cells.undo()
