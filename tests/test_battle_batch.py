"""Batches of battles and the balance report (issue 11 section 5): seeds by index,
the same result for any worker count and backend, report figures that add up,
``sodwa simulate`` and its HTML report."""

from __future__ import annotations

import base64
import json
import os
import sys
from pathlib import Path

import numpy as np
import pytest

from sodwa_editor.battle.batch import battle_seed, chunks, play, run_batch, setup_seed
from sodwa_editor.battle.report import format_summary, summarize, wilson
from sodwa_editor.battle.setup import BattleSetup
from sodwa_editor.cli import main
from sodwa_editor.engine.generate import make_mixed_map

MAPS = Path(__file__).resolve().parents[1] / "maps"
COMPOUND = MAPS / "indoor-compound.json"


@pytest.fixture(scope="module")
def setup():
    return BattleSetup.from_map(make_mixed_map(12, seed=4), ai=("random", "random"))


def test_battle_seeds_are_the_spawned_children_of_the_root_seed():
    children = np.random.SeedSequence(9).spawn(5)
    for i in range(5):
        assert battle_seed(9, i, False).generate_state(4).tolist() == \
            children[i].generate_state(4).tolist()
    # with swapped sides a pair of battles shares its dice
    assert battle_seed(9, 6, True).spawn_key == battle_seed(9, 7, True).spawn_key == (3,)


@pytest.mark.parametrize(("battles", "workers"), [(1, 1), (7, 2), (1000, 2), (10000, 2)])
def test_chunks_cover_every_battle_once_in_order(battles, workers):
    parts = chunks(battles, workers)
    assert [i for a, b in parts for i in range(a, b)] == list(range(battles))
    assert all(1 <= b - a <= 200 for a, b in parts)
    assert len(parts) >= min(battles, 2 * workers)


def test_workers_1_and_2_give_identical_records_and_report(setup):
    one = run_batch(setup, 6, seed=3, swap_sides=True, workers=1)
    two = run_batch(setup, 6, seed=3, swap_sides=True, workers=2)
    assert one == two
    assert [r["index"] for r in two] == list(range(6))
    assert summarize(setup, one, seed=3, swap_sides=True) == \
        summarize(setup, two, seed=3, swap_sides=True)
    assert run_batch(setup, 6, seed=4, workers=1) != one  # the seed matters


def test_a_record_adds_up(setup):
    for i in range(4):
        r = play(setup, 5, i, False)
        dealt = sum(c[0] for c in r["chars"])
        taken = sum(c[1] for c in r["chars"])
        kills = sum(c[2] for c in r["chars"])
        survivors = sum(c[3] for c in r["chars"])
        assert dealt == taken
        assert kills == len(r["chars"]) - survivors
        assert all(c[5] <= c[4] and 0 <= c[6] <= c[4] for c in r["chars"])
        if r["winner"] is not None:
            loser = 1 - r["winner"]
            assert not any(c[3] for c, t in zip(r["chars"], (f.team for f in
                           setup.state(0).fighters), strict=True) if t == loser)


def test_report_credits_wins_to_the_ai_that_played_the_side():
    pass_vs_random = BattleSetup.from_map(make_mixed_map(12, seed=4), ai=("pass", "random"))
    recs = run_batch(pass_vs_random, 6, seed=1, swap_sides=True)
    rep = summarize(pass_vs_random, recs, seed=1, swap_sides=True)
    decided = 6 - rep["draws"]["count"]
    assert decided > 0
    # the pass AI never attacks, so every decided battle is a win of the random AI,
    # on whichever side it played
    assert [e["wins"]["count"] for e in rep["entries"]] == [0, decided]
    assert [e["label"] for e in rep["entries"]] == ["AI pass", "AI random"]
    assert sum(s["wins"]["count"] for s in rep["sides"]) == decided


def test_wilson_interval_known_values():
    lo, hi = wilson(0, 10)
    assert lo == 0.0 and hi == pytest.approx(0.27753, abs=1e-5)
    lo, hi = wilson(81, 263)  # Wilson (1927) style textbook example
    assert (lo, hi) == pytest.approx((0.2553, 0.3662), abs=1e-4)
    assert wilson(10, 10)[1] == 1.0


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def test_simulate_json_and_html_report(tmp_path, capsys):
    html_path = tmp_path / "report.html"
    code, out, err = run(capsys, "simulate", COMPOUND, "--battles", "4", "--swap-sides",
                         "--seed", "2", "--json", "--report", html_path)
    assert code == 0, err
    assert err == ""  # no progress bar when stderr is not a terminal
    rep = json.loads(out)["maps"][0]
    assert rep["battles"] == 4 and rep["map"] == str(COMPOUND)
    assert [s["side"] for s in rep["sides"]] == ["blue", "red"]
    total = sum(s["wins"]["count"] for s in rep["sides"]) + rep["draws"]["count"]
    assert total == 4
    assert {c["id"] for c in rep["characters"]} == {"archer", "knight", "mage", "brute",
                                                    "rogue", "sniper"}
    page = html_path.read_text()
    images = page.split("src='data:image/png;base64,")[1:]
    assert len(images) == 5 and "<svg" not in page
    assert base64.b64decode(images[0].split("'")[0])[:8] == b"\x89PNG\r\n\x1a\n"
    code, text, _ = run(capsys, "simulate", COMPOUND, "--battles", "2")
    assert code == 0 and "wins" in text and "first mover" in text


@pytest.mark.parametrize("argv", [["--battles", "0"], ["--battles", "x"], ["--workers", "0"],
                                  ["--backend", "threads"]])
def test_simulate_bad_command_line(capsys, argv):
    with pytest.raises(SystemExit) as info:
        main(["simulate", str(COMPOUND), "--battles", "2", *argv])
    assert info.value.code == 2


def test_simulate_ray_backend_without_ray_says_how_to_install(capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray -> ImportError
    code, _, err = run(capsys, "simulate", COMPOUND, "--battles", "2", "--backend", "ray")
    assert code == 1 and err.count("\n") == 1
    assert "pip install sodwa-editor[cluster]" in err


@pytest.mark.skipif(not os.environ.get("SODWA_TEST_RAY"),
                    reason="opt-in: SODWA_TEST_RAY=1 with Ray installed (README, Battles)")
def test_ray_backend_gives_the_process_backend_result(setup):
    pytest.importorskip("ray")
    local = run_batch(setup, 12, seed=5, swap_sides=True, workers=2)
    on_ray = run_batch(setup, 12, seed=5, swap_sides=True, workers=2, backend="ray")
    assert on_ray == local


def test_progress_reaches_the_total_and_the_bar_draws_it(setup, capsys):
    from sodwa_editor.cli_simulate import ProgressBar

    seen: list[tuple[int, int]] = []
    run_batch(setup, 5, seed=1, progress=lambda done, total: seen.append((done, total)))
    assert seen[-1] == (5, 5) and [d for d, _ in seen] == sorted(d for d, _ in seen)
    bar = ProgressBar("m.json")
    bar(3, 10)
    bar(10, 10)
    err = capsys.readouterr().err
    assert err.startswith("\rm.json [#########.....................] 3/10 battles\r")
    assert err.endswith("[##############################] 10/10 battles\n")


def test_simulate_interrupted_exits_130_without_a_traceback(tmp_path):
    import signal
    import subprocess
    import time

    proc = subprocess.Popen([sys.executable, "-m", "sodwa_editor.cli", "simulate", str(COMPOUND),
                             "--battles", "100000", "--workers", "2"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    time.sleep(6)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert b"Traceback" not in err


# ------------------------------------------------------------ per-tile counts (heat map)
def test_attack_tiles_are_the_attackers_tiles_when_they_attack(setup):
    """The record follows each attacker through its Moved events; the oracle reads
    the attacker's tile off the state just before every Attack action."""
    from collections import Counter

    from sodwa_editor.battle.actions import Attack
    from sodwa_editor.battle.batch import is_swapped
    from sodwa_editor.battle.loop import run_battle

    for i in range(3):
        swapped = is_swapped(i, True)
        state = setup.state(setup_seed(setup, 7, i, True), swapped)
        seen: Counter = Counter()

        def before(s, action, seen=seen):
            if isinstance(action, Attack):
                seen[tuple(s.pos[s.turn.actor])] += 1

        out = run_battle(state, setup.controllers(state, swapped), before_action=before)
        rec = play(setup, 7, i, True)
        assert {(x, y): n for x, y, n in rec["tiles"]["attacked_from"]} == dict(seen)
        assert sum(seen.values()) == sum(c[4] for c in rec["chars"]) > 0
        defeats = Counter(tuple(e.tile) for e in out.events if e.kind == "defeated")
        assert {(x, y): n for x, y, n in rec["tiles"]["defeated"]} == dict(defeats)
        assert sum(defeats.values()) == sum(c[2] for c in rec["chars"])


def test_tile_counts_are_the_same_for_any_worker_count_chunking_and_pool(setup):
    one = run_batch(setup, 5, seed=2, swap_sides=True, workers=1)
    for kw in ({"workers": 2}, {"workers": 1, "pool": True}, {"workers": 2, "chunk_size": 1}):
        other = run_batch(setup, 5, seed=2, swap_sides=True, **kw)
        assert [r["tiles"] for r in other] == [r["tiles"] for r in one]
        assert other == one
    rep = summarize(setup, one, seed=2, swap_sides=True)
    tiles = rep["tiles"]
    assert (tiles["width"], tiles["height"]) == (12, 12)
    assert sum(n for _x, _y, n in tiles["attacked_from"]) == \
        sum(c[4] for r in one for c in r["chars"])
    assert sum(n for _x, _y, n in tiles["defeated"]) == \
        sum(c[2] for r in one for c in r["chars"])
    keys = [(y, x) for x, y, _n in tiles["attacked_from"]]
    assert keys == sorted(keys) and len(set(keys)) == len(keys)


def test_cancel_stops_a_batch_in_process_and_on_a_pool(setup):
    import multiprocessing

    from sodwa_editor.battle.batch import BatchCancelled

    played: list[int] = []
    with pytest.raises(BatchCancelled):
        run_batch(setup, 50, seed=1, progress=lambda d, t: played.append(d),
                  cancel=lambda: len(played) >= 2, chunk_size=1)
    assert played == [1, 2]
    calls = []

    def cancel() -> bool:
        calls.append(multiprocessing.active_children())
        return len(calls) > 3

    with pytest.raises(BatchCancelled):
        run_batch(setup, 50, seed=1, workers=2, cancel=cancel, chunk_size=1)
    workers = {p.pid for kids in calls for p in kids}
    assert workers  # the pool was running when it was cancelled ...
    assert not multiprocessing.active_children()  # ... and no worker outlives it
    for pid in workers:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)


def test_swapping_sides_that_changes_nothing_does_not_repeat_battles():
    """``--swap-sides`` pairs battles 2k and 2k+1 on one seed with the AIs swapped; when
    the same AI and profile play both teams from the map's placed characters, the
    swapped battle was the same battle again (every battle counted twice): each
    battle then has its own seed, and the report says why."""
    same = BattleSetup.from_map(make_mixed_map(12, seed=4), ai=("greedy", "greedy"))
    assert same.swap_repeats() is not None
    recs = run_batch(same, 6, seed=2, swap_sides=True)
    keys = [json.dumps({k: r[k] for k in ("winner", "turns", "ticks", "chars")}) for r in recs]
    assert len(set(keys)) == len(keys)
    assert [r["swapped"] for r in recs] == [False, True] * 3
    rep = summarize(same, recs, seed=2, swap_sides=True)
    assert rep["swap"]["requested"] and not rep["swap"]["done"]
    assert "would repeat its pair" in rep["swap"]["reason"]
    assert "each battle has its own seed" in format_summary(rep)
    # different AIs: a swap changes the battle, and the pair shares its dice
    mixed = BattleSetup.from_map(make_mixed_map(12, seed=4), ai=("greedy", "random"))
    assert mixed.swap_repeats() is None
    assert setup_seed(mixed, 2, 4, True).spawn_key == setup_seed(mixed, 2, 5, True).spawn_key
    assert summarize(mixed, run_batch(mixed, 2, seed=2, swap_sides=True), seed=2,
                     swap_sides=True)["swap"]["done"]


@pytest.mark.parametrize(("battles", "given", "expected"),
                         [(4, None, 1), (49, None, 1), (50, None, "cores"), (1000, None, "cores"),
                          (1000, "1", 1), (4, "cores", "cores")])
def test_simulate_uses_every_core_by_default_for_a_large_batch(capsys, monkeypatch, battles,
                                                               given, expected):
    """Without ``--workers`` a batch of 50 or more battles gets one worker per core the
    process may use; a smaller one plays in the process (a pool's start costs more);
    ``--workers`` always wins."""
    import sodwa_editor.battle.batch as batch

    seen = []

    def fake(setup, n, on_record, **kw):
        seen.append(kw["workers"])
        raise SystemExit(0)  # the count is all this test needs

    monkeypatch.setattr(batch, "stream_batch", fake)
    cores = len(os.sched_getaffinity(0))
    argv = ["simulate", str(COMPOUND), "--battles", str(battles)]
    with pytest.raises(SystemExit):
        main(argv + (["--workers", str(cores) if given == "cores" else given] if given else []))
    assert seen == [cores if expected == "cores" else expected]


def test_a_worker_process_freezes_what_it_keeps_after_its_first_battle_only():
    """A batch worker (a process that plays nothing else) collects and freezes the
    objects it holds after its first battle, so later full collections skip them;
    the records are those of the plain path, and a process that is not a worker
    (the CLI with one worker, the editor, a test) is never frozen."""
    import subprocess

    code = (
        "import gc, json\n"
        "from sodwa_editor.battle.batch import play_chunk\n"
        "from sodwa_editor.battle.setup import BattleSetup\n"
        "from sodwa_editor.engine.generate import make_mixed_map\n"
        "setup = BattleSetup.from_map(make_mixed_map(12, seed=4), ai=('random', 'random'))\n"
        "plain = play_chunk(setup, 3, 0, 3, False)\n"
        "before = gc.get_freeze_count()\n"
        "worker = play_chunk(setup, 3, 0, 3, False, worker=True)\n"
        "print(json.dumps([before, gc.get_freeze_count(), plain == worker]))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=300, check=True)
    before, after, same = json.loads(out.stdout)
    assert before == 0 and after > 10_000 and same
