"""Tools > Scenario Editor (issue 28 section 4): a scenario on the open map made,
checked live, saved as a scenario file or into a map pack and played at once
(:mod:`.dialog`, the sides in :mod:`.side_box`).  The window places the action
below in the Tools menu and connects the dialog's ``play_requested`` to the
playtest."""

from __future__ import annotations

from ..actions import ActionSpec

#: the scenario editor's row of the action table
SCENARIO_ACTIONS = (
    ActionSpec("scenario_editor", "S&cenario Editor...", None,
               "Make a scenario on this map (sides, formations, who plays, rules, cap), "
               "save it as a file or into a map pack, play it"),
)
