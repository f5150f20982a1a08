"""Test-wide setup: GUI tests run without a display (offscreen Qt platform)."""

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
