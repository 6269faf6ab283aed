"""Codex's config layers for one MCP server's ``disabled_tools`` (red team s27 F4, F13): each
case is the files beside the user's ``config.toml`` (which switches ``write_file`` of ``fs``
off, as ``install --native`` writes it), the directory Codex runs in and its ``--profile``.
tests/e2e/test_codex_mcp_layers_live.py asks the real Codex (``codex mcp get fs --json``) and
records the list it uses in fixtures/codex-mcp-layers.json; tests/policy/install/
test_codex_mcp_layers.py holds hookwise's reading of the layers to that record."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

SERVER = '[mcp_servers.fs]\ncommand = "npx"\nargs = ["srv"]\n'
USER = SERVER + 'disabled_tools = ["write_file"]\n'


def trusting(project: Path, level: str = "trusted") -> str:
    return f'\n[projects."{project}"]\ntrust_level = "{level}"\n'


EMPTY = "[mcp_servers.fs]\ndisabled_tools = []\n"
KEEPS = '[mcp_servers.fs]\ndisabled_tools = ["write_file", "other"]\n'
OTHER_FIELD = '[mcp_servers.fs]\ncommand = "python3"\n'

# case -> {"files": {relative to the root: text, "{proj}" filled in}, "cwd", "profile",
# "trust": the project's trust_level or None}
CASES: dict[str, dict[str, Any]] = {
    "user-only": {"files": {}, "cwd": "proj", "profile": None, "trust": "trusted"},
    "project-empty": {"files": {"proj/.codex/config.toml": EMPTY}, "cwd": "proj",
                      "profile": None, "trust": "trusted"},
    "project-empty-untrusted": {"files": {"proj/.codex/config.toml": EMPTY}, "cwd": "proj",
                                "profile": None, "trust": "untrusted"},
    "project-other-field": {"files": {"proj/.codex/config.toml": OTHER_FIELD}, "cwd": "proj",
                            "profile": None, "trust": "trusted"},
    "project-subdir-wins": {"files": {"proj/.codex/config.toml": EMPTY,
                                      "proj/sub/.codex/config.toml": KEEPS},
                            "cwd": "proj/sub", "profile": None, "trust": "trusted"},
    "project-subdir-empties": {"files": {"proj/.codex/config.toml": KEEPS,
                                         "proj/sub/.codex/config.toml": EMPTY},
                               "cwd": "proj/sub", "profile": None, "trust": "trusted"},
    "profile-empty": {"files": {"home/.codex/work.config.toml": EMPTY}, "cwd": "proj",
                      "profile": "work", "trust": None},
    "profile-empty-not-chosen": {"files": {"home/.codex/work.config.toml": EMPTY},
                                 "cwd": "proj", "profile": None, "trust": None},
    "profile-other-field": {"files": {"home/.codex/work.config.toml": OTHER_FIELD},
                            "cwd": "proj", "profile": "work", "trust": None},
    "profile-keeps": {"files": {"home/.codex/work.config.toml": KEEPS}, "cwd": "proj",
                      "profile": "work", "trust": None},
    "project-over-profile": {"files": {"home/.codex/work.config.toml": KEEPS,
                                       "proj/.codex/config.toml": EMPTY},
                             "cwd": "proj", "profile": "work", "trust": "trusted"},
}  # fmt: skip


def lay_out(root: Path, case: str) -> tuple[Path, Path]:
    """The case's files under ``root``: (CODEX_HOME, the directory Codex runs in)."""
    spec = CASES[case]
    codex_home, proj = root / "home" / ".codex", root / "proj"
    codex_home.mkdir(parents=True)
    proj.mkdir(parents=True)
    # a repository as Codex finds its root (an empty .git directory is none to it)
    subprocess.run(["git", "init", "-q", str(proj)], check=True, capture_output=True)
    trust = trusting(proj, spec["trust"]) if spec["trust"] else ""
    (codex_home / "config.toml").write_text(USER + trust, encoding="utf-8")
    for relative, text in spec["files"].items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    cwd = root / spec["cwd"]
    cwd.mkdir(parents=True, exist_ok=True)
    return codex_home, cwd
