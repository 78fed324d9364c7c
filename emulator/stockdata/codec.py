"""The stock data files: one per layer, written by ``docs/tools/stockdata.py``, read here.

A file is a four-byte magic (``GST1`` for a feature table, ``GSG1`` for a grid) and an xz
stream. Inside it: the length of a JSON header (four bytes, little-endian), the header
(UTF-8, sorted keys), then the binary blobs the header points at by offset and length.

A table's header carries the schema, the fids, and each non-geometry column as a JSON list
(null for a missing value); the geometries are shapely's ragged arrays (one geometry type
per layer: coordinates as little-endian float64 pairs, the part offsets as int32), so the
coordinates are exactly the source's, and decoding is one vectorised call. A grid's header
carries its size, envelope, CRS and bands; its blob is the pixels (absent for a grid with
no source, whose pixels are no-data).

``encode_*`` and ``decode_*`` are paired; ``tests/stockdata`` checks the round trip.
"""

from __future__ import annotations

import json
import lzma
import struct
from typing import Any

from .model import Source, StockAttribute, StockBand, StockFeature, StockGrid, StockTable

TABLE_MAGIC = b"GST1"
GRID_MAGIC = b"GSG1"
FORMAT = 1
_XZ_PRESET = 9 | lzma.PRESET_EXTREME


class Corrupt(ValueError):
    """A stock data file that is not what the codec writes."""


def _pack(magic: bytes, header: dict[str, Any], blobs: list[bytes]) -> bytes:
    offsets, at = [], 0
    for blob in blobs:
        offsets.append([at, len(blob)])
        at += len(blob)
    header = {**header, "blobs": offsets}
    text = json.dumps(header, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    head = text.encode("utf-8")
    payload = struct.pack("<I", len(head)) + head + b"".join(blobs)
    return magic + lzma.compress(payload, format=lzma.FORMAT_XZ, preset=_XZ_PRESET)


def _unpack(magic: bytes, data: bytes) -> tuple[dict[str, Any], list[bytes]]:
    if data[:4] != magic:
        raise Corrupt(f"not a stock data file of this kind (magic {data[:4]!r})")
    payload = lzma.decompress(data[4:], format=lzma.FORMAT_XZ)
    (size,) = struct.unpack_from("<I", payload)
    header = json.loads(payload[4 : 4 + size].decode("utf-8"))
    if header.get("format") != FORMAT:
        raise Corrupt(f"stock data format {header.get('format')!r} is not {FORMAT}")
    body = memoryview(payload)[4 + size :]
    blobs = [bytes(body[start : start + length]) for start, length in header["blobs"]]
    return header, blobs


def _sources(items: list[dict[str, str]]) -> tuple[Source, ...]:
    return tuple(Source(s["package"], s["licence"], s["dataset"]) for s in items)


def _source_dicts(sources: tuple[Source, ...]) -> list[dict[str, str]]:
    return [{"package": s.package, "licence": s.licence, "dataset": s.dataset} for s in sources]


# --- tables -------------------------------------------------------------------------------


def encode_table(table: StockTable) -> bytes:
    """The file for ``table`` (every fid ``<prefix>.<n>`` with one prefix)."""
    prefix, numbers = _fid_numbers(table)
    names = table.names
    columns = {
        a.name: [f.values[i] for f in table.features]
        for i, a in enumerate(table.attributes)
        if a.name != table.geometry
    }
    header: dict[str, Any] = {
        "format": FORMAT,
        "workspace": table.workspace,
        "name": table.name,
        "published": table.published,
        "srs": table.srs,
        "geometry": table.geometry,
        "attributes": [[a.name, a.binding, a.nillable, a.length] for a in table.attributes],
        "fid_prefix": prefix,
        "fids": numbers,
        "columns": columns,
        "sources": _source_dicts(table.sources),
    }
    blobs: list[bytes] = []
    if table.geometry is not None:
        geoms = [f.values[names.index(table.geometry)] for f in table.features]
        if any(g is not None for g in geoms):
            header["geometries"], blobs = _encode_geometries(geoms)
    return _pack(TABLE_MAGIC, header, blobs)


def _fid_numbers(table: StockTable) -> tuple[str, list[int]]:
    prefix = table.published
    numbers = []
    for f in table.features:
        head, _, tail = f.fid.rpartition(".")
        if head != prefix or not tail.isdigit():
            raise ValueError(f"fid {f.fid!r} is not {prefix}.<number>")
        numbers.append(int(tail))
    return prefix, numbers


def _encode_geometries(geoms: list[Any]) -> tuple[dict[str, Any], list[bytes]]:
    import numpy
    import shapely

    missing = [i for i, g in enumerate(geoms) if g is None]
    present = numpy.array([g for g in geoms if g is not None], dtype=object)
    kind, coords, offsets = shapely.to_ragged_array(present, include_z=False)
    blobs = [numpy.ascontiguousarray(coords, dtype="<f8").tobytes()]
    blobs += [numpy.ascontiguousarray(o, dtype="<i4").tobytes() for o in offsets]
    info = {"type": int(kind), "missing": missing, "parts": len(offsets)}
    return info, blobs


def decode_table(data: bytes) -> StockTable:
    header, blobs = _unpack(TABLE_MAGIC, data)
    attributes = tuple(StockAttribute(n, b, nil, ln) for n, b, nil, ln in header["attributes"])
    names = tuple(a.name for a in attributes)
    count = len(header["fids"])
    geometry = header["geometry"]
    geoms = _decode_geometries(header.get("geometries"), blobs, count)
    columns = [geoms if name == geometry else header["columns"][name] for name in names]
    prefix = header["fid_prefix"]
    features = tuple(
        StockFeature(f"{prefix}.{number}", names, tuple(col[i] for col in columns))
        for i, number in enumerate(header["fids"])
    )
    return StockTable(
        workspace=header["workspace"],
        name=header["name"],
        published=header["published"],
        srs=header["srs"],
        geometry=geometry,
        attributes=attributes,
        features=features,
        sources=_sources(header["sources"]),
    )


def _decode_geometries(info: dict[str, Any] | None, blobs: list[bytes], count: int) -> list[Any]:
    if info is None:
        return [None] * count
    import numpy
    import shapely

    coords = numpy.frombuffer(blobs[0], dtype="<f8").reshape(-1, 2)
    offsets = tuple(
        numpy.frombuffer(b, dtype="<i4").astype(numpy.int64) for b in blobs[1 : 1 + info["parts"]]
    )
    present = shapely.from_ragged_array(shapely.GeometryType(info["type"]), coords, offsets)
    missing = set(info["missing"])
    feed = iter(present.tolist())
    return [None if i in missing else next(feed) for i in range(count)]


# --- grids --------------------------------------------------------------------------------


def encode_grid(grid: StockGrid, with_pixels: bool) -> bytes:
    """The file for ``grid``; without pixels for a grid no source fills."""
    header = {
        "format": FORMAT,
        "workspace": grid.workspace,
        "name": grid.name,
        "width": grid.width,
        "height": grid.height,
        "envelope": list(grid.envelope),
        "srs": grid.srs,
        "bands": [[b.name, b.data_type, b.nodata] for b in grid.bands],
        "dtype": grid.dtype,
        "sources": _source_dicts(grid.sources),
    }
    return _pack(GRID_MAGIC, header, [grid.data] if with_pixels else [])


def decode_grid(data: bytes) -> StockGrid:
    header, blobs = _unpack(GRID_MAGIC, data)
    bands = tuple(StockBand(n, t, nd) for n, t, nd in header["bands"])
    width, height, dtype = int(header["width"]), int(header["height"]), str(header["dtype"])
    pixels = blobs[0] if blobs else _no_data(bands, width, height, dtype)
    size = len(bands) * width * height * _itemsize(dtype)
    if len(pixels) != size:
        raise Corrupt(f"grid {header['name']}: {len(pixels)} bytes of pixels, {size} expected")
    return StockGrid(
        workspace=header["workspace"],
        name=header["name"],
        width=width,
        height=height,
        envelope=tuple(header["envelope"]),
        srs=header["srs"],
        bands=bands,
        dtype=dtype,
        data=pixels,
        sources=_sources(header["sources"]),
    )


def _itemsize(dtype: str) -> int:
    import numpy

    return int(numpy.dtype(dtype).itemsize)


def _no_data(bands: tuple[StockBand, ...], width: int, height: int, dtype: str) -> bytes:
    import numpy

    planes = [
        numpy.full((height, width), b.nodata if b.nodata is not None else 0, dtype=dtype)
        for b in bands
    ]
    return numpy.stack(planes).tobytes()
