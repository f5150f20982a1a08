"""The terrain-properties part of :class:`~..document.Document` (a mixin, as
:class:`~..document_tokens.TokenEdits`): declaring and editing terrain types
(their base, vocabulary properties and custom properties), painting a preset
(declared by the first stroke that paints it, in the same undo step) and
editing the custom properties of a type, an object, a start zone or a
character.

A terrain type edit swaps the map's registry for one with the type declared or
changed (:class:`SwapRegistry`): the ids of the other types, and so every
tile, stay as they are."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
from PySide6.QtGui import QUndoCommand

from ...engine.terrain import Base, TerrainRegistry, TerrainType
from ...engine.terrain_properties import PRESETS, CustomProperty, Preset, TerrainProperty
from .commands import Access, Owner, SetCustomProperties, changed, step_text
from .owners import ACCESS
from .typed import PropertyRow

if TYPE_CHECKING:
    from PySide6.QtCore import SignalInstance

    from ...engine.model import MapModel
    from ..geometry import Tile

#: terrain ids from here on stand for the presets (``PRESET_BASE + i``: the
#: i-th of PRESETS) until painting declares them
PRESET_BASE = 1000
PRESET_KEYS = tuple(PRESETS)


@dataclass(frozen=True)
class TypeSpec:
    """A terrain type as the dialog sets it: name, base, vocabulary properties and
    custom properties."""

    name: str
    base: Base
    properties: dict[str, TerrainProperty]
    custom: dict[str, CustomProperty]


def max_light_radius() -> int:
    """The largest light radius a map file holds (the schema's)."""
    from ...io.schemas import load_schema

    return int(load_schema("map")["$defs"]["object"]["properties"]["radius"]["maximum"])


def preset_id(name: str) -> int:
    """The terrain id that stands for preset ``name`` before it is declared."""
    return PRESET_BASE + PRESET_KEYS.index(name)


def preset_of(terrain_id: int) -> Preset | None:
    """The preset a terrain id stands for, or None (an ordinary id)."""
    i = terrain_id - PRESET_BASE
    return PRESETS[PRESET_KEYS[i]] if 0 <= i < len(PRESET_KEYS) else None


def is_preset_type(t: TerrainType) -> bool:
    """Whether special type ``t`` is a preset as its first stroke declares it (the
    preset's name, base and properties, no custom properties)."""
    preset = PRESETS.get(t.name)
    return (preset is not None and not t.builtin and not t.custom
            and t.base is Base[preset.base.upper()]
            and dict(t.properties) == dict(preset.properties))


def spec_of_preset(preset: Preset) -> TypeSpec:
    return TypeSpec(preset.name, Base[preset.base.upper()], dict(preset.properties), {})


def registry_with(registry: TerrainRegistry, spec: TypeSpec,
                  replacing: str | None = None) -> TerrainRegistry:
    """A copy of ``registry`` with ``spec`` declared last, or in the place of type
    ``replacing`` (same id); ValueError says why it cannot be (a taken name)."""
    out = TerrainRegistry()
    for t in registry.special_types():
        if t.name == replacing:
            out.register(spec.name, spec.base, spec.properties, custom=spec.custom)
        else:
            out.register(t.name, t.base, t.properties, custom=t.custom)
    if replacing is None:
        out.register(spec.name, spec.base, spec.properties, custom=spec.custom)
    return out


class SwapRegistry(QUndoCommand):
    """Declare or change terrain types: the map's registry swapped for another."""

    def __init__(self, holder: Any, after: TerrainRegistry, text: str) -> None:
        super().__init__(text)
        self.holder = holder
        self.before = holder.model.registry
        self.after = after

    def _set(self, registry: TerrainRegistry) -> None:
        model = self.holder.model
        model.registry = registry
        model.notify_bulk_change("terrain")

    def redo(self) -> None:
        self._set(self.after)

    def undo(self) -> None:
        self._set(self.before)


class PropertyEdits:
    """Document methods for terrain types and custom properties (mixed in)."""

    if TYPE_CHECKING:
        model: MapModel
        message: SignalInstance

        def push(self, cmd: QUndoCommand) -> bool: ...

        def _layer_refused(self, *layers: str) -> bool: ...

        def begin_macro(self, text: str) -> None: ...

        def end_macro(self) -> None: ...

        def paint_terrain(self, cells: Iterable[Tile] | np.ndarray, terrain_id: int,
                          text: str = "Paint Terrain") -> bool: ...

        @property
        def in_stroke(self) -> bool: ...

    # ------------------------------------------------------------ types
    def declare_terrain_type(self, spec: TypeSpec, text: str | None = None) -> bool:
        """Add a special terrain type (one step, "Add Terrain Type NAME")."""
        try:
            after = registry_with(self.model.registry, spec)
        except ValueError as exc:
            self.message.emit(f"terrain type not added: {exc}")
            return False
        return self.push(SwapRegistry(self, after, text or f"Add Terrain Type {spec.name}"))

    def edit_terrain_type(self, name: str, spec: TypeSpec) -> bool:
        """Change special type ``name`` (its name, base, properties, custom
        properties) keeping its id: one step, "Edit Terrain Type NAME"."""
        reg = self.model.registry
        if name not in reg or reg[reg.id_of(name)].builtin:
            self.message.emit(f"{name!r} is not a terrain type of this map you can edit")
            return False
        old = reg[reg.id_of(name)]
        if (old.name, old.base, dict(old.properties), dict(old.custom)) == \
                (spec.name, spec.base, spec.properties, spec.custom):
            return False
        try:
            after = registry_with(reg, spec, replacing=name)
        except ValueError as exc:
            self.message.emit(f"terrain type not changed: {exc}")
            return False
        return self.push(SwapRegistry(self, after, f"Edit Terrain Type {name}"))

    def paint_preset(self, cells: Iterable[Tile] | np.ndarray, terrain_id: int,
                     text: str = "Paint Terrain") -> bool:
        """Paint the preset ``terrain_id`` stands for (:func:`preset_id`): declared
        first when this map has no type of its name, in the same undo step (the
        stroke's, or one of its own)."""
        preset = preset_of(terrain_id)
        if preset is None:
            self.message.emit(f"this map has no terrain type {terrain_id}; pick one in the palette")
            return False
        reg = self.model.registry
        if preset.name in reg:
            return self.paint_terrain(cells, reg.id_of(preset.name), text)
        if self._layer_refused("terrain"):
            return False
        spec = spec_of_preset(preset)
        step = f"{text} ({preset.label})"
        alone = not self.in_stroke
        if alone:
            self.begin_macro(step)
        self.push(SwapRegistry(self, registry_with(reg, spec), step))
        done = self.paint_terrain(cells, self.model.registry.id_of(preset.name), text)
        if alone:
            self.end_macro()
        return done

    # -------------------------------------------------------- custom properties
    def custom_rows(self, owner: Owner) -> list[PropertyRow]:
        return ACCESS[owner.kind].read(self.model, owner)

    def set_custom_properties(self, owner: Owner, rows: list[PropertyRow], verb: str = "Edit",
                              name: str = "") -> bool:
        """Replace ``owner``'s custom properties (one step, e.g. "Rename Property
        'loot' of Object crate"); a value that is not of its type is refused."""
        access: Access = ACCESS[owner.kind]
        layer = {"object": "characters", "character": "characters",
                 "zone": "start zones"}.get(owner.kind)
        if layer is not None and self._layer_refused(layer):
            return False
        try:
            access.check(self.model, owner, rows)  # type: ignore[attr-defined]
        except (KeyError, ValueError) as exc:
            self.message.emit(f"property not changed: {exc}")
            return False
        if not changed(access.read(self.model, owner), rows):
            return False
        return self.push(SetCustomProperties(self, access, owner, rows,
                                             step_text(verb, owner, name)))
