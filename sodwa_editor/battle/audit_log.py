"""Audit a battle log (issue 28 section 5; ``sodwa audit-log LOG.json``, docs/battle-log.md).

From the log's own header alone -- the rules in force and every combatant's sheet --
the audit re-derives the numbers of every attack and checks them against what the
log says, event by event, keeping what it needs as it reads: each character's HP,
the signed Karma Pool, who took a Move Action since its own last turn (B22), the
damage on each Obstructing feature, the first-tie coin.  For a Basic Attack
(``attacked``): the dice read as a roll, Evasion (only when aware, and always aware
with ``awareness.mode: always``), TAV = Accuracy of the kind + accuracy modifiers,
TDV = Defense of the kind + Evasion + defense and evasion modifiers, difficulty,
the roll needed, success, karma spent and gained and the pool after, the damage
after Damage Reduction, the HP left; the modifiers the rulebook names (impeded line
of sight, a Move Action, elevation, Liquid) are checked against the rules and the
log's own facts (its LoS class, its Move events); other sources (abilities,
flanking, cover, terrain properties) count as logged.  An area's hit
(``area_hit``) gets the same checks with its ability's Accuracy (from the caster's
sheet) for the attacker's; a terrain attack its damage, the feature's total and
what is left.  The rules hash is recomputed from the rules.

The audit uses the rule functions of the battle package (each rule lives in one
place) on inputs it takes only from the log.

>>> from sodwa_editor.battle.rules import default_rules
>>> audit({"format": "nope"}, "x.json").problems[0].what
"x.json: format: 'nope' is not a battle log (sodwa-battle-log)"
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from . import karma as karma_rules
from .attack import damage_on_hit
from .battle_log import LOG_FORMAT, sheet_from_doc
from .clock import FIRST_TIE
from .dice import needed_roll
from .events import NOBODY
from .jsonfiles import BattleInputError, validate
from .rules import Rules, rules_doc_hash, rules_from_dict
from .sheet import Sheet


@dataclass(frozen=True)
class Problem:
    """One mismatch: the event's index in ``events`` (-1: the header) and one line."""

    index: int
    what: str


@dataclass
class Audit:
    """What an audit checked and found."""

    events: int = 0
    attacks: int = 0
    problems: list[Problem] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


class _Reader:
    """The audit's running state over one log (see the module docstring)."""

    def __init__(self, doc: dict[str, Any], rules: Rules, out: Audit) -> None:
        self.rules, self.out = rules, out
        chars = doc["characters"]
        self.sheets: list[Sheet] = [sheet_from_doc(c["sheet"]) for c in chars]
        self.abilities = [{a["name"]: a for a in c["sheet"].get("abilities", [])} for c in chars]
        self.team = [c["team"] for c in chars]
        self.hp = [s.health for s in self.sheets]
        self.moved = [False] * len(chars)
        self.pool = 0
        self.damage: dict[tuple[Any, ...], int] = {}
        self.first_tie: dict[str, Any] | None = None
        self.k = -1

    def bad(self, what: str) -> None:
        self.out.problems.append(Problem(self.k, what))

    def same(self, e: dict[str, Any], key: str, want: Any) -> bool:
        if e.get(key) != want:
            self.bad(f"events[{self.k}] ({e['kind']}): {key} is {e.get(key)!r}, the header "
                     f"gives {want!r}")
            return False
        return True

    def who(self, i: Any, e: dict[str, Any], key: str) -> bool:
        if not isinstance(i, int) or not 0 <= i < len(self.sheets):
            self.bad(f"events[{self.k}] ({e['kind']}): {key} {i!r} is no character")
            return False
        return True

    # ------------------------------------------------------------ events
    def read(self, k: int, e: dict[str, Any]) -> None:
        self.k = k
        kind = e["kind"]
        if kind == "first_tie":
            self.first_tie = e
            if e["rule"] != self.rules.order.first_tie:
                self.bad(f"events[{k}] (first_tie): rule {e['rule']!r}, the rules say "
                         f"order.first_tie {self.rules.order.first_tie!r}")
            elif e["rule"] == "team_order":
                self.same(e, "team", 0)
        elif kind == "turn_started" and self.who(e["actor"], e, "actor"):
            self.moved[e["actor"]] = False  # B22: until the beginning of its next turn
            if e["turn"] == 1:
                self.first_turn(e)
        elif kind == "moved" and self.who(e["actor"], e, "actor"):
            self.moved[e["actor"]] = True
        elif kind == "attacked":
            self.attack(e)
        elif kind == "area_hit":
            self.area_hit(e)
        elif kind == "terrain_attacked":
            self.terrain(e)
        elif kind == "terrain_destroyed":
            self.damage.pop(tuple(e["feature"]), None)
        elif kind in ("terrain_effect", "knocked_back") or (kind == "altitude_changed"
                                                              and e.get("fell")):
            i = e["target"] if kind == "knocked_back" else e["actor"]
            if self.who(i, e, "character"):  # damage from terrain, a fall, a collision
                self.same(e, "hp_after", self.hp[i] - e["damage"])
                self.hp[i] = e["hp_after"]
        elif kind == "defeated" and self.who(e["character"], e, "character"):
            if e["by"] == NOBODY and not e.get("cause"):
                self.bad(f"events[{k}] (defeated): by no character and no cause (B54)")
            elif e["by"] != NOBODY:
                self.who(e["by"], e, "by")
            at_or_below = self.rules.combat.defeated_at_or_below
            if self.hp[e["character"]] > at_or_below:
                self.bad(f"events[{k}] (defeated): character {e['character']} has "
                         f"{self.hp[e['character']]} HP, above {at_or_below}")

    def first_turn(self, e: dict[str, Any]) -> None:
        """The first turn against the first-tie coin logged before it (B12)."""
        tie, k = self.first_tie, self.k
        by_coin = e["reason"] == FIRST_TIE
        if tie is None:
            self.bad(f"events[{k}] (turn_started): the first turn, and no first_tie event "
                     "before it")
        elif tie["decided"] != by_coin:
            self.bad(f"events[{k}] (turn_started): the first turn was "
                     f"{'' if by_coin else 'not '}a tie across teams; first_tie says "
                     f"decided {tie['decided']}")
        elif by_coin and tie["team"] != e["team"]:
            self.bad(f"events[{k}] (turn_started): team {e['team']} took the first tie; "
                     f"the coin gave it to team {tie['team']}")

    def attack(self, e: dict[str, Any]) -> None:
        if not (self.who(e["actor"], e, "actor") and self.who(e["target"], e, "target")):
            return
        a, d = self.sheets[e["actor"]], self.sheets[e["target"]]
        melee = e["attack_kind"] == "melee"
        self.modifiers(e, melee, attacker_acts=True)
        self.roll(e, a.accuracy(melee), d, damage_on_hit(a, d, melee, self.rules)[1],
                  karma=True)

    def area_hit(self, e: dict[str, Any]) -> None:
        if not (self.who(e["actor"], e, "actor") and self.who(e["target"], e, "target")):
            return
        ability = self.abilities[e["actor"]].get(e["ability"])
        if ability is None:
            self.bad(f"events[{self.k}] (area_hit): {e['ability']!r} is not an ability of "
                     f"character {e['actor']}'s sheet")
            return
        counts = self.team[e["target"]] != self.team[e["actor"]] \
            or self.rules.abilities.karma_against_own_team
        # at the cast the caster's own modifiers count; at an effect's upkeep nobody attacks
        self.modifiers(e, e["attack_kind"] == "melee", attacker_acts=e["effect"] < 0)
        self.roll(e, ability["accuracy"], self.sheets[e["target"]], None, karma=counts)

    def modifiers(self, e: dict[str, Any], melee: bool, *, attacker_acts: bool) -> None:
        """The modifiers the rulebook names, against the rules and the log's facts
        (``attacker_acts``: the attacker's own Move Action counts, AB10); awareness."""
        m, liquid, k, kind = self.rules.modifiers, self.rules.terrain.liquid, self.k, e["kind"]
        if self.rules.awareness.mode == "always":
            self.same(e, "aware", True)
        logged: dict[str, list[dict[str, Any]]] = {}
        for mod in e["modifiers"]:
            logged.setdefault(mod["source"], []).append(mod)
        expect = {  # source -> (it must be there, stat, amount)
            "impeded line of sight": (not melee and e["los"] == "impeded"
                                      and m.impeded_defense != 0, "defense", m.impeded_defense),
            "attacker moved": (attacker_acts and self.moved[e["actor"]]
                               and m.moved_accuracy != 0, "accuracy", m.moved_accuracy),
            "defender moved": (self.moved[e["target"]] and m.moved_defense != 0, "defense",
                               m.moved_defense),
        }
        for source, (present, stat, amount) in expect.items():
            got = logged.get(source, [])
            if present != bool(got):
                self.bad(f"events[{k}] ({kind}): modifier {source!r} "
                         f"{'missing' if present else 'should not apply'}")
            elif got and (got[0]["stat"], got[0]["amount"]) != (stat, amount):
                self.bad(f"events[{k}] ({kind}): modifier {source!r} is {got[0]['stat']} "
                         f"{got[0]['amount']:+d}, the rules give {stat} {amount:+d}")
        for source, stat, step, per_level in (
                ("higher ground", "accuracy", m.elevation_higher_accuracy, m.elevation_per_level),
                ("lower ground", "accuracy", m.elevation_lower_accuracy, m.elevation_per_level),
                ("attacker in liquid", "accuracy", liquid.accuracy, False)):
            for mod in logged.get(source, []):
                n = mod["amount"] // step if step else 0
                if mod["stat"] != stat or not step or mod["amount"] != n * step or n < 1 \
                        or (n > 1 and not per_level):
                    self.bad(f"events[{k}] ({kind}): modifier {source!r} is {mod['stat']} "
                             f"{mod['amount']:+d}, the rules give {stat} {step:+d}"
                             + (" per level" if per_level else ""))
        for mod in logged.get("defender in liquid", []):
            want = liquid.defense if mod["stat"] == "defense" else liquid.evasion \
                if mod["stat"] == "evasion" and e["aware"] else None
            if mod["amount"] != want:
                self.bad(f"events[{k}] ({kind}): modifier 'defender in liquid' "
                         f"{mod['stat']} {mod['amount']:+d} does not follow the rules")

    def roll(self, e: dict[str, Any], accuracy: int, defender: Sheet, dealt: int | None, *,
             karma: bool) -> None:
        """The numbers of one d100 roll (an attack's, an area victim's)."""
        self.out.attacks += 1
        rules, melee = self.rules, e["attack_kind"] == "melee"
        tens, ones = e["dice"]
        self.same(e, "roll", tens * 10 + ones or 100)
        self.same(e, "doubles", tens == ones)
        self.same(e, "evasion", defender.evasion if e["aware"] else 0)
        tav = accuracy + sum(m["amount"] for m in e["modifiers"] if m["stat"] == "accuracy")
        tdv = defender.defense(melee) + e["evasion"] + sum(
            m["amount"] for m in e["modifiers"] if m["stat"] != "accuracy")
        self.same(e, "tav", tav)
        self.same(e, "tdv", tdv)
        difficulty = tdv - tav
        self.same(e, "difficulty", difficulty)
        self.same(e, "need_roll", needed_roll(difficulty, rules.dice))
        team = self.team[e["actor"]]
        self.same(e, "karma_before", self.pool)
        pool = self.pool if karma else 0
        out = karma_rules.resolve_roll(difficulty, tens * 10 + ones or 100, pool, team, rules)
        self.same(e, "success", out.success)
        self.same(e, "natural", out.natural)
        self.same(e, "karma_spent", out.karma_spent if karma else 0)
        self.same(e, "karma_gained", out.karma_gained if karma else 0)
        if karma:
            self.pool = out.pool_after
        self.same(e, "karma_after", self.pool)
        self.pool = e["karma_after"]  # (one wrong pool is one problem, not all that follow)
        if dealt is not None:
            self.same(e, "damage", dealt if out.success else 0)
        elif not out.success:
            self.same(e, "damage", 0)
        target = e["target"]
        self.same(e, "hp_after", self.hp[target] - e["damage"])
        self.hp[target] = e["hp_after"]

    def terrain(self, e: dict[str, Any]) -> None:
        if not self.who(e["actor"], e, "actor"):
            return
        rules, feature = self.rules, tuple(e["feature"])
        threshold = rules.terrain.obstruction_damage_threshold
        self.same(e, "threshold", threshold)
        before = self.damage.get(feature, 0)
        if e["attack_kind"] in ("melee", "ranged"):  # a Basic Attack: no roll, its Damage (B39)
            self.same(e, "damage", self.sheets[e["actor"]].damage(e["attack_kind"] == "melee"))
        self.same(e, "total", before + e["damage"])
        self.same(e, "left", max(0, threshold - e["total"]))
        self.damage[feature] = e["total"]


def audit(doc: Any, source: str) -> Audit:
    """Audit a parsed battle log (see the module docstring); a document that is not a
    battle log is one problem at index -1."""
    out = Audit()
    if not isinstance(doc, dict) or doc.get("format") != LOG_FORMAT:
        got = doc.get("format") if isinstance(doc, dict) else type(doc).__name__
        out.problems.append(Problem(-1, f"{source}: format: {got!r} is not a battle log "
                                        f"({LOG_FORMAT})"))
        return out
    try:
        validate(doc, "battle-log", source)
        rules = rules_from_dict(doc["rules"], f"{source}: rules")
        sheet_check = [sheet_from_doc(c["sheet"]) for c in doc["characters"]]
    except (BattleInputError, TypeError) as exc:
        out.problems.append(Problem(-1, str(exc) if isinstance(exc, BattleInputError)
                                    else f"{source}: characters: a sheet the battle cannot "
                                         f"use ({exc})"))
        return out
    del sheet_check
    have = rules_doc_hash(doc["rules"])  # (as written: a later program adds rule keys)
    if doc["rules_hash"] != have:
        out.problems.append(Problem(-1, f"{source}: rules_hash: {doc['rules_hash']} is not "
                                        f"the hash of the rules in the header ({have})"))
    reader = _Reader(doc, rules, out)
    for k, event in enumerate(doc["events"]):
        out.events += 1
        reader.read(k, event)
    return out
