"""The check of a fuzz case (the cases: :mod:`.io.fuzz`; the campaign:
:mod:`.io.fuzz_runner`, ``python bench/fuzz.py``): a map or a pack goes through
:func:`.io.fuzz_check.check_case` (the loaders, the engine queries of the editor,
a save/load round trip); a battle file (a team, roster, rules file, AI profile or
replay) through the ``sodwa`` commands as a user runs them (in this process, their
output captured).  It lives beside the commands it runs, above io.

* a team, roster or rules file: ``sodwa battle`` on the sample map
  :data:`.io.fuzz.BATTLE_MAP` with it (random AIs, or greedy against random for
  half the files, by a checksum; ``--time-limit``) writing a replay, then
  ``sodwa replay --verify`` of that replay, which must verify;
* an AI profile: the same with the greedy AI playing by it (a short turn cap),
  verified with ``--ai-profile``;
* a replay: ``sodwa replay --verify`` with the map beside it, and ``--json``;
* anything else (not JSON, no known ``format``: a file broken there): each of
  them and the map checks.

Outcomes: ``ok`` (exit 0, nothing but warnings on stderr), ``refused`` (exit 1 or
2 with one short error line, or the battle stopped by its time limit, exit 124)
or ``failure`` (an exception out of the command, a refusal that is not one short
line, a replay we wrote that does not verify).
"""

from __future__ import annotations

import contextlib
import io
import json
import zlib
from pathlib import Path
from typing import Any

#: The check :mod:`.io.fuzz_runner` runs for ``bench/fuzz.py`` and CI.
TARGET = "sodwa_editor.cli_fuzz:check_case"
#: Seconds a fuzzed battle may run (``sodwa battle --time-limit``); the runner's
#: limit per case is larger (the replay is verified after it).
BATTLE_SECONDS = 1.5
#: The ``sodwa battle`` option of each battle file.
OPTION = {"team": "teams"}
#: Longest error line ``sodwa`` prints (:data:`sodwa_editor.cli_common.MAX_LINE`).
LONGEST_LINE = 601


class CommandFailure(Exception):
    """A command that ended badly without an exception (see the module docstring)."""


def check_case(data: bytes, workdir: str) -> dict[str, str]:
    """The outcome of one case as :func:`.io.fuzz_check.check_case` gives it: a map
    or a pack through the map checks, a battle file through the commands, and what
    is neither (not JSON, no known ``format``) through both (the worse outcome)."""
    from .io.fuzz_check import FAILURE, REFUSED
    from .io.fuzz_check import check_case as check_map

    kind = battle_kind(data)
    if kind == MAP:
        return check_map(data, workdir)
    battle = _check_battle(data, workdir, kind)
    if kind or battle["outcome"] == FAILURE:
        return battle
    found = check_map(data, workdir)
    if found["outcome"] == FAILURE or battle["outcome"] != REFUSED:
        return found
    return battle


def _check_battle(data: bytes, workdir: str, kind: str) -> dict[str, str]:
    import traceback

    from .io.fuzz_check import FAILURE, REFUSED, Outcome, failure_kind

    work = Path(workdir)
    path = work / "case.json"
    path.write_bytes(data)
    state = {"stage": "battle"}
    try:
        outcome, refusal, line = check_battle_file(path, kind, work, state)
    except CommandFailure as exc:
        return Outcome(FAILURE, state["stage"], f"{state['stage']}: {exc}"[:200],
                       str(exc)[:2000]).to_json()
    except Exception as exc:  # noqa: BLE001 - every other exception is a finding
        tb = "".join(traceback.format_exception(exc))
        return Outcome(FAILURE, state["stage"], failure_kind(state["stage"], exc),
                       tb[-4000:]).to_json()
    if outcome == REFUSED:
        return Outcome(REFUSED, state["stage"], refusal, line).to_json()
    return Outcome(outcome).to_json()


#: :func:`battle_kind` of a map or a pack.
MAP = "map"


def battle_kind(data: bytes) -> str:
    """The battle file ``data`` holds by its ``format`` (``team``, ``replay``, ...);
    :data:`MAP` for a map or a pack; ``""`` for anything else (not JSON, not an
    object, no known ``format``: a file broken there, which every check reads)."""
    from .io.fuzz import BATTLE_FORMATS

    try:
        doc = json.loads(data.decode("utf-8", "replace"))
    except (ValueError, RecursionError):
        return ""
    if not isinstance(doc, dict):
        return ""
    fmt = doc.get("format")
    if isinstance(fmt, str) and fmt in BATTLE_FORMATS:
        return BATTLE_FORMATS[fmt]
    if fmt in ("sodwa-map", "sodwa-mappack") or "terrain" in doc or "maps" in doc:
        return MAP
    return ""


def sodwa(*args: object) -> tuple[int, str, str]:
    """``sodwa ARGS`` in this process: exit code, stdout, stderr."""
    from .cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main([str(a) for a in args])
    return code, out.getvalue(), err.getvalue()


def judged(code: int, err: str, what: str) -> str:
    """``ok`` or ``refused`` for a command's exit code and stderr, or raise
    :class:`CommandFailure` (more than one error line, a long one, a traceback)."""
    lines = [line for line in err.splitlines() if ": warning: " not in line]
    if "Traceback" in err:
        raise CommandFailure(f"{what}: a traceback on stderr")
    if any(len(line) > LONGEST_LINE for line in err.splitlines()):
        raise CommandFailure(f"{what}: an error line of over {LONGEST_LINE} characters")
    if code == 0:
        if lines:
            raise CommandFailure(f"{what}: exit 0 with an error line")
        return "ok"
    if code not in (1, 2, 124) or len(lines) != 1:
        raise CommandFailure(f"{what}: exit {code} with {len(lines)} error line(s)")
    return "refused"


def check_battle_file(path: Path, kind: str, work: Path, state: dict[str, str]
                      ) -> tuple[str, str, str]:
    """Run the checks of a battle file (``kind`` from :func:`battle_kind`); returns
    ``(outcome, kind of refusal, its line)`` of the last check, a failure raised."""
    from .engine.samples import SAMPLE_MAPS
    from .io.files import save_map
    from .io.fuzz import BATTLE_MAP

    battle_map = work / f"{BATTLE_MAP}.json"
    if not battle_map.exists():
        save_map(SAMPLE_MAPS[BATTLE_MAP](), battle_map)
    kinds = [kind] if kind else ["team", "roster", "rules", "ai-profile", "replay"]
    result = ("ok", "", "")
    for each in kinds:
        state["stage"] = f"battle-{each}"
        got = _check_one(path, each, battle_map, work, state)
        if got[0] != "ok" or kind:
            result = got
    return result


def _check_one(path: Path, kind: str, battle_map: Path, work: Path, state: dict[str, str]
               ) -> tuple[str, str, str]:
    if kind == "replay":
        code, _out, err = sodwa("replay", path, "--verify")
        outcome = judged(code, err, "replay --verify")
        if outcome == "ok":
            state["stage"] = "replay-json"
            code, out, err = sodwa("replay", path, "--json")
            if judged(code, err, "replay --json") != "ok":
                raise CommandFailure("a replay that verifies does not re-play")
            json.loads(out)
        return outcome, "replay", _line(err)
    out_file = work / "out-replay.json"
    out_file.unlink(missing_ok=True)
    args: list[Any] = ["battle", battle_map, "--seed", "1", "--time-limit", BATTLE_SECONDS,
                       "--replay", out_file, "--json"]
    verify: list[Any] = ["replay", out_file, "--verify"]
    if kind == "ai-profile":
        short = work / "short-rules.json"
        short.write_text('{"format": "sodwa-rules", "format_version": 1, '
                         '"battle": {"max_turns": 30}}', encoding="utf-8")
        args += ["--ai", "greedy,random", "--ai-profile", path, "--rules", short]
        verify += ["--ai-profile", path]
    else:
        ai = "greedy,random" if zlib.crc32(path.read_bytes()) % 2 else "random,random"
        args += ["--ai", ai, f"--{OPTION.get(kind, kind)}", path]
    code, out, err = sodwa(*args)
    outcome = judged(code, err, f"battle --{OPTION.get(kind, kind)}")
    if outcome != "ok":
        what = "battle: time limit" if code == 124 else f"battle --{OPTION.get(kind, kind)}"
        return outcome, what, _line(err)
    json.loads(out)
    state["stage"] = f"verify-{kind}"
    code, _out, err = sodwa(*verify)
    if code != 0:
        raise CommandFailure(f"a replay sodwa battle wrote does not verify: {_line(err)}")
    return "ok", "", ""


def _line(err: str) -> str:
    lines = [line for line in err.splitlines() if ": warning: " not in line]
    return (lines[-1] if lines else "")[:300]
