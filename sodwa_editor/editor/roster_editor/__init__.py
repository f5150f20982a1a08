"""The roster editor (issue 28 section 1): Tools > Roster Editor.

:class:`.editing.RosterEditing` is the model (a roster document, where it came from,
its own undo stack; every edit checked by the battle's loader), :mod:`.table` the
archetype table with the value model's suggested cost, :mod:`.matchup_view` the
matchup table recomputed as values change, :mod:`.dialog` the window that holds them.
The main window only places the action below and opens the dialog.
"""

from __future__ import annotations

from ..actions import ActionSpec

#: the roster editor's row of the action table
ROSTER_EDITOR_ACTIONS = (
    ActionSpec("roster_editor", "&Roster Editor...", None,
               "Edit the roster's archetypes, see suggested costs and every matchup"),
)
