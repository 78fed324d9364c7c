"""Replay as verification: every recorded request sent again, each answer compared with the
recording (status, content type, ``Location``, normalised body; see ``normalise.py``), and a
``Report`` of the differences exchange by exchange (rendered by ``report.py``)."""

from __future__ import annotations

import difflib
from pathlib import Path
from typing import Any

from ..core.antpath import ant_match
from ..core.record import field, record
from ..scenarios.cassette import Cassette, Exchange, RecordedResponse, read
from ..scenarios.normalise import Masks, media_type
from ..scenarios.replay import InProcess, Remote, Secrets, Target, send, start_emulator
from ..scenarios.scrub import RECORDED_ORIGIN
from .report import render

DIFF_LINES = 40


@record
class Difference:
    what: str
    """``status``, ``content type``, ``location`` or ``body``"""
    recorded: str
    answered: str
    diff: list[str] = field(default_factory=list)


@record
class Outcome:
    exchange: Exchange
    answered: RecordedResponse
    differences: list[Difference] = field(default_factory=list)
    compared: bool = True
    """False for exchanges sent but not compared (``skip``)"""

    @property
    def ok(self) -> bool:
        return not self.differences


@record
class Report:
    cassette: Path
    target: str
    outcomes: list[Outcome]
    unresolved: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return all(o.ok for o in self.outcomes)

    @property
    def mismatches(self) -> list[Outcome]:
        return [o for o in self.outcomes if not o.ok]

    def text(self, verbose: bool = False) -> str:
        """The per-exchange report: differences in full, matches only when ``verbose``."""
        return render(self, verbose)


def verify(
    cassette: Cassette,
    target: Target,
    secrets: Secrets | None = None,
    skip: tuple[str, ...] = (),
) -> Report:
    """Send every recorded request to ``target`` and compare the answers with the recording.

    ``skip``: Ant patterns of paths (``/rest/about/**``) whose answers are not compared.
    """
    secrets = secrets or Secrets()
    outcomes = []
    for exchange in cassette.exchanges:
        if cassette.header.timing == "simulated":
            target.advance_to(exchange.elapsed)
        answered = send(target, exchange, secrets)
        path = exchange.request.path
        if any(ant_match(pattern, path) for pattern in skip):
            outcomes.append(Outcome(exchange, answered, compared=False))
            continue
        outcomes.append(Outcome(exchange, answered, compare(cassette, exchange, answered, target)))
    return Report(cassette.path, target.description, outcomes, sorted(secrets.unresolved))


def verify_file(
    path: str | Path,
    against: str | None = None,
    *,
    scenario: str | Path | None = None,
    profile: str | None = None,
    secrets: Secrets | None = None,
    skip: tuple[str, ...] = (),
) -> Report:
    """``replay FILE --verify``: against a fresh emulator in process, or a base URL."""
    cassette = read(path)
    target: Any = (
        Remote(against) if against else InProcess(start_emulator(cassette, scenario, profile))
    )
    try:
        return verify(cassette, target, secrets, skip)
    finally:
        target.close()


def masks_for(cassette: Cassette, target: Target) -> Masks:
    """The masks for comparing this cassette's answers with the target's."""
    origins = [RECORDED_ORIGIN, target.origin]
    if cassette.header.upstream:
        origins.append(cassette.header.upstream)
    return Masks(origins, [cassette.header.context_path, target.context_path])


def compare(
    cassette: Cassette, exchange: Exchange, answered: RecordedResponse, target: Target
) -> list[Difference]:
    """Every difference that matters between the recorded answer and ``answered``."""
    recorded = exchange.response
    masks = masks_for(cassette, target)
    out: list[Difference] = []
    if recorded.status != answered.status:
        out.append(
            Difference(
                "status", str(recorded.status), str(answered.status) if answered.status else "none"
            )
        )
    r_type, a_type = media_type(recorded.content_type), media_type(answered.content_type)
    if r_type != a_type and (recorded.body or answered.body):
        out.append(Difference("content type", r_type or "(none)", a_type or "(none)"))
    r_loc, a_loc = (
        masks.location(recorded.headers.get("location")),
        masks.location(answered.headers.get("location")),
    )
    if r_loc is not None and r_loc != a_loc:
        out.append(Difference("location", r_loc, a_loc or "(none)"))
    if exchange.request.method == "HEAD":
        return out
    r_kind, r_text = masks.normalise(recorded.body, recorded.content_type)
    a_kind, a_text = masks.normalise(answered.body, answered.content_type)
    if r_text != a_text:
        diff = list(
            difflib.unified_diff(
                r_text.splitlines(), a_text.splitlines(), "recorded", "answered", lineterm="", n=2
            )
        )
        if len(diff) > DIFF_LINES:
            diff = [*diff[:DIFF_LINES], f"... {len(diff) - DIFF_LINES} more diff lines"]
        out.append(Difference("body", r_kind, a_kind, diff))
    return out
