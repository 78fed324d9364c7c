"""About model: resource filters, module statuses, metric rows."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from geoserver_emulator.areas.about.metrics import METRIC_INFOS, MetricSample, MetricValue, assemble
from geoserver_emulator.areas.about.model import (
    AboutStore,
    Filters,
    ModuleStatus,
    Resource,
    module_property,
    select,
)
from geoserver_emulator.core.errors import Invalid, NotFound

RESOURCES = [
    Resource("gwc-core-1.27.1", {"Implementation-Title": "GeoWebCache Core"}),
    Resource("gs-main-2.27.1", {"GeoServerModule": "core", "Project-Version": "2.27.1"}),
    Resource("gs-css-2.27.1", {"GeoServerModule": "extension", "Project-Version": "2.27.1"}),
    Resource("spring-core-5.3.39", {"Implementation-Version": "5.3.39"}),
]


def names(resources):
    return [r.name for r in resources]


def test_no_filters_sorts_by_name():
    assert names(select(RESOURCES, Filters())) == [
        "gs-css-2.27.1",
        "gs-main-2.27.1",
        "gwc-core-1.27.1",
        "spring-core-5.3.39",
    ]


def test_manifest_is_a_full_match():
    assert names(select(RESOURCES, Filters(manifest="gs-.*"))) == [
        "gs-css-2.27.1",
        "gs-main-2.27.1",
    ]
    assert select(RESOURCES, Filters(manifest="gs-main")) == []
    assert select(RESOURCES, Filters(manifest="NOTEXISTS.*")) == []


def test_range_needs_both_ends_and_is_inclusive():
    assert names(select(RESOURCES, Filters(from_="gs-main-2.27.1", to="gwc-core-1.27.1"))) == [
        "gs-main-2.27.1",
        "gwc-core-1.27.1",
    ]
    assert len(select(RESOURCES, Filters(from_="zzz"))) == 4
    with pytest.raises(Invalid, match="must not sort after"):
        select(RESOURCES, Filters(from_="z", to="a"))


def test_property_filters():
    assert names(select(RESOURCES, Filters(key="GeoServerModule"))) == [
        "gs-css-2.27.1",
        "gs-main-2.27.1",
    ]
    assert names(select(RESOURCES, Filters(key="GeoServerModule", value="extension"))) == [
        "gs-css-2.27.1"
    ]
    assert names(select(RESOURCES, Filters(value="5\\.3\\..*"))) == ["spring-core-5.3.39"]
    # key and value must hold in the same entry
    assert select(RESOURCES, Filters(key="Project-Version", value="core")) == []


def test_module_property_answers_to_both_spellings():
    assert names(select(RESOURCES, Filters(key="ServiceModule", value="core"))) == [
        "gs-main-2.27.1"
    ]
    assert names(select(RESOURCES, Filters(key=".*Module", value="core"))) == ["gs-main-2.27.1"]
    assert module_property("org.service") == "ServiceModule"
    assert module_property("org.geoserver") == "GeoServerModule"
    assert RESOURCES[1].emitted("org.service")[0] == ("ServiceModule", "core")


@pytest.mark.parametrize("field", ["manifest", "key", "value"])
def test_bad_filter_regex_is_400_naming_the_parameter(field):
    with pytest.raises(Invalid, match=f"Invalid {field} regular expression"):
        select(RESOURCES, Filters(**{field: "(["}))


def test_catastrophic_filter_is_400_not_a_hang():
    slow = [Resource("x", {"k": "a" * 40 + "!"})]
    with pytest.raises(Invalid, match="takes too long"):
        select(slow, Filters(value="(a|aa)+$"))


@settings(max_examples=200)
@given(
    manifest=st.none() | st.sampled_from(["gs-.*", ".*2\\.27\\.1", "nothing", ".*"]),
    key=st.none() | st.sampled_from(["GeoServerModule", "Project-Version", ".*Title", "missing"]),
    value=st.none() | st.sampled_from(["core", "2\\.27\\.1", ".*", "x"]),
)
def test_select_equals_a_reference_model(manifest, key, value):
    def keep(r: Resource) -> bool:
        if manifest is not None and not re.fullmatch(manifest, r.name):
            return False
        if key is None and value is None:
            return True
        return any(
            (key is None or re.fullmatch(key, k)) and (value is None or re.fullmatch(value, v))
            for k, v in r.properties.items()
        )

    expected = sorted((r for r in RESOURCES if keep(r)), key=lambda r: r.name)
    assert select(RESOURCES, Filters(manifest=manifest, key=key, value=value)) == expected


def test_module_statuses():
    store = AboutStore(
        modules=[ModuleStatus("gs-main", "GeoServer Main"), ModuleStatus("jvm", "Rendering Engine")]
    )
    assert len(store.module_statuses()) == 2
    assert store.module_statuses("GS-MAIN")[0].name == "GeoServer Main"
    with pytest.raises(NotFound, match="No such module: fake1_module"):
        store.module_statuses("fake1_module")


# -- metrics -------------------------------------------------------------------------------


def test_every_metric_info_yields_a_row_even_unmeasured():
    rows = assemble([])
    assert len(rows) == len(METRIC_INFOS) == 31
    assert all(not r.available and r.value == "NOT AVAILABLE" for r in rows)
    assert [r.priority for r in rows] == sorted(r.priority for r in rows)


def test_rows_take_overrides_and_sort_stably_by_priority():
    rows = assemble(
        [
            MetricSample(
                "PER_CPU_LOAD", 1.0, description="CPU 1 load", identifier="CPU 1", priority=105
            ),
            MetricSample(
                "PER_CPU_LOAD", 2.0, description="CPU 2 load", identifier="CPU 2", priority=106
            ),
            MetricSample("MEMORY_FREE", 5),
            MetricSample("FAN_SPEED", 1200, name="FAN_SPEED_1", description="Speed fan 1"),
        ]
    )
    by_name = [(r.name, r.identifier, r.priority) for r in rows]
    assert ("PER_CPU_LOAD", "CPU 2", 106) in by_name
    assert ("FAN_SPEED_1", "FAN_SPEED", 1202) in by_name
    i_total = by_name.index(("MEMORY_TOTAL", "MEMORY_TOTAL", 201))
    assert by_name[i_total + 1] == (
        "MEMORY_FREE",
        "MEMORY_FREE",
        201,
    )  # table order kept among equals


def test_uptime_follows_the_emulated_clock():
    rows = assemble([MetricSample("SYSTEM_UPTIME", 100)], elapsed=42.9)
    assert next(r for r in rows if r.name == "SYSTEM_UPTIME").value == 142


def test_unavailable_sample_keeps_its_identity():
    rows = assemble([MetricSample("TEMPERATURE", "", available=False)])
    row = next(r for r in rows if r.name == "TEMPERATURE")
    assert (
        row.available is False
        and row.value == "NOT AVAILABLE"
        and row.value_unit() == "NOT AVAILABLE"
    )


@pytest.mark.parametrize(
    ("value", "unit", "cell"),
    [
        (6.25, "%", "6.25 %"),
        (0.42, "", "0.42 "),
        (4, "", "4 "),
        ("Linux 6.1", "", "Linux 6.1 "),
        (17179869184, "bytes", "16.0 GiB"),
        (52428800.0, "bytes", "52428800.00 bytes"),
        (93784, "sec", "02:03:04"),
        (1200, "rpm", "1200 rpm"),
    ],
)
def test_value_unit_cell(value, unit, cell):
    row = MetricValue(True, "d", "N", unit, "C", "N", 1, value)
    assert row.value_unit() == cell
