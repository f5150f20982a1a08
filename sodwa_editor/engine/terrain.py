"""Terrain types and the three crossing classes of the SODWA rulebook.

Rulebook, *Terrain*: "Every LoS or path of movement you can draw is either clear,
impeded, or blocked. Clear is less restrictive than impeded, which is less
restrictive than blocked." :class:`Crossing` encodes that order as integers so
that "the most restrictive has priority" is ``max`` and "the least restrictive
type governs" (diagonal intersections) is ``min``.

Rulebook, *Terrain Types*: five general tile/border types (Clear, Impeding,
Obstructing, Difficult, Liquid; Elevated is modelled by the elevation layer)
plus "special" types such as Icy or Corrosive.  A special type is declared in a
:class:`TerrainRegistry` with one of the five as its *base* behaviour, properties
from the vocabulary of :mod:`.terrain_properties` (what the battle rules read:
Cover, Dark, Hazardous ...) and free typed *custom* properties no rule reads.

>>> reg = TerrainRegistry()
>>> icy = reg.register("icy", Base.DIFFICULT, {"precarious": {"dc": 10}},
...                    custom={"melts": {"type": "bool", "value": True}})
>>> reg[icy].base is Base.DIFFICULT, reg[icy].properties["precarious"].params["dc"]
(True, 10)
>>> int(reg.los_table()[icy]), int(reg.move_table()[icy])
(0, 1)
>>> reg.property_mask("precarious").tolist()
[False, False, False, False, False, True]
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from enum import IntEnum
from types import MappingProxyType
from typing import Any

import numpy as np

from .terrain_properties import (
    CustomProperty,
    TerrainProperty,
    parse_custom,
    parse_properties,
)


class Crossing(IntEnum):
    """Result class of a line of sight or of a movement step (rulebook *Terrain*)."""

    CLEAR = 0
    IMPEDED = 1
    BLOCKED = 2

    @property
    def label(self) -> str:
        return self.name.lower()


class Base(IntEnum):
    """The general terrain types a tile or border can have (rulebook *Terrain Types*)."""

    CLEAR = 0
    IMPEDING = 1
    OBSTRUCTING = 2
    DIFFICULT = 3
    LIQUID = 4

    @property
    def label(self) -> str:
        return self.name.lower()


#: Effect of each base type on line of sight.  Difficult and Liquid "do not affect
#: LoS" (rulebook: Difficult "is identical to Impeding Terrain, except that it does
#: not affect LoS"; Liquid "is identical to Difficult Terrain").
LOS_CLASS: Mapping[Base, Crossing] = MappingProxyType(
    {
        Base.CLEAR: Crossing.CLEAR,
        Base.IMPEDING: Crossing.IMPEDED,
        Base.OBSTRUCTING: Crossing.BLOCKED,
        Base.DIFFICULT: Crossing.CLEAR,
        Base.LIQUID: Crossing.CLEAR,
    }
)

#: Effect of each base type on movement: Impeding, Difficult and Liquid all make
#: a moving character end its movement; Obstructing cannot be entered or crossed.
MOVE_CLASS: Mapping[Base, Crossing] = MappingProxyType(
    {
        Base.CLEAR: Crossing.CLEAR,
        Base.IMPEDING: Crossing.IMPEDED,
        Base.OBSTRUCTING: Crossing.BLOCKED,
        Base.DIFFICULT: Crossing.IMPEDED,
        Base.LIQUID: Crossing.IMPEDED,
    }
)

#: Base types that may exist as a Border (rulebook: Obstructing, Impeding,
#: Difficult "identical to Impeding", Liquid "identical to Difficult").
BORDER_BASES = frozenset({Base.OBSTRUCTING, Base.IMPEDING, Base.DIFFICULT, Base.LIQUID})

#: Terrain id 0 is always Clear; on a border layer id 0 means "no border".
CLEAR_ID = 0
MAX_TERRAIN_TYPES = 256
_NAME_RE = re.compile(r"^[a-z][a-z0-9_-]{0,31}$")


@dataclass(frozen=True)
class TerrainType:
    """One terrain type: a name, the base behaviour it follows, its vocabulary
    ``properties`` (name -> :class:`TerrainProperty`) and its designer's ``custom``
    properties (name -> :class:`CustomProperty`)."""

    name: str
    base: Base
    properties: Mapping[str, TerrainProperty] = field(default_factory=dict)
    builtin: bool = False
    custom: Mapping[str, CustomProperty] = field(default_factory=dict)

    def has(self, prop: str) -> bool:
        """Whether the type carries vocabulary property ``prop``."""
        return prop in self.properties

    @property
    def los(self) -> Crossing:
        return LOS_CLASS[self.base]

    @property
    def move(self) -> Crossing:
        return MOVE_CLASS[self.base]


class TerrainRegistry:
    """Ordered registry of terrain types; a type's index is its id in the tile layers.

    Ids 0-4 are the built-in types ``clear``, ``impeding``, ``obstructing``,
    ``difficult`` and ``liquid`` (in :class:`Base` order); special types follow in
    declaration order.
    """

    def __init__(self) -> None:
        self._types: list[TerrainType] = [TerrainType(b.label, b, {}, True) for b in Base]
        self._ids: dict[str, int] = {t.name: i for i, t in enumerate(self._types)}

    def register(
        self, name: str, base: Base, properties: Mapping[str, Any] | None = None, *,
        custom: Mapping[str, Any] | None = None,
    ) -> int:
        """Declare a special terrain type and return its id.

        ``properties``: vocabulary name -> parameters (or :class:`TerrainProperty`);
        ``custom``: name -> ``{"type", "value"}`` (or :class:`CustomProperty`).  Both
        are validated: ValueError names the terrain type and the property.
        """
        if not _NAME_RE.match(name):
            raise ValueError(
                f"terrain name {name!r} must be lower-case letters, digits, '_' or '-' "
                "(1-32 characters, starting with a letter)"
            )
        if name in self._ids:
            raise ValueError(f"terrain type {name!r} is already declared")
        if len(self._types) >= MAX_TERRAIN_TYPES:
            raise ValueError(f"at most {MAX_TERRAIN_TYPES} terrain types per map")
        props, extra = _checked(name, properties, custom)
        self._types.append(TerrainType(name, Base(base), props, False, extra))
        self._ids[name] = len(self._types) - 1
        return len(self._types) - 1

    def update(self, name: str, *, properties: Mapping[str, Any] | None = None,
               custom: Mapping[str, Any] | None = None) -> None:
        """Replace the vocabulary and/or custom properties of special type ``name``
        (its base, which decides LoS and movement, stays)."""
        tid = self.id_of(name)
        old = self._types[tid]
        if old.builtin:
            raise ValueError(f"terrain type {name!r} is built in and has no properties")
        props, extra = _checked(
            name, old.properties if properties is None else properties,
            old.custom if custom is None else custom)
        self._types[tid] = TerrainType(name, old.base, props, False, extra)

    def property_mask(self, prop: str) -> np.ndarray:
        """bool array mapping terrain id -> whether the type has property ``prop``."""
        return np.array([prop in t.properties for t in self._types], dtype=np.bool_)

    def has_properties(self) -> bool:
        """Whether any type carries a vocabulary property (battles skip all terrain
        effects on maps without one)."""
        return any(t.properties for t in self._types)

    def id_of(self, name: str) -> int:
        try:
            return self._ids[name]
        except KeyError:
            known = ", ".join(self._ids)
            raise KeyError(f"unknown terrain type {name!r} (known: {known})") from None

    def __contains__(self, name: object) -> bool:
        return name in self._ids

    def __getitem__(self, terrain_id: int) -> TerrainType:
        return self._types[terrain_id]

    def __len__(self) -> int:
        return len(self._types)

    def __iter__(self) -> Iterator[TerrainType]:
        return iter(self._types)

    def special_types(self) -> list[TerrainType]:
        return [t for t in self._types if not t.builtin]

    def base_table(self) -> np.ndarray:
        """uint8 array mapping terrain id -> :class:`Base` value."""
        return np.array([t.base for t in self._types], dtype=np.uint8)

    def los_table(self) -> np.ndarray:
        """uint8 array mapping terrain id -> LoS :class:`Crossing` of that terrain."""
        return np.array([t.los for t in self._types], dtype=np.uint8)

    def move_table(self) -> np.ndarray:
        """uint8 array mapping terrain id -> movement :class:`Crossing` of that terrain."""
        return np.array([t.move for t in self._types], dtype=np.uint8)

    def copy(self) -> TerrainRegistry:
        other = TerrainRegistry()
        for t in self.special_types():
            other.register(t.name, t.base, t.properties, custom=t.custom)
        return other

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TerrainRegistry) and self._types == other._types

    __hash__ = None  # type: ignore[assignment]


def _checked(name: str, properties: Mapping[str, Any] | None, custom: Mapping[str, Any] | None
             ) -> tuple[Mapping[str, TerrainProperty], Mapping[str, CustomProperty]]:
    where = f"terrain type {name!r} properties"
    props = parse_properties(dict(properties or {}), where)
    extra = parse_custom(dict(custom or {}), f"terrain type {name!r} custom")
    return props, extra
