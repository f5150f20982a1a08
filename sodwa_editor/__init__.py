"""SODWA Editor: map and scenario editor with an embedded SODWA rules engine."""

__version__ = "0.1.0"
