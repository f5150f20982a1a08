"""Area abilities on the playtest's board (issue 25): the template of the ability a
person is aiming (:class:`~.ability_aim.AbilityAim`), following the pointer, its
stopped tiles crossed out and what stopped the tile under the pointer ringed; and
the effects that stay on the board (``state.effects``, through
:func:`~sodwa_editor.battle.area_effects.board_effects`): a lingering area
tinted orange with its name and the upkeeps it has left, a falling object's
landing zone dashed with the upkeeps until it lands.

:class:`AbilityBoard` takes the map scene, the playtest model and the aim; its
items go on the scene when a battle begins and off when it ends.
"""

from __future__ import annotations

from ...battle.area_effects import FALLING, board_effects
from ..scene.area_item import EFFECT, EFFECT_Z, LANDING, REFUSED, TEMPLATE, AreaItem
from ..scene.map_scene import MapScene
from .ability_aim import AbilityAim, Template
from .ability_text import effect_label
from .model import PlaytestModel


class AbilityBoard:
    """The template and the effects on ``scene`` (see the module docstring)."""

    def __init__(self, scene: MapScene, model: PlaytestModel, aim: AbilityAim) -> None:
        self.scene = scene
        self.model = model
        self.template = AreaItem(TEMPLATE)
        #: effect id -> its item
        self.effects: dict[int, AreaItem] = {}
        model.started.connect(self._start)
        model.changed.connect(self.show_effects)
        model.stopped.connect(self.remove)
        aim.template.connect(self.show_template)

    def _start(self) -> None:
        self.template.add_to(self.scene)
        self.template.clear()

    def show_template(self, t: Template | None) -> None:
        """Draw ``t`` (None: no template)."""
        if t is None:
            self.template.clear()
            return
        a = t.area
        self.template.set_area(a.affected, tuple(s.tile for s in a.stopped), a.origin,
                               t.source, "", REFUSED if t.refused else TEMPLATE)
        stop = next((s for s in a.stopped if s.tile == t.hovered), None) \
            if t.hovered is not None else None
        self.template.show_reason(stop.reason if stop is not None else None)

    def show_effects(self) -> None:
        """Draw the effects on the board now (one item per effect, kept by id)."""
        s = self.model.session
        if s is None:
            return
        views = board_effects(s.state)
        seen = set()
        for v in views:
            e = v.effect
            seen.add(e.id)
            item = self.effects.get(e.id)
            if item is None:
                item = self.effects[e.id] = AreaItem(EFFECT, EFFECT_Z)
                item.add_to(self.scene)
            item.set_area(v.tiles, (), e.origin, None, effect_label(s.state, v),
                          LANDING if e.kind == FALLING else EFFECT)
        for k in [k for k in self.effects if k not in seen]:
            self.effects.pop(k).remove()

    def remove(self) -> None:
        self.template.remove()
        for item in self.effects.values():
            item.remove()
        self.effects = {}
