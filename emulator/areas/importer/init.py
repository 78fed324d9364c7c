"""Initialising an import (``Importer.init``): its data read into tasks.

Remote data is first resolved: the emulated server has no network, so a URL gives data only
when content was registered for it (the scenario's ``features.remote``, the control plane's
``PUT /__emulator/remote``), copied into an upload folder; otherwise the URL checks are asked
and the import fails to initialise, with the reason.
"""

from __future__ import annotations

from ...core.errors import Invalid
from ..mosaics.sources import DATADIR, FileRef, Remote, locate
from ..uploads.context import Context
from ..uploads.readers import Unreadable
from . import places, tasks
from .model import Data, ImportContext, ImportStore


def store_of(rt: Context) -> ImportStore:
    found: ImportStore = rt.state.importer
    return found


def initialise(rt: Context, context: ImportContext) -> None:
    """``Importer.init``: the data's tasks; a failure is ``INIT_ERROR`` with its message."""
    try:
        if context.data is not None and context.data.type == "remote":
            context.data = _resolve_remote(rt, context.data)
        if context.data is not None:
            tasks.add_tasks(rt, store_of(rt), context, context.data)
    except (Unreadable, Invalid) as exc:
        context.state = "INIT_ERROR"
        context.message = exc.message if isinstance(exc, Invalid) else str(exc)
        return
    context.state = "PENDING"


def _resolve_remote(rt: Context, data: Data) -> Data:
    """``RemoteData.resolve``: the content registered for the URL (the emulated server has
    no network), copied into an upload folder."""
    url = data.location or ""
    content = rt.state.features.remote.get(url)
    if content is None:
        target = locate(url)
        if isinstance(target, Remote) and not rt.url_allowed(target.url):
            raise Invalid(f"Evaluation Failure: '{url}' was not accepted by external URL checks")
        raise Invalid(f"Error while downloading {url}: the emulated server has no network")
    folder = store_of(rt).folder()
    name = url.rstrip("/").rsplit("/", 1)[-1] or "data"
    places.accept(rt, folder, name, content)
    return places.directory(rt, FileRef(DATADIR, folder))
