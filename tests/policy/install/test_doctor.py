"""``hookwise doctor``: each problem it must find, and a clean bill after a real install."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from hookwise.policy.install.doctor import (
    DoctorReport,
    HostReport,
    SelfTest,
    diagnose,
    host_reading,
)
from hookwise.policy.install.launcher import hook_argv, hook_command
from hookwise.policy.install.plan import plan_install, write_plan

POLICY = """\
version: 1
rules:
  - id: no-force-push
    match: {command: git push --force}
    action: deny
    reason: Force pushes rewrite shared history.
"""


class Setup:
    def __init__(self, root: Path) -> None:
        self.home = root / "home"
        self.project = root / "proj"
        (self.project / ".hookwise").mkdir(parents=True)
        self.home.mkdir()
        self.policy = self.project / ".hookwise" / "policy.yaml"
        self.policy.write_text(POLICY, encoding="utf-8")
        self.env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": str(self.home),
            "XDG_CONFIG_HOME": str(self.home / ".config"),
            "XDG_CACHE_HOME": str(self.home / ".cache"),
            "HOOKWISE_MANAGED_POLICY": str(root / "managed.yaml"),
        }

    def install(self, host: str, scope: str = "project", **options: object) -> None:
        write_plan(plan_install(host, scope, self.project, self.env, **options))  # type: ignore[arg-type]

    def codex_config(self, text: str) -> None:
        path = self.home / ".codex" / "config.toml"
        path.parent.mkdir(parents=True, exist_ok=True)
        before = path.read_text() if path.exists() else ""
        path.write_text(before + text, encoding="utf-8")

    def trust_codex_project(self) -> None:
        self.codex_config(f'\n[projects."{self.project}"]\ntrust_level = "trusted"\n')

    def doctor(self, host: str, *, explicit: bool = True, self_test: bool = True) -> HostReport:
        report = self.report(host, explicit=explicit, self_test=self_test)
        return report.hosts[0]

    def report(self, host: str, *, explicit: bool = True, self_test: bool = True) -> DoctorReport:
        return diagnose(
            self.project, self.env, hosts=(host,), explicit=explicit, run_self_test=self_test
        )


def statuses(report: HostReport, name: str) -> list[str]:
    return [c.status for c in report.checks if c.name == name]


def details(report: HostReport, status: str = "fail") -> str:
    return "\n".join(c.detail for c in report.checks if c.status == status)


@pytest.fixture
def setup(tmp_path: Path) -> Setup:
    return Setup(tmp_path)


def test_not_installed_is_information_unless_the_host_was_asked_for(setup: Setup) -> None:
    report = setup.report("claude", explicit=False)
    assert report.ok and not report.hosts[0].installed
    assert statuses(report.hosts[0], "registered") == ["info"]
    asked = setup.doctor("claude")
    assert not asked.ok and "hookwise install claude" in details(asked)


@pytest.mark.parametrize("host", ["claude", "gemini", "codex"])
def test_a_fresh_install_is_all_good_with_a_live_self_test(setup: Setup, host: str) -> None:
    if host == "gemini":
        setup.env["GEMINI_CLI_TRUST_WORKSPACE"] = "true"
    if host == "codex":
        setup.trust_codex_project()
    setup.install(host)
    report = setup.report(host)
    host_report = report.hosts[0]
    assert report.ok, [c for c in host_report.checks if c.status != "ok"]
    [test] = [c for c in host_report.checks if c.name == "self-test"]
    assert test.status == "ok" and "answered exit 0" in test.detail
    assert {r.event for r in host_report.registered} == {
        "gemini": {"BeforeTool"},
        "claude": {"PreToolUse"},
        "codex": {"PreToolUse"},
    }[host]


def test_the_self_test_runs_the_policy(setup: Setup) -> None:
    setup.policy.write_text(
        POLICY.replace("command: git push --force", "command: echo"), encoding="utf-8"
    )
    setup.install("claude")
    [test] = [c for c in setup.doctor("claude").checks if c.name == "self-test"]
    assert test.status == "ok" and "decision: deny" in test.detail
    assert "permissionDecision" in test.detail


def test_events_the_policy_uses_but_not_registered(setup: Setup) -> None:
    setup.install("claude")
    setup.policy.write_text(
        POLICY + "  - {id: ctx, match: {prompt: x}, action: context, context: c}\n"
    )
    report = setup.doctor("claude", self_test=False)
    assert "UserPromptSubmit" in details(report) and "hookwise install claude" in details(report)
    setup.install("claude")
    assert setup.doctor("claude", self_test=False).ok


def test_the_policy_check_counts_one_rule_in_the_singular(setup: Setup) -> None:
    report = setup.report("claude", explicit=False)
    [detail] = [c.detail for c in report.policy.checks if c.status == "ok"]
    assert detail.startswith("valid: 1 rule (1 enabled) in project ")


def test_policy_errors_are_reported_with_their_position(setup: Setup) -> None:
    setup.policy.write_text("version: 1\nrules:\n  - id: x\n    actoin: deny\n")
    report = setup.report("claude", explicit=False)
    assert not report.ok and not report.policy.ok
    error = next(c.detail for c in report.policy.checks if c.status == "fail")
    assert error.startswith(f"{setup.policy}:4:5: ") and "did you mean 'action'" in error
    setup.policy.unlink()
    report = setup.report("claude", explicit=False)
    assert report.ok and "no policy file" in report.policy.checks[0].detail


def test_gemini_untrusted_folder(setup: Setup) -> None:
    setup.install("gemini")
    report = setup.doctor("gemini")
    assert statuses(report, "trust") == ["fail"]
    assert "GEMINI_CLI_TRUST_WORKSPACE" in details(report)
    assert "does not load it here" in details(report)
    setup.env["GEMINI_CLI_TRUST_WORKSPACE"] = "true"
    assert setup.doctor("gemini").ok


def test_gemini_switches_and_a_timeout_in_the_wrong_unit(setup: Setup) -> None:
    setup.env["GEMINI_CLI_TRUST_WORKSPACE"] = "true"
    setup.install("gemini", timeout=10)
    settings = setup.project / ".gemini" / "settings.json"
    data = json.loads(settings.read_text())
    data["hooks"]["BeforeTool"][0]["hooks"][0]["timeout"] = 10  # seconds written for Gemini
    settings.write_text(json.dumps(data))
    assert "timeout 10 ms" in details(setup.doctor("gemini", self_test=False))
    data["hooksConfig"] = {"disabled": ["hookwise"]}
    settings.write_text(json.dumps(data))
    assert "hooksConfig.disabled" in details(setup.doctor("gemini", self_test=False))
    data["hooksConfig"] = {"enabled": False}
    settings.write_text(json.dumps(data))
    assert "hooksConfig.enabled is false" in details(setup.doctor("gemini", self_test=False))


def test_the_ask_check_is_given_where_install_gives_the_ask_note(setup: Setup) -> None:
    """Gemini CLI's row has install's ``ask_note``: doctor checks the same ask handling
    there (the disabled switch names its entry), and for no host without the note."""
    setup.env["GEMINI_CLI_TRUST_WORKSPACE"] = "true"
    setup.install("gemini")
    settings = setup.project / ".gemini" / "settings.json"
    data = json.loads(settings.read_text())
    data["hooksConfig"] = {"disabled": ["hookwise"]}
    settings.write_text(json.dumps(data))
    gemini = setup.doctor("gemini", self_test=False)
    assert [c.name for c in gemini.checks].count("ask") == 1
    [switch] = [c for c in gemini.checks if c.name == "switch"]
    assert switch.detail.endswith(
        "#/hooks/BeforeTool/0/hooks/0: listed in hooksConfig.disabled: Gemini CLI does not run it"
    ), switch.detail
    setup.install("claude")
    claude = setup.doctor("claude", self_test=False)
    assert "ask" not in [c.name for c in claude.checks]
    assert "switch" not in [c.name for c in claude.checks]


def test_claude_disable_all_hooks(setup: Setup) -> None:
    setup.install("claude")
    user = setup.home / ".claude" / "settings.json"
    user.parent.mkdir()
    user.write_text('{"disableAllHooks": true}')
    report = setup.doctor("claude", self_test=False)
    assert "disableAllHooks" in details(report) and str(user) in details(report)


def test_codex_project_trust_missing_names_the_line_to_add(setup: Setup) -> None:
    setup.install("codex")
    report = setup.doctor("codex")
    config = setup.home / ".codex" / "config.toml"
    assert f'[projects."{setup.project}"] trust_level = "trusted" to {config}' in details(report)
    setup.trust_codex_project()
    assert setup.doctor("codex").ok


def test_codex_hook_hash_untrusted_or_modified(setup: Setup) -> None:
    setup.trust_codex_project()
    setup.install("codex", trust=False)
    report = setup.doctor("codex", self_test=False)
    assert "not trusted: Codex skips it silently" in details(report)
    assert 'trusted_hash = "sha256:' in details(report)
    setup.install("codex")
    assert setup.doctor("codex", self_test=False).ok
    hooks = setup.project / ".codex" / "hooks.json"
    hooks.write_text(hooks.read_text().replace('"timeout": 10', '"timeout": 11'))
    assert "changed since it was trusted" in details(setup.doctor("codex", self_test=False))


def test_codex_hooks_switched_off(setup: Setup) -> None:
    setup.trust_codex_project()
    setup.install("codex")
    setup.codex_config("\n[features]\nhooks = false\n")
    assert "Codex runs no hook" in details(setup.doctor("codex", self_test=False))


def _fake_hookwise(directory: Path, body: str) -> str:
    """A program named ``hookwise`` (so doctor takes it for one) with a given answer."""
    directory.mkdir(parents=True, exist_ok=True)
    program = directory / "hookwise"
    program.write_text(f"#!/bin/sh\ncat > /dev/null\n{body}\n")
    program.chmod(program.stat().st_mode | stat.S_IXUSR)
    return f"{program} hook --platform codex"


@pytest.mark.parametrize(
    ("body", "status", "expected"),
    [
        ("echo not json", "fail", "plain text"),
        ('echo \'{"decision": "deny"}\'', "fail", "Codex rejects it"),
        ("exit 1", "fail", "Codex rejects it (hook exited with 1)"),
        ("sleep 5", "fail", "gave no answer within 1 s"),
        ("echo '{}'", "ok", "answered exit 0 {}"),  # the same as no output
    ],
)
def test_the_self_test_judges_the_answer_as_the_host_would(
    setup: Setup, body: str, status: str, expected: str
) -> None:
    setup.trust_codex_project()
    command = _fake_hookwise(setup.home / "bin", body)
    setup.install("codex", command=command, timeout=1)
    [test] = [c for c in setup.doctor("codex").checks if c.name == "self-test"]
    assert test.status == status and expected in test.detail, test.detail


@pytest.mark.parametrize(
    ("host", "event", "answer", "expected"),
    [
        ("claude", "PreToolUse", ("not json", 0), "plain text, not a JSON answer"),
        (
            "claude",
            "PreToolUse",
            ('{"hookSpecificOutput": {"hookEventName": "PostToolUse"}}', 0),
            "hookEventName does not name the event",
        ),
        (
            "claude",
            "PreToolUse",
            ('{"hookSpecificOutput": {"hookEventName": "PreToolUse"}}', 0),
            None,
        ),
        ("gemini", "BeforeTool", ("not json", 2), "Gemini CLI reads it as a denial"),
        ("gemini", "BeforeTool", ("not json", 0), "Gemini CLI reads it as a message"),
        ("gemini", "BeforeTool", ("", 3), "exit 3 without an answer: Gemini CLI marks"),
        ("gemini", "BeforeTool", ('{"decision": "deny", "reason": "no"}', 0), None),
        ("codex", "PreToolUse", ('{"decision": "deny"}', 0), "Codex rejects it"),
    ],
)
def test_each_host_s_adapter_reads_the_self_test_s_answer(
    host: str, event: str, answer: tuple[str, int], expected: str | None
) -> None:
    """Gemini CLI's and Claude Code's readers are their adapters' (answer_problem), Codex's
    form is the default: what each says of an answer it would not take."""
    stdout, code = answer
    problem = host_reading(host, event, SelfTest("hookwise hook", code, stdout, "", 0.0))
    if expected is None:
        assert problem is None
    else:
        assert problem is not None and expected in problem, problem


def test_an_answer_unlike_this_hookwise_is_a_warning(setup: Setup) -> None:
    setup.policy.write_text(POLICY.replace("command: git push --force", "command: echo"))
    command = _fake_hookwise(setup.home / "bin", "true").replace("codex", "claude")
    setup.install("claude", command=command)
    [test] = [c for c in setup.doctor("claude").checks if c.name == "self-test"]
    assert test.status == "warn" and "this hookwise answers exit 0" in test.detail


def test_a_missing_interpreter_fails_the_self_test(setup: Setup) -> None:
    direct = hook_command("gemini", direct=True)
    command = direct.replace(hook_argv("gemini")[0], str(setup.home / "gone" / "python3"))
    setup.env["GEMINI_CLI_TRUST_WORKSPACE"] = "true"
    setup.install("gemini", command=command)
    report = setup.doctor("gemini")
    assert "Gemini CLI reads it as a denial" in details(report)  # exit 127: every call blocked


def test_a_narrowed_matcher_is_a_warning(setup: Setup) -> None:
    setup.install("claude")
    settings = setup.project / ".claude" / "settings.json"
    settings.write_text(settings.read_text().replace('"matcher": "*"', '"matcher": "Bash"'))
    report = setup.doctor("claude", self_test=False)
    assert report.ok and "matcher 'Bash'" in details(report, "warn")


def test_registered_twice_on_codex_is_a_warning(setup: Setup) -> None:
    setup.trust_codex_project()
    setup.install("codex")
    setup.install("codex", scope="user")
    report = setup.doctor("codex", self_test=False)
    assert report.ok and "registered 2 times" in details(report, "warn")
    assert {r.scope for r in report.registered} == {"project", "user"}


def test_a_broken_settings_file_is_a_failure(setup: Setup) -> None:
    settings = setup.project / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text('{"hooks": {,}}')
    report = setup.doctor("claude", self_test=False)
    assert f"{settings}:1:12: invalid JSON" in details(report)


def test_report_as_json(setup: Setup) -> None:
    setup.install("claude")
    data = setup.report("claude").to_json()
    assert data["ok"] is True and data["policy"]["ok"] is True
    claude = data["hosts"]["claude"]
    assert claude["installed"] and claude["events_used"] == ["PreToolUse"]
    assert claude["registered"][0]["scope"] == "project"
    assert claude["registered"][0]["command"] == hook_command("claude")
    json.dumps(data)


def test_an_install_shorter_than_the_relay_wait_fails(setup: Setup) -> None:
    """A host kills a slow hook and runs the tool: the timeout must hold the relay's wait."""
    user = Path(setup.env["HOME"]) / ".config" / "hookwise" / "policy.yaml"
    user.parent.mkdir(parents=True, exist_ok=True)
    user.write_text(
        "version: 1\nsettings:\n  approvals: {url: 'https://relay.example', token_env: T, "
        "wait: 100}\n",
        encoding="utf-8",
    )
    setup.env["HOOKWISE_USER_POLICY"] = str(user)
    setup.install("claude", timeout=10)  # written before the relay was configured
    failed = details(setup.doctor("claude", self_test=False))
    assert "timeout 10 s" in failed and "approval relay may need 115 s" in failed
    setup.install("claude")  # install again: 10 + 100 + 5
    assert "timeout" not in details(setup.doctor("claude", self_test=False))


def _env_checks(setup: Setup) -> list[tuple[str, str]]:
    report = setup.report("claude", self_test=False)
    return [(c.status, c.detail) for c in report.policy.checks if c.name == "env files"]


def test_env_files_that_change_what_hooks_run_are_named_with_their_variables(
    setup: Setup,
) -> None:
    """Codex's ~/.codex/.env (overrides), Gemini CLI's project .env (unset variables only,
    so PATH does not count there) and a Gemini extension's settings .env (merged last into
    its hooks' env): each file named with the variables that change what a hook runs."""
    assert _env_checks(setup) == []
    codex = setup.home / ".codex/.env"
    codex.parent.mkdir(parents=True)
    codex.write_text("OPENAI_API_KEY=x\nBASH_ENV=/tmp/evil.sh\nexport PATH=/tmp/bin\n")
    project_env = setup.project / ".env"
    project_env.write_text("PATH=/tmp/bin\nLD_PRELOAD=/tmp/x.so\nDEBUG=1\n")
    extension = setup.home / ".gemini/extensions/helper/.env"
    extension.parent.mkdir(parents=True)
    extension.write_text("API_TOKEN=t\nXDG_DATA_HOME=/tmp/planted\nHOME=/tmp/h\n")
    harmless = setup.home / ".gemini/extensions/quiet/.env"
    harmless.parent.mkdir(parents=True)
    harmless.write_text("API_TOKEN=t\n")
    checks = _env_checks(setup)
    assert {status for status, _ in checks} == {"warn"} and len(checks) == 3, checks
    by_file = {detail.split(" (", 1)[0]: detail for _, detail in checks}
    assert "sets BASH_ENV, PATH:" in by_file[str(codex)]
    assert "loaded by Codex" in by_file[str(codex)]
    assert "sets LD_PRELOAD:" in by_file[str(project_env)]  # PATH is set already
    assert "sets XDG_DATA_HOME, HOME:" in by_file[str(extension)]
    assert "extension's settings" in by_file[str(extension)]
    assert str(harmless) not in by_file


def test_claude_server_managed_settings_explain_hooks_that_never_fire(setup: Setup) -> None:
    """The org's remote-settings.json with allowManagedHooksOnly: hookwise's project hook
    never runs, and doctor names the file that decides it."""
    setup.install("claude")
    cache = setup.home / ".claude" / "remote-settings.json"
    cache.parent.mkdir(exist_ok=True)
    cache.write_text('{"allowManagedHooksOnly": true}')
    report = details(setup.doctor("claude", self_test=False))
    assert "server-managed settings (remote-settings.json) set allowManagedHooksOnly" in report
