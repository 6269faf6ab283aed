"""Judging: the facts of one runnable (its command and every script it runs) -> findings.

Single facts map to rules (a download run by a shell is ``download-exec``); some rules need
two facts anywhere in what one runnable runs (a credential read and a network call is
``credential-exfiltration``, even when the script reads in one place and sends in another);
the runnable's context decides the rest (a repository's session-start command that reaches
the network; repository content that runs with no trust prompt raises every finding of
medium or more by one level).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from hookwise.policy.confinement import is_pinned
from hookwise.scan import catalog
from hookwise.scan.analysis.facts import Fact
from hookwise.scan.model import EnvSetting, Finding, Gate, Runnable, Severity
from hookwise.scan.rules import RULES

__all__ = ["env_findings", "merge_findings", "runnable_findings"]

SESSION_START: Final = frozenset(["SessionStart", "Setup", "TurnStart"])
STARTS_WITH_SESSION: Final = frozenset(["status-line", "helper", "mcp-server", "notify"])
CRED_STRONG: Final = frozenset(["cred-file", "keychain", "env-dump"])
NETWORK: Final = frozenset(["fetch", "send"])

_DIRECT: Final = {
    "download-exec": "download-exec",
    "decode-exec": "decode-exec",
    "profile-write": "profile-write",
    "agent-settings-write": "agent-settings-write",
    "persistence": "persistence",
    "destroy": "destructive",
    "eval-dynamic": "eval-dynamic",
    "unverifiable": "unverifiable",
}


def _finding(
    rule: str,
    message: str,
    fact: Fact,
    runnable: Runnable | None,
    *,
    severity: Severity | None = None,
    related: tuple[tuple[str, int], ...] = (),
) -> Finding:
    return Finding(
        rule=rule,
        severity=severity or RULES[rule].severity,
        message=message,
        file=fact.file,
        line=fact.line,
        runnable=runnable,
        evidence=fact.evidence,
        related=related,
    )


def _where(runnable: Runnable) -> str:
    what = {
        "hook": f"{runnable.name} hook",
        "status-line": "status line",
        "helper": f"{runnable.name} helper",
        "mcp-server": f"MCP server {runnable.name!r}",
        "notify": "notify program",
        "turn-hook": f"{runnable.name} turn hook",
        "validator": f"validator of rule {runnable.name!r}",
    }.get(runnable.kind, runnable.kind)
    return f"{runnable.host} {runnable.scope} {what}"


def runnable_findings(
    runnable: Runnable, facts: list[Fact], missing: list[tuple[str, str, int]]
) -> list[Finding]:
    out: list[Finding] = []
    source = (runnable.file, runnable.line)
    where = _where(runnable)
    for fact in facts:
        related = () if (fact.file, fact.line) == source else (source,)
        rule = _DIRECT.get(fact.kind)
        if rule is not None:
            out.append(_finding(rule, f"{where}: {fact.detail}", fact, runnable, related=related))
        elif fact.kind in ("env-export", "env-persist"):
            severity = Severity.HIGH if fact.kind == "env-persist" else Severity.MEDIUM
            out.append(
                _finding(
                    "env-hijack",
                    f"{where}: {fact.detail}",
                    fact,
                    runnable,
                    severity=severity,
                    related=related,
                )
            )
        elif fact.kind == "temp-exec":
            out.append(
                _finding(
                    "leaves-repository",
                    f"{where}: {fact.detail}",
                    fact,
                    runnable,
                    severity=Severity.MEDIUM,
                    related=related,
                )
            )
        elif fact.kind == "outside-exec":
            out.append(
                _finding(
                    "leaves-repository", f"{where}: {fact.detail}", fact, runnable, related=related
                )
            )
        elif fact.kind == "registry-run":
            severity = Severity.LOW if "(not pinned)" in fact.detail else Severity.INFO
            out.append(
                _finding(
                    "registry-package",
                    f"{where}: {fact.detail}",
                    fact,
                    runnable,
                    severity=severity,
                    related=related,
                )
            )
    network = [f for f in facts if f.kind in NETWORK]
    creds = [f for f in facts if f.kind in CRED_STRONG or f.kind == "cred-env"]
    for cred in creds:
        near: tuple[tuple[str, int], ...] = tuple(
            sorted({(n.file, n.line) for n in network} - {(cred.file, cred.line)})
        )[:5]
        if network:
            severity = Severity.CRITICAL if cred.kind in CRED_STRONG else Severity.HIGH
            message = f"{where}: {cred.detail} and reaches the network ({network[0].detail})"
            out.append(
                _finding(
                    "credential-exfiltration",
                    message,
                    cred,
                    runnable,
                    severity=severity,
                    related=near,
                )
            )
        else:
            severity = Severity.MEDIUM if cred.kind in ("cred-file", "keychain") else Severity.LOW
            out.append(
                _finding(
                    "credential-read", f"{where}: {cred.detail}", cred, runnable, severity=severity
                )
            )
    starts = (
        (runnable.kind == "hook" and runnable.name in SESSION_START)
        or runnable.kind in STARTS_WITH_SESSION
        or (runnable.kind == "turn-hook" and runnable.name == "TurnStart")
    )
    if starts and runnable.repository and network and runnable.gate is not Gate.OFF:
        fact = network[0]
        out.append(
            _finding(
                "session-start-network",
                f"{where} reaches the network when the session starts: {fact.detail}",
                fact,
                runnable,
                related=() if (fact.file, fact.line) == source else (source,),
            )
        )
    for path, file, line in missing:
        out.append(
            Finding(
                "missing-script",
                Severity.INFO,
                f"{where}: {path} does not exist",
                file,
                line,
                runnable,
            )
        )
    if runnable.gate is Gate.NO_PROMPT:
        raised = [_raise(f, runnable) for f in out]
        out = raised
        out.append(
            Finding(
                "runs-before-trust",
                RULES["runs-before-trust"].severity,
                f"{where} runs without a trust prompt: {runnable.gate_detail}",
                runnable.file,
                runnable.line,
                runnable,
                runnable.command[:300],
            )
        )
    if runnable.gate is Gate.OFF:
        out = [_note(f, f" (not run as configured: {runnable.gate_detail})") for f in out]
    return out


def _raise(finding: Finding, runnable: Runnable) -> Finding:
    if finding.severity.rank < Severity.MEDIUM.rank:
        return finding
    return _note(
        finding,
        " (raised: runs without a trust prompt)",
        finding.severity.raised(),
    )


def _note(finding: Finding, note: str, severity: Severity | None = None) -> Finding:
    return Finding(
        finding.rule,
        severity or finding.severity,
        finding.message + note,
        finding.file,
        finding.line,
        finding.runnable,
        finding.evidence,
        finding.related,
    )


def _path_is_risky(value: str, project: str) -> bool:
    for raw in value.split(":"):
        part = raw.strip()
        if not part or part.startswith("$"):
            continue
        if (
            not part.startswith("/")
            or part.startswith(catalog.TEMP_PREFIXES)
            or part.startswith(project)
        ):
            return True
    return False


def env_finding(setting: EnvSetting, project: str) -> Finding | None:
    """The finding for one variable a configuration sets, or None when it is harmless."""
    name, value = setting.name, setting.value
    repository = setting.gate is not Gate.USER
    where = f"{setting.host} {setting.scope} {setting.where}"
    base_url = name in catalog.BASE_URL_VARS or name.endswith("base_url")
    severity: Severity | None = None
    why = ""
    if base_url:
        if catalog.is_official(value):
            return None
        if catalog.is_loopback(value):
            severity = Severity.LOW if repository else None
            why = "points the agent at a local server"
        else:
            telemetry = name.startswith("OTEL_")
            if repository:
                severity = Severity.HIGH if telemetry else Severity.CRITICAL
            else:
                severity = Severity.MEDIUM
            why = (
                "sends telemetry to " if telemetry else "sends the API key and every prompt to "
            ) + value[:120]
    elif name in catalog.CODE_INJECTION_VARS:
        if name == "NODE_OPTIONS" and not catalog.NODE_CODE_FLAGS.search(value):
            return None
        if name == "NODE_TLS_REJECT_UNAUTHORIZED" and value.strip() != "0":
            return None
        if name in ("PATH", "SHELL"):
            if not repository or not _path_is_risky(value, project):
                return None
            severity, why = Severity.MEDIUM, f"puts {value[:80]} first on PATH"
        elif name in ("EDITOR", "VISUAL", "PAGER", "GIT_PAGER"):
            severity = Severity.MEDIUM if repository else None
            why = f"makes tools run {value[:80]}"
        else:
            severity = Severity.HIGH if repository else Severity.MEDIUM
            why = f"makes other programs load or trust {value[:80]}"
    elif repository and is_pinned(name) and setting.where in ("settings env", ".env"):
        # Claude Code's settings env and Gemini CLI's .env reach every hook and stdio MCP
        # server the host starts: a repository's moves hookwise's policy and audit log for
        # them (red team s26 F8)
        severity = Severity.HIGH
        why = (
            "decides which policy and audit log hookwise uses for the hooks and MCP servers "
            "the host starts (`hookwise install --mcp` entries are --pinned against it)"
        )
    if severity is None:
        return None
    if setting.gate is Gate.OFF:
        why += " (not applied as configured)"
    return Finding(
        "env-hijack",
        severity,
        f"{where} sets {name}: {why}",
        setting.file,
        setting.line,
        None,
        f"{name}={value[:200]}",
    )


def env_findings(settings: Iterable[EnvSetting], project: str) -> list[Finding]:
    return [f for s in settings if (f := env_finding(s, project)) is not None]


def merge_findings(findings: Iterable[Finding]) -> list[Finding]:
    """One finding per rule and place: the most severe, with every other source as related."""
    merged: dict[tuple[str, str, int], Finding] = {}
    for finding in findings:
        key = (finding.rule, finding.file, finding.line)
        current = merged.get(key)
        if current is None:
            merged[key] = finding
            continue
        keep, other = (
            (finding, current)
            if finding.severity.rank > current.severity.rank
            else (current, finding)
        )
        extra = tuple(
            r
            for r in (
                *other.related,
                *(((other.runnable.file, other.runnable.line),) if other.runnable else ()),
            )
            if r not in keep.related and r != (keep.file, keep.line)
        )
        merged[key] = Finding(
            keep.rule,
            keep.severity,
            keep.message,
            keep.file,
            keep.line,
            keep.runnable,
            keep.evidence,
            (*keep.related, *extra)[:10],
        )
    return sorted(merged.values(), key=lambda f: (-f.severity.rank, f.file, f.line, f.rule))
