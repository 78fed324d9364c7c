"""The text of a verification report (``geoserver-emulator replay FILE --verify``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .verify import Outcome, Report


def render(report: Report, verbose: bool = False) -> str:
    """One line per exchange that differs (every exchange when ``verbose``), each difference
    below it, the diff of normalised bodies indented, and a summary line last."""
    lines = [f"replaying {report.cassette} against {report.target}"]
    for outcome in report.outcomes:
        if verbose or not outcome.ok:
            lines.extend(_outcome(outcome))
    compared = [o for o in report.outcomes if o.compared]
    differ = len(report.mismatches)
    skipped = len(report.outcomes) - len(compared)
    summary = f"{len(compared) - differ} of {len(compared)} exchanges match"
    if differ:
        summary += f"; {differ} differ"
    if skipped:
        summary += f"; {skipped} sent but not compared"
    if report.unresolved:
        lines.append(
            "note: no value was given for "
            + ", ".join(report.unresolved)
            + " (sent as is; give one with --secret NAME=VALUE or --auth USER:PASSWORD)"
        )
    lines.append(summary)
    return "\n".join(lines) + "\n"


def _outcome(outcome: Outcome) -> list[str]:
    ex = outcome.exchange
    answered = str(outcome.answered.status) if outcome.answered.status else "no answer"
    if not outcome.compared:
        verdict = "not compared"
    else:
        verdict = "ok" if outcome.ok else "DIFFERS"
    lines = [f"#{ex.number} {ex.request.method} {ex.request.target()} -> {answered}: {verdict}"]
    for diff in outcome.differences:
        if diff.what == "body":
            lines.append(f"    body ({diff.recorded} recorded, {diff.answered} answered):")
            lines.extend(f"        {line}" for line in diff.diff)
        else:
            lines.append(f"    {diff.what}: recorded {diff.recorded}, answered {diff.answered}")
    if outcome.answered.status == 0:
        lines.append(f"    {outcome.answered.body.decode('utf-8', 'replace')}")
    return lines
