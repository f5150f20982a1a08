"""The terrain-property vocabulary, the example-terrain presets and free designer
properties (issue 27, seed ``terrain-properties-vertical-space.txt``, *Terrain*).

A terrain type is a SODWA base (what decides LoS, adjacency and movement; see
:mod:`.terrain`) plus

* a set of **properties** from the fixed vocabulary below, the seed's: Difficult,
  Very Difficult, Cover, Full Cover, Steep, High, Very High, Shallow Water, Deep
  Water, Precarious, Dark, Full Dark, Exposed, Obscured, Fully Obscured,
  Hazardous (with its damage and save) and Trapped (with its trap).  The battle
  rules read these (``battle/terrain_effects.py``); each has typed parameters
  and a one-line effect text the editor shows;
* free **custom** properties: typed key/values as Tiled's custom properties
  (string, int, float, bool, color, file) that no rule reads.  Objects, start
  zones and characters carry custom properties too.

Pure data and validation; no model, no Qt.

>>> props = parse_properties({"cover": {}, "hazardous": {"hazard": "fire"}})
>>> sorted(props), props["hazardous"].params["damage"], props["hazardous"].params["dc"]
(['cover', 'hazardous'], '2d6', 15)
>>> parse_properties({"sticky": {}})
Traceback (most recent call last):
...
ValueError: sticky: unknown terrain property (known: difficult, very_difficult, cover, \
full_cover, steep, high, very_high, shallow_water, deep_water, precarious, dark, full_dark, \
exposed, obscured, fully_obscured, hazardous, trapped)
>>> PRESETS["river"].base, sorted(PRESETS["river"].properties)
('liquid', ['difficult', 'hazardous', 'obscured', 'shallow_water'])
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

#: Dice text of a damage parameter: ``""`` (no damage), ``"3"``, ``"2d6"``, ``"1d4+1"``.
DICE_RE = re.compile(r"^(?:[1-9][0-9]?d(?:4|6|8|10|12|20|100)(?:\+[0-9]{1,2})?|[0-9]{1,2})?$")
DAMAGE_TYPES = ("none", "bludgeoning", "piercing", "slashing", "fire", "cold", "lightning",
                "poison", "acid", "psychic")
#: SODWA's saving throws (Character Sheet: Fortitude, Reflex, Power) stand for the
#: seed's "Body Defense Check"; ``none``: the effect always applies.
SAVES = ("reflex", "fortitude", "power", "none")
CONDITIONS = ("none", "prone", "poisoned", "restrained")


@dataclass(frozen=True)
class Param:
    """One typed parameter of a property: ``kind`` is int, enum, dice, bool or text."""

    name: str
    kind: str
    default: Any
    choices: tuple[str, ...] = ()
    minimum: int = 0
    maximum: int = 100
    doc: str = ""

    def check(self, value: Any, where: str) -> Any:
        """``value`` if it fits this parameter, else ValueError naming ``where``."""
        bad = f"{where}: {value!r} is not "
        if self.kind == "int":
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValueError(bad + "a whole number")
            if not self.minimum <= value <= self.maximum:
                raise ValueError(f"{where}: {value} is outside {self.minimum}..{self.maximum}")
        elif self.kind == "enum":
            if value not in self.choices:
                raise ValueError(bad + "one of " + ", ".join(self.choices))
        elif self.kind == "dice":
            if not isinstance(value, str) or not DICE_RE.match(value):
                raise ValueError(bad + "dice such as '2d6', '1d4+1', '3' or '' (none)")
        elif self.kind == "bool":
            if not isinstance(value, bool):
                raise ValueError(bad + "true or false")
        elif not isinstance(value, str) or len(value) > 200:
            raise ValueError(bad + "a text of at most 200 characters")
        return value


@dataclass(frozen=True)
class PropertySpec:
    """A vocabulary entry: its name, label, the sentence it rests on and its parameters."""

    name: str
    label: str
    effect: str
    params: tuple[Param, ...] = ()
    #: The stronger property of the same scale it excludes (Difficult/Very Difficult ...).
    excludes: tuple[str, ...] = ()

    def defaults(self) -> dict[str, Any]:
        return {p.name: p.default for p in self.params}


def _effect_params(dc: int, save: str) -> tuple[Param, ...]:
    return (
        Param("damage", "dice", "", doc="damage on a failed save ('' none)"),
        Param("damage_type", "enum", "none", DAMAGE_TYPES),
        Param("ignores_dr", "bool", False, doc="damage ignores Damage Reduction"),
        Param("condition", "enum", "none", CONDITIONS, doc="condition on a failed save"),
        Param("save", "enum", save, SAVES, doc="the SODWA save for the seed's Body Defense"),
        Param("dc", "int", dc, minimum=0, maximum=100, doc="the seed's DC (default 15)"),
    )


#: Example hazards of the seed's table: name -> parameters (*Hazardous*).
HAZARDS: Mapping[str, Mapping[str, Any]] = MappingProxyType({
    "lava": {"damage": "2d12", "damage_type": "fire"},
    "fire": {"damage": "2d6", "damage_type": "fire"},
    "electrical": {"damage": "2d6", "damage_type": "lightning"},
    "thorns": {"damage": "1d4", "damage_type": "slashing"},
    "smoke": {"damage": "1d6", "damage_type": "poison", "ignores_dr": True,
              "condition": "poisoned", "save": "fortitude"},
    "current": {"condition": "prone"},
    "custom": {},
})
#: Example traps of the seed's table: name -> parameters (*Trapped*).
TRAPS: Mapping[str, Mapping[str, Any]] = MappingProxyType({
    "pit": {"damage": "2d6", "damage_type": "bludgeoning", "condition": "prone"},
    "net": {"condition": "restrained"},
    "poison_darts": {"damage": "1d6", "damage_type": "poison", "ignores_dr": True,
                     "condition": "poisoned", "save": "fortitude"},
    "custom": {},
})

_SPECS = (
    PropertySpec("difficult", "Difficult",
                 "Entering costs one extra Movement: in SODWA the mover stops on entering."),
    PropertySpec("very_difficult", "Very Difficult",
                 "Entering costs two extra Movement: the mover stops on entering, and may "
                 "only enter as its turn's first step.", excludes=("difficult",)),
    PropertySpec("cover", "Cover",
                 "Ranged attacks from outside at a character in it have a Defense bonus "
                 "(the seed's Disadvantage)."),
    PropertySpec("full_cover", "Full Cover",
                 "Ranged attacks from outside at a character in it automatically fail.",
                 excludes=("cover",)),
    PropertySpec("steep", "Steep",
                 "A climb: entering stops the mover unless it can fly or climb."),
    PropertySpec("high", "High",
                 "Cover against attacks from lower terrain unless Exposed; no melee with "
                 "adjacent lower terrain unless it is Steep."),
    PropertySpec("very_high", "Very High",
                 "As High, and Cover even against attacks from High terrain.",
                 excludes=("high",)),
    PropertySpec("shallow_water", "Shallow Water",
                 "Walk or swim: Liquid's Shallow Water modifiers apply to who stands in it."),
    PropertySpec("deep_water", "Deep Water",
                 "Must swim: Liquid's Deep Water modifiers apply to who stands in it.",
                 excludes=("shallow_water",)),
    PropertySpec("precarious", "Precarious",
                 "Balance: entering stops the mover, or it keeps moving with a check "
                 "against the DC and is knocked prone on a failure.",
                 (Param("dc", "int", 10, minimum=0, maximum=100,
                        doc="Balancing DC (seed: ice or a beam 10, a tightrope 20)"),)),
    PropertySpec("dark", "Dark",
                 "Characters in it are Obscured from those who cannot see in the dark, "
                 "unless a light source is on or next to the tile."),
    PropertySpec("full_dark", "Full Dark",
                 "Characters in it are Fully Obscured from those who cannot see in the dark, "
                 "unless a light source is on or next to the tile.", excludes=("dark",)),
    PropertySpec("exposed", "Exposed",
                 "No cover or hiding places: characters in it cannot hide."),
    PropertySpec("obscured", "Obscured",
                 "Partly blocks vision into, out of and through it: no Evasion against "
                 "attacks from those who cannot see you."),
    PropertySpec("fully_obscured", "Fully Obscured",
                 "Blocks vision into, out of and through it: characters in or behind it "
                 "cannot be targeted by those outside.", excludes=("obscured",)),
    PropertySpec("hazardous", "Hazardous",
                 "Entering it calls for a save (DC 15 unless stated); a failure takes "
                 "the hazard's damage and condition.",
                 (Param("hazard", "enum", "custom", tuple(HAZARDS)),
                  *_effect_params(15, "reflex"))),
    PropertySpec("trapped", "Trapped",
                 "A hidden trap: a character unaware of it that enters makes a save "
                 "(DC 15 unless stated) or suffers the trap.",
                 (Param("trap", "enum", "custom", tuple(TRAPS)), *_effect_params(15, "reflex"),
                  Param("hidden", "bool", True,
                        doc="true: nobody knows it until it springs; false: it never "
                            "triggers (TP-B8)"))),
)
VOCABULARY: Mapping[str, PropertySpec] = MappingProxyType({s.name: s for s in _SPECS})
PROPERTY_NAMES: tuple[str, ...] = tuple(VOCABULARY)


@dataclass(frozen=True)
class TerrainProperty:
    """One vocabulary property with its full, validated parameters."""

    name: str
    params: Mapping[str, Any] = field(default_factory=dict)

    @property
    def spec(self) -> PropertySpec:
        return VOCABULARY[self.name]

    def effect_text(self) -> str:
        """The one-line effect, with the parameters that differ from nothing."""
        shown = {k: v for k, v in self.params.items() if v not in ("", "none", False)}
        if not shown:
            return self.spec.effect
        return self.spec.effect + " (" + ", ".join(f"{k} {v}" for k, v in shown.items()) + ")"

    def to_json(self) -> dict[str, Any]:
        """Parameters that differ from the defaults (what a file stores)."""
        base = _param_defaults(self.name, self.params)
        return {k: v for k, v in self.params.items() if base.get(k) != v}


def _param_defaults(name: str, params: Mapping[str, Any]) -> dict[str, Any]:
    """Defaults of ``name``'s parameters, with the chosen hazard/trap example's values."""
    spec = VOCABULARY[name]
    out = spec.defaults()
    example = {"hazardous": ("hazard", HAZARDS), "trapped": ("trap", TRAPS)}.get(name)
    if example is not None:
        key, table = example
        out.update(table.get(params.get(key, out[key]), {}))
    return out


def make_property(name: str, params: Mapping[str, Any] | None = None,
                  where: str | None = None) -> TerrainProperty:
    """A validated :class:`TerrainProperty`; missing parameters take their defaults
    (for Hazardous and Trapped, those of the named example hazard or trap)."""
    where = where or name
    if name not in VOCABULARY:
        raise ValueError(f"{where}: unknown terrain property (known: {', '.join(VOCABULARY)})")
    if not isinstance(params, Mapping | type(None)):
        raise ValueError(f"{where}: parameters must be an object, not {params!r}")
    given = dict(params or {})
    spec = VOCABULARY[name]
    by_name = {p.name: p for p in spec.params}
    for key in given:
        if key not in by_name:
            known = ", ".join(by_name) or "none"
            raise ValueError(f"{where}/{key}: unknown parameter of {name} (known: {known})")
    if "hazard" in by_name or "trap" in by_name:
        key = "hazard" if "hazard" in by_name else "trap"
        by_name[key].check(given.get(key, by_name[key].default), f"{where}/{key}")
    values = _param_defaults(name, given)
    values.update(given)
    out = {p.name: p.check(values[p.name], f"{where}/{p.name}") for p in spec.params}
    return TerrainProperty(name, MappingProxyType(out))


def parse_properties(raw: Any, where: str = "") -> dict[str, TerrainProperty]:
    """Vocabulary properties of a JSON object ``{name: {param: value}}`` (a list of
    names is accepted too), in vocabulary order; ValueError naming ``where``."""
    if isinstance(raw, list | tuple):
        raw = {n: {} for n in raw}
    if isinstance(raw, Mapping):
        items = dict(raw)
    else:
        raise ValueError(f"{where or 'properties'}: must be an object, not {raw!r}")
    out: dict[str, TerrainProperty] = {}
    for name, params in items.items():
        p = params if isinstance(params, TerrainProperty) else make_property(
            name, params, f"{where}/{name}" if where else name)
        out[p.name] = p
    return {n: out[n] for n in PROPERTY_NAMES if n in out}


def properties_to_json(props: Mapping[str, TerrainProperty]) -> dict[str, dict[str, Any]]:
    """``{name: non-default params}`` in vocabulary order (the file's form)."""
    return {n: props[n].to_json() for n in PROPERTY_NAMES if n in props}


def contradictions(props: Mapping[str, TerrainProperty]) -> list[tuple[str, str]]:
    """Pairs of properties that exclude each other (the stronger one applies)."""
    found = [(ex, p) for p in props for ex in VOCABULARY[p].excludes if ex in props]
    if "exposed" in props:
        found += [("exposed", p) for p in ("cover", "full_cover", "obscured", "fully_obscured")
                  if p in props]
    return found


# ---------------------------------------------------------------- custom values
CUSTOM_TYPES = ("string", "int", "float", "bool", "color", "file")
COLOR_RE = re.compile(r"^#(?:[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$")
CUSTOM_NAME_RE = re.compile(r"^[^\x00-\x1f]{1,64}$")
#: Whole numbers as Tiled keeps them (32 bits).
INT_RANGE = (-(2**31), 2**31 - 1)


@dataclass(frozen=True)
class CustomProperty:
    """A designer's typed value (Tiled's custom property types): ``color`` is
    ``#RRGGBB`` or ``#AARRGGBB``, ``file`` a path relative to the map file."""

    type: str
    value: Any

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "value": self.value}


def make_custom(kind: str, value: Any, where: str = "value") -> CustomProperty:
    """A validated :class:`CustomProperty` (ValueError naming ``where``)."""
    if kind not in CUSTOM_TYPES:
        raise ValueError(f"{where}: type {kind!r} is not one of {', '.join(CUSTOM_TYPES)}")
    bad = f"{where}: {value!r} is not "
    if kind == "int":
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(bad + "a whole number")
        if not INT_RANGE[0] <= value <= INT_RANGE[1]:
            raise ValueError(f"{where}: {value} is outside {INT_RANGE[0]}..{INT_RANGE[1]}")
    elif kind == "float":
        if isinstance(value, bool) or not isinstance(value, int | float) or value != value \
                or value in (float("inf"), float("-inf")):
            raise ValueError(bad + "a finite number")
        value = float(value)
    elif kind == "bool":
        if not isinstance(value, bool):
            raise ValueError(bad + "true or false")
    elif kind == "color":
        if not isinstance(value, str) or not COLOR_RE.match(value):
            raise ValueError(bad + "a color '#RRGGBB' or '#AARRGGBB'")
        value = value.lower()
    elif not isinstance(value, str) or len(value) > 10000:
        raise ValueError(bad + "a text of at most 10000 characters")
    elif kind == "file" and ("\x00" in value or value.startswith(("/", "\\"))):
        raise ValueError(bad + "a path relative to the map file")
    return CustomProperty(kind, value)


def parse_custom(raw: Any, where: str = "custom") -> dict[str, CustomProperty]:
    """Custom properties of ``{name: {"type": t, "value": v}}``, sorted by name."""
    if not isinstance(raw, Mapping):
        raise ValueError(f"{where}: must be an object, not {raw!r}")
    out: dict[str, CustomProperty] = {}
    for name in sorted(raw):
        entry = raw[name]
        at = f"{where}/{name}"
        if not isinstance(name, str) or not CUSTOM_NAME_RE.match(name):
            raise ValueError(f"{at}: a property name is 1-64 characters, no control characters")
        if isinstance(entry, CustomProperty):
            entry = entry.to_json()
        if not isinstance(entry, Mapping) or set(entry) != {"type", "value"}:
            raise ValueError(f"{at}: must be {{\"type\": ..., \"value\": ...}}")
        out[name] = make_custom(entry["type"], entry["value"], at)
    return out


def custom_to_json(custom: Mapping[str, CustomProperty]) -> dict[str, dict[str, Any]]:
    return {k: custom[k].to_json() for k in sorted(custom)}


def infer_custom(value: Any) -> CustomProperty:
    """The typed form of a free JSON value of a version-1 file: bool, int, float and
    text keep their type; anything else (a list, an object, null) becomes a string
    holding its compact JSON, so no value is lost."""
    import json

    if isinstance(value, bool):
        return CustomProperty("bool", value)
    if isinstance(value, int) and INT_RANGE[0] <= value <= INT_RANGE[1]:
        return CustomProperty("int", value)
    if isinstance(value, float):
        return CustomProperty("float", value)
    if isinstance(value, str):
        return CustomProperty("string", value)
    return CustomProperty("string", json.dumps(value, sort_keys=True, separators=(",", ":")))


# ---------------------------------------------------------------------- presets
BASE_NAMES = ("clear", "impeding", "obstructing", "difficult", "liquid")


@dataclass(frozen=True)
class Preset:
    """One example terrain of the seed's table, mapped to a SODWA base
    (docs/rules.md, *Terrain properties*, says why for each)."""

    name: str
    label: str
    base: str
    properties: Mapping[str, TerrainProperty]


def _preset(label: str, base: str, *names: str, **params: dict[str, Any]) -> Preset:
    name = label.lower().replace(", ", "-").replace(" ", "-")
    props = {n: make_property(n, params.get(n)) for n in names}
    return Preset(name, label, base, MappingProxyType(
        {n: props[n] for n in PROPERTY_NAMES if n in props}))


#: The seed's *Example Terrains* table, in its order.
PRESETS: Mapping[str, Preset] = MappingProxyType({p.name: p for p in (
    _preset("Plains", "clear", "exposed"),
    _preset("Long Grass", "clear", "obscured"),
    _preset("Woodlands", "impeding", "obscured", "cover"),
    _preset("Dense Woodlands", "impeding", "obscured", "dark", "difficult", "cover"),
    _preset("Hillside", "difficult", "exposed", "steep"),
    _preset("Plateau", "clear", "obscured", "high"),
    _preset("Mountainside", "difficult", "exposed", "steep", "high"),
    _preset("Peak", "clear", "obscured", "very_high"),
    _preset("Mountain Pass", "clear", "exposed", "very_high", "precarious"),
    _preset("Soft Sand", "difficult", "exposed", "difficult"),
    _preset("Sand Dunes", "difficult", "exposed", "difficult", "steep"),
    _preset("Swamp", "liquid", "obscured", "difficult", "shallow_water", "dark"),
    _preset("Coast", "liquid", "exposed", "shallow_water"),
    _preset("Town", "impeding", "obscured", "cover"),
    _preset("Sea", "liquid", "exposed", "deep_water"),
    _preset("Caves", "impeding", "fully_obscured", "dark", "difficult", "full_cover"),
    _preset("Fortification", "obstructing", "fully_obscured", "full_cover"),
    _preset("Low Altitude, Clear Sky", "clear", "exposed", "high"),
    _preset("High Altitude, Clouds", "clear", "obscured", "very_high"),
    _preset("River", "liquid", "obscured", "difficult", "shallow_water", "hazardous",
            hazardous={"hazard": "current", "save": "reflex", "dc": 15}),
)})
