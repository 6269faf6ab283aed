"""``scan_project``: every source of every host, analysed and judged, in one report."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path

from hookwise.config.hookwise_command import runs_only_hookwise
from hookwise.mcp_proxy import impostor, wrapped
from hookwise.protocol.hosts import HOST_NAMES, elicitation_events, hosts_with
from hookwise.protocol.hosts import host as host_info
from hookwise.scan import catalog
from hookwise.scan.analysis.analyse import analyse_runnable
from hookwise.scan.context import ScanContext
from hookwise.scan.findings import env_findings, merge_findings, runnable_findings
from hookwise.scan.locate import file_text, json_line
from hookwise.scan.model import EnvSetting, Finding, Gate, Runnable, ScanReport, Severity
from hookwise.scan.rules import RULES
from hookwise.scan.sources.hooks import (
    claude_hooks,
    claude_repository_gate,
    codex_hooks,
    codex_loads,
    gemini_hooks,
    gemini_repository_gate,
    gemini_settings,
    load_claude,
)
from hookwise.scan.sources.hookwise_commands import policy_validators, turn_hooks
from hookwise.scan.sources.host_files import file_host_hooks, file_host_mcp
from hookwise.scan.sources.mcp import claude_mcp, codex_mcp, gemini_mcp
from hookwise.scan.sources.plugins import PLUGIN_KIND, plugin_host_runnables
from hookwise.scan.sources.settings_commands import (
    claude_env,
    claude_helpers,
    codex_env,
    gemini_env,
)
from hookwise.scan.sources.start_dirs import ABOVE_SCOPE, start_dir_mcp, start_dirs

__all__ = ["scan_project"]

# The hosts whose sources have loaders of their own (above); every other host scan reads
# through its registry row (sources/host_files.py).
_OWN_SOURCES = ("claude", "gemini", "codex")


def _collect(ctx: ScanContext, report: ScanReport) -> list[Finding]:
    """Fill ``report`` with every runnable and variable; return the findings of sources."""
    extra = _hosts(ctx, report)
    codex_home = _codex_home(ctx)
    report.runnables += start_dir_mcp(ctx, codex_home)
    dirs, warnings = start_dirs(ctx)
    report.warnings += warnings
    extra += _started_in(ctx, report, dirs)
    for runnables, warnings in (
        plugin_host_runnables(ctx),
        turn_hooks(ctx),
        policy_validators(ctx),
    ):
        report.runnables += runnables
        report.warnings += warnings
    return extra


def _codex_home(ctx: ScanContext) -> Path | None:
    real, _everything = codex_loads(ctx)
    return next((layer.folder for layer in real.layers if layer.name == "user"), None)


def _key(runnable: Runnable) -> tuple[str, str, str, str, int]:
    return runnable.host, runnable.kind, runnable.name, runnable.file, runnable.line


def _started_in(ctx: ScanContext, report: ScanReport, dirs: list[Path]) -> list[Finding]:
    """The hooks, MCP servers and variables of the host settings in each other directory of
    the repository a host may be started in (``pkg/.claude/settings.json``, a planted
    ``pkg/.gemini/settings.json``: red team s29), read by the same loaders as the project's,
    as the host started there reads them, so judged as the same content is at the root.
    Only what is written in that directory is taken (the user's files and the layers above
    it are the project's run's, each reported once)."""
    seen = {_key(r) for r in report.runnables}
    found: list[Finding] = []
    for directory in dirs:
        here = ScanReport(project=str(directory))
        extra = _hosts(replace(ctx, project=directory), here)

        def inside(path: str, directory: Path = directory) -> bool:
            return Path(path).is_relative_to(directory)

        for runnable in here.runnables:
            if inside(runnable.file) and _key(runnable) not in seen:
                seen.add(_key(runnable))
                report.runnables.append(runnable)
        report.env_settings += [e for e in here.env_settings if inside(e.file)
                                and e not in report.env_settings]  # fmt: skip
        report.files += [f for f in here.files if inside(f)]
        report.warnings += [w for w in here.warnings if w not in report.warnings]
        found += [f for f in extra if inside(f.file)]
    return found


def _hosts(ctx: ScanContext, report: ScanReport) -> list[Finding]:
    """Each host's hooks, MCP servers and variables for a host started in ``ctx.project``
    (the plugin hosts and hookwise's own: :func:`_collect`)."""
    extra: list[Finding] = []
    claude = load_claude(ctx)
    claude_gate = claude_repository_gate(ctx)
    loaded = claude_hooks(ctx, claude)
    report.runnables += loaded.runnables
    report.warnings += loaded.warnings
    report.files += loaded.files
    report.runnables += claude_helpers(ctx, claude, claude_gate)
    report.env_settings += claude_env(claude, claude_gate)
    servers, self_approved = claude_mcp(ctx, claude, claude_gate)
    report.runnables += servers
    for origin in self_approved:
        text = file_text(origin) or ""
        line = (
            json_line(text, ["enableAllProjectMcpServers"])
            or json_line(text, ["enabledMcpjsonServers"])
            or 1
        )
        extra.append(
            Finding(
                "self-approved-mcp",
                RULES["self-approved-mcp"].severity,
                "claude project settings approve the repository's own .mcp.json servers",
                origin,
                line,
            )
        )

    settings = gemini_settings(ctx)
    gemini_gate = gemini_repository_gate(settings)
    loaded = gemini_hooks(ctx, settings)
    report.runnables += loaded.runnables
    report.warnings += loaded.warnings
    report.files += loaded.files
    report.runnables += gemini_mcp(ctx, settings, gemini_gate)
    report.env_settings += gemini_env(ctx, settings, gemini_gate[0])

    real, everything = codex_loads(ctx)
    loaded = codex_hooks(ctx, real, everything)
    report.runnables += loaded.runnables
    report.warnings += loaded.warnings
    report.files += loaded.files
    report.runnables += codex_mcp(ctx, real, everything)
    report.env_settings += codex_env(ctx, real, everything)

    for name in hosts_with("scan"):
        if name in _OWN_SOURCES or host_info(name).hooks_layout == "plugin":
            continue  # (the plugin hosts: sources/plugins.py, below)
        loaded = file_host_hooks(ctx, name)
        report.runnables += loaded.runnables
        report.warnings += loaded.warnings
        report.files += loaded.files
        report.runnables += file_host_mcp(ctx, name)
    return extra


def _remote_findings(runnable: Runnable) -> list[Finding]:
    if not runnable.repository or catalog.is_loopback(runnable.url):
        return []
    if runnable.kind == "http-hook":
        rule, message = (
            "http-hook",
            f"claude {runnable.scope} {runnable.name} http hook posts every event to "
            + runnable.url,
        )
    else:
        rule, message = (
            "remote-mcp",
            f"{runnable.host} {runnable.scope} remote MCP server {runnable.name!r} at "
            + runnable.url,
        )
    severity = RULES[rule].severity
    if runnable.gate is Gate.NO_PROMPT and severity.rank >= Severity.MEDIUM.rank:
        severity = severity.raised()
    return [Finding(rule, severity, message, runnable.file, runnable.line, runnable, runnable.url)]


def _plugin_finding(runnable: Runnable) -> Finding:
    """A plugin the agent loads (not hookwise's own): medium from the repository, low from
    the user's own configuration, noted when it is off."""
    severity = RULES["agent-plugin"].severity if runnable.repository else Severity.LOW
    message = f"{runnable.host} {runnable.scope} plugin {runnable.name!r} runs inside the agent"
    if runnable.gate is Gate.OFF:
        message += f" (not run as configured: {runnable.gate_detail})"
    return Finding("agent-plugin", severity, message, runnable.file, runnable.line, runnable)


def _unguarded(runnable: Runnable, env: Mapping[str, str]) -> Finding | None:
    """An MCP server whose tool calls no ``hookwise mcp wrap`` decides."""
    if runnable.kind == "mcp-remote":
        how = f"remote MCP server {runnable.name!r} ({runnable.url}): the proxy cannot wrap it"
    elif runnable.kind == "mcp-server" and runnable.transport and wrapped(runnable.argv or ()):
        # dressed as the guard, reached over the network (red team s26 F2)
        how = f"MCP server {runnable.name!r} is not the proxy it names: {runnable.transport}"
    elif runnable.kind == "mcp-server" and runnable.transport:
        how = f"MCP server {runnable.name!r} is not covered: {runnable.transport}"
    elif runnable.kind == "mcp-server" and not wrapped(runnable.argv or ()):
        how = f"MCP server {runnable.name!r} does not run through `hookwise mcp wrap`"
    elif runnable.kind == "mcp-server" and (
        why := impostor(
            runnable.argv or (), env, dict(runnable.env), runnable.name, require_pinned=False
        )
    ):
        how = f"MCP server {runnable.name!r} runs through a program that is not the proxy: {why}"
    elif runnable.kind == "mcp-server" and (
        why := impostor(runnable.argv or (), env, dict(runnable.env), runnable.name)
    ):
        how = (
            f"MCP server {runnable.name!r} runs through the proxy, but not the proxy install "
            f"writes: {why}"
        )
    else:
        return None
    message = f"{runnable.host} {runnable.scope} {how}"
    if runnable.gate is Gate.OFF:
        message += f" (not run as configured: {runnable.gate_detail})"
    rule = "mcp-unguarded"
    severity = RULES[rule].severity
    if "not the proxy" in how and runnable.repository:
        severity = Severity.HIGH  # a repository's entry dressed as the guard: it is no guard
    if runnable.scope == ABOVE_SCOPE:  # outside the project, started in every one below it
        severity = Severity.HIGH
    return Finding(rule, severity, message, runnable.file, runnable.line, runnable)


def _answers_elicitation(runnable: Runnable, http: set[tuple[str, int]]) -> Finding | None:
    """A hook (not hookwise's own) on an event whose answer accepts or changes an MCP
    server's question for the user: it decides the proxy's asks too. ``http``: where the
    http hooks are, reported with their URL rather than as a hook without a command."""
    if runnable.kind not in ("hook", "http-hook") or runnable.host not in HOST_NAMES:
        return None
    if runnable.kind == "hook" and not runnable.command and (runnable.file, runnable.line) in http:
        return None
    role = elicitation_events(runnable.host).get(runnable.name)
    if role is None:
        return None
    if runnable.kind == "hook" and runnable.argv is None and runs_only_hookwise(runnable.command):
        return None  # hookwise's own: it declines or leaves the question to the user
    rule = "elicitation-hook"
    severity = RULES[rule].severity if runnable.repository else Severity.LOW
    if runnable.gate is Gate.NO_PROMPT:
        severity = severity.raised()
    what = (
        "answer an MCP server's question for the user"
        if role == "question"
        else "change the user's answer to an MCP server's question"
    )
    message = (
        f"{runnable.host} {runnable.scope} {runnable.name} hook can {what}; an `ask` of "
        "`hookwise mcp wrap` is such a question"
    )
    if runnable.gate is Gate.OFF:
        message += f" (not run as configured: {runnable.gate_detail})"
    evidence = (runnable.url or runnable.command)[:300]
    return Finding(rule, severity, message, runnable.file, runnable.line, runnable, evidence)


def scan_project(ctx: ScanContext) -> ScanReport:
    """What every agent would run on its own for ``ctx.project`` and this user, judged."""
    report = ScanReport(project=str(ctx.project))
    findings = _collect(ctx, report)
    http = {(r.file, r.line) for r in report.runnables if r.kind == "http-hook"}
    for index, runnable in enumerate(report.runnables):
        unguarded = _unguarded(runnable, ctx.env)
        if unguarded is not None:
            findings.append(unguarded)
        answers = _answers_elicitation(runnable, http)
        if answers is not None:
            findings.append(answers)
        if runnable.kind in ("http-hook", "mcp-remote"):
            findings += _remote_findings(runnable)
            continue
        if (
            runnable.kind == "hook"
            and runnable.argv is None
            and runs_only_hookwise(runnable.command)
        ):
            continue  # hookwise's own hook: it reads the policy and answers, nothing more
        if runnable.kind == PLUGIN_KIND:
            findings.append(_plugin_finding(runnable))
        analysis = analyse_runnable(ctx, runnable)
        report.scripts[index] = analysis.scripts
        missing = [
            (ref.path, ref.file, ref.line)
            for ref in analysis.sink.scripts
            if ctx.inside(ref.path) and not os.path.exists(ref.path)
        ]
        findings += runnable_findings(runnable, analysis.sink.facts, missing)
        row = host_info(runnable.host) if runnable.host in HOST_NAMES else None  # (hookwise's)
        approval = row.hook_approval if row is not None else ""
        if row is not None and approval and runnable.gate in (Gate.TRUSTED, Gate.NO_PROMPT):
            inside = [s for s in analysis.scripts if ctx.inside(s.path)]
            if inside:
                findings.append(
                    Finding(
                        "trust-by-command-line",
                        Severity.INFO,
                        f"{runnable.host} project {runnable.name} hook: {row.title} trusts it by "
                        f"{approval} only; a change to {inside[0].path} runs with no new warning",
                        runnable.file,
                        runnable.line,
                        runnable,
                    )
                )
        for at, (name, value) in enumerate(runnable.env):
            lines = runnable.env_lines
            report.env_settings.append(
                EnvSetting(
                    runnable.host,
                    runnable.scope,
                    name,
                    value,
                    runnable.file,
                    lines[at] if at < len(lines) else runnable.line,
                    runnable.gate,
                    f"{runnable.kind} env",
                )
            )
    findings += env_findings(report.env_settings, str(ctx.project))
    report.findings = merge_findings(findings)
    report.files = sorted(set(report.files))
    return report
