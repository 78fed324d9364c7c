"""Every example block of docs/fixtures.md and docs/recording.md is a file of tests/examples/.

After editing an example, refresh the page with ``python tests/plugin/test_docs.py``.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PAGES = [REPO / "docs" / name for name in ("fixtures.md", "recording.md", "databases.md")]
BLOCK = re.compile(r"<!-- example: (?P<path>\S+) -->\n```python\n(?P<code>.*?)```\n", re.DOTALL)


def blocks(page: Path) -> list[tuple[str, str]]:
    return [(m["path"], m["code"]) for m in BLOCK.finditer(page.read_text(encoding="utf-8"))]


def test_doc_examples_match_their_test_files():
    for page in PAGES:
        for path, code in blocks(page):
            assert (REPO / path).read_text(encoding="utf-8") == code, (
                f"{page.name}: the block of {path} is stale; run python tests/plugin/test_docs.py"
            )


def test_every_example_is_shown():
    shown = {path for page in PAGES for path, _ in blocks(page)}
    files = {str(p.relative_to(REPO)) for p in (REPO / "tests" / "examples").glob("test_*.py")}
    assert files == shown


def sync() -> None:
    for page in PAGES:
        text = page.read_text(encoding="utf-8")

        def fresh(m: re.Match[str]) -> str:
            code = (REPO / m["path"]).read_text(encoding="utf-8")
            return f"<!-- example: {m['path']} -->\n```python\n{code}```\n"

        page.write_text(BLOCK.sub(fresh, text), encoding="utf-8")


if __name__ == "__main__":
    sync()
    sys.exit(0)
