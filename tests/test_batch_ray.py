"""``sodwa simulate --backend ray`` without a Ray cluster (issue 22 items 11 and 12):
``--address`` and ``RAY_ADDRESS``, a dead address refused in one line within
seconds, a cluster that wants an auth token, a node running another sodwa-editor,
and Ray's own output kept off standard output.  A small stand-in for the ``ray``
module (:data:`FAKE_RAY`: it runs tasks in the process and prints what a raylet
would, to file descriptor 1) replaces Ray; the real one is tested by the opt-in
tests at the end (``SODWA_TEST_RAY=1``, README "Battles on a Ray cluster")."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import types
from pathlib import Path

import pytest

from sodwa_editor.battle.batch_play import BatchFailed
from sodwa_editor.battle.batch_ray import build, host_port
from sodwa_editor.cli import main

COMPOUND = Path(__file__).resolve().parents[1] / "maps" / "indoor-compound.json"

#: A stand-in for Ray: enough of its API for :mod:`sodwa_editor.battle.batch_ray`.
#: FAKE_RAY_MODE: "ok", "auth" (the cluster refuses us: no token), "build" (a node
#: runs another sodwa-editor).
FAKE_RAY = '''
import os

MODE = os.environ.get("FAKE_RAY_MODE", "ok")
_up = False
calls = []


class exceptions:
    class RayError(Exception):
        pass

    class RayTaskError(RayError):
        pass


def is_initialized():
    return _up


def init(address=None, **kw):
    global _up
    calls.append(("init", address))
    import signal  # as Ray's C++ core does: a SIGTERM handler that aborts
    signal.signal(signal.SIGTERM, lambda *a: os._exit(134))
    os.write(1, b"(raylet) a warning a raylet printed to stdout\\n")
    os.write(2, b"[W gcs_client.cc:210] a retry warning of Ray's C++ client\\n")
    print("(fake ray) a line printed to sys.stdout")
    if MODE == "nolocal" and address is None:
        raise RuntimeError("Failed to start the raylet.\\n(details)\\n/dev/shm is too small")
    if MODE == "auth":
        try:
            raise RuntimeError("Failed to connect to GCS. Last connection error: RPC error: "
                               "InvalidAuthToken: Authentication token is missing or "
                               "incorrect")
        except RuntimeError as exc:
            raise ConnectionError(f"Failed to connect to Ray cluster at {address}") from exc
    _up = True


def shutdown():
    global _up
    _up = False


def nodes():  # two nodes on one host; in "build" mode the first runs another build
    return [{"NodeID": "ab" * 14, "Alive": True, "NodeManagerAddress": "10.0.0.7"},
            {"NodeID": "cd" * 14, "Alive": True, "NodeManagerAddress": "10.0.0.7"},
            {"NodeID": "ef" * 14, "Alive": False, "NodeManagerAddress": "10.0.0.8"}]


def cluster_resources():
    return {"CPU": 3.0}


class _Ref:
    def __init__(self, value):
        self.value = value

    def hex(self):
        return "%x" % id(self)


def put(value):
    return _Ref(value)


def get(ref, timeout=None):
    return ref.value


class _Remote:
    def __init__(self, fn, node=None):
        self.fn = fn
        self.node = node

    def options(self, scheduling_strategy=None, **kw):
        return _Remote(self.fn, getattr(scheduling_strategy, "node_id", None))

    def remote(self, *args):
        os.write(1, b"(worker pid=1) a line a worker printed\\n")
        if MODE == "build" and self.fn.__name__ == "_node_build" and self.node == "ab" * 14:
            return _Ref("sodwa-editor 0.0.9, code 000000000000, numpy 1.0")
        return _Ref(self.fn(*args))


def remote(fn):
    return _Remote(fn)


def wait(refs, num_returns=1, timeout=None):
    return refs[:num_returns], refs[num_returns:]


def cancel(ref, force=False):
    pass
'''
FAKE_STRATEGIES = '''
class NodeAffinitySchedulingStrategy:
    def __init__(self, node_id, soft):
        self.node_id, self.soft = node_id, soft
'''


def write_fake_ray(folder: Path) -> Path:
    (folder / "ray" / "util").mkdir(parents=True)
    (folder / "ray" / "__init__.py").write_text(FAKE_RAY)
    (folder / "ray" / "util" / "__init__.py").write_text("")
    (folder / "ray" / "util" / "scheduling_strategies.py").write_text(FAKE_STRATEGIES)
    return folder


@pytest.fixture
def fake_ray(monkeypatch):
    """The stand-in as ``ray`` in this process (the real one, if imported, is back after)."""
    def module(name: str, source: str) -> types.ModuleType:
        mod = types.ModuleType(name)
        exec(source, mod.__dict__)
        monkeypatch.setitem(sys.modules, name, mod)
        return mod

    ray = module("ray", FAKE_RAY)
    ray.util = module("ray.util", "")
    ray.util.scheduling_strategies = module("ray.util.scheduling_strategies", FAKE_STRATEGIES)
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    return ray


def closed_port() -> int:
    """A loopback port nothing listens on (connections are refused at once)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def listening():
    """``127.0.0.1:PORT`` of a socket that accepts connections (a reachable head)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen(8)
        yield f"127.0.0.1:{s.getsockname()[1]}"


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


# ------------------------------------------------------------------ the command line
@pytest.mark.parametrize(("argv", "env", "says"), [
    (["--address", "10.0.0.5:6379"], None, "--address names a Ray cluster: give it with "
                                           "--backend ray"),
    (["--backend", "ray", "--address", "10.0.0.5:6379", "--workers", "1"], None,
     "--workers: the Ray cluster at 10.0.0.5:6379 plays on all its CPUs"),
    (["--backend", "ray", "--workers", "1"], "10.0.0.6:6379",
     "--workers: the Ray cluster at 10.0.0.6:6379 plays on all its CPUs"),
])
def test_address_and_workers_go_with_their_backend(capsys, monkeypatch, argv, env, says):
    if env is None:
        monkeypatch.delenv("RAY_ADDRESS", raising=False)
    else:
        monkeypatch.setenv("RAY_ADDRESS", env)
    code, out, err = run(capsys, "simulate", COMPOUND, "--battles", "2", *argv)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and says in err, err


def test_the_address_is_host_and_port():
    assert host_port("10.0.0.5:6379") == ("10.0.0.5", 6379)
    assert host_port("ray://head.example:10001") == ("head.example", 10001)
    assert host_port("head.example") == ("head.example", 6379)
    assert host_port("[::1]:7000") == ("::1", 7000)
    assert host_port("auto") is None and host_port("local") is None
    for bad in ("h:0", "h:70000", "h:x"):
        with pytest.raises(BatchFailed):
            host_port(bad)


# ------------------------------------------------------------------ unreachable, refused
@pytest.mark.parametrize("how", ["option", "RAY_ADDRESS"])
def test_a_dead_address_is_one_line_within_seconds(capsys, monkeypatch, fake_ray, how):
    """Ray itself retried a dead address for over two minutes (issue 22 item 11); the
    address is tried with a plain connection first, and Ray is never started."""
    address = f"127.0.0.1:{closed_port()}"
    argv = ["simulate", COMPOUND, "--battles", "2", "--backend", "ray"]
    if how == "option":
        argv += ["--address", address]
    else:
        monkeypatch.setenv("RAY_ADDRESS", address)
    started = time.monotonic()
    code, out, err = run(capsys, *argv)
    assert time.monotonic() - started < 20
    assert code == 69 and out == ""
    assert err.count("\n") == 1
    assert f"cannot reach the Ray cluster at {address} (Connection refused" in err
    assert "ray start --head" in err
    assert fake_ray.calls == []


@pytest.mark.parametrize(("mode", "says"), [
    (None, "wants an auth token: set RAY_AUTH_MODE=token and the cluster's token"),
    ("token", "refused our auth token: put the cluster's token"),
])
def test_a_cluster_that_wants_a_token_says_what_to_set(capsys, monkeypatch, fake_ray,
                                                       listening, mode, says):
    monkeypatch.setattr(fake_ray, "MODE", "auth")
    if mode is None:
        monkeypatch.delenv("RAY_AUTH_MODE", raising=False)
    else:
        monkeypatch.setenv("RAY_AUTH_MODE", mode)
    code, out, err = run(capsys, "simulate", COMPOUND, "--battles", "2", "--backend", "ray",
                         "--address", listening)
    assert code == 69 and out == ""
    assert err.count("\n") == 1, err  # Ray's retry warnings held back
    assert f"the Ray cluster at {listening} {says}" in err
    assert "RAY_AUTH_TOKEN" in err
    assert fake_ray.calls == [("init", listening)]
    assert "RAY_gcs_server_port_wait_time_s" not in os.environ  # (set only while joining)


def test_a_node_with_another_sodwa_editor_refuses_the_batch(capsys, monkeypatch, fake_ray,
                                                            listening):
    monkeypatch.setattr(fake_ray, "MODE", "build")
    code, out, err = run(capsys, "simulate", COMPOUND, "--battles", "2", "--backend", "ray",
                         "--address", listening)
    assert code == 69 and out == ""
    line = err.splitlines()[-1]
    assert line == (f"sodwa simulate: error: {COMPOUND}: Ray node 10.0.0.7 runs sodwa-editor "
                    f"0.0.9, code 000000000000, numpy 1.0, this machine {build()}: install "
                    "the same sodwa-editor on every node")


def test_a_local_instance_that_cannot_start_is_one_line(capsys, monkeypatch, fake_ray):
    monkeypatch.setattr(fake_ray, "MODE", "nolocal")
    code, out, err = run(capsys, "simulate", COMPOUND, "--battles", "2", "--backend", "ray")
    assert code == 69 and out == ""
    assert err.splitlines()[-1] == (f"sodwa simulate: error: {COMPOUND}: cannot start a local "
                                    "Ray instance: RuntimeError: /dev/shm is too small")


def test_the_build_names_the_version_and_the_battle_code():
    import numpy

    from sodwa_editor import __version__

    text = build()
    assert text.startswith(f"sodwa-editor {__version__}, code ")
    assert text.endswith(f", numpy {numpy.__version__}")


# ------------------------------------------------------------------ standard output
def test_ray_output_goes_to_stderr_and_stdout_is_the_json_report(tmp_path, listening):
    """A raylet's warning once reached stdout before the --json report (invalid JSON,
    exit 0): while Ray runs, stdout (file descriptor 1 too) is stderr."""
    env = {**os.environ, "PYTHONPATH": str(write_fake_ray(tmp_path / "fake")),
           "FAKE_RAY_MODE": "ok"}
    env.pop("RAY_ADDRESS", None)
    argv = [sys.executable, "-m", "sodwa_editor.cli", "simulate", str(COMPOUND),
            "--battles", "3", "--seed", "4", "--json"]
    on_ray = subprocess.run(argv + ["--backend", "ray", "--address", listening],
                            capture_output=True, text=True, env=env, timeout=300)
    local = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=300)
    assert on_ray.returncode == 0, on_ray.stderr
    assert on_ray.stdout == local.stdout
    assert json.loads(on_ray.stdout)["maps"][0]["battles"] == 3
    err = on_ray.stderr
    assert "(raylet) a warning a raylet printed to stdout" in err
    assert "(fake ray) a line printed to sys.stdout" in err
    assert "(worker pid=1) a line a worker printed" in err


def test_sigterm_during_a_ray_batch_exits_143(tmp_path, listening):
    """Ray's core replaces the SIGTERM handler with one that aborts (exit 134 and a
    stack dump); the batch puts simulate's own back, so SIGTERM ends it as on the
    process backend: exit 143, no traceback."""
    import signal

    env = {**os.environ, "PYTHONPATH": str(write_fake_ray(tmp_path / "fake")),
           "FAKE_RAY_MODE": "ok"}
    proc = subprocess.Popen([sys.executable, "-m", "sodwa_editor.cli", "simulate",
                             str(COMPOUND), "--battles", "500", "--json", "--backend", "ray",
                             "--address", listening],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    try:
        stat = Path(f"/proc/{proc.pid}/stat")
        end = time.monotonic() + 240
        while time.monotonic() < end and proc.poll() is None:  # playing (the engine loaded)
            fields = stat.read_text().rsplit(")", 1)[1].split()
            if (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK") > 2.5:
                break
            time.sleep(0.1)
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=120)
    finally:
        proc.kill()
    assert proc.returncode == 143, err
    assert out == b"" and b"Traceback" not in err


# ------------------------------------------------------------------ the real Ray (opt-in)
real_ray = pytest.mark.skipif(not os.environ.get("SODWA_TEST_RAY"),
                              reason="opt-in: SODWA_TEST_RAY=1 with Ray installed (README)")


@real_ray
def test_real_ray_dead_address_is_one_line_within_seconds():
    pytest.importorskip("ray")
    address = f"127.0.0.1:{closed_port()}"
    started = time.monotonic()
    out = subprocess.run([sys.executable, "-m", "sodwa_editor.cli", "simulate", str(COMPOUND),
                          "--battles", "2", "--backend", "ray", "--address", address],
                         capture_output=True, text=True, timeout=120)
    assert time.monotonic() - started < 20
    assert out.returncode == 69 and out.stderr.count("\n") == 1, out.stderr


@real_ray
def test_real_ray_json_report_is_the_process_backends(tmp_path):
    pytest.importorskip("ray")
    env = {k: v for k, v in os.environ.items() if k != "RAY_ADDRESS"}
    argv = [sys.executable, "-m", "sodwa_editor.cli", "simulate", str(COMPOUND),
            "--battles", "6", "--seed", "2", "--swap-sides", "--workers", "2", "--json"]
    on_ray = subprocess.run(argv + ["--backend", "ray"], capture_output=True, text=True,
                            env=env, timeout=600)
    local = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=600)
    assert on_ray.returncode == 0, on_ray.stderr
    assert on_ray.stdout == local.stdout


@real_ray
@pytest.mark.parametrize(("signum", "code"), [("SIGTERM", 143), ("SIGINT", 130)])
def test_real_ray_batch_ends_cleanly_on_sigterm_and_ctrl_c(signum, code):
    """Ray's core aborted with a stack dump on SIGTERM (exit 134); the batch keeps
    simulate's handlers, leaves Ray and exits as the process backend does."""
    import signal

    pytest.importorskip("ray")
    env = {k: v for k, v in os.environ.items() if k != "RAY_ADDRESS"}
    proc = subprocess.Popen([sys.executable, "-m", "sodwa_editor.cli", "simulate",
                             str(COMPOUND), "--battles", "2000", "--workers", "2", "--json",
                             "--backend", "ray"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    try:
        end = time.monotonic() + 240
        while time.monotonic() < end and not subprocess.run(
                ["pgrep", "-f", "ray::_chunk"], capture_output=True).stdout:
            time.sleep(0.5)
        time.sleep(2)
        proc.send_signal(getattr(signal, signum))
        out, err = proc.communicate(timeout=120)
    finally:
        proc.kill()
    assert proc.returncode == code, err
    assert out == b"" and err == b""
