"""Replaying a cassette: sending its requests again, and replay as setup.

Recorded requests go to a *target*: an emulator in process (through its WSGI app, no
network) or any base URL. Scrubbed secrets are put back on the way out (``Secrets``).

**Setup** (``apply``, and ``build`` for the scenario loader): the write requests (POST, PUT,
DELETE, PATCH) that succeeded when recorded are sent in order to a fresh emulator started
from the cassette header's scenario; each must succeed again (2xx), else a ``ScenarioError``
names the exchange. Reads and failed writes changed nothing and are not sent.
Verification is in ``verify.py``.
"""

from __future__ import annotations

import base64
import re
from collections.abc import Callable
from contextvars import ContextVar
from pathlib import Path
from typing import TYPE_CHECKING, Protocol
from urllib.parse import quote_plus, urlsplit

import httpx

from ..core import root
from ..core.errors import ScenarioError
from ..core.record import replace
from ..core.state import State
from ..wire.geoserver.xmltext import escape as xml_escape
from . import loader
from .cassette import Cassette, Exchange, RecordedResponse, read
from .scrub import PLACEHOLDER, RECORDED_ORIGIN, body_kind

if TYPE_CHECKING:
    from ..emulator import Emulator

IN_PROCESS_ORIGIN = "http://localhost:8080"
NOT_REPLAYED = frozenset({"cookie", "host", "content-length"})
FIELD_PLACEHOLDER = re.compile(
    r"\"([\w@-]+)\"\s*:\s*\"(scrubbed-secret-\d+)\"|<(?:[\w-]+:)?([\w-]+)[^>]*>(scrubbed-secret-\d+)</"
    r"|([\w-]+)=(scrubbed-secret-\d+)"
)


class Target(Protocol):
    """Where replayed requests go."""

    origin: str
    context_path: str
    description: str

    def send(
        self, method: str, path: str, query: str, headers: dict[str, str], body: bytes
    ) -> RecordedResponse: ...

    def known_password(self, user: str) -> str | None: ...

    def known_field(self, key: str) -> str | None: ...

    def advance_to(self, elapsed: float) -> None: ...


class InProcess:
    """An emulator, reached through its WSGI app; it can tell passwords the cassette hid."""

    origin = IN_PROCESS_ORIGIN

    def __init__(self, emu: Emulator) -> None:
        self.emu = emu
        self.context_path = emu.context_path
        self.description = (
            f"the emulator in process (scenario {emu.scenario.name}, profile {emu.profile})"
        )
        self.client = httpx.Client(
            transport=httpx.WSGITransport(app=emu.wsgi_app), base_url=self.origin
        )

    def send(
        self, method: str, path: str, query: str, headers: dict[str, str], body: bytes
    ) -> RecordedResponse:
        url = self.context_path + path + (f"?{query}" if query else "")
        answer = self.client.request(method, url, headers=headers, content=body)
        return RecordedResponse(answer.status_code, _headers(answer), answer.content)

    def known_password(self, user: str) -> str | None:
        state = self.emu.state
        if user == "root" and state.security.root_login:
            return state.security.keystore_password
        for service in state.users.services.values():
            found = service.users.get(user)
            if found is not None:
                return found.password
        return None

    def known_field(self, key: str) -> str | None:
        if key.lower() == "oldmasterpassword":
            return self.emu.state.security.keystore_password
        return None

    def advance_to(self, elapsed: float) -> None:
        clock = self.emu.clock
        if getattr(clock, "kind", "") in ("manual", "step") and elapsed > clock.now():
            clock.advance(elapsed - clock.now())

    def close(self) -> None:
        self.client.close()


class Remote:
    """A server at a base URL (``http://host:8080/geoserver``)."""

    def __init__(self, base_url: str, timeout: float = 30.0) -> None:
        parts = urlsplit(base_url)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise ValueError(f"{base_url}: expected an http(s) base URL")
        self.origin = f"{parts.scheme}://{parts.netloc}"
        self.context_path = parts.path.rstrip("/")
        self.description = base_url
        self.client = httpx.Client(base_url=self.origin, timeout=timeout)

    def send(
        self, method: str, path: str, query: str, headers: dict[str, str], body: bytes
    ) -> RecordedResponse:
        url = self.context_path + path + (f"?{query}" if query else "")
        try:
            answer = self.client.request(method, url, headers=headers, content=body)
        except httpx.HTTPError as exc:
            return RecordedResponse(0, {}, f"no answer: {type(exc).__name__}: {exc}".encode())
        return RecordedResponse(answer.status_code, _headers(answer), answer.content)

    def known_password(self, user: str) -> str | None:
        return None

    def known_field(self, key: str) -> str | None:
        return None

    def advance_to(self, elapsed: float) -> None:
        pass

    def close(self) -> None:
        self.client.close()


def _headers(answer: httpx.Response) -> dict[str, str]:
    out: dict[str, str] = {}
    for name, value in answer.headers.multi_items():
        key = name.lower()
        out[key] = value if key not in out else f"{out[key]}, {value}"
    return out


class Secrets:
    """Values for scrubbed secrets: given ones first, then learned from the target.

    Parameters:
        values: ``{"scrubbed-secret-3": "s3cret"}``.
        users: passwords by user name, for ``Authorization`` headers
            (default ``{"admin": "geoserver"}``, the stock administrator).

    A placeholder nobody can resolve is sent as it is (so a user created with a scrubbed
    password gets the placeholder as password, consistently), and listed in ``unresolved``.
    """

    def __init__(
        self, values: dict[str, str] | None = None, users: dict[str, str] | None = None
    ) -> None:
        self.values = dict(values or {})
        self.users = {"admin": "geoserver"} if users is None else dict(users)
        self.unresolved: set[str] = set()

    def authorization(self, recorded: str, target: Target) -> str:
        scheme, _, rest = recorded.partition(" ")
        user, colon, password = rest.partition(":")
        if scheme.lower() != "basic" or not colon:
            return PLACEHOLDER.sub(lambda m: self._value(m.group(0)), recorded)
        if PLACEHOLDER.fullmatch(password) and password not in self.values:
            known = self.users.get(user) or target.known_password(user)
            if known is not None:
                self.values[password] = known
        value = self._value(password) if PLACEHOLDER.fullmatch(password) else password
        return "Basic " + base64.b64encode(f"{user}:{value}".encode()).decode("ascii")

    def body(self, body: bytes, content_type: str | None, target: Target) -> bytes:
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError:
            return body
        if not PLACEHOLDER.search(text):
            return body
        for match in FIELD_PLACEHOLDER.finditer(text):
            key = match.group(1) or match.group(3) or match.group(5)
            name = match.group(2) or match.group(4) or match.group(6)
            if name not in self.values:
                known = target.known_field(key)
                if known is not None:
                    self.values[name] = known
        kind = body_kind(content_type, body)
        escapes: dict[str, Callable[[str], str]] = {
            "json": _json_escape,
            "xml": xml_escape,
            "form": quote_plus,
        }
        escape = escapes.get(kind or "", str)
        return PLACEHOLDER.sub(lambda m: escape(self._value(m.group(0))), text).encode("utf-8")

    def text(self, value: str) -> str:
        return PLACEHOLDER.sub(lambda m: quote_plus(self._value(m.group(0))), value)

    def _value(self, name: str) -> str:
        if name in self.values:
            return self.values[name]
        self.unresolved.add(name)
        return name


def _json_escape(value: str) -> str:
    import json

    return json.dumps(value, ensure_ascii=False)[1:-1]


def send(target: Target, exchange: Exchange, secrets: Secrets) -> RecordedResponse:
    """Send one recorded request to the target, secrets and origin put back."""
    req = exchange.request
    headers = {
        k: v.replace(RECORDED_ORIGIN, target.origin)
        for k, v in req.headers.items()
        if k not in NOT_REPLAYED
    }
    if "authorization" in headers:
        headers["authorization"] = secrets.authorization(headers["authorization"], target)
    body = secrets.body(req.body, req.content_type, target)
    if RECORDED_ORIGIN.encode() in body:
        body = body.replace(RECORDED_ORIGIN.encode(), target.origin.encode())
    return target.send(req.method, req.path, secrets.text(req.query), headers, body)


# -- setup ----------------------------------------------------------------------------------


def start_scenario(cassette: Cassette) -> loader.Scenario:
    """The scenario the cassette header says replay starts from (with its profile and
    vendor prefix)."""
    ref = cassette.header.scenario
    try:
        if ref is None:
            base = loader.Scenario("nothing", loader.Settings(), State().snapshot())
        elif isinstance(ref, dict):
            base = loader.load_document(ref, cassette.base_dir)
        else:
            base = loader.load(
                ref if ref in loader.BUILTINS else loader.resolve(ref, cassette.base_dir)
            )
    except ScenarioError as exc:
        raise ScenarioError(f"{cassette.path}:1: scenario: {exc}") from None
    header = cassette.header
    settings = replace(
        base.settings,
        profile=header.profile or base.settings.profile,
        vendor_prefix=header.vendor_prefix or base.settings.vendor_prefix,
    )
    name = ref if isinstance(ref, str) else "the scenario in the header" if ref else "nothing"
    return loader.Scenario(name, settings, base.baseline)


def start_emulator(
    cassette: Cassette, scenario: str | Path | None = None, profile: str | None = None
) -> Emulator:
    """A fresh emulator (manual clock) in the cassette's start state, or ``scenario``'s."""
    start: loader.ScenarioRef = scenario if scenario is not None else start_scenario(cassette)
    return root.emulator_class()(
        start,
        profile=profile or (cassette.header.profile if scenario is not None else None),
        context_path=cassette.header.context_path,
    )


def apply(cassette: Cassette, emu: Emulator, secrets: Secrets | None = None) -> int:
    """Send the cassette's successful writes to ``emu`` in order; returns how many.

    Raises ``ScenarioError`` naming the first exchange the emulator did not accept.
    """
    target = InProcess(emu)
    try:
        return apply_to(cassette, target, secrets)
    finally:
        target.close()


def apply_to(cassette: Cassette, target: Target, secrets: Secrets | None = None) -> int:
    """``apply`` for any target (``replay FILE --against URL`` sets up a live server)."""
    secrets = secrets or Secrets()
    sent = 0
    for exchange in cassette.exchanges:
        if not exchange.is_write or not 200 <= exchange.response.status < 300:
            continue
        if cassette.header.timing == "simulated":
            target.advance_to(exchange.elapsed)
        answer = send(target, exchange, secrets)
        sent += 1
        if not 200 <= answer.status < 300:
            lines = answer.body.decode("utf-8", "replace").strip().splitlines()
            message = lines[0] if lines else "(no message)"
            raise ScenarioError(
                f"{cassette.path}: {exchange.describe()} was answered {exchange.response.status} "
                f"when recorded, but {answer.status or 'nothing'} on replay: {message}"
            )
    return sent


_BUILDING: ContextVar[tuple[Path, ...]] = ContextVar("cassettes_being_built", default=())
"""the cassettes whose replay is under way in this context, to refuse one that starts from
itself"""


def build(path: Path) -> tuple[State, loader.Settings]:
    """The state a cassette sets up (the scenario loader's entry for ``*.jsonl``)."""
    chain = _BUILDING.get()
    if path in chain:
        raise ScenarioError(f"{path}: starts from itself through {len(chain)} cassette(s)")
    token = _BUILDING.set((*chain, path))
    try:
        cassette = read(path)
        emu = start_emulator(cassette)
        apply(cassette, emu)
    finally:
        _BUILDING.reset(token)
    if emu.internal_errors:
        raise ScenarioError(
            f"{path}: the emulator failed while replaying:\n{emu.internal_errors[0]}"
        )
    return emu.state, emu.scenario.settings
