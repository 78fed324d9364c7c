"""GeoServer CSS (GeoCSS) bodies: a syntax check, not a translator.

A sheet is directives (``@styleName 'roads';``) and rules (``selector { property: value; }``),
rules possibly nested (``[type = 'a'] { :mark { fill: red } }``). Checked: comments and
quotes closed, brackets balanced, every rule with a selector and a ``{…}`` block, every
declaration ``property: value``, and at least one rule. The ``@styleName`` directive names
the style, as GeoServer's CSS translator does (``Default Styler`` without it, GeoTools'
default style name).
"""

from __future__ import annotations

import re

from ...core.errors import Invalid
from ...core.record import record

DEFAULT_NAME = "Default Styler"
_PROPERTY = re.compile(r"-?[A-Za-z_][\w-]*\Z")
_DIRECTIVE = re.compile(r"@([A-Za-z][\w-]*)\s*(.*)\Z", re.S)
_CLOSERS = {"[": "]", "(": ")"}


@record(frozen=True)
class Summary:
    style_name: str
    rules: int


def check(body: bytes, charset: str = "utf-8") -> Summary:
    """Check a CSS body; raises ``Invalid`` with the reason."""
    try:
        text = body.decode(charset)
    except (UnicodeDecodeError, LookupError):
        raise Invalid(f"the CSS is not valid {charset} text") from None
    parser = _Parser(_strip_comments(text))
    directives, rules = parser.sheet()
    if rules == 0:
        raise Invalid("the CSS has no rule (selector { property: value })")
    name = directives.get("styleName", "").strip().strip("'\"").strip() or DEFAULT_NAME
    return Summary(name, rules)


def _strip_comments(text: str) -> str:
    out: list[str] = []
    i, quote = 0, ""
    while i < len(text):
        ch = text[i]
        if quote:
            out.append(ch)
            if ch == "\\" and i + 1 < len(text):
                out.append(text[i + 1])
                i += 1
            elif ch == quote:
                quote = ""
        elif ch in "'\"":
            quote = ch
            out.append(ch)
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            if end < 0:
                raise Invalid("unterminated comment in the CSS")
            out.append(" ")
            i = end + 1
        else:
            out.append(ch)
        i += 1
    if quote:
        raise Invalid("unterminated string in the CSS")
    return "".join(out)


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0

    def sheet(self) -> tuple[dict[str, str], int]:
        directives: dict[str, str] = {}
        rules = 0
        while self._skip_space():
            if self.text[self.pos] == "@":
                chunk, stop = self._until(";{}")
                if stop != ";":
                    raise self._error(f"directive {chunk.strip()!r} must end with ';'")
                match = _DIRECTIVE.match(chunk.strip())
                if not match:
                    raise self._error(f"malformed directive {chunk.strip()!r}")
                directives[match.group(1)] = match.group(2).strip()
            else:
                rules += self._rule()
        return directives, rules

    def _rule(self) -> int:
        selector, stop = self._until("{};")
        if stop == "}":
            raise self._error("unexpected '}'")
        if stop != "{":
            raise self._error(f"expected '{{' after the selector {selector.strip()!r}")
        if not selector.strip():
            raise self._error("a rule has an empty selector")
        return 1 + self._block()

    def _block(self) -> int:
        """The inside of ``{…}`` (the ``{`` already read); nested rules counted."""
        nested = 0
        while True:
            if not self._skip_space():
                raise self._error("a '{' is never closed")
            if self.text[self.pos] == "}":
                self.pos += 1
                return nested
            start = self.pos
            chunk, stop = self._until(";{}")
            if stop == "{":
                self.pos = start
                nested += self._rule()
                continue
            if stop == "":
                raise self._error("a '{' is never closed")
            if stop == "}":
                self.pos -= 1  # let the loop close the block
            if chunk.strip():
                self._declaration(chunk.strip())

    def _declaration(self, chunk: str) -> None:
        prop, colon, value = chunk.partition(":")
        if not colon or not _PROPERTY.match(prop.strip()) or not value.strip():
            raise self._error(f"malformed declaration {chunk!r} (expected property: value)")

    def _until(self, stops: str) -> tuple[str, str]:
        """Text up to the first of ``stops`` outside quotes and brackets; that stop is consumed
        ('' at the end of the text)."""
        start, depth, quote = self.pos, [], ""
        while self.pos < len(self.text):
            ch = self.text[self.pos]
            self.pos += 1
            if quote:
                if ch == "\\":
                    self.pos += 1
                elif ch == quote:
                    quote = ""
            elif ch in "'\"":
                quote = ch
            elif ch in _CLOSERS:
                depth.append(_CLOSERS[ch])
            elif depth and ch == depth[-1]:
                depth.pop()
            elif ch in "])":
                raise self._error(f"unbalanced {ch!r}")
            elif not depth and ch in stops:
                return self.text[start : self.pos - 1], ch
        if depth:
            raise self._error(f"missing {depth[-1]!r}")
        return self.text[start:], ""

    def _skip_space(self) -> bool:
        while self.pos < len(self.text) and self.text[self.pos].isspace():
            self.pos += 1
        return self.pos < len(self.text)

    def _error(self, what: str) -> Invalid:
        line = self.text.count("\n", 0, self.pos) + 1
        return Invalid(f"CSS syntax error at line {line}: {what}")
