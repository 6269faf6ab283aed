"""SARIF 2.1.0 for code scanning (GitHub, GitLab, Azure DevOps).

Every rule of ``rules.RULES`` is listed with its default level and a ``security-severity``
(the score GitHub sorts alerts by); each finding is a result located relative to the
project (``uriBaseId: PROJECT``) when it is inside it, by absolute ``file://`` URI
otherwise, with the configuration line that runs it as a related location and a stable
partial fingerprint so that alerts survive unrelated edits.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any, Final

from hookwise.scan.model import Finding, ScanReport, Severity
from hookwise.scan.rules import RULES

__all__ = ["SARIF_SCHEMA", "to_sarif"]

SARIF_SCHEMA: Final = "https://json.schemastore.org/sarif-2.1.0.json"
LEVEL: Final = {
    Severity.CRITICAL: "error",
    Severity.HIGH: "error",
    Severity.MEDIUM: "warning",
    Severity.LOW: "note",
    Severity.INFO: "note",
}
SECURITY_SEVERITY: Final = {
    Severity.CRITICAL: "9.5",
    Severity.HIGH: "8.0",
    Severity.MEDIUM: "5.5",
    Severity.LOW: "3.0",
    Severity.INFO: "1.0",
}


def _location(path: str, line: int, project: Path) -> dict[str, Any]:
    real = os.path.realpath(path) if path else ""
    root = str(project)
    if real and (real == root or real.startswith(root.rstrip("/") + "/")):
        artifact: dict[str, Any] = {
            "uri": Path(os.path.relpath(real, root)).as_posix(),
            "uriBaseId": "PROJECT",
        }
    elif path:
        artifact = {"uri": Path(os.path.abspath(path)).as_uri()}
    else:
        artifact = {"uri": "unknown"}
    return {
        "physicalLocation": {
            "artifactLocation": artifact,
            "region": {"startLine": max(1, int(line))},
        }
    }


def _fingerprint(finding: Finding, project: Path) -> str:
    path = finding.file
    if path.startswith(str(project)):
        path = os.path.relpath(path, project)
    text = "\0".join([finding.rule, path, finding.evidence or finding.message])
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def to_sarif(report: ScanReport, version: str) -> dict[str, Any]:
    project = Path(report.project)
    rule_ids = list(RULES)
    rules = [
        {
            "id": rule.id,
            "name": "".join(part.title() for part in rule.id.split("-")),
            "shortDescription": {"text": rule.title},
            "fullDescription": {"text": rule.why},
            "help": {"text": rule.why},
            "defaultConfiguration": {"level": LEVEL[rule.severity]},
            "properties": {
                "security-severity": SECURITY_SEVERITY[rule.severity],
                "tags": ["security", "agent-hooks"],
            },
        }
        for rule in RULES.values()
    ]
    results = []
    for finding in report.findings:
        result: dict[str, Any] = {
            "ruleId": finding.rule,
            "ruleIndex": rule_ids.index(finding.rule),
            "level": LEVEL[finding.severity],
            "message": {"text": finding.message},
            "locations": [_location(finding.file, finding.line, project)],
            "partialFingerprints": {"hookwiseFinding/v1": _fingerprint(finding, project)},
            "properties": {
                "severity": finding.severity.value,
                "security-severity": SECURITY_SEVERITY[finding.severity],
            },
        }
        related = list(finding.related)
        if finding.runnable is not None:
            here = (finding.runnable.file, finding.runnable.line)
            if here != (finding.file, finding.line) and here not in related:
                related.insert(0, here)
        if related:
            result["relatedLocations"] = [
                {**_location(file, line, project), "id": index, "message": {"text": "runs it"}}
                for index, (file, line) in enumerate(related)
            ]
        if finding.runnable is not None:
            result["properties"]["host"] = finding.runnable.host
            result["properties"]["gate"] = finding.runnable.gate.value
        results.append(result)
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "hookwise-scan",
                        "version": version,
                        "rules": rules,
                    }
                },
                "originalUriBaseIds": {"PROJECT": {"uri": project.as_uri() + "/"}},
                "results": results,
                "columnKind": "unicodeCodePoints",
            }
        ],
    }
