"""Which MCP entries the real hosts run where they are started (red team s28 F5, F7, F8):
``codex mcp get fs --json`` and ``claude mcp list`` for each layout of
tests/e2e/start_dirs.py. ``HOOKWISE_E2E_RECORD=1`` writes the "live" part of
fixtures/start-dirs.json; tests/policy/install/test_start_dirs_s28.py holds install, doctor
and scan to that record without the CLIs."""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.e2e import clis
from tests.e2e.start_dirs import claude_above, claude_subdir, codex_args_only, codex_subdir
from tests.e2e.test_policy_install import (
    DENY_POLICY,
    hookwise,
    require,
    run_cli,
    session,
    user_env,
)

FIXTURE = Path(__file__).parent / "fixtures" / "start-dirs.json"
RECORD_SESSIONS = json.loads(FIXTURE.read_text(encoding="utf-8"))["sessions"]


def _env(root: Path, **more: str) -> dict[str, str]:
    return {"HOME": str(root / "home"), "PATH": os.environ.get("PATH", clis.search_path()),
            "TMPDIR": str(root), **more}  # fmt: skip


def _codex(root: Path, layout: Any) -> dict[str, Any]:
    codex_home, cwd = layout(root)
    done = subprocess.run([str(clis.binary("codex")), "mcp", "get", "fs", "--json"],
                          env=_env(root, CODEX_HOME=str(codex_home)), cwd=cwd,
                          capture_output=True, text=True, timeout=60, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr
    transport = json.loads(done.stdout)["transport"]
    return {"command": transport["command"], "args": transport["args"]}


def _claude(root: Path, layout: Any) -> dict[str, str]:
    _home, cwd = layout(root)
    done = subprocess.run([str(clis.binary("claude")), "mcp", "list"], env=_env(root),
                          cwd=cwd, capture_output=True, text=True, timeout=90, check=False)  # fmt: skip
    listed = re.findall(r"^(\S+): (.+?) - ", done.stdout, re.MULTILINE)
    return dict(listed)


@pytest.mark.e2e
def test_what_the_hosts_run_where_they_are_started(tmp_path: Path) -> None:
    require("codex")
    require("claude")
    found = {
        "codex-args-only": _codex(tmp_path / "a", codex_args_only),
        "codex-subdir": _codex(tmp_path / "b", codex_subdir),
        "claude-subdir": _claude(tmp_path / "c", claude_subdir),
        "claude-above": _claude(tmp_path / "d", claude_above),
    }
    record = json.loads(FIXTURE.read_text(encoding="utf-8"))
    if os.environ.get("HOOKWISE_E2E_RECORD"):
        record["live"] = {"codex": clis.installed_version("codex"),
                          "claude": clis.installed_version("claude"),
                          "commands": ["codex mcp get fs --json", "claude mcp list"],
                          "cases": found}  # fmt: skip
        FIXTURE.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    assert found == record["live"]["cases"]


@pytest.mark.e2e
@pytest.mark.parametrize("cli", ["claude", "gemini"])
def test_a_project_install_guards_no_session_started_in_a_subdirectory(
    cli: str, tmp_path: Path
) -> None:
    """F6: ``hookwise install CLI`` (project scope) in the root; the CLI started in
    ``pkg`` runs the model's command unguarded (as recorded in fixtures/start-dirs.json,
    "sessions"), install said so, and doctor run in ``pkg`` says ``not registered here``."""
    layout, policy = session(cli, tmp_path)
    policy.write_text(DENY_POLICY, encoding="utf-8")
    env = user_env(cli, layout)
    pkg = layout.proj / "pkg"
    pkg.mkdir()
    if cli == "claude":  # Bash allowed in every directory (the root's allow is not read in pkg)
        (layout.home / ".claude").mkdir(exist_ok=True)
        (layout.home / ".claude" / "settings.json").write_text(
            '{"permissions": {"allow": ["Bash"]}}'
        )
        record = json.loads((layout.home / ".claude.json").read_text(encoding="utf-8"))
        record["projects"][str(pkg)] = {"hasTrustDialogAccepted": True}
        (layout.home / ".claude.json").write_text(json.dumps(record), encoding="utf-8")
    assert (
        hookwise(["policy", "trust", "--cwd", str(layout.proj)], env, layout.proj).returncode == 0
    )
    done = hookwise(["install", cli, "--project", str(layout.proj)], env, layout.proj)
    assert done.returncode == 0, done.stderr
    assert "subdirectories" in done.stderr and "--scope user" in done.stderr, done.stderr
    (tmp_path / "cwd.txt").write_text(str(pkg), encoding="utf-8")
    result = run_cli(cli, tmp_path)
    assert not result["timed_out"]
    ran = (pkg / "marker").exists()
    assert ran == (not RECORD_SESSIONS["project_hook_runs_when_started_in"]["proj/pkg"])
    doctor = hookwise(["doctor", "--host", cli, "--no-self-test"], env, pkg)
    assert "not registered here" in doctor.stdout, doctor.stdout
