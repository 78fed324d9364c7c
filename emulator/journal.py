"""The request journal: every request the emulator answered, oldest first."""

from __future__ import annotations

import base64
from dataclasses import dataclass, field
from typing import Any


@dataclass
class JournalEntry:
    method: str
    path: str
    """path relative to the context root, e.g. ``/rest/styles.json``"""
    query: str
    status: int
    headers: dict[str, str] = field(default_factory=dict)
    body: bytes = b""
    at: float = 0.0
    """simulated time of the request"""
    response_type: str | None = None

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
        }


class Journal:
    def __init__(self) -> None:
        self.entries: list[JournalEntry] = []

    def record(self, entry: JournalEntry) -> None:
        self.entries.append(entry)

    def clear(self) -> None:
        self.entries.clear()

    def __len__(self) -> int:
        return len(self.entries)

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(self.entries)

    def to_json(self) -> list[dict[str, Any]]:
        return [e.to_json() for e in self.entries]
