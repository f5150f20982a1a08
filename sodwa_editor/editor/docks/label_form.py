"""The Inspector's form of a selected label (issue 29): its text, colour and size,
each change one Edit Label step through the document."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtWidgets import QFormLayout, QLabel, QLineEdit, QSpinBox, QWidget

from ...engine.annotations import LABEL_SIZES, MAX_LABEL_TEXT

if TYPE_CHECKING:
    from ..document import Document


def label_rows(form: QFormLayout, doc: Document, label_id: str) -> dict[str, QWidget]:
    """Add the label's rows to ``form``; the editing widgets by name."""
    lb = doc.model.labels[label_id]
    text = QLineEdit(lb.text)
    text.setMaxLength(MAX_LABEL_TEXT)
    text.editingFinished.connect(
        lambda: text.text().strip() != lb.text and doc.edit_label(label_id, text=text.text()))
    color = QLineEdit(lb.color)
    color.setPlaceholderText("#rrggbb (empty: default)")
    color.editingFinished.connect(
        lambda: color.text().strip() != lb.color
        and doc.edit_label(label_id, color=color.text().strip()))
    size = QSpinBox()
    size.setRange(LABEL_SIZES[0], LABEL_SIZES[-1])
    size.setSpecialValueText("default")
    size.setValue(lb.size)
    size.editingFinished.connect(
        lambda: size.value() != lb.size and doc.edit_label(label_id, size=size.value()))
    form.addRow("Text", text)
    form.addRow("Colour", color)
    form.addRow("Size", size)
    form.addRow("Tile", QLabel(f"{lb.x}, {lb.y}"))
    form.addRow(QLabel("Labels are notes for designers: the rules never read them"))
    return {"label_text": text, "label_color": color, "label_size": size}
