"""Scenarios (``schemas/scenario.schema.json``): a battle set up on a map -- two sides,
each a team entering a start zone in one of its formations or the characters of one
of the map's teams where they stand, who plays each side, a rules variant and a
point cap, with a name and a briefing.  A map pack keeps them (``scenarios``) and a
scenario file holds one.  :func:`scenario_setup` turns one into the
:class:`~.setup.BattleSetup` that ``sodwa battle PACK.json#SCENARIO``, ``sodwa
simulate``, the playtest and the Balance Run play; :func:`scenario_problems` lists
everything that would stop it, each with its JSON pointer, for ``sodwa validate``.

Decisions (docs/map-format.md, *Scenarios*): a scenario's rules are its own variant
over the default rules (not over the pack's: a scenario says what it plays by);
``point_cap`` replaces the rules' ``battle.point_cap``; both sides are teams or both
are the map's characters (the map's characters are placed where they stand, the
teams by B4, and one battle does one or the other); with the map's characters, team
0 is the side whose ``map_team`` comes first by name, as B3 numbers the map's teams,
and the sides are reordered to match.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from ..engine.model import MapModel
from .ai.profile import Profile, default_profile, profile_from_dict
from .jsonfiles import BattleInputError, validate
from .rules import Rules, rules_from_dict
from .setup import HUMAN, BattleSetup
from .sheet import Roster
from .teams import Team, check_point_cap, place_teams, team_cost, team_from_dict

SCENARIO_FORMAT = "sodwa-scenario"
#: the AI that plays a side whose ``ai`` is not given
DEFAULT_AI = "greedy"
_EMPTY_RULES = {"format": "sodwa-rules", "format_version": 1}


@dataclass(frozen=True)
class ScenarioSide:
    """One side of a scenario, as its document gives it (``index``: 0 or 1 in the
    document's order)."""

    index: int
    controller: str
    ai: str
    label: str = ""
    team: dict[str, Any] | None = None
    formation: str | None = None
    zone: str | None = None
    map_team: str | None = None
    profile: dict[str, Any] | None = None

    @property
    def name(self) -> str:
        """How reports name it: its label, else its team's name or map team."""
        if self.label:
            return self.label
        if self.team is not None:
            return str(self.team.get("name", ""))
        return self.map_team or f"side {self.index}"


def _check_side(side: dict[str, Any], k: int, source: str) -> None:
    at = f"{source}: sides[{k}]"
    if "map_team" in side:
        extra = [key for key in ("team", "zone", "formation") if key in side]
        if extra:
            raise BattleInputError(f"{at}: a side is 'map_team' (the map's characters) or "
                                   f"'team' with 'zone', not both (remove {extra[0]!r})")
    elif "team" not in side:
        raise BattleInputError(f"{at}: give 'team' and 'zone' (a team entering a start zone) "
                               "or 'map_team' (the map's characters of that team)")
    elif "zone" not in side:
        raise BattleInputError(f"{at}: 'team' needs 'zone', the start zone it enters")


def scenario_sides(doc: dict[str, Any], source: str = "scenario") -> tuple[ScenarioSide, ...]:
    """The two sides of a schema-valid scenario document, in its order (one line
    naming the side when one is neither a team with its zone nor a map team)."""
    for k, side in enumerate(doc["sides"]):
        _check_side(side, k, source)
    return tuple(ScenarioSide(
        k, s["controller"], s.get("ai", DEFAULT_AI), s.get("label", ""), s.get("team"),
        s.get("formation"), s.get("zone"), s.get("map_team"), s.get("ai_profile"))
        for k, s in enumerate(doc["sides"]))


def scenario_rules(doc: dict[str, Any], source: str = "scenario") -> Rules:
    """The rules a scenario plays by: its variant over the default rules, its
    ``point_cap`` (when given) replacing ``battle.point_cap``."""
    rules = rules_from_dict(doc.get("rules", _EMPTY_RULES), f"{source}: rules")
    if "point_cap" in doc:
        rules = replace(rules, battle=replace(rules.battle, point_cap=doc["point_cap"]))
    return rules


def _ordered(model: MapModel, sides: Sequence[ScenarioSide], source: str
             ) -> tuple[ScenarioSide, ...]:
    kinds = {s.team is not None for s in sides}
    if len(kinds) != 1:
        raise BattleInputError(f"{source}: sides: both sides are teams or both are the map's "
                               "characters (one side of each is not supported)")
    if sides[0].team is not None:
        return tuple(sides)
    names = sorted({c.team for c in model.characters.values()})
    for s in sides:
        if s.map_team not in names:
            raise BattleInputError(
                f"{source}: sides[{s.index}].map_team: the map has no characters of team "
                f"{s.map_team!r} (it has: {', '.join(map(repr, names)) or 'none'})")
    if sides[0].map_team == sides[1].map_team:
        raise BattleInputError(f"{source}: sides[1].map_team: both sides are team "
                               f"{sides[0].map_team!r}")
    if len(names) != 2:
        raise BattleInputError(f"{source}: sides: the map has characters of {len(names)} "
                               f"teams ({', '.join(map(repr, names))}); a battle of the map's "
                               "characters needs exactly 2")
    return tuple(sorted(sides, key=lambda s: names.index(s.map_team or "")))


def _teams(model: MapModel, sides: Sequence[ScenarioSide], roster: Roster, rules: Rules,
           source: str) -> list[tuple[str, Team, str | None]]:
    out: list[tuple[str, Team, str | None]] = []
    zones = sorted(model.start_zones)
    for s in sides:
        assert s.team is not None and s.zone is not None
        team = team_from_dict(s.team, roster, f"{source}: sides[{s.index}].team")
        if s.zone not in model.start_zones:
            raise BattleInputError(f"{source}: sides[{s.index}].zone: the map has no start "
                                   f"zone {s.zone!r} (it has: "
                                   f"{', '.join(map(repr, zones)) or 'none'})")
        if s.formation is not None:
            try:
                team.formation(s.formation)
            except BattleInputError as exc:
                raise BattleInputError(f"{source}: sides[{s.index}].formation: {exc}") from None
        try:
            check_point_cap(team.name, team_cost(team), rules.battle.point_cap)
        except BattleInputError as exc:
            raise BattleInputError(f"{source}: sides[{s.index}].team: {exc}") from None
        out.append((s.zone, team, s.formation))
    return out


def scenario_setup(doc: dict[str, Any], model: MapModel, roster: Roster, *,
                   roster_doc: dict[str, Any], source: str = "scenario",
                   rules: Rules | None = None, ai: Sequence[str] | None = None,
                   profiles: Sequence[Profile] | None = None) -> BattleSetup:
    """The checked battle setup of a scenario on its map (``model``).

    ``rules``, ``ai``, ``profiles`` replace the scenario's own (the command line's
    ``--rules``, ``--ai``, ``--ai-profile``).  Raises :class:`BattleInputError` with
    one line naming ``source`` and the key for a scenario no battle can start from.
    """
    validate(doc, "scenario", source)
    rules = scenario_rules(doc, source) if rules is None else rules
    sides = _ordered(model, scenario_sides(doc, source), source)
    docs: dict[str, Any] = {"roster": roster_doc}
    teams = None
    if sides[0].team is not None:
        teams = _teams(model, sides, roster, rules, source)
        docs["teams"] = [s.team for s in sides]
        try:
            place_teams(model, teams, rules.battle.point_cap)
        except BattleInputError as exc:
            raise BattleInputError(f"{source}: sides: {exc}") from None
    if profiles is None and any(s.profile is not None for s in sides):
        profiles = [profile_from_dict(s.profile, f"{source}: sides[{s.index}].ai_profile")
                    if s.profile is not None else default_profile() for s in sides]
    return BattleSetup.from_map(model, rules=rules, roster=roster,
                                ai=list(ai) if ai is not None else [s.ai for s in sides],
                                teams=teams, docs=docs, profiles=profiles)


def side_labels(doc: dict[str, Any], model: MapModel) -> list[str]:
    """The sides' names in team order (team 0 first), as :func:`scenario_setup`
    orders them."""
    return [s.name for s in _ordered(model, scenario_sides(doc), "scenario")]


def playtest_controllers(doc: dict[str, Any], model: MapModel) -> tuple[str, str]:
    """Who plays each team in the playtest (team 0 first): ``human`` for a side a
    person plays, else the side's AI."""
    a, b = (HUMAN if s.controller == "human" else s.ai
            for s in _ordered(model, scenario_sides(doc), "scenario"))
    return a, b
