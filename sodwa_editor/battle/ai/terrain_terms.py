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
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import karma as karma_rules
from ..actions import move_allowance
from ..attack import Situation, difficulty_and_damage
from ..dice import D100, d100_from_value
from ..events import Moved
from ..loop import View
from ..sized import level as level_of
from ..targeting import attack_refusal, situation
from ..terrain_effects import attack_modifiers, targeting_refusal, terrain_effects_for
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

if TYPE_CHECKING:
    from .scoring import TurnFacts

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


class TerrainTerms:
    """The terrain terms of the actor's turn on ``view`` (kept per tile and enemy for
    the decision)."""

    def __init__(self, view: View, tw: TerrainWeights, gw: GreedyWeights) -> None:
        actor = view.actor
        assert actor is not None, "plans are made during a turn"
        self.view, self.tw, self.gw, self.i = view, tw, gw, actor
        self.state = view.fork()
        self.home: Tile = self.state.pos[actor]
        self.allowance = move_allowance(self.state)
        self.moved_now = bool(self.state.moved[actor])
        self.rules = view.rules
        self.lay = layers_of(view.map)
        self._stand: dict[Tile, float] = {}
        self._spared: dict[tuple[Tile, int, bool], float] = {}
        self._attacks: dict[tuple[Tile, int, bool], float] = {}
        self._tiles: dict[tuple[Tile, bool], float] = {}
        self._landing: dict[tuple[str, int], float] = {}
        self._dice: dict[str, float] = {}
        self._exempt: bool | None = None
        self._known = {e.tile for e in view.events if isinstance(e, TerrainEffect)
                       and e.source.startswith("trapped")}

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
        for j, melee in threats:
            key = (tile, j, melee)
            spared = self._spared.get(key)
            if spared is None:
                spared = self._spared[key] = self._spared_by(tile, j, melee)
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

    # ------------------------------------------------------------ attack
    def attack(self, tile: Tile, j: int, moved: bool) -> float:
        """The ``attack`` term: the change the terrain makes to the value of attacking
        ``j`` from ``tile`` (the Move flag ``moved``), in the greedy weights' units."""
        if not self.tw.attack:
            return 0.0
        key = (tile, j, moved)
        hit = self._attacks.get(key)
        if hit is None:
            hit = self._attacks[key] = self.tw.attack * self._attack_change(tile, j, moved)
        return hit

    def _value(self, j: int, facts: Situation) -> float:
        p, damage, difficulty, hits = self._hit(self.i, j, facts)
        gw, s = self.gw, self.state
        hp = s.hp[j]
        floor = self.rules.combat.defeated_at_or_below
        kill = p * gw.kill * s.sheets[j].cost / 100 if hp - damage <= floor else 0.0
        karma = (100 - hits) / 100 * karma_rules.gain(difficulty, self.rules)
        return gw.damage * p * min(damage, hp) + kill + gw.karma * karma

    def _attack_change(self, tile: Tile, j: int, moved: bool) -> float:
        self._place(tile, moved)
        s = self.state
        facts = situation(s, self.i, j)
        plain = replace(facts, extra=())
        if attack_refusal(s, self.i, j) is not None:
            return -self._value(j, plain)
        mods = attack_modifiers(s, self.i, j, facts.adjacent, facts.impeded,
                                facts.defender_aware)
        if not mods:
            return 0.0
        return self._value(j, replace(plain, extra=mods)) - self._value(j, plain)

    # ------------------------------------------------------------ path
    def path(self, tile: Tile, budget: int | None = None) -> float:
        """The ``hazard`` term (a cost, >= 0) of a Move to ``tile`` with ``budget`` steps
        (default: the Move the actor has now)."""
        if not self.tw.hazard or tile == self.home:
            return 0.0
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
        return self.tw.hazard * total

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
        if trap is not None and trap.params["hidden"] and tile in self._known \
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
        key = (save, dc)
        hit = self._landing.get(key)
        if hit is None:
            landed = sum(save_roll(self.state, self.i, save, dc, _always(d))[2] for d in ROLLS)
            hit = self._landing[key] = landed / 100
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
                  zones: np.ndarray, ends: tuple) -> tuple[np.ndarray, np.ndarray]:
    """``(utility, stay)`` with the terrain terms (:mod:`.terrain_terms`) of every plan:
    the end tile's ``cover`` term (in ``stay`` too: the expectimax leaf reads it), the
    Move's path ``hazard`` term and the ``attack`` term of its attack.  The enemies
    that may strike an end tile are the threat term's (their zones, footprints
    included)."""
    cx, cy, qx, qy, dx, dy, quarter = ends
    terms = TerrainTerms(f.view, tw, f.w)
    melee, enemies = f.numbers.melee, f.enemies
    moved_now = f.view.moved(f.i)
    utility, stay = utility.copy(), stay.copy()
    near: dict[tuple[int, int], list[tuple[int, bool]]] = {}

    def threats(x: int, y: int) -> list[tuple[int, bool]]:
        hit = near.get((x, y))
        if hit is None:
            hit = near[(x, y)] = [(enemies[b], bool(melee[enemies[b]]))
                                  for b in np.flatnonzero(zones[:, y, x]).tolist()]
        return hit

    for r, (kd, b, t) in enumerate(zip(kind.tolist(), target_of.tolist(), tile.tolist(),
                                      strict=True)):
        if kd in (PASS, ATTACK):
            end = (cx, cy)
        elif kd == ATTACK_MOVE:
            end = (int(qx[t]), int(qy[t]))
        else:
            end = (int(dx[t]), int(dy[t]))
        held = terms.stand(end, threats(*end))
        extra = held
        if kd == ATTACK_MOVE:
            extra -= terms.path(end, quarter)
        elif kd in (MOVE, MOVE_ATTACK):
            extra -= terms.path(end)
        if kd in (ATTACK, ATTACK_MOVE):
            extra += terms.attack((cx, cy), enemies[b], moved_now)
        elif kd == MOVE_ATTACK:
            extra += terms.attack(end, enemies[b], True)
        utility[r] += extra
        stay[r] += held
    return utility, stay
