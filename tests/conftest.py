"""Test-wide setup: GUI tests run without a display (offscreen Qt platform), and
the ``make_window`` fixture for tests that drive the main window."""

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest


@pytest.fixture
def make_window(qtbot, tmp_path):
    """A factory of shown main windows with private settings and recovery folders
    (:class:`sodwa_editor.editor.testing.WindowFactory`), all closed afterwards."""
    from sodwa_editor.editor.testing import WindowFactory

    factory = WindowFactory(qtbot, tmp_path)
    yield factory
    factory.close_all()
