"""The Ray backend of :mod:`.batch` (``sodwa simulate --backend ray``, optional extra
``pip install sodwa-editor[cluster]``).

Where: the cluster at ``address`` (``--address``, else ``RAY_ADDRESS``), else a
local Ray instance with ``workers`` CPUs that lives as long as the batch.  A
cluster's address is tried first with a plain TCP connection
(:data:`CONNECT_TIMEOUT`), so a dead address is one line within seconds instead
of Ray's minutes of retries; Ray's own connection is given
:data:`CONNECT_TRIES` one-second tries (``RAY_gcs_server_port_wait_time_s``, unless
set), and a cluster that wants an auth token (``RAY_AUTH_MODE=token``) we lack is
one line saying what to set.

What: the setup (map, rules, roster, teams, AI names) is put into Ray's object
store once (``ray.put``); each task plays one chunk of consecutive battles (as
many chunks as :func:`.batch_play.chunks` cuts for the cluster's CPUs), and a
worker process deserializes the setup once and keeps it for the following
chunks.  Ray runs a task whose worker died again (up to its ``max_retries``,
3); a chunk that still fails stops the batch in one line
(:class:`.batch_play.BatchFailed`).

Same code everywhere: before the batch, one task on every node returns that
node's :func:`build` (sodwa-editor's version, a digest of the battle and engine
code, numpy's version, which draws the dice); a node that differs from this
machine refuses the batch in one line.  Every chunk's result carries its
worker's build too, so a node that joins the cluster later is checked as well.

Ray writes: its log lines and what its workers print reach this process's stderr
only -- standard output is pointed at stderr while Ray runs (file descriptor 1
too, where Ray's C++ parts write), so ``--json`` output stays JSON.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import os
import sys
import tempfile
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

from .. import __version__
from .batch_play import (
    POLL,
    BatchCancelled,
    BatchFailed,
    Cancel,
    Deliver,
    Record,
    battles_text,
    chunks,
    play_chunk,
)
from .jsonfiles import BattleInputError
from .setup import BattleSetup

#: Seconds to wait for a TCP connection to a cluster's address.
CONNECT_TIMEOUT = 3.0
#: Ray's tries (about a second each) to connect to a reachable cluster.
CONNECT_TRIES = 3
#: Seconds every node gets to answer the version check (a worker's first start).
CHECK_TIMEOUT = 120.0
#: The port ``ray start --head`` listens on by default.
DEFAULT_PORT = 6379

#: Setups already deserialized in this (Ray worker) process, by object id.
_SETUPS: dict[str, BattleSetup] = {}


def _ray() -> Any:
    try:
        import ray
    except ImportError:
        raise BattleInputError("the ray backend needs Ray, which is not installed: "
                               "pip install sodwa-editor[cluster]") from None
    return ray


@cache
def build() -> str:
    """What a node's battles depend on besides the setup: ``sodwa-editor 0.1.0,
    code 1a2b3c4d5e6f, numpy 1.26.4`` (the code digest covers every ``.py`` file of
    the battle and engine packages, so two checkouts of one version that differ
    are told apart)."""
    import numpy

    package = Path(__file__).resolve().parents[1]
    digest = hashlib.sha256()
    for folder in ("battle", "engine"):
        for path in sorted((package / folder).rglob("*.py")):
            digest.update(path.relative_to(package).as_posix().encode())
            digest.update(path.read_bytes())
    return f"sodwa-editor {__version__}, code {digest.hexdigest()[:12]}, numpy {numpy.__version__}"


def _node_build() -> str:
    """The version check's task (one per node)."""
    return build()


def _chunk(boxed: list[Any], root: int, start: int, stop: int, swap_sides: bool
           ) -> tuple[str, list[Record]]:
    """One Ray task: the setup comes boxed in a list so Ray passes its reference, not
    its value, and each worker process fetches it only once."""
    ray = _ray()
    ref = boxed[0]
    key = ref.hex()
    setup = _SETUPS.get(key)
    if setup is None:
        setup = _SETUPS[key] = ray.get(ref)
    return build(), play_chunk(setup, root, start, stop, swap_sides, worker=True)


# ------------------------------------------------------------------ connecting
def cluster_address(address: str | None) -> str | None:
    """The cluster to join: ``address``, else ``RAY_ADDRESS``, else None (a local
    instance)."""
    return address or os.environ.get("RAY_ADDRESS") or None


def host_port(address: str) -> tuple[str, int] | None:
    """``(host, port)`` of ``HOST[:PORT]`` or ``ray://HOST:PORT``; None for Ray's
    words (``auto``, ``local``), which Ray resolves itself."""
    text = address.removeprefix("ray://").strip()
    if text in ("auto", "local", ""):
        return None
    host, sep, port = text.rpartition(":")
    if not sep or host.endswith(":"):  # no port (or an IPv6 address without one)
        host, port = text, str(DEFAULT_PORT)
    if not port.isdigit() or not 0 < int(port) < 65536:
        raise BatchFailed(f"the Ray address {address!r} is not HOST:PORT "
                          f"(e.g. 10.0.0.5:{DEFAULT_PORT})")
    return host.strip("[]"), int(port)


def probe(address: str) -> None:
    """One line if nothing answers at the address (within :data:`CONNECT_TIMEOUT`)."""
    import socket

    where = host_port(address)
    if where is None:
        return
    try:
        socket.create_connection(where, timeout=CONNECT_TIMEOUT).close()
    except OSError as exc:
        why = "no answer" if isinstance(exc, TimeoutError) else (exc.strerror or str(exc))
        raise BatchFailed(f"cannot reach the Ray cluster at {address} ({why} within "
                          f"{CONNECT_TIMEOUT:g} s): start its head node with 'ray start "
                          "--head', or give its address with --address HOST:PORT or "
                          "RAY_ADDRESS") from None


@contextlib.contextmanager
def stdout_to_stderr() -> Iterator[None]:
    """Point standard output (``sys.stdout`` and file descriptor 1) at stderr."""
    sys.stdout.flush()
    saved = os.dup(1)
    os.dup2(2, 1)
    try:
        with contextlib.redirect_stdout(sys.stderr):
            yield
    finally:
        with contextlib.suppress(OSError, ValueError):
            sys.stdout.flush()
        os.dup2(saved, 1)
        os.close(saved)


@contextlib.contextmanager
def output_held() -> Iterator[list[str]]:
    """Keep what is written to file descriptor 2 (Ray's C++ retry warnings) and to
    ``sys.stdout`` and ``sys.stderr`` aside; the caller decides whether to show it
    (the list receives the text at the end)."""
    sys.stderr.flush()
    saved = os.dup(2)
    held: list[str] = []
    python = io.StringIO()
    with tempfile.TemporaryFile() as keep:
        os.dup2(keep.fileno(), 2)
        try:
            with contextlib.redirect_stdout(python), contextlib.redirect_stderr(python):
                yield held
        finally:
            with contextlib.suppress(OSError, ValueError):
                sys.stderr.flush()
            os.dup2(saved, 2)
            os.close(saved)
            keep.seek(0)
            held.append(keep.read().decode("utf-8", "replace") + python.getvalue())


def failure_text(exc: BaseException) -> str:
    """Every message in an exception's chain, joined (Ray wraps the cause twice)."""
    parts: list[str] = []
    seen: BaseException | None = exc
    while seen is not None and len(parts) < 5:
        parts.append(str(seen))
        seen = seen.__cause__ or seen.__context__
    return " | ".join(parts)


def last_line(exc: BaseException) -> str:
    """The last line of an exception's message (Ray's messages run to many lines)."""
    lines = str(exc).strip().splitlines()
    return lines[-1].strip()[:300] if lines else ""


def auth_advice(address: str) -> str:
    """What to set when a cluster refuses us for want of its auth token."""
    token = ("the cluster's token ('ray get-auth-token' on its head node prints it) in "
             "RAY_AUTH_TOKEN, or in ~/.ray/auth_token or the file named by RAY_AUTH_TOKEN_PATH")
    if os.environ.get("RAY_AUTH_MODE", "").lower() == "token":
        return f"the Ray cluster at {address} refused our auth token: put {token}"
    return f"the Ray cluster at {address} wants an auth token: set RAY_AUTH_MODE=token and {token}"


@contextlib.contextmanager
def signals_kept() -> Iterator[None]:
    """Keep this process's SIGINT and SIGTERM handlers: Ray's C++ core replaces them
    with one that prints a stack dump and aborts (exit 134 on SIGTERM), where
    ``sodwa simulate`` stops its batch cleanly (130, 143).  The main thread only."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    kept = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for signum, handler in kept.items():
            if handler is not None:
                signal.signal(signum, handler)


def connect(ray: Any, address: str | None, workers: int) -> bool:
    """Join the cluster at ``address`` or start a local instance; True if this call
    did (so the batch leaves it at its end), False if Ray was running already."""
    if ray.is_initialized():
        return False
    with signals_kept():
        return _connect(ray, address, workers)


def _connect(ray: Any, address: str | None, workers: int) -> bool:
    if address is None:
        try:
            ray.init(num_cpus=workers, include_dashboard=False, logging_level="ERROR")
        except Exception as exc:  # noqa: BLE001 -- Ray raises several kinds here
            raise BatchFailed(f"cannot start a local Ray instance: {type(exc).__name__}: "
                              f"{last_line(exc)}") from None
        return True
    probe(address)
    tries = "RAY_gcs_server_port_wait_time_s"
    given = os.environ.get(tries)
    os.environ.setdefault(tries, str(CONNECT_TRIES))
    try:
        with output_held() as held:
            try:
                ray.init(address=address, logging_level="ERROR")
            except Exception as exc:  # noqa: BLE001 -- Ray raises several kinds here
                text = failure_text(exc)
                if "InvalidAuthToken" in text or "AuthenticationError" in text:
                    raise BatchFailed(auth_advice(address)) from None
                raise BatchFailed(f"cannot join the Ray cluster at {address}: "
                                  f"{type(exc).__name__}: {last_line(exc)}") from None
    finally:
        if given is None:
            os.environ.pop(tries, None)
    sys.stderr.write(held[0])
    return True


def check_builds(ray: Any) -> None:
    """Refuse, in one line, a cluster with a node whose :func:`build` differs from
    this machine's (or that cannot run sodwa-editor at all)."""
    from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

    ours = build()
    task = ray.remote(_node_build)
    refs = []  # (the node's address, its answer); several nodes may share an address
    for node in ray.nodes():
        if node.get("Alive"):
            where = NodeAffinitySchedulingStrategy(node["NodeID"], soft=False)
            ip = node.get("NodeManagerAddress", node["NodeID"][:12])
            refs.append((ip, task.options(num_cpus=0, scheduling_strategy=where).remote()))
    for ip, ref in refs:
        try:
            theirs = ray.get(ref, timeout=CHECK_TIMEOUT)
        except Exception as exc:  # noqa: BLE001 -- the node cannot import us, or died
            raise BatchFailed(f"Ray node {ip} cannot run sodwa-editor's battles "
                              f"({last_line(exc)}): "
                              f"install {ours.split(',')[0]} there") from None
        if theirs != ours:
            raise BatchFailed(f"Ray node {ip} runs {theirs}, this machine {ours}: install "
                              "the same sodwa-editor on every node")


# ------------------------------------------------------------------ the batch
def run_ray(setup: BattleSetup, battles: int, seed: int, swap_sides: bool, workers: int,
            deliver: Deliver, *, chunk_size: int | None = None, cancel: Cancel | None = None,
            address: str | None = None) -> None:
    """Play the batch as Ray tasks, handing each chunk's records to ``deliver`` as
    it comes; ``workers`` is the CPUs of a local instance (a cluster uses all its
    CPUs)."""
    ray = _ray()
    address = cluster_address(address)
    with stdout_to_stderr():
        started = connect(ray, address, workers)
        try:
            check_builds(ray)
            cpus = int(ray.cluster_resources().get("CPU", workers))
            _play(ray, setup, chunks(battles, max(1, cpus), chunk_size), seed, swap_sides,
                  deliver, cancel)
        finally:
            if started:
                ray.shutdown()


def _play(ray: Any, setup: BattleSetup, parts: list[tuple[int, int]], seed: int,
          swap_sides: bool, deliver: Deliver, cancel: Cancel | None) -> None:
    ours = build()
    task = ray.remote(_chunk)
    ref = ray.put(setup)
    pending = {task.remote([ref], seed, a, b, swap_sides): (a, b) for a, b in parts}
    try:
        while pending:
            if cancel is not None and cancel():
                raise BatchCancelled()
            ready, _ = ray.wait(list(pending), num_returns=1,
                                timeout=POLL if cancel is not None else None)
            for r in ready:
                a, b = pending.pop(r)
                theirs, records = _result(ray, r, a, b)
                if theirs != ours:
                    raise BatchFailed(f"a Ray worker that played {battles_text(a, b)} runs "
                                      f"{theirs}, this machine {ours}: install the same "
                                      "sodwa-editor on every node")
                deliver(a, records)
    finally:
        for r in pending:
            with contextlib.suppress(Exception):
                ray.cancel(r, force=True)


def _result(ray: Any, ref: Any, a: int, b: int) -> tuple[str, list[Record]]:
    """A chunk's result; an error of ours in the task is raised as itself, a lost
    worker or node (after Ray's retries) stops the batch in one line."""
    try:
        result: tuple[str, list[Record]] = ray.get(ref)
    except ray.exceptions.RayTaskError as exc:
        cause = getattr(exc, "cause", None)
        if isinstance(cause, Exception):
            raise cause from None
        raise
    except ray.exceptions.RayError as exc:
        first = (str(exc).strip().splitlines() or [""])[0].strip()[:300]
        raise BatchFailed(f"Ray could not play {battles_text(a, b)}: {type(exc).__name__}: "
                          f"{first}") from None
    return result
