"""The emulator's own requests, as opposed to a client's: never journaled.

The landing page, what a browser asks for by itself (``/favicon.ico``), and whatever the
inspector's page asks for (its map previews, legends and links: their ``Referer`` is the
inspector) are not journaled (so not counted by the coverage), move no step clock and take no
injected fault: looking at the inspector never changes what a test sees. The control plane
(``/__emulator/...``) is the emulator's own too; the journal middleware checks it first.
"""

from __future__ import annotations

from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from starlette.types import Scope

if TYPE_CHECKING:
    from ..emulator import Emulator

BROWSER_OWN = frozenset(
    {"/favicon.ico", "/apple-touch-icon.png", "/apple-touch-icon-precomposed.png"}
)
"""paths a browser asks for by itself, for any page it shows (at the origin or the context)"""


def is_own_request(scope: Scope, emu: Emulator, path: str) -> bool:
    """Whether a request (``path``: after the context root, or the whole path outside it) is
    the emulator's own: the landing page, a browser's own asset, or asked for by the
    inspector's page."""
    if scope["method"] not in ("GET", "HEAD"):
        return False
    if path in BROWSER_OWN:
        return True
    ctx = emu.context_path
    if path == "/" and scope["path"] in (ctx or "/", ctx + "/"):
        return True  # the landing page at the context root
    referer = _referer(scope)
    if not referer:
        return False
    page = urlsplit(referer).path
    inspector = ctx + "/__emulator"
    return page == inspector or page.startswith(inspector + "/")


def _referer(scope: Scope) -> str | None:
    for key, value in scope.get("headers", []):
        if key == b"referer":
            return str(value.decode("latin-1"))
    return None
