"""The battle commands of ``sodwa``: ``battle`` and ``replay``, and what they share
with ``simulate`` (:mod:`.cli_simulate`): reading maps, packs and battle files.

Thin over :mod:`sodwa_editor.battle`: this module reads the files (maps and map
packs through :mod:`sodwa_editor.io`, rules, rosters, teams and AI profiles
through the battle package), prints, and turns every
:class:`~sodwa_editor.battle.jsonfiles.BattleInputError` into the one-line error
of :class:`~sodwa_editor.cli_common.CliError` (exit 1).

A MAP argument is a map file, a map pack (every map of it for ``simulate``; its
only map for ``battle``) or ``PACK.json#NAME``, the map called NAME in a pack.
A pack's own rules and roster apply to its maps; ``--rules`` / ``--roster``
override them (precedence: the option, then the pack's, then ``resources/``).

An output file (``battle --replay``, ``simulate --report``) is checked before any
battle is played: never one of the files the command reads, the defaults in
``resources/`` and the pack a map came from included
(:func:`.cli_common.check_output`).
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .cli_common import (
    CliError,
    check_output,
    say,
    seconds,
    short,
    whole_in,
    write_output,
)
from .cli_common import emit as _emit

#: The largest ``--seed`` plus one (a numpy SeedSequence's default entropy is 128
#: bits; a replay's schema takes no more).
MAX_SEED = 2**128 - 1


def ai_names(text: str) -> list[str]:
    return [n.strip() for n in text.split(",")]


def battle_inputs(p: argparse.ArgumentParser) -> None:
    """The options every battle command takes: teams or the map's characters,
    rules, roster, AIs, AI profiles, seed and --json."""
    src = p.add_mutually_exclusive_group()
    src.add_argument("--teams", action="append", type=Path, metavar="FILE",
                     help="team file (schemas/team.schema.json); twice for two teams, "
                          "once for the same team on both sides; they enter the map's "
                          "first two start zones by name")
    src.add_argument("--from-map", action="store_true",
                     help="the characters placed on the map (the default)")
    p.add_argument("--rules", type=Path, metavar="FILE",
                   help="rules file (default: the map pack's rules, else "
                        "resources/rules.json)")
    p.add_argument("--roster", type=Path, metavar="FILE",
                   help="roster file (default: the map pack's roster, else "
                        "resources/roster.json)")
    p.add_argument("--ai", type=ai_names, default=None, metavar="NAME,NAME",
                   help="controllers of team 0 and team 1 (default greedy,greedy: the "
                        "batch and balance AI; random,random is the fuzzing baseline; "
                        "a scenario's own sides' AIs when MAP is a scenario)")
    profile_option(p)
    p.add_argument("--seed", type=whole_in(0, MAX_SEED), default=0, metavar="N",
                   help="the battle's seed, 0 to 2**128 - 1 (default 0)")
    p.add_argument("--json", action="store_true")


def add_parsers(sub: Any) -> None:
    """The ``battle`` and ``replay`` subcommands (``simulate``: :mod:`.cli_simulate`)."""

    b = sub.add_parser("battle", help="play one AI-vs-AI battle and print its log")
    b.add_argument("map", type=Path, metavar="MAP",
                   help="a map file, a pack of one map, or PACK.json#NAME")
    battle_inputs(b)
    b.add_argument("--replay", type=Path, metavar="OUT.json", help="also write a replay file")
    b.add_argument("--time-limit", type=seconds, metavar="SECONDS",
                   help="stop the battle after the first turn that ends past this many "
                        "seconds (exit 124, nothing written)")

    r = sub.add_parser("replay", help="print (and verify) a battle replay")
    r.add_argument("replay", type=Path, metavar="FILE")
    r.add_argument("--map", type=Path, metavar="MAP",
                   help="the map file or PACK.json#NAME (default: the one named in the replay)")
    r.add_argument("--verify", action="store_true",
                   help="check the state hash after every turn and the result, re-run "
                        "each side's AI to check every decision it is said to have made, "
                        "and check that the AIs played by the AI profiles given "
                        "(--ai-profile)")
    profile_option(r)
    r.add_argument("--json", action="store_true")


def profile_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--ai-profile", action="append", type=Path, metavar="FILE",
                   help="AI profile (schemas/ai-profile.schema.json) of the greedy and "
                        "expectimax AIs, default resources/ai-profile.json; twice: team 0's, "
                        "then team 1's")


#: the controllers when neither ``--ai`` nor a scenario names them
DEFAULT_AI_PAIR = ("greedy", "greedy")


# ----------------------------------------------------------------- inputs
@dataclass
class MapSource:
    """One map a battle command plays on: where it comes from, its model and hash,
    and the rules and roster documents of the pack it is in (None if none)."""

    file: Path
    label: str  # the file, or PACK.json#NAME
    model: Any
    hash: str
    rules: dict[str, Any] | None = None
    roster: dict[str, Any] | None = None
    scenario: dict[str, Any] | None = None  # PACK.json#SCENARIO or a scenario file


def split_map_arg(arg: Path) -> tuple[Path, str | None]:
    """``(file, map name)`` of a MAP argument: the file as given if it exists, else
    ``PACK.json#NAME`` split at the first ``#`` after which a file exists."""
    text = str(arg)
    if arg.exists() or "#" not in text:
        return arg, None
    for i, ch in enumerate(text):
        if ch == "#" and Path(text[:i]).exists():
            return Path(text[:i]), text[i + 1:]
    return arg, None


def load_maps(arg: Path, *, one: bool) -> list[MapSource]:
    """The maps of a MAP argument (``one``: exactly one map), or one line saying why not."""
    from .battle.replay import digest
    from .io import PACK_FORMAT, map_from_doc, map_to_dict, pack_from_doc, parse_json
    from .io.files import read_text
    from .io.scenarios import find_scenario

    path, name = split_map_arg(arg)
    text, problems = read_text(path)
    doc = None
    if text is not None:
        doc, problems = parse_json(text, source=str(path))
    if problems:
        raise CliError(f"{path}: not a valid map: {problems[0].location()}: "
                       f"{problems[0].message}")
    is_pack = isinstance(doc, dict) and doc.get("format") == PACK_FORMAT
    if isinstance(doc, dict) and doc.get("format") == "sodwa-scenario" and name is None:
        return [scenario_file_source(path, doc)]
    if not is_pack:
        if name is not None:
            raise CliError(f"{path}: not a map pack, so '#{name}' names no map in it")
        model, problems = map_from_doc(doc, source=str(path))
        if model is None:
            first = next(p for p in problems if p.is_error)
            raise CliError(f"{path}: not a valid map: {first.location()}: {first.message}")
        return [MapSource(path, str(path), model, digest(map_to_dict(model)))]
    pack, problems = pack_from_doc(doc, source=str(path))
    own = [p for p in problems if p.is_error and not p.path.startswith("/maps/")]
    if pack is None or own:
        first = (own or problems)[0]
        raise CliError(f"{path}: not a valid map pack: {first.location()}: {first.message}")
    names = [m.get("name", "") for m in pack["maps"]]
    scenario = None if name is None else find_scenario(pack, name)
    if scenario is not None:
        name = scenario["map"]
    if name is not None:
        if name not in names:
            raise CliError(f"{path}: the pack has no map named {name!r} (it has: "
                           f"{', '.join(repr(n) for n in names)})")
        chosen = [names.index(name)]
    elif one and len(names) > 1:
        raise CliError(f"{path}: the pack holds {len(names)} maps; name one as "
                       f"{path}#NAME (it has: {', '.join(repr(n) for n in names)})", code=2)
    else:
        chosen = list(range(len(names)))
    out = []
    for i in chosen:
        model, found = map_from_doc(pack["maps"][i], source=str(path),
                                    prefix=f"/maps/{i}", map_name=names[i])
        if model is None:
            first = next(p for p in found if p.is_error)
            raise CliError(f"{path}: not a valid map: {first.location()}: {first.message}")
        label = f"{path}#{scenario['name'] if scenario is not None else names[i]}"
        out.append(MapSource(path, label, model, digest(map_to_dict(model)),
                             pack.get("rules"), pack.get("roster"), scenario))
    return out


def scenario_file_source(path: Path, doc: dict[str, Any]) -> MapSource:
    """A scenario file: its map (a path relative to the file, or ``PACK.json#MAP``)
    with the scenario; one line when the scenario or its map is not valid."""
    from .battle.jsonfiles import BattleInputError, validate
    from .io.scenarios import resolve_map

    try:
        validate(doc, "scenario", str(path))
    except BattleInputError as exc:
        raise CliError(str(exc)) from None
    target = resolve_map(path, doc["map"])
    try:
        source = load_maps(target, one=True)[0]
    except CliError as exc:
        raise CliError(f"{path}: map: {exc}") from None
    if source.scenario is not None:
        raise CliError(f"{path}: map: {target} names a scenario, not a map")
    source.label, source.scenario = f"{path} ({doc['name']})", doc
    return source


def scenario_source_setup(args: argparse.Namespace, source: MapSource) -> Any:
    """The setup of a scenario: its sides, rules variant, cap and AIs, each replaced
    by ``--rules``, ``--roster``, ``--ai``, ``--ai-profile`` when given."""
    from .battle.jsonfiles import BattleInputError, read_json
    from .battle.rules import load_rules
    from .battle.scenario import scenario_setup
    from .battle.sheet import DEFAULT_ROSTER_PATH, roster_from_dict

    if args.teams:
        raise CliError(f"--teams: {source.label} is a scenario: its sides are its teams",
                       code=2)
    if args.roster is None and source.roster is not None:
        roster_doc, roster_src = source.roster, f"{source.file}: /roster"
    else:
        roster_path = args.roster or DEFAULT_ROSTER_PATH
        roster_doc, roster_src = read_json(roster_path), str(roster_path)
    roster = roster_from_dict(roster_doc, roster_src)
    assert source.scenario is not None
    try:
        return scenario_setup(source.scenario, source.model, roster, roster_doc=roster_doc,
                              source=source.label,
                              rules=load_rules(args.rules) if args.rules else None,
                              ai=args.ai, profiles=load_profiles(args))
    except BattleInputError as exc:
        raise CliError(str(exc)) from None


def load_profiles(args: argparse.Namespace) -> list[Any] | None:
    """The ``--ai-profile`` files' profiles (None: the shipped one)."""
    from .battle.ai.profile import load_profile

    files = args.ai_profile or []
    if len(files) > 2:
        raise CliError(f"--ai-profile: give 1 or 2 profile files, not {len(files)}", code=2)
    return [load_profile(f) for f in files] or None


def make_setup(args: argparse.Namespace, source: MapSource) -> Any:
    """The battle setup of a map; rules and roster: the option, else the map's
    pack's, else the default file."""
    from .battle.jsonfiles import read_json
    from .battle.rules import DEFAULT_RULES_PATH, load_rules, rules_from_dict
    from .battle.setup import BattleSetup
    from .battle.sheet import DEFAULT_ROSTER_PATH, roster_from_dict
    from .battle.teams import certain_draw, teams_from_files

    model = source.model
    if source.scenario is not None:
        return scenario_source_setup(args, source)
    if args.roster is None and source.roster is not None:
        roster_doc, roster_src = source.roster, f"{source.file}: /roster"
    else:
        roster_path = args.roster or DEFAULT_ROSTER_PATH
        roster_doc, roster_src = read_json(roster_path), str(roster_path)
    roster = roster_from_dict(roster_doc, roster_src)
    if args.rules is None and source.rules is not None:
        rules = rules_from_dict(source.rules, f"{source.file}: /rules")
    else:
        rules = load_rules(args.rules)
    docs: dict[str, Any] = {"roster": roster_doc}
    teams = None
    if args.teams:
        if len(args.teams) > 2:
            raise CliError(f"--teams: give 1 or 2 team files, not {len(args.teams)}", code=2)
        teams, docs["teams"] = teams_from_files(model, args.teams, roster)
    setup = BattleSetup.from_map(model, rules=rules, roster=roster,
                                 ai=args.ai or DEFAULT_AI_PAIR, teams=teams,
                                 docs=docs, profiles=load_profiles(args))
    why = certain_draw(sides_of(setup), rules)
    if why is not None:  # (a warning: a short cap for a quick test battle is fine)
        rules_src = (str(args.rules) if args.rules else f"{source.file}: /rules"
                     if source.rules is not None else str(DEFAULT_RULES_PATH))
        say(short(f"sodwa {args.command}: warning: {source.label} with {rules_src} and "
                  f"{roster_src}: {why}"))
    return setup


def sides_of(setup: Any) -> list[list[Any]]:
    """The sheets of team 0 and team 1 of a setup (team files or the map's characters)."""
    from .battle.teams import combatants_from_map

    if setup.teams is not None:
        return [[m.sheet for m in team.members] for _zone, team, _f in setup.teams]
    fighters = combatants_from_map(setup.model, setup.roster)
    return [[c.sheet for c in fighters if c.team == t] for t in (0, 1)]


def input_files(args: argparse.Namespace) -> list[Path]:
    """Every file a battle command names (an output must not replace one of them;
    :func:`.cli_common.check_output` adds the files it reads by default)."""
    maps = args.maps if hasattr(args, "maps") else [args.map]
    return [*(split_map_arg(m)[0] for m in maps), *(args.teams or []),
            *(args.ai_profile or []), *(p for p in (args.rules, args.roster) if p)]


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
    from .battle.replay import record, replay_text
    from .cli_watch import BattleWatch

    if args.replay is not None:  # (before the battle: never play one for nothing)
        check_output(args.replay, input_files(args))
    source = load_maps(args.map, one=True)[0]
    setup = make_setup(args, source)
    watch = BattleWatch(args.time_limit,
                        what="; no replay written" if args.replay is not None else "")
    try:
        if args.replay is not None:
            out, doc = record(setup, args.seed, map_file=source.label, map_hash=source.hash,
                              after_turn=watch)
            watch.clear()
            write_output(args.replay, replay_text(doc), input_files(args))
        else:
            state = setup.state(args.seed)
            out = run_battle(state, setup.controllers(state), after_turn=watch)
    finally:
        watch.clear()
    state = setup.state(args.seed)  # the starting state: names and sides
    print_log(state, out, {"map": source.label, "seed": args.seed, "ai": list(setup.ai)},
              args.json)
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    from .battle.jsonfiles import read_json
    from .battle.replay import check_profiles, load_replay, rerun, setup_of

    replay = load_replay(read_json(args.replay), str(args.replay))
    pair = None
    if args.verify:  # (first: a wrong profile file is a wrong input, whatever the map)
        from .battle.ai.profile import DEFAULT_PROFILE, default_profile

        files = [str(f) for f in args.ai_profile or [DEFAULT_PROFILE]]
        given = load_profiles(args) or [default_profile()]
        check_profiles(replay, given, files)
        pair = [given[0], given[-1]]  # team 0's and team 1's, as check_profiles reads them
    map_arg = args.map or Path(replay.map_file)
    map_path, _name = split_map_arg(map_arg)
    if args.map is None and not map_path.is_absolute() and not map_path.exists():
        beside = args.replay.parent / map_arg
        if split_map_arg(beside)[0].exists():
            map_arg = beside
            map_path = split_map_arg(beside)[0]
    if not map_path.exists():
        raise CliError(f"{args.replay}: its map {map_path} is missing (give --map MAP)")
    source = load_maps(map_arg, one=True)[0]
    out = rerun(replay, source.model, source.hash, verify=args.verify, profiles=pair)
    state = setup_of(replay, source.model).state(replay.seed(), bool(replay.doc["swapped"]))
    header = {"map": source.label, "seed": replay.doc["seed"],
              "ai": replay.doc["controllers"], "verified": args.verify}
    print_log(state, out, header, args.json)
    if args.verify and not args.json:
        print(f"verified: {len(replay.doc['turn_hashes'])} turn hashes, every AI decision "
              "(its AI re-run), the AI profiles and the result match")
    return 0
