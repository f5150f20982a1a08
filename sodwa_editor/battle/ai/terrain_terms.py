"""The terrain properties' terms of the greedy utility (docs/battle-ai.md, *Terrain
properties*; weights: the AI profile's ``terrain`` section, :class:`.profile.TerrainWeights`).

Every term asks the battle's own rules on a scratch copy of the battle where the actor
is moved to the tile looked at; nothing here restates a rule:

* **stand** (``cover``): the expected damage the end tile's terrain spares the actor from
  each enemy that may strike it there, ``P(hit) x damage`` of the enemy's plain attack
  less the same with :func:`..terrain_effects.attack_modifiers` (Cover, high ground,
  water, an attacker the actor cannot see in Dark or Obscured terrain) and 0 where
  :func:`..terrain_effects.targeting_refusal` refuses the attack (Full Cover, Fully
  Obscured, unlit Full Dark); times the greedy ``threat`` weight, as the threat term
  weighs damage taken (so ``cover`` 1 weighs it as the threat term does);
* **path** (``hazard``, ``condition``): the Move's path
  (:meth:`~...engine.movement.Reach.path_to`, the one the Move Action takes) through
  Hazardous tiles, traps the side has seen spring (a hidden trap is not known before)
  and Precarious tiles passed over: the chance the effect lands
  (:func:`..terrain_entering.save_roll` over the 100 rolls) times its damage
  (:func:`..terrain_entering.roll_dice`'s mean over the faces,
  :func:`..terrain_entering.scaled_damage`), plus ``condition`` hit points per condition
  it leaves; a mover the entering effects spare (a flyer, at altitude) risks nothing
  (asked of :func:`..terrain_entering.entering_effects` itself);
* **attack** (``attack``): the actor's attack from a tile at the BIP's numbers with the
  terrain's modifiers instead of without (:func:`..targeting.situation`'s facts); an
  attack the rules refuse from there (:func:`..targeting.attack_refusal`: Full Cover,
  no melee between heights without Steep) loses its whole value.

A map without properties, or a profile whose terrain weights are all 0, never builds
this (:func:`applies`): the plans are the ones scored without it, float for float.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any, Protocol

import numpy as np

from .. import karma as karma_rules
from ..actions import move_allowance
from ..attack import Situation, difficulty_and_damage
from ..dice import D100, d100_from_value
from ..events import Moved
from ..loop import View
from ..sized import level as level_of
from ..state import BattleState
from ..terrain_effects import (
    attack_modifiers,
    heights_apart,
    targeting_refusal,
    terrain_effects_for,
)
from ..terrain_entering import (
    SPRUNG,
    TerrainEffect,
    entering_effects,
    roll_dice,
    save_roll,
    scaled_damage,
)
from ..terrain_layers import layers_of
from .profile import GreedyWeights, TerrainWeights

Tile = tuple[int, int]
#: Plan kinds, in enumeration order (as :data:`.scoring.PASS` ...).
PASS, ATTACK, ATTACK_MOVE, MOVE, MOVE_ATTACK = range(5)
#: The 100 equally likely d100 rolls.
ROLLS = tuple(d100_from_value(v) for v in range(1, 101))
ENTERING = ("hazardous", "trapped", "precarious")


def applies(view: View, tw: TerrainWeights | None) -> bool:
    """Whether the terrain terms count: some weight is set and the battle applies
    terrain properties (the battle's own test, :func:`..terrain_effects.terrain_effects_for`)."""
    return tw is not None and tw.any and bool(terrain_effects_for(view.map, view.rules))


class TurnFacts(Protocol):
    """What :func:`with_terrain` reads of the planner's facts of the turn
    (:class:`.scoring.TurnFacts`)."""

    view: View
    w: GreedyWeights
    memo: Any
    numbers: Any
    enemies: list[int]
    span: int
    level: np.ndarray
    rules: Any

    def facts(self, b: int, rest: int) -> tuple[int, ...]: ...


class TerrainTerms:
    """The terrain terms of the actor's turn on ``view`` (kept per tile and enemy for
    the decision)."""

    def __init__(self, view: View, tw: TerrainWeights, gw: GreedyWeights,
                 kept: dict[tuple[object, ...], float] | None = None) -> None:
        actor = view.actor
        assert actor is not None, "plans are made during a turn"
        self.view, self.tw, self.gw, self.i = view, tw, gw, actor
        self._state: BattleState | None = None
        self.home: Tile = view.tile(actor)
        self.moved_now = view.moved(actor)
        self.rules = view.rules
        self.lay = layers_of(view.map)
        #: Terms kept across decisions (the controller's :class:`.memo.Memo`), keyed by
        #: everything the rules they call read: the actor, the tiles of both sides,
        #: the karma pool and the battle's effects (conditions, altitude, traps);
        #: an attack's also by every character's tile, the Move flags and the HP.
        self.kept = {} if kept is None else kept
        if len(self.kept) > 1 << 15:
            self.kept.clear()
        self._key = (actor, view.karma(0) - view.karma(1), view.effects_key())
        self._plain: dict[tuple[int, bool, int], float] = {}
        self._tiles: dict[tuple[Tile, bool], float] = {}
        self._dice: dict[str, float] = {}
        self._exempt: bool | None = None
        self._known: frozenset[Tile] | None = None

    @property
    def state(self) -> BattleState:
        """The scratch copy of the battle the actor is moved about (made when first
        needed: a decision whose terms are all kept makes none)."""
        if self._state is None:
            self._state = self.view.fork()
        return self._state

    @property
    def known(self) -> frozenset[Tile]:
        """The tiles of the traps the battle's log shows springing (read when a path
        first meets a hidden trap: the log is long)."""
        if self._known is None:
            self._known = frozenset(e.tile for e in self.view.events
                                    if isinstance(e, TerrainEffect)
                                    and e.source.startswith("trapped"))
        return self._known

    @property
    def allowance(self) -> int:
        return move_allowance(self.state)

    # ------------------------------------------------------------ the scratch copy
    def _place(self, tile: Tile, moved: bool | None = None) -> None:
        s = self.state
        if s.pos[self.i] != tile:
            s.move_to(self.i, tile)
            s.changed()
        flag = self.moved_now if moved is None else moved
        if s.moved[self.i] != flag:
            s.moved[self.i] = flag
            s.changed()

    def _hit(self, a: int, d: int, facts: Situation) -> tuple[float, float, int, int]:
        """(P(hit) with the attacker's team's karma, damage on a hit, difficulty, hits)."""
        s = self.state
        difficulty, damage = difficulty_and_damage(s.sheets[a], s.sheets[d], facts, self.rules)
        held = karma_rules.available(s.karma, s.team[a])
        hits = karma_rules.successes(difficulty, held, self.rules)
        return hits / 100, damage, difficulty, hits

    # ------------------------------------------------------------ stand
    def stand(self, tile: Tile, threats: list[tuple[int, bool]]) -> float:
        """The ``cover`` term of ending the turn on ``tile``: ``threats`` the enemies that
        may strike it (battle index, whether by melee)."""
        if not self.tw.cover or not threats:
            return 0.0
        total = 0.0
        kept, view = self.kept, self.view
        for j, melee in threats:
            key = ("stand", *self._key, tile, j, view.tile(j), melee)
            spared = kept.get(key)
            if spared is None:
                spared = kept[key] = self._spared_by(tile, j, melee)
            total += spared
        return self.tw.cover * self.gw.threat * total

    def _spared_by(self, tile: Tile, j: int, melee: bool) -> float:
        """Expected damage of enemy ``j``'s attack (from where it stands) on the actor
        at ``tile`` that the terrain takes away."""
        self._place(tile)
        s = self.state
        plain = Situation(adjacent=melee, attacker_level=level_of(s, j),
                          defender_level=level_of(s, self.i), defender_aware=True)
        p, damage, _d, _h = self._hit(j, self.i, plain)
        before = p * damage
        if targeting_refusal(s, j, self.i, melee) is not None:
            return before
        mods = attack_modifiers(s, j, self.i, melee, False, True)
        if not mods:
            return 0.0
        p, damage, _d, _h = self._hit(j, self.i, replace(plain, extra=mods))
        return before - p * damage

    def plain_threat(self, j: int, melee: bool, level: int) -> float:
        """P(hit) x damage of enemy ``j``'s plain attack on the actor standing on
        ``level``: the most :meth:`stand` can count for ``j`` (its attack refused)."""
        key = ("plain", *self._key, j, self.view.tile(j), melee, level)
        hit = self.kept.get(key)
        if hit is None:
            s = self.state
            plain = Situation(adjacent=melee, attacker_level=level_of(s, j),
                              defender_level=level, defender_aware=True)
            p, damage, _d, _h = self._hit(j, self.i, plain)
            hit = self.kept[key] = p * damage
        return hit

    def karma_bound(self) -> float:
        """The most Karma Points an attack's miss is expected to earn, over difficulties
        -300 to 300 (the miss chance with the team's karma times the gain)."""
        held = self.view.karma(self.view.team_of(self.i))
        key = ("karma bound", held)
        hit = self.kept.get(key)
        if hit is None:
            r = self.rules
            hit = self.kept[key] = max(
                (100 - karma_rules.successes(d, held, r)) / 100 * karma_rules.gain(d, r)
                for d in range(-300, 301))
        return hit

    # ------------------------------------------------------------ attack
    def attack(self, tile: Tile, j: int, facts: tuple[int, ...]) -> float:
        """The ``attack`` term: the change the terrain makes to the value of attacking
        ``j`` from ``tile`` in the situation ``facts`` (the :class:`Situation` fields in
        order, as the planner read them off the board: :meth:`.scoring.TurnFacts.facts`),
        in the greedy weights' units."""
        if not self.tw.attack:
            return 0.0
        view = self.view
        key = ("attack", *self._key, tile, j, view.tile(j), facts, view.hp(j))
        hit = self.kept.get(key)
        if hit is None:
            hit = self.kept[key] = self._attack_change(tile, j, facts)
        return self.tw.attack * hit

    def _value(self, j: int, facts: Situation) -> float:
        p, damage, difficulty, hits = self._hit(self.i, j, facts)
        gw, s = self.gw, self.state
        hp = s.hp[j]
        floor = self.rules.combat.defeated_at_or_below
        kill = p * gw.kill * s.sheets[j].cost / 100 if hp - damage <= floor else 0.0
        karma = (100 - hits) / 100 * karma_rules.gain(difficulty, self.rules)
        return gw.damage * p * min(damage, hp) + kill + gw.karma * karma

    def _attack_change(self, tile: Tile, j: int, facts: tuple[int, ...]) -> float:
        adjacent, impeded, a_level, d_level, a_moved, d_moved, aware, a_liq, d_liq = facts
        self._place(tile, bool(a_moved))
        s = self.state
        plain = Situation(bool(adjacent), bool(impeded), a_level, d_level, bool(a_moved),
                          bool(d_moved), bool(aware), bool(a_liq), bool(d_liq))
        if (adjacent and heights_apart(s, self.i, j)) \
                or targeting_refusal(s, self.i, j, bool(adjacent)) is not None:
            return -self._value(j, plain)  # the rules refuse it from there (TP-B3, TP-B5)
        mods = attack_modifiers(s, self.i, j, bool(adjacent), bool(impeded), bool(aware))
        if not mods:
            return 0.0
        return self._value(j, replace(plain, extra=mods)) - self._value(j, plain)

    # ------------------------------------------------------------ path
    def path(self, tile: Tile, budget: int | None = None) -> float:
        """The ``hazard`` term (a cost, >= 0) of a Move to ``tile`` with ``budget`` steps
        (default: the Move the actor has now)."""
        if not self.tw.hazard or tile == self.home:
            return 0.0
        # (the traps known matter only where a sprung trap acts again: with
        # trap_springs_once a known trap is spent, which the battle's effects say)
        again = "trapped" in self.lay.on and not self.rules.terrain_properties.trap_springs_once
        key = ("path", *self._key, tile, budget, self.view.placement,
               self.known if again else None)
        hit = self.kept.get(key)
        if hit is None:
            hit = self.kept[key] = self._path(tile, budget)
        return self.tw.hazard * hit

    def _path(self, tile: Tile, budget: int | None) -> float:
        reach = self.view.reach(self.i, self.allowance if budget is None else budget)
        path = reach.path_to(tile)
        if path is None:
            return 0.0
        total = 0.0
        last = len(path) - 1
        for k, t in enumerate(path[1:], 1):
            risk = self._tile_risk(t, k < last)
            if risk and self._spared_mover(t):
                return 0.0
            total += risk
        return total

    def _tile_risk(self, tile: Tile, passing: bool) -> float:
        key = (tile, passing)
        hit = self._tiles.get(key)
        if hit is None:
            hit = self._tiles[key] = self._risk(tile, passing)
        return hit

    def _risk(self, tile: Tile, passing: bool) -> float:
        """Expected damage plus ``condition`` per expected condition of entering ``tile``."""
        x, y = tile
        model = self.view.map
        props = model.registry[int(model.terrain[y, x])].properties
        if not props or not any(p in props for p in ENTERING):
            return 0.0
        total = 0.0
        if "hazardous" in props:
            total += self._effect(props["hazardous"].params)
        trap = props.get("trapped")
        if trap is not None and trap.params["hidden"] and tile in self.known \
                and not self.state.effects.get((SPRUNG, x, y)):
            total += self._effect(trap.params)
        if "precarious" in props and passing:
            total += self._lands("reflex", props["precarious"].params["dc"]) \
                * self.tw.condition
        return total

    def _effect(self, params: Any) -> float:
        p = self._lands(params["save"], params["dc"])
        damage = scaled_damage(self.state, self.i, round(self._mean_dice(params["damage"])),
                               params["damage_type"], params["ignores_dr"])
        condition = self.tw.condition if params["condition"] != "none" else 0.0
        return p * (damage + condition)

    def _lands(self, save: str, dc: int) -> float:
        """The chance an effect of DC ``dc`` lands against the actor's ``save``: the share
        of the 100 rolls on which :func:`..terrain_entering.save_roll` says it lands."""
        key = ("lands", self.i, save, dc)
        hit = self.kept.get(key)
        if hit is None:
            landed = sum(save_roll(self.state, self.i, save, dc, _always(d))[2] for d in ROLLS)
            hit = self.kept[key] = landed / 100
        return hit

    def _mean_dice(self, text: str) -> float:
        """The mean total of dice text over the 100 rolls (each die's face read from the
        roll as :func:`..terrain_entering.roll_dice` reads it)."""
        hit = self._dice.get(text)
        if hit is None:
            hit = self._dice[text] = float(np.mean([roll_dice(text, _always(d)) for d in ROLLS]))
        return hit

    def _spared_mover(self, tile: Tile) -> bool:
        """Whether the entering effects spare the actor (a flyer above the ground): the
        rule itself asked on a throwaway copy, with a Move over ``tile`` (a tile that acts
        on a mover it does not spare) and back onto it."""
        if self._exempt is None:
            probe = self.state.copy(log=False, streams=False)
            path = (probe.pos[self.i], tile, tile)
            self._exempt = not entering_effects(probe, Moved(self.i, path, 2, 2, 0),
                                                self.lay)
        return self._exempt


def _always(d: D100) -> Callable[[], D100]:
    """A roll that always comes up ``d``."""
    return lambda: d


def with_terrain(f: TurnFacts, tw: TerrainWeights, kind: np.ndarray, stay: np.ndarray,
                 target_of: np.ndarray, tile: np.ndarray, utility: np.ndarray,
                 zones: np.ndarray, ends: tuple, attacks: tuple | None, limit: int | None
                 ) -> tuple[np.ndarray, np.ndarray]:
    """``(utility, stay)`` with the terrain terms of the plans: the end tile's ``cover``
    term (in ``stay`` too: the expectimax leaf reads it), the Move's path ``hazard``
    term and the ``attack`` term of its attack.  The enemies that may strike an end
    tile are the threat term's (their zones, footprints included).

    Only the plans that may be among the best ``limit`` (None: all) are scored: each
    plan's utility can at most rise by its bounds (:func:`_bounds`: every threatening
    enemy's attack spared, a sure hit with the most karma a miss may earn; the path
    term only lowers it), so the plans
    are scored from the highest bound down until the next bound is below the
    ``limit``-th best utility scored, or the profile's ``terrain.plans`` have been
    scored; the others get ``-inf`` (never returned: within the budget, the best
    ``limit`` and every plan as good are exact).  The pass plan and the best ``limit``
    plans without the terrain are always scored first."""
    cx, cy, qx, qy, dx, dy, quarter = ends
    terms = TerrainTerms(f.view, tw, f.w, f.memo.terrain)
    melee, enemies = f.numbers.melee, f.enemies
    n = len(kind)
    kinds, targets, tiles = kind.tolist(), target_of.tolist(), tile.tolist()
    near: dict[Tile, list[tuple[int, bool]]] = {}

    def end_of(r: int) -> Tile:
        kd, t = kinds[r], tiles[r]
        if kd in (PASS, ATTACK):
            return (cx, cy)
        if kd == ATTACK_MOVE:
            return (int(qx[t]), int(qy[t]))
        return (int(dx[t]), int(dy[t]))

    def threats(end: Tile) -> list[tuple[int, bool]]:
        hit = near.get(end)
        if hit is None:
            hit = near[end] = [(enemies[b], bool(melee[enemies[b]]))
                               for b in np.flatnonzero(zones[:, end[1], end[0]]).tolist()]
        return hit

    cases, which, p, dmg, earned = attacks if attacks is not None else (None,) * 5
    span = 32 * f.span  # a case code's factor of the enemy's place (scoring.case_values)

    def case_of(r: int) -> int:
        """The kernel's case index of plan ``r``'s attack."""
        assert which is not None
        kd, b = kinds[r], targets[r]
        return int(which[1 + tiles[r], b] if kd == MOVE_ATTACK else which[0, b])

    def attack_term(r: int, end: Tile) -> float:
        assert cases is not None
        b, rest = divmod(int(cases[case_of(r)]), span)
        return terms.attack(end, enemies[b], f.facts(b, rest))

    def score(r: int) -> tuple[float, float]:
        kd, end = kinds[r], end_of(r)
        held = terms.stand(end, threats(end))
        extra = held
        if kd == ATTACK_MOVE:
            extra -= terms.path(end, quarter)
        elif kd in (MOVE, MOVE_ATTACK):
            extra -= terms.path(end)
        if kd in (ATTACK, ATTACK_MOVE):
            extra += attack_term(r, (cx, cy))
        elif kd == MOVE_ATTACK:
            extra += attack_term(r, end)
        return float(utility[r]) + extra, float(stay[r]) + held

    out, out_stay = np.full(n, -np.inf), stay.copy()
    if limit is None or n <= limit + 1:
        for r in range(n):
            out[r], out_stay[r] = score(r)
        return out, out_stay
    bound = utility + _bounds(f, terms, kind, target_of, tile, zones, ends, attacks)
    # first the pass plan and the best ``limit`` plans without the terrain (so the
    # budget never leaves the choice worse than the plans' own best), then by bound
    first = [0, *np.argsort(-utility, kind="stable")[:limit].tolist()]
    for r in dict.fromkeys(first):
        out[r], out_stay[r] = score(r)
    best = sorted(out[list(dict.fromkeys(first))].tolist(), reverse=True)[:limit]
    budget = terms.tw.budget
    scored = len(dict.fromkeys(first))
    for r in np.argsort(-bound, kind="stable").tolist():
        if len(best) >= limit and bound[r] < best[limit - 1]:
            break
        if out[r] > -np.inf:
            continue
        if budget is not None and scored >= max(budget, limit + 1):
            break  # the profile's budget (terrain.plans): the others are not chosen
        scored += 1
        out[r], out_stay[r] = score(r)
        best = sorted([*best, float(out[r])], reverse=True)[:limit]
    return out, out_stay


def _bounds(f: TurnFacts, terms: TerrainTerms, kind: np.ndarray, target_of: np.ndarray,
            tile: np.ndarray, zones: np.ndarray, ends: tuple, attacks: tuple | None
            ) -> np.ndarray:
    """Per plan, the most its terrain terms can add (:func:`with_terrain`), in arrays:
    every threatening enemy's attack on its end tile spared
    (:meth:`TerrainTerms.plain_threat`), and its attack made a sure hit with the most
    Karma Points a miss may earn (:meth:`TerrainTerms.karma_bound`)."""
    cx, cy, qx, qy, dx, dy, _quarter = ends
    n = len(kind)
    ex, ey = np.full(n, cx, np.int64), np.full(n, cy, np.int64)
    after = kind == ATTACK_MOVE
    ex[after], ey[after] = qx[tile[after]], qy[tile[after]]
    moves = kind >= MOVE
    ex[moves], ey[moves] = dx[tile[moves]], dy[tile[moves]]
    out = np.zeros(n)
    tw, gw, enemies = terms.tw, terms.gw, f.enemies
    if tw.cover:
        levels = f.level[ey, ex]
        for b in np.flatnonzero(zones.any(axis=(1, 2))).tolist():
            j = enemies[b]
            melee = bool(f.numbers.melee[j])
            value = {lv: terms.plain_threat(j, melee, lv) for lv in np.unique(levels).tolist()}
            per = np.array([value[lv] for lv in levels.tolist()]) if len(value) > 1 \
                else np.full(n, next(iter(value.values())))
            out += zones[b][ey, ex] * per
        out *= tw.cover * gw.threat
    if tw.attack and attacks is not None:
        _cases, which, p, dmg, earned = attacks
        rows = np.flatnonzero((kind == ATTACK) | after | (kind == MOVE_ATTACK))
        if len(rows):
            places = target_of[rows]
            mine = kind[rows] == MOVE_ATTACK
            c = which[np.where(mine, 1 + tile[rows], 0), places]
            view = f.view
            hp = np.array([view.hp(enemies[x]) for x in places.tolist()], np.int64)
            cost = np.array([view.sheet(enemies[x]).cost for x in places.tolist()])
            pc, dc = p[c], dmg[c]
            kill = np.where(hp - dc <= f.rules.combat.defeated_at_or_below,
                            gw.kill * cost / 100, 0.0)
            out[rows] += tw.attack * ((1 - pc) * (gw.damage * np.minimum(dc, hp) + kill)
                                      + gw.karma * (terms.karma_bound() - earned[c]))
    return out
