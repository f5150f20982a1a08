"""S28: a Cover tile's Defense (terrain properties, TP-B1) and the companion's cover on
the line (S20) count once: the larger stands."""

from __future__ import annotations

from sodwa_editor.battle.attack import Modifier
from sodwa_editor.battle.targeting import best_cover


def test_cover_of_a_tile_and_cover_on_the_line_count_once():
    tile = Modifier("cover (cover terrain)", "defense", 20)
    unseen = Modifier("attacker unseen (no Evasion)", "evasion", -15)
    heavy = Modifier("heavily covered", "defense", 40)
    covered = Modifier("covered", "defense", 20)
    flanked = Modifier("flanked by 2 foes (2 squares)", "evasion", -10)
    assert best_cover((tile, unseen), (heavy, flanked)) == (unseen, heavy, flanked)
    assert best_cover((tile, unseen), (covered,)) == (unseen, covered)  # a tie: one of them
    assert best_cover((Modifier("cover (high ground)", "defense", 30),), (covered,)) == (
        Modifier("cover (high ground)", "defense", 30),)
    assert best_cover((tile,), (flanked,)) == (tile, flanked)  # nothing to choose between
    assert best_cover((), (heavy,)) == (heavy,)
