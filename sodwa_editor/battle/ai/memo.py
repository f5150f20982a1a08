"""What an AI keeps between its decisions (:class:`Memo`): facts the battle does not
change, so a decision does not work them out again."""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import numpy as np

from ...engine.los_inputs import Stack, los_inputs
from ..clock import ActionType
from ..loop import View
from .plan import Plan
from .profile import GreedyWeights

#: What the board-sized arrays of one terrain cache (walks, firing tiles, zones) may
#: take in memory before the cache starts again.
TERRAIN_CACHE_BYTES = 32 << 20


def step_type(shape: tuple[int, int]) -> type[np.signedinteger]:
    """The narrowest integer type that holds every walking distance on a board of
    ``shape`` (at most its width plus height): 2 bytes a tile on any map a file can
    hold, so a board's pools touch a quarter of the memory ``int64`` would."""
    return np.int16 if shape[0] + shape[1] < np.iinfo(np.int16).max else np.int32


class Pool:
    """Board-sized integer arrays (``dtype``) kept in one block by key, so that compiled
    code reads the arrays of several keys through their slots (``block[slot]``)
    without their being stacked into a new array each time.

    At most ``limit`` arrays: :meth:`reserve` starts the pool again when the next ``n``
    would not fit, so the slots a caller takes after it stay valid until its next
    :meth:`reserve`.  :meth:`add` may move the block (it grows by doubling): read
    :attr:`block` after the last :meth:`add`.

    >>> pool = Pool((2, 3), limit=4)
    >>> pool.reserve(1)
    >>> slot = pool.add("a")
    >>> pool.block[slot] = 7
    >>> pool.get("a"), pool.get("b"), int(pool.block[pool.get("a")].sum())
    (0, -1, 42)
    """

    __slots__ = ("block", "slots", "limit", "sets")

    def __init__(self, shape: tuple[int, int], limit: int,
                 dtype: type[np.signedinteger] = np.int64) -> None:
        self.block = np.empty((0, *shape), dtype)
        self.slots: dict[object, int] = {}
        self.limit = limit
        #: A caller's arrays of slots for several keys at once, kept by its own key
        #: (:meth:`kept`, :meth:`keep`) while those slots hold.
        self.sets: dict[object, np.ndarray] = {}

    def reserve(self, n: int) -> None:
        """Make room for ``n`` more arrays (dropping every kept one if need be)."""
        if len(self.slots) + n > self.limit:
            self.slots, self.sets = {}, {}

    def kept(self, key: object) -> np.ndarray | None:
        """The slots :meth:`keep` kept for ``key``, if they still hold."""
        return self.sets.get(key)

    def keep(self, key: object, slots: np.ndarray) -> None:
        """Keep ``slots`` (taken since the last :meth:`reserve`) for ``key`` until the
        pool starts again."""
        if len(self.sets) >= 4096:
            self.sets.clear()
        self.sets[key] = slots

    def get(self, key: object) -> int:
        """The slot of ``key``'s array, or -1."""
        return self.slots.get(key, -1)

    def add(self, key: object) -> int:
        """A slot for ``key``'s new array (its contents are the caller's to write)."""
        slot = len(self.slots)
        if slot >= len(self.block):
            grown = np.empty((min(self.limit, max(256, 2 * len(self.block))),
                              *self.block.shape[1:]), self.block.dtype)
            grown[:len(self.block)] = self.block
            self.block = grown
        self.slots[key] = slot
        return slot


class Lines(NamedTuple):
    """The LoS kernel's inputs for one arrangement of the characters: the stacks of
    every viewer level packed, the lowest level, and the targets' own tiles
    (:meth:`~sodwa_editor.engine.los_inputs.LosInputs.packed_with`)."""

    lo: int
    stacks: Stack
    target: np.ndarray


class Placed(NamedTuple):
    """What one arrangement of the characters means for one actor (:meth:`Memo.placed`):
    its enemies (battle indices, ascending) with their tiles and ``x``, ``y`` and index
    arrays, the lines of sight with every other character where it stands (the actor
    off its tile: it may move), and the threat zones kept for the arrangement."""

    enemies: list[int]
    tiles: list[tuple[int, int]]
    ex: np.ndarray
    ey: np.ndarray
    indices: np.ndarray
    lines: Lines
    zones: dict[int, np.ndarray]


class SheetNumbers(NamedTuple):
    """Numbers of every character's sheet that the plans read, by battle index."""

    initiative: np.ndarray
    cost: np.ndarray
    #: Move plus Range (at least 1): the half width of the Chebyshev square about a
    #: character that holds its threat zone.
    square: np.ndarray
    #: Range at most 1: it threatens by melee.
    melee: np.ndarray


class Memo:
    """What an AI keeps between its decisions because the battle does not change it:
    the BIP's numbers per (attacker, defender, situation, karma) (the sheets and
    rules are fixed for a battle), the walking distances to a tile (the terrain is
    fixed until a battle destroys some), the lines of sight and threat zones per
    arrangement of the characters, and the plans a tie made on forks.  Each part is
    dropped as soon as what it rests on is not the same object any more, so a memo is
    never wrong, only cold."""

    __slots__ = ("sheets", "rules", "previews", "bases", "kinds", "threats",
                 "walks", "firing", "board",
                 "revision", "los", "zones", "level", "liquid", "level_lo", "level_span",
                 "limit", "shared_bases", "sheet_keys", "pending", "placed_zones",
                 "arrangements", "numbers", "cases", "terrain")

    def __init__(self) -> None:
        #: The terrain terms of the battle's positions (:mod:`.terrain_terms`), by
        #: everything they read.
        self.terrain: dict[tuple[object, ...], float] = {}
        self.sheets: tuple[object, ...] = ()
        self.rules: object = None
        self.previews: dict[tuple[object, ...], tuple[float, int, float]] = {}
        #: The BIP's karma-free numbers per situation: (difficulty, damage, karma gain).
        self.bases: dict[tuple[object, ...], tuple[int, int, int]] = {}
        #: The same numbers per (attacker's sheet, defender's sheet, situation), for
        #: every battle on the board played by the same rules (``Board.kept``).
        self.shared_bases: dict[tuple[object, ...], tuple[int, int, int]] = {}
        #: Per character: its sheet's number among the sheets ``shared_bases`` has
        #: seen (equal sheets, one number), the cheap key of its side of a pair.
        self.sheet_keys: tuple[int, ...] = ()
        #: Per (attacker, karma, its enemies): whether melee is the better attack kind
        #: against each enemy, whether it is against all of them, and -1 slots for
        #: them (:meth:`.scoring.TurnFacts.approach_inputs`).
        self.kinds: dict[tuple[int, ...], tuple[np.ndarray, bool, np.ndarray]] = {}
        #: Per (enemy, character, karma, melee, levels): the enemy's P(hit) on the
        #: character standing still and having moved, and its damage on a hit.
        self.threats: dict[tuple[int, ...], tuple[float, float, int]] = {}
        # The terrain caches below are the board's (``Board.kept``): shared by every
        # battle on the same terrain, so the thousands of battles of a batch on one
        # map work each out once.
        #: Walking steps to a tile, per (x, y, flight).
        self.walks = Pool((0, 0), 0)
        #: Steps to the nearest tile to shoot an enemy from, per (enemy x, y, Range,
        #: metric, flight) (:func:`.approach.firing`).
        self.firing = Pool((0, 0), 0)
        self.board: object = None
        self.revision = -1
        self.los: dict[tuple[tuple[int, int], ...], Lines] = {}
        #: Threat zones per movement range object (``id`` -> (a weak reference to the
        #: range, its zone)):
        #: the battle hands out the same range object while the range is the same.
        self.zones: dict[tuple[int, int, int], tuple[Callable[[], object], np.ndarray]] = {}
        #: Threat zones per arrangement of the characters (every character's tile, or
        #: None once defeated) and per character: what an enemy's zone rests on in a
        #: battle whose board and sheets stand (a tie's candidates and the plans after
        #: an attack see the same arrangement again).
        self.placed_zones: dict[tuple[object, ...], dict[int, np.ndarray]] = {}
        #: The BIP's numbers of an attack case per (actor, enemy, karma, the case's
        #: code without the enemy's place, the enemy's Move flag and tile)
        #: (:meth:`.scoring.TurnFacts.case_values`).
        self.cases: dict[tuple[object, ...], tuple[float, int, float]] = {}
        #: :meth:`placed` per (arrangement, actor).
        self.arrangements: dict[tuple[object, int], Placed] = {}
        self.numbers = SheetNumbers(*(np.zeros(0, np.int64) for _ in range(4)))
        self.level = np.zeros((0, 0), np.int64)
        self.liquid = np.zeros((0, 0), bool)
        #: The lowest level on the board and how many levels from it to the highest.
        self.level_lo, self.level_span = 0, 1
        self.limit = 64
        #: Plans made on forks for positions a later decision may see, per actor with
        #: their :func:`fingerprint` (a same-team tie scores each candidate's turn:
        #: the winner's first decision sees its position, and a loser's turn begins
        #: on its own when the winner's turn changed nothing the plans read); the
        #: actor's next decision takes them or drops them.
        self.pending: dict[int, tuple[tuple[object, ...], list[Plan]]] = {}

    def keep(self, view: View, weights: GreedyWeights, limit: int | None,
             made: list[Plan]) -> None:
        """Keep ``made`` (the plans of ``view``'s position) for the actor's next
        decision."""
        assert view.actor is not None
        self.pending[view.actor] = (fingerprint(view, weights, limit), made)

    def take(self, view: View, weights: GreedyWeights, limit: int | None) -> list[Plan] | None:
        """The plans kept for the actor if ``view`` shows the position they were made
        for (as far as the plans read it); they are dropped either way."""
        assert view.actor is not None
        kept = self.pending.pop(view.actor, None)
        if kept is None or kept[0] != fingerprint(view, weights, limit):
            return None
        return list(kept[1])


    def check(self, view: View) -> None:
        """Drop what no longer holds for ``view``'s battle; take the board's shared
        terrain caches when the battle is on another board (or its terrain changed)."""
        sheets, stale = view.sheets, view.rules is not self.rules
        if sheets is not self.sheets:  # a battle's copies share its tuple: one test
            stale = stale or len(sheets) != len(self.sheets) or any(
                a is not b for a, b in zip(sheets, self.sheets, strict=True))
            self.sheets = sheets
        if stale:
            self.rules = view.rules
            self.previews, self.bases = {}, {}
            self.kinds, self.threats, self.placed_zones = {}, {}, {}
            self.arrangements, self.cases, self.pending = {}, {}, {}
            self.terrain = {}
            self.numbers = SheetNumbers(
                np.array([s.initiative for s in sheets], np.int64),
                np.array([s.cost for s in sheets], np.int64),
                np.array([s.move + max(1, s.range) for s in sheets], np.int64),
                np.array([s.range <= 1 for s in sheets], np.int64))
        board = view.board
        shared = board.kept.get("bip")
        if shared is None or shared[0] is not view.rules:  # one rules object per board
            shared = board.kept["bip"] = (view.rules, {}, {})
        if stale or shared[1] is not self.shared_bases:
            self.shared_bases = shared[1]
            numbers: dict[object, int] = shared[2]
            self.sheet_keys = tuple(numbers.setdefault(s, len(numbers)) for s in sheets)
        if board is not self.board or board.revision != self.revision:
            self.board, self.revision = board, board.revision
            self.placed_zones, self.arrangements, self.cases = {}, {}, {}
            self.pending, self.terrain = {}, {}
            kept = board.kept
            self.zones = kept.setdefault("zones", {})
            self.los = kept.setdefault("lines", {})
            self.level = np.array(board.level, np.int64)
            self.liquid = np.array(board.liquid, bool)
            if self.level.size:
                self.level_lo = int(self.level.min())
                self.level_span = int(self.level.max()) - self.level_lo + 1
            #: Entries of one board-sized array a terrain cache keeps at most.
            self.limit = max(64, TERRAIN_CACHE_BYTES // (8 * max(1, self.level.size)))
            shape = (board.height, board.width)
            steps = step_type(shape)
            count = max(64, TERRAIN_CACHE_BYTES // (np.dtype(steps).itemsize
                                                    * max(1, self.level.size)))
            self.walks = kept.setdefault("walks", Pool(shape, count, steps))
            self.firing = kept.setdefault("firing", Pool(shape, count, steps))

    def placed(self, view: View, actor: int) -> Placed:
        """:class:`Placed` for the arrangement ``view`` shows and ``actor`` (kept: the
        candidates of a tie and the plans after an attack see it again)."""
        key = (view.placement, actor)
        hit = self.arrangements.get(key)
        if hit is None:
            placement, team = key[0], view.team_of(actor)
            enemies = [j for j, t in enumerate(placement)
                       if t is not None and view.team_of(j) != team]
            tiles: list[tuple[int, int]] = [placement[j] for j in enemies]  # type: ignore[misc]
            occupied = [t for j, t in enumerate(placement) if t is not None and j != actor]
            if view.sized:  # an enemy larger than a tile once per square (S27)
                tiles = [t for j in enemies for t in view.squares(j)]
                enemies = [j for j in enemies for _t in view.squares(j)]
                occupied = [t for j, p in enumerate(placement) if p is not None and j != actor
                            for t in view.squares(j)]
            if len(self.arrangements) >= 256:
                self.arrangements.clear()
            hit = self.arrangements[key] = Placed(
                enemies, tiles, np.array([t[0] for t in tiles], np.int64),
                np.array([t[1] for t in tiles], np.int64), np.array(enemies, np.int64),
                self.lines(view, occupied), self.zones_placed(placement))
        return hit

    def zones_placed(self, placement: tuple[object, ...]) -> dict[int, np.ndarray]:
        """The threat zones kept for an arrangement (every character's tile, None once
        defeated; filled by :meth:`.scoring.TurnFacts._zone`)."""
        key = placement
        hit = self.placed_zones.get(key)
        if hit is None:
            if len(self.placed_zones) >= 256:
                self.placed_zones.clear()
            hit = self.placed_zones[key] = {}
        return hit

    def lines(self, view: View, occupied: list[tuple[int, int]]) -> Lines:
        """Lines of sight on the board with characters on ``occupied`` (kept per
        arrangement on the board, for every battle on it)."""
        key = tuple(occupied)
        hit = self.los.get(key)
        if hit is None:
            if len(self.los) >= 64:
                self.los.clear()
            inputs = los_inputs(view.map)
            lo, stacks = inputs.packed_with(np.array([t[0] for t in occupied], np.int64),
                                            np.array([t[1] for t in occupied], np.int64))
            hit = self.los[key] = Lines(lo, stacks, inputs.target)
        return hit


def fingerprint(view: View, weights: GreedyWeights, limit: int | None) -> tuple[object, ...]:
    """Everything the plans of ``view``'s position read (with the sheets and rules,
    which a battle does not change, and the board, named here by identity and
    revision): the actor and its turn so far, its HP, IP and Move flag, every
    character's tile, the enemies' HP, IP, Move flags and whether they had their
    turn in this tick, and both karma pools.  Not the friends' HP, IP or flags, nor
    the tick: the plans do not read them (a tie's loser, whose turn follows a
    winner's that moved nobody and hurt nobody, sees its plans again)."""
    actor = view.actor
    assert actor is not None, "plans are made during a turn"
    team = view.team_of(actor)
    hps, ips, moved, acted = view.hps, view.ips, view.moved_flags, view.acted
    placement = view.placement
    enemies = tuple((hps[j], ips[j], moved[j], acted[j]) for j, t in enumerate(placement)
                    if t is not None and view.team_of(j) != team)
    out: tuple[object, ...] = (
        id(weights), limit, view.team, actor, id(view.board), view.map.revision,
        view.move_this_turn, view.can_take(ActionType.MOVE), view.can_take(ActionType.ATTACK),
        hps[actor], ips[actor], moved[actor], view.karma(0), view.karma(1), placement, enemies)
    if view.has_abilities:  # the ability plans read the allies and the effects too
        out += (view.can_take(ActionType.SPECIAL), tuple(hps), view.effects_key())
    return out
