"""Where each owner keeps its custom properties in a map (the :class:`Access`
of each owner kind): a special terrain type in the registry, an object or a
character on itself, a start zone in the map's ``zone_custom``.  Writes go
through the model's mutators, which tell the listeners."""

from __future__ import annotations

import dataclasses

from ...engine.model import MapModel
from ...engine.terrain_properties import CUSTOM_NAME_RE, CustomProperty, make_custom
from .commands import Owner
from .typed import PropertyRow


def _rows(custom) -> list[PropertyRow]:
    return [PropertyRow(k, v.type, v.value) for k, v in sorted(custom.items())]


def _custom(rows: list[PropertyRow], where: str) -> dict[str, CustomProperty]:
    out = {}
    for r in rows:
        if not isinstance(r.name, str) or not CUSTOM_NAME_RE.match(r.name):
            raise ValueError(f"{where}: {r.name!r} is not a property name (1-64 characters, "
                             "no control characters)")
        if r.name in out:
            raise ValueError(f"{where}: two properties named {r.name!r}")
        out[r.name] = make_custom(r.type, r.value, f"{where} {r.name!r}")
    return out


class _Access:
    kind = ""

    def current(self, model: MapModel, owner: Owner):
        raise NotImplementedError

    def store(self, model: MapModel, owner: Owner, custom: dict[str, CustomProperty]) -> None:
        raise NotImplementedError

    def read(self, model: MapModel, owner: Owner) -> list[PropertyRow]:
        return _rows(self.current(model, owner))

    def check(self, model: MapModel, owner: Owner, rows: list[PropertyRow]) -> None:
        """KeyError when the owner is gone, ValueError naming a wrong row."""
        self.current(model, owner)
        _custom(rows, owner.label())

    def write(self, model: MapModel, owner: Owner, rows: list[PropertyRow]) -> None:
        self.store(model, owner, _custom(rows, owner.label()))


class TerrainAccess(_Access):
    kind = "terrain"

    def current(self, model, owner):
        reg = model.registry
        if owner.key not in reg or reg[reg.id_of(owner.key)].builtin:
            raise KeyError(f"{owner.key!r} is not a terrain type of this map with properties")
        return reg[reg.id_of(owner.key)].custom

    def store(self, model, owner, custom):
        model.set_terrain_properties(owner.key, custom=custom)


class TokenAccess(_Access):
    """An object's or a character's own ``custom`` (``kind``: object | character)."""

    def __init__(self, kind: str) -> None:
        self.kind = kind

    def _things(self, model: MapModel) -> dict:
        return model.objects if self.kind == "object" else model.characters

    def current(self, model, owner):
        if owner.key not in self._things(model):
            raise KeyError(f"{self.kind} {owner.key!r} is gone")
        return self._things(model)[owner.key].custom

    def store(self, model, owner, custom):
        new = dataclasses.replace(self._things(model)[owner.key], custom=custom)
        if self.kind == "object":
            model.put_object(new)
        else:
            model.put_character(new)


class ZoneAccess(_Access):
    kind = "zone"

    def current(self, model, owner):
        if owner.key not in model.start_zones and owner.key not in model.zone_custom:
            raise KeyError(f"team {owner.key!r} has no start zone")
        return model.zone_custom.get(owner.key, {})

    def store(self, model, owner, custom):
        model.set_zone_custom(owner.key, custom)


ACCESS: dict[str, _Access] = {a.kind: a for a in (TerrainAccess(), TokenAccess("object"),
                                                   TokenAccess("character"), ZoneAccess())}
