"""The battle commands of ``sodwa``: ``battle``, ``replay`` and ``simulate``.

Thin over :mod:`sodwa_editor.battle`: this module reads the files (maps through
:mod:`sodwa_editor.io`, rules, rosters and teams through the battle package),
prints, and turns every :class:`~sodwa_editor.battle.jsonfiles.BattleInputError`
into the one-line error of :class:`~sodwa_editor.cli.CliError` (exit 1).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from .cli import CliError, _emit, non_negative


def positive(text: str) -> int:
    value = non_negative(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be 1 or more, got 0")
    return value


def ai_names(text: str) -> list[str]:
    return [n.strip() for n in text.split(",")]


def add_parsers(sub: Any) -> None:
    """The ``battle``, ``replay`` and ``simulate`` subcommands."""

    def inputs(p: argparse.ArgumentParser) -> None:
        src = p.add_mutually_exclusive_group()
        src.add_argument("--teams", action="append", type=Path, metavar="FILE",
                         help="team file (schemas/team.schema.json); twice for two teams, "
                              "once for the same team on both sides; they enter the map's "
                              "first two start zones by name")
        src.add_argument("--from-map", action="store_true",
                         help="the characters placed on the map (the default)")
        p.add_argument("--rules", type=Path, metavar="FILE",
                       help="rules file (default resources/rules.json)")
        p.add_argument("--roster", type=Path, metavar="FILE",
                       help="roster file (default resources/roster.json)")
        p.add_argument("--ai", type=ai_names, default=["random", "random"], metavar="NAME,NAME",
                       help="controllers of team 0 and team 1 (default random,random)")
        p.add_argument("--seed", type=non_negative, default=0, metavar="N")
        p.add_argument("--json", action="store_true")

    b = sub.add_parser("battle", help="play one AI-vs-AI battle and print its log")
    b.add_argument("map", type=Path, metavar="MAP")
    inputs(b)
    b.add_argument("--replay", type=Path, metavar="OUT.json", help="also write a replay file")

    r = sub.add_parser("replay", help="print (and verify) a battle replay")
    r.add_argument("replay", type=Path, metavar="FILE")
    r.add_argument("--map", type=Path, metavar="MAP",
                   help="the map file (default: the file named in the replay)")
    r.add_argument("--verify", action="store_true",
                   help="check the state hash after every turn and the result")
    r.add_argument("--json", action="store_true")

    s = sub.add_parser("simulate", help="a batch of AI-vs-AI battles and the balance report")
    s.add_argument("maps", nargs="+", type=Path, metavar="MAP")
    inputs(s)
    s.add_argument("--battles", type=positive, required=True, metavar="N")
    s.add_argument("--swap-sides", action="store_true",
                   help="every other battle with the sides swapped (same dice)")
    s.add_argument("--workers", type=positive, default=1, metavar="W")
    s.add_argument("--backend", choices=("process", "ray"), default="process")
    s.add_argument("--report", type=Path, metavar="OUT.html", help="write the HTML report")


# ----------------------------------------------------------------- inputs
def load_map(path: Path) -> tuple[Any, str]:
    """The map model of a file and its hash, or one line saying why not."""
    from .battle.replay import digest
    from .io import map_to_dict, read_map

    model, problems = read_map(path)
    if model is None:
        first = next((p for p in problems if p.severity == "error"), None)
        raise CliError(f"{path}: not a valid map: "
                       f"{first.location() + ': ' + first.message if first else 'unreadable'}")
    return model, digest(map_to_dict(model))


def make_setup(args: argparse.Namespace, model: Any) -> Any:
    from .battle.jsonfiles import read_json
    from .battle.rules import load_rules
    from .battle.setup import BattleSetup
    from .battle.sheet import DEFAULT_ROSTER_PATH, roster_from_dict
    from .battle.teams import team_from_dict

    roster_path = args.roster or DEFAULT_ROSTER_PATH
    roster_doc = read_json(roster_path)
    roster = roster_from_dict(roster_doc, str(roster_path))
    rules = load_rules(args.rules)
    docs: dict[str, Any] = {"roster": roster_doc}
    teams = None
    if args.teams:
        if len(args.teams) > 2:
            raise CliError(f"--teams: give 1 or 2 team files, not {len(args.teams)}", code=2)
        files = args.teams * (3 - len(args.teams))
        team_docs = [read_json(f) for f in files]
        zones = sorted(model.start_zones)
        if len(zones) < 2:
            have = ", ".join(zones) or "none"
            raise CliError(f"{files[len(zones)]}: the map has no start zone for team "
                           f"{len(zones)} (it needs 2 start zones; has: {have})")
        teams = [(zones[k], team_from_dict(d, roster, str(f)), None)
                 for k, (f, d) in enumerate(zip(files, team_docs, strict=True))]
        docs["teams"] = team_docs
    return BattleSetup.from_map(model, rules=rules, roster=roster, ai=args.ai, teams=teams,
                                docs=docs)


def input_files(args: argparse.Namespace) -> list[Path]:
    """Every file a battle command reads (an output must not replace one of them)."""
    maps = args.maps if hasattr(args, "maps") else [args.map]
    return [*maps, *(args.teams or []), *(p for p in (args.rules, args.roster) if p)]


def write_output(path: Path, text: str, inputs: list[Path]) -> None:
    """Write an output file atomically (io's writer: never a FIFO or device, never
    half a file); refuse an output that is one of the inputs (exit 2)."""
    from .io.files import atomic_write_text
    from .io.paths import refuse_output_among_inputs

    try:
        refuse_output_among_inputs(path, inputs)
    except OSError as exc:
        raise CliError(str(exc), code=2) from exc
    try:
        atomic_write_text(path, text)
    except OSError as exc:  # MapSaveError: says what and where
        raise CliError(str(exc)) from exc


def run(handler: Any, args: argparse.Namespace) -> int:
    """Run a battle command, turning bad battle input into one line (exit 1)."""
    from .battle.jsonfiles import BattleInputError

    try:
        return handler(args)
    except BattleInputError as exc:
        raise CliError(str(exc)) from None


# ----------------------------------------------------------------- battle, replay
def print_log(state: Any, out: Any, header: dict[str, Any], as_json: bool) -> None:
    from .battle.describe import describe

    names = list(state.names)
    if as_json:
        _emit({**header,
               "characters": [{"index": i, "id": f.id, "team": f.team, "side": f.side,
                               "archetype": f.sheet.archetype, "cost": f.sheet.cost}
                              for i, f in enumerate(state.fighters)],
               "events": [e.to_dict() for e in out.events],
               "result": {"winner": out.result.winner, "reason": out.result.reason}})
        return
    sides = {f.team: f.side for f in state.fighters}
    print(f"battle: team 0 {sides[0]} ({header['ai'][0]}) vs team 1 {sides[1]} "
          f"({header['ai'][1]}), seed {header['seed']}")
    for e in out.events:
        print(describe(e, names))


def cmd_battle(args: argparse.Namespace) -> int:
    from .battle.loop import run_battle
    from .battle.replay import record

    model, map_hash = load_map(args.map)
    setup = make_setup(args, model)
    if args.replay is not None:
        out, doc = record(setup, args.seed, map_file=str(args.map), map_hash=map_hash)
        write_output(args.replay, json.dumps(doc, separators=(",", ":")) + "\n",
                     input_files(args))
        state = setup.state(args.seed)  # the starting state: names and sides
    else:
        state = setup.state(args.seed)
        out = run_battle(state, setup.controllers(state))
    print_log(state, out, {"map": str(args.map), "seed": args.seed, "ai": list(setup.ai)},
              args.json)
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    from .battle.jsonfiles import read_json
    from .battle.replay import load_replay, rerun, setup_of

    replay = load_replay(read_json(args.replay), str(args.replay))
    map_path = args.map or Path(replay.map_file)
    if args.map is None and not map_path.is_absolute() and not map_path.exists():
        beside = args.replay.parent / map_path
        map_path = beside if beside.exists() else map_path
    if not map_path.exists():
        raise CliError(f"{args.replay}: its map {map_path} is missing (give --map MAP)")
    model, map_hash = load_map(map_path)
    out = rerun(replay, model, map_hash, verify=args.verify)
    state = setup_of(replay, model).state(replay.seed(), bool(replay.doc["swapped"]))
    header = {"map": str(map_path), "seed": replay.doc["seed"],
              "ai": replay.doc["controllers"], "verified": args.verify}
    print_log(state, out, header, args.json)
    if args.verify and not args.json:
        print(f"verified: {len(replay.doc['turn_hashes'])} turn hashes and the result match")
    return 0


# ----------------------------------------------------------------- simulate
class ProgressBar:
    """``[#####.....] done/total battles`` on stderr, redrawn in place (a terminal only)."""

    def __init__(self, label: str) -> None:
        self.label = label

    def __call__(self, done: int, total: int) -> None:
        width = 30
        full = width * done // max(total, 1)
        sys.stderr.write(f"\r{self.label} [{'#' * full}{'.' * (width - full)}] "
                         f"{done}/{total} battles")
        if done >= total:
            sys.stderr.write("\n")
        sys.stderr.flush()


def cmd_simulate(args: argparse.Namespace) -> int:
    from .battle.batch import run_batch
    from .battle.report import format_summary, summarize

    reports = []
    for path in args.maps:
        model, map_hash = load_map(path)
        setup = make_setup(args, model)
        bar = ProgressBar(str(path)) if sys.stderr.isatty() else None
        records = run_batch(setup, args.battles, seed=args.seed, swap_sides=args.swap_sides,
                            workers=args.workers, backend=args.backend, progress=bar)
        report = summarize(setup, records, seed=args.seed, swap_sides=args.swap_sides)
        reports.append({"map": str(path), "map_hash": map_hash, **report})
    if args.report is not None:
        from .battle.report_html import render

        write_output(args.report, render(reports), input_files(args))
    if args.json:
        _emit({"maps": reports})
    else:
        for rep in reports:
            print(f"{rep['map']}: {format_summary(rep)}")
        if args.report is not None:
            print(f"wrote {args.report}")
    return 0
