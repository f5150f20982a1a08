"""The battle rules config: the default file, partial files, one-line errors, and the
schema, the default file, the typed object and docs/rules.md agreeing key by key."""

from __future__ import annotations

import json
import re
from dataclasses import fields
from pathlib import Path

import pytest

from sodwa_editor.battle.jsonfiles import BattleInputError, load_schema
from sodwa_editor.battle.rules import (
    DEFAULT_RULES_PATH,
    SECTION_TYPES,
    Rules,
    default_rules,
    load_rules,
    rules_from_dict,
    rules_to_dict,
)

ROOT = Path(__file__).resolve().parents[1]
HEAD = {"format": "sodwa-rules", "format_version": 1}


def schema_keys(props: dict, prefix: str = "") -> dict[str, dict]:
    """Dotted key -> its schema, for every leaf of the sections."""
    out = {}
    for name, sub in props.items():
        if "properties" in sub:
            out |= schema_keys(sub["properties"], f"{prefix}{name}.")
        else:
            out[prefix + name] = sub
    return out


def leaf_keys() -> dict[str, dict]:
    props = {k: v for k, v in load_schema("rules")["properties"].items() if "properties" in v}
    return schema_keys(props)


def value_at(doc: dict, dotted: str):
    for part in dotted.split("."):
        doc = doc[part]
    return doc


def test_default_file_gives_every_key_and_matches_the_schema_defaults():
    doc = json.loads(DEFAULT_RULES_PATH.read_text(encoding="utf-8"))
    keys = leaf_keys()
    assert len(keys) >= 30
    for key, sub in keys.items():
        assert value_at(doc, key) == sub["default"], key
        assert "description" in sub or key.startswith("terrain.liquid."), key


def test_typed_object_has_exactly_the_schema_keys():
    def dataclass_keys(cls, prefix=""):
        out = set()
        for f in fields(cls):
            if f.name in SECTION_TYPES:
                out |= dataclass_keys(SECTION_TYPES[f.name], f"{prefix}{f.name}.")
            elif cls is not Rules:
                out.add(prefix + f.name)
        return out

    assert dataclass_keys(Rules) == set(leaf_keys())


def test_every_key_is_documented_in_rules_md():
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    battle = text[text.index("## Battle"):]
    missing = [k for k in leaf_keys() if f"`{k}`" not in battle]
    assert missing == []


def test_default_rules_are_the_rulebook_numbers():
    r = default_rules()
    assert (r.clock.turn_threshold, r.clock.turn_cost, r.clock.move_cost,
            r.clock.attack_cost, r.clock.actions_per_type) == (1000, 500, 250, 250, 1)
    assert (r.actions.move_after_attack_divisor, r.actions.move_after_attack_min) == (4, 1)
    assert (r.modifiers.impeded_defense, r.karma.gain_below) == (20, 50)
    assert (r.dice.auto_fail_at_or_below, r.dice.auto_success_at_or_above) == (1, 100)
    assert r.terrain.obstruction_damage_threshold == 3
    assert r.combat.dr_applies_to == ("physical", "energy", "magical")
    assert load_rules() is r


def test_a_partial_file_takes_the_other_keys_from_the_default(tmp_path):
    path = tmp_path / "fast.json"
    path.write_text(json.dumps({**HEAD, "name": "fast", "clock": {"turn_cost": 400},
                                "terrain": {"liquid": {"defense": 5}}}))
    r = load_rules(path)
    d = default_rules()
    assert (r.name, r.clock.turn_cost, r.terrain.liquid.defense) == ("fast", 400, 5)
    assert r.clock.move_cost == d.clock.move_cost and r.karma == d.karma
    assert r.terrain.obstruction_damage_threshold == d.terrain.obstruction_damage_threshold
    assert d.name == "SODWA rulebook defaults"
    assert rules_from_dict({**HEAD, "clock": {"turn_cost": 400}}).name == ""


def test_round_trip_through_a_document():
    r = default_rules()
    assert rules_from_dict(rules_to_dict(r)) == r
    doc = rules_to_dict(r)
    doc["order"]["first_tie"] = "team_order"
    assert rules_from_dict(doc).order.first_tie == "team_order"


@pytest.mark.parametrize(("doc", "message"), [
    ({**HEAD, "clock": {"turn_cots": 5}},
     "r.json: clock.turn_cots: unknown key (allowed here: turn_threshold, "),
    ({**HEAD, "clock": {"turn_cost": -5}}, "r.json: clock.turn_cost: -5 is less than the minimum"),
    ({**HEAD, "clock": {"turn_cost": 500.0}}, "r.json: clock.turn_cost: 500.0 is not of type"),
    ({**HEAD, "order": {"first_tie": "coin"}}, "r.json: order.first_tie: 'coin' is not one of"),
    ({**HEAD, "karma": {"rescues_auto_fail": "yes"}},
     "r.json: karma.rescues_auto_fail: 'yes' is not of type 'boolean'"),
    ({**HEAD, "terrain": {"liquid": {"wet": 1}}}, "r.json: terrain.liquid.wet: unknown key"),
    ({"format": "sodwa-map", "format_version": 1}, "r.json: format: 'sodwa-rules' was expected"),
    ({"format": "sodwa-rules"}, "r.json: format_version: missing required key"),
    ({**HEAD, "dice": {"auto_fail_at_or_below": 60, "auto_success_at_or_above": 50}},
     "r.json: dice.auto_fail_at_or_below (60) must be below dice.auto_success_at_or_above (50)"),
    ([1, 2], "r.json: (top level): [1, 2] is not of type 'object'"),
])
def test_bad_rules_get_one_line_naming_the_key(doc, message):
    with pytest.raises(BattleInputError) as err:
        rules_from_dict(doc, "r.json")
    assert str(err.value).startswith(message)
    assert "\n" not in str(err.value)


@pytest.mark.parametrize(("text", "message"), [
    ("{", r"r\.json: invalid JSON at line 1, column 2"),
    ('{"format": NaN}', r"r\.json: invalid JSON: NaN is not a number JSON allows"),
    ('{"format": 1, "format": 2}', r"r\.json: invalid JSON: key 'format' appears twice"),
    (b"\xff\xfe", r"r\.json: not UTF-8 text"),
])
def test_broken_rules_files_get_one_line(tmp_path, text, message):
    path = tmp_path / "r.json"
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    with pytest.raises(BattleInputError) as err:
        load_rules(path)
    assert re.search(message, str(err.value).replace(str(tmp_path) + "/", ""))
    with pytest.raises(BattleInputError, match="file not found"):
        load_rules(tmp_path / "missing.json")
