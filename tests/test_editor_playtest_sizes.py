"""Playtest with creatures larger than a tile (docs/rules.md S21-S27): the token, the
active ring and the targets over the whole footprint, the range as the tiles the
footprint can cover, a click there moving the creature so it covers the clicked tile,
the Character Panel's size and the TSB entry; with real clicks."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from test_editor_playtest import press_f5_and_start, wait_human

from sodwa_editor.battle.events import Moved
from sodwa_editor.editor.playtest.character_panel import panel_groups
from sodwa_editor.editor.playtest.tsb_bar import entry_text, tsb_entries
from sodwa_editor.editor.style import TILE
from sodwa_editor.editor.testing import click_tile
from sodwa_editor.engine.model import Character, MapModel


def giant_map() -> MapModel:
    m = MapModel(16, 10)
    m.put_character(Character("giant", "amber", 0, 0, move=6, range=1, name="Giant",
                              size="huge"))
    m.put_character(Character("knight", "bees", 14, 8, move=5, range=1, name="Knight"))
    return m


def test_a_huge_creature_is_drawn_over_its_footprint_and_moves_by_a_click(make_window,
                                                                          qtbot):
    win = make_window(giant_map())
    press_f5_and_start(win, qtbot, ("human", "pass"), seed=3)
    mode = win.playtest
    QTest.keyClick(win.view, Qt.Key.Key_F6)  # play: the human's turn comes up
    wait_human(qtbot, mode)
    s = mode.session
    state = s.state
    g = state.names.index("giant")
    assert state.actor == g and state.fp[g] == (4, 4)
    token = mode.board.tokens[g]
    assert (token.boundingRect().width(), token.boundingRect().height()) == (4 * TILE,
                                                                            4 * TILE)
    ring = mode.board.ring
    assert ring.isVisible() and ring.boundingRect().width() == 4 * TILE + 8
    # the range shows the tiles the footprint can cover, not only its top-left tiles
    tiles = mode.board.move_tiles
    assert (9, 3) in tiles and not any(t in tiles for t in state.squares(g))
    assert mode.board.anchor_for((9, 3)) is not None
    groups = dict(panel_groups(state, g))
    assert ("Size", "Huge 4x4") in groups["Character Info"]
    assert entry_text(state, tsb_entries(state)[0]).startswith("giant 4x4")
    n = len(state.events)
    click_tile(win.view, 9, 3)
    moved = [e for e in state.events[n:] if isinstance(e, Moved)]
    assert len(moved) == 1 and moved[0].actor == g
    assert (9, 3) in state.squares(g)
    assert token.pos().x() == state.pos[g][0] * TILE and token.pos().y() == state.pos[g][1] * TILE


def test_the_bip_lists_flanking_and_cover_by_source():
    """S19, S20: the Battle Information Panel lists the companion's modifiers."""
    import dataclasses

    from sodwa_editor.battle.rules import default_rules
    from sodwa_editor.battle.state import BattleState
    from sodwa_editor.battle.targeting import preview_attack
    from sodwa_editor.editor.playtest.battle_panel import preview_text

    m = MapModel(8, 8)
    for cid, team, x in (("t", "blue", 4), ("w", "red", 3), ("e", "red", 5)):
        m.put_character(Character(cid, team, x, 4, move=5, range=1, name="Rogue"))
    r = default_rules()
    s = BattleState.from_map(m, rules=dataclasses.replace(
        r, flanking=dataclasses.replace(r.flanking, enabled=True)))
    w, t = s.names.index("w"), s.names.index("t")
    text = preview_text(s, w, t, preview_attack(s, w, t))
    assert "flanked by 2 foes (2 squares) -10 evasion" in text
