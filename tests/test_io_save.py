"""Saving is atomic: a failed save leaves the previous file exactly as it was."""

from __future__ import annotations

import os
import stat

import pytest

from sodwa_editor.engine.model import Character, MapModel
from sodwa_editor.engine.samples import outdoor_skirmish
from sodwa_editor.io import MapSaveError, dumps_map, read_map, save_map


@pytest.fixture
def saved(tmp_path):
    path = tmp_path / "map.json"
    save_map(outdoor_skirmish(), path)
    return path


def leftovers(folder):
    return sorted(p.name for p in folder.iterdir() if p.name != "map.json")


def test_save_writes_the_canonical_text(saved):
    assert saved.read_text(encoding="utf-8") == dumps_map(outdoor_skirmish())
    model, problems = read_map(saved)
    assert problems == [] and model.same_content(outdoor_skirmish())


def test_failing_replace_keeps_the_old_file(saved, monkeypatch):
    before = saved.read_bytes()

    def broken_replace(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(MapSaveError) as info:
        save_map(MapModel(3, 3, name="new"), saved)
    assert saved.read_bytes() == before
    assert leftovers(saved.parent) == []
    assert "No space left on device" in str(info.value)
    assert "previous file is unchanged" in str(info.value)
    assert isinstance(info.value, OSError)


def test_failing_write_keeps_the_old_file(saved, monkeypatch):
    before = saved.read_bytes()

    def broken_fsync(fd):
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(os, "fsync", broken_fsync)
    with pytest.raises(MapSaveError, match="Input/output error"):
        save_map(MapModel(3, 3, name="new"), saved)
    assert saved.read_bytes() == before
    assert leftovers(saved.parent) == []


def test_data_is_flushed_to_disk_before_the_rename(saved, monkeypatch):
    calls = []
    real_fsync, real_replace = os.fsync, os.replace
    monkeypatch.setattr(os, "fsync", lambda fd: (calls.append("fsync"), real_fsync(fd))[1])
    monkeypatch.setattr(os, "replace",
                        lambda a, b: (calls.append("replace"), real_replace(a, b))[1])
    save_map(MapModel(2, 2), saved)
    assert calls[:2] == ["fsync", "replace"]


def test_unstorable_model_fails_before_touching_the_file(saved):
    before = saved.read_bytes()
    model = MapModel(3, 3)
    model.characters["lost"] = Character("lost", "red", 7, 7)  # bypasses the bounds check
    with pytest.raises(MapSaveError, match=r"character 'lost' at \(7, 7\) is outside"):
        save_map(model, saved)
    assert saved.read_bytes() == before
    assert leftovers(saved.parent) == []


def test_missing_folder_is_a_clear_error(tmp_path):
    with pytest.raises(MapSaveError, match="cannot create a file in"):
        save_map(MapModel(2, 2), tmp_path / "no" / "such" / "map.json")


@pytest.mark.skipif(os.name != "posix", reason="POSIX permissions")
def test_file_permissions_are_kept(saved):
    saved.chmod(0o640)
    save_map(MapModel(2, 2), saved)
    assert stat.S_IMODE(saved.stat().st_mode) == 0o640


def test_save_new_file(tmp_path):
    path = tmp_path / "fresh.json"
    save_map(MapModel(2, 2, name="fresh"), path)
    assert read_map(path)[0].name == "fresh"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fresh.json"]
