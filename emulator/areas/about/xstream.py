"""The names this module used to define, now GeoServer's shared wire layer's
(``wire/geoserver/``): kept so that importers of the old names go on working. New code
imports ``wire.geoserver`` directly."""

from __future__ import annotations

from ...wire.geoserver.html import esc
from ...wire.geoserver.html import page as html_page
from ...wire.geoserver.java import double_text as java_double
from ...wire.geoserver.java import fixed as java_fixed
from ...wire.geoserver.java import string_of as java_string
from ...wire.geoserver.java import url_encode
from ...wire.geoserver.jettison import Scalar, jettison, leaf
from ...wire.xml import xml_safe

__all__ = [
    "Scalar", "esc", "html_page", "java_double", "java_fixed", "java_string", "jettison",
    "leaf", "url_encode", "xml_safe",
]  # fmt: skip
