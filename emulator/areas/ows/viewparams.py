"""``viewparams``: the SQL view parameters of a WMS or WFS request, one set per layer or
feature type, as GeoServer's request readers fan them out (``GetMapKvpRequestReader``,
``GetFeatureKvpRequestReader``): one set applies to every layer, else there must be one per
layer. The values are checked against each view's validators where they are used
(``databases/virtual.py``): a refused one never reaches SQL."""

from __future__ import annotations

from ...core.errors import EmulatorError
from ...databases.virtual import parse_viewparams
from .errors import INVALID, OwsError

READERS = {
    "layers": "org.geoserver.wms.map.GetMapKvpRequestReader",
    "feature types": "org.geoserver.wfs.kvp.GetFeatureKvpRequestReader",
}


def per_layer(text: str | None, count: int, what: str) -> list[dict[str, str]]:
    """The parameters of each of ``count`` layers (``what``: ``layers`` or ``feature
    types``, as GeoServer's message names them); none given: empty sets."""
    if not text:
        return [{} for _ in range(count)]
    try:
        found = parse_viewparams(text)
    except EmulatorError as exc:
        raise OwsError(exc.message, INVALID, "viewParams") from None
    if len(found) == 1:
        return [found[0] for _ in range(count)]
    if len(found) != count:
        raise OwsError(
            f"{count} {what} requested, but found {len(found)} view params specified. ",
            READERS[what],
        )
    return found
