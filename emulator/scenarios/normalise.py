"""Normalised bodies for comparing a recorded answer with a replayed one.

XML is parsed, whitespace-only text dropped, masked, indented and canonicalised (C14N), so
attribute order, namespace declarations' spelling and pretty-printing do not matter; JSON is
parsed, masked and dumped with sorted keys; other text is masked and compared line by line;
other bodies by their bytes. The masks (``docs/recording.md``, "Volatile values") replace:

- links to the server: its origin (``scheme://host:port``, the recording's and the replay
  target's, and any origin followed by the context path) and the context path after it,
  with ``{server}``; other links (namespace URIs, schema locations) are compared as they are;
- generated ids: the value of any ``id`` field or element, and anything shaped like GeoServer's
  generated ids (``WorkspaceInfoImpl-…``, ``52857278:13c7ffd66a8:-7ff7``) with ``{id}``;
- dates and times: the value of ``dateCreated``, ``dateModified``, ``date``, ``timestamp``,
  ``lastModified``, ``updateSequence`` and ``Build-Timestamp``, and any ISO 8601 date-time
  in text, with ``{date}``;
- secrets: the value of any secret field (see ``scrub.py``) and any scrub placeholder with
  ``{secret}``.
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

from lxml import etree

from ..core.errors import EmulatorError
from ..wire import xml as wxml
from .scrub import PLACEHOLDER, is_secret_key

GENERIC_ORIGIN = r"[a-zA-Z][a-zA-Z0-9+.-]*://[^/\\\s\"'<>]+"
DATETIME = re.compile(
    r"\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?"
    r"(?: ?(?:Z|UTC|GMT|[+-]\d{2}:?\d{2}))?"
)
GENERATED_ID = re.compile(
    r"\b[A-Za-z]+InfoImpl-+[0-9a-f]+:[0-9a-f]+:-?[0-9a-f]+|-?\b[0-9a-f]{6,}:[0-9a-f]{6,}:-?[0-9a-f]+\b"
)
ID_KEYS = frozenset({"id", "@id"})
DATE_KEYS = frozenset(
    {
        "datecreated",
        "datemodified",
        "date",
        "timestamp",
        "lastmodified",
        "updatesequence",
        "build-timestamp",
    }
)


class Masks:
    """The volatile-value masks for one comparison.

    Parameters:
        origins: origins that are the server's own (the recording's and the replay
            target's); links to them become ``{server}``.
        context_paths: the server's context paths on either side; any origin followed by
            one of them is the server's too, and the context path is masked with it.
    """

    def __init__(self, origins: list[str], context_paths: list[str]) -> None:
        known = "|".join(
            re.escape(o.rstrip("/")) for o in sorted(set(origins), key=len, reverse=True) if o
        )
        contexts = "|".join(
            re.escape(c) for c in sorted(set(context_paths), key=len, reverse=True) if c
        )
        parts = [known] if known else []
        if contexts:
            parts.append(f"{GENERIC_ORIGIN}(?=(?:{contexts})(?:[/?#\\s\"'<]|$))")
        server = "(?:" + "|".join(parts) + ")" if parts else "(?!)"
        tail = f"(?:{contexts})(?=[/?#\\s\"'<]|$)" if contexts else "(?!)"
        self.server = re.compile(f"{server}(?:{tail})?")

    def text(self, value: str) -> str:
        """The masks that apply to any piece of text."""
        value = self.server.sub("{server}", value)
        value = PLACEHOLDER.sub("{secret}", value)
        value = GENERATED_ID.sub("{id}", value)
        return DATETIME.sub("{date}", value)

    def field(self, key: str, value: str) -> str:
        """A field's value masked by its name, else by its text."""
        lowered = key.lower()
        if lowered in ID_KEYS:
            return "{id}"
        if lowered in DATE_KEYS:
            return "{date}"
        if is_secret_key(key) and value:
            return "{secret}"
        return self.text(value)

    def normalise(self, body: bytes, content_type: str | None) -> tuple[str, str]:
        """``(kind, text)``: how the body was read (empty, json, xml, text, bytes) and its
        normal form."""
        media = media_type(content_type)
        if not body.strip():
            return "empty", ""
        head = body.lstrip()[:1]
        if "json" in media or (not media and head in (b"{", b"[")):
            text = self._json(body)
            if text is not None:
                return "json", text
        if "xml" in media or (head == b"<" and "html" not in media):
            text = self._xml(body)
            if text is not None:
                return "xml", text
        try:
            decoded = body.decode("utf-8")
        except UnicodeDecodeError:
            return "bytes", f"{len(body)} bytes, sha256 {hashlib.sha256(body).hexdigest()}"
        return "text", "\n".join(self.text(line).rstrip() for line in decoded.strip().splitlines())

    def location(self, value: str | None) -> str | None:
        return None if value is None else self.text(value)

    def _json(self, body: bytes) -> str | None:
        try:
            data = json.loads(body)
        except (ValueError, RecursionError):
            return None
        return json.dumps(self._mask_json(data), indent=2, sort_keys=True, ensure_ascii=False)

    def _mask_json(self, value: Any, key: str | None = None) -> Any:
        if isinstance(value, dict):
            if (
                isinstance(value.get("@key"), str)
                and is_secret_key(value["@key"])
                and value.get("$")
            ):
                return {**value, "$": "{secret}"}
            return {k: self._mask_json(v, k) for k, v in value.items()}
        if isinstance(value, list):
            return [self._mask_json(v, key) for v in value]
        if isinstance(value, str):
            return self.field(key, value) if key is not None else self.text(value)
        if key is not None and not isinstance(value, bool) and key.lower() in ID_KEYS | DATE_KEYS:
            return "{id}" if key.lower() in ID_KEYS else "{date}"
        return value

    def _xml(self, body: bytes) -> str | None:
        if b"<!DOCTYPE" in body.upper() or b"<!ENTITY" in body.upper():
            return None
        try:
            root = wxml.parse(
                body, "body", names=False, remove_blank_text=True, max_elements=wxml.TOOL_ELEMENTS
            )
        except EmulatorError:
            return None
        for el in root.iter():
            if not isinstance(el.tag, str):
                continue
            name = etree.QName(el).localname
            if el.text is not None and el.text.strip() == "" and len(el):
                el.text = None
            if el.tail is not None and not el.tail.strip():
                el.tail = None
            if el.text and not len(el):
                secret_entry = name == "entry" and is_secret_key(el.get("key", ""))
                el.text = "{secret}" if secret_entry else self.field(name, el.text)
            for attr, value in el.attrib.items():
                el.set(attr, self.field(etree.QName(attr).localname, value))
        etree.indent(root)
        canonical: bytes = etree.tostring(root, method="c14n")
        return canonical.decode("utf-8")


def media_type(content_type: str | None) -> str:
    """``application/json`` from ``application/json; charset=UTF-8`` ('' when absent)."""
    return (content_type or "").split(";", 1)[0].strip().lower()
