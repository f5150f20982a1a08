"""``sodwa bench``: every LoS fan metric is timed quiet and with one busy
background process, beside the tcod reference timed the same way."""

from __future__ import annotations

import importlib.util
import time
from pathlib import Path

import pytest

from sodwa_editor import benchmarks as b

BENCH = Path(__file__).resolve().parent.parent / "bench"


def test_each_fan_metric_has_a_busy_twin_with_its_busy_reference():
    names = [m.name for m in b._fan_metrics(b.METRICS + b.REFERENCES)]
    fans = [m for m in b.METRICS if m.name.startswith("los_fan_")]
    assert fans
    for m in fans:
        twin = names[names.index(m.name) + 1]
        assert twin == m.name.replace("_ms", "_busy_ms")
        busy = next(x for x in b._fan_metrics(b.METRICS) if x.name == twin)
        assert busy.busy and busy.reference == m.reference.replace("_ms", "_busy_ms")
        assert busy.reference in names  # the tcod reference is timed busy too
    assert "los_single_busy_us" not in names  # only the fans


def test_busy_process_spins_during_the_block_and_is_gone_after():
    with b.busy_process() as proc:
        assert proc.poll() is None
        deadline = time.monotonic() + 5
        while _cpu_ticks(proc.pid) < 5 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert _cpu_ticks(proc.pid) >= 5  # it spins on a core
    assert proc.poll() is not None  # stopped (and reaped) after the block


def _cpu_ticks(pid: int) -> int:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])  # utime + stime


def test_a_busy_metric_is_timed_and_reported(capsys):
    small = b.Metric("los_fan_16_open_ms", "fan 16x16", 16, 3,
                     b._fan(lambda: b._open(16)))
    twin = b.busy_twin(small)
    results = [b._time(small, 3), b._time(twin, 3)]
    assert [r.name for r in results] == ["los_fan_16_open_ms", "los_fan_16_open_busy_ms"]
    assert all(r.median_ms > 0 for r in results)
    table = b.format_table(results)
    assert "`los_fan_16_open_busy_ms`" in table and "one busy background process" not in table


@pytest.mark.parametrize("script", sorted(p.name for p in BENCH.glob("*.py")))
def test_each_bench_script_imports_what_it_uses(script):
    """A benchmark script is run by hand, so nothing else notices when a name it
    imports is renamed (bench/battle_loop.py imported a removed helper): load each
    one as a module (its ``main()`` does not run) and check it has one."""
    spec = importlib.util.spec_from_file_location(f"bench_{script[:-3]}", BENCH / script)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert callable(getattr(module, "main", None))
