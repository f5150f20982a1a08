"""Which drawing layers are shown, locked against edits, and how opaque they are
(as Tiled's Layers panel): the model the Layers dock shows and the map scene
follows.

Locks and opacities are remembered in the settings (``layers/locked``,
``layers/opacity/<layer>``); which layers are hidden is remembered with the
window (:mod:`.layout`, ``view/hidden_layers``).  An edit of a hidden or locked
layer is refused with the reason (:meth:`LayerState.refusal` is the document's
``layer_guard``).
"""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtCore import QObject, QSettings, Signal

from ..engine.terrain_properties import PROPERTY_NAMES
from .scene.map_scene import LAYERS

#: the opaque base layer: every other layer has an opacity
BASE_LAYER = "terrain"


def stored_list(value: object) -> list[str]:
    """A list read back from QSettings (which gives a one-item list back as a string)."""
    if isinstance(value, str):
        return [value]
    return [str(v) for v in value] if isinstance(value, list | tuple) else []


def stored_percent(value: object) -> int:
    """A stored opacity (QSettings may give text back), 0..100; 100 when unreadable."""
    try:
        return min(100, max(0, int(str(value))))
    except ValueError:
        return 100


class LayerState(QObject):
    """Shown, locked and opacity (percent) of each layer of :data:`LAYERS`."""

    visibility_changed = Signal(str, bool)
    lock_changed = Signal(str, bool)
    #: a layer's opacity in percent (the base layer has none)
    opacity_changed = Signal(str, int)
    #: a terrain property's marks shown or hidden (the properties layer's own boxes)
    property_shown_changed = Signal(str, bool)
    #: the property whose tiles the map shows undimmed (None: no filter)
    property_filter_changed = Signal(object)

    def __init__(self, settings: QSettings, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.settings = settings
        locked = stored_list(settings.value("layers/locked", []))
        self.visible = dict.fromkeys(LAYERS, True)
        self.locked = {name: name in locked for name in LAYERS}
        self.opacity = {name: stored_percent(settings.value(f"layers/opacity/{name}", 100))
                        for name in LAYERS if name != BASE_LAYER}
        hidden = stored_list(settings.value("layers/hidden_properties", []))
        #: terrain properties whose marks are drawn (remembered in the settings)
        self.property_shown = {name: name not in hidden for name in PROPERTY_NAMES}
        #: "show tiles with property X": X, or None
        self.property_filter: str | None = None

    def set_visible(self, layer: str, on: bool) -> None:
        """Show or hide ``layer`` (the scene follows; a hidden layer is not edited)."""
        if self.visible[layer] != on:
            self.visible[layer] = on
            self.visibility_changed.emit(layer, on)

    def set_locked(self, layer: str, on: bool) -> None:
        """Lock ``layer`` against edits (or unlock it); remembered in the settings."""
        if self.locked[layer] != on:
            self.locked[layer] = on
            self.settings.setValue("layers/locked", [n for n, v in self.locked.items() if v])
            self.lock_changed.emit(layer, on)

    def set_opacity(self, layer: str, percent: int) -> None:
        """The opacity of ``layer`` in percent; remembered in the settings."""
        if self.opacity[layer] != percent:
            self.opacity[layer] = percent
            self.settings.setValue(f"layers/opacity/{layer}", percent)
            self.opacity_changed.emit(layer, percent)

    def set_property_shown(self, name: str, on: bool) -> None:
        """Show or hide the marks of terrain property ``name``; remembered."""
        if self.property_shown[name] != on:
            self.property_shown[name] = on
            self.settings.setValue("layers/hidden_properties",
                                   [n for n, v in self.property_shown.items() if not v])
            self.property_shown_changed.emit(name, on)

    def shown_properties(self) -> frozenset[str]:
        return frozenset(n for n, on in self.property_shown.items() if on)

    def set_property_filter(self, name: str | None) -> None:
        """Dim every tile whose type lacks property ``name`` (None: no filter)."""
        if name is not None and name not in self.property_shown:
            raise ValueError(f"unknown terrain property {name!r}")
        if name != self.property_filter:
            self.property_filter = name
            self.property_filter_changed.emit(name)

    def reset(self) -> None:
        """Every layer shown and unlocked, every opacity 100 % (View -> Reset
        Layout), and nothing of it left in the settings."""
        for name in LAYERS:
            self.set_visible(name, True)
            self.set_locked(name, False)
        for name in self.opacity:
            self.set_opacity(name, 100)
        for name in PROPERTY_NAMES:
            self.set_property_shown(name, True)
        self.set_property_filter(None)
        self.settings.remove("layers")

    def refusal(self, layers: Iterable[str]) -> str | None:
        """Why an edit of ``layers`` is refused (a layer is hidden or locked), or None."""
        for layer in layers:
            label = layer.capitalize()
            if not self.visible[layer]:
                return (f"The {label} layer is hidden: show it in the Layers dock "
                        "to edit it")
            if self.locked[layer]:
                return f"The {label} layer is locked: unlock it in the Layers dock to edit it"
        return None
