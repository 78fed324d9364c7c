"""``/rest/crs`` JSON as GeoServer's ``CRSController`` records serialise (Jackson: fields in
declaration order, doubles as Java writes them, ``null`` for a missing extent)."""

from __future__ import annotations

import json

from ...crs.registry import BBox, Definition
from ...crs.wkt import java_double


def _s(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def dump_codes(items: list[tuple[str, str]], offset: int, limit: int, total: int) -> str:
    crs = ",".join(f'{{"id":{_s(i)},"href":{_s(h)}}}' for i, h in items)
    page = f'{{"offset":{offset},"limit":{limit},"returned":{len(items)},"total":{total}}}'
    return f'{{"crs":[{crs}],"page":{page}}}'


def dump_authorities(items: list[tuple[str, str]]) -> str:
    listed = ",".join(f'{{"name":{_s(n)},"href":{_s(h)}}}' for n, h in items)
    return f'{{"authorities":[{listed}]}}'


def _bbox(b: BBox | None) -> str:
    if b is None:
        return "null"
    values = (b.min_x, b.min_y, b.max_x, b.max_y)
    keys = ("minX", "minY", "maxX", "maxY")
    return (
        "{" + ",".join(f'"{k}":{java_double(v)}' for k, v in zip(keys, values, strict=True)) + "}"
    )


def dump_definition(d: Definition, identifier: str) -> str:
    return (
        f'{{"id":{_s(identifier)},"format":"wkt","name":{_s(d.name)},"bbox":{_bbox(d.bbox)},'
        f'"bboxWGS84":{_bbox(d.bbox_wgs84)},"definition":{_s(d.wkt)}}}'
    )
