"""Replays the request/response examples of ``docs/auth-providers.md``, in order, against a
fresh ``stock`` emulator: statuses, the headers shown and the bodies must match."""

from __future__ import annotations

import json
import re
from pathlib import Path

from lxml import etree

DOC = Path(__file__).parents[3] / "docs" / "auth-providers.md"
BLOCK = re.compile(r"```http\n(.*?)```", re.S)


def _split(block: str) -> tuple[str, dict[str, str], str]:
    head, _, body = block.partition("\n\n")
    first, *lines = head.strip("\n").split("\n")
    headers = dict(line.split(": ", 1) for line in lines)
    return first, headers, body.strip()


def _canonical(body: str, content_type: str) -> object:
    if not body:
        return ""
    if "json" in content_type:
        return json.loads(body)
    if "xml" in content_type:
        parser = etree.XMLParser(remove_blank_text=True)
        return etree.tostring(etree.fromstring(body.encode(), parser))
    return body


def test_doc_examples_replay(client):
    blocks = BLOCK.findall(DOC.read_text(encoding="utf-8"))
    assert len(blocks) >= 20 and len(blocks) % 2 == 0
    for request, response in zip(blocks[::2], blocks[1::2], strict=True):
        line, headers, body = _split(request)
        method, path = line.split(" ", 1)
        r = client.request(
            method, path.removeprefix("/geoserver"), headers=headers, content=body.encode()
        )
        status_line, expected_headers, expected_body = _split(response)
        where = f"{line} -> {status_line}"
        assert r.status_code == int(status_line.split()[1]), f"{where}: {r.status_code} {r.text}"
        for name, value in expected_headers.items():
            assert r.headers.get(name, "").split(";")[0] == value, f"{where}: header {name}"
        content_type = r.headers.get("content-type", "")
        assert _canonical(r.text, content_type) == _canonical(expected_body, content_type), where
