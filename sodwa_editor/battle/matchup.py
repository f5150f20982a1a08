"""The matchup table: every archetype's Basic Attack against every archetype.

For one :class:`Case` (melee or ranged; who has moved; impeded line of sight; whether
the defender is aware) each cell is the battle's own preview of the attack
(:func:`.attack.preview_attack`: the same modifiers, Total Attack and Defense Values,
needed roll and Damage Reduction as a battle), karma's reach
(:func:`.karma.gain`: RB "Whenever a player attempts an action with a difficulty less
than 50%, but the roll fails, they gain Karma Points"), and the expected damage per
1,000 IP spent (RB: "500 IP is automatically deducted ... Move Actions and Attack
Actions each use up 250 additional IP": a turn that moves and attacks costs 1,000,
one that only attacks 750; the rules' ``clock`` keys).  Nothing here is a second copy
of a rule.

The hawk of issue 28's playtest: an Archer that had moved shooting through impeding
terrain at a Hawk that had moved: Total Defense 115 + 30 + 10 + 20 = 175 against
Total Attack 60 - 10 = 50, difficulty 125: only the roll 00 hits.

>>> from sodwa_editor.battle.rules import default_rules
>>> from sodwa_editor.battle.sheet import load_roster
>>> roster, rules = load_roster(), default_rules()
>>> case = Case("ranged", attacker_moved=True, defender_moved=True, impeded=True)
>>> m = matchup(roster.find("Archer").sheet(), roster.find("Hawk").sheet(), case, rules)
>>> m.preview.tdv, m.preview.tav, m.need, m.chance, m.impossible, m.karma_per_miss
(175, 50, 100, 0.01, True, 0)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from .attack import AttackPreview, Situation, preview_attack
from .karma import gain
from .rules import Rules
from .sheet import Sheet

Kind = Literal["melee", "ranged"]


@dataclass(frozen=True, slots=True)
class Case:
    """The circumstances of one matchup table: the attack's kind, whether the attacker
    and the defender took a Move Action since their last turn began (RB *Combat
    Modifiers*), impeding terrain on the line of sight (ranged only, B20) and whether
    the defender is aware (adds its Evasion, B19)."""

    kind: Kind
    attacker_moved: bool = False
    defender_moved: bool = False
    impeded: bool = False
    defender_aware: bool = True

    @property
    def label(self) -> str:
        """``ranged, both moved, impeded`` (what the table shows)."""
        moved = {(False, False): "no one moved", (True, False): "attacker moved",
                 (False, True): "defender moved", (True, True): "both moved"}
        parts = [self.kind, moved[(self.attacker_moved, self.defender_moved)]]
        if self.impeded and self.kind == "ranged":
            parts.append("impeded")
        if not self.defender_aware:
            parts.append("defender unaware")
        return ", ".join(parts)


#: The tables the issue asks for: melee and ranged, without and with the move modifiers.
STANDARD_CASES = tuple(Case(kind, a, d) for kind in ("melee", "ranged")
                       for a, d in ((False, False), (True, False), (False, True), (True, True)))


@dataclass(frozen=True, slots=True)
class Matchup:
    """One cell: ``attacker`` attacks ``defender`` in ``case``.

    ``reason`` is not empty when the attacker cannot make the attack at all (then the
    numbers are absent).  ``need``: the lowest roll that hits; ``chance``: of a hit
    without karma; ``karma_per_miss``: Karma Points a miss earns (0: the attack needs
    the karma threshold or more, so its misses never earn karma); ``expected_karma``
    per attack; ``damage``: a hit's damage after Damage Reduction; ``ip_per_attack``:
    the IP of a turn that makes it (with a Move Action when the attacker moved);
    ``damage_per_1000_ip``: chance x damage x 1000 / ip_per_attack.  ``impossible``:
    only the always-succeeding roll hits (difficulty at or above it);
    ``near_certain``: only the always-failing roll misses."""

    attacker: str
    defender: str
    case: Case
    reason: str = ""
    preview: AttackPreview | None = None
    need: int = 0
    chance: float = 0.0
    karma_per_miss: int = 0
    expected_karma: float = 0.0
    damage: int = 0
    ip_per_attack: int = 0
    damage_per_1000_ip: float = 0.0
    impossible: bool = False
    near_certain: bool = False

    @property
    def possible(self) -> bool:
        return not self.reason

    def lines(self) -> list[str]:
        """The cell explained, one fact a line (the roster editor's hover)."""
        head = f"{self.attacker} attacks {self.defender} ({self.case.label})"
        p = self.preview
        if p is None:
            return [head, self.reason]
        mods = ", ".join(f"{m.source} {m.amount:+d} {m.stat}" for m in p.modifiers) or "none"
        out = [head,
               f"Total Attack {p.tav} (Accuracy {p.accuracy}); Total Defense {p.tdv} "
               f"(Defense {p.defense} + Evasion {p.evasion})",
               f"modifiers: {mods}",
               f"difficulty {p.difficulty}: needs {self.need}+, hits {p.hits} in 100",
               f"karma: {self.karma_per_miss} per miss, {self.expected_karma:.1f} per attack"
               + ("" if self.karma_per_miss else " (misses earn none)"),
               f"damage {self.damage} after DR {p.dr}; {self.damage_per_1000_ip:.2f} expected "
               f"per 1,000 IP ({self.ip_per_attack} IP a turn)"]
        if self.impossible:
            out.append("impossible: only the roll 00 hits")
        if self.near_certain:
            out.append("near-certain: only the roll 01 misses")
        return out


def unavailable(attacker: Sheet, kind: Kind) -> str:
    """Why ``attacker`` cannot make a Basic Attack of ``kind`` ("" when it can): RB
    "select a target within a number of tiles equal to the attacker's Range", and a
    ranged attack is on a non-adjacent target, so it needs Range 2 or more."""
    if attacker.range < 1:
        return f"{attacker.name} has Range {attacker.range}: no Basic Attack"
    if kind == "ranged" and attacker.range < 2:
        return f"{attacker.name} has Range 1: it reaches only the tiles next to it (melee)"
    return ""


def matchup(attacker: Sheet, defender: Sheet, case: Case, rules: Rules) -> Matchup:
    """The cell of ``attacker`` against ``defender`` in ``case`` (module docstring)."""
    why = unavailable(attacker, case.kind)
    if why:
        return Matchup(attacker.name, defender.name, case, reason=why)
    situation = Situation(adjacent=case.kind == "melee", impeded=case.impeded,
                          attacker_moved=case.attacker_moved,
                          defender_moved=case.defender_moved,
                          defender_aware=case.defender_aware)
    p = preview_attack(attacker, defender, situation, rules)
    clock = rules.clock
    ip = clock.turn_cost + clock.attack_cost + (clock.move_cost if case.attacker_moved else 0)
    chance = p.hits / 100
    per_miss = gain(p.difficulty, rules)
    dice = rules.dice
    return Matchup(
        attacker.name, defender.name, case, preview=p, need=p.need_roll, chance=chance,
        karma_per_miss=per_miss, expected_karma=(1 - chance) * per_miss,
        damage=p.damage_on_hit, ip_per_attack=ip,
        damage_per_1000_ip=chance * p.damage_on_hit * 1000 / ip if ip > 0 else 0.0,
        impossible=p.difficulty >= dice.auto_success_at_or_above,
        near_certain=p.need_roll <= dice.auto_fail_at_or_below + 1)


def matchup_table(sheets: Sequence[Sheet], case: Case, rules: Rules) -> list[list[Matchup]]:
    """Rows by attacker, columns by defender, in the order of ``sheets``.

    >>> from sodwa_editor.battle.rules import default_rules
    >>> from sodwa_editor.battle.sheet import load_roster
    >>> sheets = [a.sheet() for a in load_roster().archetypes[:2]]
    >>> [[c.need for c in row] for row in matchup_table(sheets, Case("melee"), default_rules())]
    [[45, 45], [65, 65]]
    """
    return [[matchup(a, d, case, rules) for d in sheets] for a in sheets]


def flagged(table: Sequence[Sequence[Matchup]]) -> tuple[int, int]:
    """``(impossible, near_certain)`` cells of a table."""
    cells = [c for row in table for c in row]
    return sum(c.impossible for c in cells), sum(c.near_certain for c in cells)
