"""Flanking (companion rulebook ``creature-sizes-flanking-cover.txt``, quoted as *CS*;
docs/rules.md S12-S14).  Pure: no battle state, no Qt.

*CS*: "You are Flanked when at least 2 foes are adjacent to you, but not adjacent to each
other. For every foe that counts towards Flanking you, you suffer -1 Evasion."  "Creatures
larger than Medium occupy multiple squares and count as a # of foes for the purposes of
Flanking equal to the # of squares adjacent to the Flanked target that they are occupying.
A minimum of 2 combatants is always required to flank someone."

Adjacency is SODWA's, square by square (:func:`.footprint.touching_squares`, S5): never
across an Obstructing border or a walled corner, nor between levels without a transition.

>>> from sodwa_editor.engine.model import MapModel
>>> from sodwa_editor.engine.footprint import Footprint
>>> m = MapModel(5, 5)
>>> one = Footprint(1, 1)
>>> f = flanking(m, ((2, 2), one), {"a": ((1, 2), one), "b": ((3, 2), one)})
>>> f.flanked, f.flankers, f.count
(True, {'a': 1, 'b': 1}, 2)
>>> flanking(m, ((2, 2), one), {"a": ((1, 2), one), "b": ((1, 3), one)}).flanked
False
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from .footprint import Footprint, creatures_adjacent, overlaps, touching_squares
from .model import MapModel

Tile = tuple[int, int]
Placed = tuple[Tile, Footprint]


@dataclass(frozen=True)
class Flanking:
    """Whether a creature is Flanked and by whom.

    ``flankers``: every foe that counts towards flanking it -> the number of its squares
    adjacent to the target (*CS*: a larger creature "count[s] as a # of foes ... equal to
    the # of squares adjacent to the Flanked target that they are occupying"), in the
    order the foes were given; empty when the target is not Flanked.  ``count``: their
    total, the number of foes *CS*'s "-1 Evasion" is multiplied by.  ``adjacent``: every
    foe adjacent to the target (flanking or not), for a preview to show who stands by."""

    flanked: bool
    flankers: dict[str, int] = field(default_factory=dict)
    count: int = 0
    adjacent: tuple[str, ...] = ()

    def describe(self) -> str:
        """One line: ``flanked by 'a' (1 square), 'b' (2 squares): counts 3``."""
        if not self.flanked:
            if len(self.adjacent) >= 2:
                return (f"not flanked: the adjacent foes {_names(self.adjacent)} are "
                        "adjacent to each other")
            return f"not flanked: {len(self.adjacent)} adjacent foe(s), 2 are needed"
        parts = [f"{n!r} ({c} square{'s' if c != 1 else ''})" for n, c in self.flankers.items()]
        return f"flanked by {', '.join(parts)}: counts {self.count}"

    def to_json(self) -> dict[str, object]:
        return {"flanked": self.flanked, "flankers": dict(self.flankers), "count": self.count,
                "adjacent": list(self.adjacent)}


def _names(names: tuple[str, ...]) -> str:
    return ", ".join(repr(n) for n in names)


def flanking(model: MapModel, target: Placed, foes: Mapping[str, Placed], *,
             minimum_foes: int = 2) -> Flanking:
    """Whether ``target`` (its top-left tile and footprint) is Flanked by ``foes``
    (name -> top-left tile and footprint), docs/rules.md S12-S14.

    Which foes count (S13): a foe counts towards flanking when it is adjacent to the
    target and **some other adjacent foe is not adjacent to it** (*CS*: "at least 2 foes
    are adjacent to you, but not adjacent to each other"): foes on opposite sides both
    count; a foe that touches every other adjacent foe (one standing between two
    flankers, or shoulder to shoulder with the only other one) does not.  The target is
    Flanked when at least ``minimum_foes`` distinct foes count (*CS*: "A minimum of 2
    combatants is always required to flank someone": a single Huge creature wrapped
    around a target never flanks it alone); ``minimum_foes`` below 2 is refused.  Each
    counting foe counts once per square of its own adjacent to a square of the target
    (S14).  The caller passes the foes that may flank (the battle: the target's enemies
    still on the board); overlapping footprints are a ``ValueError``.

    >>> from sodwa_editor.engine.model import MapModel
    >>> m = MapModel(6, 6)
    >>> one, large = Footprint(1, 1), Footprint(2, 2)
    >>> f = flanking(m, ((2, 2), one), {"big": ((0, 1), large), "b": ((3, 2), one)})
    >>> f.flankers, f.count
    ({'big': 2, 'b': 1}, 3)
    """
    if minimum_foes < 2:
        raise ValueError(f"flanking needs at least 2 foes (CS: 'A minimum of 2 combatants is "
                         f"always required'), not {minimum_foes}")
    t_anchor, t_fp = target
    near: dict[str, int] = {}
    for name, (anchor, fp) in foes.items():
        if overlaps(anchor, fp, t_anchor, t_fp):
            raise ValueError(f"foe {name!r} ({fp} at {anchor}) overlaps the target "
                             f"({t_fp} at {t_anchor})")
        pairs = touching_squares(model, anchor, fp, t_anchor, t_fp)
        if pairs:
            near[name] = len({mine for mine, _theirs in pairs})
    names = list(near)
    counting = [a for a in names
                if any(b != a and not creatures_adjacent(model, *foes[a], *foes[b])
                       for b in names)]
    if len(counting) < minimum_foes:
        return Flanking(False, {}, 0, tuple(names))
    flankers = {n: near[n] for n in counting}
    return Flanking(True, flankers, sum(flankers.values()), tuple(names))
