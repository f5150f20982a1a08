"""docs/map-format.md stays true: its example is a canonical, valid map file, and its
problem-code table lists every code the io layer can report."""

from __future__ import annotations

import re
from pathlib import Path

from sodwa_editor.io import dumps_map, parse_map

DOC = Path(__file__).resolve().parents[1] / "docs" / "map-format.md"
IO = Path(__file__).resolve().parents[1] / "sodwa_editor" / "io"


def test_example_is_valid_and_canonical():
    text = DOC.read_text(encoding="utf-8")
    example = re.search(r"## Example\n\n```json\n(.*?)```", text, re.S).group(1)
    model, problems = parse_map(example)
    assert problems == []
    assert dumps_map(model) == example


def test_every_problem_code_is_documented():
    text = DOC.read_text(encoding="utf-8")
    table = set(re.findall(r"`([a-z0-9-]+)`", text.split("## Validation", 1)[1]))
    used = set()
    for src in IO.glob("*.py"):
        used |= set(re.findall(r'code="([a-z0-9-]+)"', src.read_text(encoding="utf-8")))
    assert used and used <= table, sorted(used - table)
