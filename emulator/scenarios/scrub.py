"""Scrubbing: credentials and the recorded host taken out of an exchange before it is written.

A secret is replaced by a placeholder, ``scrubbed-secret-N``, the same N for the same value
throughout a cassette: a user's password set in one request and used in a later
``Authorization`` header gets one name, so that replay can put one value back in both
places. ``Authorization: Basic …`` is kept decoded as ``Basic USER:scrubbed-secret-N`` (the
user name stays: replay needs to know who asked). Where secrets sit in bodies:

- JSON: the value of any key whose name is a secret name (below), and GeoServer's
  ``{"@key": "passwd", "$": "…"}`` entries;
- XML: the text of any element whose local name is a secret name, and ``<entry key="passwd">``;
- form bodies and query strings: any parameter with a secret name.

Secret names: ``password``, ``passwd``, ``secret`` and any name ending in one of them, in any
case (``masterPassword``, ``oldMasterPassword``, ``newMasterPassword``, ``newPassword``,
``clientSecret``, GWC blob stores' ``awsSecretKey`` and ``accountKey``…), except flags such
as ``sendClientSecret``. Empty values are left alone.

Hosts: every ``scheme://host:port`` the recording saw (the upstream's, the proxy's, the
``Host`` the emulator was addressed by) becomes ``http://recorded.invalid``, in bodies (also
in JSON's ``http:\\/\\/`` spelling), header values and query strings.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from typing import Any
from urllib.parse import parse_qsl, urlencode

from lxml import etree

from ..core.errors import EmulatorError
from ..wire import xml as wxml

PLACEHOLDER = re.compile(r"scrubbed-secret-(\d+)")
RECORDED_ORIGIN = "http://recorded.invalid"
SECRET_SUFFIXES = ("password", "passwd", "secret", "secretkey", "accountkey")
NOT_SECRET = frozenset({"sendclientsecret", "usesecret"})
SECRET_HEADERS = frozenset({"cookie", "set-cookie", "proxy-authorization", "x-api-key"})
"""headers whose whole value is replaced (``authorization`` is handled on its own)"""


def is_secret_key(name: str) -> bool:
    """Whether a field, element, entry or parameter of this name holds a secret."""
    lowered = name.lower().lstrip("@")
    return lowered not in NOT_SECRET and lowered.endswith(SECRET_SUFFIXES)


def body_kind(content_type: str | None, body: bytes) -> str | None:
    """``json``, ``xml``, ``form`` or None: how a text body is structured."""
    media = (content_type or "").split(";", 1)[0].strip().lower()
    if "json" in media:
        return "json"
    if "xml" in media:
        return "xml"
    if media == "application/x-www-form-urlencoded":
        return "form"
    head = body.lstrip()[:1]
    if not media or media == "text/plain":
        if head in (b"{", b"["):
            return "json"
        if head == b"<":
            return "xml"
    return None


class Scrubber:
    """Replaces secrets with stable placeholders and recorded origins with a neutral one.

    Parameters:
        enabled: False keeps everything as it was (``--no-scrub``).
        origins: ``scheme://host[:port]`` origins to hide; more can be added as seen.
    """

    def __init__(self, enabled: bool = True, origins: list[str] | None = None) -> None:
        self.enabled = enabled
        self.names: dict[str, str] = {}
        self.origins: list[str] = []
        for origin in origins or []:
            self.add_origin(origin)

    def add_origin(self, origin: str) -> None:
        origin = origin.rstrip("/")
        if origin and origin not in self.origins and origin != RECORDED_ORIGIN:
            self.origins.append(origin)
            self.origins.sort(key=len, reverse=True)

    def secret(self, value: str) -> str:
        """The placeholder for a secret value (the same one every time)."""
        if value not in self.names:
            self.names[value] = f"scrubbed-secret-{len(self.names) + 1}"
        return self.names[value]

    # -- parts of an exchange -----------------------------------------------------------

    def text(self, value: str) -> str:
        """Recorded origins out of a piece of text."""
        if not self.enabled:
            return value
        for origin in self.origins:
            value = value.replace(origin, RECORDED_ORIGIN)
            value = value.replace(origin.replace("/", "\\/"), RECORDED_ORIGIN.replace("/", "\\/"))
        return value

    def headers(self, headers: dict[str, str]) -> dict[str, str]:
        if not self.enabled:
            return dict(headers)
        out: dict[str, str] = {}
        for name, value in headers.items():
            if name == "authorization":
                out[name] = self.authorization(value)
            elif name in SECRET_HEADERS:
                out[name] = "scrubbed"
            else:
                out[name] = self.text(value)
        return out

    def authorization(self, value: str) -> str:
        """``Basic USER:scrubbed-secret-N`` for Basic credentials, ``SCHEME scrubbed-secret-N``
        for any other scheme."""
        if not self.enabled:
            return value
        scheme, _, token = value.strip().partition(" ")
        if scheme.lower() == "basic":
            try:
                user, sep, password = (
                    base64.b64decode(token.strip(), validate=True).decode("utf-8").partition(":")
                )
            except (binascii.Error, UnicodeDecodeError):
                return f"{scheme} {self.secret(token)}"
            if sep:
                return f"{scheme} {user}:{self.secret(password)}"
        return f"{scheme} {self.secret(token.strip())}" if token else self.secret(scheme)

    def query(self, query: str) -> str:
        if not self.enabled or not query:
            return query
        pairs = parse_qsl(query, keep_blank_values=True)
        if not any(is_secret_key(k) and v for k, v in pairs):
            return self.text(query)
        return self.text(
            urlencode([(k, self.secret(v) if is_secret_key(k) and v else v) for k, v in pairs])
        )

    def body(self, body: bytes, content_type: str | None) -> bytes:
        """A text body with its secrets and origins replaced (structure kept)."""
        if not self.enabled or not body:
            return body
        kind = body_kind(content_type, body)
        scrubbed = body
        if kind == "json":
            scrubbed = self._json(body)
        elif kind == "xml":
            scrubbed = self._xml(body)
        elif kind == "form":
            scrubbed = self.query(body.decode("latin-1")).encode("latin-1")
        try:
            return self.text(scrubbed.decode("utf-8")).encode("utf-8")
        except UnicodeDecodeError:
            return scrubbed

    def _json(self, body: bytes) -> bytes:
        try:
            data = json.loads(body)
        except (ValueError, RecursionError):
            return body
        changed = [False]
        data = self._walk(data, changed)
        if not changed[0]:
            return body
        return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")

    def _walk(self, value: Any, changed: list[bool]) -> Any:
        if isinstance(value, list):
            return [self._walk(v, changed) for v in value]
        if not isinstance(value, dict):
            return value
        if isinstance(value.get("@key"), str) and is_secret_key(value["@key"]):
            secret = value.get("$")
            if isinstance(secret, str) and secret:
                changed[0] = True
                return {**value, "$": self.secret(secret)}
        out = {}
        for key, item in value.items():
            if is_secret_key(key) and isinstance(item, str) and item:
                changed[0] = True
                out[key] = self.secret(item)
            else:
                out[key] = self._walk(item, changed)
        return out

    def _xml(self, body: bytes) -> bytes:
        if b"<!DOCTYPE" in body.upper() or b"<!ENTITY" in body.upper():
            return body
        try:
            root = wxml.parse(body, "body", names=False, max_elements=wxml.TOOL_ELEMENTS)
        except EmulatorError:
            return body
        changed = False
        for el in root.iter():
            if not isinstance(el.tag, str) or len(el) or not el.text:
                continue
            name = etree.QName(el).localname
            if is_secret_key(name) or (name == "entry" and is_secret_key(el.get("key", ""))):
                el.text = self.secret(el.text)
                changed = True
        if not changed:
            return body
        declaration = body.lstrip().startswith(b"<?xml")
        out: bytes = etree.tostring(root, encoding="UTF-8", xml_declaration=declaration)
        return out
