"""Escaping for XML written as text, where a document is built line by line (GWC's
pretty-printed XStream output) rather than as a tree."""

from __future__ import annotations

_TEXT = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;"})
_QUOTED = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"})
_ATTRIBUTE = str.maketrans(
    {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;", "\r": "&#xd;"}
)


def escape(text: str, quote: bool = False) -> str:
    """``text`` as element content (``&``, ``<``, ``>`` escaped; with ``quote`` also ``"``),
    as ``xml.sax.saxutils.escape`` does, without importing it (it loads ``urllib.request``
    and much of the standard library with it)."""
    return text.translate(_QUOTED if quote else _TEXT)


def escape_attribute(text: str) -> str:
    """``text`` as XStream's pretty printer writes any text: quotes and carriage returns
    escaped too, so it is safe in content and in a quoted attribute alike."""
    return text.translate(_ATTRIBUTE)
