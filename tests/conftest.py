"""Test-wide setup: GUI tests run without a display (offscreen Qt platform), and
the ``make_window`` fixture for tests that drive the main window; Qt's
default settings and data folders point into a temporary folder."""

import os
import tempfile

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# Never the user's settings or recovery files: whatever reaches Qt's default
# locations (QSettings() without a file, AppDataLocation) lands in a folder of
# this test run.
_HOME = tempfile.mkdtemp(prefix="sodwa-tests-")
os.environ["XDG_CONFIG_HOME"] = os.path.join(_HOME, "config")
os.environ["XDG_DATA_HOME"] = os.path.join(_HOME, "data")

import pytest  # noqa: E402  (after the environment above)


@pytest.fixture
def make_window(qtbot, tmp_path):
    """A factory of shown main windows with private settings and recovery folders
    (:class:`sodwa_editor.editor.testing.WindowFactory`), all closed afterwards."""
    from sodwa_editor.editor.testing import WindowFactory

    factory = WindowFactory(qtbot, tmp_path)
    yield factory
    factory.close_all()
