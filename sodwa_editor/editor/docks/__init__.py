"""Dock widgets and the tool options bar of the main window."""
