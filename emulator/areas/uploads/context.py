"""What an upload operation needs besides its arguments."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ...core.profile import Decisions
from ...core.record import record
from ..mosaics.sources import HostBudget
from .readers import DEFAULT_INPUT_MEMORY

if TYPE_CHECKING:
    from ...core.datadir import DataDir
    from ...core.state import State


@record
class Context:
    state: State
    when: str | None
    """the emulated time in the catalog's date format (None: a scenario, undated)"""
    seconds: float
    """the emulated clock, for data-directory file times"""
    url_allowed: Callable[[str], bool]
    max_total: int
    """the most bytes an archive may inflate to"""
    decisions: Decisions
    host: HostBudget | None = None
    """the budget of reading this machine (``external`` uploads), None when it is off"""
    raster_budget: int = DEFAULT_INPUT_MEMORY
    """the most bytes of samples a raster may declare (WCS ``maxInputMemory``, else the
    default)"""

    def sources(self) -> Sources:
        """What staging an upload reads of the state, taken from it now (on the event loop:
        staging may then run on another thread without touching the state)."""
        state = self.state
        return Sources(
            state.datadir, state.features.remote.get, self.url_allowed, self.max_total,
            self.decisions, self.host, self.raster_budget,
        )  # fmt: skip


@record
class Sources:
    """The inputs of staging an upload (reading and checking its files): the data directory
    as it is, the registered remote contents, the URL checks and the budgets. Staging reads
    them and changes nothing."""

    datadir: DataDir
    remote: Callable[[str], bytes | None]
    url_allowed: Callable[[str], bool]
    max_total: int
    decisions: Decisions
    host: HostBudget | None = None
    """the budget of reading this machine (``external`` uploads), None when it is off"""
    raster_budget: int = DEFAULT_INPUT_MEMORY


@record
class Request:
    """An upload as the client sent it."""

    workspace: str
    store: str
    method: str
    format: str
    body: bytes
    is_zip: bool = False
    configure: str | None = None
    target: str | None = None
    update: str | None = None
    charset: str | None = None
    filename: str | None = None
    coverage_name: str | None = None


def raster_budget(state: State, workspace: str) -> int:
    """The bytes of samples a raster upload to ``workspace`` may declare: its WCS
    ``maxInputMemory`` (KiB, GeoServer's limit on what a coverage request reads) where set,
    else ``DEFAULT_INPUT_MEMORY``."""
    wcs = state.settings.service("wcs", workspace) or {}
    try:
        kib = int(wcs.get("maxInputMemory") or 0)
    except (TypeError, ValueError):
        kib = 0
    return kib * 1024 if kib > 0 else DEFAULT_INPUT_MEMORY
