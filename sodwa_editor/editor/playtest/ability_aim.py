"""A person uses an area ability in a playtest (issue 25): picks it (its button in
the active character's panel, or its key: 1 to 4 for the character's first to
fourth ability), the template follows the pointer over the board, a click aims,
the Battle Information Panel previews every victim with Confirm / Cancel (Enter /
Esc, as for a Basic Attack), and Confirm submits the ``UseAbility`` to the battle
session (so replays and ``--verify`` carry it as any decision).  An ability
centred on its caster needs no click: it is previewed at once.

:class:`AbilityAim` holds what is being aimed and talks by signals: ``changed``
(picked, aimed or dropped: the BIP, the actions and the board follow) and
``template`` (the area to draw, :class:`Template`).  It takes the playtest model,
whose battle it reads through the battle package's Qt-free API
(:func:`~sodwa_editor.battle.area_abilities.area_abilities`,
:func:`~sodwa_editor.battle.area_abilities.ability_area`,
:func:`~sodwa_editor.battle.area_abilities.preview_ability`).  What the rules
refuse is said in one line and nothing changes.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QObject, Signal

from ...battle.abilities import UseAbility
from ...battle.area_abilities import (
    AreaAbility,
    AreaPreview,
    ability_area,
    area_abilities,
    find_area,
    preview_ability,
)
from ...engine.areas import Area, AreaError
from .model import PlaytestModel

Tile = tuple[int, int]
#: how many abilities of the active character have a key (1, 2, 3, 4)
SLOTS = 4


@dataclass(frozen=True)
class Template:
    """What the board draws of the ability being aimed: its ``area`` from the caster
    at ``source``, the tile under the pointer (``hovered``: a stopped tile there
    rings what stopped it), and why this aim would be refused (None: it would not;
    the template is then drawn in its refused look)."""

    area: Area
    source: Tile
    hovered: Tile | None
    refused: str | None
    label: str


class AbilityAim(QObject):
    """The area ability a person is aiming (see the module docstring)."""

    #: picked, aimed or dropped
    changed = Signal()
    #: the template to draw (a :class:`Template`), or None
    template = Signal(object)

    def __init__(self, model: PlaytestModel, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.model = model
        #: the ability picked (the template follows the pointer), or None
        self.chosen: str | None = None
        #: the use aimed, awaiting Confirm, and its preview
        self.pending: UseAbility | None = None
        self.preview: AreaPreview | None = None
        self.hovered: Tile | None = None
        #: (turns, actor) when the ability was picked: another turn drops it
        self._turn: tuple[int, int] | None = None
        model.changed.connect(self._check)
        model.stopped.connect(self.drop)
        model.restarted.connect(self.drop)
        model.attack_changed.connect(self._attack_changed)

    @property
    def active(self) -> bool:
        """An ability is picked (being aimed or awaiting Confirm)."""
        return self.chosen is not None

    def abilities(self) -> list[tuple[AreaAbility, str | None]]:
        """The acting character's area abilities with why each cannot be used now
        (None: it can), when a person is asked for its action; else none."""
        s = self.model.session
        if s is None or not self.model.human_action() or s.state.actor is None:
            return []
        return area_abilities(s.state, s.state.actor)

    # ------------------------------------------------------------ a person's input
    def choose(self, slot: int) -> None:
        """The ability in ``slot`` (from 0) of the acting character: picked (its
        template follows the pointer), or the reason it cannot be said."""
        model = self.model
        if model.session is None:
            return
        if not model.human_action():
            model.say("it is not a human player's turn")
            return
        state = model.state
        actor = state.actor
        assert actor is not None
        mine = self.abilities()
        if slot >= len(mine):
            model.say(f"{state.names[actor]} has no ability {slot + 1}")
            return
        a, why = mine[slot]
        if why is not None:
            model.say(f"{a.name}: {why}")
            return
        model.cancel_attack()
        self.chosen, self.pending, self.preview = a.name, None, None
        self._turn = (state.clock.turns, actor)
        if not a.d.aimed:  # centred on its caster: nothing to aim
            self.changed.emit()
            self.click(None)
            return
        model.say(f"{a.name}: point at the map and click to aim ({a.d.spec}); Esc cancels")
        self.changed.emit()
        self.hover(self.hovered)

    def hover(self, tile: Tile | None) -> None:
        """The pointer over ``tile``: the template follows it (until aimed)."""
        self.hovered = tile
        if self.chosen is None:
            return
        if self.pending is not None:
            self._show(self.preview.area if self.preview else None, self.pending, None)
            return
        if tile is None:
            self.template.emit(None)
            return
        state, actor = self.model.state, self.model.state.actor
        a = find_area(state, self.chosen)
        if actor is None or a is None:
            return
        action = UseAbility(self.chosen, tile)
        try:
            area = ability_area(state, actor, action)
        except AreaError as exc:
            self.template.emit(None)
            self.model.say(str(exc))
            return
        why = a.aim_refusal(state, actor, tile) or area.refused
        self._show(area, action, why)
        self.model.say(f"{self.chosen} at {tile[0]}, {tile[1]}: "
                       + (f"cannot aim here: {why}" if why else
                          f"{len(area.affected)} tiles affected, {len(area.stopped)} stopped; "
                          "click to aim"))

    def _show(self, area: Area | None, action: UseAbility, why: str | None) -> None:
        if area is None:
            self.template.emit(None)
            return
        state = self.model.state
        actor = state.actor
        assert actor is not None
        self.template.emit(Template(area, state.pos[actor], self.hovered, why,
                                    action.ability))

    def click(self, tile: Tile | None) -> None:
        """Aim at ``tile`` (None: an ability centred on its caster): the BIP previews
        every victim for Confirm, or the reason it cannot be aimed there is said."""
        s, name = self.model.session, self.chosen
        if s is None or name is None or s.state.actor is None:
            return
        state, actor = s.state, s.state.actor
        action = UseAbility(name, () if tile is None else tile)
        p = preview_ability(state, actor, action)
        if p.refused is not None:
            self.model.say(f"{name}: {p.refused}")
            return
        self.pending, self.preview = action, p
        self._show(p.area, action, None)
        n = len(p.victims)
        self.model.say(f"{name}{'' if tile is None else f' at {tile[0]}, {tile[1]}'}: "
                       f"{n} victim{'s' if n != 1 else ''}? Enter or Confirm uses it, Esc "
                       "cancels (the Battle Information Panel shows each roll)")
        self.changed.emit()

    def confirm(self) -> bool:
        """Confirm: the ability is used (the session's ``submit``); False when none was
        aimed."""
        action = self.pending
        if action is None:
            return False
        self._clear()
        self.template.emit(None)
        self.model.submit(action)  # the rolls: by the model's refresh
        self.changed.emit()
        return True

    def cancel(self) -> bool:
        """Cancel: the ability picked or aimed is dropped; False when there was none."""
        if self.chosen is None:
            return False
        self.drop()
        self.model.unsay()
        return True

    # ------------------------------------------------------------ following the battle
    def drop(self) -> None:
        """Nothing picked any more (the template goes)."""
        had = self.chosen is not None
        self._clear()
        self.template.emit(None)
        if had:
            self.changed.emit()

    def _clear(self) -> None:
        self.chosen = self.pending = self.preview = None
        self._turn = None

    def _check(self) -> None:
        """The battle changed: an ability picked in another turn, or that can no
        longer be used, is dropped."""
        if self.chosen is None:
            return
        s = self.model.session
        state = s.state if s is not None else None
        if state is None or state.actor is None or not self.model.human_action() \
                or self._turn != (state.clock.turns, state.actor) \
                or all(a.name != self.chosen or why is not None
                       for a, why in self.abilities()):
            self.drop()

    def _attack_changed(self) -> None:
        if self.model.pending is not None:  # a Basic Attack previewed instead
            self.drop()
