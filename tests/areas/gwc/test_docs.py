"""The tile-layer examples of docs/seeding.md and docs/gwc.md hold against the stock scenario."""

from __future__ import annotations

from pathlib import Path

DOCS = Path(__file__).resolve().parents[3] / "docs"


def _blocks(page: str) -> list[str]:
    out: list[str] = []
    current: list[str] | None = None
    for line in (DOCS / page).read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            if current is None:
                current = []
            else:
                out.append("\n".join(current) + "\n")
                current = None
        elif current is not None:
            current.append(line)
    return out


def _example(page: str, request: str) -> tuple[str, str]:
    """The block that starts with ``request``: (the request line, the rest)."""
    for block in _blocks(page):
        if block.startswith(request + "\n"):
            return request, block[len(request) + 1 :]
    raise AssertionError(f"no example {request!r} in {page}")


def test_seeding_doc_tile_layer_examples_hold(client):
    for fmt in ("json", "xml"):
        _, want = _example("seeding.md", f"GET /gwc/rest/layers/topp:states.{fmt}")
        r = client.get(f"/gwc/rest/layers/topp:states.{fmt}")
        assert r.status_code == 200 and r.text == want.strip()
        assert "<id>LayerInfoImpl-" in r.text or '"id":"LayerInfoImpl-' in r.text


def test_gwc_doc_put_example_holds(client):
    _, rest = _example("gwc.md", "PUT /gwc/rest/layers/topp:states.xml")
    body, _, answer = rest.partition("\n\n")
    r = client.put(
        "/gwc/rest/layers/topp:states.xml", content=body, headers={"content-type": "text/xml"}
    )
    assert f"{r.status_code} {r.text}" == answer.strip()


def test_gwc_doc_masstruncate_listing_holds(client):
    text = (DOCS / "gwc.md").read_text(encoding="utf-8")
    listing = client.get("/gwc/rest/masstruncate").text
    assert listing in text
