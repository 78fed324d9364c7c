"""The documentation site builds from docs/ with ``mkdocs build --strict``, and every link is
checked: a dead page, a dead anchor or an absolute link fails the build (``validation`` in
mkdocs.yml); README.md's links into docs/ are checked against the built pages too."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _build(config: Path, site: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(config), "-d", str(site)],
        cwd=config.parent, capture_output=True, text=True, timeout=300,
    )  # fmt: skip


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site")
    result = _build(ROOT / "mkdocs.yml", out)
    assert result.returncode == 0, result.stdout + result.stderr
    return out


def test_site_builds_strictly(site: Path) -> None:
    built = {p.parent.name for p in site.glob("*/index.html")}
    pages = {p.stem for p in (ROOT / "docs").glob("*.md")} - {"index"}
    assert pages <= built  # every page of docs/ is on the site


def test_a_dead_anchor_fails_the_build(tmp_path: Path) -> None:
    """The configuration itself: a link to a heading that is not there is an error."""
    shutil.copy(ROOT / "mkdocs.yml", tmp_path / "mkdocs.yml")
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "index.md").write_text("# Home\n\nSee [it](other.md#no-such-heading).\n")
    (docs / "other.md").write_text("# Other\n\n## A heading\n")
    result = _build(tmp_path / "mkdocs.yml", tmp_path / "site")
    assert result.returncode != 0
    assert "does not contain an anchor '#no-such-heading'" in result.stderr
    (docs / "index.md").write_text("# Home\n\nSee [it](other.md#a-heading).\n")
    assert _build(tmp_path / "mkdocs.yml", tmp_path / "site").returncode == 0


def test_readme_links_into_the_docs_resolve(site: Path) -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    links = re.findall(r"\]\((docs/[^)#\s]+\.md)(?:#([^)\s]+))?\)", text)
    assert links
    for page, anchor in links:
        assert (ROOT / page).is_file(), f"README.md links to {page}, which does not exist"
        if anchor:
            html = (site / Path(page).stem / "index.html").read_text(encoding="utf-8")
            assert f'id="{anchor}"' in html, f"README.md: {page} has no anchor #{anchor}"
