"""Comparing a recorded answer with a replayed one: status, content type, Location, body."""

from __future__ import annotations

import difflib
from typing import TYPE_CHECKING

from .cassette import Cassette, Exchange, RecordedResponse
from .normalise import Masks, media_type
from .scrub import RECORDED_ORIGIN

if TYPE_CHECKING:
    from .replay import Difference, Target

DIFF_LINES = 40


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
    from .replay import Difference

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
