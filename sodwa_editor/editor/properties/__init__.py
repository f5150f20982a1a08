"""Terrain properties and custom properties in the editor (issue 27): the typed
custom-properties editor (:mod:`.custom_editor`) and its undo commands
(:mod:`.commands`), the palette's presets and the terrain type dialog, the
property marks on the map, their legend, toggles and filter, and light sources."""
