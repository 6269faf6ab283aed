"""The text and JSON forms of a scan report (SARIF is ``sarif.py``)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from hookwise.scan.model import LEVELS, ScanReport

__all__ = ["summary", "to_json", "to_text"]


def summary(report: ScanReport) -> dict[str, int]:
    counts = Counter(f.severity.value for f in report.findings)
    return {level.value: counts.get(level.value, 0) for level in reversed(LEVELS)}


def to_json(report: ScanReport) -> dict[str, Any]:
    return {
        "project": report.project,
        "summary": summary(report),
        "findings": [f.as_dict() for f in report.findings],
        "runnables": [r.as_dict() for r in report.runnables],
        "files": report.files,
        "warnings": report.warnings,
    }


def to_text(report: ScanReport, *, verbose: bool = False) -> str:
    lines: list[str] = []
    hosts = Counter(r.host for r in report.runnables)
    shown = ", ".join(f"{host} {count}" for host, count in sorted(hosts.items())) or "none"
    lines.append(f"hookwise scan {report.project}")
    lines.append(f"commands the agents run on their own: {len(report.runnables)} ({shown})")
    if verbose:
        for r in report.runnables:
            lines.append(
                f"  [{r.gate.value}] {r.host} {r.scope} {r.kind} {r.name}: "
                f"{(r.command or r.url)[:120]}  ({r.file}:{r.line})"
            )
    for finding in report.findings:
        lines.append(
            f"{finding.severity.value.upper():8} {finding.rule}  {finding.file}:{finding.line}"
        )
        lines.append(f"         {finding.message}")
        if finding.evidence:
            lines.append(f"         > {finding.evidence.splitlines()[0][:160]}")
    counts = summary(report)
    total = sum(counts.values())
    parts = ", ".join(f"{n} {level}" for level, n in counts.items() if n)
    lines.append(f"{total} finding(s)" + (f": {parts}" if parts else ""))
    for warning in report.warnings if verbose else []:
        lines.append(f"warning: {warning}")
    return "\n".join(lines)
