"""Where the pinned real CLIs are installed, and how each one is set up for one offline run.

``make e2e-install`` installs ``tests/e2e/package.json`` + ``package-lock.json`` with
``npm ci --ignore-scripts`` into ``$HOOKWISE_E2E_CLIS`` (default
``${XDG_CACHE_HOME:-~/.cache}/hookwise/e2e-clis``), outside the work tree. Nothing here
downloads anything.

Each CLI gets its own HOME, TMPDIR and project directory in the run directory, a bare
environment, and a configuration that points it at the fake model on 127.0.0.1 and turns
off every background request (updates, telemetry, plugin sync).
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
PACKAGE_JSON = HERE / "package.json"
ANSWER_HOOK = HERE / "answer_hook.py"
PROMPT = "please write the marker"
HOOK_TIMEOUT_SECONDS = 30

PACKAGES = {
    "claude": "@anthropic-ai/claude-code",
    "codex": "@openai/codex",
    "gemini": "@google/gemini-cli",
}
# the matrix names events the Claude Code / Codex way; Gemini CLI's names for the same points
GEMINI_EVENTS = {
    "PreToolUse": "BeforeTool",
    "UserPromptSubmit": "BeforeAgent",
    "Stop": "AfterAgent",
}
TOOL_MATCHERS = {"claude": "Bash", "codex": "Bash", "gemini": "run_shell_command"}
TOOL_EVENTS = ("PreToolUse", "PermissionRequest")


def install_dir() -> Path:
    """The directory ``make e2e-install`` installs into (holds node_modules/)."""
    explicit = os.environ.get("HOOKWISE_E2E_CLIS")
    if explicit:
        return Path(explicit)
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(cache) / "hookwise" / "e2e-clis"


def pinned_versions() -> dict[str, str]:
    deps = json.loads(PACKAGE_JSON.read_text(encoding="utf-8"))["dependencies"]
    return {cli: deps[package] for cli, package in PACKAGES.items()}


def installed_version(cli: str) -> str | None:
    meta = install_dir() / "node_modules" / PACKAGES[cli] / "package.json"
    try:
        return str(json.loads(meta.read_text(encoding="utf-8"))["version"])
    except (OSError, ValueError, KeyError):
        return None


def node_missing() -> str | None:
    """Why the real CLIs cannot run here at all, or None."""
    missing = [tool for tool in ("node", "npm") if shutil.which(tool) is None]
    if missing:
        return f"{' and '.join(missing)} not found on PATH: the real agent CLIs cannot be installed"
    return None


def install_problem(cli: str) -> str | None:
    """Why the pinned ``cli`` is not usable from install_dir(), or None."""
    want = pinned_versions()[cli]
    have = installed_version(cli)
    if have != want:
        found = f"found {have}" if have else "not installed"
        return (
            f"{PACKAGES[cli]}@{want} is {found} under {install_dir()}; run `make e2e-install`"
            " (or set HOOKWISE_E2E_CLIS to where it is installed)"
        )
    if not binary(cli).exists():
        return f"{binary(cli)} is missing; rerun `make e2e-install`"
    return None


def binary(cli: str) -> Path:
    modules = install_dir() / "node_modules"
    if cli == "claude":
        # the native binary of the platform package; claude-code's own bin/claude.exe is only
        # linked to it by the postinstall script, which `npm ci --ignore-scripts` skips
        for candidate in sorted(modules.glob("@anthropic-ai/claude-code-*/claude")):
            return candidate
        return modules / "@anthropic-ai" / "claude-code-unavailable" / "claude"
    return modules / ".bin" / cli


def search_path() -> str:
    """PATH for the CLIs: node's directory first (the codex and gemini launchers are node)."""
    node = shutil.which("node")
    base = "/usr/local/bin:/usr/bin:/bin"
    return f"{Path(node).parent}:{base}" if node else base


def hook_command(answer: dict[str, Any]) -> str:
    import shlex

    spec = json.dumps(answer, separators=(",", ":"), ensure_ascii=False)
    return shlex.join([sys.executable, str(ANSWER_HOOK), spec])


def host_event(cli: str, event: str) -> str:
    return GEMINI_EVENTS[event] if cli == "gemini" else event


class Layout:
    """The directories of one run."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.home, self.proj, self.tmp = root / "home", root / "proj", root / "tmp"
        self.hook_log = root / "hook.jsonl"

    def create(self) -> None:
        for d in (self.home, self.proj, self.tmp):
            d.mkdir(parents=True, exist_ok=True)


def _write_json(path: Path, value: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(value, indent=1) + "\n", encoding="utf-8")


def hooks_config(cli: str, event: str, command: str) -> dict[str, Any]:
    """The ``hooks`` object for the CLI's settings: one command hook on ``event``."""
    handler: dict[str, Any] = {"type": "command", "command": command}
    if cli == "gemini":
        handler = {"name": "matrix-hook", **handler, "timeout": HOOK_TIMEOUT_SECONDS * 1000}
    else:
        handler["timeout"] = HOOK_TIMEOUT_SECONDS
    group: dict[str, Any] = {"hooks": [handler]}
    if event in TOOL_EVENTS:
        group = {"matcher": TOOL_MATCHERS[cli], **group}
    return {host_event(cli, event): [group]}


def write_project_hooks(cli: str, proj: Path, event: str, command: str) -> None:
    """The project's settings file, the same for the real CLI and for hookwise."""
    hooks = hooks_config(cli, event, command)
    if cli == "claude":
        # -p with a trusted workspace honours the project's allow rule; as root,
        # --dangerously-skip-permissions is refused, so the rule is how Bash gets allowed
        settings: dict[str, Any] = {"hooks": hooks}
        if event != "PermissionRequest":
            settings["permissions"] = {"allow": ["Bash"]}
        _write_json(proj / ".claude" / "settings.json", settings)
    elif cli == "codex":
        _write_json(proj / ".codex" / "hooks.json", {"hooks": hooks})
    else:
        quiet = {"privacy": {"usageStatisticsEnabled": False}, "telemetry": {"enabled": False}}
        _write_json(proj / ".gemini" / "settings.json", {"hooks": hooks, **quiet})


def prepare(cli: str, layout: Layout, event: str, command: str, url: str) -> list[str]:
    """Write the CLI's configuration into ``layout``; return its argv."""
    layout.create()
    write_project_hooks(cli, layout.proj, event, command)
    if cli == "claude":
        trusted = {str(layout.proj): {"hasTrustDialogAccepted": True}}
        _write_json(
            layout.home / ".claude.json", {"hasCompletedOnboarding": True, "projects": trusted}
        )
        return [str(binary(cli)), "-p", PROMPT, "--output-format", "json"]
    if cli == "codex":
        codex_home = layout.home / ".codex"
        codex_home.mkdir(parents=True, exist_ok=True)
        config = codex_config(url, layout.proj)
        if event == "PermissionRequest":
            config = 'approval_policy = "on-request"\n' + config
        (codex_home / "config.toml").write_text(config, encoding="utf-8")
        if event == "PermissionRequest":
            # PermissionRequest fires only where Codex would ask for approval: every command
            # outside its read-only list asks under "untrusted"; no sandbox (as the others)
            approvals = ["--approve-for-me"]
        else:
            approvals = ["--dangerously-bypass-approvals-and-sandbox"]
        return [
            str(binary(cli)),
            "exec",
            "--skip-git-repo-check",
            "--dangerously-bypass-hook-trust",
            *approvals,
            "--json",
            PROMPT,
        ]
    _write_json(
        layout.home / ".gemini" / "settings.json",
        {
            "security": {"auth": {"selectedType": "gemini-api-key"}},
            "privacy": {"usageStatisticsEnabled": False},
            "telemetry": {"enabled": False},
            "general": {"enableAutoUpdate": False, "enableAutoUpdateNotification": False},
        },
    )
    return [str(binary(cli)), "-p", PROMPT, "--yolo", "-o", "json", "-m", "gemini-2.5-flash"]


def codex_config(url: str, proj: Path) -> str:
    quoted_proj = json.dumps(str(proj))
    return f"""model = "fake-model"
model_provider = "fake"
check_for_update_on_startup = false

[model_providers.fake]
name = "fake"
base_url = "{url}/v1"
wire_api = "responses"
request_max_retries = 0
stream_max_retries = 0

[features]
hooks = true
plugins = false
remote_plugin = false
apps = false
in_app_updates = false

[analytics]
enabled = false

[projects.{quoted_proj}]
trust_level = "trusted"
"""


def environment(cli: str, layout: Layout, url: str) -> dict[str, str]:
    """The whole environment of the CLI (and so of its hooks)."""
    env = {
        "PATH": search_path(),
        "HOME": str(layout.home),
        "TMPDIR": str(layout.tmp),
        "TERM": "dumb",
        "LANG": "C.UTF-8",
        "HOOKWISE_E2E_HOOK_LOG": str(layout.hook_log),
    }
    if cli == "claude":
        env |= {
            "ANTHROPIC_BASE_URL": url,
            "ANTHROPIC_API_KEY": "dummy",
            "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
            "DISABLE_TELEMETRY": "1",
            "DISABLE_AUTOUPDATER": "1",
            "DISABLE_ERROR_REPORTING": "1",
            "CLAUDE_CODE_MAX_RETRIES": "1",
        }
    elif cli == "codex":
        env["CODEX_HOME"] = str(layout.home / ".codex")
    else:
        env |= {
            "GOOGLE_GEMINI_BASE_URL": url,
            "GEMINI_API_KEY": "dummy",
            "GEMINI_CLI_TRUST_WORKSPACE": "true",
            "GEMINI_CLI_NO_RELAUNCH": "true",
        }
    return env
