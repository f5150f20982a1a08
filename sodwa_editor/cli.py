"""The ``sodwa`` command: validate maps and packs, query the rules engine, run benchmarks.

A thin layer over :mod:`sodwa_editor.io` and :mod:`sodwa_editor.engine`; every
rule lives in the engine.  Exit codes (:mod:`.cli_common`): 0 success, 1 the
input is invalid (or a query failed), 2 the command line is wrong, 74 the output
could not be written, 124 a battle went over its ``--time-limit``, 130
interrupted, 141 the reader of the output went away.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from . import __version__
from .cli_area import (
    add_aoe_parser,
    cmd_aoe,
    footprint_los_answer,
    footprint_reach_answer,
    size_value,
)
from .cli_common import (  # (CliError, OutputError, EXIT_OUTPUT: also imported from here)
    EXIT_OUTPUT,
    CliError,
    OutputError,
    check_output,
    check_tile,
    load_map,
    non_negative,
    parse_tile,
    say,
    short,
    whole_in,
)
from .cli_common import emit as _emit
from .cli_tiled import add_tiled_parsers, cmd_export_tiled, cmd_import_tiled

__all__ = ["EXIT_OUTPUT", "CliError", "OutputError", "main", "build_parser", "non_negative"]

Tile = tuple[int, int]
#: Largest ``bench battles --battles`` (each battle takes about 0.1 s) and ``bench
#: --repeat`` (the longest default is 2000 runs of a metric of microseconds).
MAX_BENCH_BATTLES = 1000
MAX_BENCH_REPEAT = 10000
LOS_CHARS = {0: ".", 1: "i", 2: "#"}

class _Output:
    """``sys.stdout`` while a command runs: a failed write (stdout closed, disk
    full) becomes :class:`OutputError`; a closed pipe stays ``BrokenPipeError``."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream

    def _call(self, name: str, *args: Any) -> Any:
        if self._stream is None:  # started with stdout closed (``>&-``)
            raise OutputError("standard output is closed")
        try:
            return getattr(self._stream, name)(*args)
        except BrokenPipeError:
            raise
        except (OSError, ValueError) as exc:  # (ValueError: the stream was closed)
            raise OutputError(getattr(exc, "strerror", None) or str(exc)) from exc

    def write(self, text: str) -> int:
        return self._call("write", text)

    def flush(self) -> None:
        self._call("flush")

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def _quiet_stdout(stream: Any) -> None:
    """Point file descriptor 1 at devnull, so that the interpreter's final flush of
    output that could not be written adds no second message."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), stream.fileno())


def move_value(text: str) -> int:
    """argparse type of ``--move``: a whole number from 0 to MAX_MOVE."""
    from .engine.model import MAX_MOVE

    value = non_negative(text)
    if value > MAX_MOVE:
        raise argparse.ArgumentTypeError(f"Move is at most {MAX_MOVE}, got {value}")
    return value


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="sodwa", description="SODWA map tools: validation, rules queries, map packs."
    )
    p.add_argument("--version", action="version", version=f"sodwa {__version__}")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")

    v = sub.add_parser("validate", help="validate map files and map packs")
    v.add_argument("files", nargs="+", metavar="MAP_OR_PACK", type=Path)
    v.add_argument("--json", action="store_true", help="print problems as JSON")

    los = sub.add_parser("los", help="line of sight from a tile (one target or the whole fan)")
    los.add_argument("map", type=Path, metavar="MAP")
    los.add_argument("--from", dest="src", type=parse_tile, required=True, metavar="X,Y")
    los.add_argument("--to", dest="dst", type=parse_tile, metavar="X,Y")
    los.add_argument("--size", type=size_value, metavar="WxH",
                     help="from a creature of this footprint (2x2, or large, huge ...) whose "
                          "top-left tile is --from (docs/rules.md S9)")
    los.add_argument("--json", action="store_true")

    r = sub.add_parser("reach", help="movement range from a tile")
    r.add_argument("map", type=Path, metavar="MAP")
    r.add_argument("--from", dest="src", type=parse_tile, required=True, metavar="X,Y")
    r.add_argument("--move", type=move_value, metavar="N",
                   help="Move value, 0 to 999 (default: the Move of the character on the tile)")
    r.add_argument("--to", dest="dst", type=parse_tile, metavar="X,Y",
                   help="also print the path to this tile")
    r.add_argument("--size", type=size_value, metavar="WxH",
                   help="for a creature of this footprint (2x2, or large, huge ...) whose "
                        "top-left tile is --from: the top-left tiles it may end on "
                        "(docs/rules.md S6-S8)")
    r.add_argument("--json", action="store_true")

    add_aoe_parser(sub)
    add_tiled_parsers(sub)

    g = sub.add_parser("graph", help="adjacency graph of a map")
    g.add_argument("map", type=Path, metavar="MAP")
    g.add_argument("--json", action="store_true", help="node-link JSON")

    pk = sub.add_parser("pack", help="build or validate a map pack")
    pks = pk.add_subparsers(dest="pack_command", required=True, metavar="ACTION")
    pb = pks.add_parser("build", help="bundle maps into one pack file")
    pb.add_argument("maps", nargs="+", type=Path, metavar="MAP")
    pb.add_argument("-o", "--output", type=Path, required=True, metavar="PACK.json")
    pb.add_argument("--name", help="pack name (default: output file stem)")
    pb.add_argument("--pack-version", default="1.0.0", metavar="VERSION")
    pb.add_argument("--author", default="")
    pb.add_argument("--description", default="")
    pb.add_argument("--rules", type=Path, metavar="FILE",
                    help="a rules file (schemas/rules.schema.json) the pack carries: "
                         "sodwa battle/simulate use it for the pack's maps")
    pb.add_argument("--roster", type=Path, metavar="FILE",
                    help="a roster file (schemas/roster.schema.json) the pack carries")
    pb.add_argument("--scenario", action="append", type=Path, default=[], metavar="FILE",
                    help="a scenario file (schemas/scenario.schema.json) on one of the "
                         "maps; repeat for more. sodwa battle PACK.json#NAME plays it")
    pv = pks.add_parser("validate", help="validate a pack file")
    pv.add_argument("pack", type=Path, metavar="PACK.json")
    pv.add_argument("--json", action="store_true")

    b = sub.add_parser("bench", help="run the engine benchmarks (or the battle ones)")
    b.add_argument("suite", nargs="?", choices=["engine", "battles"], default="engine",
                   help="engine (default) or battles: greedy battles/s and AI decision times")
    b.add_argument("--battles", type=whole_in(1, MAX_BENCH_BATTLES), default=8,
                   help=f"battles timed by 'bench battles', 1 to {MAX_BENCH_BATTLES} "
                        "(default 8)")
    b.add_argument("--json", action="store_true", help="metric name -> median milliseconds")
    b.add_argument("--repeat", type=whole_in(1, MAX_BENCH_REPEAT), default=None,
                   help=f"timed runs per metric, 1 to {MAX_BENCH_REPEAT} (default per metric)")

    from .cli_battle import add_parsers
    from .cli_simulate import add_parser

    add_parsers(sub)
    add_parser(sub)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    _printable_output()
    stdout = sys.stdout
    sys.stdout = _Output(stdout)
    try:
        return _run(argv)
    finally:
        sys.stdout = stdout


def _run(argv: Sequence[str] | None) -> int:
    command = "sodwa"
    try:
        args = build_parser().parse_args(argv)
        command = f"sodwa {args.command}"
        handler = {
            "validate": cmd_validate,
            "los": cmd_los,
            "reach": cmd_reach,
            "graph": cmd_graph,
            "aoe": cmd_aoe,
            "export-tiled": cmd_export_tiled,
            "import-tiled": cmd_import_tiled,
            "pack": cmd_pack,
            "bench": cmd_bench,
            "battle": _battle_command,
            "replay": _battle_command,
            "simulate": _battle_command,
        }[args.command]
        code = handler(args)
        sys.stdout.flush()
        return code
    except CliError as exc:
        say(short(f"{command}: error: {exc}"))
        if isinstance(exc, OutputError):
            _quiet_stdout(sys.stdout)
        return exc.code
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # the reader went away (``sodwa graph MAP --json | head``): stop quietly, as
        # the Python docs advise, pointing stdout at devnull so the exit flush is silent
        _quiet_stdout(sys.stdout)
        return 141


def _battle_command(args: argparse.Namespace) -> int:
    from . import cli_battle, cli_simulate

    handler = {"battle": cli_battle.cmd_battle, "replay": cli_battle.cmd_replay,
               "simulate": cli_simulate.cmd_simulate}[args.command]
    return cli_battle.run(handler, args)


# ----------------------------------------------------------------- helpers
def _printable_output() -> None:
    """File names that are not valid UTF-8 reach Python with lone surrogates in
    them; print those escaped (``\\udcff``) instead of failing where the output
    encoding is strict."""
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper) and stream.errors == "strict":
            stream.reconfigure(errors="backslashreplace")


# ---------------------------------------------------------------- commands
def cmd_validate(args: argparse.Namespace) -> int:
    from .io import read_any

    report = []
    failed = False
    for path in args.files:
        kind, problems = read_any(path)
        errors = [p for p in problems if p.severity == "error"]
        failed |= bool(errors)
        report.append({
            "file": str(path),
            "kind": kind,
            "valid": not errors,
            "problems": [p.to_json() for p in problems],
        })
        if not args.json:
            status = "ok" if not errors else f"{len(errors)} error(s)"
            warnings = len(problems) - len(errors)
            extra = f", {warnings} warning(s)" if warnings else ""
            print(f"{path}: {kind}: {status}{extra}")
            for p in problems:
                print(f"  {p.severity}: {p.location()}: {p.message}")
    if args.json:
        _emit({"valid": not failed, "files": report})
    return 1 if failed else 0


def cmd_los(args: argparse.Namespace) -> int:
    from .engine.los import los, los_fan
    from .engine.terrain import Crossing

    model = load_map(args.map)
    check_tile(model, args.src, "--from")
    if args.dst is not None:
        check_tile(model, args.dst, "--to")
    if args.size is not None:
        return footprint_los_answer(model, args)
    if args.dst is not None:
        result = los(model, args.src, args.dst)
        if args.json:
            _emit({"from": list(args.src), "to": list(args.dst), **result.to_json()})
        else:
            print(f"{args.src[0]},{args.src[1]} -> {args.dst[0]},{args.dst[1]}: "
                  f"{result.describe()}")
        return 0
    fan = los_fan(model, args.src)
    if args.json:
        counts = {c.label: int((fan == c).sum()) for c in Crossing}
        _emit({"from": list(args.src), "width": model.width, "height": model.height,
               "legend": {str(int(c)): c.label for c in Crossing},
               "counts": counts, "classes": fan.tolist()})
        return 0
    print(f"LoS from {args.src[0]},{args.src[1]}: '.' clear, 'i' impeded, '#' blocked, '@' viewer")
    for y in range(model.height):
        row = "".join(
            "@" if (x, y) == tuple(args.src) else LOS_CHARS[int(fan[y, x])]
            for x in range(model.width)
        )
        print(row)
    return 0


def cmd_reach(args: argparse.Namespace) -> int:
    from .engine.movement import reach

    model = load_map(args.map)
    check_tile(model, args.src, "--from")
    if args.dst is not None:
        check_tile(model, args.dst, "--to")
    if args.size is not None:
        return footprint_reach_answer(model, args)
    mover = model.character_at(*args.src)
    if args.move is None and mover is None:
        raise CliError(f"no character stands on {args.src[0]},{args.src[1]}: give --move N",
                       code=2)
    try:
        result = reach(model, args.src, args.move)
    except ValueError as exc:  # e.g. a negative Move: a rule error the map still loads with
        who = f"character {mover.id!r} on " if mover is not None and args.move is None else ""
        raise CliError(f"no movement range from {who}{args.src[0]},{args.src[1]}: {exc}"
                       " (fix the map, or give --move N)") from exc
    tiles = result.tiles()
    if args.json:
        data: dict[str, Any] = {"from": list(args.src), "move": result.move,
                                "reachable": [
                                    {"tile": list(t), "steps": info.steps,
                                     "must_stop": info.must_stop}
                                    for t, info in sorted(tiles.items(), key=lambda i: i[0][::-1])
                                ]}
        if args.dst is not None:
            path = result.path_to(args.dst)
            data["to"] = list(args.dst)
            data["path"] = None if path is None else [list(t) for t in path]
        _emit(data)
        return 0
    print(f"Reach from {args.src[0]},{args.src[1]} with Move {result.move}: "
          f"{len(tiles) - 1} tile(s); digits = steps, '*' = must stop there, '@' start")
    for y in range(model.height):
        row = []
        for x in range(model.width):
            info = tiles.get((x, y))
            if (x, y) == tuple(args.src):
                row.append("@")
            elif info is None:
                row.append(".")
            elif info.must_stop:
                row.append("*")
            else:
                row.append(_digit(info.steps))
        print("".join(row))
    if args.dst is not None:
        path = result.path_to(args.dst)
        shown = " -> ".join(f"{x},{y}" for x, y in path) if path else "unreachable"
        print(f"path to {args.dst[0]},{args.dst[1]}: {shown}")
    return 0


def _digit(n: int) -> str:
    return "0123456789abcdefghijklmnopqrstuvwxyz"[n] if n < 36 else "+"


def cmd_graph(args: argparse.Namespace) -> int:
    import networkx as nx

    from .engine.adjacency import blocked_pairs
    from .engine.adjacency_graph import AdjacencyGraph

    model = load_map(args.map)
    graph = AdjacencyGraph(model).graph
    blocked = blocked_pairs(model)
    if args.json:
        _emit(_node_link(graph, blocked), compact=True)
        return 0
    kinds: dict[str, int] = {}
    for _a, _b, crossing in graph.edges(data="crossing"):
        kinds[crossing] = kinds.get(crossing, 0) + 1
    comps = [c for c in nx.connected_components(graph) if len(c) > 1]
    print(f"{args.map}: {graph.number_of_nodes()} tiles, {graph.number_of_edges()} adjacencies "
          f"({', '.join(f'{n} {k}' for k, n in sorted(kinds.items()))}), "
          f"{len(blocked)} blocked neighbour pairs, {len(comps)} connected region(s)")
    return 0


def _node_link(graph: Any, blocked: list[Any]) -> dict[str, Any]:
    """``networkx.node_link_data(graph, edges="edges")`` with tiles as ``[x, y]``
    lists, plus the blocked pairs, built in one pass (on 256x256 the generic
    conversion took longer than the graph)."""
    return {
        "directed": False, "multigraph": False, "graph": {},
        "nodes": [{**attrs, "id": [x, y]} for (x, y), attrs in graph.nodes(data=True)],
        "edges": [{**attrs, "source": [ax, ay], "target": [bx, by]}
                  for (ax, ay), (bx, by), attrs in graph.edges(data=True)],
        "blocked": [{"source": list(a), "target": list(b), "reason": why}
                    for a, b, why in blocked],
    }


def cmd_pack(args: argparse.Namespace) -> int:
    from .io import build_pack, read_pack, save_pack

    if args.pack_command == "build":
        # never replace a map, the rules or roster given, or a default file with the
        # pack (also through a symbolic or hard link)
        inputs = [*args.maps, *(p for p in (args.rules, args.roster) if p is not None),
                  *args.scenario]
        check_output(args.output, inputs, "pack not written")
        pack, problems = build_pack(
            args.maps, name=args.name or args.output.stem, version=args.pack_version,
            author=args.author, description=args.description, rules=args.rules,
            roster=args.roster, scenarios=args.scenario,
        )
        errors = [p for p in problems if p.severity == "error"]
        for p in problems:
            print(f"  {p.severity}: {p}", file=sys.stderr)
        if errors or pack is None:
            raise CliError(f"pack not written: {len(errors)} error(s), listed above")
        check_output(args.output, inputs, "pack not written")  # (again, after reading)
        try:
            save_pack(pack, args.output)
        except OSError as exc:  # MapSaveError: says what and where
            raise CliError(f"pack not written: {exc}") from exc
        carried = [k for k in ("rules", "roster", "scenarios") if k in pack]
        print(f"wrote {args.output}: {len(pack['maps'])} map(s)"
              + (f" and its {' and '.join(carried)}" if carried else ""))
        return 0
    pack, problems = read_pack(args.pack)
    errors = [p for p in problems if p.severity == "error"]
    if args.json:
        _emit({"file": str(args.pack), "valid": not errors,
               "problems": [p.to_json() for p in problems]})
    else:
        n = len(pack["maps"]) if pack else 0
        print(f"{args.pack}: pack: {'ok' if not errors else f'{len(errors)} error(s)'}"
              f" ({n} map(s))")
        for p in problems:
            print(f"  {p.severity}: {p.location()}: {p.message}")
    return 1 if errors else 0


def cmd_bench(args: argparse.Namespace) -> int:
    from .benchmarks import format_battle_table, format_table, run_all, run_battles

    if args.suite == "battles":
        metrics = run_battles(battles=args.battles, progress=None if args.json else sys.stderr)
        if args.json:
            _emit({m.name: round(m.value, 4) for m in metrics})
        else:
            print(format_battle_table(metrics))
        return 0

    results = run_all(repeat=args.repeat, progress=None if args.json else sys.stderr)
    if args.json:
        _emit({r.name: round(r.median_ms, 4) for r in results})
    else:
        print(format_table(results))
    return 0


if __name__ == "__main__":  # pragma: no cover
    # ``python -m sodwa_editor.cli``: run the package's module, not this ``__main__``
    # copy, so that cli_battle's CliError is the class ``_run`` catches
    from sodwa_editor.cli import main as package_main

    sys.exit(package_main())
