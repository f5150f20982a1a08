"""Which files may be read or written: the checks every reader and writer of
:mod:`sodwa_editor.io` (and the editor and ``sodwa`` on top of it) goes through.

* Only regular files are read; a FIFO, device, socket or folder is refused
  before it is opened (opening a FIFO with no writer blocks forever):
  :func:`open_regular`, which lives in :mod:`sodwa_editor.engine.regular_files`
  so that the battle package's readers use the same one.
* A save replaces only an absent or regular, writable file
  (:func:`writable_target`); a rename would otherwise turn a FIFO or a device
  node into a plain file.
* An output that is one of the inputs is refused (:func:`refuse_output_among_inputs`):
  the same file, also through symbolic and hard links.
* Temporary files of an interrupted save (``.<name>.<8 hex digits>.tmp`` beside
  the target) are removed by the next save of that target once they are stale
  (:func:`remove_stale_temps`).
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
import stat
import time
from collections.abc import Iterable
from pathlib import Path

from ..engine.regular_files import NotRegularFileError, file_kind, open_regular, os_reason
from .problems import MapSaveError

__all__ = ["NotRegularFileError", "file_kind", "open_regular", "os_reason",  # (engine's)
           "writable_target", "resolved", "same_file", "refuse_output_among_inputs",
           "temp_path", "is_our_temp", "hold_temp", "remove_stale_temps",
           "STALE_TEMP_SECONDS", "PathLike"]

PathLike = str | os.PathLike[str]

#: A temporary file of our own naming is stale (removed by the next save of its
#: target) when no process holds its lock and it was last written this long ago.
STALE_TEMP_SECONDS = 60.0

_TEMP_NAME = re.compile(r"\.(.+)\.[0-9a-f]{8}\.tmp", re.DOTALL)

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: the age alone decides
    fcntl = None  # type: ignore[assignment]


def writable_target(path: PathLike) -> Path:
    """The file a save to ``path`` replaces (``path``, or the file a symbolic link
    there points to), once it is known that it may be replaced: it is absent, or a
    regular file that is not read-only.  Raises :class:`MapSaveError` saying why
    not (a FIFO, a device node, a folder, a symlink loop, ...); nothing is written.
    Every writer calls this before it writes anything."""
    src = os.fspath(path)
    try:
        st: os.stat_result | None = os.stat(src)
    except FileNotFoundError:
        st = None  # a new file (or a link to one)
    except OSError as exc:  # a symlink loop, a path through a file, no permission
        raise MapSaveError(f"cannot save {src}: {os_reason(exc)}; nothing was written") from exc
    target = Path(os.path.realpath(src)) if os.path.islink(src) else Path(src)
    if st is None:
        return target
    if not stat.S_ISREG(st.st_mode):
        raise MapSaveError(f"cannot save {src}: it is {file_kind(st.st_mode)}, not a regular "
                           "file; it was left untouched")
    if not os.access(target, os.W_OK) or not st.st_mode & 0o222:  # (root passes access)
        raise MapSaveError(f"cannot save {target}: the file is read-only; the previous "
                           "file is unchanged")
    return target


def resolved(path: PathLike) -> Path:
    """``path`` made absolute with symbolic links resolved; unlike
    ``Path.resolve()`` it never raises for a symlink loop (left unresolved)."""
    return Path(os.path.realpath(path))


def same_file(a: PathLike, b: PathLike) -> bool:
    """True if ``a`` and ``b`` are one existing file (through symbolic or hard links)."""
    try:
        sa, sb = os.stat(a), os.stat(b)
    except (OSError, ValueError):
        return False
    return (sa.st_dev, sa.st_ino) == (sb.st_dev, sb.st_ino)


def refuse_output_among_inputs(output: PathLike, inputs: Iterable[PathLike]) -> None:
    """Raise :class:`MapSaveError` if writing ``output`` would replace one of
    ``inputs`` (the same file by path, symbolic link or hard link)."""
    for src in inputs:
        if same_file(output, src):
            same = "" if os.fspath(src) == os.fspath(output) else f" (the same file as {src})"
            raise MapSaveError(f"cannot write {output}: it is one of the input files{same}; "
                               "choose another output file")


def temp_path(target: Path) -> Path:
    """A fresh temporary file name beside ``target``: ``.<name>.<8 hex>.tmp``."""
    return target.parent / f".{target.name}.{secrets.token_hex(4)}.tmp"


def is_our_temp(name: str, target_name: str | None = None) -> bool:
    """True if ``name`` follows our temporary naming (for ``target_name`` if given)."""
    match = _TEMP_NAME.fullmatch(name)
    return match is not None and (target_name is None or match.group(1) == target_name)


def hold_temp(fd: int) -> None:
    """Mark an open temporary file as in use (released when the process ends)."""
    if fcntl is not None:
        with contextlib.suppress(OSError):
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)


def _is_stale(path: Path, now: float) -> bool:
    try:
        st = os.lstat(path)
    except OSError:
        return False
    if not stat.S_ISREG(st.st_mode) or now - st.st_mtime < STALE_TEMP_SECONDS:
        return False
    if fcntl is None:
        return True
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False  # a live save holds it
    finally:
        os.close(fd)
    return True


def remove_stale_temps(folder: Path, target_name: str | None = None) -> list[Path]:
    """Delete stale temporary files of our own naming in ``folder`` (only those of
    ``target_name`` when given): left by a save that was killed before its rename.
    Best effort; returns what was removed."""
    removed: list[Path] = []
    now = time.time()
    try:
        names = os.listdir(folder)
    except OSError:
        return removed
    for name in names:
        if is_our_temp(name, target_name) and _is_stale(folder / name, now):
            with contextlib.suppress(OSError):
                os.unlink(folder / name)
                removed.append(folder / name)
    return removed
