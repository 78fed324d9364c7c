"""The request journal: every request the emulator answered, oldest first, with assertions.

``journal.assert_called("POST", "/rest/styles", times=1, content_type="application/json")``
checks what a client did; on failure the message lists the closest requests actually made
(the near misses), which is usually the bug: a wrong extension, method or content type.

Paths are relative to the context root (``/rest/styles.json``); a path that starts with the
emulator's context path (``/geoserver/rest/styles.json``) is accepted too. A path containing
``*`` or ``?`` is an Ant pattern (``*`` within a segment, ``**`` across segments, as in
GeoServer's REST access rules); a compiled ``re.Pattern`` must match the whole path.
"""

from __future__ import annotations

import base64
import json
import re
import sys
import threading
from collections import deque
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from .antpath import ant_match
from .record import field, record

PathSpec = str | re.Pattern[str]
NEAR_MISSES = 5
BODY_LIMIT = 1024 * 1024
"""bytes of each request and response body an entry keeps by default (1 MiB)"""
TRIM_AFTER = 8 * 1024 * 1024
"""bytes of bodies a cleared journal must have held for ``clear`` to hand memory back"""


@record
class JournalEntry:
    """One request as the emulator saw it, with the status it answered."""

    method: str
    path: str
    """path relative to the context root, e.g. ``/rest/styles.json``"""
    query: str
    status: int
    """the status answered; 0 when the connection was dropped by an injected fault"""
    headers: dict[str, str] = field(default_factory=dict)
    """request headers, names in lower case, ``authorization`` left out"""
    body: bytes = b""
    """the request body, or its first bytes when it was longer than the journal keeps
    (``body_size`` then says how long it was)"""
    at: float = 0.0
    """simulated time of the request"""
    response_type: str | None = None
    fault: str | None = None
    """the injected fault that answered this request, if one did"""
    response_headers: dict[str, str] = field(default_factory=dict)
    """the answer's headers, names in lower case"""
    response_body: bytes = b""
    body_size: int | None = None
    """the full length of a request body kept truncated (None: ``body`` is all of it)"""
    body_sha256: str | None = None
    """the SHA-256 (hex) of a truncated request body, when it was read to the end"""
    response_size: int | None = None
    """the full length of an answer body kept truncated (None: ``response_body`` is all)"""
    response_sha256: str | None = None
    """the SHA-256 (hex) of a truncated answer body"""
    authorization: str | None = field(default=None, repr=False)
    """the request's ``Authorization`` header, kept for cassettes (which scrub it); never in
    ``headers`` nor ``to_json``"""
    databases: dict[str, str] = field(default_factory=dict)
    """``workspace:store`` → ``postgis`` or ``memory``: the back end each database store
    the request used (``docs/databases.md``)"""

    @classmethod
    def of(
        cls,
        *,
        method: str,
        path: str,
        query: str,
        status: int,
        headers: dict[str, str],
        body: bytes,
        at: float,
        response_type: str | None,
        fault: str | None,
        response_headers: dict[str, str],
        response_body: bytes,
        body_size: int | None,
        body_sha256: str | None,
        response_size: int | None,
        response_sha256: str | None,
        authorization: str | None,
        databases: dict[str, str],
    ) -> JournalEntry:
        """An entry from every field, by keyword: how the journal's middleware builds one for
        every request. It hands them on in field order (the record's quick path); the test
        ``tests/core/test_journal_entry.py`` keeps the two lists the same."""
        return cls(
            method, path, query, status, headers, body, at, response_type, fault,
            response_headers, response_body, body_size, body_sha256, response_size,
            response_sha256, authorization, databases,
        )  # fmt: skip

    @property
    def content_type(self) -> str | None:
        """The media type of the request body, without parameters (``application/json``)."""
        value = self.headers.get("content-type")
        return value.split(";", 1)[0].strip().lower() if value else None

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", "replace")

    def json(self) -> Any:
        """The request body parsed as JSON."""
        return json.loads(self.body)

    def describe(self) -> str:
        """``POST /rest/styles?raw=true [application/json] -> 201`` (for failure messages)."""
        target = self.path + (f"?{self.query}" if self.query else "")
        ctype = f" [{self.content_type}]" if self.content_type else ""
        answer = "dropped" if self.status == 0 else str(self.status)
        fault = " (injected fault)" if self.fault else ""
        return f"{self.method} {target}{ctype} -> {answer}{fault}"

    def to_json(self) -> dict[str, Any]:
        try:
            body: str = self.body.decode("utf-8")
            encoded = False
        except UnicodeDecodeError:
            body = base64.b64encode(self.body).decode("ascii")
            encoded = True
        return {
            "method": self.method,
            "path": self.path,
            "query": self.query,
            "status": self.status,
            "headers": self.headers,
            "body": body,
            "bodyBase64": encoded,
            "at": self.at,
            "responseType": self.response_type,
            "fault": self.fault,
            **self._truncation(),
            **({"databases": dict(self.databases)} if self.databases else {}),
        }

    def _truncation(self) -> dict[str, Any]:
        """``bodyTruncated``, ``bodyLength`` and ``bodySha256`` for a truncated body."""
        if self.body_size is None:
            return {}
        return {"bodyTruncated": True, "bodyLength": self.body_size, "bodySha256": self.body_sha256}

    @property
    def weight(self) -> int:
        """Bytes of bodies this entry holds (what bounds the journal's memory)."""
        return len(self.body) + len(self.response_body)


class JournalClosed(RuntimeError):
    """A request reached an emulator whose test had already ended."""


class Journal:
    """The requests an emulator answered, oldest first.

    Parameters:
        context_path: the emulator's context path, so that assertions accept full paths too.
        limit: how many requests it keeps, the oldest dropped first (a ring buffer); None
            keeps them all.
        max_bytes: how many bytes of bodies it keeps in all, the oldest entries dropped
            first; None: no bound.
        body_limit: how many bytes of each request and answer body an entry keeps (longer
            bodies are kept truncated, with their length and SHA-256); None keeps them whole.
    """

    def __init__(
        self,
        context_path: str = "",
        *,
        limit: int | None = None,
        max_bytes: int | None = None,
        body_limit: int | None = BODY_LIMIT,
    ) -> None:
        self._entries: deque[JournalEntry] = deque()
        self._pending: deque[tuple[Callable[[], JournalEntry], int]] = deque()
        """entries recorded with ``record_later`` (each with its weight), newer than every
        entry made, made when the journal is next read; the bounds hold over both"""
        self.context_path = context_path
        self.limit = limit
        self.max_bytes = max_bytes
        self.body_limit = body_limit
        self.dropped = 0
        """requests dropped from the front to keep within ``limit`` or ``max_bytes``"""
        self.weight = 0
        """bytes of bodies held now (by entries made and waiting)"""
        self._held_most = 0
        self.closed = False
        self.cassette_writer: Callable[[Journal, Path, bool], Path] | None = None
        """writes the journal as a cassette for ``save`` (the ``Emulator`` sets it: the
        cassette format and the start scenario in its header sit above this module)"""
        self.diagnostics: list[str] = []
        """hints about how the emulator is being used (each said once, also as a warning):
        a test polling seed status under a frozen manual clock, for one"""
        self.warn_on_hint = True
        """issue each hint as a Python warning when it is made (the pytest plugin turns this
        off and issues them at the test's teardown instead, in the test's own context)"""
        self.observers: list[Callable[[JournalEntry], None]] = []
        """called with every recorded entry (the plugin's coverage report listens here)"""
        self.hint_listeners: list[Callable[[str], None]] = []
        """called with each new hint the moment it is made (``serve`` writes it to stderr, the
        pytest plugin to the terminal), whether or not it is also issued as a warning"""
        self._lock = threading.Lock()

    # -- recording ---------------------------------------------------------------------

    @property
    def entries(self) -> deque[JournalEntry]:
        """The entries, oldest first (those recorded for later are made now, in order)."""
        if self._pending:
            with self._lock:
                self._flush()
        return self._entries

    def _flush(self) -> None:
        """Make the pending entries (the lock held; their weight is counted already)."""
        pending, entries = self._pending, self._entries
        while pending:
            entries.append(pending.popleft()[0]())

    def _append(self, entry: JournalEntry) -> None:
        """Keep ``entry`` (the lock held, nothing pending)."""
        self._entries.append(entry)
        self._weigh(entry.weight)

    def _weigh(self, weight: int) -> None:
        """Count ``weight`` more bytes held, then drop the oldest entries, made or waiting,
        beyond ``limit`` or ``max_bytes`` (the lock held)."""
        self.weight += weight
        if self.weight > self._held_most:
            self._held_most = self.weight
        limit, most = self.limit, self.max_bytes
        if limit is None and most is None:
            return
        entries, pending = self._entries, self._pending
        while (entries or pending) and (
            (limit is not None and len(entries) + len(pending) > limit)
            or (most is not None and self.weight > most)
        ):
            self.weight -= entries.popleft().weight if entries else pending.popleft()[1]
            self.dropped += 1

    def record_later(self, make: Callable[[], JournalEntry], weight: int = 0) -> None:
        """Record the entry ``make()`` returns, made when the journal is next read (a
        request's headers are decoded only for a journal someone reads, and an entry dropped
        by the bounds before that is never made); at once when an observer listens or the
        journal is closed. ``weight``: the bytes of bodies the entry will hold (its bodies
        are already cut to ``body_limit``), counted in the bounds as if it were made."""
        if self.closed or self.observers:
            self.record(make())
            return
        with self._lock:
            self._pending.append((make, weight))
            self._weigh(weight)

    def record(self, entry: JournalEntry) -> None:
        if self.closed:
            raise JournalClosed(f"request after the end of its test: {entry.describe()}")
        with self._lock:
            self._flush()
            self._append(entry)
        for observer in self.observers:
            observer(entry)

    def hint(self, message: str, category: type[Warning] = UserWarning) -> None:
        """Add a diagnostic, once: noted in ``diagnostics`` and issued as a warning."""
        with self._lock:
            if message in self.diagnostics:
                return
            self.diagnostics.append(message)
        for listener in list(self.hint_listeners):
            try:
                listener(message)
            except Exception:  # a request must not fail for a hint
                pass
        if not self.warn_on_hint:
            return
        import warnings

        try:
            warnings.warn(message, category, stacklevel=2)
        except Warning:  # warnings made errors: a request must not fail for a hint
            pass

    def clear(self) -> None:
        """Forget every entry, and give the memory they held back to the system when it
        was much (the allocator keeps freed memory otherwise)."""
        with self._lock:
            self._pending = deque()
            self._entries = deque()
            self.weight = 0
            self.dropped = 0
            held, self._held_most = self._held_most, 0
        if held >= TRIM_AFTER:
            _release_memory()

    def close(self) -> None:
        """Refuse further requests (the plugin closes a test's journal at its teardown)."""
        self.closed = True

    def __len__(self) -> int:
        return len(self.entries)

    def __iter__(self) -> Iterator[JournalEntry]:
        return iter(list(self.entries))

    def __getitem__(self, index: int) -> JournalEntry:
        if isinstance(index, slice):
            return list(self.entries)[index]  # type: ignore[return-value]
        return self.entries[index]

    @property
    def last(self) -> JournalEntry:
        """The most recent request (IndexError when there is none)."""
        return self.entries[-1]

    def to_json(self) -> list[dict[str, Any]]:
        return [e.to_json() for e in list(self.entries)]

    def save(self, path: str | Path, *, scrub: bool = True) -> Path:
        """Write the journal as a cassette (``docs/recording.md``), replacing any file there.

        Credentials and the host are scrubbed unless ``scrub`` is false. Requests answered
        by an injected fault are left out. Returns the cassette's path.
        """
        if self.cassette_writer is None:
            raise RuntimeError("this journal belongs to no emulator: it cannot be saved")
        return self.cassette_writer(self, Path(path), scrub)

    # -- queries and assertions --------------------------------------------------------

    def calls(
        self,
        method: str | None = None,
        path: PathSpec | None = None,
        *,
        content_type: str | None = None,
        status: int | None = None,
        **content: Any,
    ) -> list[JournalEntry]:
        """The requests matching every criterion given (``None`` matches anything).

        ``content`` takes what the request carried (see ``Content``): ``json=`` (the body
        parsed as JSON equals it), ``json_contains=`` (the JSON body holds it: objects may
        have more keys), ``body=`` (bytes or text, equal; a compiled pattern, searched),
        ``query=`` (a dict: these parameters with these values; a string: the raw query),
        ``headers=`` (a dict: these headers, names in any case, with these values).
        """
        match = self._matcher(method, path, content_type, status)
        more = Content.of(content)
        return [e for e in list(self.entries) if match(e) and more.matches(e)]

    def assert_called(
        self,
        method: str,
        path: PathSpec,
        *,
        times: int | None = None,
        content_type: str | None = None,
        status: int | None = None,
        **content: Any,
    ) -> list[JournalEntry]:
        """Assert that matching requests were made: ``times`` exactly, else at least once.

        Takes the criteria of ``calls`` (``json=``, ``json_contains=``, ``body=``,
        ``query=``, ``headers=`` too). Returns the matching entries. The failure message
        lists the closest requests and, for those matching all but the content, what differs.
        """
        __tracebackhide__ = True
        found = self.calls(method, path, content_type=content_type, status=status, **content)
        if (times is None and found) or (times is not None and len(found) == times):
            return found
        wanted = "at least once" if times is None else _plural(times)
        more = Content.of(content)
        raise AssertionError(
            f"expected {_describe(method, path, content_type, status)}{more.describe()} "
            f"{wanted}, it was made {_plural(len(found))}.\n"
            + self.near_misses(method, path, content_type, status)
            + more.differences(self.calls(method, path, content_type=content_type, status=status))
        )

    def assert_called_in_order(self, expected: list[Any]) -> list[JournalEntry]:
        """Assert that requests matching each description were made in this order (others
        may come between). A description is ``(method, path)``, ``(method, path, {criteria})``
        or a dict of ``calls`` arguments (``{"method": "POST", "path": "/rest/styles",
        "json_contains": {...}}``). Returns the entry matched for each."""
        __tracebackhide__ = True
        entries = list(self.entries)
        chosen: list[JournalEntry] = []
        start = 0
        for step, spec in enumerate(expected):
            match, text = self._step(spec)
            hit = next((i for i in range(start, len(entries)) if match(entries[i])), None)
            if hit is None:
                done = "".join(f"\n  {i + 1}. {e.describe()}" for i, e in enumerate(chosen))
                after = entries[start:]
                rest = "\n".join(f"  {e.describe()}" for e in after[:NEAR_MISSES]) or "  (none)"
                earlier = [e for e in entries[:start] if match(e)]
                note = (
                    f"\nA matching request came earlier: {earlier[-1].describe()}"
                    if earlier
                    else ""
                )
                raise AssertionError(
                    f"expected request {step + 1} of {len(expected)}, {text}, after the ones"
                    f" matched so far:{done or ' (none)'}\nRequests made after them:\n"
                    f"{rest}{note}"
                )
            chosen.append(entries[hit])
            start = hit + 1
        return chosen

    def assert_not_called(
        self,
        method: str,
        path: PathSpec,
        *,
        content_type: str | None = None,
        status: int | None = None,
        **content: Any,
    ) -> None:
        """Assert that no matching request was made (the criteria of ``calls``)."""
        __tracebackhide__ = True
        found = self.calls(method, path, content_type=content_type, status=status, **content)
        if found:
            made = "\n".join(f"  {e.describe()}" for e in found[:NEAR_MISSES])
            raise AssertionError(
                f"expected no {_describe(method, path, content_type, status)}, "
                f"it was made {_plural(len(found))}:\n{made}"
            )

    def _step(self, spec: Any) -> tuple[Callable[[JournalEntry], bool], str]:
        """One ``assert_called_in_order`` description: its matcher and its text."""
        kwargs = _order_spec(spec)
        method, path = kwargs.pop("method", None), kwargs.pop("path", None)
        content_type, status = kwargs.pop("content_type", None), kwargs.pop("status", None)
        match = self._matcher(method, path, content_type, status)
        more = Content.of(kwargs)
        text = _describe(method, path, content_type, status) + more.describe()
        return (lambda e: match(e) and more.matches(e)), text

    def near_misses(
        self,
        method: str | None,
        path: PathSpec | None,
        content_type: str | None = None,
        status: int | None = None,
        limit: int = NEAR_MISSES,
    ) -> str:
        """The requests closest to a description, best first, as report lines."""
        entries = list(self.entries)
        if not entries:
            return "No requests were made."
        scored = sorted(
            enumerate(entries),
            key=lambda ie: (
                -_closeness(ie[1], method, path, content_type, status, self.context_path),
                ie[0],
            ),
        )
        lines = [f"  {e.describe()}" for _, e in scored[:limit]]
        more = f"\n  ... and {len(entries) - limit} more" if len(entries) > limit else ""
        if self.dropped:
            more += (
                f"\n  (the journal keeps the last {len(entries)} requests: {self.dropped}"
                " older ones were dropped)"
            )
        return "Closest requests made:\n" + "\n".join(lines) + more

    def _matcher(
        self,
        method: str | None,
        path: PathSpec | None,
        content_type: str | None,
        status: int | None,
    ) -> Callable[[JournalEntry], bool]:
        want_method = method.upper() if method is not None and method != "*" else None
        path_ok = _path_matcher(path, self.context_path)
        want_type = content_type.split(";", 1)[0].strip().lower() if content_type else None

        def match(entry: JournalEntry) -> bool:
            return (
                (want_method is None or entry.method == want_method)
                and path_ok(entry.path)
                and (want_type is None or entry.content_type == want_type)
                and (status is None or entry.status == status)
            )

        return match


def _release_memory() -> None:
    """Collect garbage, then ask glibc to return free heap pages (``malloc_trim``); a no-op
    where there is no glibc."""
    import gc

    gc.collect()
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes

        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):
        pass


def _path_matcher(path: PathSpec | None, context_path: str) -> Callable[[str], bool]:
    if path is None:
        return lambda _: True
    if isinstance(path, re.Pattern):
        pattern = path
        return lambda p: (
            pattern.fullmatch(p) is not None or pattern.fullmatch(context_path + p) is not None
        )
    if context_path and (path == context_path or path.startswith(context_path + "/")):
        path = path[len(context_path) :] or "/"
    if "*" in path or "?" in path:
        pattern_text = path
        return lambda p: ant_match(pattern_text, p)
    return lambda p: p == path


def _path_text(path: PathSpec | None) -> str:
    if path is None:
        return "*"
    return path.pattern if isinstance(path, re.Pattern) else path


def _describe(
    method: str | None, path: PathSpec | None, content_type: str | None, status: int | None
) -> str:
    text = f"{(method or '*').upper()} {_path_text(path)}"
    if content_type:
        text += f" with content type {content_type}"
    if status is not None:
        text += f" answered {status}"
    return text


def _plural(n: int) -> str:
    return f"{n} time" if n == 1 else f"{n} times"


def _closeness(
    entry: JournalEntry,
    method: str | None,
    path: PathSpec | None,
    content_type: str | None,
    status: int | None,
    context_path: str,
) -> float:
    """A similarity score: the path counts most, then method, content type and status."""
    score = 0.0
    if path is not None:
        text = _path_text(path)
        if context_path and text.startswith(context_path + "/"):
            text = text[len(context_path) :]
        import difflib  # only for failure reports: not at start-up

        score += 4 * difflib.SequenceMatcher(None, text, entry.path).ratio()
    if method is not None and entry.method == method.upper():
        score += 1
    if content_type and entry.content_type == content_type.split(";", 1)[0].strip().lower():
        score += 0.5
    if status is not None and entry.status == status:
        score += 0.25
    return score


_MISSING: Any = object()
CONTENT_KEYS = ("json", "json_contains", "body", "query", "headers")


@record(frozen=True)
class Content:
    """What a request carried, as ``calls`` and the assertions match it."""

    json: Any = _MISSING
    json_contains: Any = _MISSING
    body: Any = None
    query: Any = None
    headers: Any = None

    @staticmethod
    def of(given: dict[str, Any]) -> Content:
        unknown = sorted(set(given) - set(CONTENT_KEYS))
        if unknown:
            raise TypeError(
                f"unknown journal criterion {unknown[0]!r}: expected one of method, path,"
                f" content_type, status, {', '.join(CONTENT_KEYS)}"
            )
        return Content(**given)

    def matches(self, entry: JournalEntry) -> bool:
        return not self.mismatch(entry)

    def mismatch(self, entry: JournalEntry) -> str:
        """Why the entry does not match ('' when it does)."""
        if self.json is not _MISSING or self.json_contains is not _MISSING:
            try:
                value = entry.json()
            except (ValueError, UnicodeDecodeError):
                return "its body is not JSON"
            if self.json is not _MISSING and value != self.json:
                return f"its JSON body is {_short(value)}"
            if self.json_contains is not _MISSING and not _contains(value, self.json_contains):
                return f"its JSON body {_short(value)} does not hold {_short(self.json_contains)}"
        if self.body is not None and not _body_ok(entry.body, self.body):
            return f"its body is {_short(entry.text)}"
        if self.query is not None and not _query_ok(entry.query, self.query):
            return f"its query is {entry.query!r}"
        if self.headers is not None:
            for name, value in self.headers.items():
                seen = entry.headers.get(name.lower())
                if seen != value:
                    return f"its {name.lower()} header is {seen!r}"
        return ""

    def describe(self) -> str:
        parts = []
        if self.json is not _MISSING:
            parts.append(f"JSON body {_short(self.json)}")
        if self.json_contains is not _MISSING:
            parts.append(f"a JSON body holding {_short(self.json_contains)}")
        if self.body is not None:
            body = self.body.pattern if isinstance(self.body, re.Pattern) else self.body
            parts.append(f"body {_short(body)}")
        if self.query is not None:
            parts.append(f"query {self.query!r}")
        if self.headers is not None:
            parts.append(f"headers {self.headers!r}")
        return " with " + " and ".join(parts) if parts else ""

    def differences(self, candidates: list[JournalEntry]) -> str:
        """For requests that match all but the content: what differs (report lines)."""
        if not self.describe() or not candidates:
            return ""
        lines = [f"  {e.describe()}: {self.mismatch(e)}" for e in candidates[:NEAR_MISSES]]
        return "\nRequests matching all but the content:\n" + "\n".join(lines)


def _contains(value: Any, part: Any) -> bool:
    """Whether ``part`` is within ``value``: objects by key (more keys allowed), lists item by
    item (same length), anything else by equality."""
    if isinstance(part, dict):
        return isinstance(value, dict) and all(
            k in value and _contains(value[k], v) for k, v in part.items()
        )
    if isinstance(part, list):
        return (
            isinstance(value, list)
            and len(value) == len(part)
            and all(_contains(a, b) for a, b in zip(value, part, strict=True))
        )
    return bool(value == part)


def _body_ok(body: bytes, want: Any) -> bool:
    if isinstance(want, re.Pattern):
        text: Any = body if isinstance(want.pattern, bytes) else body.decode("utf-8", "replace")
        return want.search(text) is not None
    if isinstance(want, str):
        return body == want.encode("utf-8")
    return bool(body == want)


def _query_ok(query: str, want: Any) -> bool:
    if isinstance(want, str):
        return query == want.lstrip("?")
    from urllib.parse import parse_qs

    seen = parse_qs(query, keep_blank_values=True)
    for key, value in dict(want).items():
        values = [str(v) for v in value] if isinstance(value, list | tuple) else [str(value)]
        if seen.get(key) != values:
            return False
    return True


def _short(value: Any, limit: int = 120) -> str:
    text = value if isinstance(value, str) else json.dumps(value, default=str, sort_keys=True)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _order_spec(spec: Any) -> dict[str, Any]:
    if isinstance(spec, dict):
        return dict(spec)
    if isinstance(spec, tuple | list) and len(spec) in (2, 3):
        out: dict[str, Any] = {"method": spec[0], "path": spec[1]}
        if len(spec) == 3:
            out.update(spec[2])
        return out
    raise TypeError(
        f"{spec!r}: expected (method, path), (method, path, {{criteria}}) or a dict of criteria"
    )
