"""The battle on the map: scene items drawn from a
:class:`~sodwa_editor.battle.state.BattleState`, never from the document.

The terrain is the battle's own board (the map scene is bound to
``state.board.model`` while a playtest runs, so a destroyed wall disappears the
moment the battle destroys it); the characters are the editor's tokens
(:class:`~..scene.token_item.CharacterToken`) at their battle tiles with an HP
bar; the active character is ringed.  The movement range, the path to the
hovered tile, the LoS line to a hovered target and the feature that decided it
are the editor's own preview items (``scene.previews``: the same items the
LoS and Reach previews use), filled from the battle's rules.

:class:`BattleBoard` takes the map scene and the playtest model: it puts its
items on the scene when a battle begins, redraws them when the battle changes
and takes them off when the playtest ends.
"""

from __future__ import annotations

import dataclasses
from typing import NamedTuple

import numpy as np
from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPen
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from ...battle import sized
from ...battle.actions import move_allowance
from ...battle.clock import ActionType
from ...battle.describe import side_label
from ...battle.state import BattleState
from ...battle.targeting import attack_targets
from ...engine.creatures import centred_anchor
from ...engine.footprint import Footprint
from ...engine.footprint_movement import FootprintReach
from ...engine.model import Character
from ...engine.movement import Reach
from .. import style
from ..scene.map_scene import MapScene
from ..scene.overlay_items import ShapeOverlay, cosmetic
from ..scene.token_item import CharacterToken, token_label, unique_labels
from ..style import TILE
from .model import PlaytestModel

#: z of the battle's items: tokens as the editor's (6), the ring over them
TOKENS_Z, RING_Z, TARGETS_Z = 6.0, 6.5, 5.5
ACTIVE = QColor(255, 200, 0)
TARGET = style.OKABE_ITO["vermillion"]


class Covered(NamedTuple):
    """What the range item draws of a larger creature's range (``steps``, ``must_stop``
    per tile)."""

    steps: np.ndarray
    must_stop: np.ndarray


def covered(reach: FootprintReach | Reach, fp: Footprint) -> Covered:
    """A larger creature's range shown as the tiles its footprint can cover (for the
    range item): per tile the fewest steps of an end position covering it, and a stop
    where every such position ends the move (as the editor's movement preview)."""
    h, w = reach.steps.shape
    big = np.iinfo(np.int32).max
    steps = np.full((h, w), big, np.int64)
    goes_on = np.zeros((h, w), np.bool_)
    ys, xs = np.nonzero(reach.steps >= 0)
    values, free = reach.steps[ys, xs], ~reach.must_stop[ys, xs]
    for j in range(fp.height):
        for i in range(fp.width):
            np.minimum.at(steps, (ys + j, xs + i), values)
            goes_on[ys[free] + j, xs[free] + i] = True
    shown = steps != big
    return Covered(np.where(shown, steps, -1).astype(np.int32), shown & ~goes_on)


class BattleToken(CharacterToken):
    """The editor's token with the character's HP as a bar under it."""

    def __init__(self, character: Character, color: QColor, label: str, hp: int,
                 health: int, side: str, parent: QGraphicsItem | None = None) -> None:
        super().__init__(character, color, label, parent)
        self.hp, self.health, self.side = hp, max(1, health), side
        self.setToolTip(f"{character.id} ({side}): HP {hp}/{health}")

    def set_place(self, x: int, y: int, hp: int) -> None:
        """Move to tile (x, y) with ``hp`` left (no redraw when nothing changed)."""
        if (x, y) != (self.character.x, self.character.y):
            self.character = dataclasses.replace(self.character, x=x, y=y)
            self.setPos(x * TILE, y * TILE)
        if hp != self.hp:
            self.hp = hp
            self.setToolTip(f"{self.character.id} ({self.side}): HP {hp}/{self.health}")
            self.update()

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        super().paint(painter, option, widget)
        whole = self.boundingRect()  # the whole footprint of a larger creature
        scale = min(whole.width(), whole.height()) / TILE
        w, h = whole.width() - TILE * 0.2, TILE * 0.11 * min(scale, 2)
        box = QRectF((whole.width() - w) / 2, whole.height() - h - 1, w, h)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QColor(0, 0, 0, 170))
        painter.drawRect(box)
        frac = max(0.0, min(1.0, self.hp / self.health))
        painter.setBrush(QColor(0, 158, 115) if frac > 0.5 else QColor(230, 159, 0)
                         if frac > 0.25 else QColor(213, 94, 0))
        painter.drawRect(QRectF(box.x(), box.y(), w * frac, h))


class ActiveRing(QGraphicsItem):
    """A thick ring around the active character's tile (its whole footprint)."""

    def __init__(self) -> None:
        super().__init__()
        self.setZValue(RING_Z)
        self.setVisible(False)
        self.footprint = Footprint(1, 1)

    def set_footprint(self, fp: Footprint) -> None:
        if fp != self.footprint:
            self.prepareGeometryChange()
            self.footprint = fp

    def boundingRect(self) -> QRectF:  # noqa: N802
        return QRectF(-4, -4, TILE * self.footprint.width + 8,
                      TILE * self.footprint.height + 8)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        w, h = TILE * self.footprint.width, TILE * self.footprint.height
        for color, width in ((QColor(0, 0, 0), TILE * 0.2), (ACTIVE, TILE * 0.12)):
            painter.setPen(QPen(color, width))
            painter.drawEllipse(QRectF(TILE * 0.08, TILE * 0.08, w - TILE * 0.16,
                                       h - TILE * 0.16))


class _Tokens(QGraphicsItem):
    def __init__(self) -> None:
        super().__init__()
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemHasNoContents)
        self.setZValue(TOKENS_Z)

    def boundingRect(self) -> QRectF:  # noqa: N802
        return QRectF()

    def paint(self, *_args: object) -> None:
        pass


class BattleBoard:
    """The battle's items in ``scene`` (see the module docstring)."""

    def __init__(self, scene: MapScene, model: PlaytestModel) -> None:
        self.scene = scene
        self.model = model
        self.tokens: dict[int, BattleToken] = {}
        self.state: BattleState | None = None
        self.move_tiles: set[tuple[int, int]] = set()
        self.target_tiles: dict[tuple[int, int], int] = {}
        self._new_items()
        model.started.connect(self._start)
        model.changed.connect(self.refresh)
        model.attack_changed.connect(self._attack_changed)
        model.stopped.connect(self.remove)

    def _new_items(self) -> None:
        self.tokens_root = _Tokens()
        self.ring = ActiveRing()
        self.targets = ShapeOverlay(cosmetic(TARGET, 3, Qt.PenStyle.DashLine),
                                    QColor(213, 94, 0, 60), TARGETS_Z)
        #: the characters a human team picks its actor from (a same-team tie)
        self.candidates = ShapeOverlay(cosmetic(ACTIVE, 3), QColor(255, 200, 0, 70), TARGETS_Z)
        self._reach: object = None
        self._reach_tiles: set[tuple[int, int]] = set()
        self._labels: dict[str, str] = {}

    def _start(self) -> None:
        """A battle begins: fresh items on the scene."""
        self._new_items()
        self.tokens, self.state = {}, None
        self.move_tiles, self.target_tiles = set(), {}
        # the battle's tokens hang under the scene's Characters layer, so the Layers
        # dock's toggle and opacity apply to them as to the editor's tokens
        self.tokens_root.setParentItem(self.scene.items_by_name["tokens"])
        for item in (self.ring, self.targets, self.candidates):
            self.scene.addItem(item)

    def refresh(self) -> None:
        """Draw the model's battle (the characters a person picks the actor from ringed)."""
        s = self.model.session
        if s is None:
            return
        w = s.waiting
        self.show(s.state, w.candidates if w is not None and w.kind == "actor" else ())

    def _attack_changed(self) -> None:
        if self.model.pending is None:
            self.hide_line()

    @property
    def reach_item(self):
        return self.scene.previews["reach"]

    @property
    def line(self):
        return self.scene.previews["path"]

    @property
    def culprit(self):
        return self.scene.previews["culprit"]

    # ------------------------------------------------------------- drawing
    def show(self, state: BattleState, candidates: tuple[int, ...] = ()) -> None:
        """Draw ``state``: its board, the characters left, the actor and its options;
        ``candidates``: the characters a person is to pick the actor from."""
        self.state = state
        self.candidates.set_shape(sorted(t for i in candidates for t in state.squares(i)))
        board_model = state.board.model
        if self.scene.model is not board_model:  # a wall fell (the board forked), or a step
            self.scene.set_model(board_model)
            self.scene.items_by_name["tokens"].refresh(None)
        self.scene.flush()
        self._show_tokens(state)
        actor = state.actor
        self.ring.setVisible(actor is not None and state.result is None)
        self.move_tiles, self.target_tiles = set(), {}
        if actor is not None and state.result is None:
            x, y = state.pos[actor]
            self.ring.set_footprint(state.fp[actor])
            self.ring.setPos(x * TILE, y * TILE)
            self._show_options(state, actor)
        else:
            self.reach_item.setVisible(False)
            self.targets.clear()
        self.hide_line()

    def _show_tokens(self, state: BattleState) -> None:
        colors = self.model.colors
        if not self._labels:
            self._labels = unique_labels({f.id: token_label(self._character(f.id, f.side))
                                          for f in state.fighters})
        for i, f in enumerate(state.fighters):
            token = self.tokens.get(i)
            if not state.alive(i):  # a defeated character leaves the board (B32)
                if token is not None:
                    self.scene.removeItem(token)
                    del self.tokens[i]
                continue
            x, y = state.pos[i]
            if token is None:
                fp = state.fp[i]  # tiles: the token covers the whole footprint
                ch = dataclasses.replace(self._character(f.id, f.side), x=x, y=y,
                                         move=f.sheet.move, range=f.sheet.range,
                                         flight=f.sheet.flight, size=f.sheet.size,
                                         footprint=fp if fp != (1, 1) else None)
                self.tokens[i] = BattleToken(ch, colors[f.side], self._labels[f.id],
                                             state.hp[i], f.sheet.health,
                                             side_label(f.side, f.team), self.tokens_root)
            else:  # only what changed is redrawn (a step back revives the defeated)
                token.set_place(x, y, state.hp[i])

    def _character(self, ident: str, side: str) -> Character:
        source = self.model.source
        c = source.characters.get(ident) if source is not None else None
        return c if c is not None else Character(ident, side, 0, 0, name=ident.split(".")[-1])

    def _show_options(self, state: BattleState, actor: int) -> None:
        turn = state.turn
        assert turn is not None
        allowance = move_allowance(state) if turn.can_take(ActionType.MOVE) else 0
        if allowance > 0:
            reach = state.reach_of(actor, allowance)
            if reach is not self._reach:  # the same range object: already drawn
                self._reach = reach
                if state.fp[actor] != (1, 1):  # the tiles the footprint can cover
                    shown = covered(reach, state.fp[actor])
                    self.reach_item.set_reach(state.board.model, shown)
                    mine = set(state.squares(actor))
                    ys, xs = (shown.steps >= 0).nonzero()
                    self._reach_tiles = {t for t in zip(xs.tolist(), ys.tolist(), strict=True)
                                         if t not in mine}
                else:
                    self.reach_item.set_reach(state.board.model, reach)
                    ys, xs = (reach.steps > 0).nonzero()
                    self._reach_tiles = set(zip(xs.tolist(), ys.tolist(), strict=True))
            self.reach_item.setVisible(True)
            self.move_tiles = self._reach_tiles
        else:
            self.reach_item.setVisible(False)
        if turn.can_take(ActionType.ATTACK):  # every square of each target
            self.target_tiles = {t: j for j in attack_targets(state, actor)
                                 for t in state.squares(j)}
        self.targets.set_shape(sorted(self.target_tiles))

    # ------------------------------------------------------------- hovering
    def hover(self, tile: tuple[int, int] | None) -> str:
        """Show the path to ``tile`` (a legal move) or the LoS line to the character
        on it; the status text (the line's class and reason, or the path length)."""
        s = self.state
        if tile is None or s is None or s.actor is None or s.result is not None:
            self.hide_line()
            return ""
        actor = s.actor
        src = s.pos[actor]
        if tile in self.move_tiles:
            to = self.anchor_for(tile)
            path = s.reach_of(actor, move_allowance(s)).path_to(to) if to else None
            if path and to is not None:
                fp = s.fp[actor]  # drawn through the footprint's middle
                dx, dy = (fp.width - 1) / 2, (fp.height - 1) / 2
                self.line.set_path([(x + dx, y + dy) for x, y in path])
                self.line.setVisible(True)
                self.culprit.set_reason(None, 0)
                return f"move to {to[0]}, {to[1]}: {len(path) - 1} step(s)"
        other = s.at(tile)
        if other is not None and other != actor and s.sized:
            best = sized.sight(s, actor, other)  # the best line between footprints (S9)
            result = best.result
            self.line.set_line(best.src, best.dst, result.crossing)
            self.line.setVisible(True)
            self.culprit.set_reason(result.reason, result.crossing)
            legal = "a legal target" if other in self.target_tiles.values() else "not a target"
            return (f"LoS {s.names[actor]} -> {s.names[other]}: {result.crossing.label}"
                    f" ({best.describe()}); {legal}")
        if other is not None and other != actor:
            result = s.los_board().los(src, tile)
            self.line.set_line(src, tile, result.crossing)
            self.line.setVisible(True)
            self.culprit.set_reason(result.reason, result.crossing)
            legal = "a legal target" if other in self.target_tiles.values() else "not a target"
            return (f"LoS {s.names[actor]} -> {s.names[other]}: {result.crossing.label}"
                    f" ({result.describe()}); {legal}")
        self.hide_line()
        return ""

    def anchor_for(self, tile: tuple[int, int]) -> tuple[int, int] | None:
        """The top-left tile the actor's Move Action goes to for a click on ``tile``: the
        tile itself for one tile; for a larger creature the end position covering
        ``tile`` with the fewest steps, the one nearest the footprint centred there on a
        tie (None: no end position covers it)."""
        s = self.state
        if s is None or s.actor is None or tile not in self.move_tiles:
            return None
        fp = s.fp[s.actor]
        if fp == (1, 1):
            return tile
        steps = s.reach_of(s.actor, move_allowance(s)).steps
        cx, cy = centred_anchor(tile, fp)
        best: tuple[int, int, int, int, int] | None = None
        for ay in range(max(0, tile[1] - fp.height + 1), tile[1] + 1):
            for ax in range(max(0, tile[0] - fp.width + 1), tile[0] + 1):
                if ay < steps.shape[0] and ax < steps.shape[1] and steps[ay, ax] > 0:
                    key = (int(steps[ay, ax]), abs(ax - cx) + abs(ay - cy), ay, ax, 0)
                    best = key if best is None or key < best else best
        return None if best is None else (best[3], best[2])

    def hide_line(self) -> None:
        self.line.setVisible(False)
        self.culprit.set_reason(None, 0)

    def remove(self) -> None:
        """Take every battle item off the scene and hide the shared previews."""
        for item in (self.tokens_root, self.ring, self.targets, self.candidates):
            if item.scene() is self.scene:
                self.scene.removeItem(item)
        self.tokens = {}
        for name in ("reach", "path", "culprit"):
            self.scene.previews[name].setVisible(False)
