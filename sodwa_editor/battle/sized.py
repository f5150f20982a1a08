"""Creatures of any size in a battle (docs/rules.md S21-S27): adjacency, line of sight
and range between two characters by their footprints, and the companion rulebook's
flanking and cover as attack modifiers.

Every function answers for two characters by index.  When both are one tile, each
gives exactly what the one-tile battle rules gave (the board's adjacency, the state's
LoS class between the two tiles, the range metric between them), so a battle of Medium
characters plays as before; otherwise the engine's footprint rules answer
(:mod:`..engine.footprint`, :mod:`..engine.footprint_los`, :mod:`..engine.flanking`,
:mod:`..engine.footprint_cover`).
"""

from __future__ import annotations

from ..engine.distance import distance
from ..engine.flanking import Flanking, flanking
from ..engine.footprint import Footprint, creatures_adjacent
from ..engine.footprint_cover import Cover, cover
from ..engine.terrain import Crossing
from .attack import Modifier
from .footprint_lines import sight
from .state import BattleState

Tile = tuple[int, int]
Placed = tuple[Tile, Footprint]


def placed(state: BattleState, i: int) -> Placed:
    """Character ``i``'s top-left tile and footprint."""
    return state.pos[i], state.fp[i]


def one_tile(state: BattleState, i: int, j: int) -> bool:
    return state.fp[i] == (1, 1) and state.fp[j] == (1, 1)


def adjacent(state: BattleState, i: int, j: int) -> bool:
    """Whether characters ``i`` and ``j`` are adjacent (S5: some square of one adjacent
    to some square of the other by the engine's grounded adjacency; a melee attack iff
    true, B38)."""
    if one_tile(state, i, j):
        return state.board.adjacent(state.pos[i], state.pos[j])
    if _apart(state.pos[i], state.fp[i], state.pos[j], state.fp[j]) > 1:
        return False  # more than a tile between them: no square can touch
    return creatures_adjacent(state.board.model, *placed(state, i), *placed(state, j))


def _apart(a: Tile, fa: Footprint, b: Tile, fb: Footprint) -> int:
    """Chebyshev distance between the nearest squares of two footprints."""
    return max(0, b[0] - (a[0] + fa.width - 1), a[0] - (b[0] + fb.width - 1),
               b[1] - (a[1] + fa.height - 1), a[1] - (b[1] + fb.height - 1))


def gap(state: BattleState, i: int, j: int) -> float:
    """The Range distance between two characters (S24): the range metric between their
    nearest squares (for one tile each, between their tiles)."""
    return gap_between(state, state.pos[i], state.fp[i], state.pos[j], state.fp[j])


def gap_between(state: BattleState, a: Tile, fa: Footprint, b: Tile, fb: Footprint
                ) -> float:
    """:func:`gap` for two footprints placed anywhere (an AI weighing a move)."""
    metric = state.rules.targeting.range_metric
    dx = max(0, b[0] - (a[0] + fa.width - 1), a[0] - (b[0] + fb.width - 1))
    dy = max(0, b[1] - (a[1] + fa.height - 1), a[1] - (b[1] + fb.height - 1))
    if metric == "chebyshev":
        return max(dx, dy)
    return distance((0, 0), (dx, dy), metric)


def crossing(state: BattleState, i: int, j: int) -> Crossing:
    """The LoS class from character ``i`` to character ``j`` (the state's class between
    their tiles for one tile each; :func:`sight` otherwise)."""
    if one_tile(state, i, j):
        return state.crossing(state.pos[i], state.pos[j])
    return sight(state, i, j).crossing


def describe_line(state: BattleState, i: int, j: int) -> str:
    """One line on the LoS from ``i`` to ``j`` (for a refusal)."""
    if one_tile(state, i, j):
        return state.los_board().los(state.pos[i], state.pos[j]).describe()
    return sight(state, i, j).describe()


def level(state: BattleState, i: int) -> int:
    """The level a character stands on (every square of a footprint is on one, S4)."""
    x, y = state.pos[i]
    return state.board.level[y][x]


# ------------------------------------------------------------------ flanking
def flanked(state: BattleState, target: int) -> Flanking:
    """Who flanks character ``target`` now (S12-S14): its undefeated enemies, with the
    minimum of ``flanking.minimum_foes``."""
    foes = {state.names[j]: placed(state, j) for j in state.enemies(target)}
    return flanking(state.board.model, placed(state, target), foes,
                    minimum_foes=state.rules.flanking.minimum_foes)


def _near(state: BattleState, target: int) -> int:
    """Enemies of ``target`` within one tile of its footprint (Chebyshev): an upper bound
    of the foes adjacent to it (a quick test before :func:`flanked`)."""
    (tx, ty), fp = placed(state, target)
    n = 0
    for j in state.enemies(target):
        (x, y), f = placed(state, j)
        if x <= tx + fp.width and tx <= x + f.width and y <= ty + fp.height \
                and ty <= y + f.height:
            n += 1
    return n


def flanking_modifier(state: BattleState, target: int, evasion: int) -> Modifier | None:
    """The Evasion a Flanked ``target`` loses (S19): ``flanking.evasion_per_square`` per
    counted foe square, never more than the ``evasion`` it adds to this attack (0 when it
    is unaware of it: then there is none to lower).  None when flanking is off, the
    target is not Flanked or has no Evasion to lose."""
    rules = state.rules.flanking
    if not rules.enabled or evasion <= 0 or rules.evasion_per_square <= 0 \
            or _near(state, target) < rules.minimum_foes:
        return None
    f = flanked(state, target)
    if not f.flanked:
        return None
    amount = min(evasion, rules.evasion_per_square * f.count)
    foes = len(f.flankers)
    return Modifier(f"flanked by {foes} foes ({f.count} squares)", "evasion", -amount)


# ------------------------------------------------------------------ cover
def cover_of(state: BattleState, attacker: int, target: int) -> Cover:
    """The cover ``target`` has from ``attacker`` now (S15-S16), the other undefeated
    characters as creatures."""
    others = {state.names[j]: placed(state, j) for j in range(len(state.pos))
              if j not in (attacker, target) and state.alive(j)}
    return cover(state.board.model, placed(state, attacker), placed(state, target),
                 creatures=others)


def cover_modifier(state: BattleState, attacker: int, target: int, impeded: bool
                   ) -> Modifier | None:
    """The Defense cover adds to a ranged attack (S17, S20): ``cover.covered_defense`` or
    ``cover.heavy_defense`` less what the impeded line's modifier gave the same attack
    (``impeded``: SODWA's line is impeded), never below 0; None when cover is off or adds
    nothing.  For two one-tile characters the target is Covered exactly when the line is
    impeded (S16), so no line is walked twice."""
    rules = state.rules
    if not rules.cover.enabled:
        return None
    already = rules.modifiers.impeded_defense if impeded else 0
    if one_tile(state, attacker, target):
        if not impeded:
            return None
        level, why = "covered", "covered"
    else:
        c = cover_of(state, attacker, target)
        level, why = c.level, ("heavily covered" if c.level == "heavy" else "covered")
    bonus = {"none": 0, "covered": rules.cover.covered_defense,
             "heavy": rules.cover.heavy_defense}[level] - already
    return Modifier(why, "defense", bonus) if bonus > 0 else None
