"""The state of one battle (issue 11): everything that changes while it is fought.

A :class:`BattleState` plays on a :class:`~.board.Board` (a copy of the map with
its characters taken off, shared with other battles until this one destroys
terrain) and holds per character, by battle index (team 0 first, then by id, as
:mod:`.teams` orders them): tile, HP, the Move Action modifier flag; the
:class:`~.clock.Clock` (IP, ticks, turn order); the signed karma pool; the last
actor of each team; damage on Obstructing terrain and what was destroyed; the
event log; the result.  Random numbers come from :class:`~.dice.Streams`
spawned from one seed.  The rules that change a state live in :mod:`.actions`.

``copy()`` is cheap (lists and the clock; the board and the derived caches are
shared until one side changes), for step-back snapshots and AI lookahead;
``state_hash()`` is stable across processes for replays.

>>> from sodwa_editor.engine.generate import make_mixed_map
>>> s = BattleState.from_map(make_mixed_map(16, seed=2), seed=1)
>>> len(s.fighters), s.clock.tick, s.result is None
(6, 0, True)
>>> s.copy().state_hash() == s.state_hash()
True
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

from ..engine.footprint import Footprint
from ..engine.footprint_movement import footprint_reach
from ..engine.los import LosBoard, crossing_among
from ..engine.model import MapModel
from ..engine.movement import Reach, placed_reach
from ..engine.terrain import Crossing
from .abilities import Ability
from .altitude import altitude_for
from .area_abilities import abilities_for
from .board import Board, Feature, Tile, prepare
from .clock import Clock, Turn, first_tie_team
from .dice import Streams
from .events import BattleEnded, Defeated, Event
from .jsonfiles import BattleInputError
from .rules import Rules, default_rules
from .sheet import Roster, Sheet, load_roster
from .teams import Combatant, Team, check_footprints, combatants_from_map, place_teams
from .terrain_effects import terrain_effects_for


class Result(NamedTuple):
    """How a battle ended: the winning team (None = draw) and why."""

    winner: int | None
    reason: str


#: Bytes of movement ranges kept per board (:meth:`BattleState.reach_of`).
REACH_CACHE_BYTES = 32 * 1024 * 1024

#: ``Result.reason`` values.
WIPED_OUT = "the other team has no character left"
TURN_LIMIT = "turn limit (battle.max_turns)"
BOTH_WIPED = "both teams lost their last characters to one area"


class _Cache:
    """Derived data for one arrangement of the board (positions, defeats, terrain).
    Shared by copies of a state until one of them changes; then that one gets a new
    cache, so an entry is never wrong for anyone holding it."""

    __slots__ = ("los", "crossings", "occupied", "reach", "engaged", "placement", "lines")

    def __init__(self) -> None:
        self.los: LosBoard | None = None
        #: ``x`` and ``y`` arrays of the characters' tiles (:meth:`BattleState.crossing`)
        self.occupied: tuple[np.ndarray, np.ndarray] | None = None
        self.placement: tuple[Tile | None, ...] | None = None  # :meth:`BattleState.placement`
        self.crossings: dict[tuple[Tile, Tile], Crossing] = {}  # :meth:`BattleState.crossing`
        self.reach: dict[tuple[int, int, bool], Reach] = {}
        self.engaged: dict[int, tuple[int, ...]] = {}  # :func:`.targeting.engaged_with`
        #: LoS between two creatures, by their indices (:func:`.sized.line`)
        self.lines: dict[tuple[int, int], object] = {}


class BattleState:
    """One battle's state (see the module docstring).  Mutate it only through
    :mod:`.actions`."""

    __slots__ = ("rules", "board", "_own_board", "fighters", "sheets", "team", "names",
                 "fp", "sized", "pos", "hp", "moved", "occ", "clock", "karma", "last_actor",
                 "turn_start",
                 "turn_move", "turn_hindered", "damage", "destroyed", "events", "result",
                 "streams", "abilities", "effects", "revision", "_cache")

    def __init__(self, board: Board, fighters: Sequence[Combatant], rules: Rules,
                 seed: int | np.random.SeedSequence | Streams = 0,
                 abilities: Sequence[Ability[BattleState]] = ()) -> None:
        teams = sorted({f.team for f in fighters})
        if teams != [0, 1]:
            raise BattleInputError("a battle needs characters on both teams 0 and 1; it has "
                                   + (", ".join(map(str, teams)) or "none"))
        fps = check_footprints(board.model, fighters, rules.sizes.grid_scale_m)
        #: Every character's footprint (docs/rules.md S21), and whether any is larger
        #: than a tile (then the rules of creatures of any size apply, S23).
        self.fp: tuple[Footprint, ...] = fps
        self.sized = any(fp != (1, 1) for fp in fps)
        self.rules = rules
        self.board = board
        self._own_board = False
        self.fighters = tuple(fighters)
        self.sheets: tuple[Sheet, ...] = tuple(f.sheet for f in fighters)
        self.team = tuple(f.team for f in fighters)
        self.names = tuple(f.id for f in fighters)
        self.pos: list[Tile] = [(f.x, f.y) for f in fighters]
        self.hp = [s.health for s in self.sheets]
        self.moved = [False] * len(fighters)
        #: Every tile a character covers -> its index (all its squares, S21).
        self.occ: dict[Tile, int] = {t: i for i, p in enumerate(self.pos)
                                     for t in fps[i].squares(p)}
        self.streams: Streams | None = seed if isinstance(seed, Streams) else Streams(seed)
        self.clock = Clock([s.initiative for s in self.sheets], self.team, rules.clock,
                           first_tie_team(rules.order, self.streams.setup))
        self.karma = 0
        self.last_actor: list[int | None] = [None, None]
        self.turn_start: Tile | None = None
        self.turn_move = 0
        self.turn_hindered = False
        self.damage: dict[Feature, int] = {}
        self.destroyed: list[Feature] = []
        self.events: list[Event] = []
        self.result: Result | None = None
        #: The abilities given, then the roster's area abilities of the sheets (and their
        #: effects' keeper), when some sheet has any (docs/rules.md *Abilities*).
        self.abilities: tuple[Ability[BattleState], ...] = (
            tuple(abilities) + abilities_for(self.sheets)
            + terrain_effects_for(board.model, rules)  # docs/rules.md TP-B
            + altitude_for(self.sheets, rules))  # docs/rules.md VS
        #: Abilities' own state (effects, charges, ...): immutable keys and values with a
        #: stable ``repr`` (copied shallowly with the state, part of its hash).
        self.effects: dict[Any, Any] = {}
        self.revision = 0
        self._cache = _Cache()

    # ------------------------------------------------------------ construction
    @classmethod
    def from_map(cls, model: MapModel, *, rules: Rules | None = None,
                 roster: Roster | None = None, seed: int | np.random.SeedSequence = 0,
                 board: Board | None = None, abilities: Sequence[Ability[BattleState]] = ()
                 ) -> BattleState:
        """A battle of the characters placed on ``model``, where they stand (B3).
        ``board``: the map's shared :func:`~.board.prepare` result, if already made."""
        rules = rules or default_rules()
        fighters = combatants_from_map(model, roster or load_roster(), rules.battle.point_cap)
        return cls(board or prepare(model), fighters, rules, seed, abilities)

    @classmethod
    def from_teams(cls, model: MapModel, sides: Sequence[tuple[str, Team, str | None]], *,
                   rules: Rules | None = None, seed: int | np.random.SeedSequence = 0,
                   board: Board | None = None, abilities: Sequence[Ability[BattleState]] = ()
                   ) -> BattleState:
        """A battle of two teams placed by formation into the start zones named by
        ``sides`` (``(zone, team, formation)``, team 0 first; B4, B5)."""
        rules = rules or default_rules()
        fighters = place_teams(model, sides, rules.battle.point_cap,
                               rules.sizes.grid_scale_m)
        return cls(board or prepare(model), fighters, rules, seed, abilities)

    # ------------------------------------------------------------ queries
    @property
    def turn(self) -> Turn | None:
        """The turn being played, or None between turns."""
        return self.clock.current

    @property
    def actor(self) -> int | None:
        turn = self.clock.current
        return None if turn is None else turn.actor

    @property
    def over(self) -> bool:
        return self.result is not None

    def alive(self, i: int) -> bool:
        return self.clock.active[i]

    def enemies(self, i: int) -> list[int]:
        """Undefeated characters of the other team, by index."""
        t, active = self.team[i], self.clock.active
        return [j for j in range(len(self.team)) if active[j] and self.team[j] != t]

    def placement(self) -> tuple[Tile | None, ...]:
        """Every character's tile by index, None once defeated (kept with the
        arrangement: the same tuple until positions or defeats change)."""
        c = self._cache
        hit = c.placement
        if hit is None:
            active = self.clock.active
            hit = c.placement = tuple(t if active[i] else None for i, t in enumerate(self.pos))
        return hit

    def at(self, tile: Tile) -> int | None:
        """The undefeated character on ``tile``."""
        return self.occ.get(tile)

    @property
    def derived(self) -> _Cache:
        """Data derived from the current arrangement (positions, defeats, terrain),
        dropped by :meth:`changed`; for the rule modules' caches."""
        return self._cache

    def los_board(self) -> LosBoard:
        """Lines of sight with the undefeated characters where they stand (cached)."""
        c = self._cache
        if c.los is None:
            names = {t: self.names[i] for t, i in self.occ.items()}
            c.los = LosBoard(self.board.model, sorted(self.occ), names.get)
        return c.los

    def crossing(self, a: Tile, b: Tile) -> Crossing:
        """The LoS class from tile ``a`` to tile ``b`` with the undefeated characters where
        they stand, as :meth:`los_board` answers it, without building that board
        (:func:`~sodwa_editor.engine.los.crossing_among`; kept with the arrangement: a
        refusal and the attack it allows ask the same lines)."""
        c = self._cache
        hit = c.crossings.get((a, b))
        if hit is None:
            if c.occupied is None:
                c.occupied = (np.array([t[0] for t in self.occ], np.int64),
                              np.array([t[1] for t in self.occ], np.int64))
            hit = c.crossings[(a, b)] = crossing_among(self.board.model, *c.occupied, a, b)
        return hit

    def reach_of(self, i: int, budget: int) -> Reach:
        """Character ``i``'s movement range with ``budget`` steps from where it stands
        (the engine's ``reach``; friends passed, enemies block).  Its start group
        counts only if its turn began on hindering terrain (``turn_hindered``).

        Cached twice: per arrangement of the board (:meth:`changed` drops it), and on
        the board for every battle and copy on the same terrain, keyed by what the
        search can read: the start, the character's numbers, and the characters
        within ``budget`` tiles (Chebyshev) of the start, friend or foe; each step
        moves one tile, so no farther character can change the range (tested).
        """
        hindered = self.turn_hindered if self.actor == i else True
        key = (i, budget, hindered)
        c = self._cache
        hit = c.reach.get(key)
        if hit is None:
            hit = self._reach(i, budget, hindered)
            c.reach[key] = hit
        return hit

    def _reach(self, i: int, budget: int, hindered: bool) -> Reach:
        if self.fp[i] != (1, 1) or self.rules.movement.pass_hostile_by_size:
            return self._footprint_reach(i, budget, hindered)
        (mx, my), mine, sheet = self.pos[i], self.team[i], self.sheets[i]
        team, board = self.team, self.board
        if hindered and not board.hinders(mx, my, sheet.flight):
            hindered = False  # no start group either way: one cache entry
        near = [(x, y, team[j] == mine) for (x, y), j in self.occ.items()
                if -budget <= x - mx <= budget and -budget <= y - my <= budget
                and (x != mx or y != my)]
        near.sort()
        others = tuple(near)
        key = (mx, my, sheet.move, sheet.flight, mine, budget, hindered, others)
        cache = board.reaches
        hit = cache.get(key)
        if hit is None:
            # The characters within reach of the budget are all the search can meet.
            hit = placed_reach(board.model, (mx, my), sheet.move, team=str(mine),
                               flight=sheet.flight, budget=budget, others=others,
                               hindered_start=hindered)
            size = hit.nbytes
            while cache and board.reach_bytes + size > REACH_CACHE_BYTES:
                board.reach_bytes -= cache.popitem(last=False)[1].nbytes  # the oldest first
            cache[key] = hit
            board.reach_bytes += size
        return hit

    def _footprint_reach(self, i: int, budget: int, hindered: bool) -> Reach:
        """:meth:`_reach` for a creature larger than a tile, or any creature when hostiles
        may be passed by size (S6-S8, S23: :func:`~..engine.footprint_movement.
        footprint_reach` with every square of every other creature; kept on the board
        as :meth:`_reach`'s ranges are, the window widened by the footprint)."""
        (mx, my), mine, sheet, fp = self.pos[i], self.team[i], self.sheets[i], self.fp[i]
        board, team = self.board, self.team
        if hindered and not board.hinders(mx, my, sheet.flight, fp):
            hindered = False
        x0, y0 = mx - budget, my - budget
        x1, y1 = mx + budget + fp.width - 1, my + budget + fp.height - 1
        sheets = self.sheets
        near = tuple(sorted((x, y, str(team[j]), sheets[j].size)
                            for (x, y), j in self.occ.items()
                            if j != i and x0 <= x <= x1 and y0 <= y <= y1))
        passing = self.rules.movement.pass_hostile_by_size
        key = ("fp", mx, my, fp, sheet.move, sheet.flight, sheet.size, mine, budget, hindered,
               passing, near)
        cache = board.reaches
        hit = cache.get(key)
        if hit is None:
            hit = footprint_reach(board.model, (mx, my), fp, sheet.move, team=str(mine),
                                  flight=sheet.flight, budget=budget, occupants=near,
                                  hindered_start=hindered, size=sheet.size,
                                  pass_hostile_by_size=passing)
            size = hit.nbytes
            while cache and board.reach_bytes + size > REACH_CACHE_BYTES:
                board.reach_bytes -= cache.popitem(last=False)[1].nbytes
            cache[key] = hit
            board.reach_bytes += size
        return hit

    def squares(self, i: int) -> list[Tile]:
        """The tiles character ``i`` covers (its footprint from its top-left tile)."""
        return self.fp[i].squares(self.pos[i])

    def on_liquid(self, i: int) -> bool:
        """Whether character ``i`` is in Liquid: any of its squares is (S23)."""
        liquid = self.board.liquid
        if self.fp[i] == (1, 1):
            x, y = self.pos[i]
            return liquid[y][x]
        return any(liquid[y][x] for x, y in self.squares(i))

    def move_to(self, i: int, to: Tile) -> None:
        """Character ``i``'s top-left tile becomes ``to`` (every square follows)."""
        fp = self.fp[i]
        for t in fp.squares(self.pos[i]):
            del self.occ[t]
        self.pos[i] = to
        for t in fp.squares(to):
            self.occ[t] = i

    # ------------------------------------------------------------ changes (actions.py)
    def defeat(self, i: int, by: int, *, end: bool = True, cause: str = "") -> list[Event]:
        """Character ``i`` is defeated: it leaves the board and the clock (B32, B35); with
        ``end``, a team with no character left loses (B41; an area that defeats several
        characters at once judges the end itself, AB6).  ``by``: the character that
        defeated it, or ``events.NOBODY`` with the ``cause`` (terrain, a fall: B54)."""
        self.clock.remove(i)
        tile = self.pos[i]
        for t in self.fp[i].squares(tile):
            self.occ.pop(t, None)
        self.changed()
        events: list[Event] = [Defeated(i, by, tile, cause)]
        if end:
            team = self.team[i]
            if not self.team_left(team):
                self.result = Result(1 - team, WIPED_OUT)
                events.append(BattleEnded(1 - team, WIPED_OUT, self.clock.turns,
                                          self.clock.tick))
        return events

    def team_left(self, team: int) -> int:
        """Undefeated characters of ``team``."""
        active = self.clock.active
        return sum(1 for j in range(len(self.pos)) if self.team[j] == team and active[j])

    def end_if_wiped(self) -> list[Event]:
        """The result once characters were defeated together (AB6): a team with none left
        loses; both teams with none left is a draw."""
        if self.result is not None:
            return []
        left = [self.team_left(0), self.team_left(1)]
        if all(left):
            return []
        winner = None if not any(left) else (0 if left[0] else 1)
        self.result = Result(winner, WIPED_OUT if winner is not None else BOTH_WIPED)
        return [BattleEnded(winner, self.result.reason, self.clock.turns, self.clock.tick)]

    def changed(self) -> None:
        """Positions, defeats or terrain changed: derived data is recomputed."""
        self.revision += 1
        self._cache = _Cache()

    def own_board(self) -> Board:
        """The board, forked first if another battle or copy may share it."""
        if not self._own_board:
            self.board = self.board.fork()
            self._own_board = True
        return self.board

    def log(self, event: Event) -> Event:
        self.events.append(event)
        return event

    # ------------------------------------------------------------ copies and hashes
    def copy(self, *, log: bool = True, streams: bool = True) -> BattleState:
        """An independent copy (the board is shared until either side destroys
        terrain).  ``log=False``: an empty event log; ``streams=False``: no random
        streams (an AI's lookahead must not see the real dice; it rolls its own)."""
        other = BattleState.__new__(BattleState)
        # shared: never changed in place (replaced when they change)
        other.rules, other.board, other.fighters = self.rules, self.board, self.fighters
        other.sheets, other.team, other.names = self.sheets, self.team, self.names
        other.fp, other.sized = self.fp, self.sized
        other.karma, other.result, other.abilities = self.karma, self.result, self.abilities
        other.turn_start, other.turn_move = self.turn_start, self.turn_move
        other.turn_hindered, other.revision = self.turn_hindered, self.revision
        other._cache = self._cache
        self._own_board = other._own_board = False
        other.pos, other.hp, other.moved = list(self.pos), list(self.hp), list(self.moved)
        other.occ = dict(self.occ)
        other.last_actor = list(self.last_actor)
        other.damage = dict(self.damage)
        other.effects = dict(self.effects)
        other.destroyed = list(self.destroyed)
        other.events = list(self.events) if log else []
        other.streams = _copy_streams(self.streams) if streams and self.streams else None
        clock = self.clock.copy()
        if self.clock.current is not None:
            clock.current = _copy_turn(self.clock.current)
        other.clock = clock
        return other

    def state_hash(self) -> str:
        """A digest of everything that decides the rest of the battle (positions, HP,
        flags, IP, clock, karma, terrain, the dice used so far, the result), the same
        in every process (no ``hash()``, ids or dict order)."""
        c = self.clock
        ints: list[int] = [len(self.pos), c.tick, c.turns, self.karma,
                           -1 if c.last_team is None else c.last_team, c.first_tie_team]
        for i, (x, y) in enumerate(self.pos):
            ints += [x, y, self.hp[i], int(self.moved[i]), c.ip[i], int(c.active[i]),
                     int(c.acted[i])]
        turn = c.current
        if turn is None:
            ints.append(-1)
        else:
            ints += [turn.actor, *turn.used, *turn.allowed, int(turn.attack_first), turn.spent,
                     self.turn_move, int(self.turn_hindered)]
        for f in sorted(self.damage):
            ints += [f[0], f[1], " ES".index(f[2]), self.damage[f]]
        ints.append(-2)
        for f in self.destroyed:
            ints += [f[0], f[1], " ES".index(f[2])]
        ints.append(-3)
        ints.append(self.streams.dice.rolled if self.streams else -1)
        if self.result is not None:
            ints += [-4 if self.result.winner is None else self.result.winner]
        digest = hashlib.blake2b(struct.pack(f"<{len(ints)}q", *ints), digest_size=16)
        if self.effects:
            digest.update(repr(sorted(self.effects.items(), key=repr)).encode())
        return digest.hexdigest()


def _copy_turn(turn: Turn) -> Turn:
    other = Turn.__new__(Turn)
    other.actor, other.used, other.allowed = turn.actor, list(turn.used), list(turn.allowed)
    other.attack_first, other.spent, other.open = turn.attack_first, turn.spent, turn.open
    return other


def _copy_streams(streams: Streams) -> Streams:
    import copy

    return copy.deepcopy(streams)
