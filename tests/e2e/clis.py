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
    "copilot": "@github/copilot",
    "qwen": "@qwen-code/qwen-code",
}
# CLIs pinned by their own package.json + lock in a subdirectory (installed into the same
# subdirectory of install_dir()): GitHub Copilot CLI and Qwen Code (tests/e2e/hosts/)
PIN_DIRS = {"copilot": "hosts", "qwen": "hosts"}
# the matrix names events the Claude Code / Codex way; Gemini CLI's names for the same points
GEMINI_EVENTS = {
    "PreToolUse": "BeforeTool",
    "UserPromptSubmit": "BeforeAgent",
    "Stop": "AfterAgent",
}
TOOL_MATCHERS = {
    "claude": "Bash",
    "codex": "Bash",
    "gemini": "run_shell_command",
    "qwen": "run_shell_command",
}
TOOL_EVENTS = ("PreToolUse", "PermissionRequest", "preToolUse", "permissionRequest")


def install_dir() -> Path:
    """The directory ``make e2e-install`` installs into (holds node_modules/)."""
    explicit = os.environ.get("HOOKWISE_E2E_CLIS")
    if explicit:
        return Path(explicit)
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(cache) / "hookwise" / "e2e-clis"


def mcp_server(binary: str) -> Path | None:
    """A real MCP server's executable as ``make e2e-install`` installs it
    (tests/e2e/mcp-servers/), or None when it (or node) is missing."""
    explicit = os.environ.get("HOOKWISE_E2E_MCP_SERVERS")
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    base = Path(explicit) if explicit else Path(cache) / "hookwise" / "e2e-mcp-servers"
    found = base / "node_modules" / ".bin" / binary
    return found if found.exists() and shutil.which("node") else None


def pinned_versions() -> dict[str, str]:
    versions = {}
    for cli, package in PACKAGES.items():
        pins = HERE / PIN_DIRS.get(cli, "") / "package.json"
        versions[cli] = json.loads(pins.read_text(encoding="utf-8"))["dependencies"][package]
    return versions


def modules_dir(cli: str) -> Path:
    """The node_modules the pinned ``cli`` is installed in."""
    return install_dir() / PIN_DIRS.get(cli, "") / "node_modules"


def installed_version(cli: str) -> str | None:
    meta = modules_dir(cli) / PACKAGES[cli] / "package.json"
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
    modules = modules_dir(cli)
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
    return GEMINI_EVENTS.get(event, event) if cli == "gemini" else event


# A cell's answer may shorten the hook's timeout (seconds) to show what the host does when
# a hook outlives it; answer_hook.py ignores the key and sleeps for ``sleep`` seconds.
TIMEOUT_KEY = "hook_timeout_s"


def hook_timeout_s(answer: dict[str, Any] | None) -> float:
    value = (answer or {}).get(TIMEOUT_KEY)
    return float(value) if value is not None else float(HOOK_TIMEOUT_SECONDS)


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


def hooks_config(
    cli: str, event: str, command: str, timeout_s: float = HOOK_TIMEOUT_SECONDS
) -> dict[str, Any]:
    """The ``hooks`` object for the CLI's settings: one command hook on ``event``."""
    handler: dict[str, Any] = {"type": "command", "command": command}
    if cli == "copilot":  # a flat list of handlers; the command under "bash", seconds
        return {event: [{"type": "command", "bash": command, "timeoutSec": int(timeout_s)}]}
    if cli in ("gemini", "qwen"):  # milliseconds
        handler = {"name": "matrix-hook", **handler, "timeout": int(timeout_s * 1000)}
    else:
        handler["timeout"] = int(timeout_s)
    group: dict[str, Any] = {"hooks": [handler]}
    if event in TOOL_EVENTS:
        group = {"matcher": TOOL_MATCHERS[cli], **group}
    return {host_event(cli, event): [group]}


def write_project_hooks(
    cli: str, proj: Path, event: str, command: str, timeout_s: float = HOOK_TIMEOUT_SECONDS
) -> None:
    """The project's settings file, the same for the real CLI and for hookwise."""
    hooks = hooks_config(cli, event, command, timeout_s)
    if cli == "copilot":
        _write_json(proj / ".github" / "hooks" / "matrix.json", {"version": 1, "hooks": hooks})
    elif cli == "qwen":
        _write_json(proj / ".qwen" / "settings.json", {"hooks": hooks})
    elif cli == "claude":
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


def prepare(
    cli: str,
    layout: Layout,
    event: str,
    command: str,
    url: str,
    timeout_s: float = HOOK_TIMEOUT_SECONDS,
) -> list[str]:
    """Write the CLI's configuration into ``layout``; return its argv."""
    layout.create()
    write_project_hooks(cli, layout.proj, event, command, timeout_s)
    if cli in ("copilot", "qwen"):
        argv = prepare_chat_cli(cli, layout)
        if event == "permissionRequest":
            # as the other CLIs' PermissionRequest cells: nothing but the hook allows the
            # shell, so an undecided request is Copilot's own to ask (headless: denied)
            argv.remove("--allow-all-tools")
        return argv
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


def prepare_chat_cli(cli: str, layout: Layout) -> list[str]:
    """GitHub Copilot CLI or Qwen Code, headless, against the fake model's Chat Completions.

    Copilot: the project's hooks run only in a trusted folder (``--trust-folder``); every
    tool and path allowed, as the other CLIs' runs allow the shell. Qwen Code: user
    settings pick the OpenAI-compatible provider and turn off telemetry and updates;
    ``--yolo``, without which a headless run offers the model no shell tool.
    """
    if cli == "copilot":
        (layout.home / ".copilot").mkdir(parents=True, exist_ok=True)
        return [
            str(binary(cli)),
            "-p",
            PROMPT,
            "--trust-folder",
            "--allow-all-tools",
            "--allow-all-paths",
            "--no-auto-update",
            "--output-format",
            "json",
        ]
    _write_json(
        layout.home / ".qwen" / "settings.json",
        {
            "security": {"auth": {"selectedType": "openai"}},
            "privacy": {"usageStatisticsEnabled": False},
            "telemetry": {"enabled": False},
            "general": {"enableAutoUpdate": False, "disableAutoUpdate": True},
        },
    )
    return [str(binary(cli)), "--auth-type", "openai", "--yolo", "-o", "json", PROMPT]


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
    elif cli == "copilot":
        env |= {
            "NO_COLOR": "1",
            "COPILOT_OFFLINE": "true",
            "COPILOT_AUTO_UPDATE": "false",
            "COPILOT_PROVIDER_BASE_URL": f"{url}/v1",
            "COPILOT_PROVIDER_TYPE": "openai",
            "COPILOT_PROVIDER_API_KEY": "dummy",
            "COPILOT_MODEL": "fake-model",
        }
    elif cli == "qwen":
        env |= {
            "NO_COLOR": "1",
            "OPENAI_BASE_URL": f"{url}/v1",
            "OPENAI_API_KEY": "dummy",
            "OPENAI_MODEL": "fake-model",
            "QWEN_CODE_SUPPRESS_YOLO_WARNING": "1",
        }
    else:
        env |= {
            "GOOGLE_GEMINI_BASE_URL": url,
            "GEMINI_API_KEY": "dummy",
            "GEMINI_CLI_TRUST_WORKSPACE": "true",
            "GEMINI_CLI_NO_RELAUNCH": "true",
        }
    return env
