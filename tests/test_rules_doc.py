"""docs/rules.md stays true: every decision row names tests, and every test it names
exists (so a renamed or deleted test cannot leave a decision uncovered)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT / "docs" / "rules.md"


def defined_tests() -> set[str]:
    names: set[str] = set()
    for path in [*ROOT.glob("tests/*.py")]:
        names |= set(re.findall(r"^def (test_\w+)", path.read_text(encoding="utf-8"), re.M))
    return names


def decision_rows() -> dict[str, str]:
    rows = re.findall(r"^\| ((?:AE|AB|[LAMGRBS])\d+) \|(.*)$", RULES.read_text(encoding="utf-8"),
                      re.M)
    return dict(rows)


def test_every_decision_names_existing_tests():
    rows = decision_rows()
    assert len(rows) >= 40
    tests = defined_tests()
    for rid, row in rows.items():
        cited = re.findall(r"`(test_\w+)(?:\[[^\]]*\])?`", row.rsplit("|", 2)[-2])
        assert cited, f"{rid} names no test"
        missing = [t for t in cited if t not in tests]
        assert not missing, f"{rid} cites tests that do not exist: {missing}"


def test_decision_ids_are_unique_and_numbered_in_order():
    ids = re.findall(r"^\| (AE|AB|[LAMGRBS])(\d+) \|", RULES.read_text(encoding="utf-8"), re.M)
    assert any(p == "AE" for p, _ in ids) and any(p == "S" for p, _ in ids)
    assert any(p == "AB" for p, _ in ids)
    for prefix in ("L", "A", "M", "G", "R", "B", "AE", "S", "AB"):
        numbers = [int(n) for p, n in ids if p == prefix]
        assert numbers == list(range(1, len(numbers) + 1)), prefix
