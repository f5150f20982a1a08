"""Reading and writing map files: size-limited reads, JSON errors with line and
column, the full problem report, and atomic saves.

>>> from sodwa_editor.engine.model import MapModel
>>> model, problems = parse_map(dumps_map(MapModel(3, 2, name="tiny")))
>>> model.width, model.height, problems
(3, 2, [])
"""

from __future__ import annotations

import contextlib
import json
import os
from collections import Counter
from pathlib import Path
from typing import Any

from ..engine.model import MapModel
from .checks import Locator, validate_model
from .decode import decode_map
from .encode import dumps_map
from .paths import (
    NotRegularFileError,
    PathLike,
    hold_temp,
    open_regular,
    os_reason,
    remove_stale_temps,
    temp_path,
    writable_target,
)
from .problems import MapLoadError, MapSaveError, Problem, error, has_errors
from .values import parse_checked

#: Files larger than this are refused before they are read.
MAX_FILE_BYTES = 64 * 1024 * 1024


class _BadConstant(ValueError):
    pass


def _reject_constant(name: str) -> Any:
    raise _BadConstant(name)


def read_text(path: PathLike) -> tuple[str | None, list[Problem]]:
    """The UTF-8 text of a file, or problems saying why it cannot be read."""
    src = str(path)
    try:
        fd = open_regular(path)  # a FIFO or device is refused before it is opened
        with os.fdopen(fd, "rb") as f:
            size = os.fstat(fd).st_size
            if size > MAX_FILE_BYTES:
                return None, [error(f"the file is {size / 2**20:.1f} MiB; files over "
                                    f"{MAX_FILE_BYTES // 2**20} MiB are refused",
                                    code="file-size").located(source=src)]
            data = f.read(size + 1)  # (a larger request would be allocated up front)
            if len(data) > size:  # grew since stat
                data += f.read(MAX_FILE_BYTES + 1 - len(data))
    except FileNotFoundError:
        return None, [error("file not found", code="file").located(source=src)]
    except NotRegularFileError as exc:
        return None, [error(f"cannot read the file: {exc}", code="file").located(source=src)]
    except OSError as exc:
        return None, [error(f"cannot read the file: {os_reason(exc)}", code="file")
                      .located(source=src)]
    if len(data) > MAX_FILE_BYTES:
        return None, [error(f"the file is over {MAX_FILE_BYTES // 2**20} MiB; refused",
                            code="file-size").located(source=src)]
    try:
        return data.decode("utf-8-sig"), []
    except UnicodeDecodeError as exc:
        return None, [error(f"the file is not UTF-8 text (byte 0x{data[exc.start]:02x} at "
                            f"offset {exc.start})", code="encoding").located(source=src)]


def parse_json(text: str | bytes, *, source: str | None = None, strict: bool = True
               ) -> tuple[Any, list[Problem]]:
    """Parsed JSON, or ``(None, problems)`` naming the line and column of a syntax error.
    ``strict=False`` accepts control characters inside strings (Tiled 1.8 writes
    them so: :mod:`.tiled_read`).

    NaN and Infinity are refused; so are objects that repeat a key, and values
    no map can hold (:mod:`.values`): integers of more than 4,300 digits, numbers
    beyond the float range and strings holding a lone UTF-16 surrogate, each
    reported at its JSON pointer.
    """
    if len(text) > MAX_FILE_BYTES:
        return None, [error(f"the text is over {MAX_FILE_BYTES // 2**20} MiB; refused",
                            code="file-size").located(source=source)]
    duplicates: list[str] = []

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        out = dict(items)
        if len(out) != len(items):
            counts = Counter(k for k, _ in items)
            duplicates.extend(k for k, n in counts.items() if n > 1)
        return out

    try:
        doc, unholdable = parse_checked(text, object_pairs_hook=pairs,
                                        parse_constant=_reject_constant, strict=strict)
    except json.JSONDecodeError as exc:
        msg = f"invalid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}"
        return None, [error(msg, code="json").located(source=source)]
    except _BadConstant as exc:
        return None, [error(f"invalid JSON: {exc} is not a number JSON allows",
                            code="json").located(source=source)]
    except UnicodeDecodeError as exc:
        return None, [error(f"the text is not UTF-8 ({exc.reason} at offset {exc.start})",
                            code="encoding").located(source=source)]
    except RecursionError:
        return None, [error("invalid JSON: nested too deeply", code="json")
                      .located(source=source)]
    if unholdable:
        return None, [p.located(source=source) for p in unholdable]
    if duplicates:
        return None, [error(f"invalid JSON: key {k!r} appears twice in one object", code="json")
                      .located(source=source) for k in dict.fromkeys(duplicates)]
    return doc, []


def map_from_doc(doc: Any, *, source: str | None = None, prefix: str = "",
                 map_name: str | None = None, schema_checked: bool = False
                 ) -> tuple[MapModel | None, list[Problem]]:
    """Model and every problem of a parsed map document (also used for maps in packs).

    The model is ``None`` when the document cannot be turned into a map (format,
    schema or document errors); game-rule errors come with a model.
    """
    model, problems = decode_map(doc, schema_checked=schema_checked)
    if model is not None:
        problems += validate_model(model, locator=Locator(model, doc))
    located = [p.located(source=source, prefix=prefix, map_name=map_name) for p in problems]
    return model, located


def parse_map(text: str | bytes, *, source: str | None = None
              ) -> tuple[MapModel | None, list[Problem]]:
    """Model and problems of a map file's text."""
    doc, problems = parse_json(text, source=source)
    if problems:
        return None, problems
    return map_from_doc(doc, source=source)


def read_map(path: PathLike) -> tuple[MapModel | None, list[Problem]]:
    """Model and problems of a map file; never raises for bad input.

    The model is ``None`` when the file is not a readable map; it comes back with
    game-rule errors (e.g. a character on a wall) so the editor can open and fix it.
    """
    text, problems = read_text(path)
    if text is None:
        return None, problems
    return parse_map(text, source=str(path))


def load_map(path: PathLike, *, strict: bool = True) -> MapModel:
    """The map of a file; raises :class:`MapLoadError` (with ``.problems``) when it
    cannot be built or, if ``strict``, when it has any error."""
    model, problems = read_map(path)
    if model is None or (strict and has_errors(problems)):
        raise MapLoadError(str(path), problems)
    return model


def save_map(model: MapModel, path: PathLike) -> None:
    """Write ``model`` to ``path`` atomically in the canonical format.

    Raises :class:`MapSaveError` (an ``OSError``) if the map cannot be stored or
    written; the previous file, if any, is then left exactly as it was.
    """
    try:
        text = dumps_map(model)
    except ValueError as exc:
        raise MapSaveError(f"cannot save {path}: {exc}") from exc
    atomic_write_text(path, text)


def atomic_write_text(path: PathLike, text: str) -> None:
    """Write UTF-8 ``text`` to a temporary file beside ``path``, flush and fsync it,
    then rename it over ``path`` (``os.replace``).  A symbolic link is followed:
    the file it points to is replaced and the link kept.  Only an absent or
    regular, writable file is replaced (:func:`.paths.writable_target`); stale
    temporary files of an earlier, killed save of the same file are removed."""
    target = writable_target(path)  # absent or a regular file: never a FIFO or device
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError as exc:  # a lone surrogate: no UTF-8 file can hold it
        raise MapSaveError(f"cannot save {target}: the text holds \\u{ord(text[exc.start]):04x}, "
                           "which is not a Unicode character; the previous file is "
                           "unchanged") from exc
    atomic_write_bytes(path, data)


def atomic_write_bytes(path: PathLike, data: bytes) -> None:
    """Write ``data`` as :func:`atomic_write_text` writes text (e.g. a PNG)."""
    target = writable_target(path)  # absent or a regular file: never a FIFO or device
    folder = target.parent
    remove_stale_temps(folder, target.name)  # left by a save that was killed
    tmp = temp_path(target)
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    except OSError as exc:
        raise MapSaveError(f"cannot save {target}: cannot create a file in {folder}: "
                           f"{exc.strerror or exc}") from exc
    try:
        hold_temp(fd)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        with contextlib.suppress(OSError):
            os.chmod(tmp, os.stat(target).st_mode & 0o7777)
        writable_target(target)  # (still: it may have been swapped meanwhile)
        os.replace(tmp, target)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(exc, OSError) and not isinstance(exc, MapSaveError):
            raise MapSaveError(f"could not save {target}: {exc.strerror or exc}; the previous "
                               "file is unchanged") from exc
        raise
    _fsync_dir(folder)


def _fsync_dir(folder: Path) -> None:
    """Make the rename durable (POSIX); harmless no-op where directories cannot be opened."""
    with contextlib.suppress(OSError, AttributeError):
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
