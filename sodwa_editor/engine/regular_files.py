"""Opening a file for reading only if it is a regular file, never blocking.

The one implementation of "read a regular file" that every reader of the
project goes through: :mod:`sodwa_editor.io` (maps, packs) and
:mod:`sodwa_editor.battle` (rules, rosters, teams, AI profiles, replays).  It
lives at the bottom layer so that both may import it (the battle package
imports only the engine; ``tests/test_architecture.py``).

A FIFO, device, socket or folder is refused before it is opened: opening a FIFO
that has no writer blocks forever, and reading a device may never end.

>>> import tempfile, os
>>> with tempfile.TemporaryDirectory() as d:
...     try:
...         open_regular(d)
...     except NotRegularFileError as exc:
...         print(exc)
it is a folder, not a regular file
"""

from __future__ import annotations

import os
import stat

PathLike = str | os.PathLike[str]


def file_kind(mode: int) -> str:
    """What a file that is not a regular file is, in a designer's words."""
    for test, name in ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a named pipe (FIFO)"),
                       (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                       (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return name
    return "a regular file" if stat.S_ISREG(mode) else "not a regular file"


def os_reason(exc: OSError) -> str:
    """The reason an ``OSError`` gives, without Python's ``[Errno n]`` decoration."""
    return exc.strerror or str(exc)


class NotRegularFileError(OSError):
    """Raised for a path that is a FIFO, device, socket or folder."""

    def __init__(self, kind: str) -> None:
        super().__init__(f"it is {kind}, not a regular file")
        self.kind = kind


def open_regular(path: PathLike) -> int:
    """A read-only descriptor of ``path``; raises ``OSError``
    (:class:`NotRegularFileError` for a FIFO, device, socket or folder) unless it
    is a regular file that can be opened.

    The kind is checked before opening (so a device is never opened) and again on
    the open descriptor (so a file swapped for a FIFO meanwhile cannot block:
    the open is non-blocking).
    """
    st = os.stat(path)
    if not stat.S_ISREG(st.st_mode):
        raise NotRegularFileError(file_kind(st.st_mode))
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise NotRegularFileError(file_kind(st.st_mode))
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return fd


def read_regular(path: PathLike, limit: int) -> bytes:
    """The bytes of the regular file ``path``, at most ``limit + 1`` of them (so a
    caller sees that a file is over ``limit``).  Raises as :func:`open_regular`."""
    fd = open_regular(path)
    with os.fdopen(fd, "rb") as f:
        size = os.fstat(fd).st_size
        if size > limit:
            return f.read(limit + 1)
        data = f.read(size + 1)  # (a larger request would be allocated up front)
        if len(data) > size:  # grew since stat
            data += f.read(limit + 1 - len(data))
        return data
