"""How an area ability hurts: its area on the battle's board, its victims, each
victim's roll and damage, Maim, and the walls a Blast breaks (docs/rules.md
*Abilities*, AB4-AB9).

"every character in the area is a victim" (issue 25); each victim is rolled against
on its own, as a Basic Attack is (RB *Attacking and Defending*): "take the defending
character's Defense, add Evasion (if applicable), and apply any relevant modifiers
... Then, take the attacking character's Accuracy and apply any relevant
modifiers"; the ability's Accuracy stands for the attacker's.  :func:`victims`
is the Battle Information Panel of an area (pure: no state or stream changes);
:func:`hit_victims` applies one d100 per victim (and one per Maim chance).

This module works on any state with the attributes of :class:`AreaState` (the
battle state imports the abilities, so the abilities do not import it).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from ..engine.area_notation import AreaSpec, AreaType, Shape
from ..engine.areas import Area, AreaError, area
from ..engine.footprint import Footprint, creatures_adjacent, creatures_hit, overlaps
from ..engine.footprint_los import footprint_los
from ..engine.los import LosBoard
from ..engine.terrain import Crossing
from . import karma as karma_rules
from .ability_defs import IMPACT, AbilityDef
from .attack import Modifier, Situation, is_aware, modifiers
from .board import Board, Feature, Tile
from .clock import Clock
from .dice import D100, needed_roll
from .events import AreaHit, Event, TerrainAttacked, TerrainDestroyed
from .records import quick_init
from .rules import Rules
from .sheet import Sheet
from .terrain_effects import area_modifiers

Roll = Callable[[], D100]
ONE = Footprint(1, 1)
#: ``state.effects`` key of a Maimed character (AB9).
MAIMED = "maimed"


class AreaState(Protocol):
    """What the area rules read and change of a battle state (:class:`.state.BattleState`)."""

    rules: Rules
    board: Board
    sheets: tuple[Sheet, ...]
    team: tuple[int, ...]
    names: tuple[str, ...]
    pos: list[Tile]
    hp: list[int]
    moved: list[bool]
    occ: dict[Tile, int]
    fp: tuple[Footprint, ...]
    sized: bool
    clock: Clock
    karma: int
    damage: dict[Feature, int]
    destroyed: list[Feature]
    effects: dict[Any, Any]
    result: Any
    abilities: tuple[Any, ...]

    @property
    def actor(self) -> int | None: ...

    def alive(self, i: int) -> bool: ...

    def crossing(self, a: Tile, b: Tile) -> Crossing: ...

    def los_board(self) -> LosBoard: ...

    def changed(self) -> None: ...

    def own_board(self) -> Board: ...

    def defeat(self, i: int, by: int, *, end: bool = True) -> list[Event]: ...

    def end_if_wiped(self) -> list[Event]: ...


@quick_init
@dataclass(frozen=True, slots=True)
class VictimPreview:
    """One victim of an area as the BIP shows it before the ability is confirmed (RB
    *The Battle UI*: "the target's Total Defense Value ..., how much damage they'll
    ignore, and what you'll need to roll to succeed and how much damage you'll deal"):
    the character, its tile, ``ally`` (on the caster's team, the caster included),
    the kind of its Defense, the ability's Accuracy, the victim's Defense and the
    Evasion added, every modifier by source, TAV, TDV, difficulty, roll needed, the
    Damage Reduction that applies, the damage on a hit, and the hits out of 100
    without and with the Karma Points its roll may use (``karma``: none against an
    ally, AB7)."""

    character: int
    tile: Tile
    ally: bool
    kind: Literal["melee", "ranged"]
    accuracy: int
    defense: int
    evasion: int
    modifiers: tuple[Modifier, ...]
    tav: int
    tdv: int
    difficulty: int
    need_roll: int
    dr: int
    damage_on_hit: int
    hits: int
    karma: int
    hits_with_karma: int
    impeded: bool = False  # the area's line to the victim is impeded (the log's ``los``)
    aware: bool = True  # the victim's Evasion counts (B19; the log's ``aware``)

    @property
    def p_hit(self) -> float:
        return self.hits / 100

    @property
    def p_hit_with_karma(self) -> float:
        return self.hits_with_karma / 100


# ------------------------------------------------------------------ the area
def wall_feature(wall: tuple[Any, ...]) -> Feature:
    """The battle's feature of an engine wall (``("tile", x, y)``, ``("border", x, y, s)``)."""
    return (wall[1], wall[2], "") if wall[0] == "tile" else (wall[1], wall[2], wall[3])


def feature_wall(f: Feature) -> tuple[Any, ...]:
    return ("tile", f[0], f[1]) if f[2] == "" else ("border", f[0], f[1], f[2])


def grown(spec: AreaSpec, reach: int) -> AreaSpec:
    """``spec`` with its Reach set to ``reach`` (a lingering area that grew, AB11; a
    Cube grows its side by twice the growth, keeping a centre tile)."""
    from dataclasses import replace

    if spec.shape is Shape.CUBE:
        return replace(spec, size=2 * reach + 1)
    return replace(spec, reach=reach)


def base_reach(spec: AreaSpec) -> int:
    """The Reach an area starts with (a Cube's: half its side)."""
    if spec.shape is Shape.CUBE:
        return ((spec.size or 1) - 1) // 2
    return spec.reach or 0


def area_of(state: AreaState, d: AbilityDef, source: Tile, aim: Tile | None, *,
            reach: int | None = None, fp: Footprint | None = None) -> Area:
    """The engine's area of ``d`` cast from ``source`` aimed at ``aim`` on the battle's
    board now (``reach``: a lingering area's Reach after growing; ``fp``: the caster's
    footprint, ``source`` its top-left tile; None: the footprint of the character whose
    top-left tile ``source`` is, else one tile).  A larger caster casts by AE18
    (docs/rules.md S29).  A Blast spends its
    damage on walls, each wall its Durability left (AE8, B39: the damage on a wall adds
    up).  Characters are not passed: they never stop an area (AE4); whether a point of
    origin may be chosen is the battle's own check (AB2).  Kept on the board, for every
    battle on the same terrain."""
    spec = d.spec if reach is None else grown(d.spec, reach)
    if fp is None:
        j = state.occ.get(source)
        fp = state.fp[j] if j is not None and state.pos[j] == source else ONE
    rules = state.rules
    blast = spec.type is AreaType.BLAST
    worn = tuple(sorted(state.damage.items())) if blast else ()
    key = (spec, source, aim, d.damage if blast else None, worn,
           rules.terrain.obstruction_damage_threshold, rules.targeting.range_metric,
           rules.abilities.falling_indoors, fp)
    cache = state.board.kept.setdefault("areas", {})
    hit = cache.get(key)
    if hit is None:
        try:
            hit = area(state.board.model, spec, source, target=aim,
                       damage=d.damage if blast else None,
                       durability=rules.terrain.obstruction_damage_threshold,
                       metric=rules.targeting.range_metric,
                       falling_indoors=rules.abilities.falling_indoors,
                       worn={feature_wall(f): v for f, v in worn} or None, footprint=fp)
        except AreaError as exc:  # (an aim the refusal lets through never gets here)
            hit = Area(spec, source, None, refused=str(exc))
        if len(cache) >= 4096:
            cache.clear()
        cache[key] = hit
    return hit


# ------------------------------------------------------------------ victims
def on_tiles(state: AreaState, tiles: Sequence[Tile], mover: int | None = None,
             at: Tile | None = None) -> list[int]:
    """The undefeated characters standing on ``tiles``, by battle index (``mover`` taken
    to stand on ``at`` instead of its tile: an AI weighing a move first)."""
    occ = state.occ
    if mover is None or at is None:
        return sorted({occ[t] for t in tiles if t in occ})  # a creature once (S11)
    out = {occ[t] for t in tiles if t in occ and occ[t] != mover and t != at}
    if any(t in tiles for t in state.fp[mover].squares(at)):
        out.add(mover)
    return sorted(out)


def hit_square(state: AreaState, a: Area, v: int, tile: Tile) -> Tile:
    """The square of character ``v`` (top-left tile ``tile``) that area ``a`` hits it on
    (S11: where most of a Blast's damage is left, else the first reached row-major); its
    one tile for a one-tile character."""
    fp = state.fp[v]
    if fp == (1, 1):
        return tile
    return creatures_hit(a.affected, {"v": (tile, fp)}, a.damage).get("v", tile)


def spared(state: AreaState, d: AbilityDef, i: int) -> str | None:
    """Why character ``i`` in the area is no victim (None: it is one): seed, Rising
    "do not affect flying creatures" (AB8)."""
    if d.spec.type is AreaType.RISING and state.sheets[i].flight:
        return "flying: a Rising area does not affect flying creatures"
    return None


def situation(state: AreaState, d: AbilityDef, caster: int, victim: int, origin: Tile,
              impeded: bool, cast: bool, at: Tile | None = None,
              moved: bool | None = None, square: Tile | None = None) -> Situation:
    """The facts of one victim's roll (AB5): as a Basic Attack's (B17-B23), with the area's
    point of origin for awareness and the area's line for Impeding terrain.  At the cast
    the caster's own modifiers count (its Move Action, Liquid, and elevation except for
    a Falling or Rising area, which come from above and below); at an upkeep nobody
    attacks: only the victim's count (AB10).  ``at``, ``moved``: the caster's tile and
    Move flag instead of its own (an AI weighing a move first); ``square``: the victim's
    square the area hits it on (S11), for the terrain under it (TP-B12)."""
    c = state.pos[caster] if at is None else at
    v = c if victim == caster else state.pos[victim]
    board = state.board
    if state.sized and victim != caster:  # by footprints (S5, S25)
        adjacent = cast and creatures_adjacent(board.model, c, state.fp[caster], v,
                                               state.fp[victim])
    else:
        adjacent = cast and victim != caster and board.adjacent(c, v)
    level = board.level
    vl = level[v[1]][v[0]]
    from_caster = cast and d.spec.type not in (AreaType.FALLING, AreaType.RISING)
    mode = state.rules.awareness.mode
    sees = mode == "los" and sees_origin(state, d, caster, victim, v, origin)
    extra: tuple[Modifier, ...] = ()
    for ability in state.abilities:
        extra += tuple(ability.modifiers(state, caster, victim))
    if state.abilities:  # terrain properties (docs/rules.md TP-B4)
        extra += area_modifiers(state, caster, victim, origin, square)
    liquid = board.liquid
    return Situation(
        adjacent=adjacent, impeded=impeded and not adjacent,
        attacker_level=level[c[1]][c[0]] if from_caster else vl, defender_level=vl,
        attacker_moved=cast and (state.moved[caster] if moved is None else moved),
        defender_moved=state.moved[victim] if moved is None or victim != caster else moved,
        defender_aware=is_aware(mode, sees),
        attacker_on_liquid=cast and _in_liquid(liquid, c, state.fp[caster]),
        defender_on_liquid=_in_liquid(liquid, v, state.fp[victim]), extra=extra)


def _in_liquid(liquid: Any, anchor: Tile, fp: Footprint) -> bool:
    """In Liquid when any square is (S23)."""
    if fp == ONE:
        return bool(liquid[anchor[1]][anchor[0]])
    return any(liquid[y][x] for x, y in fp.squares(anchor))


def sees_origin(state: AreaState, d: AbilityDef, caster: int, victim: int, v: Tile,
                origin: Tile) -> bool:
    """Whether ``victim`` (top-left tile ``v``) has a line of sight to the area's point of
    origin that is not blocked (AB5, B19).  Between one-tile characters: the line from
    its tile to ``origin``.  Otherwise by footprints (S9, S29): the best line from any
    square of the victim to the origin, which for an area centred on a larger caster is
    every square the caster covered when it cast (its Reach counts from each), other
    characters' squares blocking."""
    ofp = state.fp[caster] if not d.aimed else ONE
    vfp = state.fp[victim]
    if not state.sized or (vfp == ONE and ofp == ONE):
        return v == origin or state.crossing(v, origin) is not Crossing.BLOCKED
    if overlaps(v, vfp, origin, ofp):
        return True  # it stands where the area starts
    occupied = [t for t in state.occ if not vfp.covers(v, t) and not ofp.covers(origin, t)]
    return footprint_los(state.board.model, v, vfp, origin, ofp, occupied=occupied
                         ).crossing is not Crossing.BLOCKED


def karma_counts(state: AreaState, caster_team: int, victim: int) -> bool:
    """Whether a roll against ``victim`` spends and earns the caster's team's Karma Points
    (AB7): against an enemy always; against the caster's own team only with
    ``abilities.karma_against_own_team``."""
    return state.team[victim] != caster_team or state.rules.abilities.karma_against_own_team


def preview_victim(state: AreaState, d: AbilityDef, caster: int, caster_team: int, victim: int,
                   damage: int, origin: Tile, impeded: bool, cast: bool,
                   at: Tile | None = None, moved: bool | None = None,
                   square: Tile | None = None) -> VictimPreview:
    """The BIP numbers of one victim (AB5-AB8; pure; ``square``: where the area hits
    it, S11)."""
    rules = state.rules
    s = situation(state, d, caster, victim, origin, impeded, cast, at, moved, square)
    sheet = state.sheets[victim]
    mods = modifiers(s, rules)
    melee = s.adjacent
    dfn = sheet.defense(melee)
    evasion = sheet.evasion if s.defender_aware else 0
    tav, tdv = d.accuracy, dfn + evasion
    for m in mods:
        if m.stat == "accuracy":
            tav += m.amount
        else:
            tdv += m.amount
    difficulty = tdv - tav
    ignores_dr = d.spec.type is AreaType.ENGULF  # seed: "Engulf Effects ignore Armor"
    dr = 0 if ignores_dr or d.damage_type not in rules.combat.dr_applies_to \
        else sheet.damage_reduction
    held = karma_rules.available(state.karma, caster_team) \
        if karma_counts(state, caster_team, victim) else 0
    hits = karma_rules.successes(difficulty, 0, rules)
    tile = at if victim == caster and at is not None else state.pos[victim]
    return VictimPreview(
        character=victim, tile=tile, ally=state.team[victim] == caster_team,
        kind="melee" if melee else "ranged", accuracy=d.accuracy, defense=dfn,
        evasion=evasion, modifiers=mods, tav=tav, tdv=tdv, difficulty=difficulty,
        need_roll=needed_roll(difficulty, rules.dice), dr=dr,
        damage_on_hit=max(rules.combat.min_damage, damage - dr), hits=hits, karma=held,
        hits_with_karma=karma_rules.successes(difficulty, held, rules) if held > 0 else hits,
        impeded=s.impeded, aware=s.defender_aware)


def victims(state: AreaState, d: AbilityDef, caster: int, a: Area, *, cast: bool = True,
            caster_team: int | None = None, at: Tile | None = None,
            moved: bool | None = None) -> list[VictimPreview]:
    """Every victim of area ``a`` of ``d`` (every undefeated character on an affected
    tile, the caster and its allies included, but those :func:`spared`), by battle
    index, with its BIP numbers (``cast``: at the cast, else at an upkeep; ``at``,
    ``moved``: the caster standing on ``at`` with that Move flag, for an AI)."""
    if a.refused is not None or a.origin is None:
        return []
    team = state.team[caster] if caster_team is None else caster_team
    out = []
    for v in on_tiles(state, a.affected, caster if at is not None else None, at):
        if spared(state, d, v) is None:
            tile = hit_square(state, a, v, at if v == caster and at is not None
                              else state.pos[v])
            damage = d.damage if a.damage is None else a.damage[tile]
            out.append(preview_victim(state, d, caster, team, v, damage, a.origin,
                                      tile in a.impeded, cast, at, moved, tile))
    return out


def spared_in(state: AreaState, d: AbilityDef, a: Area) -> list[tuple[int, str]]:
    """The characters in area ``a`` that are no victims, with why."""
    out = []
    for v in on_tiles(state, a.affected):
        why = spared(state, d, v)
        if why is not None:
            out.append((v, why))
    return out


# ------------------------------------------------------------------ resolution
def break_walls(state: AreaState, caster: int, a: Area, ip: int) -> list[Event]:
    """A Blast's walls (AE8, AB4): each wall it broke is destroyed as a Basic Attack's
    damage destroys it (B39, the engine's destroy operation); a tile or border that
    stopped it keeps the damage it had left, added up with earlier damage."""
    threshold = state.rules.terrain.obstruction_damage_threshold
    events: list[Event] = []
    broken = [wall_feature(w) for w in a.walls]
    for f, dealt in sorted((wall_feature(w), v) for w, v in a.wall_damage.items()):
        total = state.damage.get(f, 0) + dealt
        state.damage[f] = total
        events.append(TerrainAttacked(caster, f, "area", dealt, total, threshold, ip))
    for f in broken:
        before = state.damage.pop(f, 0)
        events.append(TerrainAttacked(caster, f, "area", threshold - before, threshold,
                                      threshold, ip))
        rubble = state.own_board().destroy(f)
        state.destroyed.append(f)
        events.append(TerrainDestroyed(f, rubble))
    if broken:
        state.changed()
    return events


def hit_victims(state: AreaState, d: AbilityDef, caster: int, caster_team: int,
                previews: Sequence[VictimPreview], roll: Roll, effect: int = -1
                ) -> list[Event]:
    """One d100 per victim, in battle index order, at its previewed difficulty (AB5):
    Karma Points as for any roll against an enemy (AB7), the damage on a hit (AB8),
    a Maim chance for an unarmored victim of an Impact area (AB9); then every victim at
    or below ``combat.defeated_at_or_below`` is defeated together (AB6: "kill their
    Victims if they drop them to 0 Hit Points")."""
    rules = state.rules
    events: list[Event] = []
    down: list[int] = []
    impact = d.spec.type in IMPACT
    for p in previews:
        v = p.character
        if not state.alive(v):
            continue
        dice = roll()
        counts = karma_counts(state, caster_team, v)
        pool = state.karma if counts else 0
        out = karma_rules.resolve_roll(p.difficulty, dice.value, pool, caster_team, rules)
        if counts:
            state.karma = out.pool_after
        damage = p.damage_on_hit if out.success else 0
        state.hp[v] -= damage
        maim_roll, maimed = 0, False
        if out.success and impact and rules.abilities.maim_chance > 0 \
                and state.sheets[v].damage_reduction == 0 \
                and (MAIMED, v) not in state.effects:  # seed: "may Maim Unarmored Victims"
            maim_roll = roll().value
            maimed = maim_roll <= rules.abilities.maim_chance
            if maimed:
                state.effects[(MAIMED, v)] = True
        events.append(AreaHit(
            caster, d.name, v, p.ally, effect, p.kind, p.tav, p.tdv, p.evasion, p.modifiers,
            p.difficulty, p.need_roll, (dice.tens, dice.ones), dice.value, dice.doubles,
            pool if counts else state.karma, state.karma,
            out.karma_spent if counts else 0, out.karma_gained if counts else 0,
            out.success, out.natural, damage, state.hp[v], maim_roll, maimed,
            "impeded" if p.impeded else "clear", p.aware))
        if state.hp[v] <= rules.combat.defeated_at_or_below:
            down.append(v)
    for v in down:
        events += state.defeat(v, caster, end=False)
    if down:
        events += state.end_if_wiped()
    return events
