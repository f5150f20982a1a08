"""The rules catalogue and rules variants (issue 28 section 3): every key of the rules
schema with its default, range, basis and decisions, and a variant that saves only the
keys it changes."""

from __future__ import annotations

import json

import pytest

from sodwa_editor.battle.jsonfiles import BattleInputError, load_schema
from sodwa_editor.battle.rules import default_rules, load_rules, rules_to_dict
from sodwa_editor.battle.rules_catalog import RulesVariant, parse_rule_docs, rule_docs, rule_keys


def schema_leaves(node, path=()):
    for name, sub in node.get("properties", {}).items():
        here = (*path, name)
        if sub.get("type") == "object" and "properties" in sub:
            yield from schema_leaves(sub, here)
        elif len(here) > 1:
            yield ".".join(here)


def test_every_schema_key_is_in_the_catalogue_with_the_default_files_value():
    keys = {k.key: k for k in rule_keys()}
    assert set(keys) == set(schema_leaves(load_schema("rules")))
    defaults = rules_to_dict(default_rules())
    for key, rk in keys.items():
        node = defaults
        for part in rk.path:
            node = node[part]
        assert node == rk.default, key


def test_every_rules_key_is_documented_with_its_basis_and_a_decision_that_exists():
    """docs/rules.md's *Rules config* table names every key, RB/open/seed, and the
    decision (B-number ...) it rests on: the rules editor shows them."""
    docs = rule_docs()
    assert docs.path is not None and docs.path.name == "rules.md"
    for rk in rule_keys():
        assert rk.key in docs.keys, f"{rk.key} has no row in docs/rules.md's Rules config"
        assert rk.basis in ("RB", "open", "seed"), rk.key
        assert rk.decisions, f"{rk.key}: its row names no decision"
        for ident in rk.decisions:
            assert ident in docs.decisions, (rk.key, ident)


def test_the_catalogue_reads_kinds_ranges_and_choices_from_the_schema():
    keys = {k.key: k for k in rule_keys()}
    cap = keys["battle.point_cap"]
    assert (cap.kind, cap.nullable, cap.default) == ("integer", True, None)
    assert keys["order.first_tie"].choices == ("seeded_coin", "team_order")
    dr = keys["combat.dr_applies_to"]
    assert (dr.kind, dr.choices, dr.default) == ("list", (), ["physical", "energy", "magical"])
    b10 = keys["clock.one_turn_per_tick"]
    assert (b10.kind, b10.basis, b10.decisions) == ("boolean", "RB", ("B10",))
    assert keys["clock.turn_cost"].range_text() == "1 .. 1000000"


def test_a_variant_saves_only_its_changed_keys_nested_as_the_schema_nests_them(tmp_path):
    v = RulesVariant(name="wet", description="liquid matters")
    assert v.set("terrain.liquid.move", -1) is None
    assert v.set("karma.gain_below", 40) is None
    doc = v.document()
    assert doc == {"format": "sodwa-rules", "format_version": 1, "name": "wet",
                   "description": "liquid matters", "karma": {"gain_below": 40},
                   "terrain": {"liquid": {"move": -1}}}
    path = tmp_path / "wet.json"
    path.write_text(v.text(), encoding="utf-8")
    rules = load_rules(path)
    assert rules.terrain.liquid.move == -1 and rules.karma.gain_below == 40
    assert rules.clock.turn_cost == default_rules().clock.turn_cost
    back = RulesVariant.load(path)
    assert back.changed() == v.changed() and back.name == "wet"


def test_setting_a_key_back_to_its_default_is_no_change_and_sets_compare_unordered():
    v = RulesVariant()
    v.set("clock.turn_cost", 400)
    v.set("clock.turn_cost", 500)
    assert v.changed() == {}
    assert v.set("combat.dr_applies_to", ["magical", "physical", "energy"]) is None
    assert v.changed() == {}
    assert v.set("combat.dr_applies_to", ["physical"]) is None
    assert v.changed() == {"combat.dr_applies_to": ["physical"]}
    assert v.set("battle.point_cap", 400) is None and v.value("battle.point_cap") == 400
    assert v.set("battle.point_cap", None) is None and "battle.point_cap" not in v.changed()


@pytest.mark.parametrize("key, value, message", [
    ("clock.turn_cost", 0, "clock.turn_cost: 0 is less than the minimum of 1"),
    ("clock.turn_cost", 2.5, "clock.turn_cost: 2.5 is not of type 'integer'"),
    ("clock.one_turn_per_tick", 1, "clock.one_turn_per_tick: 1 is not of type 'boolean'"),
    ("order.first_tie", "dice", "order.first_tie: 'dice' is not one of"),
    ("no.such", 1, "no.such: not a rules key"),
])
def test_a_refused_value_is_one_line_naming_the_key(key, value, message):
    v = RulesVariant()
    error = v.set(key, value)
    assert error is not None and error.startswith(message) and "\n" not in error
    assert v.changed() == {}


def test_numbers_that_contradict_each_other_are_refused_when_the_rules_are_built(tmp_path):
    v = RulesVariant()
    assert v.set("dice.auto_fail_at_or_below", 100) is None  # each alone is in range
    with pytest.raises(BattleInputError, match="must be below dice.auto_success_at_or_above"):
        v.rules()
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"format": "sodwa-rules", "format_version": 1,
                               "clock": {"turn_cost": -5}}), encoding="utf-8")
    with pytest.raises(BattleInputError, match=r"bad.json: clock.turn_cost: -5 is less"):
        RulesVariant.load(bad)


def test_parse_rule_docs_reads_decisions_of_every_prefix():
    docs = parse_rule_docs("| AB9 | Maim. | seed | `test_maim` |\n| S12 | Flanking. | CS |\n")
    assert set(docs.decisions) == {"AB9", "S12"}
    assert docs.decisions["AB9"].tests == "`test_maim`"
