"""What the AIs read off a :class:`~..loop.View` for one character's turn: every plan
(pass, attack only, attack then move, move only, move then attack) with its
greedy utility (Wesnoth's RCA "combat" and "move" candidate actions folded into
one score; docs/battle-ai.md).

Utility, in hit points, of a plan that attacks ``j`` (if any) and ends on tile
``f`` having spent ``c`` more IP::

    damage * P(hit) * min(damage on hit, HP_j)
  + kill   * P(hit and defeat) * cost_j / 100
  + karma  * P(fail, not rescued) * Karma Points earned
  - threat * E[damage taken on f before my next turn]
  - death  * P(defeated on f before my next turn) * own cost / 100
  - ip     * c / 250
  - approach * steps still to go before it can strike its nearest enemy

``P(hit)`` is :func:`..attack.preview_attack`'s hits with the team's karma (the BIP's
numbers, exact, no sampling).  The threat on ``f`` counts every enemy turn the TSB
predicts before this character's next turn (its turn IP cost decides when that is),
each enemy attacking from a tile of its movement range within its Range of ``f``
(LoS not checked: a cautious estimate).  A decision is three compiled passes
(:mod:`.plan_passes`: the attack cases from every tile with their lines of sight;
the turn counts, the enemies that may strike and the end tiles' levels; the attack
values, the stay terms of every end tile and the table of every plan), with Python
between them only for what is kept in dictionaries (the BIP's numbers per situation,
threat zones, walking distances); what the battle does not change between decisions
is kept in the controller's :class:`.memo.Memo`.  The same utilities scored the
straightforward way: tests/ai_reference.py.
"""

from __future__ import annotations

import weakref
from functools import partial

import numpy as np

from ...engine import adjacency as adj
from ...engine.terrain import Crossing
from .. import karma as karma_rules
from ..actions import Action, Attack, Move, Pass
from ..attack import Situation, difficulty_and_damage, is_aware
from ..clock import ActionType, move_after_attack
from ..kernels import METRICS
from ..loop import View
from . import ability_plans, altitude_plans, approach, sized_plans, terrain_terms
from . import kernels as k
from . import plan_passes as pp
from .memo import Memo
from .plan import Plan
from .profile import GreedyWeights, TerrainWeights

BLOCKED = int(Crossing.BLOCKED)
IMPEDED = int(Crossing.IMPEDED)
#: Empty arrays standing for what a decision does not have (no cases, no slots).
NONE = np.zeros(0, np.int64)
#: No tiles, read-only as a movement range's tiles are (one compiled version of a pass).
NO_TILES = np.zeros(0, np.int64)
NO_TILES.flags.writeable = False
NO_FLOAT = np.zeros(0)
#: No lines of sight walked yet (``sight_of``'s tile index and rows).
NO_SIGHT = np.zeros((0, 0), np.int64)
#: The BIP's karma-free numbers kept per (sheets, situation) for a board at most.
SHARED_BASES = 1 << 16
#: Plan kinds, in enumeration order.
PASS, ATTACK, ATTACK_MOVE, MOVE, MOVE_ATTACK = range(5)
#: The facts of :class:`Situation` ``(adjacent=True)`` and ``(adjacent=False)``.
PLAIN_MELEE = (True, False, 0, 0, False, False, True, False, False)
PLAIN_RANGED = (False, False, 0, 0, False, False, True, False, False)
#: ``DIR3[dy + 1, dx + 1]``: the index into ``step[d]`` of a neighbour offset.
DIR3 = np.zeros((3, 3), np.int64)
for _d, (_dx, _dy) in enumerate(adj.DIRS):
    DIR3[_dy + 1, _dx + 1] = _d


#: What :func:`.kernels.gap` reads besides the tiles and their lines of sight: the
#: walks block and each enemy's slot in it, the firing block and slots, the melee flags.
ApproachInputs = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]


class TurnFacts:
    """The facts of the actor's turn as its View shows them, shared by all plans."""

    def __init__(self, view: View, weights: GreedyWeights, memo: Memo | None = None) -> None:
        actor = view.actor
        assert actor is not None, "plans are made during a turn"
        self.view, self.w, self.i = view, weights, actor
        self.rules = view.rules
        self.board = view.board
        self.team = view.team_of(actor)
        self.sheet = view.sheet(actor)
        self.tile = view.tile(actor)
        self.metric = METRICS[self.rules.targeting.range_metric]
        self.memo = memo = memo or Memo()
        memo.check(view)
        #: The enemies (battle indices, ascending), their tiles by their place in it,
        #: ``x``, ``y`` and index arrays, the lines of sight with the other characters
        #: (the actor off its tile: it may move) and the arrangement's threat zones.
        self.enemies, self.enemy_tiles, self.ex, self.ey, self.eidx, self.lines, self._zones \
            = memo.placed(view, actor)
        self.numbers = memo.numbers
        self.level, self.liquid = memo.level, memo.liquid
        self.lo, self.span = memo.level_lo, memo.level_span
        self.my_karma = view.karma(self.team)
        self.their_karma = view.karma(1 - self.team)
        self._previews, self._bases = memo.previews, memo.bases
        self._shared_bases, self._sheet_keys = memo.shared_bases, memo.sheet_keys

    # ------------------------------------------------------------ attacks
    def _preview(self, a: int, d: int, karma: int, *facts: int) -> tuple[float, int, float]:
        """(P(hit) with karma, damage on a hit, expected karma earned) from the BIP for
        ``a`` attacking ``d`` in the :class:`Situation` of ``facts`` (its fields in
        order, as integers: a plain tuple is a cheap memo key).  The BIP's numbers
        without karma are kept per situation, for the battle and, per the two sheets
        (by value: ``Memo.sheet_keys``), for every battle on the board with the same
        rules (the BIP reads nothing else);
        the team's karma, which changes all battle long, only picks the successes
        (:func:`..karma.successes`, as the BIP's ``hits_with_karma``)."""
        key = (a, d, karma, *facts)
        hit = self._previews.get(key)
        if hit is None:
            base_key = (a, d, *facts)
            base = self._bases.get(base_key)
            if base is None:
                sheets = (self._sheet_keys[a], self._sheet_keys[d], *facts)
                base = self._shared_bases.get(sheets)
                if base is None:
                    adjacent, impeded, a_level, d_level, a_moved, d_moved, aware, a_liq, \
                        d_liq = facts
                    s = Situation(bool(adjacent), bool(impeded), int(a_level), int(d_level),
                                  bool(a_moved), bool(d_moved), bool(aware), bool(a_liq),
                                  bool(d_liq))
                    difficulty, damage = difficulty_and_damage(self.view.sheet(a),
                                                               self.view.sheet(d), s, self.rules)
                    base = (difficulty, damage, karma_rules.gain(difficulty, self.rules))
                    if len(self._shared_bases) >= SHARED_BASES:
                        self._shared_bases.clear()
                    self._shared_bases[sheets] = base
                self._bases[base_key] = base
            difficulty, damage, gain = base
            hits = karma_rules.successes(difficulty, karma, self.rules)
            hit = (hits / 100, damage, (100 - hits) / 100 * gain)
            self._previews[key] = hit
        return hit

    def case_values(self, cases: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Per situation case of :func:`.plan_passes.attack_pass` (a code packing the
        enemy, adjacency, impeded LoS, awareness, Liquid, Move flag and level): P(hit)
        with karma, damage on a hit and expected karma earned, from the BIP (asked
        once per distinct situation, not once per tile)."""
        n = len(cases)
        p, dmg, karma = np.empty(n), np.empty(n, np.int64), np.empty(n)
        view, span, i, my_karma = self.view, self.span, self.i, self.my_karma
        kept, moved = self.memo.cases, view.moved_flags
        per_enemy = 32 * span  # the code's factor of the enemy's place in the list
        for c, value in enumerate(cases.tolist()):
            b, rest = divmod(value, per_enemy)
            j = self.enemies[b]
            key = (i, j, my_karma, rest, moved[j], self.enemy_tiles[b])
            hit = kept.get(key)
            if hit is None:
                hit = self._case(j, b, rest)
                if len(kept) >= 1 << 14:
                    kept.clear()
                kept[key] = hit
            p[c], dmg[c], karma[c] = hit
        return p, dmg, karma

    def _case(self, j: int, b: int, rest: int) -> tuple[float, int, float]:
        """:meth:`_preview` of the actor attacking enemy ``j`` (place ``b``) in the
        situation code ``rest`` (the code without the enemy's place)."""
        return self._preview(self.i, j, self.my_karma, *self.facts(b, rest))

    def facts(self, b: int, rest: int) -> tuple[int, ...]:
        """The :class:`Situation` fields in order (as integers) of the actor attacking
        the enemy at place ``b`` in the situation code ``rest`` (a case of
        :func:`.plan_passes.attack_pass` less the enemy's place)."""
        value, li = divmod(rest, self.span)
        value, has_moved = divmod(value, 2)
        value, on_liquid = divmod(value, 2)
        value, sees = divmod(value, 2)
        is_adjacent, impeded = divmod(value, 2)
        jx, jy = self.enemy_tiles[b]
        return (is_adjacent, impeded, li + self.lo, int(self.level[jy, jx]), has_moved,
                int(self.view.moved(self.enemies[b])),
                int(is_aware(self.rules.awareness.mode, bool(sees))), on_liquid,
                int(self.liquid[jy, jx]))

    def sight(self, px: np.ndarray, py: np.ndarray) -> np.ndarray:
        """``(len(px), len(enemies))``: the LoS class from each tile to each enemy, or
        :data:`.kernels.OUT_OF_RANGE` beyond the actor's Range (the actor off its
        tile; :func:`.kernels.sight_of`)."""
        h, w = self.board.height, self.board.width
        m = len(self.enemies)
        out = np.empty((len(px), m), np.int64)
        lines = self.lines
        k.sight_of(px, py, np.full((h, w), -1, np.int64), np.empty((h * w, m), np.int64), 0,
                   self.ex, self.ey, self.sheet.range, self.metric, self.level, lines.lo,
                   *lines.stacks, lines.target, out)
        return out

    # ------------------------------------------------------------ threat
    def gap(self, fx: np.ndarray, fy: np.ndarray) -> np.ndarray:
        """Per tile: steps still to go before the character can strike its nearest
        enemy with its better attack kind against it (higher expected damage: melee
        needs adjacency, ranged Range and a line of sight that is not blocked)."""
        out = np.empty(len(fx))
        walks, walk_slots, fire, fire_slots, melee = self.approach_inputs()
        sight = (np.zeros((len(fx), len(self.enemies)), np.int64) if bool(melee.all())
                 else self.sight(fx, fy))
        k.gap(fx, fy, walks, walk_slots, fire, fire_slots, melee, sight, self.sheet.range,
              IMPEDED, out)
        return out

    def approach_inputs(self) -> ApproachInputs:
        """What :func:`.kernels.gap` reads besides the tiles and their lines of sight:
        the walks to each enemy (a pool's block and each enemy's slot in it), the
        walks to a tile to shoot it from (the same; not read for an enemy approached
        for melee) and whether melee is the better kind against it.  The slots hold
        until the pools' next :meth:`~.memo.Pool.reserve`: read them before another
        call."""
        kinds = self.memo.kinds
        key = (self.i, self.my_karma, *self.enemies)
        hit = kinds.get(key)
        if hit is None:
            melee = np.zeros(len(self.enemies), bool)
            for b, j in enumerate(self.enemies):
                close = self._preview(self.i, j, self.my_karma, *PLAIN_MELEE)
                far = self._preview(self.i, j, self.my_karma, *PLAIN_RANGED)
                melee[b] = close[0] * close[1] >= far[0] * far[1] or self.sheet.range <= 1
            if len(kinds) >= 4096:
                kinds.clear()
            # (with whether every enemy is approached for melee: then the firing walks
            # are not read, and -1 slots stand for them)
            hit = kinds[key] = (melee, bool(melee.all()),
                                np.full(len(self.enemies), -1, np.int64))
        melee, all_melee, no_slots = hit
        walk_slots = approach.walks(self)
        walks = self.memo.walks.block
        if all_melee:
            return walks, walk_slots, walks, no_slots, melee
        fire_slots = approach.firing(self, melee)
        return walks, walk_slots, self.memo.firing.block, fire_slots, melee

    def strike_squares(self) -> np.ndarray:
        """Per enemy: its Move plus its Range (at least 1), the half width of the
        Chebyshev square about it that holds its threat zone (:meth:`may_strike`)."""
        return self.numbers.square[self.eidx]

    def may_strike(self, fx: np.ndarray, fy: np.ndarray) -> np.ndarray:
        """Per enemy: whether some tile ``(fx[i], fy[i])`` lies within its Move plus its
        Range (at least 1) in the Chebyshev distance.  Its threat zone lies inside
        that square: every step of a Move goes to one of the 8 neighbouring tiles, and
        every range metric's area lies inside the square of its Range; an enemy for
        which this is False threatens none of the tiles, so its zone is not worked
        out."""
        out = np.empty(len(self.enemies), bool)
        k.within_square(fx, fy, self.ex, self.ey, self.strike_squares(), out)
        return out

    def _zone(self, b: int) -> np.ndarray:
        """Tiles enemy ``b`` can attack after its move (LoS not checked): within its
        Range of a tile it can stand on, or of any square of its footprint standing
        there (a larger enemy: S23, melee from any touching square, Range to the
        nearest square)."""
        j = self.enemies[b]
        hit = self._zones.get(j)
        if hit is None:
            sheet = self.view.sheet(j)
            reach = self.view.reach(j, sheet.move)
            rng, metric = max(1, sheet.range), self.metric if sheet.range > 1 else 0
            fp = self.view.footprint(j) if self.view.sized else None
            zones = self.memo.zones
            kept = zones.get((id(reach), rng, metric))
            if kept is not None and kept[0]() is reach:
                hit = kept[1]
            else:
                hit = np.zeros((self.board.height, self.board.width), bool)
                k.zone_of(reach.steps, *reach.window, rng, metric, hit)
                if fp is not None and (fp.width, fp.height) != (1, 1):
                    hit = spread(hit, fp.width, fp.height)
                if len(zones) >= self.memo.limit:
                    zones.clear()
                # a weak reference: the zone does not keep its range alive (the board's
                # range cache bounds those); a dead one never matches a new range
                zones[(id(reach), rng, metric)] = (weakref.ref(reach), hit)
            self._zones[j] = hit
        return hit

    def _threat_hit(self, j: int, melee: bool, at: int, level: int) -> tuple[float, float, int]:
        """Enemy ``j`` (on level ``at``) attacking this character on ``level`` after its
        move: P(hit) if this character did not move, if it did, and the damage."""
        key = (j, self.i, self.their_karma, melee, at, level)
        hit = self.memo.threats.get(key)
        if hit is None:
            still = self._preview(j, self.i, self.their_karma, melee, False, at, level,
                                  True, False, True, False, False)
            moved = self._preview(j, self.i, self.their_karma, melee, False, at, level,
                                  True, True, True, False, False)
            if len(self.memo.threats) >= 4096:
                self.memo.threats.clear()
            hit = self.memo.threats[key] = (still[0], moved[0], moved[1])
        return hit

    def threat_inputs(self, strike: np.ndarray, levels: np.ndarray
                      ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(zones, q, dmg)`` for :func:`.kernels.stay`: the threat zone of every enemy
        that may ``strike`` (others: none), its hit chances on this character standing
        on each of ``levels`` (not moved, moved) and its damage on a hit."""
        m = len(self.enemies)
        zones = np.zeros((m, self.board.height, self.board.width), bool)
        q = np.zeros((m, len(levels), 2))
        dmg = np.zeros(m, np.int64)
        first: set[int] = set()
        for b in np.flatnonzero(strike).tolist():
            j = self.enemies[b]
            if j in first:  # a larger enemy is listed once per square: its threat once
                continue
            first.add(j)
            zones[b] = self._zone(b)
            melee = bool(self.numbers.melee[j])
            ax, ay = self.enemy_tiles[b]
            at = int(self.level[ay, ax])
            for li, level in enumerate(levels.tolist()):
                q[b, li, 0], q[b, li, 1], dmg[b] = self._threat_hit(j, melee, at, level)
        return zones, q, dmg


def spread(zone: np.ndarray, width: int, height: int) -> np.ndarray:
    """``zone`` of a footprint's top-left tile spread over the footprint: a tile is in it
    when it is in ``zone`` shifted by some square's offset (a tile within Range of the
    square ``anchor + (ox, oy)`` is within Range of ``anchor`` after the shift back).

    >>> z = np.zeros((4, 4), bool); z[1, 1] = True
    >>> spread(z, 2, 2).astype(int).tolist()
    [[0, 0, 0, 0], [0, 1, 1, 0], [0, 1, 1, 0], [0, 0, 0, 0]]
    """
    out = zone.copy()
    h, w = zone.shape
    for oy in range(min(height, h)):
        for ox in range(min(width, w)):
            if ox or oy:
                out[oy:, ox:] |= zone[:h - oy, :w - ox]
    return out


def allowed_plans(view: View, weights: GreedyWeights, memo: Memo | None = None,
                  terrain: TerrainWeights | None = None) -> list[Plan]:
    """Every plan whose first step the rules allow now, best first: the plans' scores
    do not see every rule (the terrain properties' targeting limits, docs/rules.md
    TP-B3, TP-B5, when the profile's ``terrain.attack`` is 0), so a refused best plan
    gives way to the next (Pass always remains)."""
    return [p for p in plans(view, weights, None, memo, terrain)
            if view.refusal(p.steps[0]) is None]


def plans(view: View, weights: GreedyWeights, limit: int | None = None,
          memo: Memo | None = None, terrain: TerrainWeights | None = None) -> list[Plan]:
    """The plans for the actor's turn from now, best first (ties in enumeration
    order: pass, attack only, attack then move, move only, move then attack; tiles
    row-major, enemies by index): the best ``limit`` (None: all) and every plan as
    good as the best.  Utilities are scored in arrays (:mod:`.plan_passes`); only the
    plans returned are built as objects.  ``terrain``: the profile's terrain weights
    (:mod:`.terrain_terms`; None or all 0: not looked at)."""
    if memo is not None and memo.pending:
        memo.check(view)  # (another battle's plans are dropped)
        kept = memo.take(view, weights, limit)
        if kept is not None:
            return kept
    if view.sized and view.footprint(view.actor) != (1, 1):  # type: ignore[arg-type]
        return sized_plans.plans(view, weights, limit, terrain)
    f = TurnFacts(view, weights, memo)
    rules, w, sheet, m = f.rules, weights, f.sheet, len(f.enemies)
    cost = rules.clock
    move_x, move_y = view.move_tiles()
    can_attack = view.can_take(ActionType.ATTACK) and m > 0
    can_move = view.can_take(ActionType.MOVE) and len(move_x) > 0
    moved_now = int(view.moved(f.i))
    cx, cy = f.tile
    dx, dy = (move_x, move_y) if can_move else (NO_TILES, NO_TILES)
    lo, stacks, target = f.lines
    assert lo == f.lo  # the stacks and the situation codes count levels alike

    # the attacks from here and from every Move's end tile
    here = False
    at, rows, used = NO_SIGHT, NO_SIGHT, 0
    which, p, dmg, karma = np.zeros((0, m), np.int64), NO_FLOAT, NONE, NO_FLOAT
    cases = NONE
    if can_attack:
        cases, which, here, at, rows, used = pp.attack_pass(
            cx, cy, moved_now, dx, dy, f.ex, f.ey, sheet.range, f.metric, f.level, lo,
            *stacks, target, f.board.step, DIR3, adj.BLOCKED, IMPEDED,
            rules.awareness.mode == "los", f.liquid, f.span, BLOCKED)
        p, dmg, karma = f.case_values(cases)
    qx = qy = NO_TILES
    attack_move = False
    quarter = 0
    if here and view.can_take(ActionType.MOVE):
        quarter = move_after_attack(view.move_this_turn, rules.actions)
        if quarter > 0:
            qx, qy = view.reach(f.i, quarter).moves
            attack_move = True
    present = np.array([True, here, attack_move, can_move, can_move and can_attack], np.int64)
    extras = np.array([0, cost.attack_cost, cost.attack_cost + cost.move_cost, cost.move_cost,
                       cost.move_cost + cost.attack_cost], np.int64)

    # the threat terms' inputs: turn counts, the enemies that may strike, the levels
    numbers = f.numbers
    times, strike, levels = pp.stay_facts(
        cx, cy, qx, qy, dx, dy, present, f.level, view.ip(f.i), sheet.initiative, extras,
        f.eidx, np.array(view.ips, np.int64), numbers.initiative,
        np.array(view.acted, np.int64), cost.turn_threshold, cost.turn_cost,
        cost.one_turn_per_tick, f.ex, f.ey, numbers.square)
    zones, q, threat_dmg = f.threat_inputs(strike, levels)
    if m:
        walks, walk_slots, fire, fire_slots, melee = f.approach_inputs()
    else:
        walks = fire = f.memo.walks.block
        walk_slots = fire_slots = NONE
        melee = np.zeros(0, bool)

    # every plan in one pass
    floor = rules.combat.defeated_at_or_below
    kind, stay, target_of, tile, utility, ranked = pp.plan_pass(
        cx, cy, moved_now, qx, qy, dx, dy, present, extras, which, p, dmg, karma, f.eidx,
        np.array(view.hps, np.int64), numbers.cost, floor, w.damage, w.kill,
        w.karma, times, zones, q, levels, threat_dmg, max(0, view.hp(f.i) - floor), walks,
        walk_slots, fire, fire_slots, melee, at, rows, used, f.ex, f.ey, sheet.range,
        f.metric, f.level, lo, *stacks, target, IMPEDED,
        np.array([w.threat, w.death, w.ip, w.approach]), sheet.cost / 100)
    if terrain_terms.applies(view, terrain):
        ends = (cx, cy, qx, qy, dx, dy, quarter)
        attacks = (cases, which, p, dmg, karma) if can_attack else None
        utility, stay = terrain_terms.with_terrain(
            f, terrain, kind, stay, target_of, tile, utility, zones, ends,  # type: ignore[arg-type]
            attacks, limit)
        ranked = np.flatnonzero(utility == np.max(utility))  # (the ties of the best)
    if len(ranked) == 0:  # NaN utilities (no weight makes one; a guard): the first best
        ranked = np.array([int(np.argmax(np.nan_to_num(utility, nan=-np.inf)))])
    if limit != 1:  # (1: the greedy controller, the best plan and every plan as good)
        ranked = np.argsort(-utility, kind="stable")
        ties = int(np.count_nonzero(utility == utility[ranked[0]]))
        ranked = ranked[:len(ranked) if limit is None else max(limit, ties)]

    def steps(r: int) -> tuple[Action, ...]:
        k, b, t = int(kind[r]), int(target_of[r]), int(tile[r])
        if k == PASS:
            return (Pass(),)
        if k == ATTACK:
            return (Attack(f.enemies[b]),)
        if k == ATTACK_MOVE:
            return (Attack(f.enemies[b]), Move((int(qx[t]), int(qy[t]))))
        if k == MOVE:
            return (Move((int(dx[t]), int(dy[t]))),)
        return (Move((int(dx[t]), int(dy[t]))), Attack(f.enemies[b]))

    out = [Plan(float(utility[r]), r, partial(steps, r), float(stay[r]))
           for r in ranked.tolist()]
    if view.has_abilities:  # the area abilities' plans (docs/battle-ai.md, Abilities)
        out = ability_plans.merge(out, ability_plans.ability_plans(
            view, f, weights, kind, tile, utility, dx, dy), limit)
        if altitude_plans.wanted(view, terrain):  # a flyer's change of layer
            still = Plan(float(utility[0]), 0, (Pass(),), float(stay[0]))
            out = ability_plans.merge(out, altitude_plans.altitude_plans(
                view, weights, terrain, still), limit)  # type: ignore[arg-type]
    return out
