"""The editor context: everything the parts of the editor share, without a widget.

napari's widgets receive the ``ViewerModel``; Tiled's docks receive a
``Document``.  :class:`EditorContext` is the editor's equivalent: the open
:class:`~.document.Document`, the editing state (:class:`~.tools.base.EditorState`:
the tool, its settings and the selection; :class:`~.layer_state.LayerState`:
which layers are shown, locked and how opaque), the map scene that draws the
document's map, the :class:`~.previews.PreviewController` (which previews are
on and their pinned source), the roster in use (:class:`~.roster_in_use.RosterInUse`),
the settings store, and one :attr:`message` signal for the status bar.  The main
window creates one, builds its widgets around it and hands each dock, tool and mode
the narrowest of these models it needs (docs/editor.md, Architecture).

The context wires its models to each other (the scene follows the document and
the layer state; the document asks the layer state before an edit), so a test
can build one and drive it with no window at all.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject, QSettings, Signal

from ..engine.model import MapModel
from .document import Document
from .layer_state import LayerState
from .previews import PreviewController
from .roster_in_use import RosterInUse
from .scene.map_scene import MapScene
from .tools.base import EditorState

#: how long the status bar shows a message of each kind (ms; 0: until replaced).
#: ``note`` also puts a short-lived note on the map at the pointer (a refused edit)
MESSAGE_KINDS = {"note": 6000, "status": 6000, "info": 8000, "brief": 4000, "hint": 0}


class EditorContext(QObject):
    """The models of one editor window (see the module docstring)."""

    #: a line for the user (text, kind of :data:`MESSAGE_KINDS`)
    message = Signal(str, str)

    def __init__(self, model: MapModel | None = None, path: Path | None = None, *,
                 settings: QSettings, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.settings = settings
        self.document = Document(model, path, self)
        self.state = EditorState(self)
        #: the roster in use (the Roster Editor's last, else the shipped one): the
        #: Character tool, the eyedropper, F5, the Balance Run and the team editor's
        self.roster_in_use = RosterInUse(settings, self)
        self.state.roster_in_use = self.roster_in_use
        self.state.follow_types(self.document.model)
        self.layers = LayerState(settings, self)
        self.scene = MapScene(self.document.model, self)
        self.previews = PreviewController(self.document, self.scene, self)
        d = self.document
        # first: the palette and the tool options rebuild from the state's type ids
        d.model_replaced.connect(self.state.follow_types)
        d.edited.connect(self._follow_types)  # a step swapped the terrain types
        d.model_replaced.connect(self._on_model_replaced)
        d.edited.connect(self.scene.flush)
        d.edited.connect(self.previews.schedule)
        d.message.connect(self._note)
        d.layer_guard = self.layers.refusal  # hidden or locked: refused
        self.layers.visibility_changed.connect(self.scene.set_layer_visible)
        self.layers.opacity_changed.connect(self._set_opacity)
        self.layers.property_shown_changed.connect(self._show_properties)
        self.layers.property_filter_changed.connect(self.scene.set_property_filter)
        self._show_properties()
        for name, percent in self.layers.opacity.items():
            self._set_opacity(name, percent)
        self.state.hint.connect(self._hint)
        self.state.status.connect(self.say)
        self.previews.info.connect(self._preview_info)

    def say(self, text: str, kind: str = "status") -> None:
        """A message for the status bar (``kind``: one of :data:`MESSAGE_KINDS`)."""
        if kind not in MESSAGE_KINDS:
            raise ValueError(f"message kind {kind!r} is not one of {', '.join(MESSAGE_KINDS)}")
        self.message.emit(text, kind)

    # Bound methods, not lambdas: Qt drops them with the context.
    def _follow_types(self) -> None:
        self.state.follow_types(self.document.model)

    def _note(self, text: str) -> None:
        self.say(text, "note")

    def _hint(self, text: str) -> None:
        self.say(text, "hint")

    def _preview_info(self, text: str) -> None:
        if text:
            self.say(text, "info")

    def _set_opacity(self, layer: str, percent: int) -> None:
        self.scene.set_layer_opacity(layer, percent / 100)

    def _show_properties(self, *_changed: object) -> None:
        self.scene.set_shown_properties(self.layers.shown_properties())

    def _on_model_replaced(self, model: MapModel) -> None:
        self.scene.set_model(model)
        self.state.select(None)
        self.previews.model_replaced()
