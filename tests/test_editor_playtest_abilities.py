"""The Battle UI with area abilities (issue 25 section 3 on main, merged into the
issue 24 layout): an AI's area ability shows in the Battle Information Panel as
its result, one line per victim with its own roll, until the next turn begins,
and the result table counts the damage areas dealt."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from sodwa_editor.battle.events import AbilityUsed, AreaHit, Attacked, TurnStarted
from sodwa_editor.editor.playtest.setup_dialog import PlaytestChoice
from sodwa_editor.io import read_map

MAPS = Path(__file__).parents[1] / "maps"


def test_an_area_ability_shows_its_victims_rolls_and_counts_in_the_result(make_window,
                                                                           qtbot):
    model, _ = read_map(MAPS / "indoor-compound.json")  # a Mage and a Brute among them
    win = make_window(model, MAPS / "indoor-compound.json")
    mode = win.playtest
    assert mode.start(PlaytestChoice(controllers=("greedy", "greedy"), seed=2))
    s = mode.session
    state = s.state
    bip = mode.views.bip
    used = None
    for _ in range(400):  # F7, one action at a time, until an AI uses an area ability
        n = len(state.events)
        QTest.keyClick(win.view, Qt.Key.Key_F7)
        used = next((e for e in state.events[n:] if isinstance(e, AbilityUsed)), None)
        if used is not None or s.result is not None:
            break
    assert used is not None, "no area ability was used"
    k = state.events.index(used)
    hits = [e for e in state.events[k + 1:] if isinstance(e, AreaHit)]
    assert hits
    text = bip.attack_text.text()
    assert bip.attack_box.isVisible() and not bip.confirm_button.isVisible()
    assert text.startswith(f"<b>{state.names[used.actor]} used {used.ability}")
    for h in hits:  # a line per victim, with its own roll
        assert (f"<b>{state.names[h.target]}{' (ally)' if h.ally else ''}: "
                f"{'Hit' if h.success else 'Miss'}</b> roll {h.roll} vs {h.difficulty}, "
                f"{h.damage} damage") in text
    qtbot.wait(20)  # laid out: the whole text, scrolling in its box when it is longer
    label = bip.attack_text
    assert label.height() >= label.heightForWidth(label.width())
    assert bip.attack_scroll.viewport().height() >= 3 * label.fontMetrics().lineSpacing()
    # the next turn begins: the result goes
    while not any(isinstance(e, TurnStarted) for e in state.events[k:]):
        QTest.keyClick(win.view, Qt.Key.Key_F7)
    assert mode.model.roll is None and not bip.attack_box.isVisible()
    # played out: the result table counts the damage of areas as of Basic Attacks
    mode.bar.speed.setCurrentText("instant")
    QTest.keyClick(win.view, Qt.Key.Key_F6)
    qtbot.waitUntil(lambda: s.result is not None, timeout=120000)
    table, result = bip.result.table, bip.result
    shown = {table.item(r, 0).text(): int(table.item(r, 2).text()) for r in result.rows}
    dealt = dict.fromkeys(state.names, 0)
    for e in state.events:
        if isinstance(e, Attacked | AreaHit):
            dealt[state.names[e.actor]] += e.damage
    assert sum(e.damage for e in state.events if isinstance(e, AreaHit)) > 0
    assert shown == dealt
