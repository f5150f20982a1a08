"""A person's turn in a playtest: clicks on the map view (a tile to move, a
target to attack through the attack preview's Confirm, an Obstructing tile or
border to strike), a pick among tied characters, Pass (P), and clicks on the
Turn-Sequence Bar.  What the rules refuse is said in the status bar with the
engine's one line, and nothing changes.

:class:`PlaytestTool` is the view's tool while a playtest runs: it hands the
view's clicks, hovers and Escape to :class:`HumanTurn` and the mode.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor

from ...battle.actions import Attack, AttackTerrain, Move, Pass, refusal
from ...battle.events import Attacked
from ..geometry import nearest_edge
from ..tools.base import Tool, ToolEvent
from .battle_panel import preview_text, roll_text

if TYPE_CHECKING:
    from .mode import PlaytestMode

#: a click this close (tile units) to an Obstructing border attacks the border
EDGE_PICK = 0.15


class PlaytestTool(Tool):
    """The view's tool while a playtest runs: clicks and keys go to the mode."""

    name = "playtest"
    label = "Playtest"
    cursor = Qt.CursorShape.PointingHandCursor

    def __init__(self, mode: PlaytestMode) -> None:
        win = mode.win
        super().__init__(win.document, win.scene, win.state)
        self.mode = mode

    def press(self, ev: ToolEvent) -> None:
        if ev.button == Qt.MouseButton.LeftButton:
            self.mode.human.click(ev.tile, (ev.fx, ev.fy))

    def hover(self, ev: ToolEvent) -> None:
        self.mode.human.hover(ev.tile)

    def leave(self) -> None:
        self.mode.human.hover(None)

    def cancel(self) -> None:  # Escape
        self.mode.escape()

    def deactivate(self) -> None:
        self.active = False


class HumanTurn:
    """The input of a person playing a side (see the module docstring).
    ``pending``: the target of an attack awaiting Confirm."""

    def __init__(self, mode: PlaytestMode) -> None:
        self.mode = mode
        self.pending: int | None = None

    def _colors(self) -> dict[str, QColor] | None:
        board = self.mode.board
        return board._colors if board is not None else None

    def hover(self, tile: tuple[int, int] | None) -> None:
        board = self.mode.board
        if board is not None and self.pending is None:
            text = board.hover(tile)
            if text:
                self.mode.say(text)

    def pick_from_tsb(self, i: int) -> None:
        """A TSB entry clicked: while a person picks a target (or the actor) it is the
        click on that character's tile; else it only shows the character."""
        s = self.mode.session
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
            self.mode.views.pick(state, i, self._colors())

    def click(self, tile: tuple[int, int], point: tuple[float, float] | None = None) -> None:
        """A click on ``tile`` (at ``point`` in tile units: near a border it is the
        border that is clicked)."""
        mode, s = self.mode, self.mode.session
        if s is None:
            return
        state = s.state
        clicked = state.at(tile)
        if clicked is not None and clicked != state.actor:
            mode.views.pick(state, clicked, self._colors())
        if state.result is not None:
            mode.say("the battle is over: Restart, Save Replay, or Esc to edit")
            return
        w = s.waiting
        if w is None:
            mode.say("an AI is playing this turn: Play, One Action or One Turn, or Take Over")
            return
        who = state.at(tile)
        if w.kind == "actor":
            if who is None:
                mode.say("pick the character to act: click one of the characters marked in "
                         "yellow")
                return
            mode.after_human(s.choose_actor(who))
            return
        actor = state.actor
        assert actor is not None
        feature = self._feature(tile, point)
        if feature is not None:  # an Obstructing tile or border: a Basic Attack on it
            mode.after_human(s.submit(AttackTerrain(*feature)))
        elif who is None:
            mode.after_human(s.submit(Move(tile)))
        elif who == actor:
            mode.say(f"{state.names[actor]} acts now: click a tile to move, an enemy to "
                     "attack, P to pass")
        elif state.team[who] == state.team[actor]:
            mode.say(f"{state.names[who]!r} is on your team")
        else:
            why = refusal(state, Attack(who))
            if why is not None:
                mode.say(why)
                return
            self.pending = who
            html = preview_text(state, actor, who, s.preview(actor, who))
            mode.panel.show_preview(html, True)
            if mode.board is not None:
                mode.board.hover(tile)
            mode.say(f"attack {state.names[who]}? Confirm in the Battle panel (Esc cancels)")

    def _feature(self, tile: tuple[int, int],
                 point: tuple[float, float] | None) -> tuple[int, int, str] | None:
        """The Obstructing border within :data:`EDGE_PICK` of ``point``, else the
        Obstructing tile clicked, else None."""
        assert self.mode.session is not None
        board = self.mode.session.state.board
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
        """The attack preview's Confirm: the attack, then the roll in the panel."""
        mode, s, target = self.mode, self.mode.session, self.pending
        if s is None or target is None:
            return
        self.pending = None
        n = len(s.state.events)
        mode.after_human(s.submit(Attack(target)))
        hits = [e for e in s.state.events[n:] if isinstance(e, Attacked)]
        if hits:
            mode.panel.show_preview(roll_text(s.state, hits[0]), False)
        else:
            mode.panel.hide_preview()

    def cancel_attack(self) -> None:
        self.pending = None
        self.mode.panel.hide_preview()
        if self.mode.board is not None:
            self.mode.board.hide_line()

    def pass_turn(self) -> None:
        mode, s = self.mode, self.mode.session
        if s is None:
            return
        w = s.waiting
        if w is None or w.kind != "action":
            mode.say("it is not a human player's turn")
            return
        self.cancel_attack()
        mode.after_human(s.submit(Pass()))
