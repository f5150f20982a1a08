"""Replays in the editor: Save Replay of a finished playtest battle (a file
``sodwa replay --verify`` accepts when the map is saved as played) and File ->
Open Replay, which watches a replay made on the open map: the map's hash (of its
canonical JSON, as the CLI hashes a map file) must be the one the replay names,
and the replay is verified (``sodwa replay --verify``'s check) before it plays."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtWidgets import QFileDialog

from ...battle.jsonfiles import BattleInputError, read_json
from ...battle.loop import Decision
from ...battle.replay import decode_action, digest, load_replay, rerun, setup_of
from ...battle.session import BattleSession
from ...engine.model import MapModel

if TYPE_CHECKING:
    from .mode import PlaytestMode


def map_hash(model: MapModel) -> str:
    """The hash ``sodwa replay`` compares (the map's canonical JSON)."""
    from ...io import map_to_dict

    return digest(map_to_dict(model))


def replay_doc(mode: PlaytestMode) -> dict[str, Any]:
    s = mode.session
    assert s is not None and mode.model is not None
    path = mode.win.document.path
    return s.to_replay(str(path) if path else "untitled.json", map_hash(mode.model))


def save_replay(mode: PlaytestMode, path: Path | None = None) -> Path | None:
    s = mode.session
    if s is None or s.result is None:
        mode.say("a replay is saved once the battle is over")
        return None
    if path is None:
        name, _ = QFileDialog.getSaveFileName(mode.win, "Save Replay", "replay.json",
                                              "Replays (*.json)")
        if not name:
            return None
        path = Path(name)
    try:
        path.write_text(json.dumps(replay_doc(mode), indent=1) + "\n", encoding="utf-8")
    except OSError as exc:
        mode.say(f"could not save the replay {path}: {exc.strerror or exc}")
        return None
    doc = mode.win.document
    note = ("; the map has unsaved edits: save it so that `sodwa replay` can check it"
            if doc.modified or doc.path is None else "")
    mode.say(f"saved the replay {path}{note}")
    return path


def decision(doc: dict[str, Any]) -> Decision:
    if "actor" in doc:
        return Decision(int(doc["team"]), actor=int(doc["actor"]))
    return Decision(int(doc["team"]), action=decode_action(doc))


def open_replay(mode: PlaytestMode, path: Path | None = None) -> bool:
    win = mode.win
    if path is None:
        name, _ = QFileDialog.getOpenFileName(win, "Open Replay", "", "Replays (*.json)")
        if not name:
            return False
        path = Path(name)
    model = win.document.model.copy()
    try:
        replay = load_replay(read_json(path), str(path))
        have = map_hash(model)
        if have != replay.map_hash:
            raise BattleInputError(
                f"{path.name} was made on another map ({replay.map_file}, hash "
                f"{replay.map_hash[:19]}...); the open map's hash is {have[:19]}...")
        rerun(replay, model, have, verify=True)  # every turn's hash and the result
        setup = setup_of(replay, model)
        script = [decision(d) for d in replay.doc["decisions"]]
    except (BattleInputError, KeyError, TypeError, ValueError) as exc:
        win.show_message(f"cannot open the replay: {exc}")
        return False
    mode.stop()
    mode.model, mode.choice = model, None
    mode.begin(BattleSession(setup, list(setup.ai), seed=replay.seed(),
                             swapped=bool(replay.doc["swapped"]), script=script))
    mode.say(f"watching {path.name} (verified: {len(replay.doc['turn_hashes'])} turn hashes "
             "and the result match): Play, One Action, One Turn, or Take Over")
    return True
