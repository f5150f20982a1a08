"""Saving a team file (``schemas/team.schema.json``) as every file of the editor is
saved: checked first, then written beside the old file and renamed over it, so a
failed save never leaves half a file (:func:`.files.atomic_write_text`).

>>> import tempfile, pathlib
>>> from sodwa_editor.battle.sheet import load_roster
>>> from sodwa_editor.battle.team_doc import TeamDoc, add_member, load_team_doc
>>> roster = load_roster()
>>> path = pathlib.Path(tempfile.mkdtemp()) / "duo.json"
>>> doc = add_member(TeamDoc("duo"), "Archer")
>>> save_team_file(doc, roster, path)
>>> load_team_doc(path, roster) == doc
True
"""

from __future__ import annotations

from ..battle.sheet import Roster
from ..battle.team_doc import TeamDoc, dumps_team
from .files import atomic_write_text
from .paths import PathLike


def save_team_file(doc: TeamDoc, roster: Roster, path: PathLike) -> None:
    """Write ``doc`` to ``path``.  Raises
    :class:`~sodwa_editor.battle.jsonfiles.BattleInputError` (one line, nothing
    written) when it is not a valid team file, and
    :class:`~sodwa_editor.io.problems.MapSaveError` (the previous file unchanged)
    when the file cannot be written."""
    atomic_write_text(path, dumps_team(doc, roster))
