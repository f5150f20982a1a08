"""The battle rules config: every number of the battle rules as one frozen object.

A rules file (``schemas/rules.schema.json``) may give any subset of the keys;
the rest come from the default file ``resources/rules.json``, which gives every
key.  Keys the rulebook fixes are marked (RB) in the schema, the others answer
the questions it leaves open; docs/rules.md (section Battle) lists each with
the sentence it rests on.  Nothing in the battle package writes these numbers
as constants.

>>> rules = default_rules()
>>> rules.clock.turn_threshold, rules.clock.turn_cost, rules.modifiers.impeded_defense
(1000, 500, 20)
>>> rules_from_dict({"format": "sodwa-rules", "format_version": 1,
...                  "clock": {"move_cost": 300}}).clock.move_cost
300
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, fields, is_dataclass
from functools import cache
from typing import Any, Literal

from .jsonfiles import RESOURCE_DIR, BattleInputError, PathLike, read_json, validate

DEFAULT_RULES_PATH = RESOURCE_DIR / "rules.json"


@dataclass(frozen=True, slots=True)
class BattleRules:
    point_cap: int | None
    max_turns: int


@dataclass(frozen=True, slots=True)
class ClockRules:
    turn_threshold: int
    turn_cost: int
    move_cost: int
    attack_cost: int
    actions_per_type: int
    one_turn_per_tick: bool


@dataclass(frozen=True, slots=True)
class OrderRules:
    first_tie: Literal["seeded_coin", "team_order"]


@dataclass(frozen=True, slots=True)
class ActionRules:
    move_after_attack_divisor: int
    move_after_attack_min: int


@dataclass(frozen=True, slots=True)
class TargetingRules:
    range_metric: Literal["chebyshev", "euclidean", "manhattan"]


@dataclass(frozen=True, slots=True)
class ModifierRules:
    impeded_defense: int
    elevation_higher_accuracy: int
    elevation_lower_accuracy: int
    elevation_per_level: bool
    moved_accuracy: int
    moved_defense: int


@dataclass(frozen=True, slots=True)
class AwarenessRules:
    mode: Literal["los", "always"]


@dataclass(frozen=True, slots=True)
class CombatRules:
    defeated_at_or_below: int
    min_damage: int
    dr_applies_to: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class DiceRules:
    auto_fail_at_or_below: int
    auto_success_at_or_above: int


@dataclass(frozen=True, slots=True)
class DoublesRules:
    require_success: bool


@dataclass(frozen=True, slots=True)
class KarmaRules:
    gain_below: int
    gain_from_effective_difficulty: bool
    rescues_auto_fail: bool


@dataclass(frozen=True, slots=True)
class LiquidRules:
    accuracy: int
    defense: int
    evasion: int
    move: int


@dataclass(frozen=True, slots=True)
class TerrainRules:
    obstruction_damage_threshold: int
    basic_attack_targets_obstructions: bool
    liquid: LiquidRules


@dataclass(frozen=True, slots=True)
class AbilityRules:
    falling_indoors: bool
    maim_chance: int
    maim_move_divisor: int
    falling_object_durability: int
    karma_against_own_team: bool


@dataclass(frozen=True, slots=True)
class WaterRules:
    accuracy: int
    defense: int
    evasion: int
    move: int


@dataclass(frozen=True, slots=True)
class TerrainPropertyRules:
    enabled: bool
    cover_defense: int
    aoe_cover_defense: int
    exposed_cancels_height_cover: bool
    height_melee_needs_steep: bool
    darkvision: tuple[str, ...]
    flyers_ignore_ground: bool
    save_dc_baseline: int
    save_percent_per_dc: int
    damage_percent: int
    min_damage: int
    trap_springs_once: bool
    shallow_water: WaterRules
    deep_water: WaterRules


@dataclass(frozen=True, slots=True)
class ConditionRules:
    prone_melee_defense: int
    prone_ranged_defense: int
    prone_loses_move: bool
    poisoned_accuracy: int
    restrained_defense: int
    restrained_escape_dc: int


@dataclass(frozen=True, slots=True)
class AltitudeRules:
    enabled: bool
    indoor_max_layer: int
    descend_layers: int
    fall_save_dc: int
    fall_damage_saved: int
    fall_damage_failed: int
    collision: bool
    collision_dice: int
    collision_save_dc: int


@dataclass(frozen=True, slots=True)
class Rules:
    """One complete rule set; sections as in the file."""

    name: str
    battle: BattleRules
    clock: ClockRules
    order: OrderRules
    actions: ActionRules
    targeting: TargetingRules
    modifiers: ModifierRules
    awareness: AwarenessRules
    combat: CombatRules
    dice: DiceRules
    doubles: DoublesRules
    karma: KarmaRules
    terrain: TerrainRules
    abilities: AbilityRules
    terrain_properties: TerrainPropertyRules
    conditions: ConditionRules
    altitude: AltitudeRules


#: Section (or sub-section) name -> its type; the keys of the file are the field names.
SECTION_TYPES: dict[str, type] = {
    "battle": BattleRules, "clock": ClockRules, "order": OrderRules, "actions": ActionRules,
    "targeting": TargetingRules, "modifiers": ModifierRules, "awareness": AwarenessRules,
    "combat": CombatRules, "dice": DiceRules, "doubles": DoublesRules, "karma": KarmaRules,
    "terrain": TerrainRules, "liquid": LiquidRules, "abilities": AbilityRules,
    "terrain_properties": TerrainPropertyRules, "shallow_water": WaterRules,
    "deep_water": WaterRules, "conditions": ConditionRules, "altitude": AltitudeRules,
}


def _build(cls: type, data: dict[str, Any]) -> Any:
    values: dict[str, Any] = {}
    for f in fields(cls):
        value = data[f.name]
        if f.name in SECTION_TYPES:
            value = _build(SECTION_TYPES[f.name], value)
        elif isinstance(value, list):
            value = tuple(value)
        values[f.name] = value
    return cls(**values)


def _merge(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    out = copy.deepcopy(base)
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _merge(out[key], value)
        else:
            out[key] = copy.deepcopy(value)
    return out


@cache
def _default_doc() -> dict[str, Any]:
    doc = read_json(DEFAULT_RULES_PATH)
    validate(doc, "rules", str(DEFAULT_RULES_PATH))
    return doc


def rules_from_dict(doc: Any, source: str = "rules") -> Rules:
    """The rule set of a parsed rules document, missing keys taken from the default file.

    Raises :class:`BattleInputError` (one line naming ``source`` and the key) for a
    document the schema refuses or whose numbers contradict each other.
    """
    validate(doc, "rules", source)
    merged = _merge(_default_doc(), doc)
    merged["name"] = doc.get("name", "")  # a file's name is its own, never the default's
    dice = merged["dice"]
    if dice["auto_fail_at_or_below"] >= dice["auto_success_at_or_above"]:
        raise BattleInputError(
            f"{source}: dice.auto_fail_at_or_below ({dice['auto_fail_at_or_below']}) must be "
            f"below dice.auto_success_at_or_above ({dice['auto_success_at_or_above']})")
    try:
        return _build(Rules, merged)
    except KeyError as exc:  # the default file lacks a key: a packaging error
        raise BattleInputError(f"{DEFAULT_RULES_PATH}: missing key {exc.args[0]!r}") from None


def load_rules(path: PathLike | None = None) -> Rules:
    """The rules of a file (``None``: the default file ``resources/rules.json``)."""
    if path is None:
        return default_rules()
    return rules_from_dict(read_json(path), str(path))


@cache
def default_rules() -> Rules:
    """The default rule set (``resources/rules.json``), built once per process."""
    return rules_from_dict(_default_doc(), str(DEFAULT_RULES_PATH))


def rules_to_dict(rules: Rules) -> dict[str, Any]:
    """The complete rules document of a rule set (``rules_from_dict`` gives it back)."""

    def plain(obj: Any) -> Any:
        if is_dataclass(obj):
            return {f.name: plain(getattr(obj, f.name)) for f in fields(obj)}
        return list(obj) if isinstance(obj, tuple) else obj

    return {"format": "sodwa-rules", "format_version": 1, **plain(rules)}
