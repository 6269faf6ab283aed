"""Issue 24's scan precision items, on the corpus cases made for them: the findings real
benign repositories drew (a computed path taken for code, a case pattern for a program,
``set -e`` for an environment dump, a regular expression for a script, names of variables
for their values), and what it missed (scripts behind ``uv run``/``bun run``/``$(git
rev-parse --show-toplevel)``)."""

from __future__ import annotations

from pathlib import Path

from hookwise.scan.model import Severity
from tests.scan.support import CORPUS, Case, scan_case


def _case(kind: str, name: str) -> Case:
    import json

    path = CORPUS / kind / name
    return Case(kind, name, path, json.loads((path / "case.json").read_text()))


def test_computed_paths_case_patterns_and_set_e_draw_nothing(tmp_path: Path) -> None:
    report = scan_case(_case("benign", "computed-paths-case-patterns"), tmp_path)
    shown = [f.as_dict() for f in report.findings]
    rules = {f.rule for f in report.findings}
    assert not rules & {"eval-dynamic", "leaves-repository", "missing-script"}, shown
    assert not [f for f in report.findings if "every variable" in f.message], shown
    approved = [f for f in report.findings if f.rule == "self-approved-mcp"]
    assert approved and all(f.severity is Severity.LOW for f in approved), shown
    read = {Path(s.path).name for scripts in report.scripts.values() for s in scripts}
    # the sourced lib and the tool at the repository's root are read as the scripts they are
    assert {"guard.sh", "common.sh", "check.sh", "fmt.sh"} <= read, read


def test_reading_variable_names_is_not_reading_credentials(tmp_path: Path) -> None:
    report = scan_case(_case("benign", "env-variable-names"), tmp_path)
    shown = [f.as_dict() for f in report.findings]
    assert not {f.rule for f in report.findings} & {"credential-exfiltration", "credential-read"}
    assert not [f for f in report.findings if f.severity.rank > Severity.LOW.rank], shown


def test_scripts_behind_runners_and_the_toplevel_are_read(tmp_path: Path) -> None:
    report = scan_case(_case("malicious", "runners-uv-bun-toplevel"), tmp_path)
    found = {Path(f.file).name for f in report.findings if f.rule == "credential-exfiltration"}
    assert found == {"stop.py", "post.ts", "notify"}, [f.as_dict() for f in report.findings]


def _flagged(report_findings: list, rule: str) -> set[str]:  # type: ignore[type-arg]
    return {Path(f.file).name for f in report_findings if f.rule == rule}


def test_hooks_of_events_hookwise_does_not_run_are_scanned(tmp_path: Path) -> None:
    report = scan_case(_case("malicious", "claude-events-hookwise-does-not-run"), tmp_path)
    events = {f.runnable.name for f in report.findings if f.rule == "download-exec" and f.runnable}
    assert events == {
        "Setup",
        "TaskCompleted",
        "TaskCreated",
        "ConfigChange",
        "UserPromptExpansion",
    }


def test_a_plugins_manifest_hooks_and_mcp_servers_are_scanned(tmp_path: Path) -> None:
    report = scan_case(_case("malicious", "claude-plugin-manifest-hooks-and-mcp"), tmp_path)
    shown = [f.as_dict() for f in report.findings]
    assert _flagged(report.findings, "credential-exfiltration") == {"done.sh", "server.js"}, shown
    assert _flagged(report.findings, "agent-settings-write") == {"init.sh"}, shown
    servers = [r for r in report.runnables if r.kind == "mcp-server"]
    assert [(r.name, r.scope) for r in servers] == [("helper-mcp", "plugin:helper@market")]


def test_gemini_codex_and_turn_hook_scripts_are_read_for_what_they_do(tmp_path: Path) -> None:
    report = scan_case(_case("malicious", "gemini-codex-turn-hook-scripts"), tmp_path)
    shown = [f.as_dict() for f in report.findings]
    assert _flagged(report.findings, "credential-exfiltration") == {
        "after.js",
        "pre.sh",
        "after_turn.py",
    }, shown
    assert _flagged(report.findings, "profile-write") == {"start.py", "stop.sh", "notify.js"}, shown


def test_extension_path_is_hydrated_and_an_env_hijack_is_reported_at_its_line(
    tmp_path: Path,
) -> None:
    case = _case("malicious", "gemini-extension-mcp-extension-path")
    report = scan_case(case, tmp_path)
    shown = [f.as_dict() for f in report.findings]
    assert _flagged(report.findings, "credential-exfiltration") == {"server.js"}, shown
    hijack = [f for f in report.findings if f.rule == "env-hijack"]
    manifest = case.path / "home/.gemini/extensions/helper/gemini-extension.json"
    line = next(
        i for i, text in enumerate(manifest.read_text().splitlines(), 1) if "NODE_OPTIONS" in text
    )
    assert [(Path(f.file).name, f.line) for f in hijack] == [("gemini-extension.json", line)]
