"""Area ability use in a batch of battles (issue 25: "``sodwa simulate`` reports
ability use per archetype"): what each battle's record counts (:func:`ability_rows`,
from the battle's :class:`~.events.AbilityUsed` and :class:`~.events.AreaHit`
events) and the balance report's table per archetype and ability
(:class:`AbilityTally`).

A record's ``abilities`` holds one row per character and ability that was used or
hit anyone in the battle, ``[character, ability, uses, victims, ally victims, hits,
damage, ally damage, kills, ally kills]``:

* ``uses``: the ability used as a Special Action (``AbilityUsed``);
* ``victims`` / ``ally victims``: rolls against an enemy / a character of the
  caster's team, the caster included (one ``AreaHit`` each, a lingering area's
  upkeeps and a falling object's landing included);
* ``hits``: rolls against enemies that hit; ``damage`` / ``ally damage``: the damage
  dealt to enemies / to the caster's team;
* ``kills`` / ``ally kills``: characters defeated by the ability (a ``Defeated``
  event by the caster whose last damage was that ability's).

>>> from sodwa_editor.battle.events import AbilityUsed
>>> ability_rows([AbilityUsed(2, "Fireball", (3, 4), (3, 4), ((3, 4),), 250, 1)])
[[2, 'Fireball', 1, 0, 0, 0, 0, 0, 0, 0]]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from .events import AbilityUsed, AreaHit, Attacked, Defeated

#: The counts of a row after its character and ability, in order.
COUNTS = ("uses", "victims", "ally_victims", "hits", "damage", "ally_damage", "kills",
          "ally_kills")
USES, VICTIMS, ALLY_VICTIMS, HITS, DAMAGE, ALLY_DAMAGE, KILLS, ALLY_KILLS = range(len(COUNTS))


def ability_rows(events: Iterable[Any]) -> list[list[Any]]:
    """The ``abilities`` rows of one battle's events (see the module docstring),
    sorted by character and ability."""
    rows: dict[tuple[int, str], list[int]] = {}
    last: dict[int, tuple[int, str, bool]] = {}  # victim -> its last damage's area ability

    def row(actor: int, ability: str) -> list[int]:
        counts = rows.get((actor, ability))
        if counts is None:
            counts = rows[(actor, ability)] = [0] * len(COUNTS)
        return counts

    for e in events:
        if isinstance(e, AbilityUsed):
            row(e.actor, e.ability)[USES] += 1
        elif isinstance(e, AreaHit):
            counts = row(e.actor, e.ability)
            if e.ally:
                counts[ALLY_VICTIMS] += 1
                counts[ALLY_DAMAGE] += e.damage
            else:
                counts[VICTIMS] += 1
                counts[HITS] += int(e.success)
                counts[DAMAGE] += e.damage
            if e.damage > 0:
                last[e.target] = (e.actor, e.ability, e.ally)
        elif isinstance(e, Attacked):
            if e.damage > 0:
                last.pop(e.target, None)
        elif isinstance(e, Defeated):
            cause = last.pop(e.character, None)
            if cause is not None and cause[0] == e.by:
                row(cause[0], cause[1])[ALLY_KILLS if cause[2] else KILLS] += 1
    return [[actor, ability, *counts] for (actor, ability), counts in sorted(rows.items())]


class AbilityTally:
    """Ability use per archetype and ability over a batch, one record at a time.

    ``cast``: per arrangement (unswapped, swapped) and battle index, the character's
    ``archetype`` and ``abilities`` (names), as :func:`.report.characters_of` gives
    them: each character of an archetype with an ability counts as one carrier per
    battle, so uses per carrier say how often the AI reaches for it."""

    def __init__(self, cast: Sequence[Sequence[dict[str, Any]]]) -> None:
        self.cast = cast
        self.carriers: dict[tuple[str, str], int] = {}
        self.counts: dict[tuple[str, str], list[int]] = {}

    def add(self, swapped: bool, rows: Sequence[Sequence[Any]]) -> None:
        cast = self.cast[int(swapped)]
        for c in cast:
            for name in c["abilities"]:
                key = (c["archetype"], name)
                self.carriers[key] = self.carriers.get(key, 0) + 1
        for actor, ability, *counts in rows:
            key = (cast[actor]["archetype"], ability)
            total = self.counts.setdefault(key, [0] * len(COUNTS))
            for k, n in enumerate(counts):
                total[k] += n

    def report(self) -> list[dict[str, Any]]:
        """One entry per archetype and ability carried or used: totals over the batch
        and the means that compare (uses per carrier and battle, victims, hit rate and
        damage per use)."""
        out = []
        for key in sorted(set(self.carriers) | set(self.counts)):
            archetype, ability = key
            c = dict(zip(COUNTS, self.counts.get(key, [0] * len(COUNTS)), strict=True))
            carriers, uses = self.carriers.get(key, 0), c["uses"]
            out.append({
                "archetype": archetype or "(no archetype)", "ability": ability,
                "carriers": carriers, **c,
                "uses_per_carrier": round(uses / carriers, 6) if carriers else None,
                "victims_per_use": round(c["victims"] / uses, 6) if uses else None,
                "hit_rate": round(c["hits"] / c["victims"], 6) if c["victims"] else None,
                "damage_per_use": round(c["damage"] / uses, 6) if uses else None})
        return out


def format_abilities(rows: Sequence[dict[str, Any]]) -> list[str]:
    """The report's ability table as text lines (none when no character carries an
    area ability)."""
    if not rows:
        return []

    def num(value: float | None, width: int, decimals: int) -> str:
        return f"{'-' if value is None else format(value, f'.{decimals}f'):>{width}}"

    lines = ["  area ability use per archetype (uses per carrier and battle; per use: "
             "enemy victims, damage; hit rate on enemies; friendly fire):",
             "  archetype   ability         uses  /carrier  victims/use  hit %  dmg/use  "
             "kills  ally hits  ally dmg"]
    for a in rows:
        hit = None if a["hit_rate"] is None else 100 * a["hit_rate"]
        lines.append(f"  {a['archetype'][:11]:<11} {a['ability'][:14]:<14} {a['uses']:5d} "
                     f"{num(a['uses_per_carrier'], 9, 2)} {num(a['victims_per_use'], 12, 2)} "
                     f"{num(hit, 6, 0)} {num(a['damage_per_use'], 8, 1)} {a['kills']:6d} "
                     f"{a['ally_victims']:10d} {a['ally_damage']:9d}")
    return lines
