"""``sodwa simulate``: a batch of AI-vs-AI battles per map and its balance report.

Thin over :mod:`sodwa_editor.battle.batch`: the command line is checked first
(:func:`simulate_plan`: battles and workers bounded, ``--address`` only with
``--backend ray``; one line, exit 2), the outputs before any battle; each map's
battles are tallied into its report as they arrive (:class:`.battle.report.Tally`,
memory flat in the number of battles).  A batch its workers could not finish
(:class:`.battle.batch.BatchFailed`) is one line, exit 69; SIGTERM ends the batch
as Ctrl+C does (its workers terminated and joined, nothing printed), exit 143
(Ctrl+C: 130).  The maps and battle files are read as ``sodwa battle`` reads them
(:mod:`.cli_battle`).
"""

from __future__ import annotations

import argparse
import contextlib
import signal
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from .battle.report_verdict import DEFAULT_THRESHOLD, MAX_THRESHOLD, MIN_THRESHOLD
from .cli_battle import battle_inputs, input_files, load_maps, make_setup
from .cli_common import CliError, check_output, positive, whole_in, write_output
from .cli_common import emit as _emit

#: Below this many battles per map ``simulate`` plays in its own process by default:
#: a worker pool's start (each worker loads the engine and its compiled kernels,
#: about a second) costs more than the battles it would share.
POOL_MIN_BATTLES = 50
#: ``simulate --oversubscribe`` starts at most this many worker processes.
MAX_FORCED_WORKERS = 64
#: Exit status of a batch its workers could not finish (lost worker processes, a
#: Ray cluster unreachable, refusing us or running another sodwa-editor):
#: EX_UNAVAILABLE of sysexits.h.
EXIT_BATCH_FAILED = 69
#: Exit status of ``simulate`` ended by SIGTERM (128 + 15, as a shell reports it) and
#: by Ctrl+C (128 + 2, as every ``sodwa`` command).
EXIT_TERMINATED = 143
EXIT_INTERRUPTED = 130


def add_parser(sub: Any) -> None:
    """The ``simulate`` subcommand."""
    s = sub.add_parser("simulate", help="a batch of AI-vs-AI battles and the balance report")
    s.add_argument("maps", nargs="+", type=Path, metavar="MAP",
                   help="map files, packs (every map in them) or PACK.json#NAME")
    battle_inputs(s)
    s.add_argument("--battles", type=positive, required=True, metavar="N",
                   help="battles per map, at most 1,000,000")
    s.add_argument("--swap-sides", action="store_true",
                   help="every other battle with the sides swapped (same dice)")
    s.add_argument("--workers", type=positive, metavar="W",
                   help="worker processes, at most one per core this process may use "
                        "(default: that many, or 1 for fewer than "
                        f"{POOL_MIN_BATTLES} battles per map)")
    s.add_argument("--oversubscribe", action="store_true",
                   help=f"allow --workers beyond the cores (up to {MAX_FORCED_WORKERS}; each "
                        "worker holds its own engine, about 200 MB)")
    s.add_argument("--backend", choices=("process", "ray"), default="process")
    s.add_argument("--address", metavar="HOST:PORT",
                   help="with --backend ray: the Ray cluster's head node (default: "
                        "RAY_ADDRESS, else a local Ray instance of --workers CPUs)")
    s.add_argument("--report", type=Path, metavar="OUT.html", help="write the HTML report")
    s.add_argument("--balanced-within", type=whole_in(MIN_THRESHOLD, MAX_THRESHOLD),
                   default=DEFAULT_THRESHOLD, metavar="PCT",
                   help="the verdict's band, in percentage points around 50 %% (whole, "
                        f"{MIN_THRESHOLD} to {MAX_THRESHOLD}; default {DEFAULT_THRESHOLD}): "
                        "the leading side's share of the decided battles (draws left out) "
                        "is 'balanced' when its 95 %% interval lies within 50 +- PCT, "
                        "'unbalanced' when it lies wholly outside, else 'not clear yet: "
                        "run more battles'")



def default_workers(battles: int) -> int:
    """``simulate``'s worker count without ``--workers``: every core this process may
    run on (its CPU affinity), or 1 for a small batch (:data:`POOL_MIN_BATTLES`)."""
    from .battle.batch import available_cores

    if battles < POOL_MIN_BATTLES:
        return 1
    return available_cores()


class ProgressBar:
    """``[#####.....] done/total battles`` on stderr, redrawn in place (a terminal only)."""

    def __init__(self, label: str) -> None:
        self.label = label

    def __call__(self, done: int, total: int) -> None:
        width = 30
        full = width * done // max(total, 1)
        sys.stderr.write(f"\r{self.label} [{'#' * full}{'.' * (width - full)}] "
                         f"{done}/{total} battles")
        if done >= total:
            sys.stderr.write("\n")
        sys.stderr.flush()


def shown(number: int) -> str:
    """A number for an error line: ``1000000000000`` or ``100000000000... (4001 digits)``."""
    text = str(number)
    return text if len(text) <= 24 else f"{text[:12]}... ({len(text)} digits)"


def simulate_plan(args: argparse.Namespace) -> tuple[int, str | None]:
    """``(workers, Ray address)`` of a ``simulate`` command line, or one line saying
    what is wrong with it (exit 2): battles and workers are bounded, and
    ``--address`` and ``--workers`` go with the backend they mean something to."""
    from .battle.batch import MAX_BATTLES, available_cores
    from .battle.batch_ray import cluster_address

    if args.battles > MAX_BATTLES:
        raise CliError(f"--battles {shown(args.battles)}: at most {MAX_BATTLES:,} battles per "
                       "map (split a larger batch into several with other --seed values)",
                       code=2)
    if args.address is not None and args.backend != "ray":
        raise CliError("--address names a Ray cluster: give it with --backend ray", code=2)
    address = cluster_address(args.address) if args.backend == "ray" else None
    if address is not None and args.workers is not None:
        raise CliError(f"--workers: the Ray cluster at {address} plays on all its CPUs; "
                       "leave --workers out (or --address and RAY_ADDRESS, for a local "
                       "instance of W CPUs)", code=2)
    cores = available_cores()
    workers = args.workers or default_workers(args.battles)
    if workers > cores and not args.oversubscribe:
        raise CliError(f"--workers {shown(workers)}: this process may use {cores} core(s); "
                       "give at most that many, or add --oversubscribe to start more "
                       "worker processes than cores", code=2)
    if workers > MAX_FORCED_WORKERS:
        raise CliError(f"--workers {shown(workers)}: at most {MAX_FORCED_WORKERS} worker "
                       "processes, even with --oversubscribe", code=2)
    return workers, address


class Terminated(KeyboardInterrupt):
    """SIGTERM reached ``simulate``: it leaves as on Ctrl+C (workers terminated and
    joined on the way out), then exits 143.  A KeyboardInterrupt, because Ray turns
    any other exception raised by a signal handler during its calls into a
    traceback."""


@contextlib.contextmanager
def sigterm_ends_quietly() -> Iterator[list[int]]:
    """While ``simulate`` runs, SIGTERM raises :class:`Terminated` in the main thread
    (the batch's ``finally`` ends its workers) and is noted in the list yielded
    (Ray re-raises an interrupt as a plain KeyboardInterrupt); elsewhere nothing
    changes."""
    got: list[int] = []
    if threading.current_thread() is not threading.main_thread():
        yield got
        return

    def terminated(signum: int, frame: Any) -> None:
        got.append(signum)
        raise Terminated()

    old = signal.signal(signal.SIGTERM, terminated)
    try:
        yield got
    finally:
        signal.signal(signal.SIGTERM, old)


def say_notice(line: str) -> None:
    """A line about the batch on stderr (a lost worker replaced), below the bar."""
    lead = "\n" if sys.stderr.isatty() else ""
    print(f"{lead}sodwa simulate: note: {line}", file=sys.stderr, flush=True)


def interrupted(exc: BaseException) -> bool:
    """True if ``exc`` is, or was caused by, Ctrl+C or SIGTERM: raised while a
    compiled (numba) function runs, the interrupt reaches us as a SystemError
    ("returned a result with an exception set") caused by it, through as many
    SystemErrors as compiled calls it was raised in."""
    seen: set[int] = set()
    link: BaseException | None = exc
    while link is not None and id(link) not in seen:
        if isinstance(link, KeyboardInterrupt):
            return True
        seen.add(id(link))
        link = link.__cause__ or link.__context__
    return False


def cmd_simulate(args: argparse.Namespace) -> int:
    with sigterm_ends_quietly() as terminated:
        try:
            return simulate(args)
        except (KeyboardInterrupt, SystemError) as exc:
            if not interrupted(exc):
                raise
            return EXIT_TERMINATED if terminated else EXIT_INTERRUPTED


def file_names(args: argparse.Namespace) -> dict[str, list[str]]:
    """The team and AI profile files by name, for the report's entries ("team file
    knights.json"; a name given twice stands for both entries)."""
    return {key: [Path(f).name for f in files]
            for key, files in (("team_file", args.teams), ("profile", args.ai_profile))
            if files}


def simulate(args: argparse.Namespace) -> int:
    from .battle.batch import BatchFailed, stream_batch
    from .battle.report import Tally, format_summary

    workers, address = simulate_plan(args)
    if args.report is not None:  # (before the batch: never play one for nothing)
        check_output(args.report, input_files(args))
    reports = []
    sources = [src for path in args.maps for src in load_maps(path, one=False)]
    for source in sources:
        setup = make_setup(args, source)
        bar = ProgressBar(source.label) if sys.stderr.isatty() else None
        tally = Tally(setup, seed=args.seed, swap_sides=args.swap_sides, names=file_names(args),
                      threshold=args.balanced_within)
        try:
            stream_batch(setup, args.battles, tally.add, seed=args.seed,
                         swap_sides=args.swap_sides, workers=workers, backend=args.backend,
                         progress=bar, notice=say_notice, address=address)
        except BatchFailed as exc:
            raise CliError(f"{source.label}: {exc}", code=EXIT_BATCH_FAILED) from None
        reports.append({"map": source.label, "map_hash": source.hash,
                        "file_hash": source.hash, **tally.report()})
    if args.report is not None:
        from .battle.report_html import render

        write_output(args.report, render(reports), input_files(args))
    if args.json:
        _emit({"maps": reports})
    else:
        for rep in reports:
            print(f"{rep['map']}: {format_summary(rep)}")
        if args.report is not None:
            print(f"wrote {args.report}")
    return 0
