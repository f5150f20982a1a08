"""Playtest mode (issue 13): play or watch a battle on the map being edited.

:mod:`.model` is the playtest model (the battle session with Qt signals, the
AI playback) that every view below takes; :mod:`.mode` enters and leaves the
mode (the document is never touched), :mod:`.setup_dialog` chooses
controllers, teams, rules and seed, :mod:`.board_items` draws the battle on the
map, :mod:`.human_turn` takes a person's clicks, :mod:`.controls` holds the
playback actions and tool bar, :mod:`.tsb_bar` and :mod:`.character_panel` the
Battle UI around the view (placed by :mod:`.battle_views`),
:mod:`.battle_panel` the Battle dock and :mod:`.result_panel` the end of a
battle.
"""
