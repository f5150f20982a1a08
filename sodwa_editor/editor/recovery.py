"""Autosave to a recovery file and recovery after a crash.

While a document has unsaved changes it is written (atomically) every few
seconds after an edit to ``<data dir>/recovery/<session>.json``, a small JSON
wrapper holding the original file path, the time and the map text.  Saving or
closing normally deletes the file.  A session holds a ``QLockFile`` beside it;
on start-up, recovery files whose lock is not held by a live editor are
offered for recovery (a lock that is a folder or holds garbage names no live
editor and hides nothing).  A recovery file whose map cannot be read is moved
aside to ``<session>.json.broken`` after the first failed attempt, so it is
not offered again.
"""

from __future__ import annotations

import contextlib
import json
import os
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QLockFile, QObject, QStandardPaths, QTimer

from ..engine.model import MapModel

AUTOSAVE_DELAY_MS = 5000


def default_dir() -> Path:
    base = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation)
    return Path(base or Path.home() / ".sodwa-editor") / "recovery"


@dataclass
class RecoveryEntry:
    file: Path
    original: Path | None
    saved_at: float
    map_name: str

    def describe(self) -> str:
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(self.saved_at)) \
            if self.saved_at > 0 else "at an unknown time"
        where = str(self.original) if self.original else "an unsaved map"
        return f"{self.map_name} ({where}), autosaved {when}"


class Recovery(QObject):
    def __init__(self, document, directory: Path | None = None,
                 delay_ms: int = AUTOSAVE_DELAY_MS) -> None:
        super().__init__(document)
        self.doc = document
        self.dir = Path(directory) if directory is not None else default_dir()
        self.session = uuid.uuid4().hex[:12]
        self.file = self.dir / f"{self.session}.json"
        self.lock: QLockFile | None = None
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.setInterval(delay_ms)
        self.timer.timeout.connect(self.autosave)

    def _ensure_lock(self) -> None:
        if self.lock is None:
            self.dir.mkdir(parents=True, exist_ok=True)
            self.lock = QLockFile(str(self.dir / f"{self.session}.lock"))
            self.lock.setStaleLockTime(0)
            self.lock.tryLock(0)

    def schedule(self) -> None:
        """Arm the autosave after an edit (not re-armed by further edits, so
        continuous editing still autosaves every few seconds).  Not during a
        stroke: its steps are not on the undo stack yet (a clean map would
        look unmodified and have its recovery file deleted at every step);
        the stroke's end is an edit too."""
        if self.doc.in_stroke:
            return
        if self.doc.modified:
            if not self.timer.isActive():
                self.timer.start()
        else:
            self.timer.stop()
            self.discard(keep_lock=True)

    def autosave(self) -> bool:
        """Write the recovery file now (only when there are unsaved changes)."""
        if not self.doc.modified:
            return False
        from ..io import atomic_write_text, dumps_map

        try:
            self._ensure_lock()
            data = {
                "original": str(self.doc.path) if self.doc.path else None,
                "saved_at": time.time(),
                "map_name": self.doc.model.name,
                "map": dumps_map(self.doc.model),
            }
            atomic_write_text(self.file, json.dumps(data))
        except (OSError, ValueError):
            return False  # autosave is best effort; the document itself is untouched
        return True

    def discard(self, keep_lock: bool = False) -> None:
        self.timer.stop()
        with contextlib.suppress(OSError):
            self.file.unlink()
        if not keep_lock and self.lock is not None:
            self.lock.unlock()
            self.lock = None

    # ------------------------------------------------------------- start-up
    def pending(self) -> list[RecoveryEntry]:
        """Recovery files left by editors that are no longer running."""
        if not self.dir.is_dir():
            return []
        from ..io.paths import remove_stale_temps

        remove_stale_temps(self.dir)  # of autosaves killed while writing
        out = []
        for f in sorted(self.dir.glob("*.json")):
            if f == self.file or _held_by_live_editor(f.with_suffix(".lock")):
                continue  # another editor is alive and owns it
            data = _read_wrapper(f)
            if isinstance(data, str):
                continue  # not a recovery file this editor wrote; leave it alone
            original = data.get("original")
            saved_at = data.get("saved_at")
            if not (isinstance(saved_at, int | float) and 0 <= saved_at < 1e11):
                saved_at = 0.0  # damaged time: offered as "at an unknown time"
            out.append(RecoveryEntry(
                f, Path(original) if isinstance(original, str) and "\0" not in original
                and Path(original).name else None,
                float(saved_at), str(data.get("map_name") or "untitled")[:200]))
        return out

    @staticmethod
    def load(entry: RecoveryEntry) -> tuple[MapModel | None, list]:
        from ..io import parse_map

        data = _read_wrapper(entry.file)
        if isinstance(data, str):
            return None, [f"{entry.file}: {data}"]
        return parse_map(data["map"], source=str(entry.file))

    @staticmethod
    def forget(entry: RecoveryEntry) -> None:
        with contextlib.suppress(OSError):
            entry.file.unlink()
        _remove_lock(entry.file.with_suffix(".lock"))

    @staticmethod
    def set_aside(entry: RecoveryEntry) -> Path | None:
        """Move a recovery file that could not be recovered out of the way
        (``<session>.json.broken``, never deleted) so that it is not offered again;
        the new path, or None if it could not be moved."""
        dest = entry.file.with_name(entry.file.name + ".broken")
        n = 1
        while os.path.lexists(dest):
            n += 1
            dest = entry.file.with_name(f"{entry.file.name}.{n}.broken")
        try:
            os.rename(entry.file, dest)
        except OSError:
            return None
        _remove_lock(entry.file.with_suffix(".lock"))
        return dest


def _held_by_live_editor(lock_path: Path) -> bool:
    """True if a running editor holds ``lock_path``.  Only a lock file that names a
    process which still runs counts: a folder, or a file of garbage, in its place
    proves nothing and must not hide the recovery file beside it."""
    if not lock_path.is_file():
        return False
    lock = QLockFile(str(lock_path))
    lock.setStaleLockTime(0)
    pid = lock.getLockInfo()[0]  # PySide6: (pid, hostname, appname); pid 0 if unreadable
    if not isinstance(pid, int) or pid <= 0:
        return False
    if lock.tryLock(0):  # its process is gone
        lock.unlock()
        return False
    return True


def _remove_lock(path: Path) -> None:
    """Remove a stale lock, or an empty folder left where a lock belongs."""
    with contextlib.suppress(OSError):
        if path.is_dir() and not path.is_symlink():
            path.rmdir()
        else:
            path.unlink()


def _read_wrapper(path: Path) -> dict | str:
    """The recovery wrapper object in ``path``, or why it cannot be used."""
    from ..io.files import read_text

    text, problems = read_text(path)  # (refuses a FIFO or device: start-up never blocks)
    if text is None:
        return f"cannot read the recovery file: {problems[0].message if problems else '?'}"
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:  # (absurdly nested JSON)
        why = "nested too deeply" if isinstance(exc, RecursionError) else str(exc)
        return f"cannot read the recovery file: {why}"
    if not isinstance(data, dict) or not isinstance(data.get("map"), str):
        return "not a recovery file (no map text inside)"
    return data
