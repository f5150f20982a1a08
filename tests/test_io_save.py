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


@pytest.mark.parametrize("field, value", [
    ("name", "n" * 201),
    ("description", "d" * 100_001),
])
def test_text_longer_than_the_schema_allows_is_refused_before_writing(saved, field, value):
    """A save never writes a file that would fail to load (the schema's maxLength)."""
    before = saved.read_bytes()
    model = outdoor_skirmish()
    setattr(model, field, value)
    with pytest.raises(MapSaveError, match=rf"/{field}: .* is too long \(at most"):
        save_map(model, saved)
    assert saved.read_bytes() == before
    assert leftovers(saved.parent) == []


def test_long_team_and_kind_are_refused_with_their_json_path(saved):
    model = MapModel(4, 4)
    model.characters["a"] = Character("a", "t" * 65, 1, 1)
    with pytest.raises(MapSaveError, match=r"/characters/0/team: .* too long \(at most 64"):
        save_map(model, saved)


@pytest.mark.skipif(os.name != "posix", reason="POSIX permissions")
def test_read_only_file_is_not_replaced(saved):
    before = saved.read_bytes()
    saved.chmod(0o444)
    try:
        with pytest.raises(MapSaveError, match="read-only"):
            save_map(MapModel(2, 2), saved)
        assert saved.read_bytes() == before
        assert leftovers(saved.parent) == []
    finally:
        saved.chmod(0o644)


@pytest.mark.skipif(os.name != "posix", reason="symbolic links")
def test_saving_through_a_symlink_updates_the_file_it_points_to(saved, tmp_path):
    link = tmp_path / "link.json"
    link.symlink_to(saved)
    save_map(MapModel(2, 2, name="via link"), link)
    assert link.is_symlink()
    assert read_map(saved)[0].name == "via link"
