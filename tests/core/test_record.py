"""``@record`` behaves as ``@dataclass`` does: the same constructor, ``repr``, equality,
hashing, immutability, ``__post_init__``, copies and pickles (the catalog's entities and
every area's models are records)."""

from __future__ import annotations

import copy
import dataclasses
import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

from geoserver_emulator.areas.catalog.entities import BBox, Coverage, CoverageStore, Layer, StyleRef
from geoserver_emulator.core.record import field, fields, record, replace


@record
class R:
    a: int
    b: str = "x"
    c: list[int] = field(default_factory=list)


@record
class RSub(R):
    b: str = "y"
    d: float | None = None


@dataclasses.dataclass
class D:
    a: int
    b: str = "x"
    c: list[int] = dataclasses.field(default_factory=list)


@dataclasses.dataclass
class DSub(D):
    b: str = "y"
    d: float | None = None


CALLS = st.one_of(
    st.tuples(st.integers()).map(lambda t: (t, {})),
    st.tuples(st.integers(), st.text(max_size=3)).map(lambda t: (t, {})),
    st.tuples(st.integers(), st.lists(st.integers(), max_size=2)).map(
        lambda t: ((t[0],), {"c": t[1]})
    ),
    st.fixed_dictionaries({"a": st.integers(), "b": st.text(max_size=3)}).map(lambda d: ((), d)),
)


@given(CALLS, CALLS)
def test_same_constructor_repr_and_equality_as_a_dataclass(first, second):
    for kind, data in ((R, D), (RSub, DSub)):
        r1, d1 = kind(*first[0], **first[1]), data(*first[0], **first[1])
        r2, d2 = kind(*second[0], **second[1]), data(*second[0], **second[1])
        assert repr(r1).partition("(")[2] == repr(d1).partition("(")[2]
        assert (r1 == r2) == (d1 == d2)
        assert dataclasses.astuple(d1) == tuple(getattr(r1, n) for n in fields(r1))


def test_defaults_are_fresh_and_inherited_ones_can_change():
    assert R(1).c is not R(1).c
    assert R(1).b == "x" and RSub(1).b == "y" and RSub(1, "z", [2], 1.5).d == 1.5
    assert fields(RSub) == ("a", "b", "c", "d") and RSub.__match_args__ == fields(RSub)
    assert "c" not in vars(R) and R.b == "x"


@pytest.mark.parametrize(
    "call,message",
    [
        (lambda: R(), "missing 1 required positional argument: 'a'"),
        (lambda: R(1, "b", [], 4), "takes 4 positional arguments but 5 were given"),
        (lambda: R(1, a=2), "got multiple values for 'a'"),
        (lambda: R(1, e=2), "got an unexpected keyword argument 'e'"),
        (lambda: RSub(b="q"), "missing 1 required positional argument: 'a'"),
        (lambda: P(), "missing 2 required positional arguments: 'x' and 'y'"),
    ],
)
def test_constructor_errors_as_a_dataclass_words_them(call, message):
    with pytest.raises(TypeError, match=message):
        call()


def test_a_required_field_after_a_default_is_refused():
    with pytest.raises(TypeError, match="non-default argument 'z' follows default argument"):

        @record
        class Bad(R):
            z: int


def test_mutable_records_are_unhashable_and_frozen_ones_hash_by_value():
    with pytest.raises(TypeError):
        hash(R(1))
    box = BBox(0.0, 1.0, 2.0, 3.0, "EPSG:4326")
    assert hash(box) == hash(BBox(0.0, 1.0, 2.0, 3.0, "EPSG:4326"))
    assert {box: 1}[BBox(0.0, 1.0, 2.0, 3.0, "EPSG:4326")] == 1
    with pytest.raises(dataclasses.FrozenInstanceError):
        box.minx = 5.0  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        del box.crs  # type: ignore[misc]
    assert box.union(BBox(-1.0, 0.5, 2.0, 9.0)) == BBox(-1.0, 1.0, 2.0, 9.0, "EPSG:4326")


def test_entities_copy_and_pickle_and_compare_by_class():
    layer = Layer("l", "w", default_style=StyleRef(None, "p"), styles=[StyleRef("w", "s")])
    for again in (copy.deepcopy(layer), pickle.loads(pickle.dumps(layer))):
        assert again == layer and again is not layer and again.styles is not layer.styles
    box = BBox(0.0, 1.0, 2.0, 3.0)
    assert pickle.loads(pickle.dumps(box)) == box and copy.deepcopy(box) == box
    assert Coverage("c", "w", "s").kind == "coverage" and CoverageStore("s", "w").url is None
    assert Coverage("c", "w", "s") != Layer("c", "w")
    assert repr(Layer("l", "w")).startswith("Layer(name='l', workspace='w', type='VECTOR'")


@record(frozen=True)
class P:
    x: int
    y: int
    total: int = 0

    def __post_init__(self) -> None:
        object.__setattr__(self, "total", self.x + self.y)


def test_post_init_runs_and_replace_builds_a_changed_copy():
    p = P(1, 2)
    assert p.total == 3 and replace(p, y=5) == P(1, 5) and replace(p, y=5).total == 6
    with pytest.raises(TypeError, match="unexpected keyword argument 'z'"):
        replace(p, z=1)
    with pytest.raises(TypeError, match="not a record"):
        fields(D(1))


def test_methods_the_class_defines_are_kept():
    @record
    class Own:
        a: int

        def __repr__(self) -> str:
            return "own"

        def __eq__(self, other: object) -> bool:
            return True

    assert repr(Own(1)) == "own" and Own(1) == Own(2) and Own.__hash__ is None
    with pytest.raises(TypeError, match="cannot overwrite attribute __setattr__"):

        @record(frozen=True)
        class Bad:
            a: int

            def __setattr__(self, name: str, value: object) -> None:
                pass


def test_a_recursive_repr_stops():
    r = R(1)
    r.c.append(r)  # type: ignore[arg-type]
    assert repr(r) == "R(a=1, b='x', c=[...])"
