"""A journal's entries as a cassette (``Journal.save``, ``serve --record``): the wire side
of the request journal, below the root object, which hands it the header fields."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from .cassette import PATH_SAFE, CassetteWriter, Header, RecordedRequest, RecordedResponse
from .scrub import RECORDED_ORIGIN, Scrubber

if TYPE_CHECKING:
    from ..core.journal import Journal, JournalEntry


def header_for(journal: Journal, fields: dict[str, Any]) -> Header:
    """The cassette header for a journal's traffic; ``fields`` describe the emulator's start
    (scenario, context path, profile, vendor prefix: ``Emulator.cassette_header()``)."""
    return Header(**{"context_path": journal.context_path, "source": "emulator", **fields})


def entry_exchange(entry: JournalEntry) -> tuple[RecordedRequest, RecordedResponse]:
    """A journal entry as a request and its response (``Authorization`` put back)."""
    headers = dict(entry.headers)
    if entry.authorization is not None:
        headers["authorization"] = entry.authorization
    request = RecordedRequest(
        entry.method, quote(entry.path, safe=PATH_SAFE), entry.query, headers, entry.body
    )
    return request, RecordedResponse(
        entry.status, dict(entry.response_headers), entry.response_body
    )


def journal_origins(entry: JournalEntry) -> list[str]:
    host = entry.headers.get("host")
    return [f"http://{host}", f"https://{host}"] if host else []


def save_journal(
    journal: Journal, path: Path, fields: dict[str, Any], *, scrub: bool = True
) -> Path:
    """Write a journal's exchanges as a cassette (faulted and dropped requests left out)."""
    entries = [e for e in journal if e.fault is None and e.status]
    scrubber = Scrubber(scrub)
    for entry in entries:
        for origin in journal_origins(entry):
            scrubber.add_origin(origin)
    header = header_for(journal, fields)
    if scrubber.origins:
        header.upstream = RECORDED_ORIGIN if scrub else scrubber.origins[-1]
    with CassetteWriter(path, header, scrubber) as writer:
        for entry in entries:
            writer.add(*entry_exchange(entry), elapsed=entry.at)
    return path
