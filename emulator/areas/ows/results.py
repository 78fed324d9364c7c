"""What an OGC operation answers, as data: ``routes.py`` alone makes HTTP responses of it.

- ``Document``: a written document (capabilities, descriptions, HTML, text, JSON);
- ``Image``: a map, tile, legend or coverage: its bytes and format, and a file name when
  the answer is to be saved (``Content-Disposition``);
- ``Report``: a service exception report, with the HTTP status its exception format gives;
- ``collections.FeatureCollection``: features read by a query, written by its format's
  encoder (GML 2, 3.1, 3.2, GeoJSON) when answered.
"""

from __future__ import annotations

from typing import NamedTuple

from .collections import FeatureCollection


class Document(NamedTuple):
    body: bytes
    media_type: str
    filename: str | None = None
    """the name GeoServer's response gives it (``Content-Disposition``); None: the
    dispatcher's default, ``geoserver-<Operation>.<type>`` (``dispatch.headers``)"""


class Image(NamedTuple):
    data: bytes
    media_type: str
    filename: str | None = None
    """the name a client saves it under (``Content-Disposition: inline; filename=…``)"""
    disposition: str | None = None
    """a whole ``Content-Disposition`` value, when not ``inline; filename=…``"""


class Report(NamedTuple):
    body: bytes
    media_type: str
    status: int = 200


Result = Document | Image | Report | FeatureCollection
"""what a handler returns"""
