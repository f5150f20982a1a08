"""The terrain description of a tile of the battle, for the Battle Information
Panel (RB *The Battle UI*: the BIP shows "terrain descriptions"; issue 24: "the
BIP also shows the terrain description of the hovered tile").  Qt-free.

It reads the battle's own board (a wall destroyed in this battle is rubble here,
not on the document's map) and says what the tile is, what its terrain does to
movement and line of sight (RB *Terrain Types*, with the numbers of the battle's
rules), its level, its borders, the damage an Obstructing tile or border has
taken towards its threshold, and who and what stands there.
"""

from __future__ import annotations

from ...battle.describe import side_label
from ...battle.state import BattleState
from ...engine.model import Edge, MapModel
from ...engine.terrain import Base, TerrainType

#: the four sides of a tile: name, and the edge key of (x, y)'s side
SIDES = (("north", 0, -1, "S"), ("west", -1, 0, "E"), ("east", 0, 0, "E"),
         ("south", 0, 0, "S"))


def effect(t: TerrainType, state: BattleState) -> str:
    """What a terrain type does (RB *Terrain Types*), with the rules' numbers."""
    r = state.rules
    if t.base is Base.CLEAR:
        return "no effect"
    if t.base is Base.OBSTRUCTING:
        return (f"blocks movement and LoS; destroyed by {r.terrain.obstruction_damage_threshold}"
                " damage")
    if t.base is Base.IMPEDING:
        return (f"LoS through it is impeded (+{r.modifiers.impeded_defense} Defense); "
                "entering it ends a move")
    what = "entering it ends a move; no effect on LoS"
    if t.base is Base.LIQUID:
        liquid = r.terrain.liquid
        mods = [f"{name} {value:+d}" for name, value in (
            ("Accuracy", liquid.accuracy), ("Defense", liquid.defense),
            ("Evasion", liquid.evasion), ("Move", liquid.move)) if value]
        if mods:
            what += "; in it: " + ", ".join(mods)
    return what


def _damage(state: BattleState, feature: tuple[int, int, str]) -> str:
    taken = state.damage.get(feature, 0)
    if not taken:
        return ""
    return f", damage {taken} of {state.rules.terrain.obstruction_damage_threshold}"


def _edge(m: MapModel, x: int, y: int, dx: int, dy: int, side: str) -> Edge | None:
    edge = Edge(x + dx, y + dy, side)  # type: ignore[arg-type]
    return edge if m.edge_in_bounds(edge) else None


def tile_description(state: BattleState, x: int, y: int) -> str:
    """The tile (x, y) of ``state``'s board in words ('' off the map)."""
    m = state.board.model
    if not m.in_bounds(x, y):
        return ""
    t = m.registry[int(m.terrain[y, x])]
    kind = t.name if t.base.label == t.name else f"{t.name} ({t.base.label})"
    parts = [f"{kind}: {effect(t, state)}"]
    if t.base is Base.OBSTRUCTING:
        parts[0] += (", indoor" if m.tile_is_indoor(x, y) else ", outdoor") + _damage(
            state, (x, y, ""))
    if (x, y, "") in state.destroyed:
        parts.append("rubble of a wall destroyed in this battle")
    level = int(m.elevation[y, x])
    parts.append(f"level {level}" + (" (elevated)" if level > 0 else ""))
    if m.transition[y, x]:
        parts.append("a transition tile (Difficult between levels)")
    borders = []
    for name, dx, dy, side in SIDES:
        edge = _edge(m, x, y, dx, dy, side)
        if edge is None:
            continue
        b = m.border_at(edge)
        if b:
            bt = m.registry[b]
            text = f"{name} {bt.name}"
            if bt.base is Base.OBSTRUCTING:
                text += _damage(state, (edge.x, edge.y, edge.side))
            borders.append(text)
        elif m.is_transition_edge(edge):
            borders.append(f"{name} transition")
    if borders:
        parts.append("borders: " + ", ".join(borders))
    who = state.at((x, y))
    if who is not None:
        f = state.fighters[who]
        parts.append(f"{state.names[who]} ({side_label(f.side, f.team)}) stands here")
    things = [o.kind for o in m.objects_at(x, y)]
    if things:
        parts.append(", ".join(things))
    return f"Tile {x}, {y}: " + "; ".join(parts)
