"""A person's turn in a playtest: clicks on the map view (a tile to move, a
target to attack through the attack preview's Confirm, an Obstructing tile or
border to strike), a pick among tied characters, and clicks on the
Turn-Sequence Bar.  What the rules refuse is said in the status bar with the
engine's one line, and nothing changes.

:class:`HumanTurn` takes the playtest model (whose battle it decides in) and the
board items (the hovered path or line of sight); :class:`PlaytestTool` is the
view's tool while a playtest runs: it hands the view's clicks and hovers to
:class:`HumanTurn`, and Escape to the mode.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt

from ...battle.actions import AttackTerrain, Move
from ..geometry import nearest_edge
from ..tools.base import ToolEvent, ViewTool
from .ability_aim import AbilityAim
from .board_items import BattleBoard
from .model import PlaytestModel

#: a click this close (tile units) to an Obstructing border attacks the border
EDGE_PICK = 0.15


class HumanTurn:
    """The input of a person playing a side (see the module docstring)."""

    def __init__(self, model: PlaytestModel, board: BattleBoard,
                 aim: AbilityAim | None = None) -> None:
        self.model = model
        self.board = board
        #: the area ability being aimed: while one is picked, the map's clicks and
        #: hovers are its
        self.aim = aim
        #: the last hover line said (taken back when the pointer leaves its target)
        self._hover_said = ""

    @property
    def pending(self) -> int | None:
        """The target of an attack awaiting Confirm."""
        return self.model.pending

    def hover(self, tile: tuple[int, int] | None) -> None:
        """The pointer over ``tile``: the Battle Information Panel's terrain, the path
        or line of sight on the map and its line in the status bar (taken back when
        the pointer leaves)."""
        model = self.model
        if not model.running:
            return
        model.hover(tile)
        if self.aim is not None and self.aim.active:
            self.board.hide_line()
            self.aim.hover(tile)
            return
        if model.pending is not None:
            return
        text = self.board.hover(tile)
        if text:
            self._hover_said = text
            model.say(text)
        elif self._hover_said and model.said == self._hover_said:
            model.unsay()

    def pick_from_tsb(self, i: int) -> None:
        """A TSB entry clicked: while a person picks a target (or the actor) it is the
        click on that character's tile; else it only shows the character."""
        s = self.model.session
        if s is None:
            return
        state, w = s.state, s.waiting
        actor = state.actor
        if w is not None and state.alive(i) and (
                (w.kind == "actor" and i in w.candidates)
                or (w.kind == "action" and actor is not None
                    and state.team[i] != state.team[actor])):
            self.click(state.pos[i])
        if i != state.actor:
            self.model.pick(i)

    def click(self, tile: tuple[int, int], point: tuple[float, float] | None = None) -> None:
        """A click on ``tile`` (at ``point`` in tile units: near a border it is the
        border that is clicked)."""
        model, s = self.model, self.model.session
        if s is None:
            return
        state = s.state
        clicked = state.at(tile)
        if clicked is not None and clicked != state.actor:
            model.pick(clicked)
        if state.result is not None:
            model.say("the battle is over: Restart, Save Replay, or Esc to edit")
            return
        w = s.waiting
        if w is None:
            model.say("an AI is playing this turn: Play, One Action or One Turn, or Take Over")
            return
        who = state.at(tile)
        if w.kind == "actor":
            if who is None:
                model.say("pick the character to act: click one of the characters marked in "
                          "yellow")
                return
            model.choose_actor(who)
            return
        actor = state.actor
        assert actor is not None
        if self.aim is not None and self.aim.active:  # aiming an area ability (again)
            self.aim.click(tile)
            return
        feature = self._feature(tile, point)
        if feature is not None:  # an Obstructing tile or border: a Basic Attack on it
            model.submit(AttackTerrain(*feature))
        elif who is None or (who == actor and state.fp[actor] != (1, 1)
                             and tile in self.board.move_tiles):
            # a larger creature goes to the end position covering the tile (S23)
            model.submit(Move(self.board.anchor_for(tile) or tile))
        elif who == actor:
            model.say(f"{state.names[actor]} acts now: click a tile to move, an enemy to "
                      "attack, P to pass")
        elif state.team[who] == state.team[actor]:
            model.say(f"{state.names[who]!r} is on your team")
        elif model.preview_attack(who) is None:  # else the rules' reason is said
            self.board.hover(tile)
            model.say(f"attack {state.names[who]}? Enter or Confirm rolls, Esc cancels (the "
                      "Battle Information Panel shows the numbers)")

    def _feature(self, tile: tuple[int, int],
                 point: tuple[float, float] | None) -> tuple[int, int, str] | None:
        """The Obstructing border within :data:`EDGE_PICK` of ``point``, else the
        Obstructing tile clicked, else None."""
        board = self.model.state.board
        if point is not None:
            edge, dist = nearest_edge(board.model, *point)
            if edge is not None and dist < EDGE_PICK \
                    and board.is_obstruction((edge.x, edge.y, edge.side)):
                return (edge.x, edge.y, edge.side)
        x, y = tile
        if board.in_bounds(x, y) and not board.standable[y][x]:
            return (x, y, "")
        return None

    def confirm(self) -> None:
        """Confirm: the area ability aimed, else the attack previewed; then the rolls
        in the panel."""
        if self.aim is None or not self.aim.confirm():
            self.model.confirm_attack()

    def cancel_attack(self) -> None:
        """Cancel: the area ability picked or aimed, else the attack previewed."""
        if self.aim is None or not self.aim.cancel():
            self.model.cancel_attack()

    def pass_turn(self) -> None:
        self.model.pass_turn()


class PlaytestTool(ViewTool):
    """The view's tool while a playtest runs: clicks and hovers go to the person's
    turn, Escape to ``escape`` (the mode: drop the attack preview, else stop)."""

    name = "playtest"
    label = "Playtest"
    cursor = Qt.CursorShape.PointingHandCursor

    def __init__(self, human: HumanTurn, escape: Callable[[], None]) -> None:
        super().__init__()
        self.human = human
        self.escape = escape

    def message(self, text: str) -> None:
        self.human.model.say(text)

    def press(self, ev: ToolEvent) -> None:
        if ev.button == Qt.MouseButton.LeftButton:
            self.human.click(ev.tile, (ev.fx, ev.fy))

    def hover(self, ev: ToolEvent) -> None:
        self.human.hover(ev.tile)

    def leave(self) -> None:
        self.human.hover(None)

    def cancel(self) -> None:  # Escape
        self.escape()
