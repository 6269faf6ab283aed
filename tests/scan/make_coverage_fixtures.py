"""Turn kept real-CLI coverage runs into the fixtures of tests/scan/fixtures/coverage/.

    HOOKWISE_E2E_KEEP_COVERAGE=/tmp/keep .venv/bin/pytest -n 2 tests/e2e/test_coverage_live.py
    .venv/bin/python -m tests.scan.make_coverage_fixtures /tmp/keep

Each run keeps only what ``hookwise coverage`` reads: the host's session record, the audit
log, and the settings and trust files of the home and the project. The run directory
becomes ``$RUN`` (the replay test puts it back). Lines of a record that only hold the
prompt and the request bodies the CLI sent (Claude Code's ``api-request*``, prompt and
listing attachments; Codex's developer messages and ``world_state``; the instructions in
Codex's ``session_meta``) are left out to keep the fixtures small; every other line is
byte for byte what the CLI wrote, apart from the run directory.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent / "fixtures" / "coverage"
KEEP_FILES = (
    "home/.claude.json",
    "home/.codex/config.toml",
    "home/.gemini/settings.json",
    "home/.gemini/projects.json",
    "home/.gemini/trusted_hooks.json",
    "home/.local/state/hookwise/audit.jsonl",
    "proj/.claude/settings.json",
    "proj/.codex/hooks.json",
    "proj/.gemini/settings.json",
    "proj/.hookwise/policy.yaml",
)
CLAUDE_NOISE_TYPES = {"api-request", "api-request-blob", "api-request-shape"}
CLAUDE_NOISE_ATTACHMENTS = {
    "prompt_snapshot",
    "skill_listing",
    "agent_listing_delta",
    "deferred_tools_delta",
}


def run_root(run: Path) -> str:
    """The directory the run had (the audit log's cwd without /proj)."""
    audit = run / "home/.local/state/hookwise/audit.jsonl"
    first = json.loads(audit.read_text(encoding="utf-8").splitlines()[0])
    return str(Path(first["cwd"]).parent)


def keep_line(cli: str, line: str) -> str | None:
    value = json.loads(line)
    if cli == "claude":
        attachment = value.get("attachment") or {}
        if value.get("type") in CLAUDE_NOISE_TYPES:
            return None
        if attachment.get("type") in CLAUDE_NOISE_ATTACHMENTS:
            return None
    if cli == "codex":
        payload = value.get("payload") or {}
        if value.get("type") == "world_state" or payload.get("role") == "developer":
            return None
        if value.get("type") == "session_meta" and "base_instructions" in payload:
            payload["base_instructions"] = {"text": "(left out of the fixture)"}
            return json.dumps(value, separators=(",", ":"))
    return line


def convert(run: Path, out: Path) -> None:
    cli = run.name.split("-", 1)[0]
    root = run_root(run)
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)

    def write(relative: str, text: str) -> None:
        target = out / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text.replace(root, "$RUN"), encoding="utf-8")

    for relative in KEEP_FILES:
        source = run / relative
        if source.exists():
            write(relative, source.read_text(encoding="utf-8"))
    records = {
        "claude": run.glob("home/.claude/projects/*/*.jsonl"),
        "codex": run.glob("home/.codex/sessions/*/*/*/rollout-*.jsonl"),
        "gemini": run.glob("home/.gemini/tmp/*/chats/*.jsonl"),
    }[cli]
    for record in records:
        relative = str(record.relative_to(run))
        if cli == "claude":  # the project's slug holds the run directory
            relative = "home/.claude/projects/-RUN-proj/" + record.name
        lines = [keep_line(cli, raw) for raw in record.read_text(encoding="utf-8").splitlines()]
        write(relative, "".join(f"{line}\n" for line in lines if line is not None))
    marker = run / "home/.gemini/tmp/proj/.project_root"
    if marker.exists():
        write("home/.gemini/tmp/proj/.project_root", marker.read_text(encoding="utf-8"))


def main(argv: list[str]) -> int:
    source = Path(argv[1])
    for run in sorted(source.iterdir()):
        if run.is_dir():
            convert(run, HERE / run.name)
            print(f"{run} -> {HERE / run.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
