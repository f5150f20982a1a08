"""Batches under faults (issue 22 items 1 and 9): a worker process killed with
SIGKILL costs only its chunk, played again, and the report is byte-identical to an
undisturbed run's; too many lost workers stop the batch in one line (the editor's
Balance Run under the same faults: tests/test_editor_balance.py); SIGTERM ends
``sodwa simulate`` as cleanly as Ctrl+C.  The kills are real signals to real
worker processes."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sodwa_editor.battle.batch import BatchFailed, run_batch
from sodwa_editor.battle.setup import BattleSetup
from sodwa_editor.engine.generate import make_mixed_map

COMPOUND = Path(__file__).resolve().parents[1] / "maps" / "indoor-compound.json"
TICKS = os.sysconf("SC_CLK_TCK")


def children(pid: int) -> list[int]:
    """The live child processes of ``pid`` (from /proc)."""
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            fields = stat[stat.rindex(")") + 2:].split()
            if int(fields[1]) == pid and fields[0] != "Z":
                out.append(int(entry))
    return out


def cpu_seconds(pid: int) -> float:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return 0.0
    fields = stat[stat.rindex(")") + 2:].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def busy_worker(parent: subprocess.Popen, cpu: float, timeout: float = 240.0) -> int:
    """A worker of ``parent`` that has used ``cpu`` seconds (it has loaded the engine
    and is playing a chunk: a real worker, whatever the machine's load)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        assert parent.poll() is None, "the batch ended before a worker could be killed"
        for pid in children(parent.pid):
            if cpu_seconds(pid) >= cpu:
                return pid
        time.sleep(0.1)
    raise AssertionError("no worker got busy")


def simulate(*extra: str) -> list[str]:
    return [sys.executable, "-m", "sodwa_editor.cli", "simulate", str(COMPOUND),
            "--battles", "120", "--workers", "2", "--seed", "3", "--json", *extra]


def test_a_killed_worker_costs_its_chunk_only_and_the_report_is_identical():
    """``kill -9`` of a worker mid-batch (issue 22 item 1: this hung forever with a
    multiprocessing.Pool): a new worker plays the lost chunk again, the batch ends,
    and its --json report is byte for byte the undisturbed run's."""
    clean = subprocess.run(simulate(), capture_output=True, timeout=600)
    assert clean.returncode == 0, clean.stderr
    started = time.monotonic()
    proc = subprocess.Popen(simulate(), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        victim = busy_worker(proc, cpu=1.5)
        os.kill(victim, signal.SIGKILL)
        out, err = proc.communicate(timeout=600)
    finally:
        proc.kill()
    took = time.monotonic() - started
    assert proc.returncode == 0, err
    assert out == clean.stdout
    notes = err.decode().splitlines()
    assert len(notes) == 1 and "a worker process was killed by SIGKILL while playing battles" \
        in notes[0] and "a new worker plays them again" in notes[0], err
    assert took < 600


def test_a_batch_that_loses_too_many_workers_stops_in_one_line(monkeypatch):
    """Past ``LOST_WORKERS_MAX`` lost workers the batch stops (BatchFailed), and no
    worker outlives it.  Here every worker is killed as soon as it shows up."""
    import multiprocessing

    import sodwa_editor.battle.batch_pool as batch_pool

    monkeypatch.setattr(batch_pool, "LOST_WORKERS_MAX", 1)
    setup = BattleSetup.from_map(make_mixed_map(12, seed=4), ai=("random", "random"))
    killed: set[int] = set()
    real_start = batch_pool.Pool.start_workers

    def start_and_kill(self, count=1):
        real_start(self, count)
        for w in self.workers:
            if w.process.pid not in killed:
                killed.add(w.process.pid)
                os.kill(w.process.pid, signal.SIGKILL)

    monkeypatch.setattr(batch_pool.Pool, "start_workers", start_and_kill)
    with pytest.raises(BatchFailed) as info:
        run_batch(setup, 6, seed=1, workers=2, chunk_size=1)
    message = str(info.value)
    assert "\n" not in message and "was killed by SIGKILL" in message
    assert "2 workers lost, more than the 1 a batch survives" in message
    assert not multiprocessing.active_children()


def test_simulate_says_a_failed_batch_in_one_line_exit_69(capsys, monkeypatch):
    import sodwa_editor.battle.batch as batch
    from sodwa_editor.cli import main

    def failing(*args, **kw):
        raise BatchFailed("a worker process was killed by SIGKILL while playing battles 0-9; "
                          "4 workers lost, more than the 3 a batch survives: stopped")

    monkeypatch.setattr(batch, "stream_batch", failing)
    code = main(["simulate", str(COMPOUND), "--battles", "2"])
    err = capsys.readouterr().err
    assert code == 69
    assert err == (f"sodwa simulate: error: {COMPOUND}: a worker process was killed by SIGKILL "
                   "while playing battles 0-9; 4 workers lost, more than the 3 a batch "
                   "survives: stopped\n")


def test_sigterm_ends_simulate_like_ctrl_c_exit_143():
    """SIGTERM (issue 22 item 9: four BrokenPipeError tracebacks from the workers and
    a leaked-semaphore warning): exit 143, nothing on stderr, no worker left."""
    proc = subprocess.Popen(simulate(), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        busy_worker(proc, cpu=1.0)
        workers = children(proc.pid)
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 143, err
    assert err == b"" and out == b""
    assert gone(workers)


def gone(pids: list[int], timeout: float = 30.0) -> bool:
    """True once none of ``pids`` is alive (a zombie counts as gone)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        alive = []
        for pid in pids:
            try:
                stat = Path(f"/proc/{pid}/stat").read_text()
            except OSError:
                continue
            if stat[stat.rindex(")") + 2:].split()[0] != "Z":
                alive.append(pid)
        if not alive:
            return True
        time.sleep(0.1)
    return False


def test_a_killed_parent_leaves_no_worker_behind():
    """``kill -9`` of ``sodwa simulate`` itself: its workers notice the closed pipe and
    leave without a word once their chunk is played (no orphan keeps playing)."""
    proc = subprocess.Popen(simulate("--battles", "24"), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    busy_worker(proc, cpu=1.0)
    workers = children(proc.pid)
    proc.kill()
    proc.communicate(timeout=60)
    assert gone(workers, timeout=120)


def test_records_reach_the_caller_in_index_order_whatever_order_chunks_end():
    from sodwa_editor.battle.batch import InOrder

    seen: list[int] = []
    progress: list[tuple[int, int]] = []
    order = InOrder(6, lambda r: seen.append(r["index"]), lambda d, t: progress.append((d, t)))
    order.deliver(4, [{"index": 4}, {"index": 5}])
    order.deliver(2, [{"index": 2}, {"index": 3}])
    assert seen == []
    order.deliver(0, [{"index": 0}, {"index": 1}])
    assert seen == [0, 1, 2, 3, 4, 5]
    assert progress == [(2, 6), (4, 6), (6, 6)]


def test_json_report_of_a_streamed_batch_equals_the_list_one():
    from sodwa_editor.battle.batch import stream_batch
    from sodwa_editor.battle.report import Tally, summarize

    setup = BattleSetup.from_map(make_mixed_map(12, seed=4), ai=("random", "random"))
    tally = Tally(setup, seed=2, swap_sides=True)
    stream_batch(setup, 9, tally.add, seed=2, swap_sides=True, workers=2, chunk_size=2)
    records = run_batch(setup, 9, seed=2, swap_sides=True)
    assert json.dumps(tally.report()) == json.dumps(summarize(setup, records, seed=2,
                                                              swap_sides=True))


def test_an_interrupt_inside_compiled_code_is_still_an_interrupt():
    """Ctrl+C or SIGTERM while a numba function runs reaches Python as a chain of
    SystemErrors ("returned a result with an exception set") caused by the
    KeyboardInterrupt; simulate ended with that traceback and exit 1 about every
    third Ctrl+C of a batch played in its own process."""
    from sodwa_editor.cli_simulate import interrupted

    def chained(depth: int) -> BaseException:
        exc: BaseException = KeyboardInterrupt()
        for _ in range(depth):
            wrapper = SystemError("returned a result with an exception set")
            wrapper.__cause__ = exc
            exc = wrapper
        return exc

    assert interrupted(chained(0)) and interrupted(chained(1)) and interrupted(chained(12))
    assert not interrupted(SystemError("a real one"))
    assert not interrupted(ValueError("x"))


@pytest.mark.parametrize("signum", ["SIGINT", "SIGTERM"])
def test_a_batch_played_in_process_ends_cleanly_on_a_signal(signum):
    """One worker (battles in the command's own process): the signal at four moments
    around the first battle, while its compiled functions load (where an interrupt
    became a SystemError traceback: here 1 run in 10 at 2.0 s of CPU), each time the
    exit code and nothing on stderr."""
    expected = {"SIGINT": 130, "SIGTERM": 143}[signum]
    for cpu in (1.9, 2.0, 2.1, 2.4):
        proc = subprocess.Popen(simulate("--workers", "1"), stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE)
        try:
            end = time.monotonic() + 240
            while cpu_seconds(proc.pid) < cpu and time.monotonic() < end:
                assert proc.poll() is None
                time.sleep(0.05)
            proc.send_signal(getattr(signal, signum))
            out, err = proc.communicate(timeout=60)
        finally:
            proc.kill()
        assert (proc.returncode, err) == (expected, b""), err.decode()[-2000:]


#: A batch on a map whose setup is larger than a pipe's buffer (64 KiB), of two
#: characters side by side (a battle takes a moment), its records' count printed.
LARGE_SETUP_BATCH = """
import pickle
from sodwa_editor.battle.batch import run_batch
from sodwa_editor.battle.setup import BattleSetup
from sodwa_editor.engine.model import Character, MapModel

m = MapModel(128, 128)
m.characters["a"] = Character("a", "blue", 60, 60)
m.characters["b"] = Character("b", "red", 61, 60)
setup = BattleSetup.from_map(m, ai=("random", "random"))
assert len(pickle.dumps(setup)) > 65536
print(len(run_batch(setup, 4, seed=1, workers=2, chunk_size=1)))
"""


def test_a_worker_killed_while_it_starts_is_replaced_even_with_a_large_setup():
    """A worker killed during its first second (importing the engine), before it has
    read the setup: multiprocessing wrote a setup passed as the process's argument
    into a pipe whose reading end it kept open itself, so with a setup larger than
    the pipe's buffer the batch waited forever for a write no one would read."""
    proc = subprocess.Popen([sys.executable, "-c", LARGE_SETUP_BATCH],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        end = time.monotonic() + 120
        victim = None
        while victim is None and time.monotonic() < end:
            assert proc.poll() is None, proc.communicate()
            for pid in children(proc.pid):
                with contextlib.suppress(OSError):
                    if b"spawn_main" in Path(f"/proc/{pid}/cmdline").read_bytes():
                        victim = pid
                        break
            time.sleep(0.01)
        assert victim is not None and cpu_seconds(victim) < 0.5  # (still importing)
        os.kill(victim, signal.SIGKILL)
        out, err = proc.communicate(timeout=180)
    finally:
        proc.kill()
    assert proc.returncode == 0, err.decode()[-2000:]
    assert out == b"4\n"


def test_a_stopped_worker_is_killed_and_its_chunk_played_again(monkeypatch):
    """A worker stopped with SIGSTOP while it holds a chunk held the batch forever:
    after ``STOPPED_GRACE`` seconds stopped it is killed and lost like a dead worker,
    a new worker plays its chunk again, and the records are the undisturbed batch's."""
    import multiprocessing

    import sodwa_editor.battle.batch_pool as batch_pool

    setup = BattleSetup.from_map(make_mixed_map(12, seed=4), ai=("random", "random"))
    clean = run_batch(setup, 6, seed=1, workers=2, chunk_size=1)
    monkeypatch.setattr(batch_pool, "STOPPED_GRACE", 1.0)
    stopped: list[int] = []
    real_start = batch_pool.Pool.start_workers

    def start_and_stop(self, count=1):
        real_start(self, count)
        if not stopped:  # the first worker, holding its first chunk
            stopped.append(self.workers[0].process.pid)
            os.kill(stopped[0], signal.SIGSTOP)

    monkeypatch.setattr(batch_pool.Pool, "start_workers", start_and_stop)
    notes: list[str] = []
    started = time.monotonic()
    records = run_batch(setup, 6, seed=1, workers=2, chunk_size=1, notice=notes.append)
    assert time.monotonic() - started < 120
    assert records == clean
    assert len(notes) == 1 and "a worker process was stopped for " in notes[0] \
        and "a new worker plays it again" in notes[0], notes
    assert batch_pool.process_state(stopped[0]) in ("", "Z")  # killed, not left stopped
    assert not multiprocessing.active_children()


def test_a_resumed_job_loses_no_worker(monkeypatch):
    """Counting restarts when the parent itself was suspended (Ctrl+Z of the whole
    job): a gap in its watch longer than ``WATCH_RESET`` forgets the stopped time."""
    import sodwa_editor.battle.batch_pool as batch_pool

    pool = batch_pool.Pool(BattleSetup.from_map(make_mixed_map(12, seed=1)), 1, False,
                           [(0, 1)], None)
    proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        os.kill(proc.pid, signal.SIGSTOP)
        end = time.monotonic() + 30  # (a signal is delivered when the process next runs)
        while batch_pool.process_state(proc.pid) != "T" and time.monotonic() < end:
            time.sleep(0.01)
        assert batch_pool.process_state(proc.pid) == "T"
        fake = type("P", (), {"pid": proc.pid})()
        worker = batch_pool.Worker(fake, None, chunk=(0, 1), stopped_since=0.0)  # type: ignore[arg-type]
        pool.workers.append(worker)
        monkeypatch.setattr(batch_pool, "STOPPED_GRACE", 0.0)
        pool.watched = time.monotonic() - 2 * batch_pool.WATCH_RESET  # the parent slept
        pool.watch_stopped()
        assert worker in pool.workers and worker.stopped_since is not None  # counting again
        assert pool.lost == 0
    finally:
        proc.kill()
        proc.wait()
