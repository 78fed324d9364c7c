"""docs/coverage.md lists, for routes that refuse some of their methods themselves, only the
methods they answer: every other method answers 405."""

from __future__ import annotations

import pytest

ALL = ("GET", "POST", "PUT", "DELETE", "PATCH")


@pytest.mark.parametrize(
    ("path", "answered"),
    [
        ("/gwc/rest/seed", {"POST"}),
        ("/gwc/rest/seed.json", {"GET"}),
        ("/gwc/rest/seed/topp:states", {"POST"}),
        ("/gwc/rest/seed/topp:states.json", {"GET", "POST"}),
        ("/gwc/rest/layers", {"GET"}),
        ("/gwc/rest/layers.json", {"GET"}),
        ("/gwc/rest/layers/topp:states", {"GET", "POST", "PUT", "DELETE"}),
        ("/rest/security/self/password", {"PUT"}),
        ("/rest/security/self/password.json", {"PUT"}),
    ],
)
def test_only_the_listed_methods_are_answered(client, path, answered):
    # PATCH under /rest is refused by the stock REST rules (403) before any route
    for method in ALL if path.startswith("/gwc") else ALL[:-1]:
        status = client.request(method, path, content=b"x").status_code
        assert (status == 405) == (method not in answered), (method, path, status)


def test_the_coverage_page_lists_them():
    from geoserver_emulator_pytest.coverage import markdown

    page = markdown()
    assert "| `/gwc/rest/seed.json` | GET |" in page
    assert "| `/rest/security/self/password` | PUT |" in page
    assert "| `/gwc/rest/seed` | POST (GET too under the `geoserver` profile) |" in page
