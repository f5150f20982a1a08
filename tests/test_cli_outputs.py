"""Issue 22 item 2: an output file of ``sodwa`` (``battle --replay``, ``simulate
--report``, ``pack build -o``) never replaces a file the command reads: the files
it is given, the map pack a map came from and the files it reads by default (the
rules, roster and AI profile in ``resources/``, the schemas), compared through
symbolic and hard links, and refused before any battle is played.  And the command
modules import one another without a circle.

The default files are copies in a temporary folder (the modules' paths pointed
at them), so that no test can ever replace the repository's own resources.
"""

from __future__ import annotations

import ast
import os
import shutil
from pathlib import Path

import pytest

from sodwa_editor.cli import main

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "sodwa_editor"
COMPOUND = ROOT / "maps" / "indoor-compound.json"


def run(capsys, *args: object) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def resources(tmp_path, monkeypatch):
    """Copies of resources/ and schemas/ the commands read as their defaults."""
    from sodwa_editor.battle import jsonfiles, rules, sheet
    from sodwa_editor.battle.ai import profile

    res, schemas = tmp_path / "resources", tmp_path / "schemas"
    shutil.copytree(ROOT / "resources", res)
    shutil.copytree(ROOT / "schemas", schemas)
    monkeypatch.setattr(rules, "DEFAULT_RULES_PATH", res / "rules.json")
    monkeypatch.setattr(sheet, "DEFAULT_ROSTER_PATH", res / "roster.json")
    monkeypatch.setattr(profile, "DEFAULT_PROFILE", res / "ai-profile.json")
    monkeypatch.setattr(jsonfiles, "RESOURCE_DIR", res)
    monkeypatch.setattr(jsonfiles, "SCHEMA_DIR", schemas)
    return res


@pytest.fixture
def no_battle(monkeypatch):
    """A battle started anyway fails the test: the refusal must come first."""
    from sodwa_editor.battle import batch, loop, replay

    def played(*args, **kwargs):
        raise AssertionError("a battle was played before the output was refused")

    for module in (loop, replay):
        monkeypatch.setattr(module, "run_battle", played)
    monkeypatch.setattr(batch, "run_batch", played)


def linked(target: Path, how: str, folder: Path) -> Path:
    """``target`` itself, or a symbolic or hard link to it in ``folder``."""
    if how == "same":
        return target
    link = folder / f"{how}-link.json"
    (os.symlink if how == "symlink" else os.link)(target, link)
    return link


COMMANDS = {
    "battle --replay": lambda out: ["battle", COMPOUND, "--replay", out],
    "simulate --report": lambda out: ["simulate", COMPOUND, "--battles", "1", "--report", out],
    "pack build -o": lambda out: ["pack", "build", COMPOUND, "-o", out],
}


@pytest.mark.parametrize("how", ["same", "symlink", "hardlink"])
@pytest.mark.parametrize("default", ["rules.json", "roster.json", "ai-profile.json"])
@pytest.mark.parametrize("command", list(COMMANDS))
def test_an_output_never_replaces_a_default_resource(resources, no_battle, tmp_path, capsys,
                                                     command, default, how):
    target = resources / default
    before = target.read_bytes()
    out = linked(target, how, tmp_path)
    code, stdout, err = run(capsys, *COMMANDS[command](out))
    assert code == 2, err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    what = {"rules.json": "the default rules", "roster.json": "the default roster",
            "ai-profile.json": "the default AI profile"}[default]
    assert f"cannot write {out}: it is {what}, which this command reads" in err, err
    assert target.read_bytes() == before and stdout == ""


@pytest.mark.parametrize("command", list(COMMANDS))
def test_an_output_never_replaces_a_schema(resources, no_battle, tmp_path, capsys, command):
    schema = tmp_path / "schemas" / "replay.schema.json"
    before = schema.read_bytes()
    code, _, err = run(capsys, *COMMANDS[command](linked(schema, "symlink", tmp_path)))
    assert code == 2 and "it is a JSON Schema, which this command reads" in err, err
    assert schema.read_bytes() == before


@pytest.mark.parametrize("option", ["--rules", "--roster", "--ai-profile", "--teams"])
@pytest.mark.parametrize("how", ["same", "hardlink"])
def test_an_output_never_replaces_an_input_given(resources, no_battle, tmp_path, capsys,
                                                 option, how):
    given = tmp_path / "given.json"
    shutil.copy(resources / {"--rules": "rules.json", "--roster": "roster.json",
                             "--ai-profile": "ai-profile.json"}.get(option, "rules.json"), given)
    before = given.read_bytes()
    out = linked(given, how, tmp_path)
    for args in (["battle", COMPOUND, option, given, "--replay", out],
                 ["simulate", COMPOUND, "--battles", "1", option, given, "--report", out]):
        code, _, err = run(capsys, *args)
        assert code == 2 and "it is one of the input files" in err, err
        assert given.read_bytes() == before


def test_an_output_never_replaces_the_pack_a_map_came_from(resources, no_battle, tmp_path,
                                                           capsys):
    pack = tmp_path / "pack.json"
    assert run(capsys, "pack", "build", COMPOUND, "-o", pack)[0] == 0
    before = pack.read_bytes()
    link = linked(pack, "symlink", tmp_path)
    for args in (["battle", f"{pack}#Indoor compound", "--replay", link],
                 ["simulate", pack, "--battles", "1", "--report", link]):
        code, _, err = run(capsys, *args)
        assert code == 2 and "it is one of the input files" in err, err
        assert pack.read_bytes() == before


def test_an_output_beside_the_inputs_is_written(resources, tmp_path, capsys):
    out = tmp_path / "replay.json"
    code, _, err = run(capsys, "battle", COMPOUND, "--ai", "random,random", "--replay", out)
    assert code == 0, err
    assert out.read_text().startswith('{"format":"sodwa-replay"')


# ------------------------------------------------------------------ import circles
def _imports(path: Path, name: str, modules: set[str]) -> set[str]:
    """The package's modules ``path`` imports, at the top or inside functions."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[:len(package.split(".")) - node.level + 1]
                mod = ".".join([*base, *([node.module] if node.module else [])])
            else:
                mod = node.module or ""
            subs = {f"{mod}.{a.name}" for a in node.names} & modules
            out |= subs if subs and not node.module else {mod, *subs}
    return out & modules


def test_the_command_modules_import_no_circle():
    """``cli.py`` -> ``cli_simulate.py`` -> ``cli_battle.py`` -> ``cli_common.py``: no
    command module is on an import circle (lazy imports inside functions count)."""
    files = {}
    for p in PACKAGE.rglob("*.py"):
        parts = p.relative_to(ROOT).with_suffix("").parts
        files[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = p
    graph = {name: _imports(p, name, set(files)) - {name} for name, p in files.items()}
    for start in (n for n in graph if n.rpartition(".")[2].startswith("cli")):
        seen, todo = set(), list(graph[start])
        while todo:
            n = todo.pop()
            if n == start:
                pytest.fail(f"{start} imports itself through the modules it imports")
            if n not in seen:
                seen.add(n)
                todo += graph[n]


def test_an_output_in_a_missing_folder_is_refused_before_the_battle(no_battle, tmp_path,
                                                                    capsys):
    out = tmp_path / "no-such-folder" / "r.json"
    code, _, err = run(capsys, "battle", COMPOUND, "--replay", out)
    assert code == 1 and err.count("\n") == 1, err
    assert f"cannot create a file in {out.parent}: No such file or directory" in err


@pytest.mark.parametrize("how", ["same", "symlink", "hardlink"])
def test_a_screenshot_never_replaces_its_map(tmp_path, how):
    """``sodwa-editor --screenshot OUT.png MAP`` wrote the PNG over MAP when OUT was
    MAP (exit 0, the map lost)."""
    import subprocess
    import sys

    path = tmp_path / "m.json"
    shutil.copy(COMPOUND, path)
    before = path.read_bytes()
    out = linked(path, how, tmp_path)
    done = subprocess.run([sys.executable, "-m", "sodwa_editor.editor.app", "--screenshot",
                           str(out), str(path)], capture_output=True, text=True, timeout=300,
                          env={**os.environ, "QT_QPA_PLATFORM": "offscreen"}, check=False)
    assert done.returncode == 2, done.stderr
    assert "it is one of the input files" in done.stderr and done.stderr.count("\n") == 1
    assert path.read_bytes() == before
