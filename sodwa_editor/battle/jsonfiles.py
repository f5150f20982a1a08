"""Reading the battle's small JSON files (rules, roster, teams) with one-line errors.

Every problem with a file -- missing, too large, not UTF-8, not JSON, a key
repeated, a schema error -- raises :class:`BattleInputError` whose message is
one line naming the file and the key, e.g.
``my-rules.json: clock.turn_cost: -5 is less than the minimum of 1``.

Schemas live in ``schemas/`` (read through the ``sodwa_editor/data/schemas``
link, as the map schemas are); an "integer" must be written without a fraction.

>>> try:
...     validate({"format": "sodwa-rules", "format_version": 1, "clock": {"turn_cost": -5}},
...              "rules", "r.json")
... except BattleInputError as exc:
...     print(exc)
r.json: clock.turn_cost: -5 is less than the minimum of 1
"""

from __future__ import annotations

import json
import os
import re
from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator, ValidationError
from jsonschema.validators import extend
from referencing import Registry, Resource

from ..engine.regular_files import os_reason, read_regular

DATA_DIR = Path(__file__).parents[1] / "data"
SCHEMA_DIR = DATA_DIR / "schemas"  # -> schemas/ (pyproject package-data)
RESOURCE_DIR = DATA_DIR / "resources"  # -> resources/
#: Rules, roster, team and AI-profile files are small; anything larger is refused unread.
MAX_BYTES = 4 * 1024 * 1024
#: A replay (``"format": "sodwa-replay"``) may be larger: its turns.  The writer
#: (:func:`.replay.replay_text`) refuses to write a longer one, so every replay it
#: writes can be read back (a ``pass,pass`` battle of 100,000 turns is 7.2 MB).
REPLAY_MAX_BYTES = 32 * 1024 * 1024
#: How a replay's first bytes name it (the writer puts ``format`` first).
REPLAY_MARK = b'"sodwa-replay"'

PathLike = str | os.PathLike[str]


class BattleInputError(ValueError):
    """Bad battle input (a file, a sheet, a team); the message is one line."""


def _is_int(_checker: object, instance: object) -> bool:
    return isinstance(instance, int) and not isinstance(instance, bool)


@cache
def _ecma(pattern: str) -> re.Pattern[str]:
    """A schema pattern as JSON Schema means it (ECMA-262): a final ``$`` matches at
    the very end only, not also before a final line break as Python's does (an id
    ``"m\\n"`` passed ``^[A-Za-z0-9_-]{1,32}$``)."""
    if pattern.endswith("$") and not pattern.endswith("\\$"):
        pattern = pattern[:-1] + "\\Z"
    return re.compile(pattern)


def _pattern(validator: Any, pattern: str, instance: Any, schema: Any) -> Any:
    if validator.is_type(instance, "string") and not _ecma(pattern).search(instance):
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


_Strict = extend(Draft202012Validator, validators={"pattern": _pattern},
                 type_checker=Draft202012Validator.TYPE_CHECKER.redefine("integer", _is_int))


@cache
def load_schema(name: str) -> dict[str, Any]:
    """The parsed schema ``schemas/<name>.schema.json``."""
    with open(SCHEMA_DIR / f"{name}.schema.json", encoding="utf-8") as f:
        return json.load(f)


#: the battle's schemas another one may refer to by ``$ref`` (a scenario embeds a
#: rules variant, team documents and AI profiles)
REFERABLE = ("rules", "roster", "team", "ai-profile")


@cache
def _registry() -> Registry:
    return Registry().with_resources(
        (load_schema(n)["$id"], Resource.from_contents(load_schema(n))) for n in REFERABLE)


@cache
def validator(name: str) -> Draft202012Validator:
    schema = load_schema(name)
    Draft202012Validator.check_schema(schema)
    return _Strict(schema, registry=_registry())


def read_json(path: PathLike) -> Any:
    """The parsed JSON document of a file (NaN, Infinity and repeated keys refused).

    Only a regular file is read: a FIFO, device or folder is refused before it is
    opened (:func:`sodwa_editor.engine.regular_files.open_regular`, the reader io
    uses too), so a named pipe given as ``--teams`` never blocks.
    """
    src = str(path)
    try:
        data = read_regular(path, REPLAY_MAX_BYTES)
    except FileNotFoundError:
        raise BattleInputError(f"{src}: file not found") from None
    except OSError as exc:
        raise BattleInputError(f"{src}: cannot read the file: {os_reason(exc)}") from None
    big = len(data) > MAX_BYTES
    if len(data) > REPLAY_MAX_BYTES or (big and REPLAY_MARK not in data[:4096]):
        most = REPLAY_MAX_BYTES if len(data) > REPLAY_MAX_BYTES else MAX_BYTES
        raise BattleInputError(f"{src}: the file is over {most} bytes; at most {MAX_BYTES} "
                               f"allowed ({REPLAY_MAX_BYTES} for a replay)")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise BattleInputError(f"{src}: not UTF-8 text (offset {exc.start})") from None
    doc = parse_json(text, src)
    if big and not (isinstance(doc, dict) and doc.get("format") == "sodwa-replay"):
        raise BattleInputError(f"{src}: the file is over {MAX_BYTES} bytes; at most "
                               f"{MAX_BYTES} allowed ({REPLAY_MAX_BYTES} for a replay)")
    return doc


def parse_json(text: str, source: str) -> Any:
    repeated: list[str] = []

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        out = dict(items)
        if len(out) != len(items):
            repeated.extend(k for k, n in Counter(k for k, _ in items).items() if n > 1)
        return out

    def no_constant(name: str) -> Any:
        raise ValueError(f"{name} is not a number JSON allows")

    try:
        doc = json.loads(text, object_pairs_hook=pairs, parse_constant=no_constant)
    except json.JSONDecodeError as exc:
        raise BattleInputError(f"{source}: invalid JSON at line {exc.lineno}, column "
                               f"{exc.colno}: {exc.msg}") from None
    except (ValueError, RecursionError) as exc:
        raise BattleInputError(f"{source}: invalid JSON: {exc or 'nested too deeply'}") from None
    if repeated:
        raise BattleInputError(f"{source}: invalid JSON: key {repeated[0]!r} appears twice "
                               "in one object")
    return doc


_PLAIN_KEY = re.compile(r"[A-Za-z0-9_\-]{1,64}")


def key_text(key: object) -> str:
    """A key as a message shows it: itself when plain, else quoted and escaped (a key
    may hold a line break or be thousands of characters long)."""
    text = str(key)
    if _PLAIN_KEY.fullmatch(text):
        return text
    return brief(json.dumps(text), 60)


def where(path: object) -> str:
    """A JSON path as a dotted key: ``clock.turn_cost``, ``members[2].archetype``
    (an odd key quoted: ``clock."\\n"``)."""
    out = ""
    for part in path:  # type: ignore[attr-defined]
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{key_text(part)}" if out else key_text(part)
    return out or "(top level)"


def validate(doc: Any, schema: str, source: str) -> None:
    """Raise :class:`BattleInputError` for the first schema error of ``doc`` (by path),
    or for the first text that holds a lone surrogate (:func:`lone_surrogate`)."""
    errors = sorted(validator(schema).iter_errors(doc),
                    key=lambda e: ([str(p) for p in e.absolute_path], e.validator))
    if errors:
        raise BattleInputError(f"{source}: {describe(errors[0])}")
    found = lone_surrogate(doc)
    if found is not None:
        raise BattleInputError(f"{source}: {found}")


_SURROGATE = re.compile("[\ud800-\udfff]")


def lone_surrogate(doc: Any) -> str | None:
    """``key: what`` for the first string (value or key) of ``doc`` that holds a lone
    UTF-16 surrogate (JSON's ``"\\ud800"`` escape without its pair), or None.  No
    UTF-8 file can hold one: a name with one would make a replay, a report or a log
    that cannot be written after the whole battle was played, so it is refused
    when the file is read (as the map loader does, :mod:`sodwa_editor.io.values`)."""
    try:
        json.dumps(doc, ensure_ascii=False).encode("utf-8")
        return None  # (the C encoder: fast on a large replay)
    except (UnicodeEncodeError, TypeError, ValueError, RecursionError):
        pass  # (a surrogate; or a value built in memory that is not plain JSON: walk it)
    stack: list[tuple[Any, tuple[Any, ...]]] = [(doc, ())]
    while stack:
        value, at = stack.pop()
        if isinstance(value, str):
            m = _SURROGATE.search(value)
            if m:
                return (f"{where(at)}: the text holds \\u{ord(m.group()):04x}, a lone "
                        "UTF-16 surrogate (not a Unicode character)")
        elif isinstance(value, dict):
            for key in value:
                m = _SURROGATE.search(key) if isinstance(key, str) else None
                if m:
                    return (f"{where(at)}: the key {json.dumps(key)} holds "
                            f"\\u{ord(m.group()):04x}, a lone UTF-16 surrogate")
            stack += [(v, (*at, k)) for k, v in reversed(list(value.items()))]
        elif isinstance(value, list):
            stack += [(v, (*at, i)) for i, v in reversed(list(enumerate(value)))]
    return None


def describe(err: ValidationError) -> str:
    """``key: what is wrong`` for one schema error, naming unknown and missing keys."""
    at = where(err.absolute_path)
    inst = err.instance
    if err.validator == "additionalProperties" and isinstance(inst, dict):
        allowed = list(err.schema.get("properties", {}))
        extra = key_text([k for k in inst if k not in allowed][0])
        key = f"{at}.{extra}" if err.absolute_path else extra
        return f"{key}: unknown key (allowed here: {', '.join(allowed)})"
    if err.validator == "required" and isinstance(inst, dict):
        missing = key_text([k for k in err.validator_value if k not in inst][0])
        key = f"{at}.{missing}" if err.absolute_path else missing
        return f"{key}: missing required key"
    message = err.message
    if isinstance(inst, int | float | str) and not isinstance(inst, bool):
        shown = repr(inst)
        if len(shown) > 40:  # a number of many digits, a long text: described, not shown
            message = message.replace(shown, brief(inst), 1)
    message = message.replace("\n", "\\n").replace("\r", "\\r")  # (one line)
    if len(message) > 160:
        message = message[:157] + "..."
    return f"{at}: {message}"


def brief(value: Any, most: int = 40) -> str:
    """``value`` for a one-line message: a whole number of many digits or a long
    text described, never printed in full (a file may hold 10**4000)."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 64:
        return f"a {int(value.bit_length() * 0.30103) + 1}-digit number"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{brief(k)}: {brief(v)}" for k, v in value.items()) + "}"
    text = value if isinstance(value, str) else json.dumps(value)
    return text if len(text) <= most else f"{text[:most - 12]}... ({len(text)} characters)"
