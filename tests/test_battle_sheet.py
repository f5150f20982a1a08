"""Character sheets and the roster: full sheets, costs, the sheet of a map character
(own attributes, old aliases, archetype by name, defaults) and the editor's roster."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from sodwa_editor.battle.jsonfiles import BattleInputError
from sodwa_editor.battle.sheet import (
    DEFAULT_ROSTER_PATH,
    SHEET_KEYS,
    load_roster,
    roster_from_dict,
    sheet_for,
)
from sodwa_editor.battle.teams import combatants_from_map
from sodwa_editor.engine.model import Character
from sodwa_editor.io.files import load_map

ROOT = Path(__file__).resolve().parents[1]


def roster_doc():
    return json.loads(DEFAULT_ROSTER_PATH.read_text(encoding="utf-8"))


def test_roster_has_at_least_ten_archetypes_with_full_sheets():
    roster = load_roster()
    assert len(roster.archetypes) >= 10
    for a in roster.archetypes:
        s = a.sheet()
        assert set(a.values) == set(SHEET_KEYS)
        assert s.initiative >= 1 and s.health >= 1 and s.cost > 0
        assert s.move == a.move and s.range == a.range and s.flight == a.flight


def test_costs_make_a_team_of_four_about_400_points():
    """RB: a "400-point game"; the roster is balanced so that four characters of it make
    a 400-point team (docs/map-format.md, Roster)."""
    costs = sorted(a.values["cost"] for a in load_roster().archetypes)
    assert 360 <= 4 * sum(costs) / len(costs) <= 440
    assert sum(costs[:4]) <= 400 <= sum(costs[-4:])
    assert costs[0] >= 60 and costs[-1] <= 160
    assert load_roster().defaults["cost"] == 100  # a standard character


def test_sample_maps_characters_find_their_archetypes():
    """Characters placed from the roster carry its name; the sample skirmish maps use
    archetype names (the others fall back to the default sheet)."""
    roster = load_roster()
    for name in ("outdoor-skirmish", "indoor-compound"):
        for c in combatants_from_map(load_map(ROOT / "maps" / f"{name}.json"), roster):
            assert c.sheet.archetype, (name, c.id)


def test_every_sample_map_makes_battle_sheets():
    """Existing map files keep working: every character gets a full sheet."""
    roster = load_roster()
    for path in sorted((ROOT / "maps").glob("*.json")):
        model = load_map(path)
        for c in model.characters.values():
            s = sheet_for(c, roster)
            assert s.move == c.move and s.range == c.range and s.flight == c.flight


def test_sheet_precedence_own_value_alias_archetype_default():
    """B6: own attribute, then an old single key, then the archetype, then defaults."""
    roster = load_roster()
    knight = roster.find("Knight")
    own = Character("k", "red", 0, 0, move=2, range=1, name="  knight ",
                    attributes={"melee_defense": 130, "defense": 90, "health": 3, "other": 7})
    s = sheet_for(own, roster)
    assert s.archetype == "Knight" and s.name == "  knight "
    assert (s.melee_defense, s.ranged_defense, s.health) == (130, 90, 3)
    assert s.melee_accuracy == knight.values["melee_accuracy"]
    assert (s.move, s.range, s.damage_type) == (2, 1, knight.damage_type)
    nobody = sheet_for(Character("n", "red", 0, 0, attributes={"accuracy": 33}), roster)
    assert (nobody.archetype, nobody.name) == ("", "n")
    assert (nobody.melee_accuracy, nobody.ranged_accuracy) == (33, 33)
    assert nobody.initiative == roster.defaults["initiative"]
    assert nobody.damage_type == roster.default_damage_type


def test_archetype_sheet_equals_the_sheet_of_a_character_placed_by_the_editor():
    """The editor's character tool copies the roster's attributes onto the character."""
    from sodwa_editor.editor.roster import load_roster as editor_roster
    from sodwa_editor.editor.roster import make_character

    roster = load_roster()
    entries = editor_roster()["characters"]
    assert [e["name"] for e in entries] == roster.names()
    for entry in entries:
        placed = make_character(entry, "c1", "red", 0, 0)
        assert sheet_for(placed, roster) == roster.find(entry["name"]).sheet()


@pytest.mark.parametrize(("attributes", "message"), [
    ({"initiative": -5}, "character 'bad': initiative must be at least 1, not -5"),
    ({"initiative": 0}, "character 'bad': initiative must be at least 1, not 0"),
    ({"health": 0}, "character 'bad': health must be at least 1, not 0"),
    ({"damage": -1}, "character 'bad': melee_damage must be at least 0, not -1"),
])
def test_bad_sheet_values_get_one_line(attributes, message):
    with pytest.raises(BattleInputError, match=f"^{re.escape(message)}$"):
        sheet_for(Character("bad", "red", 0, 0, attributes=attributes), load_roster())


def test_negative_move_is_refused():
    with pytest.raises(BattleInputError, match="character 'bad': move must be at least 0"):
        sheet_for(Character("bad", "red", 0, 0, move=-1), load_roster())


@pytest.mark.parametrize(("change", "message"), [
    (lambda d: d["characters"][0]["attributes"].update(initiative=-3),
     "roster.json: characters[0].attributes.initiative: -3 is less than the minimum of 1"),
    (lambda d: d["characters"][1]["attributes"].pop("power"),
     "roster.json: characters[1].attributes.power: missing required key"),
    (lambda d: d["characters"].append(dict(d["characters"][0], name="KNIGHT")),
     "roster.json: characters[15].name: archetype 'KNIGHT' appears twice"),
    (lambda d: d.pop("defaults"), "roster.json: defaults: missing required key"),
])
def test_bad_roster_gets_one_line_naming_the_key(change, message):
    doc = roster_doc()
    change(doc)
    with pytest.raises(BattleInputError) as err:
        roster_from_dict(doc, "roster.json")
    assert str(err.value) == message


def test_editor_roster_without_a_file_still_has_a_character(tmp_path):
    """The editor's fallback roster (file missing) still places characters; the battle
    loader refuses the missing file with one line."""
    from sodwa_editor.editor.roster import load_roster as editor_roster

    assert editor_roster.__wrapped__(tmp_path / "none.json")["characters"]
    with pytest.raises(BattleInputError, match="none.json: file not found"):
        load_roster(tmp_path / "none.json")
