"""Every CLI synopsis in the docs is the one the parser gives (``cli.synopsis``): a flag added
to a command fails this test until the docs show it, and the failure prints the block to paste.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from geoserver_emulator.cli import synopsis

ROOT = Path(__file__).resolve().parents[2]
PAGES = sorted((ROOT / "docs").glob("*.md")) + [ROOT / "README.md"]
COMMANDS = ("serve", "record", "replay", "import")
HOME = {"serve": "control-plane.md", "record": "recording.md", "replay": "recording.md",
        "import": "recording.md"}  # fmt: skip


def _blocks(command: str) -> list[tuple[Path, str]]:
    """(page, block) for each indented synopsis of ``command``: its first line and the
    continuation lines indented under it."""
    start = re.compile(rf"^    geoserver-emulator {command}(?: .*)?$")
    found = []
    for page in PAGES:
        lines = page.read_text(encoding="utf-8").splitlines()
        for i, line in enumerate(lines):
            if not start.match(line) or (i and lines[i - 1].strip()):
                continue  # a synopsis stands alone, after a blank line
            block = [line]
            for more in lines[i + 1 :]:
                if not more.startswith(" " * 10) or more.lstrip().startswith("geoserver-emulator"):
                    break
                block.append(more)
            found.append((page, "\n".join(b[4:] for b in block)))
    return found


@pytest.mark.parametrize("command", COMMANDS)
def test_every_synopsis_in_the_docs_is_the_parsers(command: str) -> None:
    expected = synopsis(command)
    blocks = _blocks(command)
    assert any(page.name == HOME[command] for page, _ in blocks), (
        f"docs/{HOME[command]} shows no synopsis of `{command}`; add, indented by four:\n"
        + expected
    )
    for page, block in blocks:
        assert block == expected, (
            f"{page.relative_to(ROOT)}: the `{command}` synopsis is stale; replace it with"
            f" (indented by four):\n{expected}"
        )


@pytest.mark.parametrize("command", COMMANDS)
def test_the_synopsis_names_every_flag_of_help(command: str) -> None:
    import argparse

    from geoserver_emulator.cli import _parser

    sub = next(a for a in _parser()._actions if isinstance(a, argparse._SubParsersAction))
    text = synopsis(command)
    for action in sub.choices[command]._actions:
        if action.option_strings and action.dest != "help":
            shown = [
                f for f in action.option_strings if re.search(rf"(?<![\w-]){f}(?![\w-])", text)
            ]
            assert shown, f"{action.option_strings} not in the synopsis:\n{text}"


def test_the_serve_flags_table_has_a_row_per_flag() -> None:
    import argparse

    from geoserver_emulator.cli import _parser

    sub = next(a for a in _parser()._actions if isinstance(a, argparse._SubParsersAction))
    page = (ROOT / "docs" / "control-plane.md").read_text(encoding="utf-8")
    first_cells = " ".join(
        line.split("|")[1] for line in page.splitlines() if line.startswith("| `--")
    )
    missing = [
        flag
        for action in sub.choices["serve"]._actions
        if action.dest != "help"
        for flag in action.option_strings
        if f"`{flag}`" not in first_cells
    ]
    assert not missing, f"docs/control-plane.md's flag table has no row for {missing}"


def test_the_control_plane_401_body_shown_is_the_real_one() -> None:
    import httpx

    from geoserver_emulator import Emulator

    emu = Emulator("stock")
    transport = httpx.WSGITransport(app=emu.wsgi_app)
    with httpx.Client(transport=transport, base_url="http://x/geoserver") as c:
        answer = c.post("/__emulator/reset")
    page = (ROOT / "docs" / "control-plane.md").read_text(encoding="utf-8")
    shown = page.split("$ curl -s $B/__emulator/reset -XPOST -w '%{http_code}\\n'\n", 1)[1]
    assert shown.splitlines()[0] == f"{answer.text}{answer.status_code}"
