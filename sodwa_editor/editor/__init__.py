"""The SODWA Editor desktop application (PySide6): document, commands, scene,
tools and docks over the engine's MapModel."""

from .qt_compat import protect_none, serial_raster

#: the window title's and message boxes' name of the application
APP_NAME = "SODWA Editor"

protect_none()
serial_raster()
