"""The roster in use of an editor window, on the Qt side: the :class:`~.roster.UsedRoster`
the Character tool lists, the eyedropper picks from, the team editor costs, and F5 and
the Balance Run play, with a :attr:`RosterInUse.changed` signal.

It starts on the roster the Roster Editor opened or saved last (the settings key
:data:`SOURCE_KEY`, the one the Roster Editor remembers), else the shipped one; it
follows a Roster Editor (:meth:`RosterInUse.follow`) whenever that opens a roster or
saves one, so a roster change saved into a pack is what everything using the roster in
use shows and plays next.  Views take this model; they never ask the window.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QSettings, Signal
from PySide6.QtWidgets import QLabel

from ..battle.jsonfiles import BattleInputError
from .roster import UsedRoster, scenario_roster, shipped_roster, used_roster

if TYPE_CHECKING:
    from .roster_editor.editing import RosterEditing

#: the settings key of the roster file or pack the Roster Editor opened last ("" or
#: absent: the shipped roster); the Roster Editor writes it
SOURCE_KEY = "roster_editor/source"
#: the tool tip of a line that says which roster a battle plays with
PLAYS_WITH_TIP = ("The roster the battle plays with: a map pack's scenario plays with its "
                  "pack's roster, anything else with the roster in use (the Roster "
                  "Editor's last, else the shipped one)")


def roster_line(object_name: str) -> QLabel:
    """The label that says which roster a battle plays with (F5's setup, the Balance
    Run, the Scenario Editor): its text is set by its view."""
    label = QLabel()
    label.setObjectName(object_name)
    label.setToolTip(PLAYS_WITH_TIP)
    return label


class RosterInUse(QObject):
    """The roster in use (see the module docstring); :attr:`current` is always a
    roster a battle takes.  ``note``: why the remembered roster was not used ("")."""

    #: the roster in use changed (another one chosen, or its file saved again)
    changed = Signal()

    def __init__(self, settings: QSettings | None = None, parent: QObject | None = None
                 ) -> None:
        super().__init__(parent)
        self.note = ""
        path = str(settings.value(SOURCE_KEY, "") or "") if settings is not None else ""
        current = None
        if path:
            try:
                current = used_roster(path)
            except BattleInputError as exc:
                self.note = f"{exc}; using the shipped roster"
        self._current = current if current is not None else shipped_roster()

    @property
    def current(self) -> UsedRoster:
        return self._current

    @property
    def label(self) -> str:
        """``Roster: pack.json: /roster`` / ``Roster: roster.json`` / ``Roster: shipped``."""
        return f"Roster: {self._current.label}"

    def use(self, path: Path | str | None) -> str | None:
        """Use the roster of a roster file or a map pack (None: the shipped one);
        :attr:`changed` follows.  The reason in one line (and nothing changed) when it
        cannot be used."""
        try:
            found = used_roster(path)
        except BattleInputError as exc:
            return str(exc)
        self._current = found
        self.changed.emit()
        return None

    def for_scenario(self, path: Path | str) -> UsedRoster:
        """The roster a scenario of the file ``path`` plays with: its map pack's when it
        carries one, else the roster in use (:func:`~.roster.scenario_roster`)."""
        return scenario_roster(path, self._current)

    def follow(self, editing: RosterEditing) -> None:
        """Take the roster a Roster Editor opens or saves (the saved file: unsaved
        edits are not in use)."""
        editing.source_changed.connect(lambda: self._follow(editing))
        editing.saved.connect(lambda: self._follow(editing))

    def _follow(self, editing: RosterEditing) -> None:
        src = editing.source
        self.use(None if src.kind == "default" else src.path)
