"""Frozen records built at half the cost: a battle builds thousands of them (its
log's events, each attack's situation, preview and result, the loop's decisions).

A frozen dataclass's own ``__init__`` sets every field with ``object.__setattr__``
by name (a lookup of the name on the type per field); :func:`quick_init` gives a
``slots`` one an ``__init__`` that calls each slot's descriptor directly.  The class
stays the same dataclass: the same fields, defaults, equality, hash, repr, and
frozen after ``__init__`` (tests/test_battle_records.py).

>>> from dataclasses import dataclass
>>> @quick_init
... @dataclass(frozen=True, slots=True)
... class Point:
...     x: int
...     y: int = 0
>>> Point(3), Point(3, 4) == Point(x=3, y=4)
(Point(x=3, y=0), True)
"""

from __future__ import annotations

from dataclasses import MISSING, fields
from types import MemberDescriptorType
from typing import TypeVar

T = TypeVar("T", bound=type)


def quick_init(cls: T) -> T:
    """``cls`` (a ``@dataclass(frozen=True, slots=True)`` whose fields are all plain
    ``__init__`` parameters: no ``default_factory``, ``init=False``, ``kw_only`` or
    ``__post_init__``) with an ``__init__`` that takes the same parameters and sets
    each field through its slot's descriptor."""
    if hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__name__}: __post_init__ is not supported")
    env: dict[str, object] = {}
    params: list[str] = []
    body: list[str] = []
    for f in fields(cls):
        slot = getattr(cls, f.name, None)
        if not f.init or f.kw_only or f.default_factory is not MISSING \
                or not isinstance(slot, MemberDescriptorType):
            raise TypeError(f"{cls.__name__}.{f.name}: not a plain slot field")
        env[f"_set_{f.name}"] = slot.__set__
        if f.default is MISSING:
            params.append(f.name)
        else:
            env[f"_default_{f.name}"] = f.default
            params.append(f"{f.name}=_default_{f.name}")
        body.append(f"  _set_{f.name}(self, {f.name})\n")
    source = (f"def __create__({', '.join(env)}):\n"
              f" def __init__(self, {', '.join(params)}):\n{''.join(body) or '  pass'}\n"
              " return __init__\n")
    scope: dict[str, object] = {}
    exec(source, {}, scope)  # our own source, as dataclasses does
    init = scope["__create__"](**env)  # type: ignore[operator]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    cls.__init__ = init  # type: ignore[misc]
    return cls
