"""Reaching a cascaded store's remote server: its registered capabilities document, read.

What GeoServer does over HTTP happens here against ``state.cascade`` (the registered
documents): a URL with no document is a server that does not answer; a document that is
not a capabilities document of the store's service is a server that answers nonsense. Each
is an ``Unreachable`` error (500, as GeoServer's ``IOException`` surfaces through its
controllers). The URL checks (``/rest/urlchecks``) do not apply: GeoServer exempts the URLs
administrators configure, cascaded WMS and WMTS stores among them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core.errors import EmulatorError, ServerError
from . import capabilities
from .entities import Capabilities, HTTPStore

if TYPE_CHECKING:
    from ...core.state import State


class Unreachable(ServerError):
    """The remote server of a store cannot be read."""


def connect(state: State, store: HTTPStore) -> Capabilities:
    """The store's remote server as its capabilities document describes it."""
    url = store.capabilities_url
    if not url:
        raise Unreachable(f"The {_service(store)} store {store.name} has no capabilities URL")
    document = state.cascade.document(url)
    if document is None:
        raise Unreachable(f"Unable to connect to {url}: the remote server does not answer")
    try:
        caps = capabilities.parse(document)
    except EmulatorError as exc:
        raise Unreachable(f"Unable to read the capabilities of {url}: {exc.message}") from None
    if caps.service != _service(store):
        raise Unreachable(f"{url} answers with {caps.service} capabilities, not {_service(store)}")
    return caps


def _service(store: HTTPStore) -> str:
    return "WMS" if store.kind == "wmsStore" else "WMTS"
