"""Teams, point values and formations (RB *The Point System*, *Team Management*,
*Combat*), and the characters a battle starts with.

A battle starts either from the characters already on the map
(:func:`combatants_from_map`, the default for playtesting a map) or from two
team files placed into the map's start zones (:func:`place_team`).  Either way
it gets :class:`Combatant` rows with a battle index order that every later
part of the battle uses: team 0 first, then by id.  :func:`certain_draw` says
when two teams cannot end a battle before its turn limit.

>>> from sodwa_editor.battle.sheet import load_roster
>>> team = team_from_dict({"format": "sodwa-team", "format_version": 1, "name": "duo",
...     "members": [{"id": "a", "archetype": "Archer"}, {"id": "k", "archetype": "Knight"}]},
...     load_roster())
>>> team_cost(team)
220
>>> check_point_cap(team.name, team_cost(team), 200)
Traceback (most recent call last):
...
sodwa_editor.battle.jsonfiles.BattleInputError: team 'duo' costs 220 points, over the 200-point cap
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..engine.area_notation import AreaType
from ..engine.footprint import Footprint, cannot_stand
from ..engine.model import MapModel
from ..engine.terrain import Base
from .ability_defs import AbilityDef
from .attack import damage_on_hit
from .jsonfiles import BattleInputError, PathLike, read_json, validate
from .rules import Rules
from .sheet import Roster, Sheet, sheet_for

Tile = tuple[int, int]
#: Facings in tie order: unit vector of "forward" (towards the enemy), y down.
FACINGS: tuple[tuple[str, Tile], ...] = (
    ("north", (0, -1)), ("east", (1, 0)), ("south", (0, 1)), ("west", (-1, 0)))
#: Members per row of the default formation (a team file without formations).
DEFAULT_ROW = 4


@dataclass(frozen=True, slots=True)
class Member:
    id: str
    archetype: str
    sheet: Sheet


@dataclass(frozen=True, slots=True)
class Formation:
    """A Team Formation: one ``(column, row)`` per member, in member order; row 0 is
    the front row."""

    name: str
    positions: tuple[Tile, ...]


@dataclass(frozen=True, slots=True)
class Team:
    name: str
    members: tuple[Member, ...]
    formations: tuple[Formation, ...]

    def formation(self, name: str | None = None) -> Formation:
        """The formation called ``name``; None = the first, else :func:`default_formation`."""
        if name is None:
            return self.formations[0] if self.formations else default_formation(
                len(self.members))
        for f in self.formations:
            if f.name == name:
                return f
        have = ", ".join(f.name for f in self.formations) or "none"
        raise BattleInputError(f"team {self.name!r} has no formation {name!r} (has: {have})")


@dataclass(frozen=True, slots=True)
class Combatant:
    """A character entering battle: its id, side (0 or 1) and side name, sheet, tile."""

    id: str
    team: int
    side: str
    sheet: Sheet
    x: int
    y: int


def default_formation(n: int) -> Formation:
    """Members in rows of :data:`DEFAULT_ROW`, the front row first (decision B5)."""
    return Formation("default", tuple((i % DEFAULT_ROW, i // DEFAULT_ROW) for i in range(n)))


def team_from_dict(doc: Any, roster: Roster, source: str = "team") -> Team:
    """The team of a parsed team document (``schemas/team.schema.json``)."""
    validate(doc, "team", source)
    members: list[Member] = []
    ids: set[str] = set()
    for i, m in enumerate(doc["members"]):
        if m["id"] in ids:
            raise BattleInputError(f"{source}: members[{i}].id: {m['id']!r} appears twice")
        ids.add(m["id"])
        arch = roster.find(m["archetype"])
        if arch is None:
            raise BattleInputError(f"{source}: members[{i}].archetype: no archetype "
                                   f"{m['archetype']!r} in the roster (has: "
                                   f"{', '.join(roster.names())})")
        members.append(Member(m["id"], arch.name, arch.sheet(m.get("name") or arch.name)))
    order = [m.id for m in members]
    formations: list[Formation] = []
    for j, f in enumerate(doc.get("formations", [])):
        where = f"{source}: formations[{j}].positions"
        pos = f["positions"]
        if set(pos) != ids:
            missing, extra = sorted(ids - set(pos)), sorted(set(pos) - ids)
            raise BattleInputError(f"{where}: " + (f"no position for {', '.join(missing)}"
                                                   if missing else
                                                   f"{', '.join(extra)} is not a member"))
        cells = [tuple(pos[mid]) for mid in order]
        if len(set(cells)) != len(cells):
            raise BattleInputError(f"{where}: two members share one grid cell")
        formations.append(Formation(f["name"], tuple((c[0], c[1]) for c in cells)))
    return Team(doc["name"], tuple(members), tuple(formations))


def load_team(path: PathLike, roster: Roster) -> Team:
    return team_from_dict(read_json(path), roster, str(path))


def teams_from_files(model: MapModel, files: Sequence[PathLike], roster: Roster
                     ) -> tuple[list[tuple[str, Team, str | None]], list[Any]]:
    """``sodwa simulate --teams``: one or two team files (one: the same team on both
    sides) entering the map's first two start zones by name; the teams as a
    :class:`~.setup.BattleSetup` takes them and their documents (a replay embeds
    them).  Raises :class:`BattleInputError` with one line."""
    if not 1 <= len(files) <= 2:
        raise BattleInputError(f"give 1 or 2 team files, not {len(files)}")
    files = list(files) * (3 - len(files))
    docs = [read_json(f) for f in files]
    zones = sorted(model.start_zones)
    if len(zones) < 2:
        have = ", ".join(zones) or "none"
        raise BattleInputError(f"{files[len(zones)]}: the map has no start zone for team "
                               f"{len(zones)} (it needs 2 start zones; has: {have})")
    teams: list[tuple[str, Team, str | None]] = [
        (zones[k], team_from_dict(d, roster, str(f)), None)
        for k, (f, d) in enumerate(zip(files, docs, strict=True))]
    return teams, docs


def team_cost(team: Team | Iterable[Sheet]) -> int:
    """RB: "The point value of a team of characters is the sum of each of their
    individual point values"."""
    sheets = (m.sheet for m in team.members) if isinstance(team, Team) else team
    return sum(s.cost for s in sheets)


def check_point_cap(name: str, cost: int, cap: int | None) -> None:
    """RB: "each player can use teams that cost as much as 400-points" (``battle.point_cap``)."""
    if cap is not None and cost > cap:
        raise BattleInputError(f"team {name!r} costs {cost} points, over the {cap}-point cap")


# ------------------------------------------------------------------ placement
def standable(model: MapModel, x: int, y: int) -> bool:
    """A character may be placed here (RB: Obstructing terrain "may not be occupied")."""
    return model.in_bounds(x, y) and model.base_at(x, y) is not Base.OBSTRUCTING


def facings_towards_centre(model: MapModel, zone: Sequence[Tile]) -> list[str]:
    """Facings whose forward direction points towards the map centre from the zone's
    centroid, best first (ties north, east, south, west); ``["north"]`` if the
    zone is centred."""
    n = len(zone)
    vx = n * (model.width - 1) - 2 * sum(t[0] for t in zone)  # 2n (centre - centroid)
    vy = n * (model.height - 1) - 2 * sum(t[1] for t in zone)
    scored = [(-(f[0] * vx + f[1] * vy), k, name) for k, (name, f) in enumerate(FACINGS)]
    good = [name for score, _k, name in sorted(scored) if score < 0]
    return good or ["north"]


def oriented(formation: Formation, facing: str) -> list[Tile]:
    """Formation cells as tile offsets for a facing, shifted so the smallest is 0:
    offset = column x right - row x forward (right = forward turned clockwise)."""
    fx, fy = dict(FACINGS)[facing]
    rx, ry = -fy, fx
    raw = [(c * rx - r * fx, c * ry - r * fy) for c, r in formation.positions]
    mx, my = min(p[0] for p in raw), min(p[1] for p in raw)
    return [(x - mx, y - my) for x, y in raw]


@dataclass(frozen=True, slots=True)
class Placement:
    """Where each member (in member order) starts, the facing used, and whether the
    formation fit as drawn (``exact``) or members went to the nearest free tiles."""

    tiles: tuple[Tile, ...]
    facing: str
    exact: bool


def place_formation(model: MapModel, side: str, formation: Formation,
                    taken: Iterable[Tile] = (),
                    footprints: Sequence[Footprint] | None = None) -> Placement:
    """Place a formation into ``side``'s start zone (decision B4).

    For each facing of :func:`facings_towards_centre`, every anchor where all
    members land on free tiles of the zone a character may stand on; the anchor
    that puts the formation's centre closest to the zone's centroid wins (ties:
    top row, then left).  If no facing fits, each member in order takes the free
    zone tile nearest its place in the best facing's centred position.

    ``footprints`` (one per member; None or all 1x1: the rule above, unchanged) places
    creatures larger than a tile (docs/rules.md S22): the formation is laid out as above
    with one tile per member, then the members are placed largest first (ties in member
    order), each on the anchor whose footprint may stand (:func:`.footprint.cannot_stand`:
    on the map, no Obstructing tile or border inside, one level) on free tiles with
    every square in the zone, nearest (its footprint's centre) to its formation tile;
    where none has every square in the zone, an anchor with some square in it; else the
    nearest within twice the team's largest side of the zone, never on another start
    zone (``exact`` False: the placement was adjusted); where none at all, one line
    naming the member's footprint and the zone.
    """
    zone_set = model.start_zones.get(side)
    if not zone_set:
        raise BattleInputError(f"the map has no start zone for team {side!r}")
    zone = sorted(zone_set, key=lambda t: (t[1], t[0]))
    blocked = set(taken)
    free = {t for t in zone if t not in blocked and standable(model, *t)}
    n = len(formation.positions)
    if len(free) < n:
        raise BattleInputError(f"the start zone of team {side!r} has room for {len(free)} "
                               f"character(s); the team has {n}")
    cx2 = sum(t[0] for t in zone) * 2  # 2n x centroid
    cy2 = sum(t[1] for t in zone) * 2
    nz = len(zone)
    x0, x1 = min(t[0] for t in zone), max(t[0] for t in zone)
    y0, y1 = min(t[1] for t in zone), max(t[1] for t in zone)

    def spread(offsets: list[Tile], fits: bool) -> tuple[int, int] | None:
        w, h = max(o[0] for o in offsets), max(o[1] for o in offsets)
        best: tuple[int, int, int] | None = None
        for ay in range(y0 - h, y1 + 1):
            for ax in range(x0 - w, x1 + 1):
                if fits and not all((ax + ox, ay + oy) in free for ox, oy in offsets):
                    continue
                dx, dy = nz * (2 * ax + w) - cx2, nz * (2 * ay + h) - cy2
                key = (dx * dx + dy * dy, ay, ax)
                if best is None or key < best:
                    best = key
        return None if best is None else (best[2], best[1])

    facings = facings_towards_centre(model, zone)
    if footprints is not None and any(fp != (1, 1) for fp in footprints):
        return _place_sized(model, side, formation, zone, blocked, facings, spread,
                            footprints)
    for facing in facings:
        offsets = oriented(formation, facing)
        anchor = spread(offsets, True)
        if anchor is not None:
            ax, ay = anchor
            return Placement(tuple((ax + ox, ay + oy) for ox, oy in offsets), facing, True)
    offsets = oriented(formation, facings[0])
    ax, ay = spread(offsets, False) or (x0, y0)
    tiles: list[Tile] = []
    for ox, oy in offsets:
        ix, iy = ax + ox, ay + oy
        pick = min(free, key=lambda t: ((t[0] - ix) ** 2 + (t[1] - iy) ** 2, t[1], t[0]))
        free.discard(pick)
        tiles.append(pick)
    return Placement(tuple(tiles), facings[0], False)


def _place_sized(model: MapModel, side: str, formation: Formation, zone: list[Tile],
                 blocked: set[Tile], facings: list[str], spread: Any,
                 footprints: Sequence[Footprint]) -> Placement:
    """:func:`place_formation` for a team with creatures larger than a tile (S22)."""
    exact = True
    for facing in facings:
        offsets = oriented(formation, facing)
        anchor = spread(offsets, True)
        if anchor is not None:
            break
    else:
        facing, exact = facings[0], False
        offsets = oriented(formation, facing)
        anchor = spread(offsets, False) or zone[0]
    targets = [(anchor[0] + ox, anchor[1] + oy) for ox, oy in offsets]
    in_zone = set(zone)
    taken = set(blocked)  # and another team's start zone is never covered
    taken.update(t for other, tiles in model.start_zones.items() if other != side
                 for t in tiles if t not in in_zone)
    tiles: list[Tile | None] = [None] * len(footprints)
    order = sorted(range(len(footprints)), key=lambda k: (-footprints[k].area, k))
    big = max(max(fp) for fp in footprints)
    zone_grid = np.zeros((model.height + 1, model.width + 1), np.int64)
    for x, y in zone:
        zone_grid[y + 1, x + 1] = 1
    zone_sum = zone_grid.cumsum(0).cumsum(1)  # summed-area tables: squares per anchor
    for k in order:
        fp, (tx, ty) = footprints[k], targets[k]
        used = np.zeros((model.height + 1, model.width + 1), np.int64)
        for x, y in taken:
            if 0 <= x < model.width and 0 <= y < model.height:
                used[y + 1, x + 1] = 1
        used_sum = used.cumsum(0).cumsum(1)
        margin = 2 * big
        x0 = max(0, min(t[0] for t in zone) - fp.width + 1 - margin)
        y0 = max(0, min(t[1] for t in zone) - fp.height + 1 - margin)
        x1 = min(model.width - fp.width, max(t[0] for t in zone) + margin)
        y1 = min(model.height - fp.height, max(t[1] for t in zone) + margin)
        keys = []
        for ay in range(y0, y1 + 1):
            for ax in range(x0, x1 + 1):
                bx, by = ax + fp.width, ay + fp.height
                if used_sum[by, bx] - used_sum[ay, bx] - used_sum[by, ax] + used_sum[ay, ax]:
                    continue
                inside = int(zone_sum[by, bx] - zone_sum[ay, bx] - zone_sum[by, ax]
                             + zone_sum[ay, ax])
                tier = 0 if inside == fp.area else (1 if inside else 2)
                dx, dy = 2 * ax + fp.width - 1 - 2 * tx, 2 * ay + fp.height - 1 - 2 * ty
                keys.append((tier, dx * dx + dy * dy, ay, ax))
        keys.sort()
        best = next((key for key in keys if cannot_stand(model, (key[3], key[2]), fp) is None),
                    None)
        if best is None:
            raise BattleInputError(
                f"no room for member {k + 1}'s {fp} footprint in or near the start zone of "
                f"team {side!r} (every square on a free tile a character may stand on, one "
                "level, no wall inside)")
        ax, ay = best[3], best[2]
        exact = exact and best[0] == 0 and (ax, ay) == (tx, ty)
        taken.update(fp.squares((ax, ay)))
        tiles[k] = (ax, ay)
    return Placement(tuple(t for t in tiles if t is not None), facing, exact)


def place_team(model: MapModel, side: str, team_index: int, team: Team,
               formation: str | None = None, taken: Iterable[Tile] = (),
               grid_scale_m: float = 1.0) -> list[Combatant]:
    """The team's combatants in ``side``'s start zone (ids ``side.member``); ``taken``:
    tiles already covered (by the other team); ``grid_scale_m``: the rules key
    ``sizes.grid_scale_m`` giving each member's footprint (S3)."""
    fps = [m.sheet.footprint(grid_scale_m) for m in team.members]
    placement = place_formation(model, side, team.formation(formation), taken, fps)
    return [Combatant(f"{side}.{m.id}", team_index, side, m.sheet, x, y)
            for m, (x, y) in zip(team.members, placement.tiles, strict=True)]


def place_teams(model: MapModel, sides: Sequence[tuple[str, Team, str | None]],
                cap: int | None = None, grid_scale_m: float = 1.0) -> list[Combatant]:
    """Both teams placed (team 0 first, so it chooses tiles first where zones overlap),
    each checked against the point cap; footprints by ``grid_scale_m`` (S22)."""
    if len(sides) != 2:
        raise BattleInputError(f"a battle needs exactly 2 teams, not {len(sides)}")
    out: list[Combatant] = []
    for index, (side, team, formation) in enumerate(sides):
        check_point_cap(team.name, team_cost(team), cap)
        taken = [t for c in out for t in c.sheet.footprint(grid_scale_m).squares((c.x, c.y))]
        out += place_team(model, side, index, team, formation, taken, grid_scale_m)
    return out


def combatants_from_map(model: MapModel, roster: Roster, cap: int | None = None
                        ) -> list[Combatant]:
    """The characters already on the map, as they stand (decision B3).

    The two teams are the map's character teams in name order (team 0 first);
    each character's sheet is :func:`.sheet.sheet_for`; order team, then id.
    """
    sides = sorted({c.team for c in model.characters.values()})
    if len(sides) != 2:
        raise BattleInputError(f"a battle needs characters of exactly 2 teams; the map has "
                               f"{len(sides)}" + (f": {', '.join(sides)}" if sides else ""))
    out = [Combatant(c.id, sides.index(c.team), c.team, sheet_for(c, roster), c.x, c.y)
           for c in sorted(model.characters.values(), key=lambda c: (sides.index(c.team), c.id))]
    for index, side in enumerate(sides):
        check_point_cap(side, team_cost(c.sheet for c in out if c.team == index), cap)
    return out


def check_footprints(model: MapModel, fighters: Sequence[Combatant], grid_scale_m: float
                     ) -> tuple[Footprint, ...]:
    """Every fighter's footprint (its sheet's, at ``grid_scale_m``), after checking that
    each may stand where it is (:func:`.footprint.cannot_stand`: on the map, on no
    Obstructing tile or border, on one level; S4, S22) and no two share a tile; else
    :class:`BattleInputError` with one line naming the character and why."""
    fps = tuple(f.sheet.footprint(grid_scale_m) for f in fighters)
    taken: dict[Tile, str] = {}
    for f, fp in zip(fighters, fps, strict=True):
        if fp == (1, 1):
            if not standable(model, f.x, f.y):
                raise BattleInputError(f"character {f.id!r} stands on ({f.x}, {f.y}), "
                                       "where no character may stand")
        else:
            why = cannot_stand(model, (f.x, f.y), fp)
            if why is not None:
                raise BattleInputError(f"character {f.id!r} ({f.sheet.size}, {fp} at "
                                       f"({f.x}, {f.y})) cannot stand there: {why.text}")
        for t in fp.squares((f.x, f.y)):
            if t in taken:
                raise BattleInputError(f"characters {taken[t]!r} and {f.id!r} "
                                       f"share the tile ({t[0]}, {t[1]})")
            taken[t] = f.id
    return fps


# ------------------------------------------------------------------ can it end
def hits_to_win(attackers: Sequence[Sheet], defenders: Sequence[Sheet], rules: Rules
                ) -> int | None:
    """The fewest hits ``attackers`` need to defeat every one of ``defenders`` (None:
    never, some defender takes no damage from any of them): per defender, its
    Health down to ``combat.defeated_at_or_below`` (B41) divided by the most damage
    one hit of any attacker deals it, melee or ranged (:func:`.attack.damage_on_hit`,
    Damage Reduction and ``combat.min_damage`` included), rounded up.  Damage comes
    only from hits (the battle has no other), so no battle defeats them in fewer."""
    floor = rules.combat.defeated_at_or_below
    total = 0
    for d in defenders:
        need = d.health - floor
        if need <= 0:
            continue
        best = max((damage_on_hit(a, d, melee, rules)[1] for a in attackers
                    for melee in (True, False)), default=0)
        if best <= 0:
            return None
        total += -(-need // best)
    return total


def certain_draw(sides: Sequence[Sequence[Sheet]], rules: Rules) -> str | None:
    """Why no battle of these two teams (their sheets) can end before the turn limit,
    or None.  A team wins by defeating every enemy (B41); it attacks at most
    ``clock.actions_per_type`` times a turn and the battle lasts at most
    ``battle.max_turns`` turns (both teams' together), so a team that needs more
    hits (:func:`hits_to_win`) cannot win.  When neither can, every battle is a draw
    at the turn limit, however long it runs (docs/rules.md, B41a)."""
    if any(s.abilities for side in sides for s in side):
        return _certain_draw_with_areas(sides, rules)
    cap = rules.battle.max_turns
    most = cap * rules.clock.actions_per_type
    needs = [hits_to_win(sides[t], sides[1 - t], rules) for t in (0, 1)]
    if any(n is not None and n <= most for n in needs):
        return None
    said = [f"team {t} needs {n} hits" if n is not None else
            f"team {t} never (an enemy takes no damage from it)" for t, n in enumerate(needs)]
    return (f"no team can win within battle.max_turns = {cap} turns ({most} attacks at most; "
            f"{', '.join(said)}): every battle will be a draw at the turn limit")


def _area_hit(d: AbilityDef, defender: Sheet, rules: Rules) -> int:
    """The damage one hit of area ability ``d`` deals ``defender`` (AB8: Damage
    Reduction unless an Engulf; ``combat.min_damage``)."""
    dr = 0 if d.spec.type is AreaType.ENGULF or d.damage_type not in rules.combat.dr_applies_to \
        else defender.damage_reduction
    return max(rules.combat.min_damage, d.damage - dr)


def _certain_draw_with_areas(sides: Sequence[Sequence[Sheet]], rules: Rules) -> str | None:
    """:func:`certain_draw` when area abilities take part (AB16): an area hits many at
    once, so the count is per enemy.  In one turn an enemy takes at most one Basic
    Attack and one area cast per action allowed, one landing falling object and one
    upkeep hit of each lingering area still on the board (one caster's lingering areas
    last at most the sum of their Durations); each team has at most
    ``battle.max_turns`` turns.  A team whose some enemy needs more hits (its Health
    over the most one hit of the team deals it, Basic Attack or area) cannot win."""
    cap = rules.battle.max_turns
    floor = rules.combat.defeated_at_or_below
    said = []
    for t in (0, 1):
        attackers, defenders = sides[t], sides[1 - t]
        lingering = max((sum(d.spec.duration or 0 for d in a.abilities if d.lingers)
                         for a in attackers), default=0)
        per_turn = 2 * rules.clock.actions_per_type + 1 + lingering
        worst = 0
        for e in defenders:
            need = e.health - floor
            if need <= 0:
                continue
            best = max([damage_on_hit(a, e, melee, rules)[1] for a in attackers
                        for melee in (True, False)]
                       + [_area_hit(d, e, rules) for a in attackers for d in a.abilities],
                       default=0)
            if best <= 0:
                worst = -1
                break
            worst = max(worst, -(-need // best))
        if 0 <= worst <= cap * per_turn:
            return None
        said.append(f"team {t} never (an enemy takes no damage from it)" if worst < 0 else
                    f"team {t} needs {worst} hits on one enemy, {cap * per_turn} at most")
    return (f"no team can win within battle.max_turns = {cap} turns ({', '.join(said)}; "
            "an area may hit many at once, no enemy more than once a turn for each way it "
            "can be hit): every battle will be a draw at the turn limit")
