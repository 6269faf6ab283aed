"""`hookwise scan` as a user runs it: a real process, every format, exit codes, baselines,
and a repository where hookwise itself is installed."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

from tests.scan.support import cases, materialise

HOOKWISE = str(Path(sys.executable).parent / "hookwise")
SCHEMA = json.loads((Path(__file__).parent / "fixtures" / "sarif-schema-2.1.0.json").read_text())


def run_scan(project: Path, home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {
        "HOME": str(home),
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "LANG": "C.UTF-8",
    }
    return subprocess.run(
        [HOOKWISE, "scan", str(project), "--managed-root", str(home.parent / "managed"), *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )


def setup(name: str, kind: str, tmp: Path) -> tuple[Path, Path]:
    case = next(c for c in cases(kind) if c.name == name)
    return materialise(case, tmp)


def test_sarif_validates_against_the_official_schema(tmp_path: Path) -> None:
    project, home = setup("shai-hulud-claude-node-payload", "malicious", tmp_path)
    done = run_scan(project, home, "--format", "sarif", "--fail-on", "none")
    assert done.returncode == 0, done.stderr
    document = json.loads(done.stdout)
    jsonschema.Draft4Validator(SCHEMA).validate(document)
    results = document["runs"][0]["results"]
    assert {r["ruleId"] for r in results} >= {"credential-exfiltration", "agent-settings-write"}
    exfil = next(r for r in results if r["ruleId"] == "credential-exfiltration")
    location = exfil["locations"][0]["physicalLocation"]
    assert location["artifactLocation"] == {
        "uri": ".claude/hooks/bundle.js",
        "uriBaseId": "PROJECT",
    }
    assert location["region"]["startLine"] == 3  # readFileSync(.../.npmrc)
    assert exfil["level"] == "error"
    related = exfil["relatedLocations"][0]["physicalLocation"]["artifactLocation"]["uri"]
    assert related == ".claude/settings.json"


def test_sarif_of_a_clean_repository_is_valid_and_empty(tmp_path: Path) -> None:
    (tmp_path / "repo").mkdir()
    (tmp_path / "home").mkdir()
    done = run_scan(tmp_path / "repo", tmp_path / "home", "--format", "sarif")
    assert done.returncode == 0, done.stderr
    document = json.loads(done.stdout)
    jsonschema.Draft4Validator(SCHEMA).validate(document)
    assert document["runs"][0]["results"] == []


def test_json_and_text_name_file_line_and_rule(tmp_path: Path) -> None:
    project, home = setup("cve-2025-59536-claude-sessionstart", "malicious", tmp_path)
    done = run_scan(project, home, "--format", "json")
    assert done.returncode == 1
    report = json.loads(done.stdout)
    top = report["findings"][0]
    assert top["rule"] == "download-exec" and top["severity"] == "critical"
    assert top["file"] == str(project / ".claude" / "settings.json")
    assert top["line"] == 8  # the "command" value
    assert top["source"]["gate"] == "no-prompt"
    assert report["summary"]["critical"] >= 1
    text = run_scan(project, home)
    assert text.returncode == 1
    assert f"CRITICAL download-exec  {project}/.claude/settings.json:8" in text.stdout


@pytest.mark.parametrize(("fail_on", "code"), [("critical", 1), ("high", 1), ("none", 0)])
def test_fail_on_exit_codes_malicious(tmp_path: Path, fail_on: str, code: int) -> None:
    project, home = setup("cve-2026-21852-anthropic-base-url", "malicious", tmp_path)
    assert run_scan(project, home, "--fail-on", fail_on).returncode == code


@pytest.mark.parametrize(("fail_on", "code"), [("high", 0), ("medium", 0), ("low", 1)])
def test_fail_on_exit_codes_benign(tmp_path: Path, fail_on: str, code: int) -> None:
    project, home = setup("session-context-loader", "benign", tmp_path)  # one low finding
    assert run_scan(project, home, "--fail-on", fail_on).returncode == code


def test_missing_directory_is_a_usage_error(tmp_path: Path) -> None:
    done = run_scan(tmp_path / "nope", tmp_path)
    assert done.returncode == 2
    assert "does not exist" in done.stderr


def test_baseline_records_then_reports_drift(tmp_path: Path) -> None:
    project, home = setup("gemini-block-rm", "benign", tmp_path)
    baseline = tmp_path / "scan-baseline.json"
    first = run_scan(project, home, "--baseline", str(baseline), "--format", "json")
    assert first.returncode == 0, first.stderr
    assert "baseline recorded" in first.stderr
    recorded = json.loads(baseline.read_text())
    (entry,) = recorded["entries"].values()
    assert entry["command"] == "bash .gemini/hooks/block-rm.sh"
    assert list(entry["scripts"]) == [".gemini/hooks/block-rm.sh"]
    same = run_scan(project, home, "--baseline", str(baseline), "--format", "json")
    assert same.returncode == 0
    assert not [f for f in json.loads(same.stdout)["findings"] if f["rule"].startswith("drift")]
    # the script behind the trusted name:command changes (GC#27901)
    script = project / ".gemini" / "hooks" / "block-rm.sh"
    script.write_text(script.read_text() + "curl -s https://example.invalid/x >/dev/null\n")
    settings = json.loads((project / ".gemini" / "settings.json").read_text())
    settings["hooks"]["AfterAgent"] = [{"hooks": [{"type": "command", "command": "echo done"}]}]
    (project / ".gemini" / "settings.json").write_text(json.dumps(settings))
    drifted = run_scan(
        project, home, "--baseline", str(baseline), "--format", "json", "--fail-on", "medium"
    )
    assert drifted.returncode == 1
    findings = json.loads(drifted.stdout)["findings"]
    changed = [f for f in findings if f["rule"] == "drift-changed"]
    assert changed and changed[0]["file"] == str(script)
    new = [f for f in findings if f["rule"] == "drift-new"]
    assert new and "echo done" in new[0]["message"]
    # removed
    (project / ".gemini" / "settings.json").write_text("{}")
    removed = run_scan(project, home, "--baseline", str(baseline), "--format", "json")
    assert any(f["rule"] == "drift-removed" for f in json.loads(removed.stdout)["findings"])
    # --update-baseline accepts the current state
    run_scan(project, home, "--baseline", str(baseline), "--update-baseline")
    after = run_scan(project, home, "--baseline", str(baseline), "--format", "json")
    assert not [f for f in json.loads(after.stdout)["findings"] if f["rule"].startswith("drift")]


@pytest.mark.parametrize(
    "content",
    [
        "not json",
        "[]",
        '{"version": 2, "entries": {}}',
        '{"version": 1, "entries": {"k": {"command": 1}}}',
    ],
)
def test_bad_baseline_is_refused_naming_the_file(tmp_path: Path, content: str) -> None:
    (tmp_path / "repo").mkdir()
    (tmp_path / "home").mkdir()
    baseline = tmp_path / "b.json"
    baseline.write_text(content)
    done = run_scan(tmp_path / "repo", tmp_path / "home", "--baseline", str(baseline))
    assert done.returncode == 2
    assert str(baseline) in done.stderr
    assert baseline.read_text() == content  # never overwritten


def test_repository_with_hookwise_installed_is_clean(tmp_path: Path) -> None:
    project = tmp_path / "repo"
    home = tmp_path / "home"
    (project / ".git").mkdir(parents=True)
    home.mkdir()
    (project / ".hookwise").mkdir()
    (project / ".hookwise" / "policy.yaml").write_text(
        "version: 1\nrules:\n  - id: no-force-push\n    match: {tool: shell, command: git push --force}\n"
        "    action: deny\n    reason: no\n"
    )
    env = {"HOME": str(home), "PATH": os.environ.get("PATH", "/usr/bin:/bin")}
    for host in ("claude", "gemini", "codex"):
        done = subprocess.run(
            [HOOKWISE, "install", host, "--project", str(project)],
            capture_output=True,
            text=True,
            env=env,
            timeout=120,
            check=False,
        )
        assert done.returncode == 0, done.stderr
    done = run_scan(project, home, "--format", "json", "--fail-on", "medium")
    report = json.loads(done.stdout)
    assert done.returncode == 0, report["findings"]
    hosts = {r["host"] for r in report["runnables"] if r["kind"] == "hook"}
    assert hosts == {"claude", "gemini", "codex"}
    assert all(f["severity"] in ("info", "low") for f in report["findings"])


def test_clean_repository_reports_nothing(tmp_path: Path) -> None:
    project = tmp_path / "repo"
    (project / "src").mkdir(parents=True)
    (project / "src" / "main.py").write_text("print('hi')\n")
    (tmp_path / "home").mkdir()
    done = run_scan(project, tmp_path / "home", "--format", "json", "--fail-on", "low")
    assert done.returncode == 0
    assert json.loads(done.stdout)["findings"] == []


@pytest.mark.parametrize("case", [c.name for c in cases("malicious")])
def test_every_incident_repository_reports_through_the_cli(tmp_path: Path, case: str) -> None:
    project, home = setup(case, "malicious", tmp_path)
    done = run_scan(project, home, "--format", "json", "--fail-on", "medium")
    assert done.returncode == 1, done.stdout[-2000:]
    assert shutil.which(HOOKWISE) or Path(HOOKWISE).exists()
