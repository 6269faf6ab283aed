"""Which ``disabled_tools`` the real Codex 0.169.0 uses for a server when a profile file or a
project's ``.codex/config.toml`` sets the server's list too (red team s27 F4, F13): ``codex
[--profile NAME] mcp get fs --json`` for each case of tests/e2e/codex_mcp_layers.py.
``HOOKWISE_E2E_RECORD=1`` writes fixtures/codex-mcp-layers.json (recorded with Codex
0.169.0, 2026-11-28); tests/policy/install/test_codex_mcp_layers.py checks hookwise's
reading of the layers against that record without the CLI."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from tests.e2e import clis
from tests.e2e.codex_mcp_layers import CASES, lay_out
from tests.e2e.test_policy_install import hookwise, require

FIXTURE = Path(__file__).parent / "fixtures" / "codex-mcp-layers.json"


def codex_disabled_tools(root: Path, case: str) -> list[str] | None:
    codex_home, cwd = lay_out(root, case)
    env = {
        "HOME": str(root / "home"),
        "CODEX_HOME": str(codex_home),
        "PATH": os.environ.get("PATH", clis.search_path()),
        "TMPDIR": str(root),
    }
    profile = CASES[case]["profile"]
    argv = [str(clis.binary("codex")), *(["--profile", profile] if profile else [])]
    done = subprocess.run([*argv, "mcp", "get", "fs", "--json"], env=env, cwd=cwd,
                          capture_output=True, text=True, timeout=60, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr
    listed = json.loads(done.stdout).get("disabled_tools")
    return listed if isinstance(listed, list) else None


@pytest.mark.e2e
def test_codex_s_merged_disabled_tools_match_the_record(tmp_path: Path) -> None:
    require("codex")
    found = {case: codex_disabled_tools(tmp_path / case, case) for case in CASES}
    if os.environ.get("HOOKWISE_E2E_RECORD"):
        record = {"codex": clis.installed_version("codex"), "date": "2026-11-28",
                  "command": "codex [--profile NAME] mcp get fs --json", "cases": found}  # fmt: skip
        FIXTURE.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    recorded = json.loads(FIXTURE.read_text(encoding="utf-8"))["cases"]
    assert found == recorded


@pytest.mark.e2e
def test_under_a_profile_codex_starts_the_proxy_after_install(tmp_path: Path) -> None:
    """F13: install --mcp wraps a profile file's servers, and ``codex --profile work`` then
    lists every server (the profile's own and the one it overrides) as the proxy."""
    require("codex")
    codex_home, proj = tmp_path / "home" / ".codex", tmp_path / "proj"
    codex_home.mkdir(parents=True)
    proj.mkdir()
    (codex_home / "config.toml").write_text('[mcp_servers.fs]\ncommand = "npx"\nargs = ["srv"]\n')
    (codex_home / "work.config.toml").write_text(
        '[mcp_servers.fs]\ncommand = "python3"\nargs = ["other.py"]\n'
        '[mcp_servers.evil]\ncommand = "sh"\nargs = ["x.sh"]\n'
    )
    env = {
        "HOME": str(tmp_path / "home"),
        "CODEX_HOME": str(codex_home),
        "XDG_STATE_HOME": str(tmp_path / "state"),
        "PATH": os.environ.get("PATH", clis.search_path()),
        "TMPDIR": str(tmp_path),
    }
    done = hookwise(["install", "codex", "--mcp", "--scope", "user"], env, proj)
    assert done.returncode == 0, done.stdout + done.stderr
    listed = subprocess.run(
        [str(clis.binary("codex")), "--profile", "work", "mcp", "list", "--json"],
        env=env, cwd=proj, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert listed.returncode == 0, listed.stderr
    servers = {s["name"]: s["transport"]["args"] for s in json.loads(listed.stdout)}
    assert set(servers) == {"fs", "evil"}
    for name, args in servers.items():
        assert args[args.index("wrap") - 1 :][:1] == ["mcp"] and "--" in args, (name, args)
    assert servers["fs"][-2:] == ["python3", "other.py"] and servers["evil"][-2:] == ["sh", "x.sh"]
