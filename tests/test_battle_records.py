"""records.quick_init: the same dataclass, built through its slots."""

from __future__ import annotations

import dataclasses
import inspect
import pickle
from dataclasses import MISSING, dataclass, field

import pytest

from sodwa_editor.battle import attack, events, loop
from sodwa_editor.battle.records import quick_init

QUICK = [events.TurnStarted, events.Moved, events.Attacked, events.TerrainAttacked,
         events.TerrainDestroyed, events.Defeated, events.TurnEnded, events.BattleEnded,
         attack.Modifier, attack.Situation, attack.AttackPreview, attack.AttackResult,
         loop.Decision]


@pytest.mark.parametrize("cls", QUICK, ids=lambda c: c.__name__)
def test_quick_init_takes_the_dataclass_parameters_and_stays_frozen(cls):
    params = list(inspect.signature(cls).parameters.values())
    assert [p.name for p in params] == [f.name for f in dataclasses.fields(cls)]
    for p, f in zip(params, dataclasses.fields(cls), strict=True):
        assert p.default == (inspect.Parameter.empty if f.default is MISSING else f.default)
        assert p.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD
    values = {f.name: (i, f.name) for i, f in enumerate(dataclasses.fields(cls))}
    a, b = cls(**values), cls(*values.values())
    assert a == b and hash(a) == hash(b) and repr(a) == repr(b)
    assert [getattr(a, name) for name in values] == list(values.values())
    assert pickle.loads(pickle.dumps(a)) == a
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(a, next(iter(values)), 0)


def test_quick_init_equals_the_dataclass_own_init():
    def point() -> type:
        @dataclass(frozen=True, slots=True)
        class Point:
            x: int
            y: int = 2
            tag: tuple[int, ...] = ()
        return Point

    plain, quick = point(), quick_init(point())
    for args, kwargs in [((1,), {}), ((1, 3), {}), ((1,), {"tag": (4,)}), ((), {"x": 5, "y": 6})]:
        a, b = plain(*args, **kwargs), quick(*args, **kwargs)
        assert repr(a) == repr(b) and dataclasses.astuple(a) == dataclasses.astuple(b)
    with pytest.raises(TypeError):
        quick()
    with pytest.raises(TypeError):
        quick(1, 2, (), 4)


def test_quick_init_refuses_what_it_does_not_build():
    @dataclass(frozen=True, slots=True)
    class Factory:
        items: list[int] = field(default_factory=list)

    @dataclass(frozen=True)
    class NoSlots:
        x: int

    @dataclass(frozen=True, slots=True)
    class Post:
        x: int

        def __post_init__(self) -> None:
            pass

    for cls in (Factory, NoSlots, Post):
        with pytest.raises(TypeError):
            quick_init(cls)
