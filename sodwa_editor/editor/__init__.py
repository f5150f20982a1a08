"""The SODWA Editor desktop application (PySide6): document, commands, scene,
tools and docks over the engine's MapModel."""

from .qt_compat import protect_none, serial_raster

protect_none()
serial_raster()
