"""Maps rebuilt from the rulebook's text, used by the sample map files, tests and docs.

The rulebook's pictures are lost; these layouts are built so that every sentence
of the text about them holds (see docs/rules.md).
"""

from __future__ import annotations

from .model import Character, Edge, MapModel

#: Expected results of the *Elevated Terrain LoS* diagram, from the rulebook's
#: per-character paragraphs: (viewer, target) -> class.
RULEBOOK_ELEVATED_LOS_EXPECTED: dict[tuple[str, str], str] = {}


def _expect(viewer: str, clear: str = "", impeded: str = "", blocked: str = "") -> None:
    for label, names in (("clear", clear), ("impeded", impeded), ("blocked", blocked)):
        for target in names.split():
            RULEBOOK_ELEVATED_LOS_EXPECTED[(viewer, target)] = label


# "Purple: The Purple character only has LoS to the Green character."
_expect("purple", clear="green", blocked="blue red yellow orange")
# "Green: The Green character has LoS to every other character. ... the Green
#  character's LoS is still affected by that tile of Impeding Terrain."
_expect("green", clear="purple blue red yellow", impeded="orange")
# "Red: ... LoS to the Green, Yellow, and Orange characters, though its LoS to the
#  Yellow and Orange characters is impeded by terrain. It's LoS to the Blue character
#  is obstructed"
_expect("red", clear="green", impeded="yellow orange", blocked="blue purple")
# "Yellow: ... LoS to the Green, Red, and Orange characters, though its LoS to the
#  Red character is impeded ... the Yellow and Orange characters are adjacent"
_expect("yellow", clear="green orange", impeded="red", blocked="blue purple")
# "Orange: ... LoS to the Green, Red, and Yellow characters, though its LoS to the
#  Red character is impeded by the terrain between them"
_expect("orange", clear="green yellow", impeded="red", blocked="blue purple")
# "Blue: The Blue character only has LoS to the Green character."
_expect("blue", clear="green", blocked="purple red yellow orange")


def rulebook_elevated_los() -> MapModel:
    """The *Elevated Terrain LoS* diagram, 13x5.

    Two level-1 plateaus (columns 0-3 and 9-12, red outlines) with grounded
    terrain between.  Purple (1,2) is inside the left plateau, Green (3,2) on its
    rim; Blue (11,2) inside the right plateau.  Grounded: Red (5,2), Yellow
    (7,2), and Orange (7,3) on an Impeding tile beside Yellow; a second
    Impeding tile (6,2), diagonally contiguous with Orange's, lies between Red
    and Yellow/Orange.
    """
    m = MapModel(13, 5, name="Rulebook: Elevated Terrain LoS")
    m.description = (
        "The rulebook's Elevated Terrain LoS diagram rebuilt from its text: "
        "Purple, Green and Blue elevated; Red, Yellow and Orange grounded; "
        "Orange on Impeding terrain beside Yellow."
    )
    m.elevation[:, 0:4] = 1
    m.elevation[:, 9:13] = 1
    impeding = m.registry.id_of("impeding")
    m.terrain[2, 6] = impeding
    m.terrain[3, 7] = impeding
    for cid, team, x, y in (
        ("purple", "elevated", 1, 2),
        ("green", "elevated", 3, 2),
        ("blue", "elevated", 11, 2),
        ("red", "grounded", 5, 2),
        ("yellow", "grounded", 7, 2),
        ("orange", "grounded", 7, 3),
    ):
        m.characters[cid] = Character(cid, team, x, y, name=cid.capitalize())
    m.notify_bulk_change()
    return m


def rulebook_wall_between_plateaus() -> MapModel:
    """*Obstructing Terrain Elevation*: the diagram with "a wall of Obstructing
    Terrain between the two groups of Elevated Terrain ... between the Red
    character and the Impeding Terrain" (a grounded Obstructing border)."""
    m = rulebook_elevated_los()
    m.name = "Rulebook: wall between the plateaus"
    m.set_border(Edge(5, 2, "E"), m.registry.id_of("obstructing"))
    return m
