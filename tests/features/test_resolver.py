"""``source_for``: the first provider with data answers; the memory tables are the one
provider today; ``create`` gives a type without data an empty table to write to."""

from __future__ import annotations

from typing import Any

import pytest

from geoserver_emulator import Emulator
from geoserver_emulator.areas.catalog.entities import Attribute as CatalogAttribute
from geoserver_emulator.areas.catalog.entities import FeatureType
from geoserver_emulator.features import resolver, schema, source_for
from geoserver_emulator.features.memory import MemorySource
from geoserver_emulator.features.model import Attribute, Feature, FeatureTable
from geoserver_emulator.features.query import Query


@pytest.fixture
def state() -> Any:
    emu = Emulator("empty")
    table = FeatureTable("roads", [Attribute("name", "java.lang.String")], None, "EPSG:4326")
    table.features = [Feature("roads.1", {"name": "a"})]
    emu.state.features.put("ws", "st", table)
    return emu.state


def test_the_memory_table_of_a_feature_type_answers(state):
    ft = FeatureType("published", "ws", "st", native_name="roads")
    source = source_for(state, ft)
    assert isinstance(source, MemorySource)
    assert [f.fid for f in source.read(Query())] == ["roads.1"]


def test_a_type_without_data_has_no_source_unless_one_is_created(state):
    ft = FeatureType("lakes", "ws", "st", srs="EPSG:3857")
    ft.attributes = [CatalogAttribute("geom", binding="org.locationtech.jts.geom.Polygon")]
    assert source_for(state, ft) is None
    found, configured = schema(state, ft)
    assert found is None and configured.geometry == "geom" and configured.srs == "EPSG:3857"
    created = source_for(state, ft, create=True)
    assert created is not None and created.count(Query()) == 0
    assert state.features.get("ws", "st", "lakes") is None
    created.transaction().commit()
    assert state.features.get("ws", "st", "lakes") is not None
    assert source_for(state, ft) is not None


def test_providers_are_asked_in_order(state, monkeypatch):
    asked: list[str] = []

    def first(state: Any, ft: Any) -> None:
        asked.append("first")
        return None

    def second(state: Any, ft: Any) -> Any:
        asked.append("second")
        return "the second's source"

    monkeypatch.setattr(resolver, "PROVIDERS", (first, second, *resolver.PROVIDERS))
    assert source_for(state, FeatureType("published", "ws", "st", native_name="roads")) == (
        "the second's source"
    )
    assert asked == ["first", "second"]
