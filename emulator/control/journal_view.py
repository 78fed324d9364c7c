"""The inspector's request journal: the filter form and a table that wraps (long paths and
bodies never push the page sideways), each row expandable to the request's query, headers
and body and the answer's headers and body."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from html import escape
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..core.journal import JournalEntry

JOURNAL_SHOWN = 500
"""the most recent entries listed (the filters narrow them first)"""
BODY_SHOWN = 64 * 1024


def _e(value: object) -> str:
    return escape("" if value is None else str(value))


def body(data: bytes) -> str:
    if not data:
        return '<span class="muted">(empty)</span>'
    try:
        text = data[:BODY_SHOWN].decode("utf-8")
    except UnicodeDecodeError:
        return f'<span class="muted">({len(data)} bytes, binary)</span>'
    more = f"\n… ({len(data)} bytes in all)" if len(data) > BODY_SHOWN else ""
    return f"<pre>{_e(text + more)}</pre>"


def _headers(headers: Mapping[str, str]) -> str:
    if not headers:
        return '<span class="muted">(none)</span>'
    rows = "".join(f"<dt>{_e(k)}</dt><dd>{_e(v)}</dd>" for k, v in sorted(headers.items()))
    return f'<dl class="headers">{rows}</dl>'


def _row(key: str, e: JournalEntry) -> str:
    target = e.path + (f"?{e.query}" if e.query else "")
    status = "dropped" if e.status == 0 else str(e.status)
    summary = (
        f'<span class="t">{_e(f"{e.at:g}")} s</span> <b>{_e(e.method)}</b>'
        f" <code>{_e(target)}</code> → "
        f'<span class="s{status[:1]}">{_e(status)}</span>'
        f' <span class="muted">{_e(e.response_type or "")}</span>'
    )
    fault = f'<p class="err">fault: {_e(e.fault)}</p>' if e.fault else ""
    detail = (
        f"{fault}<h4>Request</h4>"
        + (f"<p>query <code>{_e(e.query)}</code></p>" if e.query else "")
        + f"{_headers(e.headers)}{body(e.body)}"
        f"<h4>Answer {_e(status)}</h4>{_headers(e.response_headers)}{body(e.response_body)}"
    )
    return (
        f'<tr><td><details class="entry" data-key="{_e(key)}">'
        f"<summary>{summary}</summary>{detail}</details></td></tr>"
    )


def _keys(entries: list[JournalEntry]) -> list[str]:
    """A key per entry that stays the same across the page's updates (what an entry is,
    numbered among identical ones), so that an opened row stays open."""
    seen: dict[tuple[object, ...], int] = {}
    keys = []
    for e in entries:
        what = (e.at, e.method, e.path, e.query, e.status)
        seen[what] = seen.get(what, 0) + 1
        digest = hashlib.blake2b(repr((what, seen[what])).encode(), digest_size=6).hexdigest()
        keys.append(f"journal-{digest}")
    return keys


def section(entries: list[JournalEntry], query: Mapping[str, str], error: str) -> str:
    """The journal section's content: the form, the count and the table (``entries``
    already filtered)."""

    def field(name: str, size: int) -> str:
        return (
            f'<label>{name} <input name="{name}" value="{_e(query.get(name, ""))}"'
            f' size="{size}"></label> '
        )

    form = (
        '<form method="get" action="#journal">'
        + field("method", 6)
        + field("path", 30)
        + field("status", 4)
        + '<button type="submit">Filter</button> <a href="./#journal">all</a></form>'
    )
    if error:
        form += f'<p class="err" id="filter-error">{_e(error)}</p>'
    shown = entries[-JOURNAL_SHOWN:]
    keys = _keys(entries)[-JOURNAL_SHOWN:]
    count = f"<p>{len(entries)} request(s)"
    if len(entries) > len(shown):
        count += f", the last {len(shown)} shown"
    count += "</p>"
    rows: Iterable[str] = (_row(k, e) for k, e in zip(keys, shown, strict=True))
    body_rows = "".join(rows)
    table = (
        '<table class="journal"><tbody>' + body_rows + "</tbody></table>"
        if body_rows
        else '<p class="muted">none</p>'
    )
    return form + count + table
