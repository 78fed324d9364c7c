"""Journal entries are built by keyword: ``JournalEntry.of`` takes every field by name and
hands them on in the record's field order."""

from __future__ import annotations

import inspect

from geoserver_emulator.core.journal import JournalEntry
from geoserver_emulator.core.record import fields


def test_of_names_every_field_in_the_records_order() -> None:
    parameters = list(inspect.signature(JournalEntry.of).parameters)
    assert parameters == list(fields(JournalEntry))
    assert all(
        p.kind is inspect.Parameter.KEYWORD_ONLY
        for p in inspect.signature(JournalEntry.of).parameters.values()
    )


def test_of_puts_each_value_in_its_field() -> None:
    values = {name: f"value of {name}" for name in fields(JournalEntry)}
    entry = JournalEntry.of(**values)  # type: ignore[arg-type]
    assert {name: getattr(entry, name) for name in values} == values
