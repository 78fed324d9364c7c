"""Every deliberate 500 (a ``ServerError`` raised in the code) is listed in docs/fidelity.md's
"Deliberate 500s" section: the literal start of its message appears there."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CONSTANTS = {
    "CANNOT_SAVE": "Cannot save security configuration",
    "_taken": "Style named '",
}


def _section() -> str:
    text = (ROOT / "docs" / "fidelity.md").read_text(encoding="utf-8")
    start = text.index("## Deliberate 500s")
    end = text.index("\n## ", start + 1)
    return text[start:end]


def _literal_start(node: ast.expr) -> str:
    """The message's text before its first interpolated name."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        out = ""
        for part in node.values:
            if not (isinstance(part, ast.Constant) and isinstance(part.value, str)):
                break
            out += part.value
        return out
    if isinstance(node, ast.Name):
        return CONSTANTS[node.id]
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        return CONSTANTS[node.func.id]
    raise AssertionError(f"unreadable ServerError message: {ast.unparse(node)}")


def _server_errors() -> list[tuple[str, int, str]]:
    found = []
    for path in sorted((ROOT / "emulator").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "ServerError"
                and node.args
            ):
                found.append(
                    (str(path.relative_to(ROOT)), node.lineno, _literal_start(node.args[0]))
                )
    return found


def test_every_deliberate_500_is_listed() -> None:
    section = _section()
    errors = _server_errors()
    assert len(errors) > 50  # the scan finds them
    missing = [
        (where, line, start)
        for where, line, start in errors
        if start.strip() and start.strip().rstrip(":'") not in section
    ]
    assert missing == [], "add these to docs/fidelity.md 'Deliberate 500s'"
