"""Fixtures shared by the framework-bridge tests (``tests/integrations/test_<framework>.py``).

- ``hookwise_env``: a private HOME / XDG directories / audit log for the test (set in
  ``os.environ`` before any Gate is built: a Gate reads the environment once);
- ``project``: a git project with ``.hookwise/policy.yaml`` (trusted by the test's user)
  holding the rules below, and a Claude Code hook script in ``.claude/settings.json``
  that a team "already had" (it blocks with exit 2 + stderr), the workspace trusted as
  Claude Code records it (``~/.claude.json``);
- ``fake_model``: the e2e fake model server (tests/e2e/fake_model.py) on 127.0.0.1,
  playing the script a test sets (``fake_model.script = Script([call(...)])``);
- ``model_env``: the variables that point each SDK at the fake model (set in os.environ);
- ``shell_tool``: a real shell tool function, recording every call it gets.

The commands (constants below) each meet one rule, and the texts carry tokens
(``POLICY-DENY``...) a test can look for in what reached the model.
"""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.e2e import clis
from tests.e2e.fake_model import FakeModel, Script

DENY_TOKEN = "POLICY-DENY"
ASK_TOKEN = "POLICY-ASK"
CONTEXT_TOKEN = "POLICY-CONTEXT"
HOOK_TOKEN = "HOOK-BLOCK"

DENIED_COMMAND = "rm -rf build"  # no-recursive-delete: deny
ALLOWED_COMMAND = "echo hello-from-tool"  # echo-is-fine: allow (the tool runs)
ALLOWED_OUTPUT = "hello-from-tool"
REWRITE_COMMAND = "touch marker-original"  # touch-rewrite: rewrite to REWRITTEN_COMMAND
REWRITTEN_COMMAND = "touch marker-rewritten"
ASK_COMMAND = "uname -s"  # uname-needs-approval: ask
CONTEXT_COMMAND = "pwd"  # pwd-context: context for the model
HOOK_BLOCKED_COMMAND = "echo forbidden-by-hook"  # allowed by the policy, blocked by the hook
SECRET_FILE = ".env"  # secrets: deny write/edit/read

DENY_REASON = f"{DENY_TOKEN}: recursive deletes are not allowed here; delete single files"
ASK_REASON = f"{ASK_TOKEN}: uname needs a person's approval"
CONTEXT_TEXT = f"{CONTEXT_TOKEN}: this is the project root"
HOOK_REASON = f"{HOOK_TOKEN}: the team's hook forbids this command"

POLICY = f"""\
version: 1
rules:
  - id: no-recursive-delete
    match: {{tool: shell, command: rm -r}}
    action: deny
    reason: "{DENY_REASON}"
  - id: echo-is-fine
    match: {{tool: shell, command: echo}}
    action: allow
  - id: touch-rewrite
    match: {{tool: shell, command: touch}}
    action: rewrite
    rewrite: {{replace: [{{arg: command, find: marker-original, with: marker-rewritten}}]}}
  - id: uname-needs-approval
    match: {{tool: shell, command: uname}}
    action: ask
    reason: "{ASK_REASON}"
  - id: pwd-context
    match: {{tool: shell, command: pwd}}
    action: context
    context: "{CONTEXT_TEXT}"
  - id: secrets
    match: {{tool: [write, edit, read], files: "**/{SECRET_FILE}"}}
    action: deny
    reason: "{DENY_TOKEN}: {SECRET_FILE} files hold secrets"
"""


PROMPT_TOKEN = "PROMPT-DENY"
RETRY_TOKEN = "RUN-THE-TESTS"
STOP_TOKEN = "STOP-NOW"


def lifecycle_rules(final_response: str) -> str:
    """Rules on prompts, the agent's last answer and a stop, appended to POLICY by the
    bridges that have those points (``final_response``: what the fake agent ends with)."""
    return f"""\
  - id: no-secrets-in-prompts
    match: {{prompt: "api[-_ ]?key"}}
    action: deny
    reason: "{PROMPT_TOKEN}: do not paste keys"
  - id: tests-before-done
    match: {{response: "{final_response}"}}
    action: retry
    reason: "{RETRY_TOKEN}: run the tests before you finish"
    max_retries: 1
  - id: halt-on-shutdown
    match: {{tool: shell, command: shutdown}}
    action: stop
    reason: "{STOP_TOKEN}: shutdown ends this session"
"""


# The team's existing Claude Code hook: blocks any Bash command naming "forbidden-by-hook"
# (exit 2, the reason on stderr) and logs every call.
HOOK_SCRIPT = f"""\
#!/bin/sh
input=$(cat)
printf '%s\\n' "$input" >> "$(dirname "$0")/calls.jsonl"
case "$input" in
  *forbidden-by-hook*) echo "{HOOK_REASON}" >&2; exit 2 ;;
esac
exit 0
"""


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "e2e: runs a real agent CLI offline (make e2e-install); the Claude Agent SDK"
    )


@dataclass
class Project:
    """The test's project and its user's directories."""

    root: Path
    home: Path
    audit_log: Path
    env: dict[str, str]

    @property
    def policy(self) -> Path:
        return self.root / ".hookwise" / "policy.yaml"

    @property
    def hook_calls_log(self) -> Path:
        return self.root / ".claude" / "hooks" / "calls.jsonl"

    def hook_calls(self) -> list[dict[str, Any]]:
        """The payloads the team's Claude Code hook received."""
        if not self.hook_calls_log.exists():
            return []
        lines = self.hook_calls_log.read_text(encoding="utf-8").splitlines()
        return [json.loads(line) for line in lines if line.strip()]

    def audit(self) -> list[dict[str, Any]]:
        """The audit log's records, oldest first."""
        if not self.audit_log.exists():
            return []
        lines = self.audit_log.read_text(encoding="utf-8").splitlines()
        return [json.loads(line) for line in lines if line.strip()]

    def asks(self) -> list[dict[str, Any]]:
        """The ``ask`` records of tool calls (a call a person was asked about)."""
        return [
            r
            for r in self.audit()
            if r.get("decision") == "ask" and "tool.before" in r.get("canonical", [])
        ]

    def answers(self) -> list[dict[str, Any]]:
        """The records of how an ``ask`` was answered (``ask_resolved``), oldest first."""
        return [r for r in self.audit() if r.get("ask_resolved")]

    def logs(self, *args: str) -> list[str]:
        """``hookwise logs --path <audit log> ARGS``: its record lines."""
        from click.testing import CliRunner

        from hookwise.cli.app import cli

        result = CliRunner().invoke(cli, ["logs", "--path", str(self.audit_log), *args])
        assert result.exit_code == 0, result.output
        return [line for line in result.output.splitlines() if line.startswith("20")]

    def write_policy(self, text: str, *, trust: bool = True) -> None:
        """Replace the project policy: trusted again, or (``trust`` False) never trusted,
        as a repository's file the user has not read (a trusted file that changed is an
        error: the hook fails closed until it is trusted again)."""
        self.policy.write_text(text, encoding="utf-8")
        if trust:
            self.trust()
        else:
            from hookwise.policy.trust.store import untrust_file

            untrust_file(str(self.policy), dict(os.environ))

    def trust(self) -> None:
        from hookwise.policy.trust.store import trust_file

        trust_file(str(self.policy), dict(os.environ))


_CLEARED = (
    "HOOKWISE_POLICY",
    "HOOKWISE_USER_POLICY",
    "HOOKWISE_MANAGED_POLICY",
    "HOOKWISE_CACHE_DIR",
    "HOOKWISE_ON_ERROR",
    "HOOKWISE_AUDIT",
    "HOOKWISE_HOOK_TRUST",
    "CLAUDE_CONFIG_DIR",
)


@pytest.fixture
def hookwise_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """A private HOME, XDG directories and audit log, in os.environ."""
    home = tmp_path / "home"
    home.mkdir()
    values = {
        "HOME": str(home),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "XDG_CACHE_HOME": str(home / ".cache"),
        "XDG_STATE_HOME": str(home / ".local" / "state"),
        "HOOKWISE_AUDIT_LOG": str(tmp_path / "audit.jsonl"),
    }
    # the real CLIs stay where `make e2e-install` put them (under the real XDG cache)
    monkeypatch.setenv("HOOKWISE_E2E_CLIS", str(clis.install_dir()))
    for name in _CLEARED:
        monkeypatch.delenv(name, raising=False)
    for name, value in values.items():
        monkeypatch.setenv(name, value)
    return values


@pytest.fixture
def project(tmp_path: Path, hookwise_env: dict[str, str]) -> Project:
    """The project (see the module docstring): policy trusted, Claude Code hook trusted."""
    root = tmp_path / "proj"
    (root / ".git").mkdir(parents=True)
    (root / ".hookwise").mkdir()
    hooks = root / ".claude" / "hooks"
    hooks.mkdir(parents=True)
    script = hooks / "block.sh"
    script.write_text(HOOK_SCRIPT, encoding="utf-8")
    script.chmod(0o755)
    settings = {
        "hooks": {
            "PreToolUse": [
                {"matcher": "Bash", "hooks": [{"type": "command", "command": f"sh {script}"}]}
            ]
        }
    }
    (root / ".claude" / "settings.json").write_text(json.dumps(settings), encoding="utf-8")
    home = Path(hookwise_env["HOME"])
    claude = {
        "hasCompletedOnboarding": True,
        "projects": {str(root.resolve()): {"hasTrustDialogAccepted": True}},
    }
    (home / ".claude.json").write_text(json.dumps(claude), encoding="utf-8")
    made = Project(root, home, Path(hookwise_env["HOOKWISE_AUDIT_LOG"]), hookwise_env)
    made.write_policy(POLICY)
    return made


@pytest.fixture
def fake_model() -> Iterator[FakeModel]:
    """The fake model on 127.0.0.1; set ``fake_model.script`` before the agent runs."""
    with FakeModel(Script()) as fake:
        yield fake


@pytest.fixture
def model_env(fake_model: FakeModel, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """Every SDK's base URL and key pointed at the fake model; telemetry off."""
    url = fake_model.url
    values = {
        "OPENAI_BASE_URL": f"{url}/v1",
        "OPENAI_API_KEY": "dummy",
        "ANTHROPIC_BASE_URL": url,
        "ANTHROPIC_API_KEY": "dummy",
        "GOOGLE_GEMINI_BASE_URL": url,
        "GEMINI_API_KEY": "dummy",
        "GOOGLE_API_KEY": "dummy",
        "GOOGLE_GENAI_USE_ENTERPRISE": "false",
        "OPENAI_AGENTS_DISABLE_TRACING": "1",
        "LANGCHAIN_TRACING_V2": "false",
        "LANGSMITH_TRACING": "false",
        "OTEL_SDK_DISABLED": "true",
        "HF_HUB_OFFLINE": "1",
        "NO_PROXY": "127.0.0.1,localhost",
        "no_proxy": "127.0.0.1,localhost",
    }
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy"):
        monkeypatch.delenv(name, raising=False)
    for name, value in values.items():
        monkeypatch.setenv(name, value)
    return values


@dataclass
class ShellTool:
    """A real shell tool: runs the command in the project, records each call."""

    cwd: Path
    calls: list[str] = field(default_factory=list)

    def __call__(self, command: str) -> str:
        self.calls.append(command)
        done = subprocess.run(
            command,
            shell=True,
            cwd=self.cwd,
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )
        return (done.stdout + done.stderr).strip() or f"(exit {done.returncode})"


@pytest.fixture
def shell_tool(project: Project) -> ShellTool:
    return ShellTool(project.root)
