"""``--baseline FILE``: fingerprints of what runs, and the drift since they were recorded.

A fingerprint is the command as the host runs it and the sha256 of every script it calls,
keyed by host, kind, scope, name, defining file and position among equals. Paths inside
the project are stored relative to it (a baseline committed to the repository works in any
checkout), others with ``~`` for the home directory. Host trust that keys on the command
line (Gemini CLI's ``name:command``) misses a changed script; the baseline does not.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from hookwise.config.atomic import write_text_atomic
from hookwise.scan.context import ScanContext
from hookwise.scan.model import Finding, Runnable, ScanReport, ScriptFile
from hookwise.scan.rules import RULES

__all__ = ["BaselineError", "drift", "fingerprints", "read_baseline", "write_baseline"]

VERSION: Final = 1


class BaselineError(ValueError):
    """The baseline file cannot be used; the message names the file and the field."""


@dataclass(frozen=True)
class Fingerprint:
    key: str
    command: str
    scripts: dict[str, str]  # shown path -> sha256 ("missing" when the file is gone)
    file: str
    line: int

    def as_dict(self) -> dict[str, Any]:
        return {"command": self.command, "scripts": dict(sorted(self.scripts.items()))}


def _shown(path: str, ctx: ScanContext) -> str:
    if ctx.inside(path):
        return os.path.relpath(os.path.realpath(path), ctx.project)
    home = str(ctx.user_home).rstrip("/")
    if path == home or path.startswith(home + "/"):
        return "~" + path[len(home) :]
    return path


def fingerprints(report: ScanReport, ctx: ScanContext) -> dict[str, Fingerprint]:
    out: dict[str, Fingerprint] = {}
    counts: dict[str, int] = {}
    for position, runnable in enumerate(report.runnables):
        base = "|".join(
            [
                runnable.host,
                runnable.kind,
                runnable.scope,
                runnable.name,
                _shown(runnable.file, ctx),
            ]
        )
        index = counts.get(base, 0)
        counts[base] = index + 1
        key = f"{base}|{index}"
        scripts: list[ScriptFile] = report.scripts.get(position, [])
        out[key] = Fingerprint(
            key,
            _command(runnable),
            {_shown(s.path, ctx): s.sha256 or "unreadable" for s in scripts},
            runnable.file,
            runnable.line,
        )
    return out


def _command(runnable: Runnable) -> str:
    text = runnable.command or runnable.url
    return text if runnable.argv is None else json.dumps(list(runnable.argv))


def write_baseline(path: Path, report: ScanReport, ctx: ScanContext) -> None:
    from hookwise import __version__

    document = {
        "version": VERSION,
        "tool": f"hookwise scan {__version__}",
        "entries": {k: f.as_dict() for k, f in sorted(fingerprints(report, ctx).items())},
    }
    write_text_atomic(path, json.dumps(document, indent=2, ensure_ascii=False) + "\n")


def read_baseline(path: Path) -> dict[str, dict[str, Any]]:
    try:
        text = path.read_bytes().decode("utf-8")
    except OSError as exc:
        raise BaselineError(f"{path}: cannot read the baseline: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise BaselineError(f"{path}: the baseline is not UTF-8 text") from None
    try:
        document = json.loads(text)
    except ValueError as exc:
        raise BaselineError(f"{path}: not JSON: {exc}") from None
    if not isinstance(document, dict):
        raise BaselineError(f"{path}: expected a JSON object with 'version' and 'entries'")
    if document.get("version") != VERSION:
        raise BaselineError(f"{path}#/version: expected {VERSION}, got {document.get('version')!r}")
    entries = document.get("entries")
    if not isinstance(entries, dict):
        raise BaselineError(f"{path}#/entries: expected an object of fingerprints")
    for key, entry in entries.items():
        if (
            not isinstance(entry, dict)
            or not isinstance(entry.get("command"), str)
            or not isinstance(entry.get("scripts"), dict)
            or not all(isinstance(v, str) for v in entry["scripts"].values())
        ):
            raise BaselineError(
                f"{path}#/entries/{key}: expected {{'command': string, 'scripts': "
                "{path: sha256}}"
            )
    return entries


def drift(
    report: ScanReport, ctx: ScanContext, baseline: Mapping[str, Mapping[str, Any]], origin: Path
) -> list[Finding]:
    current = fingerprints(report, ctx)
    by_key = {key: runnable for key, runnable in zip(current, report.runnables, strict=True)}
    out: list[Finding] = []
    for key, fingerprint in current.items():
        runnable = by_key[key]
        old = baseline.get(key)
        where = f"{runnable.host} {runnable.scope} {runnable.kind} {runnable.name}"
        if old is None:
            out.append(
                Finding(
                    "drift-new",
                    RULES["drift-new"].severity,
                    f"{where} is new since the baseline: {fingerprint.command[:200]}",
                    runnable.file,
                    runnable.line,
                    runnable,
                )
            )
            continue
        if old["command"] != fingerprint.command:
            out.append(
                Finding(
                    "drift-changed",
                    RULES["drift-changed"].severity,
                    f"{where}: the command changed from {old['command'][:150]!r} to "
                    f"{fingerprint.command[:150]!r}",
                    runnable.file,
                    runnable.line,
                    runnable,
                )
            )
        scripts: Mapping[str, str] = old["scripts"]
        for shown, digest in fingerprint.scripts.items():
            before = scripts.get(shown)
            if before == digest:
                continue
            what = "is new" if before is None else "changed"
            path = (
                shown if os.path.isabs(shown) or shown.startswith("~") else str(ctx.project / shown)
            )
            out.append(
                Finding(
                    "drift-changed",
                    RULES["drift-changed"].severity,
                    f"{where}: script {shown} {what} since the baseline (sha256 {digest[:12]}...)",
                    os.path.expanduser(path) if path.startswith("~") else path,
                    1,
                    runnable,
                    related=((runnable.file, runnable.line),),
                )
            )
        for shown in set(scripts) - set(fingerprint.scripts):
            out.append(
                Finding(
                    "drift-changed",
                    RULES["drift-changed"].severity,
                    f"{where}: no longer calls {shown}",
                    runnable.file,
                    runnable.line,
                    runnable,
                )
            )
    for key in sorted(set(baseline) - set(current)):
        out.append(
            Finding(
                "drift-removed",
                RULES["drift-removed"].severity,
                f"{key.rsplit('|', 1)[0].replace('|', ' ')} is gone since the baseline",
                str(origin),
                1,
            )
        )
    return out
