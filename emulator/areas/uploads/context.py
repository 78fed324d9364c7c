"""What an upload operation needs besides its arguments."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ...core.profile import Decisions
from ...core.record import record
from ..mosaics.sources import HostBudget

if TYPE_CHECKING:
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
