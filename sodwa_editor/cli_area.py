"""``sodwa aoe`` (issue 25: the tiles an area of effect reaches) and the large-creature
answers of ``sodwa reach`` and ``sodwa los`` (``--size``, issue 26), thin over the engine
(:mod:`.engine.areas`, :mod:`.engine.footprint_movement`, :mod:`.engine.footprint_los`).

The Range metric and a wall's Durability of ``aoe`` come from the rules
(``targeting.range_metric``, ``terrain.obstruction_damage_threshold``):
``resources/rules.json`` unless ``--rules``.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path
from typing import Any

from .cli_common import CliError, check_tile, emit, load_map, non_negative, parse_tile

Tile = tuple[int, int]
AREA_MARKS = {"caster": "@", "origin": "o", "affected": "*", "stopped": "x"}


def size_value(text: str) -> Any:
    """argparse type of ``--size``: ``WxH`` tiles (``4x4``, ``2x3``) or a size name of
    the table (``large``, ``huge``: docs/rules.md S1)."""
    from .engine.footprint import SIZE_BY_NAME, Footprint, footprint_for
    from .engine.model import MAX_SIDE

    if text.strip().lower() in SIZE_BY_NAME:
        return footprint_for(text.strip().lower())
    if not re.fullmatch(r"\s*\d{1,6}\s*[xX]\s*\d{1,6}\s*", text):
        raise argparse.ArgumentTypeError(f"expected WxH (e.g. 4x4) or a size "
                                         f"({', '.join(SIZE_BY_NAME)}), got {text!r}")
    try:
        fp = Footprint.parse(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from exc
    if fp.width < 1 or fp.height < 1 or max(fp) > MAX_SIDE:
        raise argparse.ArgumentTypeError(f"a footprint is 1x1 to {MAX_SIDE}x{MAX_SIDE} tiles, "
                                         f"not {text!r}")
    return fp


def add_aoe_parser(sub: Any) -> None:
    """The ``aoe`` subcommand's arguments (``sub``: the ``sodwa`` subparsers)."""
    a = sub.add_parser("aoe", help="the tiles an area of effect reaches from a tile")
    a.add_argument("map", type=Path, metavar="MAP")
    a.add_argument("--from", dest="src", type=parse_tile, required=True, metavar="X,Y",
                   help="the caster's tile")
    a.add_argument("--area", required=True, metavar="NOTATION",
                   help="the area as designers write it, e.g. "
                        "'AoE - Blast - Sphere: Range: 8, Reach: 2' (docs/rules.md AE-rules)")
    aim = a.add_mutually_exclusive_group()
    aim.add_argument("--to", dest="dst", type=parse_tile, metavar="X,Y",
                     help="the tile aimed at: a Line's end, a point of origin at Range, "
                          "the direction of a Rail, Cone or Ray")
    aim.add_argument("--dir", dest="direction", metavar="N|NE|E|SE|S|SW|W|NW",
                     help="a compass direction instead of --to")
    a.add_argument("--pick", dest="chosen", type=parse_tile, action="append", default=[],
                   metavar="X,Y",
                   help="a chosen tile of a Specified area or a Trail (repeat, in order)")
    a.add_argument("--damage", type=non_negative, metavar="N",
                   help="a Blast's damage: it breaks through walls by spending it")
    a.add_argument("--rules", type=Path, metavar="FILE",
                   help="rules file for the Range metric and a wall's Durability (default "
                        "resources/rules.json)")
    a.add_argument("--json", action="store_true")


def cmd_aoe(args: argparse.Namespace) -> int:
    """``sodwa aoe``: exit 0 with the tiles, 1 when the area cannot be placed."""
    from .battle.jsonfiles import BattleInputError
    from .battle.rules import load_rules
    from .engine.area_notation import NotationError, parse_area
    from .engine.areas import COMPASS, area

    try:
        spec = parse_area(args.area)
    except NotationError as exc:
        raise CliError(f"--area: {exc}", code=2) from exc
    direction = None if args.direction is None else args.direction.upper()
    if direction is not None and direction not in COMPASS:
        raise CliError(f"--dir {args.direction}: not a compass direction (one of "
                       f"{', '.join(COMPASS)})", code=2)
    try:
        rules = load_rules(args.rules)
    except BattleInputError as exc:
        raise CliError(str(exc)) from exc
    model = load_map(args.map)
    check_tile(model, args.src, "--from")
    if args.dst is not None:
        check_tile(model, args.dst, "--to")
    for t in args.chosen:
        check_tile(model, t, "--pick")
    result = area(model, spec, args.src, target=args.dst, direction=direction,
                  chosen=args.chosen, damage=args.damage,
                  durability=rules.terrain.obstruction_damage_threshold,
                  metric=rules.targeting.range_metric,
                  occupied=[(c.x, c.y) for c in model.characters.values()])
    if args.json:
        emit(result.to_json())
        return 1 if result.refused else 0
    print(f"{spec} from {args.src[0]},{args.src[1]}")
    if result.refused:
        print(f"refused: {result.refused}")
        return 1
    print(f"{len(result.affected)} tile(s) affected, {len(result.stopped)} stopped: "
          "'*' affected, 'x' stopped, '@' caster, 'o' point of origin")
    marks = {s.tile: AREA_MARKS["stopped"] for s in result.stopped}
    marks.update(dict.fromkeys(result.affected, AREA_MARKS["affected"]))
    if result.origin is not None and result.origin != result.caster:
        marks[result.origin] = AREA_MARKS["origin"]
    marks[result.caster] = AREA_MARKS["caster"]
    for y in range(model.height):
        print("".join(marks.get((x, y), ".") for x in range(model.width)))
    if result.damage is not None:
        print("damage left: " + ", ".join(f"{x},{y}={result.damage[(x, y)]}"
                                          for x, y in result.affected))
        if result.walls:
            print("walls broken: " + ", ".join(",".join(str(v) for v in w[1:])
                                               for w in result.walls))
    for s in result.stopped:
        print(f"stopped {s.tile[0]},{s.tile[1]}: {s.reason.text}")
    return 0


def footprint_reach_answer(model: Any, args: argparse.Namespace) -> int:
    """``sodwa reach --size``: the positions (top-left tiles) a creature of that footprint
    whose top-left tile is ``--from`` may end its move on (docs/rules.md S6-S8)."""
    from .engine.footprint import cannot_stand
    from .engine.footprint_movement import footprint_reach

    fp = args.size
    mover = model.character_at(*args.src)
    others = [c for c in model.characters.values() if c is not mover]
    if not _fits(model, args.src, fp):
        raise CliError(f"a {fp.width}x{fp.height} creature with its top-left tile on "
                       f"{args.src[0]},{args.src[1]} does not fit on the "
                       f"{model.width}x{model.height} map", code=2)
    why = cannot_stand(model, tuple(args.src), fp, others=[(c.x, c.y, c.id) for c in others])
    if why is not None:
        raise CliError(f"a {fp.width}x{fp.height} creature cannot stand with its top-left "
                       f"tile on {args.src[0]},{args.src[1]}: {why.text}")
    if args.move is None and mover is None:
        raise CliError(f"no character stands on {args.src[0]},{args.src[1]}: give --move N",
                       code=2)
    move = args.move if args.move is not None else mover.move
    result = footprint_reach(model, tuple(args.src), fp, move,
                             team=None if mover is None else mover.team,
                             flight=False if mover is None else mover.flight,
                             occupants=[(c.x, c.y, c.team) for c in others])
    tiles = result.tiles()
    if args.json:
        data: dict[str, Any] = {"from": list(args.src), "size": [fp.width, fp.height],
                                "move": result.move,
                                "reachable": [{"tile": list(t), "steps": info.steps,
                                               "must_stop": info.must_stop}
                                              for t, info in sorted(tiles.items(),
                                                                    key=lambda i: i[0][::-1])]}
        if args.dst is not None:
            path = result.path_to(tuple(args.dst))
            data["to"] = list(args.dst)
            data["path"] = None if path is None else [list(t) for t in path]
        emit(data)
        return 0
    print(f"{fp.width}x{fp.height} creature from {args.src[0]},{args.src[1]} (its top-left "
          f"tile), Move {result.move}: steps to each top-left tile it may end on, '*' must "
          "stop there")
    _grid(model, tiles, args.src)
    if args.dst is not None:
        path = result.path_to(tuple(args.dst))
        print("path: " + ("none" if path is None else
                          " -> ".join(f"{x},{y}" for x, y in path)))
    return 0


def _fits(model: Any, anchor: Tile, fp: Any) -> bool:
    return anchor[0] + fp.width <= model.width and anchor[1] + fp.height <= model.height


def _grid(model: Any, tiles: dict[Tile, Any], src: Tile) -> None:
    for y in range(model.height):
        row = []
        for x in range(model.width):
            info = tiles.get((x, y))
            if (x, y) == tuple(src):
                row.append("@")
            elif info is None:
                row.append(".")
            else:
                row.append("*" if info.must_stop else _digit(info.steps))
        print("".join(row))


def _digit(n: int) -> str:
    return str(n) if n < 10 else chr(ord("a") + n - 10) if n < 36 else "+"


def footprint_los_answer(model: Any, args: argparse.Namespace) -> int:
    """``sodwa los --size``: from a creature of that footprint whose top-left tile is
    ``--from`` (docs/rules.md S9), to one tile or every tile."""
    from .engine.footprint import Footprint
    from .engine.footprint_los import footprint_los, footprint_los_fan
    from .engine.terrain import Crossing

    fp = args.size
    if not _fits(model, args.src, fp):
        raise CliError(f"a {fp.width}x{fp.height} creature with its top-left tile on "
                       f"{args.src[0]},{args.src[1]} does not fit on the "
                       f"{model.width}x{model.height} map", code=2)
    mine = set(fp.squares(tuple(args.src)))
    occupied = [(c.x, c.y) for c in model.characters.values() if (c.x, c.y) not in mine]
    if args.dst is not None:
        if tuple(args.dst) in mine:
            raise CliError(f"--to {args.dst[0]},{args.dst[1]} is one of the creature's own "
                           "tiles", code=2)
        r = footprint_los(model, tuple(args.src), fp, tuple(args.dst), Footprint(1, 1),
                          occupied=occupied)
        if args.json:
            emit({"from": list(args.src), "size": [fp.width, fp.height],
                  "to": list(args.dst), **r.result.to_json(),
                  "line": [list(r.src), list(r.dst)]})
        else:
            print(f"{fp.width}x{fp.height} at {args.src[0]},{args.src[1]} -> "
                  f"{args.dst[0]},{args.dst[1]}: {r.describe()}")
        return 0
    fan = footprint_los_fan(model, tuple(args.src), fp, occupied=occupied)
    if args.json:
        emit({"from": list(args.src), "size": [fp.width, fp.height], "width": model.width,
              "height": model.height, "legend": {str(int(c)): c.label for c in Crossing},
              "counts": {c.label: int((fan == c).sum()) for c in Crossing},
              "classes": fan.tolist()})
        return 0
    print(f"LoS from the {fp.width}x{fp.height} creature at {args.src[0]},{args.src[1]}: "
          "'.' clear, 'i' impeded, '#' blocked, '@' its own tiles")
    chars = {0: ".", 1: "i", 2: "#"}
    for y in range(model.height):
        print("".join("@" if (x, y) in mine else chars[int(fan[y, x])]
                      for x in range(model.width)))
    return 0
