"""What every ``sodwa`` command module shares: the one-line error, the exit codes,
the argument types, JSON output and the check that an output file never replaces
a file the command reads.

``cli.py`` (the command and its map commands), ``cli_battle.py`` (``battle``,
``replay``) and ``cli_simulate.py`` (``simulate``, which reads its maps and battle
files through ``cli_battle.py``) import this module; ``cli.py`` imports the others
only for their parsers and handlers, so there is no import circle.

Exit codes: 0 success, 1 the input is invalid (or a query failed), 2 the command
line is wrong (an output that is one of the inputs included), 69 a batch its
workers could not finish (``simulate``), 74 the output could not be written,
124 a battle went over its ``--time-limit``, 130 interrupted, 141 the reader of
the output went away, 143 ended by SIGTERM (``simulate``).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

Tile = tuple[int, int]

#: Exit code when standard output cannot be written (closed, disk full, I/O
#: error): EX_IOERR of sysexits.h.  A reader that went away is 141 instead.
EXIT_OUTPUT = 74
#: Exit code of a battle stopped by its ``--time-limit`` (as ``timeout(1)``).
EXIT_BUDGET = 124
#: Longest error line printed; a longer message is cut in the middle (a value of
#: thousands of digits in a file must not fill the terminal).
MAX_LINE = 600


class CliError(Exception):
    """A problem with the command line or its inputs, reported in one line."""

    def __init__(self, message: str, code: int = 1) -> None:
        super().__init__(message)
        self.code = code


class OutputError(CliError):
    """Standard output cannot be written; the command's result is lost."""

    def __init__(self, why: str) -> None:
        super().__init__(f"cannot write the output: {why}", code=EXIT_OUTPUT)


def short(text: str, limit: int = MAX_LINE) -> str:
    """``text`` itself, or its start and end around ``... (N characters) ...`` when
    it is longer than ``limit``; each line of a several-line message on its own."""
    lines = text.split("\n")
    out = []
    for line in lines:
        if len(line) > limit:
            keep = (limit - 40) // 2
            line = f"{line[:keep]} ... ({len(line)} characters) ... {line[-keep:]}"
        out.append(line)
    return "\n".join(out)


def say(text: str) -> None:
    """One line on stderr (nothing if stderr itself is gone)."""
    if sys.stderr is not None:
        with contextlib.suppress(OSError, ValueError):
            print(text, file=sys.stderr, flush=True)


def emit(data: Any, *, compact: bool = False) -> None:
    """Write ``data`` as JSON: indented, or ``compact`` on one line (the C encoder:
    ten times faster, for outputs of millions of values such as ``graph --json``)."""
    if compact:
        sys.stdout.write(json.dumps(data, separators=(",", ":")))
    else:
        json.dump(data, sys.stdout, indent=2)
    sys.stdout.write("\n")


# ----------------------------------------------------------------- argument types
def _shown(text: str) -> str:
    return text if len(text) <= 24 else f"{text[:12]}... ({len(text)} characters)"


def non_negative(text: str) -> int:
    """argparse type: a whole number, 0 or more."""
    try:
        value = int(text)
    except ValueError:  # (also a number of more digits than Python converts)
        raise argparse.ArgumentTypeError(
            f"expected a whole number, got {_shown(text)!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, got {_shown(text)}")
    return value


def positive(text: str) -> int:
    """argparse type: a whole number, 1 or more."""
    value = non_negative(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more, got {value}")
    return value


def whole_in(low: int, high: int) -> Any:
    """argparse type: a whole number from ``low`` (0 or more) to ``high``."""

    def parse(text: str) -> int:
        value = non_negative(text)
        if value < low:
            raise argparse.ArgumentTypeError(f"must be {low} or more, got {value}")
        if value > high:
            raise argparse.ArgumentTypeError(f"must be at most {high}, got {_shown(text)}")
        return value

    parse.__name__ = f"whole number {low}..{high}"  # (argparse's "invalid ... value")
    return parse


def seconds(text: str) -> float:
    """argparse type: a time in seconds, more than 0 and at most a week."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected a number of seconds, got {_shown(text)!r}") from None
    if not 0 < value <= 7 * 24 * 3600:  # (NaN fails too)
        raise argparse.ArgumentTypeError(
            f"must be more than 0 and at most 604800 (a week), got {_shown(text)}")
    return value


# ----------------------------------------------------------------- output files
def package_data_files() -> list[tuple[Path, str]]:
    """Every file the commands may read without being told: the default rules,
    roster and AI profile (``resources/``) and the JSON Schemas (``schemas/``),
    each with what it is.  Looked up at call time (tests point them at copies)."""
    from .battle import jsonfiles, rules, sheet
    from .battle.ai import profile

    out = [(Path(rules.DEFAULT_RULES_PATH), "the default rules"),
           (Path(sheet.DEFAULT_ROSTER_PATH), "the default roster"),
           (Path(profile.DEFAULT_PROFILE), "the default AI profile")]
    for folder, what in ((jsonfiles.RESOURCE_DIR, "a default resource"),
                         (jsonfiles.SCHEMA_DIR, "a JSON Schema")):
        with contextlib.suppress(OSError):
            out += [(p, what) for p in sorted(Path(folder).glob("*.json"))]
    return out


def _same(a: Path, b: Path) -> bool:
    """One existing file: the same path once links are resolved, or the same device
    and inode (a hard link; :func:`.io.paths.same_file`)."""
    from .io.paths import resolved, same_file

    if not os.path.exists(a):
        return False
    return resolved(a) == resolved(b) or same_file(a, b)


def check_output(output: Path, inputs: Iterable[Path], refused: str = "") -> None:
    """Refuse (exit 2) an output file that is one of ``inputs`` or one of the files
    the command reads by default (:func:`package_data_files`), by path, symbolic
    link or hard link; and an output the writer would refuse (a folder, a FIFO, a
    device, a read-only file) before any work is done (exit 1; ``refused`` starts
    that line, e.g. ``pack not written``)."""
    from .io.paths import writable_target
    from .io.problems import MapSaveError

    named = [(Path(p), "") for p in inputs]
    for src, what in [*named, *package_data_files()]:
        if _same(output, src):
            same = "" if os.fspath(src) == os.fspath(output) else f" (the same file as {src})"
            kind = f"{what}, which this command reads" if what else "one of the input files"
            raise CliError(f"cannot write {output}: it is {kind}{same}; choose another "
                           "output file", code=2)
    try:
        target = writable_target(output)
        if not target.parent.is_dir():
            raise MapSaveError(f"cannot save {target}: cannot create a file in "
                               f"{target.parent}: No such file or directory")
    except MapSaveError as exc:
        raise CliError(f"{refused}: {exc}" if refused else str(exc)) from exc


def write_output(path: Path, text: str, inputs: Iterable[Path]) -> None:
    """Write an output file atomically (io's writer: never a FIFO or device, never
    half a file) after :func:`check_output` (checked again: the inputs were read
    meanwhile)."""
    from .io.files import atomic_write_text

    check_output(path, inputs)
    try:
        atomic_write_text(path, text)
    except OSError as exc:  # MapSaveError: says what and where
        raise CliError(str(exc)) from exc


def parse_tile(text: str) -> Tile:
    """argparse type for ``X,Y``."""
    parts = text.replace(" ", "").split(",")
    if len(parts) != 2 or not all(p.lstrip("-").isdigit() for p in parts):
        raise argparse.ArgumentTypeError(f"expected X,Y (two integers), got {text!r}")
    return int(parts[0]), int(parts[1])


def load_map(path: Path) -> Any:
    """The map of a ``MAP`` argument, or one error naming every problem that stops it."""
    from .io import read_map

    model, problems = read_map(path)
    if model is None:
        lines = "\n".join(f"  {p}" for p in problems if p.severity == "error")
        raise CliError(f"{path} is not a valid map:\n{lines}")
    return model


def check_tile(model: Any, tile: Tile, flag: str) -> None:
    """Refuse (exit 2) a tile of a command line option that is off the map."""
    if not model.in_bounds(*tile):
        raise CliError(
            f"{flag} {tile[0]},{tile[1]} is outside the {model.width}x{model.height} map "
            f"(x 0..{model.width - 1}, y 0..{model.height - 1})",
            code=2,
        )
