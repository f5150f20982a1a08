"""Creatures of every size for the fuzzer (:mod:`.fuzz`, issue 26): a seed map with
Large, Huge, Massive and non-square creatures standing where they fit, the gentle
mutation that gives a character of a map a size and a footprint where it fits, and
the harsh one that writes a size or footprint the format refuses.  Seeded: the same
``rng`` gives the same creatures.  No Qt.

"Where it fits" is :func:`.engine.footprint.cannot_stand` (docs/rules.md S4): every
square on the map, none on an Obstructing tile or under another creature, all on
one level, no Obstructing border through it.  The check of a case
(:mod:`.fuzz_check`) then runs the editor's previews of a large creature on it.

>>> import random
>>> from ..engine.samples import SAMPLE_MAPS
>>> from .encode import map_to_dict
>>> doc = map_to_dict(SAMPLE_MAPS["outdoor-skirmish"]())
>>> size_creature(random.Random(1), doc).split()[0]
'sized'
"""

from __future__ import annotations

import random
from typing import Any

from ..engine.footprint import cannot_stand
from ..engine.model import MapModel
from ..engine.sizes import Footprint, footprint_for

#: (size, the map's footprint or None: the table's) a creature may be given: the
#: table's Large 2x2, Huge 4x4, Massive 6x6 and Gigantic 10x10, the one-tile sizes,
#: and free footprints, square or not (CS: "might be more appropriate as 4x8").
SIZES: tuple[tuple[str, tuple[int, int] | None], ...] = (
    ("large", None), ("large", None), ("huge", None), ("huge", None), ("massive", None),
    ("gigantic", None), ("small", None), ("tiny", None), ("mini", None),
    ("massive", (4, 8)), ("huge", (4, 2)), ("large", (2, 3)), ("medium", (1, 2)),
    ("large", (2, 2)), ("small", (1, 1)))
#: Anchors tried per creature before giving up (seeded order; the map's own tile first).
TRIES = 400
#: Values of ``size`` / ``footprint`` the format or the rules refuse.
BAD_SIZES: tuple[Any, ...] = ("enormous", "", "Large", 3, None, ["large"])
BAD_FOOTPRINTS: tuple[Any, ...] = ([0, 2], [2], [2, 2, 2], [257, 1], [-1, 3], [1.5, 2],
                                   ["2", "2"], "2x2", {}, [10**9, 1])


def _model(m: dict[str, Any]) -> MapModel | None:
    """The model of a map document (None when it is not a loadable map)."""
    from .decode import decode_map

    model, _problems = decode_map(m)
    return model


def fit(rng: random.Random, model: MapModel, ident: str | None, fp: Footprint
        ) -> tuple[int, int] | None:
    """An anchor where a creature of ``fp`` may stand on ``model`` (the character
    ``ident``, if any, moved there: its own squares do not count), its current tile
    first, else up to :data:`TRIES` seeded ones; None when none is found."""
    cols, rows = fp.anchor_grid(model.width, model.height)
    if not cols or not rows:
        return None
    others = [(x, y, c.id) for c in model.characters.values() if c.id != ident
              for x, y in c.footprint_at().squares((c.x, c.y))]
    own = model.characters.get(ident) if ident is not None else None
    tries = [(own.x, own.y)] if own is not None else []
    tries += [(rng.randrange(cols), rng.randrange(rows)) for _ in range(TRIES)]
    for anchor in tries:
        if cannot_stand(model, anchor, fp, others=others) is None:
            return anchor
    return None


def size_creature(rng: random.Random, m: dict[str, Any] | None) -> str:
    """Give a character of map document ``m`` (or a new one, when it has none or
    one time in four) a size and footprint from :data:`SIZES` where it fits; the
    operation's label."""
    model = _model(m) if isinstance(m, dict) else None
    if model is None or not isinstance(m.get("characters"), list):  # type: ignore[union-attr]
        return "sized (none)"
    assert m is not None
    size, dims = rng.choice(SIZES)
    fp = footprint_for(size, dimensions=None if dims is None else Footprint(*dims))
    entries = [e for e in m["characters"] if isinstance(e, dict) and e.get("id") in
               model.characters]
    entry = rng.choice(entries) if entries and rng.random() < 0.75 else None
    anchor = fit(rng, model, entry["id"] if entry else None, fp)
    if anchor is None:
        return f"sized (no room for {fp})"
    if entry is None:
        ident = next(f"fuzz-{n}" for n in range(len(model.characters) + 1)
                     if f"fuzz-{n}" not in model.characters)
        teams = sorted(model.start_zones) or ["fuzz"]
        entry = {"id": ident, "team": rng.choice(teams), "move": rng.randrange(13),
                 "range": rng.randrange(8), "flight": rng.random() < 0.2}
        m["characters"].append(entry)
    entry.update(x=anchor[0], y=anchor[1])
    entry.pop("size", None)
    entry.pop("footprint", None)
    if size != "medium":
        entry["size"] = size
    if dims is not None:
        entry["footprint"] = list(dims)
    return f"sized {size} {fp} at {anchor[0]},{anchor[1]}"


def bad_size(rng: random.Random, m: dict[str, Any] | None) -> str:
    """A character's ``size`` or ``footprint`` set to a value the schema refuses."""
    chars = m.get("characters") if isinstance(m, dict) else None
    entries = [e for e in chars if isinstance(e, dict)] if isinstance(chars, list) else []
    if not entries:
        return "bad-size (none)"
    entry = rng.choice(entries)
    key, value = (("size", rng.choice(BAD_SIZES)) if rng.random() < 0.5
                  else ("footprint", rng.choice(BAD_FOOTPRINTS)))
    entry[key] = value
    return f"bad-size {key}={value!r:.20}"


def sized_seed(model: MapModel, seed: str = "sodwa-fuzz-sized") -> MapModel:
    """A copy of ``model`` whose characters have been given sizes where they fit,
    and two more creatures, one Huge and one of a non-square footprint (the seed map
    ``sized`` of :func:`.fuzz.seed_documents`)."""
    from .encode import map_to_dict

    rng = random.Random(seed)
    doc = map_to_dict(model)
    for _ in range(len(model.characters) + 2):
        size_creature(rng, doc)
    for dims in ((4, 4), (2, 4)):  # a Huge 4x4 and a non-square one, added
        fp = Footprint(*dims)
        built = _model(doc)
        anchor = fit(rng, built, None, fp) if built is not None else None
        if anchor is not None:
            doc["characters"].append({
                "id": f"sized-{dims[0]}x{dims[1]}", "team": sorted(model.start_zones or
                                                                    ["fuzz"])[0],
                "x": anchor[0], "y": anchor[1], "move": 6, "range": 1, "flight": False,
                "size": "huge", **({} if dims == (4, 4) else {"footprint": list(dims)})})
    out = _model(doc)
    assert out is not None, "the sized seed map loads"
    return out
