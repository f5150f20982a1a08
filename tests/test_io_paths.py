"""Files that are never overwritten, hidden or blocked on: readers refuse FIFOs and
devices before opening them, writers replace only absent or regular files, and
stale temporary files of a killed save are cleaned up by the next save."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from sodwa_editor.engine.model import MapModel
from sodwa_editor.engine.samples import outdoor_skirmish, tiered_keep
from sodwa_editor.io import (
    MapSaveError,
    atomic_write_text,
    build_pack,
    read_any,
    read_map,
    read_pack,
    save_map,
    save_pack,
)
from sodwa_editor.io import paths as io_paths
from sodwa_editor.io.paths import is_our_temp, refuse_output_among_inputs, remove_stale_temps

KEEP = Path(__file__).resolve().parents[1] / "maps" / "tiered-keep.json"
posix_only = pytest.mark.skipif(os.name != "posix", reason="FIFOs, links and flock are POSIX")


def returns_within(seconds, fn, *args, unblock=None):
    """``fn(*args)`` run in a thread; fails (instead of hanging the suite) if it has
    not returned after ``seconds``, then calls ``unblock`` so the thread can end."""
    out: list = []
    worker = threading.Thread(target=lambda: out.append(fn(*args)), daemon=True)
    worker.start()
    worker.join(seconds)
    if worker.is_alive():
        if unblock is not None:
            unblock()
        worker.join(5)
        pytest.fail(f"{getattr(fn, '__name__', fn)} blocked for more than {seconds} s")
    return out[0]


def open_and_close_writer(fifo):
    """Let a reader blocked in ``open(fifo)`` go on (it then reads end of file)."""
    def go():
        with open(fifo, "wb"):
            pass
    return go


@pytest.fixture
def fifo(tmp_path):
    path = tmp_path / "fifo.json"
    os.mkfifo(path)
    return path


# ----------------------------------------------------------------- readers
@posix_only
@pytest.mark.parametrize("reader", [read_map, read_pack, read_any],
                         ids=["read_map", "read_pack", "read_any"])
def test_readers_refuse_a_fifo_without_blocking(fifo, reader):
    _, problems = returns_within(10, reader, fifo, unblock=open_and_close_writer(fifo))
    assert [p.code for p in problems] == ["file"]
    assert "named pipe (FIFO), not a regular file" in problems[0].message
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


@posix_only
def test_a_device_or_a_folder_is_refused_as_not_a_regular_file(tmp_path):
    for path, kind in ((os.devnull, "a character device"), (tmp_path, "a folder")):
        model, problems = read_map(path)
        assert model is None and len(problems) == 1
        assert problems[0].message == f"cannot read the file: it is {kind}, not a regular file"


# ----------------------------------------------------------------- writers
@posix_only
@pytest.mark.parametrize("write", [
    lambda p: save_map(MapModel(3, 2), p),
    lambda p: save_pack(build_pack([KEEP], name="p", version="1")[0] or {}, p),
    lambda p: atomic_write_text(p, "{}"),
], ids=["save_map", "save_pack", "atomic_write_text"])
def test_writers_leave_a_fifo_a_fifo(fifo, write):
    with pytest.raises(MapSaveError, match=r"it is a named pipe \(FIFO\), not a regular file"):
        write(fifo)
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert sorted(p.name for p in fifo.parent.iterdir()) == ["fifo.json"]


@posix_only
def test_a_link_to_a_fifo_is_refused_too(fifo, tmp_path):
    link = tmp_path / "link.json"
    link.symlink_to(fifo)
    with pytest.raises(MapSaveError, match="FIFO"):
        save_map(MapModel(3, 2), link)
    assert link.is_symlink() and stat.S_ISFIFO(os.stat(fifo).st_mode)


@posix_only
def test_a_device_node_is_not_replaced(tmp_path):
    node = tmp_path / "null"
    try:  # a private copy of /dev/null: a failing test must not replace the real one
        os.mknod(node, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    except (PermissionError, OSError) as exc:
        pytest.skip(f"cannot create a device node here: {exc}")
    with pytest.raises(MapSaveError, match="it is a character device, not a regular file"):
        save_map(MapModel(3, 2), node)
    assert stat.S_ISCHR(os.stat(node).st_mode)


@posix_only
def test_a_symlink_loop_is_refused_and_kept(tmp_path):
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    a.symlink_to(b)
    b.symlink_to(a)
    with pytest.raises(MapSaveError, match="Too many levels of symbolic links"):
        save_map(MapModel(3, 2), a)
    assert a.is_symlink() and b.is_symlink()
    assert build_pack([a], name="p", version="1")[1][0].message == \
        "cannot read the file: Too many levels of symbolic links"


@posix_only
def test_an_output_that_is_an_input_is_refused_by_path_and_by_link(tmp_path):
    src = tmp_path / "map.json"
    save_map(tiered_keep(), src)
    (tmp_path / "soft.json").symlink_to(src)
    os.link(src, tmp_path / "hard.json")
    for out in (src, tmp_path / ".." / tmp_path.name / "map.json", tmp_path / "soft.json",
                tmp_path / "hard.json"):
        with pytest.raises(MapSaveError, match="it is one of the input files"):
            refuse_output_among_inputs(out, [tmp_path / "other.json", src])
    refuse_output_among_inputs(tmp_path / "new.json", [src])  # a new file is fine


# ------------------------------------------------------- stale temp files
def test_our_temp_naming_is_matched_exactly():
    assert is_our_temp(".map.json.0123abcd.tmp", "map.json")
    assert is_our_temp(".map.json.0123abcd.tmp")
    for other in ("map.json.0123abcd.tmp", ".map.json.0123abcZ.tmp", ".map.json.0123abc.tmp",
                  ".map.json.0123abcd.tmp.bak", ".other.json.0123abcd.tmp", ".0123abcd.tmp"):
        assert not is_our_temp(other, "map.json"), other


def _age(path, seconds):
    t = time.time() - seconds
    os.utime(path, (t, t))


def test_the_next_save_removes_stale_temps_of_its_file_only(tmp_path):
    target = tmp_path / "map.json"
    save_map(MapModel(3, 2), target)
    stale = tmp_path / ".map.json.0badcafe.tmp"
    fresh = tmp_path / ".map.json.00c0ffee.tmp"
    foreign = [tmp_path / n for n in (".other.json.0badcafe.tmp", "map.json.0badcafe.tmp",
                                      ".map.json.notours.tmp")]
    for p in (stale, fresh, *foreign):
        p.write_text("partial")
    for p in (stale, *foreign):
        _age(p, 2 * io_paths.STALE_TEMP_SECONDS)
    save_map(MapModel(4, 2), target)
    assert not stale.exists()
    assert fresh.exists() and all(p.exists() for p in foreign)
    assert read_map(target)[0].width == 4


@posix_only
def test_a_temp_held_by_a_live_save_is_kept(tmp_path):
    import fcntl

    busy = tmp_path / ".map.json.0badcafe.tmp"
    busy.write_text("being written")
    _age(busy, 2 * io_paths.STALE_TEMP_SECONDS)
    with open(busy, "rb") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        assert remove_stale_temps(tmp_path, "map.json") == []
    assert remove_stale_temps(tmp_path, "map.json") == [busy]


@posix_only
def test_a_save_killed_before_its_rename_is_cleaned_up_by_the_next(tmp_path):
    target = tmp_path / "map.json"
    save_map(outdoor_skirmish(), target)
    before = target.read_bytes()
    script = textwrap.dedent(f"""
        import os, signal
        from sodwa_editor.engine.model import MapModel
        from sodwa_editor.io import save_map
        os.replace = lambda a, b: os.kill(os.getpid(), signal.SIGKILL)
        save_map(MapModel(30, 30), {str(target)!r})
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, timeout=120,
                          check=False)
    assert done.returncode == -9
    left = [p for p in tmp_path.iterdir() if p != target]
    assert len(left) == 1 and is_our_temp(left[0].name, "map.json")
    assert target.read_bytes() == before
    _age(left[0], 2 * io_paths.STALE_TEMP_SECONDS)
    save_map(MapModel(5, 5), target)
    assert [p.name for p in tmp_path.iterdir()] == ["map.json"]
