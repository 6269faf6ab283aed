"""``hookwise coverage``: every tool call a host ran that hookwise never decided on, and why.

The hosts' own records (``scan.transcripts``) say which tool calls ran; hookwise's audit log says
which ones ``hookwise hook`` decided on (one record per pre-tool event it answered). A call
with no decision is *unguarded*. Each is given its likely cause, first match wins:

``hook-timeout`` / ``hook-failed``
    the host recorded that the hookwise hook timed out or failed on this call (Claude Code
    writes it in the transcript), or the audit log shows the decision came after the
    registered timeout (the host had stopped waiting);
``no-registration``
    the settings that apply to the session's directory register no hookwise hook on the
    host's pre-tool event that the host would run (none written, disabled, or untrusted);
``matcher-gap``
    hookwise is registered on that event, but no matcher of it matches the tool's name;
``subagent``
    hookwise is registered and matches, the call was a subagent's, and no decision came:
    the host did not run the hook for its subagent (public reports: CC#69260, CC#84701);
``unknown``
    registered, matching, not a subagent, and still no decision: the hook died before
    deciding without the host saying so, the audit log was off or elsewhere, or the
    settings changed since the session.

Causes are judged against the settings as they are now, read by the host loaders of
``hookwise.host`` (scopes, precedence, trust), with each host's own matcher semantics.
Tools for which the host fires no pre-tool hook at all (Codex's ``update_plan``...) are
counted apart, as ``outside_hooks``: no hook can guard them.

Joining: a record with the host's call id (``tool_use_id``, Claude Code and Codex) matches
that call exactly; otherwise (Gemini CLI, older audit logs) the first unused decision of
the same host, session (or the parent session, for a subagent), tool name and shell command
at or after the call's time, in order.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from hookwise.protocol.hosts import HOST_NAMES, HOST_TITLES, HOSTS, hosts_with
from hookwise.protocol.hosts import host as host_info
from hookwise.scan.transcripts.files import normal_time
from hookwise.scan.transcripts.model import HookTrouble, SessionRecord, ToolCall
from hookwise.scan.transcripts.records import read_records, record_files

JSON_VERSION = 1
CAUSES = ("hook-timeout", "hook-failed", "no-registration", "matcher-gap", "subagent", "unknown")
# A host stamps a call when the model's message is written, a moment before its hook runs;
# clocks are the same machine's, so a small slack covers write order.
TIME_SLACK_S = 5.0
# How many rotated audit files (audit.jsonl.1, .2, ...) are read at most.
MAX_ROTATED = 100


# --------------------------------------------------------------------------- the audit log


@dataclass
class Decision:
    """One pre-tool decision of ``hookwise hook`` from the audit log."""

    host: str
    session: str
    tool: str
    command: str | None
    time: str
    tool_use_id: str | None
    latency_ms: float | None
    decision: str
    used: bool = False


def audit_files(paths: Sequence[str]) -> list[str]:
    """Each audit log with its rotated predecessors (``.1`` newest), oldest first."""
    out: list[str] = []
    for path in paths:
        rotated = []
        for index in range(1, MAX_ROTATED + 1):
            older = f"{path}.{index}"
            if not os.path.exists(older):
                break
            rotated.append(older)
        out.extend(reversed(rotated))
        out.append(path)
    return out


def read_decisions(paths: Sequence[str], warnings: list[str]) -> list[Decision]:
    """The pre-tool decisions ``hookwise hook`` logged (explain/test records do not guard)."""
    return read_audit(paths, warnings)[0]


def read_audit(paths: Sequence[str], warnings: list[str]) -> tuple[list[Decision], list[Decision]]:
    """(the pre-tool decisions, the calls the host denied itself): the records ``hookwise
    hook`` logged for the host's pre-tool event, and for its own denial of a call
    (``permission.denied``: Claude Code's PermissionDenied, its auto mode refusing a call)."""
    from hookwise.policy import audit
    from hookwise.policy.canonical import PERMISSION_DENIED

    pre_tool: dict[str, str] = {name: info.pre_tool_event for name, info in HOSTS.items()}
    decisions: list[Decision] = []
    denials: list[Decision] = []
    for path in audit_files(paths):
        if not os.path.isfile(path):
            continue
        records = audit.read_records(path)
        bad = [number for number, record, _ in records if record is None]
        if bad:
            warnings.append(f"{path}: {len(bad)} line(s) are not JSON records (first: {bad[0]})")
        for _number, record, _raw in records:
            if record is None or record.get("source", "hook") != "hook":
                continue
            sender = record.get("sender")  # (stamped by a `hookwise run` session's sink)
            if sender is not None and not (isinstance(sender, dict) and sender.get("hook")):
                continue  # sent by a process inside that was no hook: a forgery (rt24 #5)
            host = record.get("host")
            canonical = record.get("canonical")
            denied = isinstance(canonical, list) and PERMISSION_DENIED in canonical
            if not isinstance(host, str) or (
                record.get("event") != pre_tool.get(host) and not denied
            ):
                continue
            claimed = sender.get("received") if isinstance(sender, dict) else None
            when = normal_time(claimed or record.get("time"))  # (the sink's time, not a claim)
            tool = record.get("host_tool")
            if when is None or not isinstance(tool, str):
                continue
            command = record.get("command")
            use_id = record.get("tool_use_id")
            latency = record.get("latency_ms")
            (denials if denied else decisions).append(
                Decision(
                    host=host,
                    session=str(record.get("session") or ""),
                    tool=tool,
                    command=command if isinstance(command, str) else None,
                    time=when,
                    tool_use_id=use_id if isinstance(use_id, str) and use_id else None,
                    latency_ms=float(latency)
                    if isinstance(latency, int | float) and not isinstance(latency, bool)
                    else None,
                    decision=str(record.get("decision") or "none"),
                )
            )
    decisions.sort(key=lambda d: d.time)
    denials.sort(key=lambda d: d.time)
    return decisions, denials


def _epoch(iso: str) -> float:
    import datetime as dt

    return dt.datetime.fromisoformat(iso).timestamp()


class DecisionIndex:
    """The decisions by call id and by (host, session), each usable once."""

    def __init__(self, decisions: Iterable[Decision]) -> None:
        self.by_id: dict[tuple[str, str], Decision] = {}
        self.by_session: dict[tuple[str, str], list[Decision]] = {}
        for decision in decisions:
            if decision.tool_use_id is not None:
                self.by_id.setdefault((decision.host, decision.tool_use_id), decision)
            self.by_session.setdefault((decision.host, decision.session), []).append(decision)

    def take(self, call: ToolCall, shell_tool: str) -> Decision | None:
        if call.call_id is not None:
            exact = self.by_id.get((call.host, call.call_id))
            if exact is not None and not exact.used:
                exact.used = True
                return exact
        sessions = [call.session]
        if call.parent_session and call.parent_session != call.session:
            sessions.append(call.parent_session)
        earliest = _epoch(call.time) - TIME_SLACK_S if call.time else None
        for session in sessions:
            for decision in self.by_session.get((call.host, session), ()):
                if decision.used or decision.tool != call.tool:
                    continue
                if decision.tool_use_id is not None and call.call_id is not None:
                    continue  # both carry ids and they differ
                if earliest is not None and _epoch(decision.time) < earliest:
                    continue
                if call.tool == shell_tool and not _same_command(decision.command, call.command):
                    continue
                decision.used = True
                return decision
        return None


def _same_command(logged: str | None, recorded: str | None) -> bool:
    """Whether the logged command (cut at COMMAND_LIMIT) is the recorded one; unknown: yes."""
    from hookwise.policy.hook import COMMAND_LIMIT

    if logged is None or recorded is None:
        return True
    if len(logged) >= COMMAND_LIMIT:
        return recorded.startswith(logged)
    return logged == recorded


# --------------------------------------------------------------------------- registrations


@dataclass
class Registration:
    """The hookwise hooks a host would run on its pre-tool event for one directory."""

    event: str
    matchers: list[Any] = field(default_factory=list)
    origins: list[str] = field(default_factory=list)
    timeouts_s: list[float] = field(default_factory=list)
    not_running: list[str] = field(default_factory=list)
    """hookwise hooks written but not run (disabled, untrusted), one line each."""
    error: str | None = None
    _match: Any = None

    def matches(self, tool: str, tool_input: Any) -> bool:
        return bool(self._match(tool, tool_input)) if self._match else False


def _hookwise_file(host: str, entry: Any) -> bool:
    """A hook that is a file of its own (a row whose layout is "script": Cline) is
    hookwise's when it is the file ``hookwise install`` writes, running hookwise's command."""
    from hookwise.config.files import read_file_text
    from hookwise.policy.install.hook_script import script_command

    if host_info(host).hooks_layout != "script" or not entry.origin:
        return False
    try:
        return script_command(read_file_text(entry.origin)) is not None
    except (OSError, ValueError):
        return False


class Registrations:
    """Registration per (host, directory), read once through the host's own loader."""

    def __init__(self, env: Mapping[str, str]) -> None:
        self.env = env
        self._cache: dict[tuple[str, str], Registration] = {}

    def get(self, host: str, cwd: str | None) -> Registration:
        key = (host, cwd or "")
        if key not in self._cache:
            self._cache[key] = self._load(host, cwd)
        return self._cache[key]

    def _load(self, host: str, cwd: str | None) -> Registration:
        from hookwise.config.hookwise_command import is_hookwise_command
        from hookwise.config.registry import Registry
        from hookwise.host.runtime import LoadOptions
        from hookwise.host.runtimes import runtime_for
        from hookwise.protocol.profiles import Profile

        event = host_info(host).pre_tool_event
        reg = Registration(event)
        if not cwd:
            reg.error = "the record names no working directory"
            return reg
        if not os.path.isdir(cwd):
            reg.error = f"the session's directory {cwd} no longer exists"
            return reg
        if host_info(host).hooks_layout == "plugin":
            return self._plugin(host, cwd, reg)
        # the real engine's reading (a runtime without profiles ignores it)
        runtime = runtime_for(host, Profile.GEMINI_CLI)
        try:
            loaded = runtime.load(cwd, LoadOptions(env=dict(self.env)))
        except Exception as exc:  # a loader bug must not hide the other sessions
            reg.error = f"cannot read {HOST_TITLES[host]}'s settings for {cwd}: {exc}"
            return reg
        ours = [
            e
            for e in loaded.registry.entries
            if e.event == event and (is_hookwise_command(e.command) or _hookwise_file(host, e))
        ]
        running = []
        for entry in ours:
            blocked = [line for line in loaded.untrusted if entry.origin and entry.origin in line]
            if not entry.enabled:
                reg.not_running.append(f"{entry.origin}: disabled")
            elif blocked:
                reg.not_running.append(blocked[0])
            else:
                running.append(entry)
        # hooks a loader left out of the registry for trust (Codex hashes, untrusted folders)
        for line in loaded.untrusted:
            if line not in reg.not_running and ("hookwise" in line or "trusted" in line):
                reg.not_running.append(line)
        reg.matchers = [e.matcher for e in running]
        reg.origins = [e.origin for e in running]
        for entry in running:
            value = entry.config.get("timeout")
            if isinstance(value, int | float) and not isinstance(value, bool) and value > 0:
                unit = host_info(host).timeout_unit
                reg.timeouts_s.append(value / 1000 if unit == "ms" else float(value))
        registry = Registry(entries=running)

        def match(tool: str, tool_input: Any) -> bool:
            payload: dict[str, Any] = {
                "hook_event_name": event,
                "tool_name": tool,
                "tool_input": tool_input if isinstance(tool_input, dict) else {},
            }
            context = runtime.match_context(event, payload)
            try:
                return runtime.plan(registry, event, payload, context, []) is not None
            except Exception:  # a matcher the engine itself would choke on
                return False

        reg._match = match
        return reg

    def _plugin(self, host: str, cwd: str, reg: Registration) -> Registration:
        """A host reached through hookwise's plugin: the plugin files it would load for
        ``cwd`` (the project's, in ``cwd`` or a parent up to the repository root, and the
        user's); the plugin runs on every tool, so a registration matches every call."""
        from pathlib import Path

        from hookwise.config.host_homes import config_dir
        from hookwise.policy.install.plugin_files import plugin_handlers

        info = host_info(host)
        candidates = [config_dir(host, self.env) / info.install_files["user"]]
        directory = Path(os.path.abspath(cwd))
        for folder in (directory, *directory.parents):
            candidates.append(folder / info.install_files["project"])
            if (folder / ".git").exists():
                break
        timeout_key = info.handler[1]
        for path in candidates:
            try:
                source = path.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                continue
            for _event, _index, handler in plugin_handlers(source, host):
                reg.matchers.append(None)
                reg.origins.append(str(path))
                reg.timeouts_s.append(handler[timeout_key] / 1000)
        reg._match = lambda _tool, _input: True
        return reg


# --------------------------------------------------------------------------- the report


@dataclass
class Unguarded:
    call: ToolCall
    cause: str
    detail: str

    def to_json(self) -> dict[str, Any]:
        call = self.call
        return {
            "host": call.host,
            "session": call.session,
            "agent": call.agent,
            "parent_session": call.parent_session,
            "call_id": call.call_id,
            "tool": call.tool,
            "recorded_tool": call.recorded_tool,
            "time": call.time,
            "cwd": call.cwd,
            "command": call.command,
            "input": summary(call.input),
            "cause": self.cause,
            "detail": self.detail,
            "file": call.file,
            "line": call.line,
        }


@dataclass
class SessionCoverage:
    record: SessionRecord
    calls: int = 0
    guarded: int = 0
    unguarded: list[Unguarded] = field(default_factory=list)
    outside: list[ToolCall] = field(default_factory=list)
    # calls the host denied itself (PermissionDenied in the audit log): they never ran, so
    # one with no hookwise decision is not unguarded
    denied_by_host: list[ToolCall] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        r = self.record
        return {
            "host": r.host,
            "session": r.session,
            "agent": r.agent,
            "parent_session": r.parent_session,
            "subagent": r.subagent,
            "cwd": r.cwd,
            "started": r.started,
            "file": r.file,
            "cli_version": r.cli_version,
            "calls": self.calls,
            "guarded": self.guarded,
            "unguarded": len(self.unguarded),
            "outside_hooks": len(self.outside),
            "denied_by_host": len(self.denied_by_host),
        }


@dataclass
class CoverageReport:
    hosts: list[str]
    since: str | None
    audit_logs: list[str]
    decisions: int
    sessions: list[SessionCoverage] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    @property
    def unguarded(self) -> list[Unguarded]:
        return [u for s in self.sessions for u in s.unguarded]

    def host_totals(self, host: str) -> dict[str, Any]:
        sessions = [s for s in self.sessions if s.record.host == host]
        causes: dict[str, int] = {}
        for s in sessions:
            for u in s.unguarded:
                causes[u.cause] = causes.get(u.cause, 0) + 1
        return {
            "title": HOST_TITLES[host],
            "sessions": len(sessions),
            "calls": sum(s.calls for s in sessions),
            "guarded": sum(s.guarded for s in sessions),
            "unguarded": sum(len(s.unguarded) for s in sessions),
            "outside_hooks": sum(len(s.outside) for s in sessions),
            "denied_by_host": sum(len(s.denied_by_host) for s in sessions),
            "causes": dict(sorted(causes.items())),
        }

    def to_json(self) -> dict[str, Any]:
        return {
            "version": JSON_VERSION,
            "since": self.since,
            "audit_logs": self.audit_logs,
            "decisions": self.decisions,
            "hosts": {host: self.host_totals(host) for host in self.hosts},
            "sessions": [s.to_json() for s in self.sessions],
            "unguarded": [u.to_json() for u in self.unguarded],
            "warnings": self.warnings,
        }


def summary(value: Any, limit: int = 300) -> str | None:
    """A tool input as one short line of JSON, for people and the report."""
    if value is None:
        return None
    import json

    try:
        line = json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)
    except (ValueError, RecursionError):
        line = repr(value)
    return line if len(line) <= limit else line[: limit - 1] + "…"


def _trouble_for(call: ToolCall, troubles: Sequence[HookTrouble], event: str) -> HookTrouble | None:
    from hookwise.config.hookwise_command import is_hookwise_command

    for trouble in troubles:
        if trouble.call_id != call.call_id or call.call_id is None:
            continue
        if trouble.event and trouble.event != event:
            continue
        if is_hookwise_command(trouble.command):
            return trouble
    return None


def cause_of(
    call: ToolCall, troubles: Sequence[HookTrouble], registrations: Registrations
) -> tuple[str, str]:
    """(cause, detail) for a call without a decision."""
    host = host_info(call.host)
    event = host.pre_tool_event
    trouble = _trouble_for(call, troubles, event)
    if trouble is not None:
        kind = "hook-timeout" if trouble.kind == "timeout" else "hook-failed"
        return kind, f"{host.title} recorded the hookwise hook on {event}: {trouble.detail}"
    reg = registrations.get(call.host, call.cwd)
    if reg.error is not None:
        return "unknown", reg.error
    where = f"the settings that apply to {call.cwd}"
    if not reg.matchers:
        detail = f"no hookwise hook on {event} that {host.title} would run in {where}"
        if reg.not_running:
            detail += "; written but not run: " + "; ".join(reg.not_running[:3])
        return "no-registration", detail
    if not reg.matches(call.tool, call.input):
        shown = ", ".join(repr(m) if m is not None else "(none)" for m in reg.matchers)
        return (
            "matcher-gap",
            f"hookwise is registered on {event} with matcher {shown} ({reg.origins[0]}), "
            f"which does not match the tool {call.tool!r}",
        )
    if call.agent is not None or call.parent_session is not None:
        return (
            "subagent",
            f"hookwise is registered on {event} and matches {call.tool!r}, but no decision "
            f"was recorded for this subagent's call: {host.title} did not run the hook for it",
        )
    return (
        "unknown",
        f"hookwise is registered on {event} and matches {call.tool!r}, yet no decision was "
        "recorded: the hook may have died before deciding (this host's record does not say), "
        "the audit log may have been off or elsewhere, or the settings changed since",
    )


def _late(decision: Decision, call: ToolCall, registrations: Registrations) -> str | None:
    """Why a decision came too late for the host to use it, or None."""
    if decision.latency_ms is None:
        return None
    reg = registrations.get(call.host, call.cwd)
    if not reg.timeouts_s:
        return None
    limit = max(reg.timeouts_s)
    if decision.latency_ms / 1000 > limit:
        return (
            f"hookwise decided after {decision.latency_ms / 1000:.1f} s, past the registered "
            f"timeout of {limit:g} s: {HOST_TITLES[call.host]} had stopped waiting"
        )
    return None


def build_report(
    *,
    hosts: Sequence[str] = hosts_with("coverage"),
    since: str | None = None,
    audit_logs: Sequence[str] | None = None,
    env: Mapping[str, str] | None = None,
) -> CoverageReport:
    """Read every record of ``hosts`` (calls at or after ``since``) and join it with the log."""
    environ = dict(os.environ if env is None else env)
    if audit_logs is None:
        from hookwise.policy import audit
        from hookwise.policy.rules.schema import default_settings

        audit_logs = [audit.audit_path(default_settings(), environ)]
    report = CoverageReport(list(hosts), since, list(audit_logs), 0)
    decisions, denials = read_audit(report.audit_logs, report.warnings)
    report.decisions = len(decisions)
    index = DecisionIndex(decisions)
    denied = DecisionIndex(denials)
    registrations = Registrations(environ)
    since_epoch = _epoch(since) if since else None
    records: list[SessionRecord] = []
    for host in hosts:
        for path in record_files(host, environ, since_epoch):
            records.extend(read_records(host, path, report.warnings))
    records.sort(key=lambda r: (r.started or "", r.file))
    # main sessions first, so a subagent's call never takes its parent's decision
    records.sort(key=lambda r: r.subagent)
    for record in records:
        coverage = SessionCoverage(record)
        shell_tool = host_info(record.host).shell_tool
        for call in record.calls:
            if since is not None and call.time is not None and call.time < since:
                continue
            if not call.hookable:
                coverage.outside.append(call)
                continue
            coverage.calls += 1
            decision = index.take(call, shell_tool)
            host_denied = denied.take(call, shell_tool) is not None
            if host_denied:
                coverage.denied_by_host.append(call)
            if decision is None and host_denied:
                continue  # the host refused it: it never ran
            if decision is not None:
                late = _late(decision, call, registrations)
                if late is None:
                    coverage.guarded += 1
                else:
                    coverage.unguarded.append(Unguarded(call, "hook-timeout", late))
                continue
            cause, detail = cause_of(call, record.troubles, registrations)
            coverage.unguarded.append(Unguarded(call, cause, detail))
        if coverage.calls or coverage.outside:
            report.sessions.append(coverage)
    report.sessions.sort(key=lambda s: (HOST_NAMES.index(s.record.host), s.record.started or ""))
    if not decisions and any(s.calls for s in report.sessions):
        report.warnings.append(
            f"no hookwise decision in {', '.join(report.audit_logs)}: every call counts as "
            "unguarded (is the audit log off, or kept elsewhere? see --audit-log)"
        )
    return report


def host_line(report: CoverageReport, host: str) -> tuple[str, str]:
    """(status, one line) summing up ``host`` for ``hookwise doctor --coverage``."""
    from hookwise.wording import count

    totals = report.host_totals(host)
    if not totals["sessions"]:
        return "info", "no session recorded" + (f" since {report.since}" if report.since else "")
    head = f"{count(totals['calls'], 'tool call')} in {count(totals['sessions'], 'session')}" + (
        f" since {report.since}" if report.since else ""
    )
    if totals["outside_hooks"]:
        head += f" (+{totals['outside_hooks']} no hook can see)"
    if totals["denied_by_host"]:
        head += f", {totals['denied_by_host']} denied by the host itself"
    if not totals["unguarded"]:
        return "ok", f"{head}: all guarded"
    causes = ", ".join(f"{cause} {n}" for cause, n in totals["causes"].items())
    return "warn", f"{head}: {totals['unguarded']} unguarded ({causes}); see `hookwise coverage`"
