"""Write the sample maps (``maps/*.json``) from their builders in
:mod:`sodwa_editor.engine.samples`.

``python -m sodwa_editor.io.sample_files maps`` regenerates them; a test checks
that the committed files are exactly what the builders produce.
"""

from __future__ import annotations

import sys
from pathlib import Path

from ..engine.samples import SAMPLE_MAPS
from .files import save_map


def write_samples(directory: Path) -> list[Path]:
    """Save every sample map as ``<directory>/<name>.json``; return the paths."""
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for name, build in SAMPLE_MAPS.items():
        path = directory / f"{name}.json"
        save_map(build(), path)
        written.append(path)
    return written


if __name__ == "__main__":  # pragma: no cover
    for p in write_samples(Path(sys.argv[1] if len(sys.argv) > 1 else "maps")):
        print(p)
