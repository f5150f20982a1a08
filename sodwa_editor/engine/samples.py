"""Maps rebuilt from the rulebook's text, used by the sample map files, tests and docs.

The rulebook's pictures are lost; these layouts are built so that every sentence
of the text about them holds (see docs/rules.md).
"""

from __future__ import annotations

from .model import Character, Edge, MapModel, MapObject
from .terrain import Base

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
        m.start_zones.setdefault(team, set()).add((x, y))
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



def _rect(m: MapModel, x0: int, y0: int, x1: int, y1: int, terrain: str) -> None:
    m.terrain[y0 : y1 + 1, x0 : x1 + 1] = m.registry.id_of(terrain)


def _borders(m: MapModel, edges: list[Edge], terrain: str = "obstructing") -> None:
    tid = m.registry.id_of(terrain)
    for e in edges:
        m.set_border(e, tid)


def _h_line(y: int, x0: int, x1: int) -> list[Edge]:
    """South edges of row ``y`` from column x0 to x1 (a horizontal border line)."""
    return [Edge(x, y, "S") for x in range(x0, x1 + 1)]


def _v_line(x: int, y0: int, y1: int) -> list[Edge]:
    """East edges of column ``x`` from row y0 to y1 (a vertical border line)."""
    return [Edge(x, y, "E") for y in range(y0, y1 + 1)]


def _team(m: MapModel, team: str, zone: list[tuple[int, int]],
          members: list[tuple[str, int, int, int, int]]) -> None:
    m.start_zones[team] = set(zone)
    for cid, x, y, move, rng in members:
        m.characters[cid] = Character(cid, team, x, y, move=move, range=rng,
                                      name=cid.replace("-", " ").title())


def _box(x0: int, y0: int, x1: int, y1: int) -> list[tuple[int, int]]:
    return [(x, y) for y in range(y0, y1 + 1) for x in range(x0, x1 + 1)]


def indoor_compound() -> MapModel:
    """Indoor map, 20x14: halls walled with Obstructing borders, doorways as gaps,
    an Impeding curtain, a pillar, rubble, a raised stage (level 1) reached by a
    stair transition tile, crates and two teams."""
    m = MapModel(20, 14, name="Indoor compound", setting="indoor")
    m.description = (
        "Walls are Obstructing borders (indoor: flight cannot pass them); doorways are "
        "gaps; a curtain is an Impeding border; the stage is level 1, reached by stairs."
    )
    _borders(m, [e for e in _v_line(8, 0, 13) if e.y not in (3, 10)])  # doors at rows 3, 10
    _borders(m, [e for e in _v_line(10, 0, 13) if e.y not in (6, 7)])  # double door
    _borders(m, [e for e in _h_line(6, 0, 8) if e.x != 4])  # door at x 4
    _borders(m, _h_line(6, 11, 15) + _h_line(6, 18, 19))
    _borders(m, _h_line(6, 16, 17), "impeding")  # curtained doorway
    _rect(m, 2, 9, 3, 10, "obstructing")  # pillar
    _rect(m, 13, 9, 14, 9, "difficult")  # rubble
    m.elevation[0:4, 12:16] = 1  # stage
    m.transition[4, 13] = True  # stairs, entered from the hall, up to the stage
    m.set_transition_edge(Edge(13, 3, "S"), True)
    m.objects["crate-1"] = MapObject("crate-1", "crate", 5, 2)
    m.objects["crate-2"] = MapObject("crate-2", "crate", 16, 11)
    _team(m, "blue", _box(0, 0, 2, 2),
          [("knight", 0, 0, 5, 1), ("archer", 1, 1, 5, 8), ("mage", 2, 0, 4, 6)])
    _team(m, "red", _box(17, 11, 19, 13),
          [("brute", 19, 13, 5, 1), ("sniper", 18, 12, 4, 9), ("rogue", 17, 11, 6, 3)])
    m.notify_bulk_change()
    return m


def tiered_keep() -> MapModel:
    """Multi-level map, 16x16: a level-1 terrace around a level-2 keep top with its
    rim, joined to the ground and to each other by stairs (transition tiles and
    transition borders), and a level-1 outcrop reachable only by a ladder
    (a bare transition border)."""
    m = MapModel(16, 16, name="Tiered keep")
    m.description = (
        "Ground (0), terrace (1) and keep top (2). Stairs are transition tiles with a "
        "transition border to the level above; the outcrop has a ladder only."
    )
    m.elevation[3:13, 3:13] = 1  # terrace
    m.elevation[6:10, 6:10] = 2  # keep top; its outer ring is the rim
    m.transition[13, 7] = True  # ground stairs south, up to the terrace
    m.set_transition_edge(Edge(7, 12, "S"), True)
    m.transition[10, 8] = True  # terrace stairs up to the keep top
    m.set_transition_edge(Edge(8, 9, "S"), True)
    m.elevation[0:2, 13:16] = 1  # outcrop, ladder from the ground
    m.set_transition_edge(Edge(13, 1, "S"), True)
    _borders(m, [Edge(6, 6, "E"), Edge(7, 6, "E")], "impeding")  # parapet on the keep top
    _rect(m, 4, 4, 4, 5, "impeding")  # bushes on the terrace
    _rect(m, 0, 10, 1, 15, "liquid")  # moat
    _team(m, "attackers", _box(2, 14, 12, 15),
          [("ram", 2, 14, 4, 1), ("scout", 5, 14, 7, 5), ("slinger", 9, 14, 5, 7)])
    _team(m, "defenders", _box(6, 6, 9, 9),
          [("captain", 7, 7, 4, 2), ("bowman", 8, 8, 4, 9)])
    m.characters["flyer"] = Character("flyer", "attackers", 12, 15, move=8, range=3,
                                      flight=True, name="Flyer")
    m.notify_bulk_change()
    return m


def outdoor_skirmish() -> MapModel:
    """Outdoor map, 24x18 with every terrain type: clear, Impeding forest, Obstructing
    rocks (outdoor: flyers pass over) and one Indoor-flagged ruin wall, Difficult
    rubble, a Liquid river, a special Icy type (base Difficult), Impeding fences and
    Obstructing walls as borders, a hill (level 1) with a transition tile, objects
    and two teams."""
    m = MapModel(24, 18, name="Outdoor skirmish")
    m.description = "Every terrain type, tile and border, on an outdoor field."
    icy = m.registry.register("icy", Base.DIFFICULT,
                              custom={"reflex_save": {"type": "int", "value": 10}})
    _rect(m, 4, 3, 7, 6, "impeding")  # forest
    m.terrain[4, 8] = m.registry.id_of("impeding")
    _rect(m, 15, 11, 16, 12, "obstructing")  # rocks
    m.terrain[13, 17] = m.registry.id_of("obstructing")
    _rect(m, 9, 13, 11, 14, "difficult")  # rubble
    m.terrain[0:18, 12] = m.registry.id_of("liquid")  # river
    m.terrain[8:10, 12] = icy  # frozen ford
    m.elevation[2:6, 18:22] = 1  # hill
    m.transition[6, 19] = True
    m.set_transition_edge(Edge(19, 5, "S"), True)
    _borders(m, _h_line(9, 2, 6), "impeding")  # fence
    _borders(m, _v_line(8, 10, 14))  # ruin wall
    ruin = Edge(8, 12, "E")
    m.set_border(ruin, m.registry.id_of("obstructing"), indoor=True)
    _borders(m, _v_line(14, 2, 3), "difficult")  # hedge
    _borders(m, [Edge(13, 15, "S")], "liquid")  # ditch
    m.objects["cart"] = MapObject("cart", "cart", 6, 12)
    m.objects["banner"] = MapObject("banner", "banner", 20, 3, impedes_los=False)
    _team(m, "north", _box(0, 0, 3, 2),
          [("lancer", 1, 0, 6, 1), ("ranger", 2, 1, 5, 10), ("druid", 0, 2, 4, 6)])
    _team(m, "south", _box(20, 15, 23, 17),
          [("ogre", 22, 17, 4, 1), ("hawk", 21, 16, 8, 4), ("witch", 23, 15, 5, 7)])
    m.characters["hawk"].flight = True
    m.notify_bulk_change()
    return m


SAMPLE_MAPS = {
    "rulebook-elevated-los": rulebook_elevated_los,
    "indoor-compound": indoor_compound,
    "tiered-keep": tiered_keep,
    "outdoor-skirmish": outdoor_skirmish,
}
