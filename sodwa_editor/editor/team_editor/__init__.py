"""The team and formation editor (issue 28 section 2; RB *Team Management*): Tools >
Teams and Formations opens a window over a team file: members from the roster with
the point total against a cap, named formations on the 16x16 formation grid
(members dragged onto cells, the first formation the default), and a preview of
where the formation shown lands in a start zone of the open map.

:mod:`.model` is the team's document (its own undo stack; the pure team model is
:mod:`sodwa_editor.battle.team_doc`), :mod:`.members`, :mod:`.formations` and
:mod:`.grid` its views, :mod:`.preview` the placement on the map, :mod:`.dialog`
the window that lays them out.  The main window only places the action below and
opens the window (:meth:`.dialog.TeamEditor.for_context`)."""

from __future__ import annotations

from ..actions import ActionSpec

#: the team editor's row of the action table
TEAM_ACTIONS = (
    ActionSpec("team_editor", "&Teams and Formations...", None,
               "Build a team from the roster, arrange its formations and preview them "
               "in a start zone"),
)
