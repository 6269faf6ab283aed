"""``hookwise doctor``'s drift of the native rules ``install --native`` wrote: entries edited
or removed by hand, stale against the current policy, or missing; and which rules the
host's own rules hold in full.

A rule is ``covered`` only when its export was complete (``covered``, never ``partial`` or
``none``) and every entry of it is in the file the host reads now; the others are listed
with their status, so no report claims more than the host enforces.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from hookwise.config.host_homes import config_dir
from hookwise.policy.export.build import EXPORTERS
from hookwise.policy.export.model import Export, header
from hookwise.policy.install.errors import InstallError
from hookwise.policy.install.native import export_for, native_target, rules_of
from hookwise.policy.install.native_permissions import current_entries
from hookwise.policy.install.native_record import (
    DECISIONS,
    MAX_NATIVE_BYTES,
    digest,
    read_record,
    regular_text,
)
from hookwise.protocol.hosts import host as host_info

Finding = tuple[str, str]  # (status, detail)


def _present(
    host: str,
    text: str | None,
    target: Path,
    export: Export,
    *,
    env: Mapping[str, str],
    project: Path,
) -> set[str]:
    """The export's entries the file holds now (whole files: all or none)."""
    if text is None:
        return set()
    if EXPORTERS[host].FILES:  # a whole file: the entries as its text holds them
        held = {n.entry for n in export.natives if n.entry in text}
        mcp_file = getattr(EXPORTERS[host], "MCP_FILE", None)
        if mcp_file is not None:  # and the MCP entries, in the servers' entries
            from hookwise.policy.install.codex_mcp_native import present

            held |= present(config_dir(host, env) / mcp_file, export.natives, project)
        return held
    found = current_entries(text, str(target), host_info(host).jsonc)
    return {n.entry for n in export.natives if n.entry in found[n.decision]}


def _preempted(
    found: tuple[list[dict[str, Any]], list[str]],
    state: dict[str, Any],
    drift: Callable[[str, str, str], None],
) -> None:
    """Rules of the host's other policy files that decide before these entries (Gemini:
    a higher or equal priority in the same or a higher tier), and why the host would not
    read these entries at all: the entries are then not what the host enforces."""
    rules, problems = found
    state["shadowed_by"] = rules
    for problem in problems:
        drift("unread", "fail", problem)
    for rule in rules:
        tie = " (the same priority: which one wins depends on the order the files are read)"
        drift(
            "shadowed",
            "fail" if rule["decision"] == "allow" else "warn",
            f"{rule['file']} rule #{rule['rule']} ({rule['tool']}, {rule['decision']}, "
            f"priority {rule['priority']}, {rule['tier']} tier) is decided before hookwise's "
            f"{rule['over']}{tie if rule['equal'] else ''}: it lets through what the policy "
            "refuses; remove it or lower its priority",
        )


# drift that install --native does not mend (the host's other files decide it)
_NOT_SYNCED = ("shadowed", "unread", "overridden", "absent")


def _mcp_drift(
    host: str,
    scope: str,
    export: Export,
    drift: Callable[[str, str, str], None],
    *,
    project: Path,
    env: Mapping[str, str],
) -> None:
    """Codex's MCP entries not held as Codex merges its layers: a server added since
    install (install --native writes it), a profile's or a project's list replacing the
    user's, a server no file defines (red team s27 F4, F7, F13)."""
    mcp_file = getattr(EXPORTERS[host], "MCP_FILE", None)
    if mcp_file is None or scope != "user":
        return
    from hookwise.policy.install.codex_mcp_native import gaps

    for entry, why in gaps(config_dir(host, env) / mcp_file, export.natives, project).items():
        for kind, detail in why:
            if kind == "user":
                drift("stale", "warn", f"not written yet: {entry} ({detail})")
            elif kind == "absent":
                drift("absent", "info", f"not held: {entry} ({detail})")
            else:
                drift("overridden", "fail", f"not held: {entry}: {detail}")


def _scope(
    host: str, scope: str, project: Path, env: Mapping[str, str], compiled: Mapping[str, Any]
) -> tuple[dict[str, Any], list[Finding]] | None:
    try:
        target = native_target(host, scope, project, env)
    except InstallError:
        return None  # no native file at this scope for this host
    export = export_for(host, scope, compiled)
    state: dict[str, Any] = {"file": str(target), "installed": False, "drift": []}
    findings: list[Finding] = []
    try:
        record = read_record(target, host)
        text = regular_text(target, MAX_NATIVE_BYTES, "native rules")
        present = _present(host, text, target, export, env=env, project=project)
    except InstallError as exc:
        state["drift"].append({"kind": "unreadable", "detail": str(exc)})
        return state, [("fail", str(exc))]
    whole = bool(EXPORTERS[host].FILES)
    ours = text is not None and text.startswith(header(host, "#")) if whole else False
    state["installed"] = record is not None or ours
    wanted = {n.entry for n in export.natives}

    def drift(kind: str, status: str, detail: str) -> None:
        state["drift"].append({"kind": kind, "detail": detail})
        findings.append((status, detail))

    if state["installed"]:
        if text is None:
            drift("missing", "fail", f"{target} is gone: its native rules are not enforced")
        elif whole:
            hand = record is None or digest(text) != record.written
            if hand:
                drift("edited", "fail", f"{target} was edited by hand since install --native")
            if text != export.content:
                now, then = rules_of(export.content), rules_of(text)
                gained = [r for r in now if r not in then]
                lost = [r for r in then if r not in now]
                what = [f"rules to add: {', '.join(gained)}"] if gained else []
                what += [f"rules no longer in the policy: {', '.join(lost)}"] if lost else []
                drift(
                    "stale",
                    "warn",
                    f"{target} differs from the policy's export now"
                    + (f" ({'; '.join(what)})" if what else ""),
                )
        else:
            recorded = {e for d in DECISIONS for e in (record.entries.get(d, []) if record else [])}
            removed = sorted(recorded & wanted - present)
            if removed:
                drift("edited", "fail", f"{target}: removed by hand: {', '.join(removed)}")
            found = current_entries(text, str(target), host_info(host).jsonc)
            listed = {e for d in DECISIONS for e in found[d]}
            old = sorted(recorded - wanted & listed)
            new = sorted(wanted - present - recorded)
            if old or new:
                parts = [f"no longer in the policy: {', '.join(old)}"] if old else []
                parts += [f"not written yet: {', '.join(new)}"] if new else []
                drift("stale", "warn", f"{target}: {'; '.join(parts)}")
        _mcp_drift(host, scope, export, drift, project=project, env=env)
        finder = getattr(EXPORTERS[host], "preempting_rules", None)
        if finder is not None and text is not None:
            _preempted(finder(text, target, env, project), state, drift)
        if any(d["kind"] not in _NOT_SYNCED for d in state["drift"]):
            findings.append(
                ("info", f"`hookwise install --native --host {host} --scope {scope}` syncs it")
            )
    elif wanted and scope == "user":
        drift(
            "missing",
            "info",
            f"not installed: {len(wanted)} native entr{'y' if len(wanted) == 1 else 'ies'} "
            f"would hold without any hook (`hookwise install --native --host {host}`)",
        )
    rules: dict[str, list[str]] = {"covered": [], "partial": [], "none": [], "not-enforced": []}
    for item in export.coverage:
        if item.entries and not set(item.entries) <= present:
            rules["not-enforced"].append(item.rule)  # exported, but not in the file now
        else:
            rules[item.status].append(item.rule)
    state["rules"] = rules
    if state["installed"] and all(status == "info" for status, _ in findings):
        unheld = f", not held now: {len(rules['not-enforced'])}" if rules["not-enforced"] else ""
        findings.append(
            (
                "ok",
                f"{target}: in sync; rules held in full: {len(rules['covered'])}, partly: "
                f"{len(rules['partial'])}, not expressible: {len(rules['none'])}{unheld}",
            )
        )
    return state, findings


def native_report(
    host: str, project: Path, env: Mapping[str, str], compiled: Mapping[str, Any]
) -> tuple[dict[str, Any], list[Finding]]:
    """Per scope: the native file's state, drift and rules; and the doctor's findings."""
    states: dict[str, Any] = {}
    findings: list[Finding] = []
    for scope in ("user", "project"):
        done = _scope(host, scope, project, env, compiled)
        if done is None:
            continue
        state, found = done
        if scope == "project" and not state["installed"] and not state["drift"]:
            continue  # nothing native in the project: not worth a line
        states[scope] = state
        findings += [(s, f"{scope}: {d}") for s, d in found]
    return states, findings


__all__ = ["native_report"]
