"""Nothing outside the host adapters branches on a host's name (DESIGN.md: "hosts are data").

A host's facts live in its registry row (protocol/hosts.py) and its protocol tables; code
elsewhere reads them. This walks every module of src/hookwise outside ``protocol/`` and
``policy/adapters/`` and finds each comparison with a host's name (``host == "gemini"``,
``x in ("claude", "codex")``, ``match``/``case "codex"``). The places that still do are
listed below, each with why it is not data yet; a new one fails this test, and so does a
listed one that is gone (the list only shrinks).
"""

from __future__ import annotations

import ast
from pathlib import Path

from hookwise.protocol.hosts import HOST_NAMES

SRC = Path(__file__).resolve().parents[1] / "src" / "hookwise"
ADAPTERS = ("protocol/", "policy/adapters/")

# module -> (branches on a host's name, why it is not data yet)
ALLOWED: dict[str, tuple[int, str]] = {
    "policy/install/doctor.py": (
        2,
        "the self-test payload's shape (no tool_use_id for Gemini CLI, no description for "
        "Codex): the event tables' input fields say it, but other hosts whose tables lack "
        "tool_use_id (Copilot CLI, Droid, the reference hosts) are sent one today, so reading "
        "the table changes their payloads",
    ),
    "cli/hooks_cmd.py": (
        4,
        "`hookwise hooks list|trust` call the loaders and trust stores of config/gemini, "
        "config/claude, config/codex, which are per host by design (config/ layout)",
    ),
    "integrations/claude_agent_sdk.py": (
        1,
        "the Claude Agent SDK bridge reads Claude Code's own settings when told to",
    ),
}


def _host_names(node: ast.AST, names: frozenset[str]) -> list[str]:
    values: list[object] = []
    if isinstance(node, ast.Constant):
        values = [node.value]
    elif isinstance(node, ast.Tuple | ast.List | ast.Set):
        values = [e.value for e in node.elts if isinstance(e, ast.Constant)]
    return [v for v in values if isinstance(v, str) and v in names]


def branches(source: str, names: frozenset[str] = frozenset(HOST_NAMES)) -> list[int]:
    """Line numbers of the comparisons with a host's name in ``source``."""
    found: list[int] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            if any(_host_names(side, names) for side in (node.left, *node.comparators)):
                found.append(node.lineno)
        elif isinstance(node, ast.MatchValue) and _host_names(node.value, names):
            found.append(node.lineno)
    return found


def _scan() -> dict[str, list[int]]:
    out: dict[str, list[int]] = {}
    for path in sorted(SRC.rglob("*.py")):
        relative = path.relative_to(SRC).as_posix()
        if relative.startswith(ADAPTERS):
            continue
        lines = branches(path.read_text(encoding="utf-8"))
        if lines:
            out[relative] = lines
    return out


def test_nothing_outside_the_adapters_branches_on_a_host_s_name() -> None:
    found = _scan()
    new = {
        module: lines
        for module, lines in found.items()
        if len(lines) > ALLOWED.get(module, (0, ""))[0]
    }
    assert not new, (
        "these modules compare with a host's name: read the fact from the host's registry row "
        f"or protocol table instead (protocol/hosts.py): {new}"
    )
    gone = {
        module: (allowed, len(found.get(module, [])))
        for module, (allowed, _why) in ALLOWED.items()
        if len(found.get(module, [])) < allowed
    }
    assert not gone, f"fewer branches than allowed: lower ALLOWED here {gone}"


def test_the_check_finds_each_form() -> None:
    source = (
        'if host == "gemini":\n    pass\n'
        'ok = name in ("claude", "codex")\n'
        'x = "copilot" != platform\n'
        'match host:\n    case "kilo":\n        pass\n'
        'fine = host == "shell" or kind in ("tool",)\n'
    )
    assert branches(source) == [1, 3, 4, 6]
