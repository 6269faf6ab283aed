"""``hookwise doctor``: is the policy hook registered, trusted, valid and answering, per host?

Every check reads the hosts' configuration the way the host does (the loaders of
``hookwise.config``: Gemini CLI's folder trust and ``hooksConfig``, Claude Code's
``disableAllHooks`` and managed-only switches, Codex's project trust and hook hashes), so
"registered" means "the host would run it", not merely "written in a file". The self-test
runs the exact registered command through the host's shell with a synthetic pre-tool event,
reads the answer as that host would (``hookwise.host``) and compares it with the answer
this hookwise computes in-process for the same event.

A check is ``ok``, ``info``, ``warn`` (worth knowing, nothing broken) or ``fail``
(something does not work as installed); any ``fail`` makes the report not ok.
"""

from __future__ import annotations

import json
import os
import subprocess
import time
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hookwise.config.files import read_file_bytes
from hookwise.config.hookwise_command import (
    direct_inherits_limits,
    follows_any_session_file,
    inherits_limits,
    is_hookwise_command,
    is_portable_command,
    machine_paths,
    reads_mounts_through_a_pipe,
    runs_only_hookwise,
)
from hookwise.config.host_homes import claude_config_dir, codex_home, gemini_home
from hookwise.config.jsonc import JsonDocument, JsonEditError
from hookwise.config.model import HookEntry
from hookwise.policy.install.codex_hook_trust import codex_project_trust, toml_string
from hookwise.policy.install.errors import InstallError
from hookwise.policy.install.hook_script import script_command
from hookwise.policy.install.hooks_edit import find_hookwise
from hookwise.policy.install.own_file import own_file_handlers
from hookwise.policy.install.plan import (
    compile_policy,
    failure_story,
    gemini_ask_story,
    owns_file,
    reference_story,
    trust_story,
)
from hookwise.policy.install.plugin_doctor import plugin_checks, plugin_reading
from hookwise.policy.install.plugin_files import plugin_handlers
from hookwise.policy.install.registrations import (
    MATCH_ALL,
    policy_events,
    timeout_seconds,
    tool_matcher_events,
)
from hookwise.policy.install.sh_script import NAME
from hookwise.policy.install.targets import SCOPES, settings_path
from hookwise.policy.trust.scopes import launcher_path
from hookwise.protocol.hosts import HOST_TITLES, elicitation_events, hosts_with
from hookwise.protocol.hosts import host as host_info
from hookwise.wording import count

PROBE_COMMAND = "echo hookwise-doctor"
SELF_TEST_CAP_S = 60.0


@dataclass
class Check:
    status: str  # "ok" | "info" | "warn" | "fail"
    name: str
    detail: str


@dataclass
class Registered:
    """A hookwise handler as the host registers it."""

    event: str
    scope: str
    origin: str  # file#/hooks/Event/g/hooks/h
    matcher: Any
    command: str
    timeout: Any
    runs: bool


@dataclass
class HostReport:
    host: str
    installed: bool = False
    registered: list[Registered] = field(default_factory=list)
    events_used: list[str] = field(default_factory=list)
    checks: list[Check] = field(default_factory=list)
    native: dict[str, Any] = field(default_factory=dict)
    """Per scope: the native rules install --native wrote, their drift, and which rules
    they hold in full (native_doctor)."""

    @property
    def ok(self) -> bool:
        return all(check.status != "fail" for check in self.checks)

    def add(self, status: str, name: str, detail: str) -> None:
        self.checks.append(Check(status, name, detail))


@dataclass
class PolicyReport:
    scopes: list[tuple[str, str, bool]] = field(default_factory=list)
    """(scope, path, present) of every scope file that applies."""
    rules: int = 0
    checks: list[Check] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return all(check.status != "fail" for check in self.checks)


@dataclass
class DoctorReport:
    project: str
    policy: PolicyReport
    hosts: list[HostReport]

    @property
    def ok(self) -> bool:
        return self.policy.ok and all(host.ok for host in self.hosts)

    def to_json(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "project": self.project,
            "policy": {
                "ok": self.policy.ok,
                "scopes": [
                    {"scope": s, "path": p, "present": present}
                    for s, p, present in self.policy.scopes
                ],
                "rules": self.policy.rules,
                "checks": [asdict(c) for c in self.policy.checks],
            },
            "hosts": {
                report.host: {
                    "ok": report.ok,
                    "installed": report.installed,
                    "events_used": report.events_used,
                    "registered": [asdict(r) for r in report.registered],
                    "checks": [asdict(c) for c in report.checks],
                    "native": report.native,
                }
                for report in self.hosts
            },
        }


# --------------------------------------------------------------------------- policy


def check_policy(project: Path, env: Mapping[str, str]) -> tuple[PolicyReport, dict[str, Any]]:
    from hookwise.policy.trust.scopes import scope_files

    report = PolicyReport()
    for scope, path in scope_files(str(project), dict(env)):
        report.scopes.append((scope, path, os.path.isfile(path)))
    try:
        compiled = compile_policy(project, env)
    except InstallError as exc:
        report.checks.append(Check("fail", "policy", str(exc)))
        from hookwise.policy.rules.compiler import compile_sources

        return report, compile_sources([])
    report.rules = len(compiled["rules"])
    if not compiled["files"]:
        report.checks.append(
            Check(
                "warn",
                "policy",
                "no policy file applies here: hookwise hook decides nothing "
                "(`hookwise policy init` writes a starter)",
            )
        )
    for problem in compiled["errors"]:
        place = f"{problem['file']}:{problem['line']}:{problem['column']}"
        report.checks.append(
            Check("fail", "policy", f"{place}: {problem['message']} (tool calls are denied)")
        )
    for problem in compiled["warnings"]:
        place = f"{problem['file']}:{problem['line']}:{problem['column']}"
        report.checks.append(Check("warn", "policy", f"{place}: {problem['message']}"))
    if compiled["files"] and not compiled["errors"]:
        enabled = sum(1 for rule in compiled["rules"] if rule["enabled"])
        names = ", ".join(f"{scope} {path}" for scope, path in compiled["files"])
        report.checks.append(
            Check(
                "ok",
                "policy",
                f"valid: {count(report.rules, 'rule')} ({enabled} enabled) in {names}",
            )
        )
    return report, compiled


# --------------------------------------------------------------------------- registration


def _written(host: str, project: Path, env: Mapping[str, str], report: HostReport) -> set[str]:
    """Origins of hookwise handlers written in hookwise's own two files (the host aside)."""
    origins: set[str] = set()
    seen: set[Path] = set()
    for scope in SCOPES:
        path = settings_path(host, scope, project, env)
        if path in seen:
            continue
        seen.add(path)
        try:
            text = read_file_bytes(path).decode("utf-8")
        except FileNotFoundError:
            continue
        except (OSError, UnicodeDecodeError) as exc:
            report.add("fail", "settings", f"{path}: cannot read: {exc}")
            continue
        if not text.strip():
            continue
        try:
            handlers = layout_handlers(host, path, text)
        except (InstallError, JsonEditError) as exc:
            report.add("fail", "settings", f"{exc}: {HOST_TITLES[host]} cannot read it either")
            continue
        origins.update(origin for _, origin, _, _ in handlers)
    return origins


def _scope_of(origin: str, host: str, project: Path, env: Mapping[str, str]) -> str:
    path = origin.split("#", 1)[0]
    for scope in SCOPES:
        if path == str(settings_path(host, scope, project, env)):
            return scope
    return "other"


@dataclass
class Loaded:
    """What the host's loader made of hookwise's handlers."""

    registered: list[Registered]
    entries: list[HookEntry]  # hookwise's, as the host's runtime plans them
    merged: set[str]  # origins the loader left out as copies of another (Claude Code)
    # origin -> why the host does not run that handler, where its loader says (Gemini CLI's
    # hooksConfig.disabled); reported as a failed switch
    switched_off: dict[str, str] = field(default_factory=dict)
    # other hooks on the host's elicitation events (protocol elicitation_events): they can
    # answer the questions `hookwise mcp wrap` asks for an `ask` (_elicitation_checks)
    elicitation: list[HookEntry] = field(default_factory=list)


if TYPE_CHECKING:
    from hookwise.config.claude.settings import ClaudeHooks

    # a loader's answer: entries, warnings, handlers that would not run, origins merged away,
    # and why a switch turns off an entry it registers (origin -> why)
    HostHooks = tuple[list[HookEntry], list[str], list[Registered], set[str], dict[str, str]]


def _gemini_entries(
    host: str, project: Path, env: Mapping[str, str], report: HostReport
) -> HostHooks:
    from hookwise.config.gemini.paths import SettingsPaths
    from hookwise.config.gemini.settings import load_settings
    from hookwise.config.registry import build_registry
    from hookwise.protocol.profiles import Profile

    paths = SettingsPaths.from_environment(project, env=env, home=gemini_home(env))
    settings = load_settings(paths, profile=Profile.GEMINI_CLI, env=env)
    registry = build_registry(settings.hooks_objects, settings.hooks_config.disabled)
    _gemini_switches(settings, report)
    off = {
        entry.origin: "listed in hooksConfig.disabled: Gemini CLI does not run it"
        for entry in registry.entries
        if not entry.enabled
    }
    return registry.entries, settings.warnings, [], set(), off


def _claude_entries(
    host: str, project: Path, env: Mapping[str, str], report: HostReport
) -> HostHooks:
    from hookwise.config.claude.settings import load_claude_hooks

    home = None if env.get("CLAUDE_CONFIG_DIR") else str(claude_config_dir(env).parent)
    claude = load_claude_hooks(project, home=home, env=env)
    _claude_switches(claude, project, env, report)
    _claude_settings_env(claude, report)
    merged = {dropped for dropped, _ in claude.deduplicated}
    return claude.registry.entries, claude.warnings, [], merged, {}


def _claude_settings_env(claude: ClaudeHooks, report: HostReport) -> None:
    """A settings file's ``env`` that sets a variable deciding what hooks run or where
    hookwise's files are: Claude Code puts it into its own environment, and every hook and
    stdio MCP server it starts inherits it (red team s26 F8: a project's
    ``HOOKWISE_USER_POLICY`` reached an unpinned proxy), as Gemini CLI's ``.env`` does."""
    from hookwise.config.env_files import affects_hooks

    for file in claude.settings_files:
        block = (file.settings or {}).get("env")
        if not isinstance(block, dict):
            continue
        names = sorted(str(k) for k in block if affects_hooks(str(k)))
        if names:
            report.add(
                "warn",
                "settings env",
                f"{file.origin} ({file.scope.value} settings env: Claude Code exports it to "
                f"every hook and MCP server it starts) sets {', '.join(names)}: these change "
                "what a hook runs and where hookwise's policy and audit log are; remove them "
                "unless you put them there (`hookwise install --mcp` entries are --pinned "
                "against hookwise's own variables and start it by its absolute path, against "
                "PATH; an entry naming a bare 'hookwise' is not guarded)",
            )


def _codex_entries(
    host: str, project: Path, env: Mapping[str, str], report: HostReport
) -> HostHooks:
    from hookwise.config.codex.settings import load_codex_hooks

    codex = load_codex_hooks(project, codex_home=codex_home(env), env=env)
    not_running = _codex_switches(codex, project, env, report)
    return codex.registry.entries, codex.warnings, not_running, set(), {}


def _file_host_entries(
    host: str, project: Path, env: Mapping[str, str], report: HostReport
) -> HostHooks:
    """A host whose hooks are plain settings files, read as its runtime reads them (its
    registry row: files, layout, handler keys); project hooks as if the folder were
    trusted (whether the host trusts it is the row's ``trust`` note, which doctor gives)."""
    from hookwise.config.host_hooks import load_host_hooks
    from hookwise.protocol.hosts import table

    loaded = load_host_hooks(host, table(host), str(project), env, trusted=True)
    return loaded.registry.entries, loaded.warnings, [], set(), {}


# How doctor reads the hooks through each settings loader of config/ (the registry row's
# ``settings_loader``: switches, trust stores, config layers); a host without one reads
# plain files through its registry row.
_OWN_LOADERS: dict[str, Callable[[str, Path, Mapping[str, str], HostReport], HostHooks]] = {
    "hookwise.config.gemini": _gemini_entries,
    "hookwise.config.claude": _claude_entries,
    "hookwise.config.codex": _codex_entries,
}


def _entries(
    host: str,
    project: Path,
    env: Mapping[str, str],
    report: HostReport,
    start: Path | None = None,
) -> Loaded:
    """hookwise handlers the host's loader registers, with whether each would run
    (``start``: the host's loader reads its settings as started there)."""
    info = host_info(host)
    if "runtime" not in info.supports:
        return Loaded(_entries_from_files(host, project, env), [], set())
    if info.hooks_layout == "script":
        # a hook file is its own registration: the files install writes, as written; the
        # runtime plans the files its loader finds (how many copies run)
        from hookwise.config.script_hooks import load_script_hooks

        planned = load_script_hooks(host, str(project), env).registry.entries
        return Loaded(_entries_from_files(host, project, env), list(planned), set())
    loader = _OWN_LOADERS.get(info.settings_loader, _file_host_entries)
    entries, warnings, not_running, merged, off = loader(host, start or project, env, report)
    out = [
        Registered(
            entry.event,
            _scope_of(entry.origin, host, project, env),
            entry.origin,
            entry.matcher,
            entry.command or "",
            entry.config.get("timeout"),
            entry.enabled,
        )
        for entry in entries
        if is_hookwise_command(entry.command)
    ]
    mentioned = {r.command for r in out} | {r.origin for r in out}
    for warning in warnings:
        if any(text and text in warning for text in mentioned):
            report.add("warn", "settings", warning)
    ours = [e for e in entries if is_hookwise_command(e.command)]
    asking = elicitation_events(host)
    # on the events whose answer accepts an MCP server's question, hookwise's own is told by
    # the strict test (scan's, the proxy's): `hookwise hook; echo accept` is another hook
    others = [e for e in entries if e.event in asking and not runs_only_hookwise(e.command)]
    seen = {(e.event, e.origin, e.command) for e in others}
    out = [r for r in out if (r.event, r.origin, r.command) not in seen]
    return Loaded(out + not_running, ours, merged, off, others)


def _elicitation_checks(host: str, loaded: Loaded, proxied: bool) -> list[tuple[str, str]]:
    """The host's own hooks that answer MCP servers' questions: an `ask` of the proxy is one
    (docs/mcp.md), so they decide it; a warning once a server of the host runs through the
    proxy, else a note."""
    roles = elicitation_events(host)
    out: list[tuple[str, str]] = []
    for entry in loaded.elicitation:
        what = entry.command or str(entry.config.get("url") or entry.config.get("type") or "?")
        does = (
            "can answer MCP servers' questions before the user sees them"
            if roles.get(entry.event) == "question"
            else "can change the user's answers to MCP servers' questions"
        )
        off = "" if entry.enabled else " (disabled)"
        out.append(
            (
                "warn" if proxied and entry.enabled else "info",
                f"{entry.origin}: an {entry.event} hook{off} {does}, the `ask` questions of "
                f"`hookwise mcp wrap` too: {what[:200]}",
            )
        )
    return out


def _handler_checks(host: str, project: Path, env: Mapping[str, str]) -> list[str]:
    """The host's hooks of any kind that it will not run as written (an http URL outside
    allowedHttpHookUrls, an mcp_tool server not connected): the hooks that "never fire"."""
    from hookwise.host.handlers.check import handler_notes
    from hookwise.host.runtime import LoadOptions
    from hookwise.host.runtimes import TABLE_RUNTIMES

    runtime = TABLE_RUNTIMES.get(host)
    if runtime is None or runtime.loader is None:
        return []
    options = LoadOptions(home=env.get("HOME"), env=dict(env))
    loaded = runtime.loader(str(project), options)
    notes = handler_notes(runtime, str(project), options, loaded)
    return [f"{n.origin}: {n.text}" for n in notes if n.status == "warn"]


def _times_run(host: str, entries: list[HookEntry], event: str) -> int:
    """How many of hookwise's handlers on ``event`` the host's runtime runs for one call
    (each runtime merges identical handlers as its host does)."""
    from hookwise.config.registry import Registry
    from hookwise.host.runtimes import runtime_for
    from hookwise.protocol.profiles import Profile

    runtime = runtime_for(host, Profile.GEMINI_CLI)
    payload = {"tool_name": host_info(host).shell_tool, "tool_input": {"command": "ls"}}
    context = runtime.match_context(event, payload)
    plan = runtime.plan(Registry(entries), event, payload, context, [])
    return len(plan.hooks) if plan is not None else 0


def _copies_check(host: str, loaded: Loaded, written: set[str], report: HostReport) -> None:
    """One warning per event hookwise is registered on more than once, whatever the host:
    how many copies, where, how many run, and how to keep one."""
    origins: dict[str, set[str]] = {}
    for origin in written | {r.origin for r in loaded.registered if r.runs}:
        # the event is the first part after an optional "hooks" (#/E/... or #/hooks/E/...:
        # a host whose events sit at the top level is read both ways)
        parts = [p for p in origin.partition("#")[2].split("/") if p]
        if parts[:1] == ["hooks"] and len(parts) > 1:
            parts = parts[1:]
        if parts:
            origins.setdefault(parts[0], set()).add(origin)
    for event, found in origins.items():
        if len(found) < 2:
            continue
        runs = _times_run(host, [e for e in loaded.entries if e.event == event], event)
        title = HOST_TITLES[host]
        how = (
            f"{title} runs it once (it merges identical handlers)"
            if runs == 1
            else f"{title} runs it {runs} times on each call"
        )
        report.add(
            "warn",
            "events",
            f"{event}: hookwise is registered {len(found)} times ({', '.join(sorted(found))}); "
            f"{how}: keep one (`hookwise uninstall {host} --scope user` or `--scope project`)",
        )


def _origin_event(origin: str) -> str:
    """The event of a handler's origin: ``#/hooks/EVENT/...``, or ``#/EVENT/...`` for a
    file whose event keys are at the top level."""
    parts = [*origin.partition("#")[2].split("/"), "", ""]
    return parts[2] if parts[1] == "hooks" else parts[1]


def layout_handlers(host: str, path: Path, text: str) -> list[tuple[str, str, Any, dict[str, Any]]]:
    """hookwise's handlers in one file the host reads, as (event, origin, matcher, handler),
    for each of the registry's ``hooks_layout``s; a file that does not parse raises."""
    info = host_info(host)
    if info.hooks_layout in ("flat", "plugin") and owns_file(host):
        own = (
            plugin_handlers(text, host)
            if info.hooks_layout == "plugin"
            else own_file_handlers(text, info.handler[0])
        )
        # a flat file's handlers read as one group each event, as the host's loader reads them
        group = "" if info.hooks_layout == "plugin" else "0/hooks/"
        return [(event, f"{path}#/hooks/{event}/{group}{i}", None, h) for event, i, h in own]
    if info.hooks_layout == "script":
        command = script_command(text)
        if command is None:
            return []
        return [(path.name, f"{path}#/hooks/{path.name}", None, {info.handler[0]: command})]
    top = info.hooks_layout == "top"
    # (the hook script install writes beside the settings: sh_script.script_path)
    script = str(path.parent / "hooks" / NAME) if "sh_script" in info.install_steps else None
    doc = JsonDocument(text, str(path), jsonc=info.jsonc)
    found = find_hookwise(doc, top=top, flat=info.hooks_layout == "flat", script=script)
    prefix = "/hooks"  # (as the loaders read every layout: #/hooks/E/g/hooks/i)
    return [
        (f.event, f"{path}#{prefix}/{f.event}/{f.group}/hooks/{f.handler}", f.matcher, f.config)
        for f in found
    ]


def _entries_from_files(host: str, project: Path, env: Mapping[str, str]) -> list[Registered]:
    """A host hookwise has no settings loader for: the handlers of the files install writes,
    as written (what the host itself loads from them is the live tests' to show)."""
    info = host_info(host)
    command_key, timeout_key, _ = info.handler
    out: list[Registered] = []
    for scope in SCOPES:
        path = settings_path(host, scope, project, env)
        try:
            text = read_file_bytes(path).decode("utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        try:
            handlers = layout_handlers(host, path, text)
        except (InstallError, JsonEditError):
            continue
        for event, origin, matcher, handler in handlers:
            command = handler.get(command_key)
            out.append(
                Registered(
                    event,
                    scope,
                    origin,
                    matcher,
                    command if isinstance(command, str) else "",
                    handler.get(timeout_key),
                    True,
                )
            )
    return out


def _gemini_switches(settings: Any, report: HostReport) -> None:
    trust = settings.trust
    if trust.trusted:
        report.add("ok", "trust", f"folder trusted ({trust.source}: {trust.detail})")
    else:
        report.add(
            "fail",
            "trust",
            f"folder not trusted: {trust.detail}. Gemini CLI registers no settings hook "
            "here, user hooks included (headless runs stop with exit 55)",
        )
    if not settings.hooks_config.enabled:
        report.add("fail", "switch", "hooksConfig.enabled is false: Gemini CLI runs no hook")


def _claude_switches(
    claude: Any, project: Path, env: Mapping[str, str], report: HostReport
) -> None:
    if claude.disable_all_hooks:
        report.add(
            "fail",
            "switch",
            f"disableAllHooks is true ({claude.disabled_by}): Claude Code runs no hookwise hook",
        )
    if claude.managed_only:
        where = (
            "server-managed settings (remote-settings.json)"
            if claude.managed_source == "server"
            else "managed settings"
        )
        report.add(
            "fail",
            "switch",
            f"{where} set allowManagedHooksOnly: only managed hooks run "
            "(install hookwise in the managed settings instead)",
        )
    for file in claude.settings_files:
        if file.ignored is not None and file.has("hooks"):
            report.add("fail", "switch", f"{file.origin}: its hooks never run: {file.ignored}")
    from hookwise.config.claude.trust import (
        CLAUDE_TRUST_STORE,
        ClaudeTrustStore,
        claude_global_config,
        claude_workspace_trust,
        trust_story,
    )

    verdict = claude_workspace_trust(
        project,
        global_config=claude_global_config(None, env),
        store=ClaudeTrustStore(claude_config_dir(env) / CLAUDE_TRUST_STORE),
    )
    report.add("ok" if verdict.trusted else "info", "trust", trust_story(project, verdict))


def _codex_switches(
    codex: Any, project: Path, env: Mapping[str, str], report: HostReport
) -> list[Registered]:
    """Codex's switches and trust; hookwise hooks Codex discovers but will not run."""
    config = codex_home(env) / "config.toml"
    if not codex.enabled:
        report.add("fail", "switch", f"{codex.hooks_switch}: false: Codex runs no hook")
    if codex.managed_only:
        report.add(
            "fail",
            "switch",
            "requirements.toml sets allow_managed_hooks_only: only managed hooks run",
        )
    mine = [h for h in codex.hooks if is_hookwise_command(h.command)]
    not_running: list[Registered] = []
    for hook in mine:
        if hook.runs:
            continue
        not_running.append(
            Registered(
                hook.event,
                hook.scope,
                hook.origin,
                hook.matcher,
                hook.command,
                hook.timeout_s,
                False,
            )
        )
        if not hook.enabled:
            report.add(
                "fail",
                "trust",
                f'{hook.origin}: turned off ([hooks.state."{hook.key}"] '
                f"enabled = false in {config})",
            )
        else:
            why = "changed since it was trusted" if hook.trust == "modified" else "not trusted"
            report.add(
                "fail",
                "trust",
                f"{hook.origin}: {why}: Codex skips it silently. Run `hookwise install codex` "
                f'again, or add [hooks.state."{hook.key}"] trusted_hash = '
                f'"{hook.current_hash}" to {config}',
            )
    trusted = [h for h in mine if h.runs]
    if trusted:
        report.add("ok", "trust", f"{len(trusted)} hookwise hook(s) trusted (hash) in {config}")
    hooks_json = settings_path("codex", "project", project, env)
    if hooks_json.exists():
        try:
            config_text: str | None = config.read_text(encoding="utf-8")
        except OSError:
            config_text = None
        level, directory = codex_project_trust(project, config_text, env)
        if level != "trusted":
            shown = f'"{level}"' if level else "not set"
            report.add(
                "fail",
                "trust",
                f"{project} is not a trusted Codex project (trust_level {shown}): Codex does "
                f"not load {hooks_json}; trust it with `hookwise hooks trust --host codex "
                f"--folder` (after reviewing it), or add [projects.{toml_string(str(directory))}] "
                f'trust_level = "trusted" to {config}',
            )
        else:
            report.add("ok", "trust", f"project trusted ({directory} in {config})")
    return not_running


# --------------------------------------------------------------------------- self-test


@dataclass
class SelfTest:
    command: str
    exit_code: int | None
    stdout: str
    stderr: str
    seconds: float
    timed_out: bool = False


def run_command(
    host: str,
    command: str,
    payload: dict[str, Any],
    *,
    cwd: Path,
    env: Mapping[str, str],
    timeout: float,
) -> SelfTest:
    """Run a hook command as the host does: through its shell, the event on stdin."""
    shell = [*host_info(host).shell, command]
    started = time.perf_counter()
    try:
        done = subprocess.run(
            shell,
            input=json.dumps(payload).encode(),
            capture_output=True,
            cwd=cwd,
            env={**env, "HOOKWISE_AUDIT": "0"},
            timeout=timeout,
            check=False,
        )
    except subprocess.TimeoutExpired as exc:
        out = exc.stdout.decode("utf-8", "replace") if exc.stdout else ""
        return SelfTest(command, None, out, "", time.perf_counter() - started, True)
    except OSError as exc:
        return SelfTest(command, 127, "", str(exc), time.perf_counter() - started)
    return SelfTest(
        command,
        done.returncode,
        done.stdout.decode("utf-8", "replace"),
        done.stderr.decode("utf-8", "replace"),
        time.perf_counter() - started,
    )


def host_reading(host: str, event: str, test: SelfTest) -> str | None:
    """Why ``host`` would not accept this answer as a valid one; None when it would."""
    if host_info(host).hooks_layout == "plugin":  # hookwise's plugin answers for the host
        return plugin_reading(event, test.stdout, test.exit_code)
    from hookwise.policy.adapters import adapter

    own = getattr(adapter(host), "answer_problem", None)
    if own is not None:  # the host's adapter reads its answers (every form but Codex's)
        problem: str | None = own(event, test.stdout, test.stderr, test.exit_code)
        return problem
    from hookwise.host.codex_dialect import read as codex_read
    from hookwise.protocol.codex import CODEX

    reading = codex_read(CODEX.events[event], test.stdout, test.stderr, test.exit_code)
    if reading.kind == "failed":
        return f"Codex rejects it ({reading.problem}) and runs the tool"
    if reading.kind == "text":
        return "plain text, not a JSON answer"
    return None


def _same_answer(stdout_a: str, stdout_b: str) -> bool:
    def parsed(text: str) -> Any:
        try:
            return json.loads(text) if text.strip() else {}  # no output is an empty answer
        except ValueError:
            return text.strip()

    return bool(parsed(stdout_a) == parsed(stdout_b))


def self_test(
    host: str,
    command: str,
    *,
    timeout_s: float,
    project: Path,
    env: Mapping[str, str],
    compiled: dict[str, Any],
) -> Check:
    """Run the registered command on a synthetic pre-tool event and judge its answer."""
    from hookwise.policy.pipeline import decide
    from hookwise.policy.tools.payloads import build_payload
    from hookwise.protocol.hosts import input_fields

    event = host_info(host).pre_tool_event
    # the fields the host's table says its pre-tool payload carries: a call id only where
    # the host sends one
    carries_id = "tool_use_id" in input_fields(host, event)
    payload = build_payload(
        host,
        event,
        tool=host_info(host).shell_tool,
        tool_input={"command": PROBE_COMMAND},
        cwd=str(project),
        session="hookwise-doctor",
        extra={"tool_use_id": "hookwise-doctor"} if carries_id else None,
    )
    test = run_command(
        host, command, payload, cwd=project, env=env, timeout=min(timeout_s, SELF_TEST_CAP_S)
    )
    shown = f"{test.seconds * 1000:.0f} ms"
    if test.timed_out:
        return Check(
            "fail",
            "self-test",
            f"`{command}` gave no answer within {timeout_s:g} s: {HOST_TITLES[host]} then "
            "runs the tool",
        )
    problem = host_reading(host, event, test)
    if problem is not None:
        stderr = test.stderr.strip().splitlines()
        tail = f"; stderr: {stderr[-1]}" if stderr else ""
        return Check("fail", "self-test", f"`{command}` on {event}: {problem}{tail}")
    expected = decide(payload, compiled, host, dict(env), now=time.time())
    answer = expected.answer
    answered = test.stdout.strip() or "(no output)"
    if answer.exit_code != test.exit_code or not _same_answer(answer.stdout, test.stdout):
        return Check(
            "warn",
            "self-test",
            f"{event} answered exit {test.exit_code} {answered}, but this hookwise answers "
            f"exit {answer.exit_code} {answer.stdout or '(no output)'}: the registered command "
            "runs another hookwise or policy",
        )
    decision = expected.decision.decision if expected.decision else None
    return Check(
        "ok",
        "self-test",
        f"{event} ({PROBE_COMMAND!r}) answered exit {test.exit_code} {answered} in {shown}"
        + (f" (decision: {decision})" if decision else ""),
    )


# --------------------------------------------------------------------------- per host


def _timeout_s(host: str, value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return value / 1000.0 if host_info(host).timeout_unit == "ms" else float(value)


def check_host(
    host: str,
    project: Path,
    env: Mapping[str, str],
    compiled: dict[str, Any],
    *,
    explicit: bool = False,
    run_self_test: bool = True,
    start: Path | None = None,
) -> HostReport:
    """``start``: the directory the host would be started in, when not ``project`` (doctor
    run in a subdirectory): the host's own loader reads its settings as started there
    (Claude Code and Gemini CLI read the project settings of their start directory only,
    red team s28 F6), so a registration in ``project``'s files is not one here."""
    report = HostReport(host)
    report.events_used = policy_events(compiled, host)
    written = _written(host, project, env, report)
    probe = HostReport(host)
    here = start if start is not None and host_info(host).settings_loader in _OWN_LOADERS else None
    loaded = _entries(host, project, env, probe, here)
    registered = loaded.registered
    report.registered = registered
    report.installed = bool(written or registered)
    from hookwise.policy.install.mcp_entries import mcp_checks

    servers = mcp_checks(host, project, env)
    for status, detail in servers:
        report.add(status, "mcp", detail)
    # mcp_checks says "ok" exactly for the servers that run through the proxy
    proxied = any(status == "ok" for status, _ in servers)
    for status, detail in _elicitation_checks(host, loaded, proxied):
        report.add(status, "mcp", detail)
    # a settings env reaches MCP servers (the proxy) whether or not the hook is installed
    report.checks.extend(c for c in probe.checks if c.name == "settings env")
    for detail in _handler_checks(host, project, env):
        report.add("warn", "handler", detail)
    if not report.installed:
        status = "fail" if explicit else "info"
        report.add(status, "registered", f"not installed (`hookwise install {host}`)")
        return report
    report.checks.extend(c for c in probe.checks if c.name != "settings env")
    report.add("info", "failure", failure_story(host))
    if host_info(host).verified == "reference":
        report.add("info", "reference", reference_story(host))
    if "runtime" not in host_info(host).supports:
        report.add("info", "trust", trust_story(host))
    if host_info(host).hooks_layout == "plugin":
        for status, name, detail in plugin_checks(host, project, env, compiled, registered):
            report.add(status, name, detail)
    running = [r for r in registered if r.runs]
    unseen: dict[str, list[str]] = {}
    for origin in sorted(written - {r.origin for r in registered} - loaded.merged):
        path, _, pointer = origin.partition("#")
        unseen.setdefault(path, []).append(pointer.split("/")[2])
    for path, events in unseen.items():
        why = "does not load it here (see the checks above)"
        if here is not None and here != project:
            why = (
                f"started in {here} reads the project settings of {here}, not these: not "
                f"registered here (a project-scope install holds for sessions started in "
                f"{project}; `hookwise install {host} --scope user` holds in every directory)"
            )
        report.add(
            "fail",
            "registered",
            f"{path} registers hookwise on {', '.join(dict.fromkeys(events))}, but "
            f"{HOST_TITLES[host]} {why}",
        )
    for entry in registered:
        if not entry.runs and entry.origin in loaded.switched_off:
            report.add("fail", "switch", f"{entry.origin}: {loaded.switched_off[entry.origin]}")
    by_event: dict[str, list[Registered]] = {}
    for entry in running:
        by_event.setdefault(entry.event, []).append(entry)
    if by_event:
        listed = ", ".join(
            f"{event} ({', '.join(sorted({e.scope for e in entries}))})"
            for event, entries in by_event.items()
        )
        report.add("ok", "registered", f"runs on {listed}")
    known = {_origin_event(origin) for origin in written}
    known |= {entry.event for entry in registered}
    # an event hookwise is written on but that does not run has its own failure above
    missing = [e for e in report.events_used if e not in by_event and e not in known]
    if missing:
        report.add(
            "fail",
            "events",
            f"the policy uses {', '.join(missing)} but hookwise is not registered there "
            f"(run `hookwise install {host}` again)",
        )
    unused = [event for event in by_event if event not in report.events_used]
    if unused:
        report.add("info", "events", f"registered on {', '.join(unused)}, which no rule uses")
    needed = timeout_seconds(compiled)
    _copies_check(host, loaded, written, report)
    for entries in by_event.values():
        for entry in entries:
            _check_entry(
                host, entry, needed, report, relay=bool(compiled["settings"].get("approvals"))
            )
    _check_portability(registered, env, report)
    if "ask_note" in host_info(host).install_steps:  # (what install says, checked)
        report.add(*_ask_check(compiled["settings"]))
    if run_self_test:
        pre = by_event.get(host_info(host).pre_tool_event) or [
            e for es in by_event.values() for e in es
        ]
        tested: set[str] = set()
        for entry in pre:
            if entry.command in tested:
                continue
            tested.add(entry.command)
            seconds = _timeout_s(host, entry.timeout) or 600.0
            report.checks.append(
                self_test(
                    host,
                    entry.command,
                    timeout_s=seconds,
                    project=project,
                    env=env,
                    compiled=compiled,
                )
            )
    return report


def _ask_check(settings: Mapping[str, Any]) -> tuple[str, str, str]:
    status, text = gemini_ask_story(settings)
    return status, "ask", text


def _check_portability(
    registered: list[Registered], env: Mapping[str, str], report: HostReport
) -> None:
    """A command in a shared (committed) settings file must run on a teammate's machine;
    one that names a path of this machine fails there with 127, which hosts ignore."""
    launcher = launcher_path(dict(env))
    seen: set[str] = set()
    for entry in registered:
        if entry.command in seen:
            continue
        seen.add(entry.command)
        if direct_inherits_limits(entry.command):
            form = "--console" if "hookwise hook" in entry.command else "--direct"
            report.add(
                "warn",
                "limits",
                f"{entry.origin.partition('#')[0]}: the registered command runs the hook "
                "directly and checks no resource limits: a tool call that lowers its host's "
                "(`prlimit --pid`: a small stack) kills the hook before its first line and "
                f"the host runs the tool; `hookwise install {report.host} {form}` (or without "
                "the option: the portable command) rewrites it with the check",
            )
        paths = machine_paths(entry.command)
        if paths and entry.scope == "project":
            report.add(
                "warn",
                "portable",
                f"{entry.origin.partition('#')[0]}: the command names {paths[0]}, a path of "
                "this machine; on another machine it is not found (exit 127) and the host "
                f"runs the tool. `hookwise install {report.host}` writes a portable command",
            )
        elif follows_any_session_file(entry.command):
            report.add(
                "warn",
                "portable",
                f"{entry.origin.partition('#')[0]}: the registered command is the form "
                "written before s28: it runs the program named in /tmp/hookwise-run-<uid>/"
                "launcher outside `hookwise run` too, so one write there takes every hook "
                f"(red team s28 F4); `hookwise install {report.host}` rewrites it",
            )
        elif reads_mounts_through_a_pipe(entry.command):
            report.add(
                "warn",
                "portable",
                f"{entry.origin.partition('#')[0]}: the registered command is the form "
                "written in s29: inside `hookwise run`, under dash (the /bin/sh of Debian "
                "and Ubuntu, which Claude Code runs hooks with) it reads the mounts through "
                "`$(...)`, a pipe a process of the session can hold open so that the hook "
                f"never answers (red team s30 run #2); `hookwise install {report.host}` "
                "rewrites it",
            )
        elif inherits_limits(entry.command):
            report.add(
                "warn",
                "portable",
                f"{entry.origin.partition('#')[0]}: the registered command is a form written "
                "before s32: it runs the hook under whatever resource limits its host has, "
                "which a tool call can set (`prlimit --pid`, from any program): a small stack "
                "kills the hook before its first line and the host runs the tool, a file "
                "size limit cuts the bytecode every later hook imports (red team s31 run #2, "
                f"#6); `hookwise install {report.host}` rewrites it",
            )
        elif is_portable_command(entry.command) and not os.access(launcher, os.X_OK):
            report.add(
                "info",
                "portable",
                f"no fast launcher at {launcher}: the hook runs `hookwise` from PATH "
                f"(slower); `hookwise install {report.host}` writes it",
            )


def _check_entry(
    host: str, entry: Registered, needed: int, report: HostReport, *, relay: bool = False
) -> None:
    if entry.event in tool_matcher_events(host) and entry.matcher not in (None, "", MATCH_ALL):
        report.add(
            "warn",
            "matcher",
            f"{entry.origin}: matcher {entry.matcher!r}: hookwise sees only those tools' "
            f"{entry.event} events (install writes {MATCH_ALL!r})",
        )
    seconds = _timeout_s(host, entry.timeout)
    if seconds is None:
        return
    in_ms = host_info(host).timeout_unit == "ms"
    if in_ms and entry.timeout < 1000:
        report.add(
            "fail",
            "timeout",
            f"{entry.origin}: timeout {entry.timeout} ms: {HOST_TITLES[host]} counts "
            "milliseconds, so the hook is killed before it answers (and the tool runs)",
        )
    elif not in_ms and seconds > 3600:
        report.add(
            "warn",
            "timeout",
            f"{entry.origin}: timeout {entry.timeout} s: {HOST_TITLES[host]} counts seconds "
            "(milliseconds written by mistake?)",
        )
    elif seconds < needed:
        report.add(
            # the relay waits up to settings.approvals.wait: a host that kills the hook
            # first lets the tool run, so that is a failure, not a warning
            "fail" if relay else "warn",
            "timeout",
            f"{entry.origin}: timeout {seconds:g} s, but the policy's validators"
            f"{' and the approval relay' if relay else ''} may need {needed} s "
            f"(`hookwise install {host}` writes that)",
        )


def confinement_check(env: dict[str, str], settings: Mapping[str, Any]) -> Check:
    """Whether this process runs inside `hookwise run`, and what that means for the agents
    started from here (settings.require_confinement denies their tool calls otherwise)."""
    from hookwise.policy import confinement

    confined, why = confinement.confinement_status(env)
    if confined:
        return Check("ok", "confinement", f"{why}: the guard's files are read-only here")
    required = bool(settings.get("require_confinement", False))
    if required:
        return Check(
            "warn",
            "confinement",
            f"{why}; settings.require_confinement is on, so agents started from here are "
            "denied every tool call: start them as `hookwise run -- <agent>`",
        )
    return Check(
        "info",
        "confinement",
        f"{why}: an agent started from here can rewrite the guard's files with an ordinary "
        "tool call; start agents as `hookwise run -- <agent>` (docs/confinement.md)",
    )


def audit_check(env: dict[str, str], settings: Mapping[str, Any]) -> list[Check]:
    """A warning while records the audit log could not take are kept beside it (a lease or
    lock another process held on it: audit.append), naming where."""
    from hookwise.policy import audit

    path = audit.audit_path(dict(settings), env)
    kept = audit.pending(path)
    if not kept:
        return []
    return [
        Check(
            "warn",
            "audit log",
            f"{len(kept)} record(s) are kept in {audit.pending_dir(path)}: a process held a "
            f"lease or lock on {path} when they were written, or the hook's file size limit "
            "(RLIMIT_FSIZE, set on its host: `prlimit --pid <host>`) was below the log's "
            "size (the hook said which on stderr); the next hook call that can write the log "
            "appends them",
        )
    ]


def env_file_checks(project: Path, env: dict[str, str]) -> list[Check]:
    """A warning per env file a host loads (or a Gemini extension's settings) that sets a
    variable changing what its hooks run, naming the file and the variables."""
    from hookwise.config.env_files import planted

    return [
        Check(
            "warn",
            "env files",
            f"{path} ({where}) sets {', '.join(names)}: these change what a hook runs "
            "(BASH_ENV and ENV run a script before every hook command, PATH and LD_* the "
            "programs, LOCPATH, LC_* and LANG the locale an interpreter starts in, HOME, "
            "XDG_* and HOOKWISE_* where hookwise's files are); remove them "
            "unless you put them there (`hookwise run` refuses to start while they are set)",
        )
        for path, where, names in planted(str(project), env)
    ]


def diagnose(
    project: Path,
    env: Mapping[str, str] | None = None,
    *,
    hosts: tuple[str, ...] = hosts_with("install"),
    explicit: bool = False,
    run_self_test: bool = True,
    start: Path | None = None,
) -> DoctorReport:
    """The whole report for ``project`` (``explicit``: the hosts were asked for by name;
    ``start``: the directory a host would be started in, when not ``project``)."""
    environ = dict(os.environ if env is None else env)
    project = Path(os.path.abspath(project))
    policy, compiled = check_policy(project, environ)
    relay_config = compiled["settings"].get("approvals")
    if relay_config and run_self_test:
        from hookwise.policy.approvals import relay

        status, detail = relay.probe(relay_config, environ, str(project))
        policy.checks.append(Check(status, "approvals", detail))
    policy.checks.append(confinement_check(environ, compiled["settings"]))
    policy.checks += env_file_checks(project, environ)
    policy.checks += audit_check(environ, compiled["settings"])
    from hookwise.policy.install.session_launcher import session_launcher_checks

    policy.checks += [Check(s, "session launcher", d) for s, d in session_launcher_checks()]
    from hookwise.policy.install.limits_check import limit_checks
    from hookwise.policy.install.path_check import path_checks

    policy.checks += [Check(s, "limits", d) for s, d in limit_checks()]
    policy.checks += [Check(s, "PATH", d) for s, d in path_checks(environ)]
    from hookwise.policy.install.startup_check import startup_checks

    policy.checks += [Check(s, "start-up files", d) for s, d in startup_checks(environ)]
    reports = [
        check_host(
            host,
            project,
            environ,
            compiled,
            explicit=explicit,
            run_self_test=run_self_test,
            start=start,
        )
        for host in hosts
    ]
    if not compiled.get("errors"):  # an export of a broken policy would say nothing true
        from hookwise.policy.export.build import EXPORTERS
        from hookwise.policy.install.native_doctor import native_report

        for report in reports:
            if report.host in EXPORTERS:
                report.native, found = native_report(report.host, project, environ, compiled)
                for status, detail in found:
                    report.add(status, "native", detail)
    return DoctorReport(str(project), policy, reports)


__all__ = [
    "Check",
    "DoctorReport",
    "HostReport",
    "PolicyReport",
    "Registered",
    "check_host",
    "check_policy",
    "diagnose",
    "host_reading",
    "self_test",
]
