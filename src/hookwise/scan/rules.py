"""The scan's rules: id, default severity, title and why. One table; SARIF and docs read it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from hookwise.scan.model import Severity

__all__ = ["RULES", "Rule"]


@dataclass(frozen=True)
class Rule:
    id: str
    severity: Severity
    title: str
    why: str


_C, _H, _M, _L, _I = (
    Severity.CRITICAL,
    Severity.HIGH,
    Severity.MEDIUM,
    Severity.LOW,
    Severity.INFO,
)

RULES: Final = {
    rule.id: rule
    for rule in (
        Rule(
            "download-exec",
            _C,
            "Runs code downloaded from the network",
            "`curl | sh`, `bash <(wget ...)`, `iex (iwr ...)`, exec(urlopen(...).read()): whoever "
            "controls the server (or the network) runs code as you, every time this runs.",
        ),
        Rule(
            "decode-exec",
            _C,
            "Runs decoded or encoded code",
            '`base64 -d | sh`, `eval "$(... | base64 -d)"`, exec(b64decode(...)), PowerShell '
            "-EncodedCommand: code hidden from review, the usual shape of a dropper.",
        ),
        Rule(
            "credential-exfiltration",
            _C,
            "Reads credentials and reaches the network",
            "A credential file, keychain entry or the whole environment is read by something that "
            "also sends data out: the 2026 npm/PyPI worms did exactly this from agent hooks.",
        ),
        Rule(
            "credential-read",
            _M,
            "Reads credentials",
            "Reads a credential file, a keychain entry, well-known secret variables or the whole "
            "environment; agent hooks rarely need to.",
        ),
        Rule(
            "profile-write",
            _H,
            "Writes a shell profile",
            "Writing ~/.bashrc, ~/.zshrc, /etc/profile... runs code in every later shell, outside "
            "any agent.",
        ),
        Rule(
            "agent-settings-write",
            _H,
            "Writes agent settings or instructions",
            "Writing .claude/settings.json, .gemini/settings.json, .codex/config.toml, .mcp.json, "
            "hook directories or CLAUDE.md/AGENTS.md registers more hooks or instructions: how the "
            "2026 worms spread from one repository to the user's other agents.",
        ),
        Rule(
            "persistence",
            _H,
            "Installs something that runs later",
            "crontab, launchd, systemd, git hooks or git configuration that runs commands, "
            "authorized_keys: a foothold that outlives the session.",
        ),
        Rule(
            "env-hijack",
            _H,
            "Sets a variable that hijacks the agent or its tools",
            "ANTHROPIC_BASE_URL, OPENAI_BASE_URL, proxies and OTLP endpoints send the API key, "
            "prompts or telemetry elsewhere (CVE-2026-21852); NODE_OPTIONS, LD_PRELOAD, "
            "PYTHONSTARTUP, BASH_ENV, GIT_SSH_COMMAND... make other programs run code.",
        ),
        Rule(
            "session-start-network",
            _M,
            "Repository command reaches the network as the session starts",
            "A project-scope SessionStart hook, status line, helper or turn hook that reaches the "
            "network runs as soon as the agent starts in this folder, before any tool call is "
            "seen.",
        ),
        Rule(
            "runs-before-trust",
            _L,
            "Repository command runs without a trust prompt",
            "Repository content that the host runs without asking the user first (`claude -p` and "
            "SDK sessions in an untrusted folder, folder trust switched off, hookwise turn hooks): "
            "the class of CVE-2025-59536. Other findings on such a command are raised one level.",
        ),
        Rule(
            "self-approved-mcp",
            _L,
            "Repository approves its own MCP servers",
            "enableAllProjectMcpServers or enabledMcpjsonServers in the repository's own settings "
            "skips the per-server question for the servers of its .mcp.json. Many projects do "
            "this for their own tools; what each server runs is judged on its own (and raised "
            "one level, as it runs without a trust prompt).",
        ),
        Rule(
            "http-hook",
            _M,
            "Hook sends every event to a URL",
            "An http hook posts each event payload (prompts, tool inputs, file contents) to a "
            "server; from a repository that is an exfiltration channel.",
        ),
        Rule(
            "agent-plugin",
            _M,
            "A plugin runs inside the agent",
            "An OpenCode or Kilo plugin is code the agent loads into itself: it runs with your "
            "rights when the agent starts and sees, changes or blocks every tool call. "
            "hookwise's own plugin is recognised (exactly what `hookwise install` writes) and "
            "not reported; any other one is.",
        ),
        Rule(
            "mcp-unguarded",
            _I,
            "MCP server's tool calls are not guarded by hookwise",
            "Hooks see an MCP tool call only when the host hands it to them, and hosts skip "
            "them (docs/mcp.md). A stdio server started as `hookwise mcp wrap -- ...` gets "
            "only the calls the policy allows; a remote (HTTP) server cannot be wrapped.",
        ),
        Rule(
            "elicitation-hook",
            _M,
            "Hook answers MCP servers' questions for the user",
            "An Elicitation hook can accept an MCP server's question before the user sees it, "
            "and an ElicitationResult hook can change the user's answer (Claude Code). An "
            "`ask` of `hookwise mcp wrap` is such a question, so these hooks decide it; the "
            "proxy then asks through the approval relay or ask_fallback instead (docs/mcp.md). "
            "Medium from the repository (high where it runs without a prompt), low from the "
            "user's own settings.",
        ),
        Rule(
            "remote-mcp",
            _L,
            "Repository adds a remote MCP server",
            "A remote MCP server from the repository receives tool calls and their data.",
        ),
        Rule(
            "leaves-repository",
            _L,
            "Repository command runs a program outside the repository",
            "A project hook that runs ~/... or an absolute path outside the repository depends on "
            "(or reaches into) the user's machine; from /tmp or /dev/shm it is a staged payload.",
        ),
        Rule(
            "destructive",
            _H,
            "Deletes outside the repository",
            "Recursive removal of the home directory, the root or dot-directories.",
        ),
        Rule(
            "eval-dynamic",
            _M,
            "Runs the output of a command as code",
            '`eval "$(cmd)"` or `sh -c "$(cmd)"`: what runs is known only when it runs.',
        ),
        Rule(
            "registry-package",
            _L,
            "Downloads and runs a package",
            "npx/uvx/pnpm dlx fetch a package from a registry and run it; unpinned, it runs "
            "whatever the newest version is.",
        ),
        Rule(
            "trust-by-command-line",
            _I,
            "Host trusts this hook by its command line only",
            "Gemini CLI's project-hook trust keys on name and command (GC#27901): the script "
            "behind a trusted command can change and run with no new warning. Pin it with "
            "--baseline.",
        ),
        Rule(
            "unverifiable",
            _I,
            "Runs something known only when it runs",
            "Part of the command is computed at run time; the scan cannot see what it is.",
        ),
        Rule(
            "missing-script",
            _I,
            "Calls a script that does not exist",
            "The command names a script that is not there: the hook fails (and a guard that "
            "fails lets calls through).",
        ),
        Rule(
            "drift-new",
            _M,
            "New command since the baseline",
            "A command the agents run on their own appeared since the baseline was recorded.",
        ),
        Rule(
            "drift-changed",
            _M,
            "Changed command or script since the baseline",
            "The command line, or a script it calls, differs from the baseline: review the "
            "change "
            "(host trust that keys on the command line does not notice a changed script).",
        ),
        Rule(
            "drift-removed",
            _I,
            "Command removed since the baseline",
            "A command recorded in the baseline is no longer configured.",
        ),
    )
}
