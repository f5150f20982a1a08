"""What a playtest locks while it runs: every editing action (tools, undo and
redo, clipboard, map commands, files that would replace the map), the editing
docks, the tool options and the editor's previews; the view's tool becomes the
playtest's.  :meth:`EditingLock.unlock` restores each exactly as it was."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtGui import QAction

if TYPE_CHECKING:
    from ..main_window import MainWindow
    from ..tools.base import Tool

#: actions that stay enabled during a playtest (views, help, quit, files that only read)
KEEP_ENABLED = frozenset({"zoom_in", "zoom_out", "zoom_fit", "zoom_100", "shortcuts",
                          "reset_layout", "quit", "save", "save_as", "export_png"})
#: docks that edit the map: disabled during a playtest
EDITING_DOCKS = ("palette", "inspector", "history")


class EditingLock:
    def __init__(self, win: MainWindow, actions: dict[str, QAction], tool: Tool) -> None:
        self.win = win
        self.actions = actions
        self.tool = tool
        self._saved: dict[str, bool] = {}
        self._previews: dict[str, bool] = {}
        self._tool_name = ""

    def lock(self) -> None:
        win = self.win
        self._saved = {k: a.isEnabled() for k, a in win.action_map.items()
                       if k not in KEEP_ENABLED and k not in self.actions}
        for k in self._saved:
            win.action_map[k].setEnabled(False)
        win.recent_menu.setEnabled(False)
        for k, a in self.actions.items():
            a.setEnabled(k not in ("playtest_save_replay",))
        for name in EDITING_DOCKS:
            win.docks[name].widget().setEnabled(False)
        win.tool_options.setEnabled(False)
        self._previews = dict(win.previews.enabled)
        for name in self._previews:
            win.previews.enabled[name] = False
        win.previews.update_now()
        self._tool_name = win.state.tool
        win.scene.hover.clear()
        win.view.set_tool(self.tool)
        win.view.viewport().setCursor(self.tool.cursor)

    def unlock(self) -> None:
        win = self.win
        for k, on in self._saved.items():
            win.action_map[k].setEnabled(on)
        win.recent_menu.setEnabled(True)
        for k, a in self.actions.items():
            a.setEnabled(k in ("playtest", "open_replay"))
        self.actions["playtest_play"].setChecked(False)
        for name in EDITING_DOCKS:
            win.docks[name].widget().setEnabled(True)
        win.tool_options.setEnabled(True)
        win.previews.enabled.update(self._previews)
        win.previews.update_now()
        win.set_tool(self._tool_name or "brush")

