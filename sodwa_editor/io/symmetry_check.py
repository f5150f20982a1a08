"""The symmetry check (issue 29): where a map's two sides differ under the
symmetry the designer paints with (mirror X, mirror Y, both, or a 180-degree
rotation; :mod:`sodwa_editor.engine.symmetry`).  Opt-in: it runs while symmetry
painting is on in the editor (the Validation dock), as warnings of the kind
``asymmetric``, one line per tile or edge that differs from its image."""

from __future__ import annotations

from ..engine.model import Edge, MapModel
from ..engine.symmetry import MODES, differences
from .problems import Problem, capped, edge_label

CODE = "asymmetric"


def check_symmetry(model: MapModel, mode: str) -> list[Problem]:
    """A warning per tile or edge that differs from its image under ``mode``
    (at most 50, then a summary line)."""
    label = MODES[mode].lower()
    problems = []
    for kind, where, image, what in differences(model, mode):
        if kind == "tile":
            assert isinstance(where, tuple) and isinstance(image, tuple)
            problems.append(Problem(
                "warning", f"tile ({where[0]}, {where[1]}) differs from ({image[0]}, "
                f"{image[1]}) under {label}: {what}", tile=where, code=CODE))
        else:
            assert isinstance(where, Edge) and isinstance(image, Edge)
            problems.append(Problem(
                "warning", f"edge {edge_label(where)} differs from {edge_label(image)} "
                f"under {label}: {what}", edge=where, code=CODE))
    return list(capped(problems))
