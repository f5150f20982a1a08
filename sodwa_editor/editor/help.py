"""Help menu: the keyboard shortcut sheet (from :mod:`.shortcuts`, the table
the README shows) and the Legend dock (:mod:`.docks.legend`)."""

from __future__ import annotations

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QTextBrowser, QVBoxLayout, QWidget

from . import shortcuts


class ShortcutSheet(QDialog):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Keyboard Shortcuts")
        self.setObjectName("shortcut_sheet")
        lay = QVBoxLayout(self)
        self.text = QTextBrowser()
        self.text.setHtml(shortcuts.html_table())
        self.text.setMinimumSize(640, 330)
        lay.addWidget(self.text)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        buttons.accepted.connect(self.accept)
        lay.addWidget(buttons)


def show_shortcuts(parent: QWidget) -> ShortcutSheet:
    """Show the sheet (one per window, raised when already open)."""
    sheet = parent.findChild(ShortcutSheet, "shortcut_sheet")
    if sheet is None:
        sheet = ShortcutSheet(parent)
    sheet.show()
    sheet.raise_()
    return sheet
