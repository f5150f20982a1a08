"""Run fuzz cases (:mod:`.fuzz`) in a worker process with limits, and sum them up.

``python bench/fuzz.py --cases 10000 --seed 1`` runs a campaign (maps, packs and
the battle files through ``sodwa_editor.cli_fuzz``, the check above io; ``python
-m sodwa_editor.io.fuzz_runner`` checks the maps and packs only): each case goes to a worker
process whose address space is limited (``RLIMIT_AS``, 2 GiB by default) and
that must answer within a time limit (5 s by default).  Outcomes:

* ``ok`` / ``refused``: see :func:`.fuzz_check.check_case`;
* ``failure``: a traceback, a changed round trip, a hang (no answer in time: the
  worker is killed), memory (``MemoryError`` under the limit) or a signal (the
  worker died).

Every failing input is written to the output folder (``<case>-<seed>.json`` and
a ``.txt`` with the failure and the mutations that made it) with
``summary.json``; the summary lists failures by kind.  Exit status 0 when no
case failed, 1 otherwise.  ``--replay FILE`` runs one saved input in this
process and prints its outcome (with the traceback).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import multiprocessing as mp
import os
import re
import shutil
import signal
import sys
import tempfile
import time
import traceback
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from importlib import import_module
from pathlib import Path
from typing import Any

from .fuzz import Case, make_case
from .fuzz_check import FAILURE, OK, REFUSED

DEFAULT_TIMEOUT = 5.0
DEFAULT_MEMORY_MB = 2048
#: A new worker gets this long for its first (warm-up) case: imports and the
#: compiled engine kernels are loaded then.
WARMUP_TIMEOUT = 300.0
DEFAULT_TARGET = "sodwa_editor.io.fuzz_check:check_case"


def _resolve(target: str) -> Callable[[bytes, str], dict[str, str]]:
    module, _, name = target.partition(":")
    fn: Callable[[bytes, str], dict[str, str]] = getattr(import_module(module), name)
    return fn


def _limit_memory(mb: int) -> None:
    try:
        import resource
    except ImportError:  # pragma: no cover - not POSIX: no limit
        return
    limit = mb * 2**20
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))  # no core files from crashes


def _worker(conn: Any, target: str, memory_mb: int) -> None:  # pragma: no cover - child
    """Worker process: answer each case sent as bytes with its outcome as JSON."""
    _limit_memory(memory_mb)
    check = _resolve(target)
    work = tempfile.mkdtemp(prefix="sodwa-fuzz-", dir="/dev/shm" if os.path.isdir("/dev/shm")
                            else None)
    try:
        while True:
            try:
                data = conn.recv_bytes()
            except EOFError:
                return
            try:
                result = check(data, work)
            except MemoryError:
                result = {"outcome": FAILURE, "stage": "", "kind": "memory",
                          "detail": f"MemoryError under the {memory_mb} MiB limit"}
            except Exception as exc:  # noqa: BLE001 - a check that itself raised
                result = {"outcome": FAILURE, "stage": "",
                          "kind": f"traceback {type(exc).__name__}",
                          "detail": "".join(traceback.format_exception(exc))[-4000:]}
            conn.send_bytes(json.dumps(result).encode())
    finally:
        shutil.rmtree(work, ignore_errors=True)


class Worker:
    """One worker process; restarted after a hang, a crash or a memory failure.
    ``warmup``: cases a new worker answers first, with a long time limit (imports and
    compiled kernels load then)."""

    def __init__(self, target: str = DEFAULT_TARGET, memory_mb: int = DEFAULT_MEMORY_MB,
                 warmup: bytes | Sequence[bytes] | None = None) -> None:
        self.target, self.memory_mb, self.warmup = target, memory_mb, warmup
        self.proc: Any = None
        self.conn: Any = None

    def _start(self) -> None:
        ctx = mp.get_context("spawn")
        self.conn, child = ctx.Pipe()
        self.proc = ctx.Process(target=_worker, args=(child, self.target, self.memory_mb),
                                daemon=True)
        self.proc.start()
        child.close()
        warmups = [self.warmup] if isinstance(self.warmup, bytes) else self.warmup or []
        for data in warmups:
            self._ask(data, WARMUP_TIMEOUT)

    def stop(self) -> None:
        if self.proc is not None:
            with contextlib.suppress(OSError):
                self.conn.close()
            self.proc.join(2)
            if self.proc.is_alive():
                self.proc.kill()
                self.proc.join()
        self.proc = self.conn = None

    def _ask(self, data: bytes, timeout: float) -> dict[str, Any]:
        self.conn.send_bytes(data)
        if not self.conn.poll(timeout):
            self.proc.kill()
            self.proc.join()
            self.proc = None
            return {"outcome": FAILURE, "stage": "", "kind": "hang",
                    "detail": f"no answer within {timeout:g} s"}
        try:
            return dict(json.loads(self.conn.recv_bytes()))
        except (EOFError, OSError):
            self.proc.join()
            code = self.proc.exitcode
            self.proc = None
            if code is not None and code < 0:
                name = signal.Signals(-code).name if -code in signal.valid_signals() \
                    else str(-code)
                return {"outcome": FAILURE, "stage": "", "kind": f"signal {name}",
                        "detail": f"the worker was killed by {name}"}
            return {"outcome": FAILURE, "stage": "", "kind": "worker exit",
                    "detail": f"the worker exited with status {code}"}

    def run(self, data: bytes, timeout: float) -> dict[str, Any]:
        if self.proc is None:
            self._start()
        t0 = time.perf_counter()
        result = self._ask(data, timeout)
        result["seconds"] = round(time.perf_counter() - t0, 3)
        if result.get("kind") == "memory":
            self.stop()  # a fresh process for the next case
        return result


@dataclass
class Summary:
    cases: int = 0
    outcomes: Counter = field(default_factory=Counter)
    failures: dict[str, list[str]] = field(default_factory=dict)  # kind -> case labels
    failed: list[dict[str, Any]] = field(default_factory=list)  # every failure in full
    refusals: Counter = field(default_factory=Counter)
    seconds: float = 0.0
    slowest: tuple[float, str] = (0.0, "")  # seconds and label of the slowest answer

    def to_json(self) -> dict[str, Any]:
        return {"cases": self.cases, "outcomes": dict(self.outcomes),
                "failures": {k: {"count": len(v), "examples": v[:5]}
                             for k, v in sorted(self.failures.items())},
                "refusals": dict(self.refusals.most_common()), "seconds": round(self.seconds, 1),
                "slowest": {"seconds": self.slowest[0], "case": self.slowest[1]}}

    def text(self) -> str:
        lines = [f"{self.cases} case(s) in {self.seconds:.0f} s: "
                 + ", ".join(f"{self.outcomes[k]} {k}" for k in (OK, REFUSED, FAILURE))
                 + f"; slowest {self.slowest[0]:.1f} s ({self.slowest[1]})"]
        for kind, labels in sorted(self.failures.items(), key=lambda i: -len(i[1])):
            lines.append(f"  {len(labels):5d}  {kind}  (e.g. {labels[0]})")
        return "\n".join(lines)


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-")[:60]


def run_campaign(cases: int, seed: int, *, out: Path | None = None, start: int = 0,
                 timeout: float = DEFAULT_TIMEOUT, memory_mb: int = DEFAULT_MEMORY_MB,
                 progress: Callable[[int, Summary], None] | None = None,
                 target: str = DEFAULT_TARGET) -> Summary:
    """Run cases ``start .. start+cases-1`` of campaign ``seed`` through the check
    ``target`` (``module:function``); failing inputs go to ``out`` (when given)."""
    from .fuzz import all_documents, seed_documents

    summary = Summary()
    warmup = [seed_documents()[0][1].encode()]
    if target != DEFAULT_TARGET:  # (a map check only needs no battle warmed up)
        warmup += [text.encode() for name, text in all_documents() if name == "replay"]
    worker = Worker(target, memory_mb, warmup=warmup)
    t0 = time.perf_counter()
    try:
        for i in range(start, start + cases):
            case = make_case(seed, i)
            result = worker.run(case.data, timeout)
            summary.cases += 1
            summary.slowest = max(summary.slowest, (result["seconds"], case.label))
            summary.outcomes[result["outcome"]] += 1
            if result["outcome"] == FAILURE:
                summary.failures.setdefault(result["kind"], []).append(case.label)
                summary.failed.append({**result, "case": case.label, "ops": case.ops})
                if out is not None:
                    _write_failure(out, seed, case, result)
            elif result["outcome"] == REFUSED:
                summary.refusals[result.get("kind", "")] += 1
            if progress is not None:
                progress(i, summary)
    finally:
        worker.stop()
        summary.seconds = time.perf_counter() - t0
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        (out / "summary.json").write_text(json.dumps(summary.to_json(), indent=2) + "\n",
                                          encoding="utf-8")
    return summary


def _write_failure(out: Path, seed: int, case: Case, result: dict[str, Any]) -> None:
    out.mkdir(parents=True, exist_ok=True)
    stem = f"{case.label}-s{seed}-{_slug(result['kind'])}"
    (out / f"{stem}.json").write_bytes(case.data)
    (out / f"{stem}.txt").write_text(
        f"kind: {result['kind']}\nseed: {seed}\ncase: {case.index}\nfrom: {case.seed_name}\n"
        f"mutations: {'; '.join(case.ops)}\nseconds: {result.get('seconds')}\n\n"
        f"{result.get('detail', '')}\n", encoding="utf-8", errors="backslashreplace")


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="fuzz", description="Fuzz the map and pack loaders, the engine queries of the "
        "editor's previews, the save/load round trip and (bench/fuzz.py) the battle files "
        "through sodwa battle and sodwa replay (see README, Fuzzing).")
    p.add_argument("--cases", type=int, default=1000, help="number of cases (default 1000)")
    p.add_argument("--seed", type=int, default=1, help="campaign seed (default 1)")
    p.add_argument("--start", type=int, default=0, help="first case number (default 0)")
    p.add_argument("--out", type=Path, default=Path("fuzz-failures"),
                   help="folder for failing inputs and summary.json (default fuzz-failures)")
    p.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT,
                   help=f"seconds per case before it is a hang (default {DEFAULT_TIMEOUT:g})")
    p.add_argument("--memory-mb", type=int, default=DEFAULT_MEMORY_MB,
                   help=f"address-space limit of the worker (default {DEFAULT_MEMORY_MB})")
    p.add_argument("--replay", type=Path, metavar="FILE",
                   help="run one saved input in this process and print its outcome")
    return p


def main(argv: Sequence[str] | None = None, target: str = DEFAULT_TARGET) -> int:
    """The campaign command (``target``: the check each case goes through)."""
    args = build_parser().parse_args(argv)
    if args.replay is not None:
        with tempfile.TemporaryDirectory() as work:
            result = _resolve(target)(args.replay.read_bytes(), work)
        print(f"{result['outcome']}: {result['kind']}\n{result['detail']}")
        return 1 if result["outcome"] == FAILURE else 0
    step = max(1, args.cases // 20)

    def progress(i: int, s: Summary) -> None:
        if (i - args.start + 1) % step == 0:
            print(f"  {s.cases}/{args.cases}: {s.outcomes[FAILURE]} failure(s)", file=sys.stderr,
                  flush=True)

    summary = run_campaign(args.cases, args.seed, out=args.out, start=args.start,
                           timeout=args.timeout, memory_mb=args.memory_mb, progress=progress,
                           target=target)
    print(summary.text())
    if summary.failures:
        print(f"failing inputs: {args.out}/")
    return 1 if summary.failures else 0


if __name__ == "__main__":
    sys.exit(main())
