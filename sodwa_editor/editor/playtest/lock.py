"""What a playtest locks while it runs: every editing action (tools, undo and
redo, clipboard, map commands, files that would replace the map), the editing
widgets (docks, the tool options, Open Recent) and the editor's previews; the
view's tool becomes the playtest's.  :meth:`EditingLock.unlock` restores each
exactly as it was.

The window builds the lock from what it locks: the editor context (the
previews, the editing state with the tool, the scene's hover mark), the map
view, its actions and widgets, and how it selects a tool again.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from typing import TYPE_CHECKING

from PySide6.QtGui import QAction
from PySide6.QtWidgets import QWidget

if TYPE_CHECKING:
    from ..context import EditorContext
    from ..tools.base import ViewTool
    from ..view import MapView

#: actions that stay enabled during a playtest (views, help, quit, files that only read;
#: not Reset Layout: it restores the editor's docks and would hide the Battle UI)
KEEP_ENABLED = frozenset({"zoom_in", "zoom_out", "zoom_fit", "zoom_100", "shortcuts",
                          "quit", "save", "save_as", "export_png"})


class EditingLock:
    """Editing off while a playtest runs (see the module docstring).  ``exempt``:
    the keys of the actions the playtest itself enables and disables."""

    def __init__(self, context: EditorContext, view: MapView, *,
                 actions: Mapping[str, QAction], exempt: Collection[str],
                 widgets: Sequence[QWidget], select_tool: Callable[[str], None]) -> None:
        self.context = context
        self.view = view
        self.actions = actions
        self.exempt = exempt
        self.widgets = widgets
        self.select_tool = select_tool
        self._saved: dict[str, bool] = {}
        self._tool_name = ""

    def lock(self, tool: ViewTool) -> None:
        """Editing off; ``tool`` (the playtest's) takes the view's clicks."""
        self._saved = {k: a.isEnabled() for k, a in self.actions.items()
                       if k not in KEEP_ENABLED and k not in self.exempt}
        for k in self._saved:
            self.actions[k].setEnabled(False)
        for widget in self.widgets:
            widget.setEnabled(False)
        self.context.previews.suspend()
        self._tool_name = self.context.state.tool
        self.context.scene.hover.clear()
        self.view.set_tool(tool)
        self.view.viewport().setCursor(tool.cursor)

    def unlock(self) -> None:
        """Editing back as it was, with the tool of before."""
        for k, on in self._saved.items():
            self.actions[k].setEnabled(on)
        for widget in self.widgets:
            widget.setEnabled(True)
        self.context.previews.resume()
        self.select_tool(self._tool_name or "brush")
