"""Bounded batches (issue 22 item 6): ``--battles`` and ``--workers`` refused beyond
their bounds in one line (exit 2) before anything is played or allocated, and a
report tallied record by record (memory flat in the number of battles) that
equals the report of the whole list, to the last bit."""

from __future__ import annotations

import json
import math
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sodwa_editor.battle.batch import MAX_BATTLES, run_batch, stream_batch
from sodwa_editor.battle.jsonfiles import BattleInputError
from sodwa_editor.battle.report import RunningSum, Tally, Values, spread, summarize
from sodwa_editor.battle.setup import BattleSetup
from sodwa_editor.cli import main
from sodwa_editor.cli_simulate import MAX_FORCED_WORKERS
from sodwa_editor.engine.generate import make_mixed_map

COMPOUND = Path(__file__).resolve().parents[1] / "maps" / "indoor-compound.json"
CORES = len(os.sched_getaffinity(0))


@pytest.fixture
def workers_seen(monkeypatch):
    """The worker count ``simulate`` would play with (the batch itself is skipped)."""
    import sodwa_editor.battle.batch as batch

    seen: list[int] = []

    def fake(setup, n, on_record, **kw):
        seen.append(kw["workers"])

    monkeypatch.setattr(batch, "stream_batch", fake)
    return seen


@pytest.mark.parametrize(("argv", "says"), [
    (["--battles", str(MAX_BATTLES + 1)],
     f"--battles {MAX_BATTLES + 1}: at most 1,000,000 battles per map"),
    (["--battles", str(10**18)], "--battles 1000000000000000000: at most 1,000,000"),
    (["--battles", "1" + "0" * 4000], "--battles 100000000000... (4001 digits): at most"),
    (["--battles", "100", "--workers", str(CORES + 1)],
     f"--workers {CORES + 1}: this process may use {CORES} core(s); give at most that many, "
     "or add --oversubscribe"),
    (["--battles", "100", "--workers", str(MAX_FORCED_WORKERS + 1), "--oversubscribe"],
     f"--workers {MAX_FORCED_WORKERS + 1}: at most {MAX_FORCED_WORKERS} worker processes, "
     "even with --oversubscribe"),
    (["--battles", "100", "--workers", "1000"], "--workers 1000: this process may use"),
])
def test_simulate_refuses_too_many_battles_or_workers_in_one_line(capsys, workers_seen, argv,
                                                                  says):
    started = time.monotonic()
    code = main(["simulate", str(COMPOUND), *argv])
    out, err = capsys.readouterr()
    assert time.monotonic() - started < 10  # (10**18 battles took 3 GB in 12 s before)
    assert code == 2 and out == "" and workers_seen == []
    assert err.count("\n") == 1 and err.startswith("sodwa simulate: error: ") and says in err, err


def test_simulate_takes_the_bounds_themselves(capsys, workers_seen):
    assert main(["simulate", str(COMPOUND), "--battles", str(MAX_BATTLES),
                 "--workers", str(CORES)]) == 0
    assert main(["simulate", str(COMPOUND), "--battles", "100", "--workers",
                 str(CORES + 1), "--oversubscribe"]) == 0
    assert workers_seen == [CORES, CORES + 1]


def test_a_batch_itself_refuses_more_than_the_maximum():
    setup = BattleSetup.from_map(make_mixed_map(12, seed=4), ai=("random", "random"))
    with pytest.raises(BattleInputError, match="a batch plays 0 to 1,000,000 battles"):
        run_batch(setup, MAX_BATTLES + 1)


def test_the_bounds_are_refused_without_a_traceback_in_a_real_process():
    """The whole command, as a user runs it: one line, exit 2, at once."""
    out = subprocess.run([sys.executable, "-m", "sodwa_editor.cli", "simulate", str(COMPOUND),
                          "--battles", str(10**9)], capture_output=True, text=True, timeout=120)
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr == ("sodwa simulate: error: --battles 1000000000: at most 1,000,000 "
                          "battles per map (split a larger batch into several with other "
                          "--seed values)\n")


# ------------------------------------------------------------------ the streamed report
@settings(max_examples=300, deadline=None)
@given(st.lists(st.floats(min_value=0, max_value=1e6, allow_nan=False)
                | st.floats(allow_nan=False, allow_infinity=False, width=32)
                .map(lambda x: round(x, 6)), max_size=60))
def test_a_running_sum_adds_as_sum_does(values):
    """The report's luck sums floats with ``sum()`` (compensated from Python 3.12):
    summing them one at a time must give the very same float (and ``0`` for none)."""
    running = RunningSum()
    for v in values:
        running.add(v)
    total = running.value()
    expected = sum(v for v in values)
    assert repr(total) == repr(expected)
    assert type(total) is type(expected)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=10**6), max_size=80))
def test_counted_values_spread_as_the_list_does(values):
    counted = Values()
    for v in values:
        counted.add(v)
    assert json.dumps(counted.spread()) == json.dumps(spread(values))
    if values:
        assert counted.spread()["mean"] == round(statistics.fmean(values), 6)
        assert counted.value_counts() == sorted([v, values.count(v)] for v in set(values))
    assert math.isfinite(counted.spread()["mean"])


@pytest.mark.parametrize("ai", [("random", "random"), ("pass", "random"), ("pass", "pass")])
def test_a_streamed_report_is_the_report_of_the_list(ai):
    setup = BattleSetup.from_map(make_mixed_map(12, seed=4), ai=ai)
    records = run_batch(setup, 9, seed=3, swap_sides=True)
    tally = Tally(setup, seed=3, swap_sides=True)
    stream_batch(setup, 9, tally.add, seed=3, swap_sides=True)
    assert json.dumps(tally.report()) == json.dumps(summarize(setup, records, seed=3,
                                                              swap_sides=True))
    empty = Tally(setup, seed=3, swap_sides=True).report()
    assert empty["battles"] == 0 and empty["luck"][0]["expected_hits"] == 0


def test_the_help_states_the_bounds_the_batch_enforces():
    import argparse

    from sodwa_editor.cli import build_parser

    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    helps = {opt: a.help for a in sub.choices["simulate"]._actions for opt in a.option_strings}
    assert f"at most {MAX_BATTLES:,}" in helps["--battles"]
    assert f"up to {MAX_FORCED_WORKERS}" in helps["--oversubscribe"]


def test_simulate_keeps_memory_flat_in_the_number_of_battles(monkeypatch, capsys):
    """``sodwa simulate`` tallies each record into the report as it arrives (issue 22
    item 6: it kept every record, so memory grew with --battles).  The battles here
    are one real record copied (a fresh object each time, its length varied), so
    only the batch's own bookkeeping is measured: 8,000 battles need about as
    much memory as 1,000 (0.9 MB against 0.6 MB at the peak; with the list of
    records, 32 MB against 4 MB)."""
    import tracemalloc

    import sodwa_editor.battle.batch as batch

    real_play = batch.play
    template: list[dict] = []

    def fake_play(setup, root, index, swap_sides):
        if not template:
            template.append(real_play(setup, root, 0, swap_sides))
        t = template[0]
        return {**t, "index": index, "turns": index % 97, "ticks": index % 89,
                "chars": [row[:] for row in t["chars"]], "karma": [k[:] for k in t["karma"]],
                "tiles": {kind: [c[:] for c in counts] for kind, counts in t["tiles"].items()}}

    monkeypatch.setattr(batch, "play", fake_play)
    argv = ["simulate", str(COMPOUND), "--ai", "random,random", "--workers", "1", "--json"]
    assert main([*argv, "--battles", "1"]) == 0  # (the real battle: compiled code loaded)
    capsys.readouterr()
    peaks = []
    for battles in (1_000, 8_000):
        tracemalloc.start()
        try:
            assert main([*argv, "--battles", str(battles)]) == 0
            peaks.append(tracemalloc.get_traced_memory()[1])
        finally:
            tracemalloc.stop()
        assert json.loads(capsys.readouterr().out)["maps"][0]["battles"] == battles
    assert peaks[1] - peaks[0] < 2_000_000, peaks  # (a chunk's records at most)
