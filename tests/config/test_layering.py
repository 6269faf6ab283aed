"""config/ reads where hooks come from; it never imports host/ (DESIGN: protocol <- config
<- host), so the timeout units, JSONC and trust stay usable without the runtime."""

from __future__ import annotations

import ast
from pathlib import Path

CONFIG = Path(__file__).resolve().parents[2] / "src" / "hookwise" / "config"


def _imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


def test_config_never_imports_host() -> None:
    offenders = {
        path.name: sorted(m for m in _imports(path) if m.startswith("hookwise.host"))
        for path in sorted(CONFIG.glob("*.py"))
    }
    assert {name: mods for name, mods in offenders.items() if mods} == {}
