"""Playtest mode (issue 13): play or watch a battle on the map being edited.

:mod:`.mode` enters and leaves the mode (the document is never touched),
:mod:`.setup_dialog` chooses controllers, teams, rules and seed,
:mod:`.board_items` draws the battle on the map, :mod:`.controls` holds the
playback tool bar and :mod:`.result_panel` the end of a battle.
"""
