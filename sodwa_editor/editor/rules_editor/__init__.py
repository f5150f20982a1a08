"""Tools > Rules Editor (issue 28 section 3): rules variants edited key by key,
generated from ``schemas/rules.schema.json`` (:mod:`.dialog`), over a
:class:`~.model.RulesDocument` with its own undo stack (:mod:`.model`); the keys and
the decisions they rest on come from :mod:`sodwa_editor.battle.rules_catalog`.
The window places the action below in the Tools menu."""

from __future__ import annotations

from ..actions import ActionSpec

#: the rules editor's row of the action table
RULES_ACTIONS = (
    ActionSpec("rules_editor", "&Rules Editor...", None,
               "Edit a rules variant key by key: defaults, ranges, the decisions they "
               "rest on; save a rules file for Playtest and the Balance Run"),
)
