"""Setting up what a scan reads (a corpus case, or a repository with one settings file, and a
home directory) and scanning it."""

from __future__ import annotations

import json
import os
import shutil
from dataclasses import dataclass
from pathlib import Path

from hookwise.scan.context import ScanContext
from hookwise.scan.model import ScanReport
from hookwise.scan.report import scan_project

CORPUS = Path(__file__).parent / "corpus"


@dataclass(frozen=True)
class Case:
    kind: str  # malicious | benign
    name: str
    path: Path
    meta: dict[str, object]


def cases(kind: str) -> list[Case]:
    found = []
    for directory in sorted((CORPUS / kind).iterdir()):
        meta = json.loads((directory / "case.json").read_text())
        found.append(Case(kind, directory.name, directory, meta))
    return found


def materialise(case: Case, tmp: Path) -> tuple[Path, Path]:
    """Copy the case to ``tmp`` (repo/, home/), filling in {{PROJECT}} and {{HOME}}."""
    project = (tmp / "repo").resolve() if (tmp / "repo").exists() else tmp.resolve() / "repo"
    home = tmp.resolve() / "home"
    for part in ("repo", "home"):
        source = case.path / part
        if source.exists():
            shutil.copytree(source, tmp / part, symlinks=True)
    project.mkdir(exist_ok=True)
    home.mkdir(exist_ok=True)
    for root, _dirs, files in os.walk(tmp):
        for name in files:
            path = Path(root) / name
            text = path.read_text(errors="surrogateescape")
            if "{{" in text:
                filled = text.replace("{{PROJECT}}", str(project)).replace("{{HOME}}", str(home))
                path.write_text(filled, errors="surrogateescape")
    return project, home


def claude_project(tmp: Path, settings: dict[str, object]) -> tuple[Path, Path]:
    """A repository under ``tmp`` whose ``.claude/settings.json`` is ``settings``, and a home."""
    project, home = (tmp / "repo").resolve(), (tmp / "home").resolve()
    (project / ".claude").mkdir(parents=True)
    home.mkdir()
    (project / ".claude" / "settings.json").write_text(json.dumps(settings))
    return project, home


def context(project: Path, home: Path) -> ScanContext:
    managed = home.parent / "managed"
    return ScanContext.create(
        project,
        env={"HOME": str(home), "PATH": "/usr/bin:/bin"},
        home=home,
        claude_managed_dir=managed / "claude-code",
        codex_managed_dir=managed / "codex",
        gemini_system_settings=managed / "gemini-cli" / "settings.json",
        hookwise_managed_policy=managed / "hookwise" / "policy.yaml",
    )


def scan_case(case: Case, tmp: Path) -> ScanReport:
    project, home = materialise(case, tmp)
    return scan_project(context(project, home))
