"""Playtest mode (issue 13): play or watch a battle on the map being edited.

:mod:`.model` is the playtest model (the battle session with Qt signals, the
AI playback) that every view below takes; :mod:`.origin` is how a battle was
set up (what Restart plays again) and :mod:`.status` what the game waits for,
in words.  :mod:`.mode` enters and leaves the mode (the document is never
touched), :mod:`.setup_dialog` chooses controllers, teams, rules and seed,
:mod:`.board_items` draws the battle on the map, :mod:`.human_turn` takes a
person's clicks, :mod:`.controls` holds the playback actions and tool bar.
The Battle UI as the rulebook lays it out (placed by :mod:`.battle_views`):
:mod:`.tsb_bar` across the top, :mod:`.character_panel` bottom left and right
(with :mod:`.action_shot` and :mod:`.portraits`), :mod:`.battle_panel` the
Battle Information Panel in the bottom middle (with :mod:`.tile_info` and
:mod:`.result_panel`).
"""
