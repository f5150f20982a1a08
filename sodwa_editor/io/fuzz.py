"""Fuzzing the loaders and everything built on a loaded map, and the battle files:
a seeded mutator over the sample maps, a pack of them, and a team, a roster, a
rules file, an AI profile and a replay (:func:`battle_documents`); the check of
a case: :mod:`.fuzz_check` (battle files: :mod:`.fuzz_battle`).

A case is the bytes of a file, made from a seed document by a few mutations
(:func:`make_case`): JSON-structure mutations (delete or duplicate a key, a value
of the wrong type, huge numbers, NaN, deep nesting, long strings, lone
surrogates, coordinates outside the map, maps of the largest size, ...), battle-file
mutations (numbers at and beyond their bounds, replays relabelled or with their
decisions and result changed, their hashes recomputed so that the change reaches
the checks behind them) and byte mutations (flips, insertions, deletions,
truncation, bytes that are not UTF-8); sized creatures: :mod:`.fuzz_sizes`.  Case
``i`` of seed ``s`` is always the same bytes.

:func:`.fuzz_check.check_case` is the check one case goes through; hangs,
memory use and signals are caught by :mod:`.fuzz_runner`, which runs the cases in a
separate process with limits.
"""

from __future__ import annotations

import contextlib
import json
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from ..engine.model import MAX_MOVE, MAX_SIDE
from .fuzz_battle import AI_NAMES, BATTLE_FORMATS, BATTLE_MAP, BATTLE_NUMBERS, battle_documents
from .fuzz_bytes import mutate_bytes
from .fuzz_sizes import bad_size, size_creature, sized_seed

__all__ = ["AI_NAMES", "BATTLE_FORMATS", "BATTLE_MAP", "BATTLE_NUMBERS", "battle_documents",
           "Case", "Mutator", "Pairs", "Raw", "all_documents", "dump", "make_case",
           "seed_documents"]

#: Mutated maps grow to at most this many tiles a side (besides the rare "huge"
#: mutation, which goes up to the format's limit, MAX_SIDE).
GROW_TO = 128

#: Moves the movement preview is asked for from a tile without a character
#: (the Layers dock's Move box runs 0..MAX_MOVE; 5 is its default).
PREVIEW_MOVES = (0, 5, MAX_MOVE)


# ------------------------------------------------------------- serialising
class Raw(str):
    """JSON text inserted as it is (huge numbers, NaN, deep nesting)."""


class Pairs(list):
    """An object written from a list of ``(key, value)`` pairs (keys may repeat)."""


def dump(value: Any, ascii_only: bool = True) -> str:
    """JSON text of a document that may hold :class:`Raw` and :class:`Pairs` nodes
    (``ascii_only``: every other character escaped, lone surrogates as ``\\ud800``)."""
    if isinstance(value, Raw):
        return str(value)
    if isinstance(value, dict | Pairs):
        items = value if isinstance(value, Pairs) else value.items()
        return "{" + ", ".join(f"{json.dumps(k, ensure_ascii=ascii_only)}: "
                               f"{dump(v, ascii_only)}" for k, v in items) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(dump(v, ascii_only) for v in value) + "]"
    return json.dumps(value, ensure_ascii=ascii_only)


# ------------------------------------------------------------------ corpus
@cache
def seed_documents() -> tuple[tuple[str, str], ...]:
    """``(name, text)`` of every seed: the sample maps (the files in ``maps/``), a
    generated map with borders everywhere, and a pack of all of them."""
    from ..engine.generate import make_mixed_map
    from ..engine.samples import SAMPLE_MAPS
    from .encode import FORMAT_VERSION, GENERATOR, PACK_FORMAT, dumps_map, map_to_dict
    from .packs import dumps_pack

    models = {name: build() for name, build in SAMPLE_MAPS.items()}
    models["mixed-12"] = make_mixed_map(12, seed=4)
    models["sized"] = sized_seed(models["outdoor-skirmish"])  # creatures of every size
    seeds = [(name, dumps_map(m)) for name, m in models.items()]
    pack = {"format": PACK_FORMAT, "format_version": FORMAT_VERSION, "generator": GENERATOR,
            "name": "fuzz", "version": "1.0.0", "author": "", "description": "",
            "maps": [map_to_dict(m) for m in models.values()]}
    seeds.append(("pack", dumps_pack(pack)))
    return tuple(seeds)


def all_documents() -> tuple[tuple[str, str], ...]:
    """Every seed of a campaign: the maps and the pack, then the battle files."""
    return seed_documents() + battle_documents()


# ---------------------------------------------------------------- mutating
Path_ = tuple[Any, ...]


def _paths(value: Any, prefix: Path_ = ()) -> Iterator[Path_]:
    yield prefix
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, (*prefix, k))
    elif isinstance(value, list) and not isinstance(value, Pairs):
        for i, v in enumerate(value):
            yield from _paths(v, (*prefix, i))


def _get(doc: Any, path: Path_) -> Any:
    for part in path:
        doc = doc[part]
    return doc


def _set(doc: Any, path: Path_, value: Any) -> Any:
    if not path:
        return value
    _get(doc, path[:-1])[path[-1]] = value
    return doc


HUGE = ("1e309", "-1e309", "NaN", "Infinity", "-Infinity", "1e-400", "-0", "0.5",
        str(2**15), str(2**31), str(2**63), str(2**64), "9" * 20, "-" + "9" * 20,
        "9" * 4301, "-" + "7" * 5000, "1" + "0" * 400 + ".0")
STRINGS = ("\ud800", "a\udfffb", "\udc00\ud800", "\x00", "\u202e", "e\u0301", "\U0001f600",
           "", " ", "\\", '"', "/", "~1", "\n")
WRONG: tuple[Any, ...] = (None, True, False, 0, -1, 1.5, "", "x", [], {}, [[]], {"": None})
COORDS = (-1, -2**31, MAX_SIDE - 1, MAX_SIDE, 1024, 10**6, 2**63, 99, 100, 0)


class Mutator:
    """Seeded structural and byte mutations of a seed document."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose_path(self, doc: Any, want: Callable[[Any], bool] | None = None) -> Path_ | None:
        paths = [p for p in _paths(doc) if want is None or want(_get(doc, p))]
        return self.rng.choice(paths) if paths else None

    # structural mutations: each returns the new document and its name
    def delete_key(self, doc: Any) -> tuple[Any, str]:
        p = self.choose_path(doc, lambda v: isinstance(v, dict) and bool(v))
        if p is None:
            return doc, "delete-key (none)"
        target = _get(doc, p)
        key = self.rng.choice(list(target))
        del target[key]
        return doc, f"delete-key {key}"

    def duplicate_key(self, doc: Any) -> tuple[Any, str]:
        p = self.choose_path(doc, lambda v: isinstance(v, dict) and bool(v))
        if p is None:
            return doc, "duplicate-key (none)"
        target = _get(doc, p)
        key = self.rng.choice(list(target))
        pairs = Pairs(target.items())
        pairs.insert(self.rng.randrange(len(pairs) + 1), (key, self.rng.choice(WRONG)))
        return _set(doc, p, pairs), f"duplicate-key {key}"

    def wrong_type(self, doc: Any) -> tuple[Any, str]:
        p = self.choose_path(doc)
        value = self.rng.choice(WRONG)
        return _set(doc, p or (), value), f"wrong-type {value!r}"

    def huge_number(self, doc: Any) -> tuple[Any, str]:
        p = self.choose_path(doc, lambda v: isinstance(v, int | float) and not isinstance(v, bool))
        p = p if p is not None else self.choose_path(doc)
        text = self.rng.choice(HUGE)
        return _set(doc, p or (), Raw(text)), f"number {text[:12]}{'...' if len(text) > 12 else ''}"

    def deep_nesting(self, doc: Any) -> tuple[Any, str]:
        p = self.choose_path(doc)
        depth = self.rng.choice((50, 999, 1000, 5000, 100_000))
        opener, closer = self.rng.choice((("[", "]"), ('{"a": ', "}")))
        return _set(doc, p or (), Raw(opener * depth + "0" + closer * depth)), f"nesting {depth}"

    def long_string(self, doc: Any) -> tuple[Any, str]:
        p = self.choose_path(doc, lambda v: isinstance(v, str))
        n = self.rng.choice((65, 201, 10_001, 100_001, 1_000_000))
        return _set(doc, p or (), self.rng.choice("xé#.") * n), f"long-string {n}"

    def odd_string(self, doc: Any) -> tuple[Any, str]:
        p = self.choose_path(doc, lambda v: isinstance(v, str))
        s = self.rng.choice(STRINGS)
        old = _get(doc, p) if p is not None else ""
        at = self.rng.randrange(len(old) + 1) if isinstance(old, str) else 0
        new = old[:at] + s + old[at:] if isinstance(old, str) else s
        return _set(doc, p or (), new), f"string {s!r}"

    def odd_key(self, doc: Any) -> tuple[Any, str]:
        p = self.choose_path(doc, lambda v: isinstance(v, dict))
        if p is None:
            return doc, "odd-key (none)"
        key = self.rng.choice(STRINGS + ("__proto__", "x" * 300))
        _get(doc, p)[key] = self.rng.choice(WRONG)
        return doc, f"odd-key {key[:12]!r}"

    def coordinate(self, doc: Any) -> tuple[Any, str]:
        def is_coord(v: Any) -> bool:
            return (isinstance(v, dict) and ("x" in v or "y" in v)) or (
                isinstance(v, list) and 2 <= len(v) <= 3 and all(isinstance(i, int) for i in v[:2]))
        p = self.choose_path(doc, is_coord)
        if p is None:
            return doc, "coordinate (none)"
        target = _get(doc, p)
        value = self.rng.choice(COORDS)
        key: Any
        if isinstance(target, dict):
            key = self.rng.choice([k for k in ("x", "y") if k in target])
        else:
            key = self.rng.randrange(2)
        target[key] = value
        return doc, f"coordinate {key}={value}"

    def size(self, doc: Any) -> tuple[Any, str]:
        p = self.choose_path(doc, lambda v: isinstance(v, dict) and "width" in v)
        if p is None:
            return doc, "size (none)"
        key = self.rng.choice(("width", "height"))
        value = self.rng.choice((0, 1, -1, MAX_SIDE, MAX_SIDE + 1, 1024, 2**31, 5))
        _get(doc, p)[key] = value
        return doc, f"size {key}={value}"

    def grow(self, doc: Any, largest: int = GROW_TO) -> tuple[Any, str]:
        """A larger valid map, its rows and columns repeated (objects kept in place),
        at most ``largest`` tiles a side."""
        m = self._map_doc(doc)
        if m is None:
            return doc, "grow (none)"
        try:
            side = max(int(m["width"]), int(m["height"]), 1)
            k = max(2, largest // side) if largest == MAX_SIDE else \
                self.rng.randint(2, max(2, largest // side))
            m["terrain"] = [row * k for row in m["terrain"]] * k
            m["elevation"] = [" ".join([row] * k) for row in m["elevation"]] * k
            m["width"] *= k
            m["height"] *= k
        except (TypeError, KeyError, ValueError):
            return doc, "grow (none)"
        return doc, f"grow x{k}"

    def huge(self, doc: Any) -> tuple[Any, str]:
        """A map near the largest size the format accepts."""
        doc, op = self.grow(doc, largest=MAX_SIDE)
        return doc, op.replace("grow", "huge")

    def attribute(self, doc: Any) -> tuple[Any, str]:
        p = self.choose_path(doc, lambda v: isinstance(v, dict) and "move" in v)
        if p is None:
            return doc, "attribute (none)"
        key = self.rng.choice(("move", "range"))
        value = self.rng.choice((-1, 0, 99, MAX_MOVE, MAX_MOVE + 1, 2**15, 2**31, 10**20, 2.5))
        _get(doc, p)[key] = value
        return doc, f"attribute {key}={value}"

    def list_edit(self, doc: Any) -> tuple[Any, str]:
        p = self.choose_path(doc, lambda v: isinstance(v, list) and not isinstance(v, Pairs)
                             and bool(v))
        if p is None:
            return doc, "list (none)"
        items = _get(doc, p)
        i = self.rng.randrange(len(items))
        how = self.rng.choice(("duplicate", "delete", "empty", "reverse"))
        if how == "duplicate":
            items.insert(i, json.loads(json.dumps(items[i])) if not isinstance(items[i], Raw)
                         else items[i])
        elif how == "delete":
            del items[i]
        elif how == "empty":
            items.clear()
        else:
            items.reverse()
        return doc, f"list-{how}"

    def row_char(self, doc: Any) -> tuple[Any, str]:
        p = self.choose_path(doc, lambda v: isinstance(v, str) and len(v) > 2)
        if p is None:
            return doc, "row-char (none)"
        s = _get(doc, p)
        i = self.rng.randrange(len(s))
        c = self.rng.choice("#.~?0123456789 -\t\u00e9\ud800")
        return _set(doc, p, s[:i] + c + s[i + 1:]), f"char {c!r}"

    # mutations that mostly keep a loadable map (so the engine queries run on it)
    def _map_doc(self, doc: Any) -> dict[str, Any] | None:
        p = self.choose_path(doc, lambda v: isinstance(v, dict)
                             and isinstance(v.get("terrain"), list) and "legend" in v)
        return _get(doc, p) if p is not None else None

    def tile_terrain(self, doc: Any) -> tuple[Any, str]:
        m = self._map_doc(doc)
        try:
            rows, legend = m["terrain"], list(m["legend"])  # type: ignore[index]
            y = self.rng.randrange(len(rows))
            x = self.rng.randrange(len(rows[y]))
            c = self.rng.choice(legend)
            rows[y] = rows[y][:x] + c + rows[y][x + 1:]
        except (TypeError, KeyError, ValueError, IndexError):
            return doc, "terrain (none)"
        return doc, f"terrain {x},{y}={c!r}"

    def tile_elevation(self, doc: Any) -> tuple[Any, str]:
        m = self._map_doc(doc)
        try:
            rows = m["elevation"]  # type: ignore[index]
            y = self.rng.randrange(len(rows))
            levels = rows[y].split(" ")
            x = self.rng.randrange(len(levels))
            levels[x] = str(self.rng.choice((0, 1, 2, 5, 40, 99, 99, 100, -1)))
            rows[y] = " ".join(levels)
        except (TypeError, KeyError, ValueError, IndexError, AttributeError):
            return doc, "elevation (none)"
        return doc, f"elevation {x},{y}={levels[x]}"

    def place(self, doc: Any) -> tuple[Any, str]:
        """A character, object or zone tile moved to another tile of the map."""
        m = self._map_doc(doc)
        try:
            items = m[self.rng.choice(("characters", "objects"))]  # type: ignore[index]
            target = self.rng.choice(items)
            target["x"] = self.rng.randrange(m["width"])  # type: ignore[index]
            target["y"] = self.rng.randrange(m["height"])  # type: ignore[index]
        except (TypeError, KeyError, ValueError, IndexError):
            return doc, "place (none)"
        return doc, f"place {target['x']},{target['y']}"

    def drop_entry(self, doc: Any) -> tuple[Any, str]:
        """One character, object, border, zone tile, ... less."""
        p = self.choose_path(doc, lambda v: isinstance(v, list) and not isinstance(v, Pairs)
                             and bool(v) and isinstance(v[0], dict | list))
        if p is None or p[-1] in ("maps",) and len(_get(doc, p)) < 2:
            return doc, "drop (none)"
        items = _get(doc, p)
        del items[self.rng.randrange(len(items))]
        return doc, f"drop {p[-1]}"

    def text_field(self, doc: Any) -> tuple[Any, str]:
        fields = ("name", "description", "id", "team", "kind", "author", "version")
        paths = [p for p in _paths(doc) if p and p[-1] in fields
                 and isinstance(_get(doc, p), str)]
        if not paths:
            return doc, "text (none)"
        p = self.rng.choice(paths)
        s = self.rng.choice(STRINGS)
        return _set(doc, p, _get(doc, p) + s), f"text {p[-1]}+{s!r}"

    def creature_size(self, doc: Any) -> tuple[Any, str]:
        """A character given a size and footprint where it fits (:mod:`.fuzz_sizes`)."""
        return doc, size_creature(self.rng, self._map_doc(doc))

    def bad_size(self, doc: Any) -> tuple[Any, str]:
        return doc, bad_size(self.rng, self._map_doc(doc))

    # battle-file mutations
    def battle_number(self, doc: Any) -> tuple[Any, str]:
        """A number of the file (a sheet value, a rule, a weight, a turn count) at or
        beyond the bounds its schema gives."""
        p = self.choose_path(doc, lambda v: isinstance(v, int | float) and not isinstance(v, bool))
        if p is None:
            return doc, "battle-number (none)"
        value = self.rng.choice(BATTLE_NUMBERS)
        return _set(doc, p, value), f"battle-number {p[-1]}={value!r:.12}"

    def relabel(self, doc: Any) -> tuple[Any, str]:
        """A replay's controllers named otherwise (its hashes recomputed by :meth:`rehash`
        later): the decisions no longer those of the AIs it names."""
        if not (isinstance(doc, dict) and isinstance(doc.get("controllers"), list)):
            return doc, "relabel (none)"
        names = [self.rng.choice(AI_NAMES) for _ in doc["controllers"]]
        doc["controllers"] = names
        if isinstance(doc.get("ai_profiles"), list) and self.rng.random() < 0.8:
            doc["ai_profiles"] = [p if n in ("greedy", "expectimax") else None
                                  for n, p in zip(names, doc["ai_profiles"], strict=False)]
        return doc, f"relabel {','.join(names)}"

    def decision(self, doc: Any) -> tuple[Any, str]:
        """A replay's decision changed, repeated or dropped, or its result changed."""
        if not (isinstance(doc, dict) and isinstance(doc.get("decisions"), list)
                and doc["decisions"]):
            return doc, "decision (none)"
        items = doc["decisions"]
        k = self.rng.randrange(len(items))
        how = self.rng.choice(("move", "attack", "pass", "actor", "team", "drop", "repeat",
                               "result"))
        team = items[k].get("team", 0) if isinstance(items[k], dict) else 0
        if how == "move":
            items[k] = {"team": team, "move": [self.rng.randrange(12), self.rng.randrange(12)]}
        elif how == "attack":
            items[k] = {"team": team, "attack": self.rng.choice((0, 3, 5, 6, 99, 100000))}
        elif how == "pass":
            items[k] = {"team": team, "pass": True}
        elif how == "actor":
            items[k] = {"team": team, "actor": self.rng.randrange(7)}
        elif how == "team" and isinstance(items[k], dict):
            items[k]["team"] = 1 - team if team in (0, 1) else 0
        elif how == "drop":
            del items[k]
        elif how == "repeat":
            items.insert(k, items[k])
        elif isinstance(doc.get("result"), dict):
            key = self.rng.choice(("turns", "tick", "events", "winner"))
            doc["result"][key] = self.rng.choice((0, 1, 2, 10**6, Raw("1" + "0" * 4000)))
        return doc, f"decision-{how} {k}"

    def rehash(self, doc: Any) -> tuple[Any, str]:
        """A replay's header hashes recomputed for its (changed) documents, as someone
        editing the file would: the change then reaches the checks behind them."""
        from ..battle.replay import header_hashes
        from ..battle.rules import rules_doc_hash

        try:
            plain = json.loads(dump(doc))
            hashes = header_hashes(plain, plain["map"]["hash"], plain["controllers"])
            doc["hashes"] = hashes
        except (TypeError, KeyError, ValueError, AttributeError, IndexError, RecursionError):
            return doc, "rehash (none)"
        if isinstance(doc, dict) and "rules_hash" in doc:  # (format_version 2, issue 28)
            with contextlib.suppress(TypeError, KeyError, ValueError, AttributeError):
                doc["rules_hash"] = rules_doc_hash(plain["rules"])
        return doc, "rehash"

    GENTLE = ("tile_terrain", "tile_elevation", "place", "attribute", "grow", "drop_entry",
              "text_field", "creature_size")
    #: Gentle mutations of a battle file (most keep it loadable, so a battle is played).
    BATTLE = ("battle_number", "battle_number", "attribute", "drop_entry", "text_field",
              "list_edit")
    #: And of a replay (each followed by :meth:`rehash` most of the time).
    REPLAY = ("relabel", "decision", "decision", "battle_number", "text_field")
    HARSH = ("delete_key", "duplicate_key", "wrong_type", "huge_number", "deep_nesting",
             "long_string", "odd_string", "odd_key", "coordinate", "size", "row_char",
             "list_edit", "huge", "bad_size")

    def mutate_bytes(self, data: bytes) -> tuple[bytes, str]:
        """A byte mutation of a written document (:func:`.fuzz_bytes.mutate_bytes`)."""
        return mutate_bytes(self.rng, data)


@dataclass
class Case:
    """One fuzz case: its number, the seed it was made from, the mutations, the bytes."""

    index: int
    seed_name: str
    ops: list[str] = field(default_factory=list)
    data: bytes = b""

    @property
    def label(self) -> str:
        return f"{self.index:06d}-{self.seed_name}"


def make_case(seed: int, index: int) -> Case:
    """Case ``index`` of campaign ``seed`` (the same bytes every time)."""
    rng = random.Random(f"sodwa-fuzz:{seed}:{index}")
    name, text = rng.choice(all_documents())
    case = Case(index, name)
    mut = Mutator(rng)
    doc: Any = json.loads(text)
    mode = rng.random()  # 45 % gentle, 35 % harsh (+ gentle), 20 % bytes (of either)
    gentle = (Mutator.REPLAY if name == "replay" else
              Mutator.BATTLE if name in BATTLE_FORMATS.values() else Mutator.GENTLE)
    ops = list(rng.choices(gentle, k=rng.choice((1, 1, 2, 3))))
    if 0.45 <= mode < 0.8 or rng.random() < 0.2:
        ops += rng.choices(Mutator.HARSH, k=rng.choice((1, 1, 2)))
    if name == "replay" and rng.random() < 0.75:
        ops.append("rehash")
    for name in ops:
        doc, op = getattr(mut, name)(doc)
        case.ops.append(op)
    # raw UTF-8 (a lone surrogate then makes bytes that are not UTF-8) or escapes
    data = dump(doc, ascii_only=rng.random() < 0.5).encode("utf-8", "surrogatepass")
    if mode >= 0.8:
        for _ in range(rng.choice((1, 1, 2, 4))):
            data, op = mut.mutate_bytes(data)
            case.ops.append(op)
    case.data = data
    return case
