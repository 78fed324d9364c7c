"""Draw the stock maps page: every layer and layer group of the ``stock`` scenario as the
emulator's GetMap draws it with its default style, and ``docs/stock-maps.md`` listing them.

    python docs/tools/stockmaps.py          # write docs/stock-maps.md and docs/stock-maps/*.png
    python docs/tools/stockmaps.py --check  # exit 1 naming what differs from what is drawn now

Each map is a WMS 1.1.1 GetMap in EPSG:4326 over the item's lat/lon bounds, ``WIDTH``
pixels wide (the height follows the bounds' shape), as an 8-bit PNG. The same emulator
draws the same bytes, so ``tests/docs/test_stock_maps.py`` compares the committed images
with a fresh drawing.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "stock-maps.md"
FOLDER = ROOT / "docs" / "stock-maps"
WIDTH = 240
HEIGHT_RANGE = (60, 240)

INTRO = """# Stock maps

What a GetMap of each layer and layer group of the `stock` scenario draws with its default
style (WMS 1.1.1, EPSG:4326, the item's lat/lon bounds, {width} pixels wide). The data
behind them is described in [stock-data.md](stock-data.md); what the renderer draws in
[ows.md](ows.md#what-is-rendered). A layer whose data has no honest source draws nothing.

The images are drawn by `docs/tools/stockmaps.py`, and `tests/docs/test_stock_maps.py`
checks that they are what the emulator draws today; after a change to the renderer, the
styles or the data, run `python docs/tools/stockmaps.py` again.

| Item | Style | Map |
|---|---|---|
"""


Item = tuple[str, str, tuple[float, float, float, float] | None]


def items(emu: object) -> list[Item]:
    """(prefixed name, default style, lat/lon bounds; None for a disabled layer) of every
    layer, then every group (its members' lat/lon bounds together)."""
    catalog = emu.state.catalog  # type: ignore[attr-defined]
    out: list[Item] = []
    boxes = {}
    for (ws, name), layer in sorted(catalog.layers.items()):
        res = catalog.resources[(ws, name)]
        box = res.latlon_bbox
        boxes[f"{ws}:{name}"] = (box.minx, box.miny, box.maxx, box.maxy)
        style = layer.default_style.prefixed if layer.default_style else "generic"
        shown = res.enabled and layer.enabled
        out.append((f"{ws}:{name}", style, boxes[f"{ws}:{name}"] if shown else None))
    for group in sorted(catalog.layer_groups.values(), key=lambda g: g.prefixed):
        names = [f"{m.workspace}:{m.name}" for m in group.publishables]
        members = [boxes[n] for n in names if n in boxes]
        union = (
            min(b[0] for b in members),
            min(b[1] for b in members),
            max(b[2] for b in members),
            max(b[3] for b in members),
        )
        out.append((group.prefixed, "(its members' styles)", union))
    return out


def size(bbox: tuple[float, float, float, float]) -> tuple[int, int]:
    dx, dy = bbox[2] - bbox[0], bbox[3] - bbox[1]
    height = round(WIDTH * dy / dx) if dx > 0 else WIDTH
    return WIDTH, max(HEIGHT_RANGE[0], min(HEIGHT_RANGE[1], height))


def file_name(name: str) -> str:
    return name.replace(":", "-") + ".png"


def draw(client: object, name: str, bbox: tuple[float, float, float, float]) -> bytes:
    width, height = size(bbox)
    params = {
        "service": "WMS",
        "version": "1.1.1",
        "request": "GetMap",
        "layers": name,
        "styles": "",
        "srs": "EPSG:4326",
        "bbox": ",".join(repr(v) for v in bbox),
        "width": width,
        "height": height,
        "format": "image/png8",
    }
    r = client.get("/wms?" + urlencode(params))  # type: ignore[attr-defined]
    if r.status_code != 200 or not r.headers["content-type"].startswith("image/png"):
        raise SystemExit(f"{name}: GetMap answered {r.status_code}: {r.text[:200]}")
    return bytes(r.content)


def page(found: list[Item]) -> str:
    rows = []
    for name, style, bbox in found:
        shown = f"![{name}](stock-maps/{file_name(name)})" if bbox else "disabled (not served)"
        rows.append(f"| `{name}` | `{style}` | {shown} |")
    return INTRO.format(width=WIDTH) + "\n".join(rows) + "\n"


def render() -> dict[Path, bytes]:
    """Every file the page is made of, as the emulator draws it now."""
    import httpx

    from geoserver_emulator import Emulator

    emu = Emulator("stock")
    client = httpx.Client(
        transport=httpx.WSGITransport(app=emu.wsgi_app),
        base_url="http://localhost:8080/geoserver",
        auth=("admin", "geoserver"),
    )
    found = items(emu)
    files = {FOLDER / file_name(name): draw(client, name, bbox) for name, _, bbox in found if bbox}
    files[PAGE] = page(found).encode("utf-8")
    return files


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare, do not write")
    args = parser.parse_args(argv)
    files = render()
    if args.check:
        stale = [p for p, data in files.items() if not p.is_file() or p.read_bytes() != data]
        for p in stale:
            print(f"differs: {p.relative_to(ROOT)}")
        return 1 if stale else 0
    FOLDER.mkdir(exist_ok=True)
    for old in FOLDER.glob("*.png"):
        if old not in files:
            old.unlink()
    for p, data in files.items():
        p.write_bytes(data)
    return 0


if __name__ == "__main__":
    sys.exit(main())
