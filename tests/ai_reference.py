"""The greedy utility scored the straightforward way (the test oracle of
:mod:`sodwa_editor.battle.ai.scoring`, which must give the same plans and
utilities; tests/test_battle_ai_speed.py): the TSB from :meth:`View.tsb`, every
attack's hit chance from :func:`preview_attack`, numpy arrays per enemy and
level.  Kept as the scoring was before it was made fast (plus the flyer's own
walking distance and the ranged approach to a firing tile), so a speed change
cannot silently change the AI's choices.

What the AIs read off a :class:`~..loop.View` for one character's turn: every plan
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
  - approach * max(0, tiles to the nearest enemy - own Range)

``P(hit)`` is :func:`..attack.preview_attack`'s hits with the team's karma (the BIP's
numbers, exact, no sampling).  The threat on ``f`` counts every enemy turn the TSB
predicts before this character's next turn (its turn IP cost decides when that is),
each enemy attacking from a tile of its movement range within its Range of ``f``
(LoS not checked: a cautious estimate).  Lines of sight and ranges for every
(tile, enemy) pair are one compiled call per level (:mod:`.kernels`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from sodwa_editor.battle import karma as karma_rules
from sodwa_editor.battle import kernels as bk
from sodwa_editor.battle.actions import Action, Attack, Move, Pass
from sodwa_editor.battle.ai import kernels as k
from sodwa_editor.battle.ai.profile import GreedyWeights
from sodwa_editor.battle.attack import Situation, is_aware
from sodwa_editor.battle.attack import preview_attack as bip
from sodwa_editor.battle.clock import ActionType, Prediction, move_after_attack, ticks_to_reach
from sodwa_editor.battle.kernels import METRICS
from sodwa_editor.battle.loop import View
from sodwa_editor.engine import adjacency as adj
from sodwa_editor.engine import los_kernel as lk
from sodwa_editor.engine.los import LosBoard
from sodwa_editor.engine.terrain import Crossing

BLOCKED = int(Crossing.BLOCKED)
IMPEDED = int(Crossing.IMPEDED)
NO = -np.inf
#: Plan kinds, in enumeration order.
PASS, ATTACK, ATTACK_MOVE, MOVE, MOVE_ATTACK = range(5)
DDX = np.array([d[0] for d in adj.DIRS], np.int64)
DDY = np.array([d[1] for d in adj.DIRS], np.int64)


@dataclass(frozen=True, slots=True)
class Plan:
    """One turn plan: its actions in order (the last may be a Move after an Attack)
    and its utility; ``order`` is its place in the fixed enumeration (ties);
    ``stay`` the part of the utility for where it ends and the IP it spends (the
    threat, death, tempo and approach terms)."""

    utility: float
    order: int
    steps: tuple[Action, ...]
    stay: float = 0.0


class TurnFacts:
    """The facts of the actor's turn as its View shows them, shared by all plans."""

    def __init__(self, view: View, weights: GreedyWeights) -> None:
        actor = view.actor
        assert actor is not None, "plans are made during a turn"
        self.view, self.w, self.i = view, weights, actor
        self.rules = view.rules
        self.board = view.board
        self.team = view.team_of(actor)
        self.sheet = view.sheet(actor)
        self.tile = view.tile(actor)
        self.metric = METRICS[self.rules.targeting.range_metric]
        self.enemies = [j for j in range(view.size)
                        if view.alive(j) and view.team_of(j) != self.team]
        self.ex = np.array([view.tile(j)[0] for j in self.enemies], np.int64)
        self.ey = np.array([view.tile(j)[1] for j in self.enemies], np.int64)
        occupied = [view.tile(j) for j in range(view.size) if view.alive(j) and j != actor]
        self.los = LosBoard(view.map, occupied)  # the actor off its tile: it may move
        self.level = np.array(self.board.level, np.int64)
        self.liquid = np.array(self.board.liquid, bool)
        self.my_karma = view.karma(self.team)
        self.their_karma = view.karma(1 - self.team)
        self._previews: dict[tuple[object, ...], tuple[float, int, float]] = {}
        self._zones: dict[int, np.ndarray] = {}
        self._turns_before: dict[int, list[int]] = {}
        self._predicted: list[Prediction] | None = None
        self._walk: list[np.ndarray] | None = None

    # ------------------------------------------------------------ attacks
    def _preview(self, a: int, d: int, s: Situation, karma: int) -> tuple[float, int, float]:
        """(P(hit) with karma, damage on a hit, expected karma earned) from the BIP."""
        key = (a, d, s)
        hit = self._previews.get(key)
        if hit is None:
            p = bip(self.view.sheet(a), self.view.sheet(d), s, self.rules, karma)
            fail = (100 - p.hits_with_karma) / 100
            hit = (p.hits_with_karma / 100, p.damage_on_hit,
                   fail * karma_rules.gain(p.difficulty, self.rules))
            self._previews[key] = hit
        return hit

    def attack_values(self, px: np.ndarray, py: np.ndarray, moved: bool) -> np.ndarray:
        """``(len(px), len(enemies))`` utilities of attacking each enemy from each tile
        (``-inf``: not a legal target from there: RB targeting rules)."""
        n, m = len(px), len(self.enemies)
        out = np.full((n, m), NO)
        if n == 0 or m == 0:
            return out
        view, board, rules, w = self.view, self.board, self.rules, self.w
        dx = np.abs(px[:, None] - self.ex[None, :])
        dy = np.abs(py[:, None] - self.ey[None, :])
        adjacent = np.zeros((n, m), bool)
        for a, b in zip(*np.nonzero(np.maximum(dx, dy) == 1), strict=True):
            adjacent[a, b] = board.adjacent((int(px[a]), int(py[a])),
                                            (int(self.ex[b]), int(self.ey[b])))
        engaged = np.asarray(adjacent.any(axis=1), bool)
        lev = self.level[py, px]
        sight = np.full((n, m), BLOCKED, np.int64)  # attacker -> defender
        free = np.nonzero(~engaged)[0]
        rng = self.sheet.range
        for level in np.unique(lev[free]).tolist():
            rows = free[lev[free] == level]
            stack = self.los.stack(int(level))
            col = np.empty(len(rows), np.int64)
            for b in range(m):
                k.sight_to(px[rows], py[rows], self.ex[b], self.ey[b], rng, self.metric,
                           *stack, self.los.inputs.target, col)
                sight[rows, b] = col
        mode = rules.awareness.mode
        seen = np.zeros((n, m), np.int64)  # defender -> attacker
        if mode == "los":
            for b in range(m):
                stack = self.los.stack(int(self.level[self.ey[b], self.ex[b]]))
                sight_from_into(self.ex[b], self.ey[b], px, py, *stack,
                                  self.los.inputs.target, seen, b)
            seen[adjacent & (seen == IMPEDED)] = int(Crossing.CLEAR)  # L5
        legal = adjacent | (~engaged[:, None] & (sight <= IMPEDED))
        liq = self.liquid[py, px]
        floor = rules.combat.defeated_at_or_below
        for a, b in zip(*np.nonzero(legal), strict=True):
            j = self.enemies[b]
            adj = bool(adjacent[a, b])
            jx, jy = int(self.ex[b]), int(self.ey[b])
            s = Situation(adjacent=adj, impeded=not adj and sight[a, b] == IMPEDED,
                          attacker_level=int(lev[a]), defender_level=int(self.level[jy, jx]),
                          attacker_moved=moved, defender_moved=view.moved(j),
                          defender_aware=is_aware(mode, seen[a, b] != BLOCKED),
                          attacker_on_liquid=bool(liq[a]),
                          defender_on_liquid=bool(self.liquid[jy, jx]))
            p, dmg, karma = self._preview(self.i, j, s, self.my_karma)
            hp = view.hp(j)
            kill = p * w.kill * view.sheet(j).cost / 100 if hp - dmg <= floor else 0.0
            out[a, b] = w.damage * p * min(dmg, hp) + kill + w.karma * karma
        return out

    # ------------------------------------------------------------ threat
    def turns_before(self, extra: int) -> list[int]:
        """Per enemy: its turns the TSB predicts before this character's next turn
        when it spends ``extra`` more IP this turn (ties counted as before)."""
        hit = self._turns_before.get(extra)
        if hit is None:
            until = self._next_tick(extra)
            tsb = self._tsb(self._next_tick(2 * self.rules.clock.attack_cost
                                            + 2 * self.rules.clock.move_cost))
            hit = [sum(1 for p in tsb if p.actor == j and p.tick <= until)
                   for j in self.enemies]
            self._turns_before[extra] = hit
        return hit

    def _next_tick(self, extra: int) -> int:
        """The tick of this character's next turn if it spends ``extra`` more IP now."""
        ip = self.view.ip(self.i) - extra
        return self.view.tick + max(1, ticks_to_reach(ip, self.sheet.initiative,
                                                      self.rules.clock.turn_threshold))

    def _tsb(self, until: int) -> list[Prediction]:
        """The TSB far enough to cover tick ``until`` (one prediction per decision)."""
        if self._predicted is None or (self._predicted and self._predicted[-1].tick <= until
                                       and len(self._predicted) < 4096):
            view = self.view
            ticks = until - view.tick
            turn_cost = self.rules.clock.turn_cost
            # at most one turn now plus one per turn_cost IP gained by tick ``until``
            n = 1 + sum(1 + ticks * view.sheet(j).initiative // turn_cost
                        for j in range(view.size) if view.alive(j))
            tsb = view.tsb(n)
            while tsb and tsb[-1].tick <= until and n < 4096:
                n *= 2
                tsb = view.tsb(n)
            self._predicted = tsb
        return self._predicted

    def gap(self, fx: np.ndarray, fy: np.ndarray) -> np.ndarray:
        """Per tile: steps still to go before the character can strike its nearest
        enemy with its better attack kind against it (higher expected damage: melee
        needs adjacency, ranged Range and a line of sight that is not blocked)."""
        out = np.full(len(fx), np.inf)
        lev = self.level[fy, fx]
        col = np.empty(len(fx), np.int64)
        for b, walk in enumerate(self.walks()):
            steps = walk[fy, fx]
            j = self.enemies[b]
            melee = self._preview(self.i, j, Situation(adjacent=True), self.my_karma)
            ranged = self._preview(self.i, j, Situation(adjacent=False), self.my_karma)
            if melee[0] * melee[1] >= ranged[0] * ranged[1] or self.sheet.range <= 1:
                out = np.minimum(out, (steps - 1).clip(0))
                continue
            sight = np.zeros(len(fx), bool)
            for level in np.unique(lev).tolist():
                rows = np.nonzero(lev == level)[0]
                part = col[:len(rows)]
                k.sight_to(fx[rows], fy[rows], self.ex[b], self.ey[b], self.sheet.range,
                           self.metric, *self.los.stack(int(level)), self.los.inputs.target,
                           part)
                sight[rows] = part <= IMPEDED
            far = np.maximum(1, steps - self.sheet.range)
            fire = self._fire(b)[fy, fx]
            far = np.where(fire >= 0, np.maximum(1, fire), far)
            out = np.minimum(out, np.where(sight, 0, far))
        return out

    def _fire(self, b: int) -> np.ndarray:
        """Steps to the nearest tile of the map (not the enemy's) within Range of enemy
        ``b`` with a line of sight to it over the bare terrain (no characters), -1 where
        none is walkable."""
        board = self.board
        bare = LosBoard(self.view.map, [])
        ex, ey = int(self.ex[b]), int(self.ey[b])
        xs, ys, one = [], [], np.empty(1, np.int64)
        for y in range(board.height):
            for x in range(board.width):
                if (x, y) == (ex, ey):
                    continue
                k.sight_to(np.array([x]), np.array([y]), ex, ey, self.sheet.range,
                           self.metric, *bare.stack(int(self.level[y, x])),
                           bare.inputs.target, one)
                if one[0] <= IMPEDED:
                    xs.append(x)
                    ys.append(y)
        step = adj.steps(board.model, flight=True).step if self.sheet.flight else board.step
        out = np.empty((board.height, board.width), np.int64)
        k.walking(step, adj.BLOCKED, DDX, DDY, np.array(xs, np.int64), np.array(ys, np.int64),
                  out)
        return out

    def walks(self) -> list[np.ndarray]:
        """Per enemy, per tile: steps to the enemy's tile (:func:`.kernels.walking` over
        the board's grounded steps; beyond every walk: the map's width plus height)."""
        if self._walk is None:
            b = self.board
            step = adj.steps(b.model, flight=True).step if self.sheet.flight else b.step
            self._walk = []
            for x, y in zip(self.ex.tolist(), self.ey.tolist(), strict=True):
                one = np.empty((b.height, b.width), np.int64)
                k.walking(step, adj.BLOCKED, DDX, DDY, np.array([x]), np.array([y]), one)
                one[one < 0] = b.width + b.height
                self._walk.append(one)
        return self._walk

    def _zone(self, b: int) -> np.ndarray:
        """Tiles enemy ``b`` can attack after its move (LoS not checked)."""
        hit = self._zones.get(b)
        if hit is None:
            j = self.enemies[b]
            sheet = self.view.sheet(j)
            reach = self.view.reach(j, sheet.move)
            ry, rx = np.nonzero(reach.steps >= 0)
            hit = np.zeros((self.board.height, self.board.width), bool)
            zone(rx.astype(np.int64), ry.astype(np.int64), max(1, sheet.range),
                   self.metric if sheet.range > 1 else 0, hit)
            self._zones[b] = hit
        return hit

    def stationary(self, fx: np.ndarray, fy: np.ndarray, extra: int, moved: bool) -> np.ndarray:
        """The terms of ending the turn on each tile ``(fx, fy)`` having spent ``extra``
        more IP (threat, death, tempo, approach)."""
        n = len(fx)
        return self.stationary_rows(fx, fy, np.full(n, extra, np.int64), np.full(n, moved))

    def stationary_rows(self, fx: np.ndarray, fy: np.ndarray, extra: np.ndarray,
                        moved: np.ndarray) -> np.ndarray:
        """:meth:`stationary` with the IP spent and the Move flag given per tile (one
        call for all of a turn's plans)."""
        w, view = self.w, self.view
        n = len(fx)
        hp = view.hp(self.i)
        floor = view.rules.combat.defeated_at_or_below
        lethal = max(0, hp - floor)
        expected = np.zeros(n)
        dist = np.zeros((n, lethal + 1))
        dist[:, 0] = 1.0
        costs = np.unique(extra).tolist()
        table = {c: self.turns_before(int(c)) for c in costs}
        lev = self.level[fy, fx]
        for b in range(len(self.enemies)):
            times = np.zeros(n, np.int64)
            for c in costs:
                times[extra == c] = table[c][b]
            where = self._zone(b)[fy, fx] & (times > 0)
            if not where.any():
                continue
            j = self.enemies[b]
            sj = view.sheet(j)
            jx, jy = int(self.ex[b]), int(self.ey[b])
            p = np.zeros(n)
            dmg = 0
            for level in np.unique(lev[where]).tolist():
                for flag in (False, True):
                    rows = where & (lev == level) & (moved == flag)
                    if not rows.any():
                        continue
                    s = Situation(adjacent=sj.range <= 1, attacker_level=int(self.level[jy, jx]),
                                  defender_level=int(level), attacker_moved=True,
                                  defender_moved=flag)
                    q, dmg, _ = self._preview(j, self.i, s, self.their_karma)
                    p[rows] = q
            expected += times * p * dmg
            for t in range(int(times.max())):
                dist = _hit_with(dist, np.where(times > t, p, 0.0), dmg)
        death = dist[:, lethal] if lethal > 0 else np.ones(n)
        gap = self.gap(fx, fy) if self.enemies else np.zeros(n)
        own = self.sheet.cost / 100
        return (-w.threat * expected - w.death * death * own - w.ip * extra / 250
                - w.approach * gap)


def _hit_with(dist: np.ndarray, p: np.ndarray, dmg: int) -> np.ndarray:
    """Damage-taken distributions (last column: at least lethal) after one more attack
    that hits with probability ``p`` (per row) for ``dmg``."""
    if dmg <= 0:
        return dist
    lethal = dist.shape[1] - 1
    shifted = np.zeros_like(dist)
    if dmg < lethal:
        shifted[:, dmg:lethal] = dist[:, :lethal - dmg]
    shifted[:, lethal] = dist[:, max(0, lethal - dmg):].sum(axis=1)
    return dist * (1 - p)[:, None] + shifted * p[:, None]


def plans(view: View, weights: GreedyWeights, limit: int | None = None) -> list[Plan]:
    """The plans for the actor's turn from now, best first (ties in enumeration
    order: pass, attack only, attack then move, move only, move then attack; tiles
    row-major, enemies by index): the best ``limit`` (None: all) and every plan as
    good as the best.  Utilities are scored in arrays; only the plans returned are
    built as objects."""
    f = TurnFacts(view, weights)
    opts = view.options()
    assert opts is not None
    cost = view.rules.clock
    can_attack = view.can_take(ActionType.ATTACK)
    can_move = view.can_take(ActionType.MOVE) and len(opts.move_x) > 0
    moved_now = view.moved(f.i)
    cx, cy = np.array([f.tile[0]], np.int64), np.array([f.tile[1]], np.int64)

    # every end tile with its IP spent and Move flag, scored in one call
    groups: list[tuple[np.ndarray, np.ndarray, int, bool]] = [(cx, cy, 0, moved_now)]
    here = np.zeros(0)
    targets = np.zeros(0, np.int64)
    qx = qy = dx = dy = np.zeros(0, np.int64)
    if can_attack and f.enemies:
        here = f.attack_values(cx, cy, moved_now)[0]
        targets = np.nonzero(here > NO)[0]
        groups.append((cx, cy, cost.attack_cost, moved_now))
        quarter = move_after_attack(view.move_this_turn, view.rules.actions)
        if len(targets) and view.can_take(ActionType.MOVE) and quarter > 0:
            qy, qx = np.nonzero(view.reach(f.i, quarter).steps > 0)
            qx, qy = qx.astype(np.int64), qy.astype(np.int64)
    groups.append((qx, qy, cost.attack_cost + cost.move_cost, True))
    if can_move:
        dx, dy = np.array(opts.move_x, np.int64), np.array(opts.move_y, np.int64)
    groups.append((dx, dy, cost.move_cost, True))
    groups.append((dx, dy, cost.move_cost + cost.attack_cost, True))
    rows = f.stationary_rows(
        np.concatenate([g[0] for g in groups]), np.concatenate([g[1] for g in groups]),
        np.concatenate([np.full(len(g[0]), g[2], np.int64) for g in groups]),
        np.concatenate([np.full(len(g[0]), g[3]) for g in groups]))
    parts, at = [], 0
    for g in groups:
        parts.append(rows[at:at + len(g[0])])
        at += len(g[0])

    # the plan kinds as arrays: attack value, stay terms, target (-1 none), tile (-1 none)
    kinds: list[tuple[int, np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = [
        (PASS, np.zeros(1), parts[0][:1], np.full(1, -1), np.full(1, -1))]
    if len(targets):
        kinds.append((ATTACK, here[targets], np.repeat(parts[1][:1], len(targets)), targets,
                      np.full(len(targets), -1)))
        if len(qx):
            kinds.append((ATTACK_MOVE, np.repeat(here[targets], len(qx)),
                          np.tile(parts[-3], len(targets)), np.repeat(targets, len(qx)),
                          np.tile(np.arange(len(qx)), len(targets))))
    if can_move:
        n = len(dx)
        kinds.append((MOVE, np.zeros(n), parts[-2], np.full(n, -1), np.arange(n)))
        if can_attack and f.enemies:
            values = f.attack_values(dx, dy, True)
            t, b = np.nonzero(values > NO)
            kinds.append((MOVE_ATTACK, values[t, b], parts[-1][t], b, t))
    kind = np.concatenate([np.full(len(k[1]), k[0]) for k in kinds])
    attack = np.concatenate([k[1] for k in kinds])
    stay = np.concatenate([k[2] for k in kinds])
    target = np.concatenate([k[3] for k in kinds])
    tile = np.concatenate([k[4] for k in kinds])
    utility = attack + stay
    ranked = np.argsort(-utility, kind="stable")
    ties = int(np.count_nonzero(utility == utility[ranked[0]]))
    take = len(ranked) if limit is None else max(limit, ties)

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

    return [Plan(float(utility[r]), int(r), steps(int(r)), float(stay[r]))
            for r in ranked[:take].tolist()]


@njit(cache=True, nogil=True)
def sight_from_into(sx, sy, px, py, ctx, tcs, ecs, scs, tg, out, col):  # pragma: no cover
    """``out[i, col]``: the LoS class from ``(sx, sy)`` (the stack's viewer level) to
    ``(px[i], py[i])``, every row."""
    for i in range(px.shape[0]):
        x, y = px[i], py[i]
        c, _k, _x, _y, _s = lk.walk(sx, sy, x, y, tcs[ctx[y, x]], ecs[ctx[y, x]],
                                    scs[ctx[y, x]], tg)
        out[i, col] = c


@njit(cache=True, nogil=True)
def zone(rx, ry, rng, metric, out):  # pragma: no cover
    """Mark in ``out[y, x]`` every tile within Range ``rng`` of a tile ``(rx[i], ry[i])``,
    tile by tile with the range rule."""
    h, w = out.shape
    for i in range(rx.shape[0]):
        x0, y0 = rx[i], ry[i]
        for y in range(max(0, y0 - rng), min(h, y0 + rng + 1)):
            for x in range(max(0, x0 - rng), min(w, x0 + rng + 1)):
                if bk.in_range(x - x0, y - y0, rng, metric):
                    out[y, x] = True
