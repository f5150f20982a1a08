"""The notation of areas of effect, as designers write them (companion rulebook
``tiles-movement-and-areas-of-effect.txt``, *AoE Shapes & Sizes*: "AoE Entries are
read AoE - Type - Size & Shape").

>>> spec = parse_area("AoE - Blast - Sphere: Range: 8, Reach: 2")
>>> spec.type, spec.shape, spec.range, spec.reach
(<AreaType.BLAST: 'Blast'>, <Shape.SPHERE: 'Sphere'>, 8, 2)
>>> format_area(parse_area("AoE- \\"Type\\" - Cone: 5|3:2|5:3"))
'AoE - Type - Cone: 5|3:2|5:3'
>>> try:
...     parse_area("AoE - Blast - Cone: 5|3:7")
... except NotationError as error:
...     print(error)
Cone: 5|3:7: anchor reach 7 exceeds the cone's range 5

The grammar (keywords in any letter case, spaces around ``-``, ``:``, ``,`` and
``|`` optional)::

    entry     AoE - TYPE - SHAPE[, Emanating: N][, Duration: N]
    TYPE      Aura | Blast | Emanation | Engulf | Falling H/T | Rising [H] | Type
    SHAPE     Line: N                        (its length, a Range)
              Rail: Range: N, Reach: M
              Cone: N|A:R|A:R...             (length N; tile A of the line has Reach R)
              Specified: Targets: T, Range: N, Reach: M
              Sphere: | Sphere: M | Sphere: Range: N, Reach: M     (also Disk)
              Cube: S | Cube: Range: N, Side: S                    (S odd)
              Trail: N                       (N tiles, each adjacent to the last)
              Ray: M                         (radius M from the caster)

``Type`` (also ``"Type"``) is the seed's own placeholder: an area whose type is not
given; it spreads as an Aura does (docs/rules.md *Areas of effect*, AE-rules).  The
printer writes the canonical form (:func:`format_area`); every spec it prints parses
back to the same spec.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import StrEnum

#: Largest Range, Reach, length or size the notation accepts (the map side is at most
#: 256; Range is bounded like a character's Range attribute, model.MAX_RANGE).
MAX_SIZE = 999
#: Most chosen tiles of a Specified area.
MAX_TARGETS = 99
#: Largest height (Falling, Rising) and impact timer (Falling), in tiles and upkeeps.
MAX_HEIGHT = 99


class NotationError(ValueError):
    """A notation that cannot be read: one line, the bad part first."""


class AreaType(StrEnum):
    """The AoE Types of the seed (*AoE Types*, *Falling & Rising*); ``ANY`` is the
    seed's placeholder ``Type``."""

    AURA = "Aura"
    BLAST = "Blast"
    EMANATION = "Emanation"
    ENGULF = "Engulf"
    FALLING = "Falling"
    RISING = "Rising"
    ANY = "Type"


class Shape(StrEnum):
    """The AoE shapes of the seed (*AoE Shapes & Sizes*) and seed 002's Ray."""

    LINE = "Line"
    RAIL = "Rail"
    CONE = "Cone"
    SPECIFIED = "Specified"
    SPHERE = "Sphere"
    CUBE = "Cube"
    DISK = "Disk"
    TRAIL = "Trail"
    RAY = "Ray"


#: Types whose effect lingers over upkeeps (may carry Duration and Emanating).
LINGERING = frozenset({AreaType.AURA, AreaType.EMANATION, AreaType.ENGULF})


@dataclass(frozen=True)
class AreaSpec:
    """One area of effect as written in the notation.

    ``range``: Line and Cone length, Rail length, the Range of a Sphere/Disk/Cube's
    point of origin or of Specified tiles (None: the caster's own tile for a Sphere,
    Disk or Cube); ``reach``: Rail, Specified, Sphere, Disk reach and a Ray's radius
    (None in ``Sphere:``: the point of origin only); ``size``: a Cube's side, a
    Trail's number of tiles; ``targets``: Specified; ``anchors``: a Cone's ``(tile,
    reach)`` pairs; ``height``/``timer``: Falling H/T and Rising H; ``emanating``,
    ``duration``: the extras of a lingering area."""

    type: AreaType
    shape: Shape
    range: int | None = None
    reach: int | None = None
    size: int | None = None
    targets: int | None = None
    anchors: tuple[tuple[int, int], ...] = field(default=())
    height: int | None = None
    timer: int | None = None
    emanating: int | None = None
    duration: int | None = None

    def __str__(self) -> str:
        return format_area(self)


_TYPES = {t.value.lower(): t for t in AreaType}
_SHAPES = {s.value.lower(): s for s in Shape}
_ENTRY = re.compile(r"^\s*aoe\s*-\s*(?P<type>.*?)\s*-\s*(?P<shape>[A-Za-z]+)\s*:(?P<args>.*)$",
                    re.IGNORECASE | re.DOTALL)
_NUMBER = re.compile(r"^\s*(\d+)\s*$")
_KEYED = re.compile(r"^\s*([A-Za-z]+)\s*:\s*(.*?)\s*$", re.DOTALL)


def parse_area(text: str) -> AreaSpec:
    """The :class:`AreaSpec` of a notation; :class:`NotationError` names the bad part."""
    if not isinstance(text, str):
        raise NotationError(f"{text!r}: not a text")
    if len(text) > 400:
        raise NotationError(f"{text[:40]}...: longer than 400 characters")
    m = _ENTRY.match(text)
    if m is None:
        raise NotationError(f"{_clip(text)}: not an AoE entry (read as "
                            "'AoE - Type - Shape: sizes', e.g. 'AoE - Blast - Sphere: 3')")
    area_type, height, timer = _parse_type(m.group("type"))
    shape = _SHAPES.get(m.group("shape").lower())
    if shape is None:
        raise NotationError(f"{m.group('shape')}: unknown shape (known: "
                            f"{', '.join(s.value for s in Shape)})")
    args = m.group("args").strip()
    head, extras = _split_extras(args)
    values = _parse_shape(shape, head)
    for key, value in extras.items():
        if area_type not in LINGERING:
            raise NotationError(f"{key.title()}: {value}: only a lingering area (Aura, "
                                "Emanation, Engulf) has it")
        values[key] = value
    return _checked(AreaSpec(area_type, shape, height=height, timer=timer,
                             **values))  # type: ignore[arg-type]


def _clip(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= 60 else text[:57] + "..."


def _parse_type(text: str) -> tuple[AreaType, int | None, int | None]:
    raw = text.strip()
    word = raw.strip('"').strip()
    parts = word.split()
    if not parts:
        raise NotationError("AoE - - ...: the type is missing (Aura, Blast, Emanation, "
                            "Engulf, Falling H/T, Rising, or Type)")
    kind = _TYPES.get(parts[0].lower())
    if kind is None:
        raise NotationError(f"{raw}: unknown type (known: "
                            f"{', '.join(t.value for t in AreaType)})")
    rest = parts[1:]
    if kind is AreaType.FALLING:
        fm = re.fullmatch(r"(\d+)\s*/\s*(\d+)", " ".join(rest))
        if fm is None:
            raise NotationError(f"{raw}: a Falling area gives its height and impact timer, "
                                "e.g. 'Falling 5/5'")
        return kind, _bounded(raw, "the height", fm.group(1), 1, MAX_HEIGHT), \
            _bounded(raw, "the impact timer", fm.group(2), 0, MAX_HEIGHT)
    if kind is AreaType.RISING and rest:
        if len(rest) != 1 or not rest[0].isdigit():
            raise NotationError(f"{raw}: a Rising area may give a height, e.g. 'Rising 2'")
        return kind, _bounded(raw, "the height", rest[0], 1, MAX_HEIGHT), None
    if rest:
        raise NotationError(f"{raw}: unexpected '{' '.join(rest)}' after the type")
    return kind, None, None


def _bounded(label: str, what: str, digits: str, lo: int, hi: int) -> int:
    """``digits`` as a number in ``lo..hi``; the error names ``label`` (the part of
    the notation) and ``what`` the number is."""
    value = int(digits) if len(digits) <= 6 else hi + 1
    if not lo <= value <= hi:
        raise NotationError(f"{_clip(label)}: {what} {_clip(digits)} is outside {lo}..{hi}")
    return value


def _number(part: str, label: str, what: str, lo: int = 0, hi: int = MAX_SIZE) -> int:
    """The whole number ``part`` of the notation part ``label`` (``Range``, ``Sphere``)."""
    m = _NUMBER.match(part)
    if m is None:
        raise NotationError(f"{label}: {_clip(part) or '(nothing)'}: {what} must be a "
                            "whole number")
    return _bounded(f"{label}: {part.strip()}", what, m.group(1), lo, hi)


def _split_extras(args: str) -> tuple[str, dict[str, int]]:
    """The shape's own sizes and the trailing ``Emanating``/``Duration`` extras."""
    parts = [p for p in args.split(",")] if args else []
    extras: dict[str, int] = {}
    while parts:
        km = _KEYED.match(parts[-1])
        if km is None or km.group(1).lower() not in ("emanating", "duration"):
            break
        key = km.group(1).lower()
        if key in extras:
            raise NotationError(f"{parts[-1].strip()}: {key.title()} given twice")
        extras[key] = _number(km.group(2), key.title(), "the value",
                              1 if key == "duration" else 0)
        parts.pop()
    return ",".join(parts).strip(), dict(reversed(list(extras.items())))


def _keyed(shape: Shape, text: str, allowed: dict[str, str]) -> dict[str, int]:
    """``Key: N, Key: N`` pairs of ``allowed`` (key as written -> field name)."""
    out: dict[str, int] = {}
    for part in text.split(","):
        km = _KEYED.match(part)
        if km is None:
            raise NotationError(f"{shape.value}: {_clip(text)}: '{part.strip()}' is not "
                                f"'Key: N' (keys: {', '.join(k.title() for k in allowed)})")
        key = km.group(1).lower()
        name = allowed.get(key)
        if name is None:
            raise NotationError(f"{shape.value}: {km.group(1)}: unknown key (keys: "
                                f"{', '.join(k.title() for k in allowed)})")
        if name in out:
            raise NotationError(f"{shape.value}: {km.group(1)}: given twice")
        lo = 1 if name == "targets" else 0
        hi = MAX_TARGETS if name == "targets" else MAX_SIZE
        out[name] = _number(km.group(2), km.group(1).title(), "the value", lo, hi)
    return out


def _parse_shape(shape: Shape, text: str) -> dict[str, object]:
    if shape is Shape.CONE:
        return _parse_cone(text)
    if shape in (Shape.LINE, Shape.TRAIL, Shape.RAY):
        if _KEYED.match(text):
            key = {Shape.LINE: "range", Shape.RAY: "reach"}.get(shape)
            if key is None:
                raise NotationError(f"Trail: {_clip(text)}: a Trail gives its number of "
                                    "tiles, e.g. 'Trail: 8'")
            vals = _keyed(shape, text, {key: key})
            return vals  # type: ignore[return-value]
        field_name = {Shape.LINE: "range", Shape.TRAIL: "size", Shape.RAY: "reach"}[shape]
        lo = 1 if shape is Shape.TRAIL else 0
        what = {Shape.LINE: "the length", Shape.TRAIL: "the number of tiles",
                Shape.RAY: "the radius"}[shape]
        return {field_name: _number(text, shape.value, what, lo)}
    if shape is Shape.RAIL:
        vals = _keyed(shape, text, {"range": "range", "reach": "reach"})
        if set(vals) != {"range", "reach"}:
            raise NotationError(f"Rail: {_clip(text)}: a Rail gives 'Range: N, Reach: M'")
        return vals  # type: ignore[return-value]
    if shape is Shape.SPECIFIED:
        vals = _keyed(shape, text, {"targets": "targets", "range": "range", "reach": "reach"})
        if set(vals) != {"targets", "range", "reach"}:
            raise NotationError(f"Specified: {_clip(text)}: a Specified area gives "
                                "'Targets: T, Range: N, Reach: M'")
        return vals  # type: ignore[return-value]
    if shape is Shape.CUBE:
        if _NUMBER.match(text):
            return {"size": _number(text, "Cube", "the side", 1)}
        vals = _keyed(shape, text, {"range": "range", "side": "size"})
        if "size" not in vals:
            raise NotationError(f"Cube: {_clip(text)}: a Cube gives its side, e.g. 'Cube: 3' "
                                "or 'Cube: Range: 6, Side: 3'")
        return vals  # type: ignore[return-value]
    # Sphere, Disk
    if not text:
        return {}
    if _NUMBER.match(text):
        return {"reach": _number(text, shape.value, "the reach")}
    vals = _keyed(shape, text, {"range": "range", "reach": "reach"})
    if "reach" not in vals:
        raise NotationError(f"{shape.value}: {_clip(text)}: a {shape.value} gives its Reach, "
                            f"e.g. '{shape.value}: Range: 10, Reach: 3'")
    return vals  # type: ignore[return-value]


def _parse_cone(text: str) -> dict[str, object]:
    parts = [p.strip() for p in text.split("|")]
    length = _number(parts[0], "Cone", "the length", 1)
    anchors: list[tuple[int, int]] = []
    for part in parts[1:]:
        am = re.fullmatch(r"(\d+)\s*:\s*(\d+)", part)
        if am is None:
            raise NotationError(f"Cone: {_clip(text)}: '{part}' is not an anchor 'tile:reach'")
        tile, reach = (_bounded(f"Cone: {part}", "the anchor's value", g, 0, MAX_SIZE)
                       for g in am.groups())
        anchors.append((tile, reach))
    return {"range": length, "anchors": tuple(anchors)}


def _checked(spec: AreaSpec) -> AreaSpec:
    """The rules of the notation that span several parts."""
    if spec.shape is Shape.CONE:
        assert spec.range is not None
        text = format_area(spec).split(" - ", 2)[2]
        seen: set[int] = set()
        for tile, reach in spec.anchors:
            if reach > spec.range:  # seed: "A Reach Anchor's Reach can not exceed the Range"
                raise NotationError(f"{text}: anchor reach {reach} exceeds the cone's "
                                    f"range {spec.range}")
            if not 1 <= tile <= spec.range:
                raise NotationError(f"{text}: anchor tile {tile} is not a tile of the cone "
                                    f"(1..{spec.range})")
            if tile in seen:
                raise NotationError(f"{text}: anchor tile {tile} given twice")
            seen.add(tile)
    if spec.shape is Shape.CUBE and spec.size is not None and spec.size % 2 == 0:
        raise NotationError(f"Cube: {spec.size}: a cube's side must be odd, so that its "
                            "point of origin is its centre tile")
    return spec


def format_area(spec: AreaSpec) -> str:
    """The canonical notation of ``spec`` (:func:`parse_area` reads it back)."""
    kind = spec.type.value
    if spec.type is AreaType.FALLING:
        kind = f"Falling {spec.height}/{spec.timer}"
    elif spec.type is AreaType.RISING and spec.height is not None:
        kind = f"Rising {spec.height}"
    s = spec.shape
    if s is Shape.CONE:
        body = "|".join([str(spec.range), *(f"{t}:{r}" for t, r in spec.anchors)])
    elif s in (Shape.LINE, Shape.RAY, Shape.TRAIL):
        body = str({Shape.LINE: spec.range, Shape.RAY: spec.reach,
                    Shape.TRAIL: spec.size}[s])
    elif s is Shape.RAIL:
        body = f"Range: {spec.range}, Reach: {spec.reach}"
    elif s is Shape.SPECIFIED:
        body = f"Targets: {spec.targets}, Range: {spec.range}, Reach: {spec.reach}"
    elif s is Shape.CUBE:
        body = str(spec.size) if spec.range is None else \
            f"Range: {spec.range}, Side: {spec.size}"
    elif spec.reach is None:
        body = ""
    elif spec.range is None:
        body = str(spec.reach)
    else:
        body = f"Range: {spec.range}, Reach: {spec.reach}"
    extras = "".join(f", {name.title()}: {value}" for name, value in
                     (("emanating", spec.emanating), ("duration", spec.duration))
                     if value is not None)
    shape_text = f"{s.value}: {body}" if body else f"{s.value}:"
    return f"AoE - {kind} - {shape_text}{extras}"
