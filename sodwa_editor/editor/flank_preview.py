"""The Flanking/Cover preview (issue 26 section 2; docs/rules.md S12-S18): hover a
character to see who flanks it and by how much; pin an attacker (P or Alt+click on it)
and hover a target to see the target's cover from it and why.

On the map: the target ringed in black with the squares that flank it as its badge
(``x3``: three foe squares count), each flanking foe ringed in vermillion with the number
of its squares that count, the other adjacent foes ringed in grey (they stand by, but
touch every other adjacent foe), the pinned attacker ringed in blue, and what gives the
cover ringed in the cover's colour: the tile (Obstructing: heavily covered; Impeding:
covered) or the creature directly between.  Foes are the characters of another team
(the characters' ``team``).  The answers are :func:`.engine.flanking.flanking` and
:func:`.engine.footprint_cover.cover`; this module only gathers and labels them, and
says what they would do in a battle under the rules (the default rules file unless
given: ``flanking.*``, ``cover.*``, ``modifiers.impeded_defense``; docs/rules.md S19,
S20), as the battle's :func:`.battle.sized.flanking_modifier` and
:func:`.battle.sized.cover_modifier` reckon it.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtGui import QColor

from ..battle.rules import Rules, default_rules
from ..engine.creatures import placements
from ..engine.flanking import Flanking, flanking
from ..engine.footprint_cover import Cover, cover, direct_line
from ..engine.model import Character, MapModel
from ..engine.sizes import Footprint
from . import style

Tile = tuple[int, int]
Ring = tuple[Tile, Footprint, QColor, str]
TARGET = style.OKABE_ITO["black"]
FLANKER = style.OKABE_ITO["vermillion"]
STANDING_BY = QColor(120, 120, 120)
ATTACKER = style.OKABE_ITO["blue"]
#: the cover's colour by its level (heavy: like a blocked line; covered: impeded)
COVER = {"heavy": style.OKABE_ITO["vermillion"], "covered": style.OKABE_ITO["orange"],
         "none": style.OKABE_ITO["bluish green"]}


@dataclass(frozen=True)
class FlankView:
    """What the preview shows for one target (and one attacker)."""

    target: Character
    flanking: Flanking
    attacker: Character | None = None
    cover: Cover | None = None
    rules: Rules | None = None

    def rings(self, model: MapModel) -> tuple[list[Ring], Tile | None]:
        """The creatures to ring (top-left tile, footprint, colour, badge) and the tile
        that gives the cover (None: none, or a creature gives it)."""
        placed = placements(model)
        f = self.flanking
        out: list[Ring] = [(*placed[self.target.id], TARGET, f"x{f.count}" if f.flanked else "")]
        for cid in f.adjacent:
            if cid in f.flankers:
                out.append((*placed[cid], FLANKER, str(f.flankers[cid])))
            else:
                out.append((*placed[cid], STANDING_BY, ""))
        tile = None
        if self.attacker is not None and self.cover is not None:
            if self.attacker.id not in f.adjacent:
                out.append((*placed[self.attacker.id], ATTACKER, ""))
            if self.cover.creature is not None and self.cover.creature in placed:
                out.append((*placed[self.cover.creature], COVER[self.cover.level], "cover"))
            else:
                tile = self.cover.ring
        return out, tile

    def direct_line(self, model: MapModel) -> tuple[Tile, Tile]:
        """The squares the cover is read between (S15: each creature's middle square)."""
        assert self.attacker is not None
        placed = placements(model)
        return direct_line(placed[self.attacker.id], placed[self.target.id])

    def describe(self) -> str:
        """The status line: ``knight: flanked by 'ogre' (2 squares), ... ; from 'archer':
        covered: ...``."""
        text = f"{self.target.id}: {self.flanking.describe()}"
        if self.flanking.flanked and self.rules is not None:
            text += f" ({self.in_battle_flanking()})"
        if self.attacker is not None and self.cover is not None:
            text += f"; from {self.attacker.id!r}: {self.cover.reason}"
            if self.rules is not None:
                text += f" ({self.in_battle_cover()})"
        return text

    def in_battle_flanking(self) -> str:
        """What flanking does to the target's Evasion in a battle (S19)."""
        assert self.rules is not None
        r = self.rules.flanking
        if not r.enabled:
            return "no effect in battles: flanking.enabled is off"
        return (f"in a battle: Evasion -{r.evasion_per_square * self.flanking.count}, "
                f"{r.evasion_per_square} per square, at most its Evasion")

    def in_battle_cover(self) -> str:
        """The Defense the target gets against a ranged attack from the attacker in a
        battle: the impeded line's and the cover's beyond it (S17, S20)."""
        assert self.rules is not None and self.cover is not None
        if self.cover.line == "blocked" or self.cover.reason.startswith("no cover: adjacent"):
            return "no ranged attack"
        r = self.rules
        line = r.modifiers.impeded_defense if self.cover.line == "impeded" else 0
        value = {"none": 0, "covered": r.cover.covered_defense,
                 "heavy": r.cover.heavy_defense}[self.cover.level]
        extra = max(0, value - line) if r.cover.enabled else 0
        parts = ([f"impeded line +{line}"] if line else []) + (
            [f"cover +{extra}"] if extra else [])
        off = "" if r.cover.enabled else "; cover.enabled is off"
        return (f"in a battle: Defense +{line + extra} against a ranged attack"
                + (f" ({', '.join(parts)})" if parts else "") + off)


def flank_view(model: MapModel, target: str, attacker: str | None = None, *,
               rules: Rules | None = None) -> FlankView:
    """The preview of ``target`` (a character id), with the cover from ``attacker`` when
    given (another character; the same team is allowed: the question is the line),
    under ``rules`` (None: the default rules file)."""
    rules = rules or default_rules()
    placed = placements(model)
    t = model.characters[target]
    foes = {cid: p for cid, p in placed.items()
            if cid != target and model.characters[cid].team != t.team}
    f = flanking(model, placed[target], foes, minimum_foes=rules.flanking.minimum_foes)
    if attacker is None or attacker == target or attacker not in model.characters:
        return FlankView(t, f, rules=rules)
    others = {cid: p for cid, p in placed.items() if cid not in (target, attacker)}
    c = cover(model, placed[attacker], placed[target], creatures=others)
    return FlankView(t, f, model.characters[attacker], c, rules)
