"""A small indenting XML writer that writes documents as GeoServer's transformers do.

GeoServer's capabilities come out of a SAX transformer with two-space indentation: the
declaration and the root on one line, one element per line below, empty elements as
``<Tag/>``. Writing strings directly (rather than building a tree) keeps a capabilities
document of the stock catalog well under a millisecond per hundred layers.
"""

from __future__ import annotations

from collections.abc import Iterable

DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>'

_INVALID: dict[int, None] = {
    c: None for c in [*range(0x20), 0xFFFE, 0xFFFF] if c not in (0x09, 0x0A, 0x0D)
}
"""characters XML 1.0 does not allow (a request's control characters echoed in a message):
dropped, so that every document parses"""
_ESCAPES: dict[int, str | None] = {ord("&"): "&amp;", ord("<"): "&lt;", ord(">"): "&gt;"}
_TEXT = str.maketrans({**_ESCAPES, **_INVALID})
_ATTR = str.maketrans({**_ESCAPES, ord('"'): "&quot;", **_INVALID})

Attrs = Iterable[tuple[str, str]]


def text(value: str) -> str:
    return value.translate(_TEXT)


def attr(value: str) -> str:
    return value.translate(_ATTR)


class XmlWriter:
    """Appends markup to a list; ``done()`` joins it. Attribute pairs keep their order."""

    def __init__(self, head: str = DECLARATION, indent: int = 2) -> None:
        self.parts: list[str] = [head]
        self.depth = 0
        self.indent = indent
        self.first = True
        self.open = -1
        """index just past the last start tag, while nothing followed it"""

    @classmethod
    def fragment(cls, depth: int, indent: int = 2) -> XmlWriter:
        """A writer of elements at ``depth`` inside a document (``text()`` gives them, to
        be put in place with the document's ``raw``)."""
        w = cls("", indent)
        w.parts, w.depth, w.first = [], depth, False
        return w

    def _newline(self) -> None:
        if self.first:  # the root follows the declaration on the same line
            self.first = False
            return
        self.parts.append("\n" + " " * (self.depth * self.indent))

    @staticmethod
    def _attrs(attrs: Attrs | None) -> str:
        if not attrs:
            return ""
        return "".join(f' {k}="{attr(v)}"' for k, v in attrs)

    def start(self, tag: str, attrs: Attrs | None = None) -> XmlWriter:
        self._newline()
        self.parts.append(f"<{tag}{self._attrs(attrs)}>")
        self.depth += 1
        self.open = len(self.parts)
        return self

    def end(self, tag: str) -> XmlWriter:
        """Close ``tag``; one that got no content is written ``<tag/>``."""
        self.depth -= 1
        if self.open == len(self.parts):
            self.parts[-1] = self.parts[-1][:-1] + "/>"
            self.open = -1
            return self
        self._newline()
        self.parts.append(f"</{tag}>")
        return self

    def element(self, tag: str, value: str | None = None, attrs: Attrs | None = None) -> XmlWriter:
        """``<tag>value</tag>``, or ``<tag/>`` when the value is None or empty."""
        self._newline()
        if value:
            self.parts.append(f"<{tag}{self._attrs(attrs)}>{text(value)}</{tag}>")
        else:
            self.parts.append(f"<{tag}{self._attrs(attrs)}/>")
        return self

    def comment(self, value: str) -> XmlWriter:
        self._newline()
        self.parts.append(f"<!--{value}-->")
        return self

    def raw(self, markup: str) -> XmlWriter:
        """Append markup written elsewhere (a ``fragment``'s text)."""
        self.parts.append(markup)
        self.open = -1
        return self

    def text(self) -> str:
        return "".join(self.parts)

    def done(self) -> bytes:
        return "".join(self.parts).encode("utf-8")
