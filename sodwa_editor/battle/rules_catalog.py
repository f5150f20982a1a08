"""The rules keys as a catalogue, and a rules *variant*: the keys a rules file changes.

The rules editor (``editor/rules_editor``) is generated from this: every key of
``schemas/rules.schema.json`` with its type, range, choices and default (the default
file ``resources/rules.json``), whether the rulebook fixes it (**RB**) or leaves it to
the designer (**open**; **seed** for a companion rulebook's number), and the
decisions of ``docs/rules.md`` it rests on (B10, AB9, ...) with their text.  A
:class:`RulesVariant` holds the changed keys only and saves a rules file that gives
only those, so a variant keeps following the defaults it does not change.

>>> keys = {k.key: k for k in rule_keys()}
>>> k = keys["clock.turn_cost"]
>>> (k.kind, k.default, k.minimum, k.basis)
('integer', 500, 1, 'RB')
>>> v = RulesVariant()
>>> v.set("clock.turn_cost", -5)
'clock.turn_cost: -5 is less than the minimum of 1'
>>> v.set("clock.turn_cost", 400) is None, v.changed()
(True, {'clock.turn_cost': 400})
>>> v.document("fast turns")["clock"]
{'turn_cost': 400}
>>> v.set("clock.turn_cost", 500) is None, v.changed()  # back to the default: unchanged
(True, {})
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from .jsonfiles import DATA_DIR, BattleInputError, PathLike, load_schema, read_json
from .rules import DEFAULT_RULES_PATH, Rules, rules_from_dict

#: docs/rules.md, read through the ``sodwa_editor/data/docs`` link (package data)
RULES_DOC_PATH = DATA_DIR / "docs" / "rules.md"
#: the keys of a rules file that are not rules
HEADER_KEYS = ("format", "format_version", "name", "description")
_DECISION_ID = re.compile(r"(?<![\w-])([A-Z]{1,2}(?:-[A-Z]{1,2})?\d{1,3})\b")
_BASIS = re.compile(r"^\(?(RB|seed)\b|^(Open)\b|\(open\b|^B\d+\.", re.IGNORECASE)


@dataclass(frozen=True)
class Decision:
    """One numbered decision row of docs/rules.md: ``id`` (``B10``), the decision,
    the sentences it rests on and the tests that cover it."""

    id: str
    text: str
    rests_on: str = ""
    tests: str = ""


@dataclass(frozen=True)
class RuleKey:
    """One key of the rules config, as the schema and docs/rules.md describe it.

    ``kind``: ``integer``, ``number``, ``boolean``, ``choice`` (``choices``),
    ``list`` (a set of ``choices``) or ``text``; ``nullable``: ``null`` is allowed
    (``null_meaning`` says what it means).  ``basis``: ``RB``, ``open`` or ``seed``.
    ``decisions``: the ids of the decisions it rests on, in the order named.
    """

    key: str
    section: str
    kind: str
    default: Any
    schema: Mapping[str, Any] = field(repr=False)
    description: str = ""
    meaning: str = ""
    basis: str = "open"
    minimum: float | None = None
    maximum: float | None = None
    choices: tuple[str, ...] = ()
    nullable: bool = False
    decisions: tuple[str, ...] = ()

    @property
    def path(self) -> tuple[str, ...]:
        return tuple(self.key.split("."))

    def range_text(self) -> str:
        """``1 .. 1000000``, ``≥ 0``, the choices, or ``""``."""
        if self.choices:
            return " / ".join(self.choices)
        lo, hi = self.minimum, self.maximum
        if lo is not None and hi is not None:
            return f"{_num(lo)} .. {_num(hi)}"
        if lo is not None:
            return f"≥ {_num(lo)}"
        if hi is not None:
            return f"≤ {_num(hi)}"
        return ""


def _num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


@cache
def _default_doc() -> dict[str, Any]:
    return read_json(DEFAULT_RULES_PATH)


def _lookup(doc: Mapping[str, Any], path: Iterable[str]) -> Any:
    node: Any = doc
    for part in path:
        node = node[part]
    return node


def _kind(schema: Mapping[str, Any]) -> tuple[str, bool, tuple[str, ...]]:
    types = schema.get("type")
    nullable = isinstance(types, list) and "null" in types
    if isinstance(types, list):
        types = next((t for t in types if t != "null"), None)
    if "enum" in schema:
        return "choice", None in schema["enum"], tuple(e for e in schema["enum"] if e is not None)
    if types == "array":
        items = schema.get("items", {})
        return "list", nullable, tuple(items.get("enum", ()))
    if types in ("integer", "number", "boolean"):
        return str(types), nullable, ()
    return "text", nullable, ()


def _basis(description: str, documented: str) -> str:
    if documented:
        return documented
    m = _BASIS.search(description)
    if m and m.group(1):
        return "RB" if m.group(1).upper() == "RB" else "seed"
    return "open"


def rule_keys(docs: RuleDocs | None = None) -> tuple[RuleKey, ...]:
    """Every key of the rules schema, in schema order, sections before their keys.

    The basis and meaning come from docs/rules.md's *Rules config* table when
    ``docs`` (default: :func:`rule_docs`) has the key, else from the schema's
    description (``(RB ...)``, ``Open: ...``)."""
    docs = rule_docs() if docs is None else docs
    schema = load_schema("rules")
    out: list[RuleKey] = []

    def walk(node: Mapping[str, Any], path: tuple[str, ...]) -> None:
        for name, sub in node.get("properties", {}).items():
            here = (*path, name)
            if sub.get("type") == "object" and "properties" in sub:
                walk(sub, here)
                continue
            key = ".".join(here)
            kind, nullable, choices = _kind(sub)
            basis, meaning = docs.keys.get(key, ("", ""))
            description = sub.get("description", "")
            ids = tuple(i for i in dict.fromkeys(_DECISION_ID.findall(f"{meaning} {description}"))
                        if i in docs.decisions or not docs.decisions)
            out.append(RuleKey(
                key=key, section=here[0], kind=kind, default=_lookup(_default_doc(), here),
                schema=sub, description=description, meaning=meaning,
                basis=_basis(description, basis), minimum=sub.get("minimum"),
                maximum=sub.get("maximum"), choices=choices, nullable=nullable,
                decisions=ids))

    for section, sub in schema["properties"].items():
        if section not in HEADER_KEYS:
            walk({"properties": {section: sub}}, ())
    return tuple(out)


@dataclass(frozen=True)
class RuleDocs:
    """What docs/rules.md says: ``keys`` maps a key to ``(basis, meaning)`` (the
    *Rules config* table), ``decisions`` an id to its :class:`Decision`."""

    keys: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    decisions: Mapping[str, Decision] = field(default_factory=dict)
    path: Path | None = None


def _cells(line: str) -> list[str]:
    body = line.strip()[1:-1] if line.strip().endswith("|") else line.strip()[1:]
    return [c.strip() for c in re.split(r"(?<!\\)\|", body)]


def parse_rule_docs(text: str, path: Path | None = None) -> RuleDocs:
    """The key table and the decision rows of docs/rules.md's text.

    >>> d = parse_rule_docs('''
    ... | Key | Default | | Meaning (decision) |
    ... |---|---|---|---|
    ... | `clock.turn_cost` | 500 | RB | IP deducted when a turn comes up (B8). |
    ... | # | Decision | Rests on | Test |
    ... | B8 | The clock. | RB: "1,000 IP" | `test_clock` |
    ... ''')
    >>> d.keys["clock.turn_cost"], d.decisions["B8"].rests_on
    (('RB', 'IP deducted when a turn comes up (B8).'), 'RB: "1,000 IP"')
    """
    keys: dict[str, tuple[str, str]] = {}
    decisions: dict[str, Decision] = {}
    for line in text.splitlines():
        if not line.startswith("| "):
            continue
        cells = _cells(line)
        first = cells[0]
        m = re.fullmatch(r"`([a-z_]+(?:\.[a-z_]+)+)`", first)
        if m and len(cells) >= 4:
            basis = cells[2] if cells[2] in ("RB", "open", "seed") else ""
            keys.setdefault(m.group(1), (basis, cells[3]))
        elif re.fullmatch(r"[A-Z]{1,2}(?:-[A-Z]{1,2})?\d{1,3}", first) and len(cells) >= 2:
            decisions.setdefault(first, Decision(
                first, cells[1], cells[2] if len(cells) > 2 else "",
                cells[3] if len(cells) > 3 else ""))
    return RuleDocs(keys, decisions, path)


@cache
def rule_docs(path: Path = RULES_DOC_PATH) -> RuleDocs:
    """docs/rules.md parsed (empty when the file is not there: an installed copy
    without docs still edits every key, from the schema's descriptions)."""
    try:
        return parse_rule_docs(path.read_text(encoding="utf-8"), path.resolve())
    except OSError:
        return RuleDocs()


def _error_text(key: str, value: Any, schema: Mapping[str, Any]) -> str | None:
    from .jsonfiles import _Strict  # the loaders' validator: "integer" has no fraction

    errors = sorted(_Strict(schema).iter_errors(value), key=lambda e: list(e.path))
    if not errors:
        return None
    return f"{key}: {errors[0].message}"


class RulesVariant:
    """The keys a rules file changes from the defaults, with a name and description.

    A value equal to the default is not a change (setting a key back to its
    default removes it).  :meth:`document` is the rules file: the header and only
    the changed keys, nested as the schema nests them.
    """

    def __init__(self, *, name: str = "", description: str = "",
                 keys: Iterable[RuleKey] | None = None) -> None:
        self.keys = {k.key: k for k in (rule_keys() if keys is None else keys)}
        self.name = name
        self.description = description
        self._changed: dict[str, Any] = {}

    def value(self, key: str) -> Any:
        """The value in force: the variant's, else the default."""
        return copy.deepcopy(self._changed.get(key, self.keys[key].default))

    def is_changed(self, key: str) -> bool:
        return key in self._changed

    def changed(self) -> dict[str, Any]:
        """``{key: value}`` of the changed keys, in schema order."""
        return {k: copy.deepcopy(self._changed[k]) for k in self.keys if k in self._changed}

    def check(self, key: str, value: Any) -> str | None:
        """The one-line reason ``value`` is refused for ``key``, or ``None``."""
        if key not in self.keys:
            return f"{key}: not a rules key"
        return _error_text(key, value, self.keys[key].schema)

    def set(self, key: str, value: Any) -> str | None:
        """Set ``key`` (validated first); the reason it is refused, or ``None``."""
        error = self.check(key, value)
        if error is not None:
            return error
        rk = self.keys[key]
        if _same(value, rk.default):
            self._changed.pop(key, None)
        else:
            self._changed[key] = copy.deepcopy(value)
        return None

    def reset(self, key: str | None = None) -> None:
        """Back to the default: one key, or every key (``None``)."""
        if key is None:
            self._changed.clear()
        else:
            self._changed.pop(key, None)

    def document(self, name: str | None = None, description: str | None = None
                 ) -> dict[str, Any]:
        """The rules file: ``format``, ``format_version``, name, description and the
        changed keys only."""
        doc: dict[str, Any] = {"format": "sodwa-rules", "format_version": 1,
                               "name": self.name if name is None else name}
        text = self.description if description is None else description
        if text:
            doc["description"] = text
        for key, value in self.changed().items():
            node = doc
            *parents, last = key.split(".")
            for part in parents:
                node = node.setdefault(part, {})
            node[last] = value
        return doc

    def rules(self, source: str = "rules variant") -> Rules:
        """The rule set in force (raises :class:`BattleInputError` for numbers that
        contradict each other, such as an always-fail above the always-success)."""
        return rules_from_dict(self.document(), source)

    def text(self) -> str:
        return json.dumps(self.document(), indent=2, ensure_ascii=False) + "\n"

    @classmethod
    def from_document(cls, doc: Any, source: str = "rules") -> RulesVariant:
        """A variant of a parsed rules file (validated as the loaders validate it:
        :class:`BattleInputError` with one line naming ``source`` and the key)."""
        rules_from_dict(doc, source)
        variant = cls(name=doc.get("name", ""), description=doc.get("description", ""))
        for key, rk in variant.keys.items():
            try:
                value = _lookup(doc, rk.path)
            except (KeyError, TypeError):
                continue
            variant.set(key, value)
        return variant

    @classmethod
    def load(cls, path: PathLike) -> RulesVariant:
        return cls.from_document(read_json(path), str(path))


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        return sorted(map(json.dumps, a)) == sorted(map(json.dumps, b))
    return bool(a == b)


__all__ = ["BattleInputError", "Decision", "RULES_DOC_PATH", "RuleDocs", "RuleKey",
           "RulesVariant", "parse_rule_docs", "rule_docs", "rule_keys"]
