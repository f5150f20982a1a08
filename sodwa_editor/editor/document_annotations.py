"""The labels and reference-image part of :class:`~.document.Document` (a mixin,
as :mod:`.document_tokens`): each edit one named undo command (Add Label, Edit
Label, Move Label, Delete Label, Set Reference Image, Remove Reference Image),
refused with a one-line reason when the layer is hidden or locked or the value
is one the map file cannot hold.

Symmetry painting (issue 29) mirrors labels as it mirrors characters: Add Label
puts the label on the image tiles too, and Delete Label removes the labels of
the same text on them, in the same undo step; editing and moving a label change
that label only."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtGui import QUndoCommand

from ..engine.annotations import (
    COLOR,
    LABEL_SIZES,
    MAX_LABEL_TEXT,
    SCALE_RANGE,
    Label,
    ReferenceImage,
    next_label_id,
)
from ..engine.symmetry import IMAGES, tile_image
from ..io.values import lone_surrogate

if TYPE_CHECKING:
    from PySide6.QtCore import SignalInstance

    from ..engine.model import MapModel
    from .commands import MapHolder

LABELS_LAYER = "labels"
REFERENCE_LAYER = "reference"  # (a short name: the Layers dock keeps its width)


class PutLabel(QUndoCommand):
    """Add, change, move or remove a label (``None`` = absent)."""

    def __init__(self, doc: MapHolder, text: str, before: Label | None,
                 after: Label | None) -> None:
        super().__init__(text)
        self.doc = doc
        self.before = dataclasses.replace(before) if before is not None else None
        self.after = dataclasses.replace(after) if after is not None else None

    @staticmethod
    def _set(model: MapModel, old: Label | None, new: Label | None) -> None:
        if old is not None and (new is None or new.id != old.id):
            model.remove_label(old.id)
        if new is not None:
            model.put_label(dataclasses.replace(new))

    def redo(self) -> None:
        self._set(self.doc.model, self.before, self.after)

    def undo(self) -> None:
        self._set(self.doc.model, self.after, self.before)


class SetReferenceImage(QUndoCommand):
    """Set, change or remove the map's reference image."""

    def __init__(self, doc: MapHolder, text: str, after: ReferenceImage | None) -> None:
        super().__init__(text)
        self.doc, self.before, self.after = doc, doc.model.reference_image, after

    def redo(self) -> None:
        self.doc.model.set_reference_image(self.after)

    def undo(self) -> None:
        self.doc.model.set_reference_image(self.before)

    def id(self) -> int:  # noqa: A003 (Qt override)
        """Adjustments in a row (a spin box stepped, a slider dragged) are one step."""
        return 31 if self.text() == "Adjust Reference Image" else -1

    def mergeWith(self, other: QUndoCommand) -> bool:  # noqa: N802 (Qt override)
        if not isinstance(other, SetReferenceImage) or other.text() != self.text():
            return False
        self.after = other.after
        return True


def label_problem(text: str, color: str = "", size: int = 0) -> str | None:
    """Why a label's text, colour or size cannot be stored (one line), or None."""
    if not text.strip():
        return "a label needs some text"
    if len(text) > MAX_LABEL_TEXT:
        return f"the label is {len(text)} characters long; a map file holds at most " \
               f"{MAX_LABEL_TEXT}"
    why = lone_surrogate(text)
    if why is not None:
        return f"the label cannot be stored: {why}"
    if color and not COLOR.fullmatch(color):
        return f"label colour {color!r} is not #rrggbb"
    if size not in LABEL_SIZES:
        return f"label size {size} is outside 1..{LABEL_SIZES[-1]} points"
    return None


class AnnotationEdits:
    """Document methods for labels and the reference image (mixed into the Document)."""

    if TYPE_CHECKING:
        model: MapModel
        message: SignalInstance
        path: Path | None
        symmetry: str

        def push(self, cmd: QUndoCommand) -> bool: ...

        def begin_macro(self, text: str) -> None: ...

        def end_macro(self) -> None: ...

        def _layer_refused(self, *layers: str) -> bool: ...

        def replace_model(self, model: MapModel) -> None: ...

    def _label_refused(self, text: str, color: str = "", size: int = 0) -> bool:
        if self._layer_refused(LABELS_LAYER):
            return True
        why = label_problem(text, color, size)
        if why is not None:
            self.message.emit(why)
        return why is not None

    def add_label(self, x: int, y: int, text: str, color: str = "", size: int = 0
                  ) -> str | None:
        """Put a new label on tile (x, y); its id, or None when refused."""
        if not self.model.in_bounds(x, y):
            self.message.emit(f"tile ({x}, {y}) is outside the map; no label added")
            return None
        if self._label_refused(text, color, size):
            return None
        label = Label(next_label_id(self.model.labels), x, y, text.strip(), color, size)
        images = [t for t in self._label_images(x, y)
                  if not any((lb.x, lb.y, lb.text) == (*t, label.text)
                             for lb in self.model.labels.values())]
        if images:
            self.begin_macro("Add Label")  # the label and its images: one undo step
        self.push(PutLabel(self, "Add Label", None, label))
        for ix, iy in images:
            self.push(PutLabel(self, "Add Label", None, dataclasses.replace(
                label, id=next_label_id(self.model.labels), x=ix, y=iy)))
        if images:
            self.end_macro()
        return label.id

    def _label_images(self, x: int, y: int) -> list[tuple[int, int]]:
        """Symmetry painting: the image tiles of (x, y), each once, not (x, y)."""
        w, h = self.model.width, self.model.height
        out = dict.fromkeys(tile_image(w, h, x, y, fx, fy)
                            for fx, fy, _swap in IMAGES.get(self.symmetry, ()))
        out.pop((x, y), None)
        return list(out)

    def edit_label(self, label_id: str, text: str | None = None, color: str | None = None,
                   size: int | None = None) -> bool:
        """Change a label's text, colour or size (None: unchanged)."""
        old = self.model.labels.get(label_id)
        if old is None:
            return False
        new = dataclasses.replace(old, text=old.text if text is None else text.strip(),
                                  color=old.color if color is None else color,
                                  size=old.size if size is None else size)
        if new == old or self._label_refused(new.text, new.color, new.size):
            return False
        return self.push(PutLabel(self, "Edit Label", old, new))

    def move_label(self, label_id: str, x: int, y: int) -> bool:
        old = self.model.labels.get(label_id)
        if old is None or (old.x, old.y) == (x, y):
            return False
        if not self.model.in_bounds(x, y):
            self.message.emit(f"tile ({x}, {y}) is outside the map; the label stays")
            return False
        if self._layer_refused(LABELS_LAYER):
            return False
        return self.push(PutLabel(self, "Move Label", old, dataclasses.replace(old, x=x, y=y)))

    def remove_label(self, label_id: str) -> bool:
        """Delete a label (and, symmetry painting, the labels of its text on its
        image tiles: one undo step)."""
        old = self.model.labels.get(label_id)
        if old is None or self._layer_refused(LABELS_LAYER):
            return False
        tiles = self._label_images(old.x, old.y)
        images = [lb for lid, lb in sorted(self.model.labels.items())
                  if lid != label_id and lb.text == old.text and (lb.x, lb.y) in tiles]
        if images:
            self.begin_macro("Delete Label")
        self.push(PutLabel(self, "Delete Label", old, None))
        for lb in images:
            self.push(PutLabel(self, "Delete Label", lb, None))
        if images:
            self.end_macro()
        return True

    def rebase_reference_image(self, new_path: Path) -> bool:
        """Before the map is saved to ``new_path``: its reference image's path made
        relative to the new folder (an unsaved map's absolute path too), so the
        saved file still finds the image; one undo step, None when nothing changes."""
        from .scene.reference_image_item import resolve, stored_path

        ref = self.model.reference_image
        if ref is None:
            return False
        old = self.path.resolve().parent if self.path is not None else None
        path = stored_path(resolve(ref.path, old), new_path)
        if path == ref.path:
            return False
        return self.push(SetReferenceImage(self, "Rebase Reference Image",
                                           dataclasses.replace(ref, path=path)))

    def set_reference_image(self, image: ReferenceImage | None) -> bool:
        """Set (or with None remove) the reference image, one undo step; refused when
        its opacity or scale is one the map file cannot hold."""
        if image == self.model.reference_image or self._layer_refused(REFERENCE_LAYER):
            return False
        if image is not None:
            lo, hi = SCALE_RANGE
            if not 0 <= image.opacity <= 1 or not lo <= image.scale <= hi or not image.path:
                self.message.emit(f"reference image refused: opacity 0..1, scale {lo}..{hi} "
                                  "and a file are needed")
                return False
        text = ("Remove Reference Image" if image is None else
                "Set Reference Image" if self.model.reference_image is None or
                image.path != self.model.reference_image.path else "Adjust Reference Image")
        return self.push(SetReferenceImage(self, text, image))
