"""The `sodwa` command: every subcommand, its JSON output and its errors."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from sodwa_editor.cli import EXIT_OUTPUT, main

MAPS = Path(__file__).resolve().parents[1] / "maps"
RULEBOOK = str(MAPS / "rulebook-elevated-los.json")


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_validate_all_sample_maps(capsys):
    code, out, _ = run(capsys, "validate", *sorted(str(p) for p in MAPS.glob("*.json")))
    assert code == 0
    assert out.count(": map: ok") == len(list(MAPS.glob("*.json")))


def test_validate_reports_every_problem_and_fails(tmp_path, capsys):
    doc = json.loads(Path(RULEBOOK).read_text())
    doc["characters"][0]["x"] = 99
    doc["terrain"][0] = doc["terrain"][0][:-1]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc))
    code, out, _ = run(capsys, "validate", str(bad), "--json")
    assert code == 1
    report = json.loads(out)
    assert report["valid"] is False
    paths = [p["path"] for p in report["files"][0]["problems"]]
    assert "/terrain/0" in paths and any(p.startswith("/characters/0") for p in paths)


def test_validate_broken_json_names_line(tmp_path, capsys):
    bad = tmp_path / "broken.json"
    bad.write_text('{"format": "sodwa-map",\n  "width": }')
    code, out, _ = run(capsys, "validate", str(bad))
    assert code == 1 and "line 2" in out


def test_los_single_text_and_json(capsys):
    code, out, _ = run(capsys, "los", RULEBOOK, "--from", "1,2", "--to", "11,2")
    assert code == 0 and out.startswith("1,2 -> 11,2: blocked by character 'green'")
    code, out, _ = run(capsys, "los", RULEBOOK, "--from", "3,2", "--to", "7,3", "--json")
    data = json.loads(out)
    assert data["class"] == "impeded" and data["reason"]["kind"] == "target-tile"
    assert data["reason"]["tile"] == [7, 3]


def test_los_fan_grid_and_json(capsys):
    code, out, _ = run(capsys, "los", RULEBOOK, "--from", "3,2")
    rows = out.splitlines()[1:]
    assert code == 0 and len(rows) == 5 and rows[2][3] == "@" and rows[3][7] == "i"
    code, out, _ = run(capsys, "los", RULEBOOK, "--from", "3,2", "--json")
    data = json.loads(out)
    assert len(data["classes"]) == 5 and data["classes"][3][7] == 1
    assert sum(data["counts"].values()) == 13 * 5


def test_reach_uses_the_characters_move_and_prints_path(capsys):
    keep = str(MAPS / "tiered-keep.json")
    code, out, _ = run(capsys, "reach", keep, "--from", "5,14", "--to", "7,13", "--json")
    data = json.loads(out)
    assert code == 0 and data["move"] == 7
    assert data["path"][0] == [5, 14] and data["path"][-1] == [7, 13]
    stairs = [r for r in data["reachable"] if r["tile"] == [7, 13]][0]
    assert stairs["must_stop"] is True
    code, out, _ = run(capsys, "reach", keep, "--from", "0,0", "--move", "2")
    assert code == 0 and "Move 2" in out


def test_reach_without_character_needs_move(capsys):
    code, _, err = run(capsys, "reach", RULEBOOK, "--from", "0,0")
    assert code == 2 and "give --move N" in err


def test_graph_json_is_node_link(capsys):
    code, out, _ = run(capsys, "graph", RULEBOOK, "--json")
    data = json.loads(out)
    assert code == 0 and len(data["nodes"]) == 65
    assert {e["crossing"] for e in data["edges"]} <= {"clear", "impeded"}
    assert data["blocked"] and "reason" in data["blocked"][0]
    assert out.count("\n") == 1  # compact: one line, as the README says


def test_graph_json_equals_networkx_node_link_data(capsys):
    """The one-pass conversion writes exactly what networkx.node_link_data gives,
    tiles as [x, y] lists."""
    import networkx as nx

    from sodwa_editor.engine.adjacency_graph import AdjacencyGraph
    from sodwa_editor.io import load_map

    path = str(MAPS / "tiered-keep.json")
    code, out, _ = run(capsys, "graph", path, "--json")
    data = json.loads(out)
    expected = json.loads(json.dumps(
        nx.node_link_data(AdjacencyGraph(load_map(path)).graph, edges="edges")))
    del data["blocked"]
    assert code == 0 and data == expected


def test_pack_build_and_validate(tmp_path, capsys):
    pack = tmp_path / "pack.json"
    code, out, _ = run(capsys, "pack", "build", *sorted(str(p) for p in MAPS.glob("*.json")),
                       "-o", str(pack), "--name", "Samples", "--author", "QA")
    assert code == 0 and pack.exists()
    code, out, _ = run(capsys, "pack", "validate", str(pack))
    assert code == 0 and "ok" in out
    code, out, _ = run(capsys, "validate", str(pack))
    assert code == 0 and ": pack: ok" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["los", RULEBOOK, "--from", "99,2"], "--from 99,2 is outside the 13x5 map"),
        (["los", RULEBOOK, "--from", "1,2", "--to", "1,-1"], "--to 1,-1 is outside"),
        (["los", "/nonexistent/map.json", "--from", "0,0"], "/nonexistent/map.json"),
    ],
)
def test_bad_input_is_one_clear_line(capsys, args, message):
    code, _, err = run(capsys, *args)
    assert code != 0 and message in err and "Traceback" not in err


def test_bad_tile_syntax_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["los", RULEBOOK, "--from", "3;2"])
    assert exc.value.code == 2
    assert "expected X,Y" in capsys.readouterr().err


def test_console_script_runs():
    out = subprocess.run([sys.executable, "-m", "sodwa_editor.cli", "--version"],
                         capture_output=True, text=True, check=True)
    assert out.stdout.startswith("sodwa ")


def test_a_reader_that_stops_early_gets_no_traceback(tmp_path):
    """``sodwa graph MAP --json | head``: the closed pipe ends the command quietly
    (a 64x64 map: megabytes of output, far more than a pipe's buffer)."""
    from sodwa_editor.engine.generate import make_mixed_map
    from sodwa_editor.io import save_map

    path = tmp_path / "big.json"
    save_map(make_mixed_map(64, seed=1), path)
    proc = subprocess.Popen(
        [sys.executable, "-m", "sodwa_editor.cli", "graph", str(path),
         "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    assert proc.stdout.read(10) == b'{"directed'
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=60) == 141
    assert "Traceback" not in err and err == ""


def test_pack_build_errors_are_one_line_each(tmp_path, capsys):
    code, _, err = run(capsys, "pack", "build", str(MAPS / "indoor-compound.json"),
                       "-o", str(tmp_path / "no" / "dir" / "p.json"))
    assert code == 1 and "Traceback" not in err
    assert err.strip() == (f"sodwa pack: error: pack not written: cannot save "
                           f"{tmp_path / 'no' / 'dir' / 'p.json'}: cannot create a file in "
                           f"{tmp_path / 'no' / 'dir'}: No such file or directory")
    code, _, err = run(capsys, "pack", "build", str(MAPS / "indoor-compound.json"),
                       "-o", str(tmp_path / "p.json"), "--pack-version", "")
    assert code == 1
    assert err.splitlines() == ['  error: /version: "" is not a version number: whole numbers '
                                "separated by dots (e.g. 1.2.0), optionally followed by -beta.1 "
                                "or +build.7",
                                "sodwa pack: error: pack not written: 1 error(s), listed above"]


# ------------------------------------------------- issue 9: values no map can hold
def small_map_text(tmp_path, name: str, raw_move: str = "5", raw_name: str = '"n"') -> str:
    path = tmp_path / name
    path.write_text(
        '{"format": "sodwa-map", "format_version": 1, "name": "t", "width": 2, "height": 1, '
        f'"terrain": [".."], "characters": [{{"id": "a", "team": "r", "x": 0, "y": 0, '
        f'"move": {raw_move}, "name": {raw_name}}}]}}', encoding="utf-8")
    return str(path)


def test_a_huge_integer_is_one_problem_in_validate_and_pack(tmp_path, capsys):
    huge = small_map_text(tmp_path, "huge.json", raw_move="9" * 4301)
    code, out, err = run(capsys, "validate", huge)
    assert code == 1 and err == ""
    assert out.splitlines() == [
        f"{huge}: unknown: 1 error(s)",
        "  error: /characters/0/move: the whole number 999999999999... has 4301 digits; "
        "numbers of more than 4300 digits are refused"]
    code, out, _ = run(capsys, "validate", huge, "--json")
    assert code == 1 and json.loads(out)["files"][0]["problems"][0]["code"] == "json"
    code, out, _ = run(capsys, "pack", "validate", huge)
    assert code == 1 and "/characters/0/move: the whole number" in out
    code, _, err = run(capsys, "pack", "build", huge, "-o", str(tmp_path / "p.json"))
    assert code == 1 and "has 4301 digits" in err and not (tmp_path / "p.json").exists()


@pytest.mark.parametrize("move", ["1000", "100000000000000000000", "-1", "9" * 5000])
def test_reach_move_past_the_bound_is_a_usage_error(capsys, move):
    with pytest.raises(SystemExit) as exc:
        main(["reach", RULEBOOK, "--from", "0,0", "--move", move])
    assert exc.value.code == 2
    err = capsys.readouterr().err.splitlines()[-1]
    assert err.startswith("sodwa reach: error: argument --move: ") and len(err) < 120


def test_reach_move_at_the_bound_runs(capsys):
    from sodwa_editor.engine.model import MAX_MOVE

    code, out, _ = run(capsys, "reach", RULEBOOK, "--from", "0,0", "--move", str(MAX_MOVE))
    assert code == 0 and f"with Move {MAX_MOVE}:" in out


def test_reach_from_a_character_with_a_negative_move_is_one_line(tmp_path, capsys):
    neg = small_map_text(tmp_path, "neg.json", raw_move="-3")
    code, out, _ = run(capsys, "validate", neg)
    assert code == 1 and "character 'a' has Move -3" in out  # a rule error: the map loads
    code, out, err = run(capsys, "reach", neg, "--from", "0,0")
    assert code == 1 and out == ""
    assert err.splitlines() == [
        "sodwa reach: error: no movement range from character 'a' on 0,0: Move must be at "
        "least 0, not -3 (fix the map, or give --move N)"]
    code, out, _ = run(capsys, "reach", neg, "--from", "0,0", "--move", "1", "--json")
    assert code == 0 and json.loads(out)["move"] == 1


def test_a_lone_surrogate_is_refused_by_validate_and_pack_build(tmp_path):
    """Run as the console script with a strict UTF-8 output, where printing a lone
    surrogate (from the file, or in a file name that is not UTF-8) raised."""
    bad = small_map_text(tmp_path, "bad\udcff.json", raw_name=r'"\ud800"')
    env = {**os.environ, "PYTHONIOENCODING": "utf-8:strict"}

    def sodwa(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "sodwa_editor.cli", *args], env=env,
                              capture_output=True, timeout=120)

    res = sodwa("validate", bad)
    out = res.stdout.decode()
    assert res.returncode == 1 and res.stderr == b""
    shown = bad.replace("\udcff", "\\udcff")
    assert out.splitlines() == [
        f"{shown}: unknown: 1 error(s)",
        "  error: /characters/0/name: the text holds \\ud800, a lone UTF-16 surrogate "
        "(not a Unicode character)"]
    out_path = tmp_path / "p.json"
    res = sodwa("pack", "build", bad, "-o", str(out_path))
    err = res.stderr.decode()
    assert res.returncode == 1 and "Traceback" not in err and not out_path.exists()
    assert err.splitlines()[-1] == "sodwa pack: error: pack not written: 1 error(s), listed above"
    res = sodwa("pack", "build", str(MAPS / "indoor-compound.json"), "-o", str(out_path),
                "--name", "pack \udcff")
    err = res.stderr.decode()
    assert res.returncode == 1 and "Traceback" not in err and not out_path.exists()
    assert "/name: the text holds \\udcff" in err


@pytest.mark.skipif(sys.platform == "win32", reason="symbolic and hard links")
def test_pack_build_refuses_to_write_over_one_of_its_maps(tmp_path, capsys):
    victim = tmp_path / "victim.json"
    victim.write_bytes((MAPS / "tiered-keep.json").read_bytes())
    before = victim.read_bytes()
    (tmp_path / "soft.json").symlink_to(victim)
    (tmp_path / "hard.json").hardlink_to(victim)
    for out in ("victim.json", "soft.json", "hard.json"):
        code, _, err = run(capsys, "pack", "build", str(MAPS / "indoor-compound.json"),
                           str(victim), "-o", str(tmp_path / out))
        assert code == 2 and "it is one of the input files" in err and "Traceback" not in err
        assert victim.read_bytes() == before


@pytest.mark.skipif(sys.platform == "win32", reason="symbolic links")
def test_pack_build_on_a_symlink_loop_is_one_clear_line(tmp_path, capsys):
    (tmp_path / "a.json").symlink_to(tmp_path / "b.json")
    (tmp_path / "b.json").symlink_to(tmp_path / "a.json")
    code, _, err = run(capsys, "pack", "build", str(tmp_path / "a.json"),
                       "-o", str(tmp_path / "p.json"))
    assert code == 1 and "Traceback" not in err
    assert "a.json: /: cannot read the file: Too many levels of symbolic links" in err
    assert not (tmp_path / "p.json").exists()


@pytest.mark.skipif(sys.platform == "win32", reason="FIFOs")
def test_pack_build_does_not_replace_a_fifo(tmp_path, capsys):
    fifo = tmp_path / "out.json"
    os.mkfifo(fifo)
    code, _, err = run(capsys, "pack", "build", str(MAPS / "indoor-compound.json"),
                       "-o", str(fifo))
    assert code == 1 and err.strip() == (
        f"sodwa pack: error: pack not written: cannot save {fifo}: it is a named pipe (FIFO), "
        "not a regular file; it was left untouched")
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


@pytest.mark.skipif(sys.platform == "win32", reason="FIFOs")
def test_validate_refuses_a_fifo_instead_of_waiting_for_a_writer(tmp_path):
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    done = subprocess.run([sys.executable, "-m", "sodwa_editor.cli", "validate", str(fifo)],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert "cannot read the file: it is a named pipe (FIFO), not a regular file" in done.stdout


def _validate_into(stdout, *, close_stdout=False):
    return subprocess.run(
        [sys.executable, "-m", "sodwa_editor.cli", "validate", RULEBOOK, "--json"],
        stdout=stdout, stderr=subprocess.PIPE, text=True, timeout=60, check=False,
        preexec_fn=(lambda: os.close(1)) if close_stdout else None)


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX file descriptors")
def test_closed_stdout_is_one_line_and_exit_74():
    done = _validate_into(subprocess.DEVNULL, close_stdout=True)  # as `sodwa ... >&-`
    assert done.returncode == EXIT_OUTPUT == 74
    assert done.stderr == ("sodwa validate: error: cannot write the output: standard output "
                           "is closed\n")


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("args", [["validate", RULEBOOK], ["validate", RULEBOOK, "--json"],
                                  ["--help"]])
def test_a_full_disk_is_one_line_and_exit_74(args):
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "sodwa_editor.cli", *args], stdout=full,
                              stderr=subprocess.PIPE, text=True, timeout=60, check=False)
    assert done.returncode == EXIT_OUTPUT
    assert done.stderr.endswith("error: cannot write the output: No space left on device\n")
    assert done.stderr.count("\n") == 1, done.stderr
