"""The battle clock: the tick jump equals ticking one by one, the TSB never predicts
a turn later than it happens, IP arithmetic, the action economy (hypothesis)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sodwa_editor.battle.clock import (
    ActionRefused,
    ActionType,
    Clock,
    first_tie_team,
    move_after_attack,
    ticks_to_reach,
)
from sodwa_editor.battle.dice import Streams
from sodwa_editor.battle.rules import default_rules

RULES = default_rules()
#: What a turn does: actions taken (the Special Action's cost drawn separately).
PLANS = [(), (ActionType.MOVE,), (ActionType.ATTACK,), (ActionType.MOVE, ActionType.ATTACK),
         (ActionType.ATTACK, ActionType.MOVE), (ActionType.SPECIAL,),
         (ActionType.FREE, ActionType.MOVE)]

battles = st.fixed_dictionaries({
    "initiative": st.lists(st.integers(1, 400), min_size=1, max_size=8),
    "teams": st.lists(st.integers(0, 1), min_size=8, max_size=8),
    "plans": st.lists(st.tuples(st.integers(0, len(PLANS) - 1), st.integers(0, 7),
                                st.integers(0, 700)), min_size=1, max_size=60),
    "defeats": st.lists(st.integers(0, 200), max_size=3),
    "one_per_tick": st.booleans(),
    "threshold": st.sampled_from([1000, 1000, 700, 1500]),
})


def make_clock(b):
    rules = replace(RULES.clock, one_turn_per_tick=b["one_per_tick"],
                    turn_threshold=b["threshold"])
    n = len(b["initiative"])
    return Clock(b["initiative"], b["teams"][:n], rules, first_tie_team=b["teams"][-1])


def play(clock, b, *, stepwise=False, on_turn=None, removed=None):
    """Run the plans as turns; returns the list of (tick, actor) turns taken and
    ("ticks", k) for each advance of the clock.
    ``removed`` collects ``actor -> tick`` of the characters defeated."""
    log = []
    defeats = set(b["defeats"])
    for k, (plan, pick, special) in enumerate(b["plans"]):
        if not any(clock.active):
            break
        choice = clock.next_turn()
        if choice is None:  # one advance reaches the next tick with a ready character
            log.append(("ticks", clock.advance_stepwise() if stepwise else clock.advance()))
            choice = clock.next_turn()
            assert choice is not None
        actor = choice.candidates[pick % len(choice.candidates)]
        turn = clock.begin_turn(actor)
        log.append((clock.tick, actor))
        if on_turn is not None:
            on_turn(clock, turn)
        for action in PLANS[plan]:
            clock.take(turn, action, special if action == ActionType.SPECIAL else None)
        clock.end_turn(turn)
        if k in defeats:
            clock.remove(actor)
            if removed is not None:
                removed[actor] = clock.tick
    return log


@settings(max_examples=150, deadline=None)
@given(battles)
def test_clock_jump_equals_ticking_one_by_one(b):
    """B9: the jump of :meth:`Clock.advance` is exactly :meth:`Clock.advance_stepwise`."""
    jump, step = make_clock(b), make_clock(b)
    assert play(jump, b) == play(step, b, stepwise=True)
    assert (jump.tick, jump.ip, jump.acted) == (step.tick, step.ip, step.acted)


@settings(max_examples=150, deadline=None)
@given(battles)
def test_ip_is_initiative_times_ticks_minus_what_was_spent(b):
    """RB: IP gained "equal to their Initiative attribute once per tick"; 500 at each
    turn, 250 per Move and Attack Action, the Special Action's cost, 0 for Free."""
    clock = make_clock(b)
    spent = [0] * len(clock.ip)
    removed: dict[int, int] = {}
    turns = []
    play(clock, b, on_turn=lambda c, t: turns.append(t), removed=removed)
    for t in turns:
        spent[t.actor] += t.spent
    for i in range(len(clock.ip)):
        ticks = removed.get(i, clock.tick)
        assert clock.ip[i] == clock.initiative[i] * ticks - spent[i]


@settings(max_examples=150, deadline=None)
@given(battles, st.integers(0, 30))
def test_tsb_never_predicts_a_turn_later_than_it_comes(b, when):
    """B14 RB: "a character will never get to act sooner than predicted by the TSB":
    from any moment, the k-th next turn of each character is at or after the tick
    the pass-assuming prediction gave for it."""
    clock = make_clock(b)
    predicted: dict[int, list[int]] = {}
    actual: dict[int, list[int]] = {}
    seen = [0]

    def on_turn(c, turn):
        if seen[0] == when:
            for p in c.predict(4 * len(c.ip)):
                predicted.setdefault(p.actor, []).append(p.tick)
        elif seen[0] > when:
            actual.setdefault(turn.actor, []).append(c.tick)
        seen[0] += 1

    play(clock, b, on_turn=on_turn)
    for i, ticks in actual.items():
        for k, tick in enumerate(ticks[: len(predicted.get(i, []))]):
            assert tick >= predicted[i][k], (i, k)


@settings(max_examples=300, deadline=None)
@given(battles, st.lists(st.integers(-1500, 3000), min_size=8, max_size=8),
       st.sampled_from([500, 500, 300, 1, 1200]), st.integers(0, 80))
def test_tsb_prediction_equals_playing_the_clock_turn_by_turn(b, start_ip, turn_cost, n):
    """B14: :meth:`Clock.predict` (each character's turns from its own IP and
    Initiative) equals :meth:`Clock.predict_stepwise` (a copy of the clock played turn
    by turn), from every moment of a battle: between turns and inside a turn, from
    any IP, either ``one_turn_per_tick``, after defeats."""
    rules = replace(RULES.clock, one_turn_per_tick=b["one_per_tick"],
                    turn_threshold=b["threshold"], turn_cost=turn_cost)
    k = len(b["initiative"])
    clock = Clock(b["initiative"], b["teams"][:k], rules, first_tie_team=b["teams"][-1],
                  ip=start_ip[:k])
    checked = [0]

    def check(c, _turn=None):
        assert c.predict(n) == c.predict_stepwise(n)
        checked[0] += 1

    check(clock)
    play(clock, b, on_turn=check)
    if any(clock.active):
        check(clock)
    assert checked[0] >= 1


@settings(max_examples=100, deadline=None)
@given(battles)
def test_ticks_until_turn_is_the_wait_of_the_next_turn_when_everyone_passes(b):
    """RB Character Panel: "how many ticks until they get another turn"; with passes
    only (the TSB assumption) it is exact."""
    b = {**b, "plans": [(0, pick, 0) for _plan, pick, _s in b["plans"]], "defeats": []}
    clock = make_clock(b)
    play(clock, {**b, "plans": b["plans"][: len(b["plans"]) // 2]})
    if clock.current is None and any(clock.active):
        waits = [clock.ticks_until_turn(i) for i in range(len(clock.ip))]
        first = {p.actor: p.tick - clock.tick for p in reversed(clock.predict(8 * len(clock.ip)))}
        for i, wait in enumerate(waits):
            if i in first:
                assert first[i] == wait


def test_ticks_to_reach():
    assert ticks_to_reach(0, 100, 1000) == 10
    assert ticks_to_reach(1, 100, 1000) == 10
    assert ticks_to_reach(901, 100, 1000) == 1
    assert ticks_to_reach(1000, 100, 1000) == 0
    assert ticks_to_reach(-250, 100, 1000) == 13


def test_one_turn_per_tick_even_with_ip_left_over():
    """B10: with ``clock.one_turn_per_tick`` a character still at 1,000 IP after its turn
    waits for the next tick; by default (false) it acts again in the same tick."""
    clock = Clock([2000, 100], [0, 1], replace(RULES.clock, one_turn_per_tick=True))
    clock.advance()
    turn = clock.begin_turn(0)
    clock.end_turn(turn)  # a pass: 1500 left
    assert clock.next_turn() is None and clock.ticks_until_turn(0) == 1
    clock.advance()
    assert (clock.tick, clock.ip[0]) == (2, 3500)
    again = Clock([2000, 100], [0, 1], RULES.clock)
    again.advance()
    again.end_turn(again.begin_turn(0))
    assert again.next_turn().candidates == (0,) and again.ticks_until_turn(0) == 0


def _passes(clock: Clock, ticks: int) -> list[tuple[int, int, int]]:
    """Every turn of the first ``ticks`` ticks as (tick, actor, IP as it began), each a pass."""
    out: list[tuple[int, int, int]] = []
    while True:
        choice = clock.next_turn()
        if choice is None:
            if clock.tick >= ticks:
                return out
            clock.advance()
            continue
        actor = choice.candidates[0]
        out.append((clock.tick, actor, clock.ip[actor]))
        clock.end_turn(clock.begin_turn(actor))


def test_initiative_1100_acts_again_within_the_tick_by_default():
    """B10 (issue 28 section 6): RB "If no character has at least 1,000 IP, then the Battle
    Clock continues advancing" -- the default rules let a character still at 1,000 IP
    after its turn act again in the same tick, in IP order with the others, so its IP
    never piles up; with ``one_turn_per_tick`` it waits and holds 7,100 IP by tick 11."""
    assert RULES.clock.one_turn_per_tick is False  # the shipped default
    turns = _passes(Clock([1100, 250], [0, 1], RULES.clock), 11)
    by_tick = {t: [(a, ip) for tt, a, ip in turns if tt == t] for t in range(1, 12)}
    assert by_tick[1] == [(0, 1100)]
    assert by_tick[2] == [(0, 1700), (0, 1200)]  # again in tick 2: 1,200 >= 1,000
    assert by_tick[4] == [(0, 1900), (0, 1400), (1, 1000)]  # 1,400 > 1,000 goes first
    assert by_tick[5] == [(0, 2000), (0, 1500), (0, 1000)]  # three turns, B far below
    assert all(ip < 1000 + 1100 for _, _, ip in turns)  # bounded
    late = Clock([1100, 250], [0, 1], replace(RULES.clock, one_turn_per_tick=True))
    _passes(late, 10)
    late.advance()
    assert late.tick == 11 and late.ip[0] == 7100


def test_a_tie_with_a_second_turn_in_the_tick_uses_the_same_rules():
    """B10 + B11: a character's second turn in a tick ties with another team's ready
    character like any other tie: the team that did not take the most recent turn goes."""
    clock = Clock([1500, 1000], [0, 1], RULES.clock, first_tie_team=1)
    clock.advance()
    order = []
    for _ in range(3):
        choice = clock.next_turn()
        order.append((choice.candidates, clock.ip[choice.candidates[0]]))
        clock.end_turn(clock.begin_turn(choice.candidates[0]))
    # 1500 first; then 1000 (A, again) against 1000 (B): A took the last turn, so B goes.
    assert order == [((0,), 1500), ((1,), 1000), ((0,), 1000)]
    assert clock.next_turn() is None


def test_the_clock_waits_for_every_ready_character():
    """RB: "The Battle Clock doesn't resume ticking until all applicable characters have
    completed their turns." """
    clock = Clock([100, 100], [0, 1], RULES.clock, first_tie_team=0)
    clock.advance()
    with pytest.raises(RuntimeError, match="have not all acted"):
        clock.advance()
    turn = clock.begin_turn(0)
    with pytest.raises(RuntimeError, match="turn has not ended"):
        clock.next_turn()
    clock.end_turn(turn)
    with pytest.raises(RuntimeError):
        clock.tick_once()


def test_defeated_characters_gain_nothing_and_take_no_turn():
    clock = Clock([100, 100], [0, 1], RULES.clock, first_tie_team=1)
    clock.remove(1)
    clock.advance()
    assert clock.next_turn().candidates == (0,) and clock.ip == [1000, 0]


def test_free_and_special_actions_and_extra_uses():
    """RB: Free Actions "have no IP cost"; "Special Actions have varying IP costs";
    "unless it has some ability or effect that says otherwise"."""
    clock = Clock([1000], [0], RULES.clock)
    clock.advance()
    turn = clock.begin_turn(0)
    assert clock.take(turn, ActionType.FREE) == 0 and clock.take(turn, ActionType.FREE) == 0
    assert clock.take(turn, ActionType.SPECIAL, 120) == 120
    with pytest.raises(ActionRefused):
        clock.take(turn, ActionType.SPECIAL, 10)
    with pytest.raises(ValueError):
        clock.take(turn, ActionType.SPECIAL)
    clock.take(turn, ActionType.MOVE)
    turn.allow_more(ActionType.MOVE)
    clock.take(turn, ActionType.MOVE)
    assert clock.ip == [1000 - 500 - 120 - 250 - 250]
    clock.end_turn(turn)
    with pytest.raises(ActionRefused, match="turn is over"):
        clock.take(turn, ActionType.ATTACK)


def test_pass_half_and_full_actions_cost_500_750_1000():
    """RB TSB: "pass (losing 500 IP), take a half action (losing 750 IP) or take a full
    action (losing 1,000 IP)"."""
    for actions, cost in (((), 500), ((ActionType.MOVE,), 750), ((ActionType.ATTACK,), 750),
                          ((ActionType.MOVE, ActionType.ATTACK), 1000)):
        clock = Clock([1000], [0], RULES.clock)
        clock.advance()
        turn = clock.begin_turn(0)
        for a in actions:
            clock.take(turn, a)
        clock.end_turn(turn)
        assert (turn.spent, clock.ip[0]) == (cost, 1000 - cost)


def test_first_tie_team_seeded_coin_comes_from_the_setup_stream():
    """B12: the coin is the setup stream's first draw; the seed decides it, both ways."""
    coins = [first_tie_team(RULES.order, Streams(seed).setup) for seed in range(40)]
    assert set(coins) == {0, 1}
    assert coins == [int(Streams(seed).setup.integers(0, 2)) for seed in range(40)]
    team_order = replace(RULES.order, first_tie="team_order")
    assert first_tie_team(team_order, np.random.default_rng(1)) == 0


def test_clock_refuses_bad_input():
    with pytest.raises(ValueError, match="Initiative must be at least 1"):
        Clock([100, 0], [0, 1], RULES.clock)
    with pytest.raises(ValueError, match="team must be 0 or 1"):
        Clock([100], [2], RULES.clock)
    with pytest.raises(ValueError, match="first_tie_team must be 0 or 1"):
        Clock([100], [1], RULES.clock, first_tie_team=None)


def test_quarter_move_never_gives_movement_to_a_character_without_move():
    """B16: "a minimum of 1" cannot move a character whose Move is 0."""
    assert [move_after_attack(m, RULES.actions) for m in (0, 1, 4, 7, 12)] == [0, 1, 1, 1, 3]


def test_next_turn_follows_ip_changes_and_defeats():
    """The cached answer of next_turn is dropped whenever IP or the active set changes."""
    clock = Clock([500, 400, 100], [0, 1, 1], RULES.clock, first_tie_team=0)
    clock.advance()
    assert clock.next_turn().candidates == (0,)
    clock.adjust_ip(1, 300)  # an effect grants IP: 1100 beats 1000
    assert clock.next_turn() == (1, (1,), "highest IP")
    clock.remove(1)
    assert clock.next_turn().candidates == (0,)
    clock.adjust_ip(0, -1)
    assert clock.next_turn() is None
