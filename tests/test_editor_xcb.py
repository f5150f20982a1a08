"""Issue 22: on a desktop that lacks a library Qt's xcb platform needs (a fresh
Debian lacks libxcb-cursor0, libxcb-icccm4, libxcb-keysyms1), ``sodwa-editor``
says which and how to install them in one line, instead of Qt aborting with
"Could not load the Qt platform plugin xcb"."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from sodwa_editor.editor import app

LACKING = ("libxcb-icccm.so.4", "libxcb-keysyms.so.1")


def lacking(lib: str) -> bool:
    return lib not in LACKING


@pytest.mark.parametrize(("env", "checked"), [
    ({"DISPLAY": ":0"}, True),
    ({"DISPLAY": ":0", "QT_QPA_PLATFORM": "xcb"}, True),
    ({"QT_QPA_PLATFORM": "xcb"}, True),
    ({"DISPLAY": ":0", "QT_QPA_PLATFORM": "offscreen"}, False),
    ({"DISPLAY": ":0", "QT_QPA_PLATFORM": "wayland"}, False),
    ({"DISPLAY": ":0", "WAYLAND_DISPLAY": "wayland-0"}, False),
    ({}, False),
])
def test_the_libraries_are_checked_only_when_qt_will_use_xcb(monkeypatch, env, checked):
    for key in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"):
        monkeypatch.delenv(key, raising=False)
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    monkeypatch.setattr(sys, "platform", "linux")
    want = ["libxcb-icccm4", "libxcb-keysyms1"] if checked else []
    assert app.missing_xcb_packages(lacking) == want
    assert app.missing_xcb_packages(lambda lib: True) == []


def test_the_line_names_the_packages_and_the_command():
    line = app.missing_xcb_line(["libxcb-cursor0", "libxcb-icccm4"])
    assert "libxcb-cursor0, libxcb-icccm4" in line
    assert line.endswith("sudo apt install libxcb-cursor0 libxcb-icccm4")
    assert set(app.XCB_LIBRARIES.values()) >= {"libxcb-cursor0", "libxcb-icccm4",
                                               "libxcb-keysyms1"}


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the xcb platform")
def test_the_editor_says_so_in_one_line_before_qt_aborts():
    """With a display named and two libraries not loadable (the finder replaced),
    the editor stops with exit 1 and one line; Qt, which would abort the process
    (no X server answers ``:99`` here), is never started."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    env["DISPLAY"] = ":99"
    code = ("import sys; from sodwa_editor.editor import app; "
            f"app.loadable = lambda lib: lib not in {LACKING!r}; sys.exit(app.main([]))")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True, timeout=120, check=False)
    assert out.returncode == 1, out.stderr
    lines = out.stderr.strip().splitlines()
    assert lines == [app.missing_xcb_line(["libxcb-icccm4", "libxcb-keysyms1"])]
    assert "PySide6" not in out.stderr and "Could not load" not in out.stderr


def test_every_library_is_found_by_the_real_finder_or_named():
    """The real finder loads a library every Linux has and refuses a made-up one."""
    if not sys.platform.startswith("linux"):
        pytest.skip("Linux sonames")
    assert app.loadable("libc.so.6")
    assert not app.loadable("libsodwa-no-such-library.so.0")
