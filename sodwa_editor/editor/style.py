"""Every colour, pen width and size the editor draws with, in one place.

Rulebook drawing conventions (*Terrain Types*): Obstructing is a thick black
line, Impeding thick yellow, Difficult thick gray, Elevated red; transition
tiles are highlighted green and transition borders are gaps in the red outline.
Liquid has no rulebook colour: the editor draws it **blue** (``LIQUID``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from PySide6.QtGui import QColor

from ..engine.terrain import Base  # noqa: F401  (style.Base: the keys of FILL, OUTLINE)
from ..io import palette

#: Scene units per tile (a tile is TILE x TILE scene pixels at 100% zoom).
TILE = 32

# --------------------------------------------------------------- outlines
#: Group outline / border colour per base type (rulebook conventions; Liquid blue
#: is the editor's choice).
OUTLINE = {base: QColor(*rgb) for base, rgb in palette.OUTLINE.items()}
ELEVATED = QColor(214, 30, 30)
TRANSITION = QColor(30, 170, 60)

#: Pen widths (scene units).  Borders are centred on their edge; the red
#: elevation outline runs just inside the higher tiles, the terrain group
#: outlines just inside that, so the three never hide one another.
BORDER_WIDTH = 6.0
ELEVATION_WIDTH = 3.0
OUTLINE_WIDTH = 3.0
ELEVATION_INSET = BORDER_WIDTH / 2 + ELEVATION_WIDTH / 2
OUTLINE_INSET = ELEVATION_INSET + ELEVATION_WIDTH / 2 + OUTLINE_WIDTH / 2

# ------------------------------------------------------------------ fills
# The tile colours are plain RGB(A) in io/palette.py, so that the Tiled tileset
# (written without Qt) has them too: the tile fill per base type, the indoor
# obstruction's near-black and hatch, the elevation shading (level n tinted with
# ELEVATION_TINT at elevation_alpha(n)), the transition tile and zone tints.
FILL = palette.FILL
FILL_INDOOR_OBSTRUCTING = palette.FILL_INDOOR_OBSTRUCTING
INDOOR_HATCH = QColor(*palette.INDOOR_HATCH_RGBA)
#: Indoor obstruction borders get a white dashed core line.
INDOOR_BORDER_CORE = QColor(255, 255, 255)
ELEVATION_TINT = palette.ELEVATION_TINT
ELEVATION_ALPHA_FIRST = palette.ELEVATION_ALPHA_FIRST
ELEVATION_ALPHA_MAX = palette.ELEVATION_ALPHA_MAX
elevation_alpha = palette.elevation_alpha
special_fills = palette.special_fills
LEVEL_NUMBER = QColor(*palette.LEVEL_NUMBER_RGBA)
#: the plate under a level number while the adjacency graph is shown
LEVEL_PLATE = QColor(250, 246, 236, 235)
TRANSITION_TILE_RGBA = palette.TRANSITION_TILE_RGBA
START_ZONE_ALPHA = palette.START_ZONE_ALPHA
#: start zones also get a dashed line in the team colour, this far inside
ZONE_OUTLINE_WIDTH = 2.0
ZONE_OUTLINE_INSET = 2.0

#: Opaque on purpose: Qt's raster engine blends translucent lines ~10x slower.
GRID = QColor(196, 190, 176)
LABEL = QColor(20, 20, 20)
COORDINATES = QColor(215, 215, 220)
BACKGROUND = QColor(70, 72, 78)
SELECTION = QColor(40, 120, 255)
#: the selection's outline runs this far (scene units) inside the selected tiles,
#: inside the borders, the red elevation line and the terrain outlines of their
#: edges (on the grid line it sat exactly on the walls)
SELECTION_INSET = OUTLINE_INSET + OUTLINE_WIDTH / 2 + 1
HOVER = QColor(255, 255, 255, 150)
PREVIEW = QColor(40, 120, 255, 110)
#: opacity of the paste preview (the stamp drawn as it will look)
STAMP_OPACITY = 0.6
#: the fill preview: the region tinted with the fill of the terrain the click
#: paints (the tiles as they will look, never the preview blue, which reads as
#: Liquid or the blue team), edged with a dark dashed line
FILL_PREVIEW_ALPHA = 200
FILL_PREVIEW_EDGE = QColor(20, 20, 20)
#: where paste would replace a neighbour's border or close its door (the
#: vermillion of the previews, on a white halo)
REPLACED_BORDER = QColor(213, 94, 0)
FOCUS = QColor(255, 0, 200)

# --------------------------------------------------------------- previews
#: Okabe & Ito's colour-blind-safe palette (Color Universal Design, 2008).
OKABE_ITO = {
    "black": QColor(0, 0, 0), "orange": QColor(230, 159, 0), "sky blue": QColor(86, 180, 233),
    "bluish green": QColor(0, 158, 115), "yellow": QColor(240, 228, 66),
    "blue": QColor(0, 114, 178), "vermillion": QColor(213, 94, 0),
    "reddish purple": QColor(204, 121, 167),
}
#: Previews are drawn so that they read over every terrain fill, elevation
#: shade, zone and team colour (tests/test_editor_legibility.py checks each
#: against all of them): lines and hatching are dark on a white halo, the
#: prominent lines (LoS line, path, deciding feature) coloured on a white halo
#: cased in black, regions shaded or hatched rather than tinted with a hue, and
#: hues come from :data:`OKABE_ITO` (darkened where they must stand on white).
HALO = QColor(255, 255, 255)
CASING = QColor(0, 0, 0)
#: contrast (WCAG ratio) a preview line needs against the background, from its
#: core or one of its halos
MIN_CONTRAST = 3.0
#: LoS fan per Crossing (clear, impeded, blocked), premultiplied into the fan
#: image: clear is left as the map is; impeded gets a faint blue (the hatch
#: carries it when tiles are 6+ px); blocked is shaded dark ("out of sight").
LOS_RGBA = ((0, 0, 0, 0), (0, 114, 178, 48), (0, 0, 0, 115))
#: impeded tiles are hatched with this colour (diagonal lines on a white halo)
LOS_HATCH = QColor(0, 60, 140)  # Okabe-Ito blue, darkened
LOS_HATCH_SPACING = 11  # screen pixels between hatch lines
#: the edge of the blocked region: a dark line on a white halo (screen pixels)
LOS_EDGE = QColor(0, 0, 0)
LOS_EDGE_WIDTH = 1.5
#: the LoS line to a hovered target, per Crossing: colour and pen style
LOS_LINE = (OKABE_ITO["bluish green"], OKABE_ITO["blue"], OKABE_ITO["vermillion"])
LOS_LINE_STYLE = ("solid", "dash", "dot")
LINE_WIDTH = 3.0  # screen pixels; the halo is LINE_HALO wider on each side,
LINE_HALO = 1.5  # the casing one pixel more
#: the movement path to a hovered target
PATH_LINE = OKABE_ITO["black"]
#: the tile, edge or corner that decided a blocked or impeded line (drawn in the
#: line's colour on a white halo, this wide in screen pixels)
CULPRIT_WIDTH = 4.0
#: movement range: reachable tiles faintly tinted and edged (dark line on a
#: white halo); tiles where movement must stop hatched in vermillion
REACH_RGBA = (86, 180, 233, 60)
REACH_STOP_RGBA = (213, 94, 0, 60)
REACH_EDGE = QColor(0, 0, 0)
REACH_STOP_HATCH = QColor(130, 30, 0)  # Okabe-Ito vermillion, darkened
#: adjacency graph on a white halo: adjacent pairs dark blue, impeded pairs dark
#: vermillion (and wider), a black tick across neighbours that are not adjacent
GRAPH_CLEAR = QColor(0, 60, 140)
GRAPH_IMPEDED = QColor(130, 30, 0)
GRAPH_BLOCKED = OKABE_ITO["black"]


#: an area of effect (the AoE template tool, an area ability aimed in a playtest):
#: the tiles it affects tinted reddish purple and edged dark on a white halo; the
#: tiles it would reach on an open map and does not (a wall, a level, out of Range)
#: crossed out in dark grey on a white halo (another look, never a tint); its point
#: of origin ringed
AREA_RGBA = (204, 121, 167, 105)
AREA_EDGE = QColor(110, 30, 80)  # Okabe-Ito reddish purple, darkened
AREA_STOP = QColor(40, 40, 40)
#: an effect that stays on the board (a lingering area; a falling object's landing
#: zone dashed): orange, edged dark orange, its name and upkeeps written at its origin
EFFECT_RGBA = (230, 159, 0, 70)
EFFECT_EDGE = QColor(120, 70, 0)  # Okabe-Ito orange, darkened
AREA_WIDTH = 2.0  # screen pixels of the edge (on a white halo)


def legible(core: QColor, halos: Sequence[QColor], background: QColor) -> bool:
    """Whether a line of ``core`` drawn on ``halos`` (innermost first) stands out
    from ``background``: the core stands out from its innermost halo, and the
    core or a halo reaches :data:`MIN_CONTRAST` against the background."""
    if halos and contrast(core, halos[0]) < MIN_CONTRAST:
        return False
    return any(contrast(c, background) >= MIN_CONTRAST for c in (core, *halos))


def contrast(a: QColor, b: QColor) -> float:
    """WCAG contrast ratio of two opaque colours (1 = the same, 21 = black/white)."""
    def lum(c: QColor) -> float:
        ch = []
        for v in (c.redF(), c.greenF(), c.blueF()):
            ch.append(v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4)
        return 0.2126 * ch[0] + 0.7152 * ch[1] + 0.0722 * ch[2]
    hi, lo = sorted((lum(a), lum(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


# ------------------------------------------------------------------ teams
TEAM_PALETTE = (
    QColor(40, 100, 230), QColor(220, 50, 50), QColor(40, 170, 80), QColor(230, 160, 20),
    QColor(150, 60, 200), QColor(20, 170, 190), QColor(230, 90, 170), QColor(120, 90, 50),
    QColor(240, 110, 20), QColor(140, 190, 20), QColor(90, 70, 200), QColor(200, 40, 120),
)


def team_colors(teams: Iterable[str]) -> dict[str, QColor]:
    """Colour of each team of a map: its own name when that names a colour
    ("red"); every other team, in name order, gets the :data:`TEAM_PALETTE`
    colour farthest (:func:`color_distance`) from the colours already taken, so
    that "goblins" beside "red" is not another red."""
    out: dict[str, QColor] = {}
    for team in sorted(teams):
        if QColor.isValidColorName(team):
            out[team] = QColor(team)
    for team in sorted(teams):
        if team not in out:
            taken = list(out.values())
            out[team] = QColor(max(TEAM_PALETTE, key=lambda c: min(
                (color_distance(c, t) for t in taken), default=0.0)))
    return out


def color_distance(a: QColor, b: QColor) -> float:
    """How far apart two team colours look, 0 (the same) to 180: the hue angle
    between two vivid colours (plus a little for lightness), the lightness
    difference between two greys (black, white, grey), 180 between a vivid
    colour and a grey."""
    vivid_a, vivid_b = a.hsvSaturation() > 80, b.hsvSaturation() > 80
    if vivid_a != vivid_b:
        return 180.0
    if not vivid_a:
        return abs(a.lightness() - b.lightness()) * 180 / 255
    d = abs(a.hsvHue() - b.hsvHue())
    return min(d, 360 - d) + abs(a.lightness() - b.lightness()) / 8


def label_color(fill: QColor) -> QColor:
    """Black or white, whichever reads better on ``fill`` (perceived luminance)."""
    luminance = 0.299 * fill.red() + 0.587 * fill.green() + 0.114 * fill.blue()
    return QColor(0, 0, 0) if luminance > 150 else QColor(255, 255, 255)


def map_team_colors(model) -> dict[str, QColor]:
    teams = set(model.start_zones) | {c.team for c in model.characters.values()}
    return team_colors(teams)


def team_color(team: str) -> QColor:
    """Colour of a team on its own (no map context)."""
    return team_colors([team])[team]
