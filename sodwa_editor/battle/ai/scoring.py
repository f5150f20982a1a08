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
(LoS not checked: a cautious estimate).  Lines of sight and ranges for every
(tile, enemy) pair are one compiled call (the LoS stacks of every level packed),
the threat, death, tempo and approach terms of every end tile one call
(:mod:`.kernels`), the attack cases and the table of every plan others
(:mod:`.plan_kernels`); what the battle does not change between decisions is kept
in the controller's :class:`.memo.Memo`.  The same utilities scored the
straightforward way: tests/ai_reference.py.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from functools import partial

import numpy as np

from ...engine import adjacency as adj
from ...engine.terrain import Crossing
from .. import karma as karma_rules
from ..actions import Action, Attack, Move, Pass
from ..attack import Situation, is_aware
from ..attack import preview_attack as bip
from ..clock import ActionType, move_after_attack
from ..kernels import METRICS
from ..loop import View
from . import approach
from . import kernels as k
from . import plan_kernels as pk
from .memo import Memo
from .profile import GreedyWeights
from .tsb import turns_before_next

BLOCKED = int(Crossing.BLOCKED)
IMPEDED = int(Crossing.IMPEDED)
NO = -np.inf
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


#: What :func:`.kernels.gap` reads besides the tiles: the walks block and each enemy's
#: slot in it, the firing block and slots, the melee flags and the LoS classes.
ApproachInputs = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]


class Plan:
    """One turn plan: its actions in order (the last may be a Move after an Attack)
    and its utility; ``order`` is its place in the fixed enumeration (ties);
    ``stay`` the part of the utility for where it ends and the IP it spends (the
    threat, death, tempo and approach terms).

    ``steps`` may be given as a function that builds them: the plans of a decision
    tied at the best utility are all returned, and only the one a controller picks
    needs its actions.

    >>> plan = Plan(1.5, 0, lambda: (Pass(),))
    >>> plan.steps, plan.utility
    ((Pass(),), 1.5)
    """

    __slots__ = ("utility", "order", "stay", "_steps")

    def __init__(self, utility: float, order: int,
                 steps: tuple[Action, ...] | Callable[[], tuple[Action, ...]],
                 stay: float = 0.0) -> None:
        self.utility, self.order, self.stay, self._steps = utility, order, stay, steps

    @property
    def steps(self) -> tuple[Action, ...]:
        steps = self._steps
        if not isinstance(steps, tuple):
            steps = self._steps = steps()
        return steps

    def __repr__(self) -> str:
        return f"Plan({self.utility!r}, {self.order!r}, {self.steps!r}, {self.stay!r})"


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
        self.enemies: list[int] = []
        occupied: list[tuple[int, int]] = []
        xs: list[int] = []
        ys: list[int] = []
        for j in range(view.size):
            if view.alive(j) and j != actor:
                occupied.append(tile := view.tile(j))
                if view.team_of(j) != self.team:
                    self.enemies.append(j)
                    xs.append(tile[0])
                    ys.append(tile[1])
        self.ex, self.ey = np.array(xs, np.int64), np.array(ys, np.int64)
        self.memo = memo = memo or Memo()
        memo.check(view)
        self.los = memo.los_board(view, occupied)  # the actor off its tile: it may move
        self.level, self.liquid = memo.level, memo.liquid
        self.lo, self.span = memo.level_lo, memo.level_span
        self.my_karma = view.karma(self.team)
        self.their_karma = view.karma(1 - self.team)
        self._previews, self._bases = memo.previews, memo.bases
        self._shared_bases, self._sheet_keys = memo.shared_bases, memo.sheet_keys
        self._zones = memo.zones_placed(view)  # per character index
        self._due: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
        self._sight_at: np.ndarray | None = None  # :meth:`sight`'s rows, made on first use
        self._sight = np.zeros((0, 0), np.int64)
        self._sight_used = 0

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
                    p = bip(self.view.sheet(a), self.view.sheet(d), s, self.rules)
                    base = (p.difficulty, p.damage_on_hit,
                            karma_rules.gain(p.difficulty, self.rules))
                    if len(self._shared_bases) >= SHARED_BASES:
                        self._shared_bases.clear()
                    self._shared_bases[sheets] = base
                self._bases[base_key] = base
            difficulty, damage, gain = base
            hits = karma_rules.successes(difficulty, karma, self.rules)
            hit = (hits / 100, damage, (100 - hits) / 100 * gain)
            self._previews[key] = hit
        return hit

    def attack_values(self, px: np.ndarray, py: np.ndarray, moved: np.ndarray) -> np.ndarray:
        """``(len(px), len(enemies))`` utilities of attacking each enemy from each tile
        (``-inf``: not a legal target from there: RB targeting rules).  The BIP is
        asked once per distinct situation (enemy, kind, impeded, level, awareness,
        Liquid), not once per tile."""
        n, m = len(px), len(self.enemies)
        out = np.full((n, m), NO)
        if n == 0 or m == 0:
            return out
        view, rules, w = self.view, self.rules, self.w
        mode = rules.awareness.mode
        lo, stacks = self.los.packed()
        assert lo == self.lo  # the stacks and the situation codes count levels alike
        cases, which = pk.attack_cases(
            px, py, moved.astype(np.int64), self.ex, self.ey, self.board.step, DIR3,
            adj.BLOCKED, self.sight(px, py), IMPEDED, mode == "los", self.level, lo, *stacks,
            self.los.inputs.target, self.liquid, self.span, BLOCKED)
        if len(cases) == 0:
            return out
        p, dmg, karma = np.empty(len(cases)), np.empty(len(cases), np.int64), np.empty(len(cases))
        for c, value in enumerate(cases.tolist()):
            value, li = divmod(value, self.span)
            value, has_moved = divmod(value, 2)
            value, on_liquid = divmod(value, 2)
            value, sees = divmod(value, 2)
            value, impeded = divmod(value, 2)
            b, is_adjacent = divmod(value, 2)
            j = self.enemies[b]
            jx, jy = int(self.ex[b]), int(self.ey[b])
            p[c], dmg[c], karma[c] = self._preview(
                self.i, j, self.my_karma, is_adjacent, impeded, li + self.lo,
                int(self.level[jy, jx]), has_moved, view.moved(j), is_aware(mode, bool(sees)),
                on_liquid, int(self.liquid[jy, jx]))
        pk.attack_table(which, p, dmg, karma,
                        np.array([view.hp(j) for j in self.enemies], np.int64),
                        np.array([view.sheet(j).cost for j in self.enemies], np.int64),
                        rules.combat.defeated_at_or_below, w.damage, w.kill, w.karma, out)
        return out

    def sight(self, px: np.ndarray, py: np.ndarray) -> np.ndarray:
        """``(len(px), len(enemies))``: the LoS class from each tile to each enemy, or
        :data:`.kernels.OUT_OF_RANGE` beyond the actor's Range (the actor off its
        tile); each tile walked once per decision (:func:`.kernels.sight_of`)."""
        if self._sight_at is None:
            h, w = self.board.height, self.board.width
            self._sight_at = np.full((h, w), -1, np.int64)
            self._sight = np.empty((h * w, len(self.enemies)), np.int64)
        out = np.empty((len(px), len(self.enemies)), np.int64)
        lo, stacks = self.los.packed()
        self._sight_used = k.sight_of(px, py, self._sight_at, self._sight, self._sight_used,
                                      self.ex, self.ey, self.sheet.range, self.metric,
                                      self.level, lo, *stacks, self.los.inputs.target, out)
        return out

    # ------------------------------------------------------------ threat
    def times_before(self, extras: list[int]) -> np.ndarray:
        """``out[c, b]``: enemy ``b``'s turns the TSB predicts before this character's
        next turn when it spends ``extras[c]`` more IP this turn (ties counted as
        before; :func:`.tsb.turns_before_next`, equal to counting :meth:`View.tsb`'s
        entries)."""
        view = self.view
        if self._due is None:
            self._due = (np.array([view.ip(j) for j in self.enemies], np.int64),
                         np.array([view.sheet(j).initiative for j in self.enemies], np.int64),
                         np.array([view.ticks_until_turn(j) == 0 for j in self.enemies],
                                  np.int64))
        return turns_before_next(view.ip(self.i), self.sheet.initiative,
                                 np.array(extras, np.int64), *self._due, self.rules.clock)

    def gap(self, fx: np.ndarray, fy: np.ndarray) -> np.ndarray:
        """Per tile: steps still to go before the character can strike its nearest
        enemy with its better attack kind against it (higher expected damage: melee
        needs adjacency, ranged Range and a line of sight that is not blocked)."""
        out = np.empty(len(fx))
        k.gap(fx, fy, *self.gap_inputs(fx, fy), self.sheet.range, IMPEDED, out)
        return out

    def gap_inputs(self, fx: np.ndarray, fy: np.ndarray) -> ApproachInputs:
        """What :func:`.kernels.gap` reads for the tiles ``(fx, fy)``: the walks to each
        enemy (a pool's block and each enemy's slot in it), the walks to a tile to
        shoot it from (the same), whether melee is the better kind against it, and
        the LoS classes from each tile to it."""
        melee = np.zeros(len(self.enemies), bool)
        kinds = self.memo.kinds
        for b, j in enumerate(self.enemies):
            key = (self.i, j, self.my_karma)
            hit = kinds.get(key)
            if hit is None:
                close = self._preview(self.i, j, self.my_karma, *PLAIN_MELEE)
                far = self._preview(self.i, j, self.my_karma, *PLAIN_RANGED)
                hit = close[0] * close[1] >= far[0] * far[1] or self.sheet.range <= 1
                if len(kinds) >= 4096:
                    kinds.clear()
                kinds[key] = hit
            melee[b] = hit
        walk_slots = approach.walks(self)
        walks = self.memo.walks.block
        if melee.all():
            # not read: every enemy is approached for melee
            return (walks, walk_slots, walks, np.full(len(self.enemies), -1, np.int64), melee,
                    np.zeros((len(fx), len(self.enemies)), np.int64))
        fire_slots = approach.firing(self, melee)
        return (walks, walk_slots, self.memo.firing.block, fire_slots, melee,
                self.sight(fx, fy))

    def may_strike(self, fx: np.ndarray, fy: np.ndarray) -> np.ndarray:
        """Per enemy: whether some tile ``(fx[i], fy[i])`` lies within its Move plus its
        Range (at least 1) in the Chebyshev distance.  Its threat zone lies inside
        that square: every step of a Move goes to one of the 8 neighbouring tiles, and
        every range metric's area lies inside the square of its Range; an enemy for
        which this is False threatens none of the tiles, so its zone is not worked
        out."""
        sheets = [self.view.sheet(j) for j in self.enemies]
        out = np.empty(len(sheets), bool)
        k.within_square(fx, fy, self.ex, self.ey,
                        np.array([s.move + max(1, s.range) for s in sheets], np.int64), out)
        return out

    def _zone(self, b: int) -> np.ndarray:
        """Tiles enemy ``b`` can attack after its move (LoS not checked)."""
        j = self.enemies[b]
        hit = self._zones.get(j)
        if hit is None:
            sheet = self.view.sheet(j)
            reach = self.view.reach(j, sheet.move)
            rng, metric = max(1, sheet.range), self.metric if sheet.range > 1 else 0
            zones = self.memo.zones
            kept = zones.get((id(reach), rng, metric))
            if kept is not None and kept[0]() is reach:
                hit = kept[1]
            else:
                hit = np.zeros((self.board.height, self.board.width), bool)
                k.zone_of(reach.steps, *reach.window, rng, metric, hit)
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

    def stationary_rows(self, fx: np.ndarray, fy: np.ndarray, extras: list[int],
                        moves: list[bool], sizes: list[int]) -> np.ndarray:
        """The terms of ending the turn on each tile ``(fx[i], fy[i])`` (threat, death,
        tempo, approach; one call for all of a turn's plans).  The tiles come in
        groups (plan kinds) of ``sizes[g]`` tiles, each having spent ``extras[g]``
        more IP with Move flag ``moves[g]``.  The threat and death terms: every
        enemy turn the TSB puts before the next one attacks from its zone, hitting
        with the BIP's chance for the tile's level and Move flag; all four terms in
        one call (:func:`.kernels.stay`)."""
        w, view = self.w, self.view
        n, m = len(fx), len(self.enemies)
        hp = view.hp(self.i)
        floor = view.rules.combat.defeated_at_or_below
        lethal = max(0, hp - floor)
        costs = sorted(set(extras))
        times = self.times_before(costs)
        lev = self.level[fy, fx]
        levels, lev_i = distinct(lev)
        zones = np.zeros((m, self.board.height, self.board.width), bool)
        q = np.zeros((m, len(levels), 2))
        dmg = np.zeros(m, np.int64)
        for b in np.nonzero((times.max(axis=0, initial=0) > 0)
                            & self.may_strike(fx, fy))[0].tolist():
            zones[b] = self._zone(b)
            j = self.enemies[b]
            sj = view.sheet(j)
            at = int(self.level[self.ey[b], self.ex[b]])
            for li, level in enumerate(levels.tolist()):
                q[b, li, 0], q[b, li, 1], dmg[b] = self._threat_hit(j, sj.range <= 1, at,
                                                                     int(level))
        if m:
            approach_inputs = self.gap_inputs(fx, fy)
        else:
            none = np.zeros(0, np.int64)
            approach_inputs = (self.memo.walks.block, none, self.memo.firing.block, none,
                               np.zeros(0, bool), np.zeros((n, 0), np.int64))
        out = np.empty(n)
        k.stay(fx, fy, np.array(sizes, np.int64),
               np.array([costs.index(c) for c in extras], np.int64),
               np.array(moves, np.int64), np.array(extras, np.int64), times, zones, q, lev_i,
               dmg, lethal, *approach_inputs, self.sheet.range, IMPEDED,
               np.array([w.threat, w.death, w.ip, w.approach]), self.sheet.cost / 100, out)
        return out


def distinct(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``np.unique(values, return_inverse=True)`` for small integers (levels, codes, IP
    costs, tile numbers), by counting (:func:`.kernels.distinct`): the sorted
    distinct values and each value's index among them."""
    return k.distinct(np.ascontiguousarray(values, np.int64))


def plans(view: View, weights: GreedyWeights, limit: int | None = None,
          memo: Memo | None = None) -> list[Plan]:
    """The plans for the actor's turn from now, best first (ties in enumeration
    order: pass, attack only, attack then move, move only, move then attack; tiles
    row-major, enemies by index): the best ``limit`` (None: all) and every plan as
    good as the best.  Utilities are scored in arrays; only the plans returned are
    built as objects."""
    if memo is not None and memo.pending is not None:
        kept = memo.take(view, weights, limit)
        if kept is not None:
            return kept
    f = TurnFacts(view, weights, memo)
    move_x, move_y = view.move_tiles()
    cost = view.rules.clock
    can_attack = view.can_take(ActionType.ATTACK)
    can_move = view.can_take(ActionType.MOVE) and len(move_x) > 0
    moved_now = view.moved(f.i)
    cx, cy = np.array([f.tile[0]], np.int64), np.array([f.tile[1]], np.int64)

    # every end tile with its IP spent and Move flag, scored in one call; the tiles
    # of a Move then an Attack only where some enemy can be attacked from
    groups: dict[int, tuple[np.ndarray, np.ndarray, int, bool]] = {
        PASS: (cx, cy, 0, moved_now)}
    here = np.zeros(0)
    targets = np.zeros(0, np.int64)
    qx = qy = dx = dy = sel = np.zeros(0, np.int64)
    if can_move:
        dx, dy = move_x, move_y
    values = np.zeros((0, len(f.enemies)))
    if can_attack and f.enemies:  # from here and from every Move's end tile, one call
        values = f.attack_values(np.concatenate([cx, dx]), np.concatenate([cy, dy]),
                                 np.concatenate([[moved_now], np.ones(len(dx), bool)]))
        here, values = values[0], values[1:]
        targets = np.nonzero(here > NO)[0]
        if len(targets):
            groups[ATTACK] = (cx, cy, cost.attack_cost, moved_now)
        quarter = move_after_attack(view.move_this_turn, view.rules.actions)
        if len(targets) and view.can_take(ActionType.MOVE) and quarter > 0:
            qx, qy = view.reach(f.i, quarter).moves
            groups[ATTACK_MOVE] = (qx, qy, cost.attack_cost + cost.move_cost, True)
    if can_move:
        groups[MOVE] = (dx, dy, cost.move_cost, True)
        if can_attack and f.enemies:
            sel = pk.rows_with_target(values)
            groups[MOVE_ATTACK] = (dx[sel], dy[sel], cost.move_cost + cost.attack_cost, True)
    sizes = [len(g[0]) for g in groups.values()]
    rows = f.stationary_rows(np.concatenate([g[0] for g in groups.values()]),
                             np.concatenate([g[1] for g in groups.values()]),
                             [g[2] for g in groups.values()],
                             [g[3] for g in groups.values()], sizes)
    size = np.zeros(5, np.int64)
    size[list(groups)] = sizes
    start = np.cumsum(size) - size
    kind, attack, stay, target, tile = pk.plan_table(here, targets, values, rows, start, size)
    utility, ranked = pk.best_rows(attack, stay)
    if limit != 1:  # (1: the greedy controller, the best plan and every plan as good)
        ranked = np.argsort(-utility, kind="stable")
        ties = int(np.count_nonzero(utility == utility[ranked[0]]))
        ranked = ranked[:len(ranked) if limit is None else max(limit, ties)]

    def steps(r: int) -> tuple[Action, ...]:
        k, b, t = int(kind[r]), int(target[r]), int(tile[r])
        if k == PASS:
            return (Pass(),)
        if k == ATTACK:
            return (Attack(f.enemies[b]),)
        if k == ATTACK_MOVE:
            return (Attack(f.enemies[b]), Move((int(qx[t]), int(qy[t]))))
        if k == MOVE:
            return (Move((int(dx[t]), int(dy[t]))),)
        return (Move((int(dx[t]), int(dy[t]))), Attack(f.enemies[b]))

    return [Plan(float(utility[r]), r, partial(steps, r), float(stay[r]))
            for r in ranked.tolist()]
