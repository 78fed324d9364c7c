"""The OWS common sections the WFS 1.1/2.0, WCS 1.1/2.0 and WMTS capabilities share, each a
small writer with explicit inputs: ``ows:ServiceIdentification``, ``ows:ServiceProvider``,
an ``ows:Operation`` of ``ows:OperationsMetadata``, ``ows:Keywords`` and
``ows:WGS84BoundingBox``. The services' documents differ in details (which keywords, which
type and version elements, how much of the contact, the DCP links), given as arguments.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, NamedTuple

from ...wire.geoserver.java import number_text as java_number
from ..catalog.entities import BBox
from .writer import Attrs, XmlWriter


class Identification(NamedTuple):
    """What ``ows:ServiceIdentification`` says."""

    title: str | None
    abstract: str | None
    keywords: Sequence[str | None]
    types: Sequence[tuple[str, str, Attrs | None]]
    """the elements after the keywords (``ows:ServiceType``, ``ows:ServiceTypeVersion``,
    ``ows:Profile``…): (tag, text, attributes)"""
    fees: str | None
    constraints: str | None
    keywords_always: bool = True
    """write ``ows:Keywords`` when there are none (WCS 2.0.1 leaves it out)"""


def keywords(w: XmlWriter, values: Iterable[str | None], always: bool = True) -> None:
    """``ows:Keywords`` with an ``ows:Keyword`` per value (none: only when ``always``)."""
    values = list(values)
    if not values and not always:
        return
    w.start("ows:Keywords")
    for kw in values:
        w.element("ows:Keyword", kw)
    w.end("ows:Keywords")


def identification(w: XmlWriter, ident: Identification) -> None:
    w.start("ows:ServiceIdentification")
    w.element("ows:Title", ident.title)
    w.element("ows:Abstract", ident.abstract)
    keywords(w, ident.keywords, ident.keywords_always)
    for tag, value, attrs in ident.types:
        w.element(tag, value, attrs)
    w.element("ows:Fees", ident.fees)
    w.element("ows:AccessConstraints", ident.constraints)
    w.end("ows:ServiceIdentification")


def provider(w: XmlWriter, contact: Mapping[str, Any], full: bool = False) -> None:
    """``ows:ServiceProvider`` from the contact settings: name, person and position;
    ``full`` adds the phone and address (WFS)."""
    w.start("ows:ServiceProvider")
    w.element("ows:ProviderName", contact.get("contactOrganization"))
    w.start("ows:ServiceContact")
    w.element("ows:IndividualName", contact.get("contactPerson"))
    w.element("ows:PositionName", contact.get("contactPosition"))
    if full:
        _contact_info(w, contact)
    w.end("ows:ServiceContact")
    w.end("ows:ServiceProvider")


def _contact_info(w: XmlWriter, c: Mapping[str, Any]) -> None:
    w.start("ows:ContactInfo")
    w.start("ows:Phone")
    w.element("ows:Voice", c.get("contactVoice"))
    w.element("ows:Facsimile", c.get("contactFacsimile"))
    w.end("ows:Phone")
    w.start("ows:Address")
    w.element("ows:DeliveryPoint", c.get("address"))
    w.element("ows:City", c.get("addressCity"))
    w.element("ows:AdministrativeArea", c.get("addressState"))
    w.element("ows:PostalCode", c.get("addressPostalCode"))
    w.element("ows:Country", c.get("addressCountry"))
    w.element("ows:ElectronicMailAddress", c.get("contactEmail"))
    w.end("ows:Address")
    w.end("ows:ContactInfo")


Parameter = tuple[str, Sequence[str]]
"""(name, allowed values) of an ``ows:Parameter``"""


def operation(
    w: XmlWriter,
    name: str,
    get: str,
    post: str | None = None,
    parameters: Sequence[Parameter] = (),
    allowed_values: bool = False,
    get_encoding: str | None = None,
) -> None:
    """One ``ows:Operation``: its DCP links (``get_encoding``: WMTS's ``GetEncoding``
    constraint inside ``ows:Get``), then its parameters (``allowed_values``: the values
    inside ``ows:AllowedValues``, as OWS 1.1 writes them)."""
    w.start("ows:Operation", [("name", name)])
    w.start("ows:DCP")
    w.start("ows:HTTP")
    if get_encoding is None:
        w.element("ows:Get", None, [("xlink:href", get)])
    else:
        w.start("ows:Get", [("xlink:href", get)])
        w.start("ows:Constraint", [("name", "GetEncoding")])
        w.start("ows:AllowedValues")
        w.element("ows:Value", get_encoding)
        w.end("ows:AllowedValues")
        w.end("ows:Constraint")
        w.end("ows:Get")
    if post is not None:
        w.element("ows:Post", None, [("xlink:href", post)])
    w.end("ows:HTTP")
    w.end("ows:DCP")
    for pname, values in parameters:
        w.start("ows:Parameter", [("name", pname)])
        if allowed_values:
            w.start("ows:AllowedValues")
        for v in values:
            w.element("ows:Value", v)
        if allowed_values:
            w.end("ows:AllowedValues")
        w.end("ows:Parameter")
    w.end("ows:Operation")


def constraint(w: XmlWriter, tag: str, name: str, value: str) -> None:
    """A constraint with no values and a default (``ows:Constraint``, ``fes:Constraint``)."""
    w.start(tag, [("name", name)])
    w.element("ows:NoValues")
    w.element("ows:DefaultValue", value)
    w.end(tag)


def decimal(value: float) -> str:
    """A coordinate as a Java double prints (an integer value too: ``12.0``)."""
    return java_number(float(value))


def wgs84_box(w: XmlWriter, box: BBox | None, number: Callable[[float], str] = java_number) -> None:
    """``ows:WGS84BoundingBox`` (nothing for no box); ``number`` writes the corners."""
    if box is None:
        return
    w.start("ows:WGS84BoundingBox")
    w.element("ows:LowerCorner", f"{number(box.minx)} {number(box.miny)}")
    w.element("ows:UpperCorner", f"{number(box.maxx)} {number(box.maxy)}")
    w.end("ows:WGS84BoundingBox")
