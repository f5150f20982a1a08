"""Who a character may attack, and the facts of an attack read off the board
(RB *Line of Sight*, *Attacking and Defending*, *Combat Modifiers*; decisions B38).

"If the target is adjacent to the attacking character, the attack is considered a
Melee Attack. Otherwise, it is considered a Ranged Attack. LoS is not required for
Melee attacks"; a ranged target must be "within a number of tiles equal to the
attacker's Range attribute" with LoS that is not blocked; "Any character that is
adjacent to one or more enemy characters may only target the adjacent enemy
characters".  Adjacency and LoS are the engine's (so melee works across a
transition border between levels, and characters block lines).

:func:`preview_attack` is the Battle Information Panel: pure, it changes neither
the state nor any random stream.
"""

from __future__ import annotations

from ..engine.terrain import Crossing
from . import karma as karma_rules
from .attack import AttackPreview, Modifier, Situation, distance, is_aware, within_range
from .attack import preview_attack as _preview
from .state import BattleState
from .terrain_effects import attack_adjacent, attack_modifiers, targeting_refusal


class IllegalAction(ValueError):
    """An action the rules do not allow now; the message is one line a UI can show
    (``out of range: 'b.1' is 7 tiles away, Range 5``)."""


def engaged_with(state: BattleState, i: int) -> list[int]:
    """The enemies adjacent to character ``i`` (engine adjacency), by index (cached
    with the arrangement)."""
    cache = state.derived.engaged
    hit = cache.get(i)
    if hit is None:
        hit = cache[i] = tuple(j for j in state.enemies(i) if attack_adjacent(state, i, j))
    return list(hit)


def attack_refusal(state: BattleState, attacker: int, target: int) -> str | None:
    """Why ``attacker`` may not make a Basic Attack on ``target`` from where both
    stand (None: it may).  Turn bookkeeping (whose turn, actions left) is
    :func:`.actions.refusal`'s."""
    n = len(state.pos)
    if not 0 <= target < n:
        return f"no character {target}"
    name = state.names[target]
    if not state.alive(attacker):
        return f"{state.names[attacker]!r} is defeated"
    if not state.alive(target):
        return f"{name!r} is defeated"
    if target == attacker:
        return "a character cannot attack itself"
    if state.team[target] == state.team[attacker]:
        return f"{name!r} is on your own team"
    a, d = state.pos[attacker], state.pos[target]
    if attack_adjacent(state, attacker, target):
        return None
    engaged = engaged_with(state, attacker)
    if engaged:
        names = ", ".join(repr(state.names[j]) for j in engaged)
        return f"must target the adjacent enem{'y' if len(engaged) == 1 else 'ies'}: {names}"
    rng = state.sheets[attacker].range
    if not within_range(a, d, rng, state.rules):
        dist = distance(a, d, state.rules.targeting.range_metric)
        return f"out of range: {name!r} is {dist:g} tiles away, Range {rng}"
    if state.crossing(a, d) is Crossing.BLOCKED:
        return f"line of sight {state.los_board().los(a, d).describe()}"
    return targeting_refusal(state, attacker, target, False) if state.abilities else None


def attack_targets(state: BattleState, attacker: int) -> list[int]:
    """Every character ``attacker`` may attack now, by index."""
    engaged = engaged_with(state, attacker)
    if engaged:
        return engaged
    a, rng, rules = state.pos[attacker], state.sheets[attacker].range, state.rules
    out = []
    for j in state.enemies(attacker):
        d = state.pos[j]
        if within_range(a, d, rng, rules) and state.crossing(a, d) is not Crossing.BLOCKED \
                and (not state.abilities or targeting_refusal(state, attacker, j, False) is None):
            out.append(j)
    return out


def situation(state: BattleState, attacker: int, target: int) -> Situation:
    """The facts of an attack from where both stand (for :func:`.attack.preview_attack`):
    adjacency, impeded LoS (ranged only, B20), levels (B21), Move Action flags (B22),
    awareness (B19), Liquid (B23) and the abilities' modifiers."""
    a, d = state.pos[attacker], state.pos[target]
    level = state.board.level
    adjacent = attack_adjacent(state, attacker, target)
    impeded = False
    if not adjacent:
        impeded = state.crossing(a, d) is Crossing.IMPEDED
    mode = state.rules.awareness.mode
    sees = mode == "los" and state.crossing(d, a) is not Crossing.BLOCKED
    extra: tuple[Modifier, ...] = ()
    for ability in state.abilities:
        extra += tuple(ability.modifiers(state, attacker, target))
    if state.abilities:  # terrain properties (docs/rules.md TP-B)
        extra += attack_modifiers(state, attacker, target, adjacent, impeded,
                                  is_aware(mode, sees))
    liquid = state.board.liquid
    moved = state.moved
    return Situation(
        adjacent=adjacent, impeded=impeded, attacker_level=level[a[1]][a[0]],
        defender_level=level[d[1]][d[0]], attacker_moved=moved[attacker],
        defender_moved=moved[target], defender_aware=is_aware(mode, sees),
        attacker_on_liquid=liquid[a[1]][a[0]], defender_on_liquid=liquid[d[1]][d[0]],
        extra=extra)


def preview_attack(state: BattleState, attacker: int, target: int) -> AttackPreview:
    """The BIP for ``attacker`` attacking ``target`` now: kind, TAV, TDV with every
    modifier by source, DR, roll needed, damage on a hit, hits out of 100 without and
    with the karma its team holds.  Pure: no state or random stream changes.
    Raises :class:`IllegalAction` when the target cannot be attacked from here."""
    why = attack_refusal(state, attacker, target)
    if why is not None:
        raise IllegalAction(why)
    return bip(state, attacker, target)


def bip(state: BattleState, attacker: int, target: int) -> AttackPreview:
    """:func:`preview_attack` for an attack :func:`attack_refusal` allows."""
    held = karma_rules.available(state.karma, state.team[attacker])
    return _preview(state.sheets[attacker], state.sheets[target],
                    situation(state, attacker, target), state.rules, held)
