"""The Tools menu's dialogs of a window (Balance Run, Roster Editor, Rules Editor,
Scenario Editor, Teams and Formations): each made on first use with the model it
shows, kept (with its history) until the window closes, and connected to the views
that answer its requests.  :class:`ToolDialogs` is mixed into the main window,
which gives it ``document``, ``context``, ``playtest`` and ``heat_map``; the dialogs
themselves never see the window.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .balance.dialog import BalanceDialog
    from .balance.heatmap import HeatMapControls
    from .context import EditorContext
    from .document import Document
    from .playtest.mode import PlaytestMode
    from .roster_editor.dialog import RosterEditorDialog
    from .rules_editor.dialog import RulesEditor
    from .scenario_editor.dialog import ScenarioDialog
    from .team_editor.dialog import TeamEditor


class ToolDialogs:
    """The kept Tools dialogs of a window and the slots that open them."""

    document: Document
    context: EditorContext
    playtest: PlaytestMode
    heat_map: HeatMapControls
    balance_dialog: BalanceDialog | None = None
    roster_editor: RosterEditorDialog | None = None
    rules_editor: RulesEditor | None = None
    scenario_editor: ScenarioDialog | None = None
    team_editor: TeamEditor | None = None

    def _say_status(self, text: str) -> None:
        self.context.say(text, "status")

    def _parent(self) -> Any:
        return self  # the window the dialogs sit over

    def open_balance_dialog(self) -> BalanceDialog:
        """Tools > Balance Run: the window's dialog (made on first use, kept)."""
        from .balance.dialog import BalanceDialog

        dialog = self.balance_dialog
        if dialog is None:
            dialog = self.balance_dialog = BalanceDialog(
                self.document, self._parent(), settings=self.context.settings,
                roster_in_use=self.context.roster_in_use)
            dialog.heat_map_requested.connect(self.heat_map.show_report)
            dialog.message.connect(self._say_status)  # the heat map's caption: no note
        dialog.show()
        dialog.raise_()
        dialog.activateWindow()
        return dialog

    def open_roster_editor(self) -> RosterEditorDialog:
        """Tools > Roster Editor: the window's roster editor (made on first use over the
        roster opened last, kept with its history until the window closes)."""
        from .roster_editor.dialog import RosterEditorDialog, remembered_roster

        dialog = self.roster_editor
        if dialog is None:
            settings = self.context.settings
            dialog = self.roster_editor = RosterEditorDialog(
                remembered_roster(settings), self._parent(), settings=settings)
            # what it opens or saves is the roster in use
            self.context.roster_in_use.follow(dialog.editing)
        dialog.show()
        dialog.raise_()
        dialog.activateWindow()
        return dialog

    def open_rules_editor(self) -> RulesEditor:
        """Tools > Rules Editor: the window's editor (made on first use, kept)."""
        from .rules_editor.dialog import RulesEditor

        if self.rules_editor is None:
            self.rules_editor = RulesEditor(parent=self._parent(), settings=self.context.settings)
        self.rules_editor.show()
        self.rules_editor.raise_()
        return self.rules_editor

    def open_scenario_editor(self) -> ScenarioDialog:
        """Tools > Scenario Editor: the window's dialog on its document (kept); its Play
        starts the playtest with the scenario."""
        from .scenario_editor.dialog import ScenarioDialog

        if self.scenario_editor is None:
            self.scenario_editor = ScenarioDialog(
                self.document, self._parent(), settings=self.context.settings,
                roster_in_use=self.context.roster_in_use)
            self.scenario_editor.play_requested.connect(self.playtest.start)
        self.scenario_editor.show()
        self.scenario_editor.raise_()
        return self.scenario_editor

    def open_team_editor(self) -> TeamEditor:
        """Tools > Teams and Formations: the window's team editor (made on first use)."""
        from .team_editor.dialog import TeamEditor

        if self.team_editor is None:
            self.team_editor = TeamEditor.for_context(self.context, self._parent())
        self.team_editor.present()
        return self.team_editor
