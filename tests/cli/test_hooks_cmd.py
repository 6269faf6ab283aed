"""``hookwise hooks list|enable|disable|trust`` through click, and once as a real process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from hookwise.cli.hooks_cmd import hooks

_ENV_NAMES = (
    "GEMINI_CLI_TRUST_WORKSPACE",
    "GEMINI_RESTRICTED_MODE",
    "HOOKWISE_HOOK_TRUST",
    "GEMINI_CLI_HOME",
    "GEMINI_CLI_SYSTEM_SETTINGS_PATH",
    "GEMINI_CLI_SYSTEM_DEFAULTS_PATH",
    "GEMINI_CLI_TRUSTED_FOLDERS_PATH",
    "GITHUB_SHA",
    "SURFACE",
    "SANDBOX",
)


class Project:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.home = root / "home"
        self.ws = root / "ws"
        self.etc = root / "etc"
        for d in (self.home / ".gemini", self.ws / ".gemini", self.etc):
            d.mkdir(parents=True)

    @property
    def user_file(self) -> Path:
        return self.home / ".gemini" / "settings.json"

    @property
    def project_file(self) -> Path:
        return self.ws / ".gemini" / "settings.json"

    def args(self, profile: str = "documented") -> list[str]:
        return [
            "--settings",
            str(self.ws),
            "--home",
            str(self.home),
            "--system-settings",
            str(self.etc / "settings.json"),
            "--profile",
            profile,
        ]

    def run(self, *argv: str, profile: str = "documented") -> Result:
        command, *rest = argv
        return CliRunner().invoke(
            hooks, [command, *self.args(profile), *rest], catch_exceptions=False
        )

    def trust_folder(self) -> None:
        (self.home / ".gemini" / "trustedFolders.json").write_text(
            json.dumps({os.path.realpath(self.ws): "TRUST_FOLDER"})
        )


def hook(command: str, name: str | None = None) -> dict[str, Any]:
    return {"type": "command", "command": command, **({"name": name} if name else {})}


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Project:
    for name in _ENV_NAMES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "not-home"))  # nothing may reach the real ~
    p = Project(tmp_path)
    p.user_file.write_text(
        json.dumps(
            {
                "hooks": {
                    "AfterTool": [{"matcher": "read_.*", "hooks": [hook("./audit.sh", "audit")]}]
                }
            }
        )
    )
    p.project_file.write_text(
        "{\n  // project hooks\n"
        '  "hooks": {"BeforeTool": [{"matcher": "write_file", "hooks": [{"type": "command", '
        '"command": "./guard.sh", "name": "guard"}]}]}\n}\n'
    )
    return p


def listing(project: Project, profile: str = "documented") -> dict[str, Any]:
    result = project.run("list", "--json", profile=profile)
    assert result.exit_code == 0, result.output
    document: dict[str, Any] = json.loads(result.stdout)
    return document


def test_list_json_in_an_untrusted_folder(project: Project) -> None:
    document = listing(project)
    assert document["folderTrust"]["trusted"] is False
    rows = {r["name"]: r for r in document["hooks"]}
    assert rows["guard"]["state"] == "untrusted-folder"
    assert rows["guard"]["trust"] == "new"
    assert rows["guard"]["matcher"] == "write_file"
    assert (
        rows["guard"]["origin"]
        == f"{os.path.realpath(project.project_file)}#/hooks/BeforeTool/0/hooks/0"
    )
    assert rows["audit"]["state"] == "enabled"
    assert rows["audit"]["source"] == "user" and rows["audit"]["trust"] == "-"
    assert any("not trusted" in w for w in document["warnings"])
    # gemini-cli: in an untrusted folder the user hook is skipped too, and labelled project
    rows = {r["name"]: r for r in listing(project, "gemini-cli")["hooks"]}
    assert rows["audit"]["state"] == "untrusted-folder"
    assert rows["audit"]["source"] == "project" and rows["audit"]["scope"] == "user"


def test_list_text_output(project: Project) -> None:
    project.trust_folder()
    result = project.run("list")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert "folder trusted (file)" in lines[0]
    assert lines[1].split("\t") == [
        "event", "name", "source/scope", "state", "trust", "matcher", "defined in"
    ]  # fmt: skip
    assert lines[2].split("\t")[:5] == ["BeforeTool", "guard", "project/project", "enabled", "new"]
    assert lines[3].split("\t")[:4] == ["AfterTool", "audit", "user/user", "enabled"]
    assert all(len(line.split("\t")) == 7 for line in lines[1:])


def test_list_rich_table_on_a_terminal(project: Project, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("hookwise.cli.hooks_cmd._is_terminal", lambda: True)
    monkeypatch.setenv("COLUMNS", "200")
    result = project.run("list")
    assert result.exit_code == 0
    assert "guard" in result.stdout and "untrusted-folder" in result.stdout


def test_disable_then_enable(project: Project) -> None:
    project.trust_folder()
    result = project.run("disable", "guard")
    assert result.exit_code == 0, result.output
    assert "in project (" in result.stdout and str(project.project_file) in result.stdout
    text = project.project_file.read_text()
    assert "// project hooks" in text  # the rest of the file is preserved
    rows = {r["name"]: r for r in listing(project)["hooks"]}
    assert rows["guard"]["state"] == "disabled" and rows["guard"]["enabled"] is False
    assert project.run("disable", "guard").stdout.strip() == 'Hook "guard" is already disabled.'
    result = project.run("enable", "guard")
    assert "removing it from the disabled list in project" in result.stdout
    assert {r["name"]: r for r in listing(project)["hooks"]}["guard"]["state"] == "enabled"
    assert project.run("enable", "guard").stdout.strip() == 'Hook "guard" is already enabled.'
    assert "// project hooks" in project.project_file.read_text()


def test_disable_goes_to_user_settings_without_a_project_file(project: Project) -> None:
    project.project_file.unlink()
    project.run("disable", "audit")
    assert json.loads(project.user_file.read_text())["hooksConfig"] == {"disabled": ["audit"]}
    project.run("disable", "audit", "--scope", "project")
    assert json.loads(project.project_file.read_text()) == {"hooksConfig": {"disabled": ["audit"]}}
    result = project.run("enable", "audit")
    assert "project (" in result.stdout and "user (" in result.stdout
    # "workspace", the scope's former name, still means the project's file
    project.run("disable", "audit", "--scope", "workspace")
    assert json.loads(project.project_file.read_text()) == {"hooksConfig": {"disabled": ["audit"]}}
    shown = project.run("disable", "--help").stdout
    assert "[project|user]" in shown and "workspace" not in shown
    wrong = project.run("disable", "audit", "--scope", "team")
    assert wrong.exit_code == 2
    assert "'team' is not one of 'project', 'user'" in wrong.stderr
    assert json.loads(project.user_file.read_text())["hooksConfig"] == {"disabled": []}


def test_disable_refuses_an_unknown_name(project: Project) -> None:
    before = project.user_file.read_text() if project.user_file.exists() else None
    result = project.run("disable", "nope")
    assert result.exit_code == 2
    assert 'no hook named "nope"' in result.stderr and "--force" in result.stderr
    after = project.user_file.read_text() if project.user_file.exists() else None
    assert after == before


def test_disable_unknown_name_with_force_warns(project: Project) -> None:
    result = project.run("disable", "nope", "--force")
    assert result.exit_code == 0
    assert 'no hook named "nope"' in result.stderr


def test_disable_refuses_a_malformed_file(project: Project) -> None:
    project.project_file.write_text('{"hooks": {},}')
    result = CliRunner().invoke(hooks, ["disable", *project.args(), "x"])
    assert result.exit_code == 2  # an input error: the file cannot be parsed
    assert "trailing comma" in result.output
    assert project.project_file.read_text() == '{"hooks": {},}'


def test_trust_list_and_approve(project: Project) -> None:
    project.trust_folder()
    result = project.run("trust", "--list")
    assert "guard (BeforeTool, new): ./guard.sh" in result.stdout
    result = project.run("trust")
    assert "Approved 1 project hook" in result.stdout
    assert "No project hooks waiting" in project.run("trust", "--list").stdout
    document = json.loads(project.run("trust", "--list", "--json").stdout)
    assert document["hooks"] == [] and document["folderTrusted"] is True
    engine = json.loads((project.home / ".gemini" / "trusted_hooks.json").read_text())
    assert engine == {os.path.realpath(project.ws): ["guard:./guard.sh"]}


def test_trust_folder_flag(project: Project) -> None:
    result = project.run("trust")
    assert "folder itself is not trusted" in result.stdout
    result = project.run("trust", "--folder")
    assert "Trusted folder" in result.stdout
    assert listing(project)["folderTrust"]["trusted"] is True


def test_enforce_mode_refuses_until_trusted(
    project: Project, monkeypatch: pytest.MonkeyPatch
) -> None:
    project.trust_folder()
    monkeypatch.setenv("HOOKWISE_HOOK_TRUST", "enforce")
    rows = {r["name"]: r for r in listing(project)["hooks"]}
    assert rows["guard"]["trust"] == "new (refused: enforce)"
    project.run("trust")
    rows = {r["name"]: r for r in listing(project)["hooks"]}
    assert rows["guard"]["trust"] == "approved"
    project.project_file.write_text(
        json.dumps(
            {"hooks": {"BeforeTool": [{"matcher": "*", "hooks": [hook("./guard.sh", "guard")]}]}}
        )
    )
    rows = {r["name"]: r for r in listing(project)["hooks"]}
    assert rows["guard"]["trust"] == "changed (refused: enforce)"


def test_real_process(project: Project, tmp_path: Path) -> None:
    exe = Path(sys.executable).with_name("hookwise")
    if not exe.exists():
        pytest.skip("the hookwise console script is not installed next to this python")
    env = {k: v for k, v in os.environ.items() if k not in _ENV_NAMES}
    env["HOME"] = str(tmp_path / "not-home")
    completed = subprocess.run(
        [str(exe), "hooks", "list", "--json", *project.args()],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    document = json.loads(completed.stdout)
    assert {r["name"] for r in document["hooks"]} == {"guard", "audit"}
