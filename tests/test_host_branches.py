"""Nothing outside the host adapters branches on a host's name (DESIGN.md: "hosts are data").

A host's facts live in its registry row (protocol/hosts.py) and its protocol tables; code
elsewhere reads them. This walks every module of src/hookwise outside ``protocol/`` and
``policy/adapters/`` and finds each comparison with a host's name (``host == "gemini"``,
``x in ("claude", "codex")``, ``match``/``case "codex"``). The places that still do are
listed below, each with why it is per host by design (none is left); a new one fails this
test, and so does a listed one that is gone (the list only shrinks). A dict literal keyed by host names
(``{"claude": ..., "codex": ...}``) is the same branch written as a lookup, and is found too.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from pathlib import Path

from hookwise.protocol.hosts import HOST_NAMES

SRC = Path(__file__).resolve().parents[1] / "src" / "hookwise"
ADAPTERS = ("protocol/", "policy/adapters/")

# module -> (branches on a host's name, why it is per host by design). None is left: the
# last one (the Claude Agent SDK bridge) asks whether the hooks come from the host whose CLI
# it drives, its gate's own host.
ALLOWED: dict[str, tuple[int, str]] = {}

# module -> (dict literals keyed by a host's name, why it is per host by design). A lookup
# keyed by host names is the same branch as a comparison: the fact belongs in the host's row
# or table. None is left.
ALLOWED_KEYS: dict[str, tuple[int, str]] = {}


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


def keyed(source: str, names: frozenset[str] = frozenset(HOST_NAMES)) -> list[int]:
    """Line numbers of the dict literals in ``source`` with a host's name as a key
    (``{"claude": ...}``, ``dict(codex=...)``)."""
    found: list[int] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Dict):
            if any(key is not None and _host_names(key, names) for key in node.keys):
                found.append(node.lineno)
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "dict"
            and any(k.arg in names for k in node.keywords)
        ):
            found.append(node.lineno)
    return found


def _scan(finder: Callable[[str], list[int]] = branches) -> dict[str, list[int]]:
    out: dict[str, list[int]] = {}
    for path in sorted(SRC.rglob("*.py")):
        relative = path.relative_to(SRC).as_posix()
        if relative.startswith(ADAPTERS):
            continue
        lines = finder(path.read_text(encoding="utf-8"))
        if lines:
            out[relative] = lines
    return out


def _judge(found: dict[str, list[int]], allowed: dict[str, tuple[int, str]], what: str) -> None:
    new = {
        module: lines
        for module, lines in found.items()
        if len(lines) > allowed.get(module, (0, ""))[0]
    }
    assert not new, (
        f"these modules {what}: read the fact from the host's registry row or protocol table "
        f"instead (protocol/hosts.py): {new}"
    )
    gone = {
        module: (count, len(found.get(module, [])))
        for module, (count, _why) in allowed.items()
        if len(found.get(module, [])) < count
    }
    assert not gone, f"fewer than allowed: lower the allowance here {gone}"


def test_nothing_outside_the_adapters_branches_on_a_host_s_name() -> None:
    _judge(_scan(branches), ALLOWED, "compare with a host's name")


def test_nothing_outside_the_adapters_looks_a_fact_up_by_a_host_s_name() -> None:
    _judge(_scan(keyed), ALLOWED_KEYS, "key a dict by a host's name")


def test_each_settings_loader_a_row_names_is_read_by_doctor_and_hooks_trust() -> None:
    """The rows' ``settings_loader`` is what picks a host's own reading: a loader no reader
    knows would silently fall back to reading plain files."""
    import importlib

    from hookwise.cli.hooks_cmd import _TRUSTERS
    from hookwise.policy.install.doctor import _OWN_LOADERS
    from hookwise.protocol.hosts import host

    named = {host(name).settings_loader for name in HOST_NAMES} - {""}
    assert named == set(_OWN_LOADERS) == set(_TRUSTERS)
    for package in named:
        importlib.import_module(package)


def test_the_check_finds_each_form() -> None:
    source = (
        'if host == "gemini":\n    pass\n'
        'ok = name in ("claude", "codex")\n'
        'x = "copilot" != platform\n'
        'match host:\n    case "kilo":\n        pass\n'
        'fine = host == "shell" or kind in ("tool",)\n'
        'table = {"gemini": 1, "shell": 2}\n'
        "other = dict(codex=1)\n"
        'plain = {"tool": 1, **table}\n'
    )
    assert branches(source) == [1, 3, 4, 6]
    assert keyed(source) == [9, 10]
