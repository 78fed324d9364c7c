"""The REST HTML page, in the frame GeoServer's templates share (``head.ftl``/``tail.ftl``)."""

from __future__ import annotations

import html

TITLE = "GeoServer Configuration"


def page(body: str, title: str = TITLE) -> str:
    """A REST HTML answer: ``body`` in GeoServer's frame (title, no-robots meta)."""
    return (
        f"<html>\n<head>\n<title>{esc(title)}</title>\n"
        '<meta name="ROBOTS" content="NOINDEX, NOFOLLOW"/>\n</head>\n<body>\n'
        f"{body}\n</body>\n</html>\n"
    )


def esc(text: object) -> str:
    """Text escaped for HTML (quotes included)."""
    return html.escape(str(text), quote=True)
