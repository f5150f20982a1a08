"""JSON values that JSON allows but a map cannot hold, found with their JSON pointers.

* Integers of more than :data:`MAX_INT_DIGITS` digits: Python refuses to convert
  them (``ValueError: Exceeds the limit (4300 digits)``), as a guard against
  quadratic-time conversion.
* Numbers beyond the float range (``1e400``): Python reads them as infinity, which
  cannot be written back as JSON.
* Lone UTF-16 surrogates (``"\\ud800"`` without its pair): JSON's ``\\u`` escapes
  can spell them, but they are not Unicode characters and cannot be written as
  UTF-8, so a map holding one could never be saved.

:func:`parse_checked` parses JSON text and reports each such value as a problem
at its path; :func:`lone_surrogates` finds them in a value built in memory (the
writer refuses those before touching a file).

>>> doc, problems = parse_checked(r'{"name": "\\ud800", "move": 1e999}')
>>> for p in problems:
...     print(p)
/name: the text holds \\ud800, a lone UTF-16 surrogate (not a Unicode character)
/move: the number 1e999 is too large (beyond the floating-point range)
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable, Iterator
from typing import Any

from .problems import Problem, capped, error, pointer

#: Integers with more digits than this are refused (Python's default conversion limit).
MAX_INT_DIGITS = 4300

_SURROGATE = re.compile("[\ud800-\udfff]")


class _Unholdable:
    """Stands in for a number that cannot be held while the document is searched."""

    def __init__(self, message: str) -> None:
        self.message = message


def _digits_limit() -> int:
    """Our limit, or the interpreter's when it is lower (``PYTHONINTMAXSTRDIGITS``)."""
    python = sys.get_int_max_str_digits()
    return min(MAX_INT_DIGITS, python) if python else MAX_INT_DIGITS


def _int_or_marker(text: str) -> int | _Unholdable:
    digits = len(text.lstrip("-"))
    limit = _digits_limit()
    if digits > limit:
        return _Unholdable(f"the whole number {text[:12]}... has {digits} digits; numbers of "
                           f"more than {limit} digits are refused")
    return int(text)


def _float_or_marker(text: str) -> float | _Unholdable:
    value = float(text)
    if value in (float("inf"), float("-inf")):
        shown = text if len(text) <= 24 else text[:21] + "..."
        return _Unholdable(f"the number {shown} is too large (beyond the floating-point range)")
    return value


def _surrogate_message(text: str, where: str) -> str:
    m = _SURROGATE.search(text)
    assert m is not None
    return f"{where} \\u{ord(m.group()):04x}, a lone UTF-16 surrogate (not a Unicode character)"


def lone_surrogate(text: str) -> str | None:
    """Why ``text`` cannot be stored (a lone surrogate in it), or None."""
    if _SURROGATE.search(text) is None:
        return None
    return _surrogate_message(text, "the text holds")


def _walk(doc: Any, prefix: tuple[object, ...] = ()) -> Iterator[Problem]:
    """Problems of every unholdable number and lone surrogate in ``doc``
    (iterative: a document may be nested as deeply as the parser allows)."""
    stack: list[tuple[tuple[object, ...], Any]] = [(prefix, doc)]
    while stack:
        parts, value = stack.pop()
        if isinstance(value, _Unholdable):
            yield error(value.message, pointer(*parts), code="json")
        elif isinstance(value, str):
            if _SURROGATE.search(value):
                yield error(_surrogate_message(value, "the text holds"), pointer(*parts),
                            code="encoding")
        elif isinstance(value, dict):
            items = []
            for key, item in value.items():
                if _SURROGATE.search(key):
                    # the path stops at this object: a path holding the key could not be printed
                    yield error(_surrogate_message(key, f"the key {json.dumps(key)} holds"),
                                pointer(*parts), code="encoding")
                else:
                    items.append(((*parts, key), item))
            stack.extend(reversed(items))
        elif isinstance(value, list):
            stack.extend(((*parts, i), item) for i, item in reversed(list(enumerate(value))))


def lone_surrogates(value: Any, *path: object) -> list[Problem]:
    """Problems of every string (value or key) in ``value`` that holds a lone surrogate;
    ``path`` is the pointer of ``value`` itself."""
    return list(capped(_walk(value, path)))


def _may_hold_surrogates(text: str | bytes) -> bool:
    if isinstance(text, bytes):
        # json.loads decodes bytes with "surrogatepass", so encoded surrogates get through
        return b"\\u" in text or not text.isascii()
    if "\\u" in text:
        return True
    if text.isascii():  # (constant time)
        return False
    try:  # much faster than a regular expression over the text
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def parse_checked(text: str | bytes, *, object_pairs_hook: Callable[..., Any] | None = None,
                  parse_constant: Callable[[str], Any] | None = None, strict: bool = True
                  ) -> tuple[Any, list[Problem]]:
    """``json.loads(text)`` and the problems of the values a map cannot hold
    (``strict=False``: control characters are allowed inside strings).

    Parsing exceptions other than for such values (syntax errors, NaN through
    ``parse_constant`` ...) propagate as from :func:`json.loads`.
    """
    found = False

    def floats(s: str) -> float | _Unholdable:
        nonlocal found
        value = _float_or_marker(s)
        found |= isinstance(value, _Unholdable)
        return value

    def ints(s: str) -> int | _Unholdable:
        nonlocal found
        value = _int_or_marker(s)
        found |= isinstance(value, _Unholdable)
        return value

    kwargs: dict[str, Any] = {"object_pairs_hook": object_pairs_hook,
                              "parse_constant": parse_constant, "parse_float": floats,
                              "strict": strict}
    if _digits_limit() != sys.get_int_max_str_digits():
        kwargs["parse_int"] = ints  # this interpreter converts longer integers: ours applies
    try:
        doc = json.loads(text, **kwargs)
    except ValueError as exc:
        if type(exc) is not ValueError or "integer string conversion" not in str(exc):
            raise  # a syntax error, a refused constant, bytes that are not text
        # An integer past Python's conversion limit: read again, marking it (and any
        # other) so the problems can name where they are.  Only bad files pay for this.
        kwargs["parse_int"] = ints
        doc = json.loads(text, **kwargs)
    if not found and not _may_hold_surrogates(text):
        return doc, []
    problems = list(capped(_walk(doc)))
    return (None, problems) if problems else (doc, [])
