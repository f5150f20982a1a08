"""Where the formation shown lands on the open map: the team editor's chosen
formation placed into a chosen start zone by
:func:`sodwa_editor.battle.teams.place_formation` (decision B4: the rule lives
there, once), drawn on the map scene as a
:class:`~sodwa_editor.editor.scene.formation_item.FormationPlacementItem`, and
said in one line (:attr:`PlacementPreview.result`), a warning when the placement
is inexact or impossible.  It follows the team (each edit, the formation shown),
the map (each edit, a map opened) and the zone chosen.

The preview places the team alone: in a battle team 1 is placed after team 0
and keeps off its tiles where the two zones overlap (B4, ``place_teams``)."""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal

from ...battle.jsonfiles import BattleInputError
from ...battle.teams import Formation, default_formation, place_formation
from ..document import Document
from ..scene.formation_item import FormationPlacementItem
from ..scene.map_scene import MapScene
from .model import TeamDocument


class PlacementPreview(QObject):
    """The placement preview of a team on a map document (module docstring)."""

    #: the line saying where the formation went (text, whether it is a warning)
    result = Signal(str, bool)
    #: the map's start zones changed (their names, sorted)
    zones_changed = Signal(list)

    def __init__(self, team: TeamDocument, document: Document, scene: MapScene,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.team, self.document = team, document
        self.item = FormationPlacementItem()
        scene.add_transient(self.item)
        self.zone: str | None = None
        self.shown = False
        self.text, self.warning = "", False
        self._zones: list[str] = []
        team.changed.connect(self.refresh)
        team.formation_changed.connect(self.refresh)
        document.edited.connect(self.refresh)
        document.model_replaced.connect(self.refresh)

    def zones(self) -> list[str]:
        return sorted(self.document.model.start_zones)

    def set_zone(self, zone: str | None) -> None:
        self.zone = zone or None
        self.refresh()

    def set_shown(self, on: bool) -> None:
        self.shown = on
        self.refresh()

    def formation(self) -> Formation:
        """The formation shown in the team editor (rows of four when it has none)."""
        doc, index = self.team.doc, self.team.formation
        if index >= 0:
            return doc.formations[index].as_formation()
        return default_formation(len(doc.members))

    def refresh(self, *_args: object) -> None:
        zones = self.zones()
        if zones != self._zones:
            self._zones = zones
            self.zones_changed.emit(zones)
        if not self.shown:
            self.item.clear()
            self._say("", False)
            return
        doc = self.team.doc
        if not doc.members:
            self.item.clear()
            self._say("no preview: the team has no members", True)
            return
        if self.zone is None or self.zone not in zones:
            self.item.clear()
            have = ", ".join(zones) or "none"
            self._say(f"no preview: choose a start zone of the map (has: {have})", True)
            return
        formation = self.formation()
        try:
            placed = place_formation(self.document.model, self.zone, formation)
        except BattleInputError as exc:
            self.item.clear()
            self._say(f"no preview: {exc}", True)
            return
        where = f"formation {formation.name!r} in start zone {self.zone!r}, facing {placed.facing}"
        if placed.exact:
            text, note = f"{where}, as drawn", f"{formation.name!r} in {self.zone!r}"
        else:
            text = (f"inexact placement: {where} does not fit as drawn; each member took "
                    "the nearest free tile of the zone")
            note = (f"⚠ inexact placement: {formation.name!r} does not fit\n"
                    f"start zone {self.zone!r} as drawn; each member\n"
                    "took the nearest free tile")
        self.item.show_placement(placed.tiles, doc.ids(), placed.facing, placed.exact, note)
        self._say(text, not placed.exact)

    def _say(self, text: str, warning: bool) -> None:
        self.text, self.warning = text, warning
        self.result.emit(text, warning)

    def shutdown(self) -> None:
        """Take the preview off the map (the editor closed)."""
        self.shown = False
        self.item.clear()
