"""The abilities interface: how Special and Free Actions (and passive effects) plug
into a battle without touching the core loop (RB *Abilities*, *Action Types*).

The rulebook's abilities (Homing Attack, Healing, Teleportation, Barrier, ...) are
not designed in numbers yet, so the battle ships none; this module is the
contract they will implement.  A battle is given its abilities when it is built
(``BattleState(..., abilities=[...])``); each one decides for itself which
characters have it (for instance by archetype name or a sheet attribute).

An ability takes part in four places:

* **legal actions** -- :meth:`Ability.actions` lists the :class:`UseAbility`
  actions the current actor may take with it now; :func:`.actions.legal_actions`
  adds them before ``Pass``.
* **refusal and cost** -- :meth:`Ability.refusal` explains why an action is not
  allowed (one line for a UI, or None); :meth:`Ability.action_type` says which of
  the four action types it uses (RB: "it may not take the same type of action more
  than once per turn, unless it has some ability or effect that says otherwise":
  the turn's per-type limit is checked for it, and ``Turn.allow_more`` lifts it),
  :meth:`Ability.cost` its IP (RB: "Special Actions have varying IP costs"; Free
  Actions cost 0, Move and Attack Actions their rule cost).
* **preview and resolve** -- :meth:`Ability.preview` returns what a UI shows
  before confirming (must not change the state or any stream);
  :meth:`Ability.resolve` changes the state and returns its events, rolling dice
  only through the ``roll`` callable it is given (the battle's dice stream, or an
  AI's own during lookahead).
* **modifiers and events** -- :meth:`Ability.modifiers` adds modifiers, listed by
  source, to every attack the battle resolves or previews (``Situation.extra``);
  :meth:`Ability.on_event` sees every event an action produced and may answer with
  events of its own (reactions, e.g. a Free Action "useable during the opponent's
  turn"); those are logged, not fed back.

An ability that changes positions, HP or terrain calls ``state.changed()`` so
cached lines of sight and movement ranges are recomputed, removes a defeated
character with :func:`.actions.defeat`, and changes IP only through the clock
(``Clock.adjust_ip``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from .attack import Modifier
from .clock import ActionType
from .dice import D100
from .events import Event

#: The battle state an ability works on (:class:`.state.BattleState`).  A type
#: parameter, not an import: the state holds its abilities (``state.abilities``),
#: so this contract module must not import the state module.
S = TypeVar("S", contravariant=True)


@dataclass(frozen=True, slots=True)
class UseAbility:
    """Use ability ``ability`` (its name) with ``args`` (targets, tiles, ...: plain,
    hashable values the ability defines)."""

    ability: str
    args: tuple[Any, ...] = ()


class Ability(Protocol[S]):
    """One ability (see the module docstring for how each method is used); ``S`` is
    the battle state it works on, ``Ability[BattleState]`` in a battle."""

    name: str

    def actions(self, state: S, actor: int) -> Iterable[UseAbility]: ...

    def refusal(self, state: S, actor: int, action: UseAbility) -> str | None: ...

    def action_type(self, action: UseAbility) -> ActionType: ...

    def cost(self, state: S, action: UseAbility) -> int: ...

    def preview(self, state: S, actor: int, action: UseAbility) -> Any: ...

    def resolve(self, state: S, actor: int, action: UseAbility,
                roll: Callable[[], D100]) -> Sequence[Event]: ...

    def modifiers(self, state: S, attacker: int,
                  defender: int) -> Iterable[Modifier]: ...

    def on_event(self, state: S, event: Event) -> Sequence[Event]: ...


def find(abilities: Iterable[Ability[S]], name: str) -> Ability[S] | None:
    """The ability called ``name`` among ``abilities`` (a state's ``abilities``), or None."""
    for ability in abilities:
        if ability.name == name:
            return ability
    return None
