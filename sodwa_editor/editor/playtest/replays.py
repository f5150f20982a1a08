"""Replays in the editor: Save Replay of a finished playtest battle (a file
``sodwa replay --verify`` accepts when the map is saved as played) and File ->
Open Replay, which watches a replay made on the open map: the map's hash (of its
canonical JSON, as the CLI hashes a map file) must be the one the replay names,
and the replay is verified (``sodwa replay --verify``'s check) before it plays.

These functions take the playtest model and the document; the mode asks for
the file names and starts the replay's session."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...battle.jsonfiles import BattleInputError, read_json
from ...battle.loop import Decision
from ...battle.replay import decode_action, digest, load_replay, rerun, setup_of
from ...engine.model import MapModel
from .model import PlaytestModel
from .origin import Origin

if TYPE_CHECKING:
    from ..document import Document


def map_hash(model: MapModel) -> str:
    """The hash ``sodwa replay`` compares (the map's canonical JSON)."""
    from ...io import map_to_dict

    return digest(map_to_dict(model))


def replay_doc(playtest: PlaytestModel, document: Document) -> dict[str, Any]:
    """The replay file of the model's battle, naming the document's file."""
    s, source = playtest.session, playtest.source
    assert s is not None and source is not None
    path = document.path
    return s.to_replay(str(path) if path else "untitled.json", map_hash(source))


def save_replay(playtest: PlaytestModel, document: Document, path: Path) -> Path | None:
    """Write the finished battle to ``path`` (what went wrong is said, None)."""
    s = playtest.session
    if s is None or s.result is None:
        playtest.say("a replay is saved once the battle is over")
        return None
    try:
        path.write_text(json.dumps(replay_doc(playtest, document), indent=1) + "\n",
                        encoding="utf-8")
    except OSError as exc:
        playtest.say(f"could not save the replay {path}: {exc.strerror or exc}")
        return None
    note = ("; the map has unsaved edits: save it so that `sodwa replay` can check it"
            if document.modified or document.path is None else "")
    playtest.say(f"saved the replay {path}{note}")
    return path


def decision(doc: dict[str, Any]) -> Decision:
    if "actor" in doc:
        return Decision(int(doc["team"]), actor=int(doc["actor"]))
    return Decision(int(doc["team"]), action=decode_action(doc))


def replay_origin(path: Path, model: MapModel) -> tuple[Origin, str]:
    """The battle of the replay ``path`` on ``model`` (the open map's copy), verified
    (:meth:`Origin.session` plays it), and a line saying so.  Raises
    ``BattleInputError``, ``KeyError``, ``TypeError`` or ``ValueError`` with the
    reason a replay cannot be watched (made on another map, a turn that does not
    match what it claims...)."""
    replay = load_replay(read_json(path), str(path))
    from ...io.encode import map_hashes

    hashes = map_hashes(model)  # (a replay made before map format 2 names the second)
    have = hashes[0]
    if replay.map_hash not in hashes:
        raise BattleInputError(
            f"{path.name} was made on another map ({replay.map_file}, hash "
            f"{replay.map_hash[:19]}...); the open map's hash is {have[:19]}...")
    rerun(replay, model, hashes, verify=True)  # every turn's hash and the result
    setup = setup_of(replay, model)
    script = tuple(decision(d) for d in replay.doc["decisions"])
    origin = Origin(setup, (setup.ai[0], setup.ai[1]), replay.seed(),
                    bool(replay.doc["swapped"]), script)
    return origin, (f"watching {path.name} (verified: {len(replay.doc['turn_hashes'])} turn "
                    "hashes and the result match): Play (F6), One Action, One Turn, or "
                    "Take Over")
