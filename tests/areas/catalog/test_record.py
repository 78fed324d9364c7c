"""``Record`` behaves as ``@dataclass`` does for the catalog's entities: the same constructor,
``repr``, equality, hashing, immutability, copies and pickles."""

from __future__ import annotations

import copy
import dataclasses
import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

from emulator.areas.catalog.entities import BBox, Coverage, CoverageStore, Layer, StyleRef
from emulator.areas.catalog.record import Record, field


class R(Record):
    a: int
    b: str = "x"
    c: list[int] = field(default_factory=list)


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
    for record, data in ((R, D), (RSub, DSub)):
        r1, d1 = record(*first[0], **first[1]), data(*first[0], **first[1])
        r2, d2 = record(*second[0], **second[1]), data(*second[0], **second[1])
        assert repr(r1).partition("(")[2] == repr(d1).partition("(")[2]
        assert (r1 == r2) == (d1 == d2)
        assert dataclasses.astuple(d1) == r1._values()


def test_defaults_are_fresh_and_inherited_ones_can_change():
    assert R(1).c is not R(1).c
    assert R(1).b == "x" and RSub(1).b == "y" and RSub(1, "z", [2], 1.5).d == 1.5
    assert RSub._fields == ("a", "b", "c", "d")
    assert "c" not in vars(R) and R.b == "x"


@pytest.mark.parametrize(
    "call,message",
    [
        (lambda: R(), "missing 1 required positional argument: 'a'"),
        (lambda: R(1, "b", [], 4), "takes 4 positional arguments but 5 were given"),
        (lambda: R(1, a=2), "got multiple values for 'a'"),
        (lambda: R(1, e=2), "got an unexpected keyword argument 'e'"),
    ],
)
def test_constructor_errors_as_a_dataclass_words_them(call, message):
    with pytest.raises(TypeError, match=message):
        call()


def test_a_required_field_after_a_default_is_refused():
    with pytest.raises(TypeError, match="non-default argument 'z' follows default argument"):

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
