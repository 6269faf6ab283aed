"""``hookwise install`` / ``uninstall``: which events, which units, and text edits that keep
everything else byte for byte (property-tested), Codex's hook trust, and refusals."""

from __future__ import annotations

import json
import os
import shlex
import stat
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hookwise.config.atomic import write_text_atomic
from hookwise.config.codex.settings import load_codex_hooks
from hookwise.config.hookwise_command import DIRECT_PREFIX, is_hookwise_command, machine_paths
from hookwise.config.jsonc import JsonDocument, parse_jsonc
from hookwise.policy.install.codex_hook_trust import (
    edit_codex_project_trust,
    edit_codex_trust,
    toml_string,
)
from hookwise.policy.install.errors import InstallError
from hookwise.policy.install.hooks_edit import edit_hooks, find_hookwise
from hookwise.policy.install.launcher import hook_argv, hook_command
from hookwise.policy.install.plan import plan_install, plan_uninstall, write_plan
from hookwise.policy.install.registrations import (
    Registration,
    policy_events,
    registrations,
    timeout_seconds,
    tool_matcher_events,
)
from hookwise.policy.install.targets import settings_path
from tests.policy.conftest import compile_text

COMMAND = "/venv/bin/python -I -S /src/hookwise/policy/run_hook.py --platform claude"
POLICY = """\
version: 1
rules:
  - id: no-force-push
    match: {command: git push --force}
    action: deny
    reason: Force pushes rewrite shared history.
  - id: prompt-context
    match: {prompt: secret}
    action: context
    context: careful
"""


def regs(host: str = "claude", events: tuple[str, ...] = ("PreToolUse",)) -> list[Registration]:
    return registrations(host, list(events), COMMAND.replace("claude", host), 10)


# --------------------------------------------------------------------------- the command


def test_hook_command_is_the_fast_launcher_and_quotes_for_the_shell(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    argv = hook_argv("codex")
    assert argv[:5] == [sys.executable, "-I", "-S", "-X", "utf8"]  # (utf8: s28 run #1)
    assert argv[5].endswith(os.path.join("hookwise", "policy", "run_hook.py"))
    assert os.path.isabs(argv[5]) and os.path.exists(argv[5])
    assert argv[6:] == ["--platform", "codex"]
    assert machine_paths(shlex.join(argv)) == [sys.executable, argv[5]]
    monkeypatch.setattr(sys, "executable", "/opt/my python/it's/bin/python3")
    command = hook_command("gemini", direct=True)
    assert command.startswith(DIRECT_PREFIX)  # (the limits' check: s33)
    argv = shlex.split(command.removeprefix(DIRECT_PREFIX))
    assert argv == hook_argv("gemini")
    assert argv[0] == "/opt/my python/it's/bin/python3"
    assert is_hookwise_command(command)
    assert machine_paths(command)[0] == "/opt/my python/it's/bin/python3"
    console = hook_command("claude", console=True).removeprefix(DIRECT_PREFIX)
    assert shlex.split(console)[1:] == ["hook", "--platform", "claude"]
    assert shlex.split(console)[0] == "/opt/my python/it's/bin/hookwise"


@pytest.mark.parametrize(
    "command",
    [
        COMMAND,
        "'/a b/python3.12' -I -S '/x y/hookwise/policy/run_hook.py'",
        "hookwise hook",
        "/usr/local/bin/hookwise hook --platform gemini --no-audit",
        "python3 -m hookwise hook --platform codex",
    ],
)
def test_hookwise_commands_are_recognised(command: str) -> None:
    assert is_hookwise_command(command)


@pytest.mark.parametrize(
    "command",
    [
        "hookwise policy validate",
        "echo hookwise hook",
        "python3 /x/other.py /y/hookwise/policy/run_hook.py",
        "bash -c 'hookwise hook'",
        "python3 /x/hookwise/policy/hook.py",
        "unbalanced 'quote",
        "",
        None,
        42,
    ],
)
def test_other_commands_are_not_hookwise(command: object) -> None:
    assert not is_hookwise_command(command)


LEGACY_PORTABLE = shlex.join(
    [
        "sh",
        "-c",
        hook_command("claude").replace("--platform claude", '"$@"'),
        "hookwise",
        "--platform",
        "claude",
    ]
)


@pytest.mark.parametrize("host", ["gemini", "claude", "codex"])
def test_the_portable_command_is_recognised_in_every_form(host: str) -> None:
    """What install writes, the same after Gemini CLI expanded its variables when loading
    its settings, and the ``sh -c`` form earlier versions wrote; nothing else."""
    from hookwise.config.env_expansion import resolve_env_vars
    from hookwise.config.hookwise_command import portable_host

    command = hook_command(host)
    assert portable_host(command) == host and is_hookwise_command(command)
    loaded = resolve_env_vars(command, {"HOME": "/home/u", "XDG_DATA_HOME": "/x y/share"})
    assert isinstance(loaded, str) and loaded != command
    assert portable_host(loaded) == host
    assert portable_host(LEGACY_PORTABLE.replace("claude", host)) == host
    other = "gemini" if host != "gemini" else "codex"
    mixed = command.replace(f"hook --platform {host}", f"hook --platform {other}")
    assert portable_host(mixed) is None  # not exactly ours: a user's own script
    assert portable_host(command + "; rm -rf ~") is None
    assert portable_host("echo " + command) is None


def test_install_replaces_the_earlier_sh_c_form_and_uninstall_removes_it() -> None:
    old = {
        "hooks": {
            "PreToolUse": [
                {"matcher": "*", "hooks": [{"type": "command", "command": LEGACY_PORTABLE}]}
            ]
        }
    }
    text = json.dumps(old, indent=2)
    fresh = registrations("claude", ["PreToolUse"], hook_command("claude"), 10)
    edit = edit_hooks(text, "s.json", fresh, jsonc=False)
    assert edit.after is not None
    handlers = json.loads(edit.after)["hooks"]["PreToolUse"]
    assert [h["command"] for g in handlers for h in g["hooks"]] == [hook_command("claude")]
    gone = edit_hooks(text, "s.json", [], jsonc=False)
    assert gone.after is not None and "hookwise" not in gone.after


@pytest.mark.parametrize("shell", ["/bin/sh", "bash"])
def test_the_portable_script_runs_in_each_hosts_shell(shell: str, tmp_path: Path) -> None:
    """No hookwise at all on the machine: the script exits 2 (a block) in sh and bash."""
    import subprocess

    done = subprocess.run(
        [shell, "-c", hook_command("codex")],
        input="{}",
        capture_output=True,
        text=True,
        env={"HOME": str(tmp_path), "PATH": "/usr/bin:/bin"},
        timeout=30,
        check=False,
    )
    assert done.returncode == 2 and "hookwise is not installed" in done.stderr


# --------------------------------------------------------------------------- the policy


EVENTFUL = """\
version: 1
rules:
  - {id: a, match: {tool: shell}, action: deny, reason: r}
  - {id: b, match: {prompt: x}, action: context, context: c}
  - {id: c, events: [agent.stop], action: retry, reason: again}
  - {id: d, events: [tool.failure], action: context, context: c}
  - {id: e, events: ["claude:PreCompact"], action: message, message: m}
  - {id: f, events: [session.start], match: {host: codex}, action: context, context: c}
  - {id: g, events: [notification], action: message, message: m, enabled: false}
"""


@pytest.mark.parametrize(
    ("host", "expected"),
    [
        # tool.failure: Gemini AfterTool with an error; Codex PostToolUse whose response failed
        ("gemini", ["BeforeTool", "AfterTool", "BeforeAgent", "AfterAgent"]),
        (
            "claude",
            [
                "UserPromptSubmit",
                "PreToolUse",
                "PostToolUseFailure",
                "Stop",
                "SubagentStop",
                "PreCompact",
            ],
        ),
        (
            "codex",
            [
                "SessionStart",
                "UserPromptSubmit",
                "PreToolUse",
                "PostToolUse",
                "Stop",
                "SubagentStop",
            ],
        ),
    ],
)
def test_every_event_the_policy_uses_is_registered(host: str, expected: list[str]) -> None:
    compiled = compile_text(EVENTFUL)
    assert not compiled["errors"], compiled["errors"]
    assert policy_events(compiled, host) == expected


def test_a_rule_on_agent_interrupt_registers_codex_interrupt_only() -> None:
    compiled = compile_text(
        "version: 1\nrules:\n"
        "  - {id: noted, events: [agent.interrupt], action: message, message: interrupted}\n"
    )
    assert not compiled["errors"], compiled["errors"]
    assert policy_events(compiled, "codex") == ["PreToolUse", "Interrupt"]
    assert policy_events(compiled, "claude") == ["PreToolUse"]
    assert policy_events(compiled, "gemini") == ["BeforeTool"]


def test_without_rules_only_the_pre_tool_event_is_registered() -> None:
    empty = compile_text("version: 1\nrules: []\n")
    assert policy_events(empty, "gemini") == ["BeforeTool"]
    assert policy_events(empty, "claude") == ["PreToolUse"]
    assert policy_events(empty, "codex") == ["PreToolUse"]


def test_timeout_covers_the_validators() -> None:
    assert timeout_seconds(compile_text("version: 1\nrules: []\n")) == 10
    policy = compile_text(
        """\
        version: 1
        settings: {validator_timeout: 7}
        rules:
          - {id: v1, match: {tool: shell}, action: validate, validator: {command: "true", timeout: 5}}
          - {id: v2, match: {tool: write}, action: validate, validator: {command: "true"}}
          - {id: v3, match: {tool: edit}, action: validate, validator: {command: "x"}, enabled: false}
        """
    )
    assert timeout_seconds(policy) == 10 + 5 + 7


def test_units_and_matchers_per_host() -> None:
    gemini = registrations("gemini", ["BeforeTool", "BeforeAgent"], "c", 12)
    assert [r.handler["timeout"] for r in gemini] == [12000, 12000]  # milliseconds
    assert [r.matcher for r in gemini] == ["*", None]
    assert gemini[0].handler["name"] == "hookwise"
    for host in ("claude", "codex"):
        found = registrations(host, ["PreToolUse", "UserPromptSubmit", "Stop"], "c", 12)
        assert [r.handler["timeout"] for r in found] == [12, 12, 12]  # seconds
        assert [r.matcher for r in found] == ["*", None, None]
        assert "name" not in found[0].handler


def test_tool_events_get_the_match_all_matcher_read_from_the_event_tables() -> None:
    """The events whose matcher is compared with the tool name, as each host's table says
    (was a restated table here: the same sets)."""
    assert tool_matcher_events("gemini") == {"BeforeTool", "AfterTool"}
    assert tool_matcher_events("claude") == {
        "PreToolUse",
        "PostToolUse",
        "PostToolUseFailure",
        "PermissionRequest",
        "PermissionDenied",  # (issue 27: auto mode's denials, matched on the tool name)
    }
    assert tool_matcher_events("codex") == {"PreToolUse", "PostToolUse", "PermissionRequest"}
    for host in ("gemini", "claude", "codex"):
        events = sorted(tool_matcher_events(host))
        assert {r.matcher for r in registrations(host, events, "c", 1)} == {"*"}


def test_settings_files_per_host_and_scope(tmp_path: Path) -> None:
    env = {"HOME": str(tmp_path / "home")}
    project = tmp_path / "proj"
    home = tmp_path / "home"
    assert settings_path("gemini", "project", project, env) == project / ".gemini/settings.json"
    assert settings_path("gemini", "user", project, env) == home / ".gemini/settings.json"
    assert settings_path("claude", "project", project, env) == project / ".claude/settings.json"
    assert settings_path("claude", "user", project, env) == home / ".claude/settings.json"
    assert settings_path("codex", "project", project, env) == project / ".codex/hooks.json"
    assert settings_path("codex", "user", project, env) == home / ".codex/hooks.json"
    moved = {
        **env,
        "CODEX_HOME": str(tmp_path / "cx"),
        "CLAUDE_CONFIG_DIR": str(tmp_path / "cl"),
        "GEMINI_CLI_HOME": str(tmp_path / "gm"),
    }
    assert settings_path("codex", "user", project, moved) == tmp_path / "cx/hooks.json"
    assert settings_path("claude", "user", project, moved) == tmp_path / "cl/settings.json"
    assert settings_path("gemini", "user", project, moved) == tmp_path / "gm/.gemini/settings.json"
    with pytest.raises(ValueError, match="unknown scope 'local'"):
        settings_path("claude", "local", project, env)


# --------------------------------------------------------------------------- text edits

CLAUDE_SETTINGS = """\
{
  "permissions": {"allow": ["Bash(ls:*)"]},
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "Bash",
        "hooks": [{"type": "command", "command": "./guard.sh", "timeout": 5}]
      }
    ],
    "Stop": []
  },
  "model": "x"
}
"""


def test_existing_hooks_and_settings_are_kept_byte_for_byte() -> None:
    edit = edit_hooks(CLAUDE_SETTINGS, "s.json", regs(), jsonc=False)
    assert edit.after is not None and edit.changed
    after = json.loads(edit.after)
    assert after["permissions"] == {"allow": ["Bash(ls:*)"]} and after["model"] == "x"
    assert after["hooks"]["Stop"] == []
    groups = after["hooks"]["PreToolUse"]
    assert groups[0] == json.loads(CLAUDE_SETTINGS)["hooks"]["PreToolUse"][0]
    assert groups[1] == {
        "matcher": "*",
        "hooks": [{"type": "command", "command": COMMAND, "timeout": 10}],
    }
    # one insertion: the text before and after it is the original's
    cut = CLAUDE_SETTINGS.index('\n    ],\n    "Stop"')
    assert edit.after.startswith(CLAUDE_SETTINGS[:cut])
    assert edit.after.endswith(CLAUDE_SETTINGS[cut:])
    assert [r.event for r in edit.added] == ["PreToolUse"]


def test_install_is_idempotent_and_uninstall_restores_the_file() -> None:
    desired = regs(events=("PreToolUse", "UserPromptSubmit"))
    first = edit_hooks(CLAUDE_SETTINGS, "s.json", desired, jsonc=False)
    second = edit_hooks(first.after, "s.json", desired, jsonc=False)
    assert not second.changed and second.added == [] and second.kept == desired
    removed = edit_hooks(first.after, "s.json", [], jsonc=False)
    assert removed.after == CLAUDE_SETTINGS
    assert [h.event for h in removed.removed] == ["PreToolUse", "UserPromptSubmit"]
    nothing = edit_hooks(CLAUDE_SETTINGS, "s.json", [], jsonc=False)
    assert not nothing.changed


def test_uninstall_leaves_other_handlers_of_a_shared_group() -> None:
    shared = {
        "hooks": {
            "PreToolUse": [
                {
                    "matcher": "*",
                    "hooks": [
                        {"type": "command", "command": "./mine.sh"},
                        {"type": "command", "command": COMMAND, "timeout": 10},
                        {"type": "command", "command": "hookwise hook --platform claude"},
                    ],
                }
            ]
        }
    }
    text = json.dumps(shared, indent=4)
    edit = edit_hooks(text, "s.json", [], jsonc=False)
    assert edit.after is not None
    assert json.loads(edit.after) == {
        "hooks": {
            "PreToolUse": [{"matcher": "*", "hooks": [{"type": "command", "command": "./mine.sh"}]}]
        }
    }


def test_install_replaces_an_outdated_entry_and_drops_events_no_longer_used() -> None:
    old = {
        "hooks": {
            "PreToolUse": [
                {"matcher": "*", "hooks": [{"type": "command", "command": "hookwise hook"}]}
            ],
            "Stop": [{"hooks": [{"type": "command", "command": COMMAND, "timeout": 10}]}],
            "UserPromptSubmit": [{"hooks": [{"type": "command", "command": "./other.sh"}]}],
        }
    }
    edit = edit_hooks(json.dumps(old, indent=2), "s.json", regs(), jsonc=False)
    assert edit.after is not None
    after = json.loads(edit.after)
    assert after["hooks"]["PreToolUse"] == [regs()[0].group()]
    assert "Stop" not in after["hooks"]
    assert after["hooks"]["UserPromptSubmit"] == old["hooks"]["UserPromptSubmit"]
    assert sorted(h.event for h in edit.removed) == ["PreToolUse", "Stop"]


def test_a_missing_or_empty_file_is_created() -> None:
    for text in (None, "", "  \n"):
        edit = edit_hooks(text, "s.json", regs("gemini", ("BeforeTool",)), jsonc=True)
        assert edit.after is not None
        assert json.loads(edit.after)["hooks"]["BeforeTool"][0]["hooks"][0]["timeout"] == 10000


def test_gemini_comments_and_layout_survive() -> None:
    text = (
        '// my settings\r\n{\r\n\t"general": {"vimMode": true}, // keep\r\n'
        '\t/* hooks below */\r\n\t"hooks": {\r\n\t\t"BeforeTool": [\r\n\t\t\t{"hooks": [{"type": "command", "command": "./mine.sh"}]} // mine\r\n\t\t]\r\n\t}\r\n}\r\n'
    )
    desired = regs("gemini", ("BeforeTool", "BeforeAgent"))
    edit = edit_hooks("\ufeff" + text, "settings.json", desired, jsonc=True)
    after = edit.after
    assert after is not None and after.startswith("\ufeff")
    for comment in ("// my settings", "// keep", "/* hooks below */", "// mine"):
        assert comment in after
    assert "\r\n" in after and "\n" not in after.replace("\r\n", "")
    assert "\n\t\t\t{" in after.replace("\r\n", "\n")  # tabs, one level deeper
    value, problem = parse_jsonc(after[1:])
    assert problem is None and isinstance(value, dict)
    assert value["general"] == {"vimMode": True}
    assert [r.event for r in find_hookwise(JsonDocument(after, "s", jsonc=True))] == [
        "BeforeTool",
        "BeforeAgent",
    ]
    assert edit_hooks(after, "settings.json", [], jsonc=True).after == "\ufeff" + text


def test_a_compact_file_stays_compact() -> None:
    text = '{"permissions":{"allow":["Bash"]}}'
    edit = edit_hooks(text, "s.json", regs(), jsonc=False)
    assert edit.after is not None and "\n" not in edit.after
    assert edit_hooks(edit.after, "s.json", [], jsonc=False).after == text


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{\n  "a": 1,\n}\n', r"s\.json:3:1: invalid JSON .*trailing comma"),
        ('{\n  "hooks": [1]\n}', r's\.json:2:12: "hooks" must be an object .*got an array'),
        ('{"hooks": {"PreToolUse": {}}}', r's\.json:1:26: "hooks\.PreToolUse" must be an array'),
        ("[1, 2]", r"s\.json:1:1: expected a JSON object at the top level, got an array"),
        ('{"a": // comment\n 1}', r"s\.json:1:7: invalid JSON"),
    ],
)
def test_a_broken_settings_file_is_refused_with_its_position(text: str, message: str) -> None:
    with pytest.raises(InstallError, match=message):
        edit_hooks(text, "s.json", regs(), jsonc=False)


# --------------------------------------------------------------------------- property

_keys = st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=8)
_scalars = (
    st.none()
    | st.booleans()
    | st.integers(-1000, 1000)
    | st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=10)
)
_values = st.recursive(
    _scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_keys, inner, max_size=3),
    max_leaves=8,
)
_events = st.sampled_from(["PreToolUse", "UserPromptSubmit", "Stop", "Notification", "X"])
_handlers = st.fixed_dictionaries(
    {"type": st.just("command"), "command": st.sampled_from(["./a.sh", "echo hi", "hookwise x"])},
    optional={"timeout": st.integers(1, 600)},
)
_groups = st.fixed_dictionaries(
    {"hooks": st.lists(_handlers | _values, max_size=2)},
    optional={"matcher": st.sampled_from(["*", "Bash", "Edit|Write"])},
)
_hooks = st.dictionaries(_events, st.lists(_groups, min_size=1, max_size=2), max_size=3)
_documents = st.dictionaries(_keys.filter(lambda k: k != "hooks"), _values, max_size=4).flatmap(
    lambda base: st.one_of(
        st.just(base), _hooks.map(lambda hooks: {**base, "hooks": hooks} if hooks else base)
    )
)


@st.composite
def rendered(draw: st.DrawFn) -> str:
    """A settings document as some editor or person might have written it."""
    document = draw(_documents)
    indent = draw(st.sampled_from([None, 2, 4, "\t", 1]))
    text = json.dumps(document, indent=indent, ensure_ascii=draw(st.booleans()))
    if draw(st.booleans()):
        text += "\n"
    if draw(st.booleans()):
        text = text.replace("\n", "\r\n")
    return text


@st.composite
def commented(draw: st.DrawFn) -> str:
    """A JSONC text: comments after commas and before values, Gemini style."""
    text = draw(rendered())
    out = []
    in_string = escaped = False
    for char in text:
        out.append(char)
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char == "," and draw(st.integers(0, 3)) == 0:
            out.append(draw(st.sampled_from([" // note\n", " /* c */ "])))
    prefix = draw(st.sampled_from(["", "// settings\n", "/* top */ "]))
    return prefix + "".join(out)


_HOSTS = st.sampled_from(["gemini", "claude", "codex"])


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(text=rendered(), host=_HOSTS)
def test_uninstall_after_install_is_the_identity(text: str, host: str) -> None:
    events = {"gemini": ("BeforeTool", "AfterAgent"), "claude": ("PreToolUse", "Stop")}
    desired = regs(host, events.get(host, ("PreToolUse", "UserPromptSubmit")))
    installed = edit_hooks(text, "s.json", desired, jsonc=host == "gemini")
    assert installed.after is not None
    again = edit_hooks(installed.after, "s.json", desired, jsonc=host == "gemini")
    assert again.after == installed.after
    before = json.loads(text)
    after = json.loads(installed.after)
    hooks_after = after.pop("hooks")
    hooks_before = before.pop("hooks", {})
    assert after == before  # every other setting kept
    for event, groups in hooks_before.items():
        assert hooks_after[event][: len(groups)] == groups  # existing hooks kept, in order
    removed = edit_hooks(installed.after, "s.json", [], jsonc=host == "gemini")
    restored = json.loads(text)
    empty = isinstance(restored.get("hooks"), dict) and (
        not restored["hooks"] or any(restored["hooks"].get(e) == [] for e in _touched(desired))
    )
    if not empty:
        assert removed.after == text
    else:  # an empty container that existed before goes with hookwise's last entry
        assert _without_empty(json.loads(removed.after or "{}")) == _without_empty(restored)


def _touched(desired: list[Registration]) -> set[str]:
    return {r.event for r in desired}


def _without_empty(document: dict[str, Any]) -> dict[str, Any]:
    hooks = document.get("hooks")
    if isinstance(hooks, dict):
        hooks = {k: v for k, v in hooks.items() if v != []}
        document = {k: v for k, v in document.items() if k != "hooks"}
        if hooks:
            document["hooks"] = hooks
    return document


@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow])
@given(text=commented())
def test_jsonc_comments_survive_install_and_uninstall(text: str) -> None:
    desired = regs("gemini", ("BeforeTool", "BeforeAgent"))
    installed = edit_hooks(text, "settings.json", desired, jsonc=True)
    assert installed.after is not None
    for comment in ("// note", "/* c */", "// settings", "/* top */"):
        assert installed.after.count(comment) == text.count(comment)
    value, problem = parse_jsonc(installed.after)
    assert problem is None and isinstance(value, dict)
    original, _ = parse_jsonc(text)
    assert isinstance(original, dict)
    if isinstance(original.get("hooks"), dict) and any(
        original["hooks"].get(e) == [] for e in ("BeforeTool", "BeforeAgent")
    ):
        return
    if original.get("hooks") == {}:
        return
    assert edit_hooks(installed.after, "settings.json", [], jsonc=True).after == text


# --------------------------------------------------------------------------- plans and files


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    home = tmp_path / "home"
    home.mkdir()
    for name in ("HOOKWISE_POLICY", "HOOKWISE_USER_POLICY", "HOOKWISE_PROJECT_DIR"):
        monkeypatch.delenv(name, raising=False)
    return {
        "HOME": str(home),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "HOOKWISE_MANAGED_POLICY": str(tmp_path / "managed.yaml"),
    }


@pytest.fixture
def project(tmp_path: Path) -> Path:
    proj = tmp_path / "proj"
    (proj / ".hookwise").mkdir(parents=True)
    (proj / ".hookwise" / "policy.yaml").write_text(POLICY, encoding="utf-8")
    return proj


def test_plan_install_writes_the_policy_events_for_claude(
    project: Path, env: dict[str, str]
) -> None:
    plan = plan_install("claude", "project", project, env)
    assert [r.event for r in plan.edit.added] == ["UserPromptSubmit", "PreToolUse"]
    launcher = Path(env["HOME"]) / ".local" / "share" / "hookwise" / "hook"
    assert write_plan(plan) == [project / ".claude" / "settings.json", launcher]
    assert os.access(launcher, os.X_OK)
    written = json.loads((project / ".claude" / "settings.json").read_text())
    handler = written["hooks"]["PreToolUse"][0]["hooks"][0]
    assert handler["command"] == hook_command("claude") and handler["timeout"] == 10
    again = plan_install("claude", "project", project, env)
    assert not again.changed and write_plan(again) == []
    user = plan_install("claude", "user", project, env)
    assert user.settings == Path(env["HOME"]) / ".claude" / "settings.json"


def test_codex_install_trusts_exactly_its_hooks_as_codex_computes(
    project: Path, env: dict[str, str]
) -> None:
    codex_home = Path(env["HOME"]) / ".codex"
    codex_home.mkdir()
    config = codex_home / "config.toml"
    original = (
        'model = "m"\n\n[projects."' + str(project) + '"]\ntrust_level = "trusted"\n\n'
        '[hooks.state."elsewhere:pre_tool_use:0:0"]\ntrusted_hash = "sha256:x"\n'
    )
    config.write_text(original, encoding="utf-8")
    mine = {
        "hooks": {
            "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./m.sh"}]}]
        }
    }
    (project / ".codex").mkdir()
    (project / ".codex" / "hooks.json").write_text(json.dumps(mine, indent=2), encoding="utf-8")

    plan = plan_install("codex", "project", project, env)
    assert plan.notes == []
    launcher = Path(env["HOME"]) / ".local" / "share" / "hookwise" / "hook"
    assert [c.path for c in plan.changes] == [config, project / ".codex" / "hooks.json", launcher]
    write_plan(plan)
    loaded = load_codex_hooks(project, codex_home=codex_home, env=env)
    status = {(h.event, h.command): (h.trust, h.runs) for h in loaded.hooks}
    assert status[("PreToolUse", hook_command("codex"))] == ("trusted", True)
    assert status[("UserPromptSubmit", hook_command("codex"))] == ("trusted", True)
    assert status[("PreToolUse", "./m.sh")] == ("untrusted", False)  # not ours to approve
    assert sorted(plan.trusted) == sorted(
        h.key for h in loaded.hooks if h.command == hook_command("codex")
    )
    assert config.read_text().startswith(original)

    assert not plan_install("codex", "project", project, env).changed
    write_plan(plan_uninstall("codex", "project", project, env))
    assert config.read_text() == original
    assert json.loads((project / ".codex" / "hooks.json").read_text()) == mine


def test_codex_install_says_what_project_trust_is_missing(
    project: Path, env: dict[str, str]
) -> None:
    (project / ".git").mkdir()
    sub = project / "pkg"
    (sub / ".hookwise").mkdir(parents=True)
    (sub / ".hookwise" / "policy.yaml").write_text(POLICY)
    plan = plan_install("codex", "project", sub, env)
    [note] = plan.notes
    assert f'[projects."{project}"] trust_level = "trusted"' in note
    assert str(Path(env["HOME"]) / ".codex" / "config.toml") in note
    untrusted = plan_install("codex", "project", sub, env, trust=False)
    assert untrusted.trusted == [] and any("/hooks" in n for n in untrusted.notes)
    assert plan_install("codex", "user", sub, env).notes == []


def test_codex_trust_edit_replaces_a_stale_hash_and_refuses_what_it_cannot_edit() -> None:
    key = "/p/.codex/hooks.json:pre_tool_use:0:0"
    text = f'[hooks.state."{key}"]\ntrusted_hash = "sha256:old"\nenabled = true\n'
    updated = edit_codex_trust(text, "c.toml", {key: "sha256:new"}, {key: "sha256:old"})
    assert updated == text.replace("sha256:old", "sha256:new")
    kept = edit_codex_trust(text, "c.toml", {}, {key: "sha256:old"})
    assert kept is not None and tomllib.loads(kept) == {
        "hooks": {"state": {key: {"enabled": True}}}
    }
    users = edit_codex_trust(text, "c.toml", {}, {key: "sha256:someone-else"})
    assert users == text  # a hash hookwise did not write stays
    with pytest.raises(InstallError, match="add this by hand"):
        edit_codex_trust("hooks = {state = {}}\n", "c.toml", {key: "sha256:n"}, {})
    with pytest.raises(InstallError, match=r"c\.toml:2:\d+: invalid TOML"):
        edit_codex_trust("a = 1\nb = = 2\n", "c.toml", {key: "sha256:n"}, {})


_TOML_KEY = st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=12)
_TOML_VALUE = st.one_of(st.integers(-5, 5), st.booleans(), st.text(max_size=8))


def _toml_table(values: dict[str, Any]) -> str:
    return "".join(f"{json.dumps(k)} = {json.dumps(v)}\n" for k, v in values.items())


@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
@given(
    directory=st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), min_size=1),
    top=st.dictionaries(_TOML_KEY, _TOML_VALUE, max_size=3),
    tables=st.dictionaries(
        _TOML_KEY, st.dictionaries(_TOML_KEY, _TOML_VALUE, max_size=2), max_size=2
    ),
    level=st.sampled_from([None, "untrusted", "trusted"]),
)
def test_codex_project_trust_edit_keeps_everything_else(
    directory: str,
    top: dict[str, Any],
    tables: dict[str, dict[str, Any]],
    level: str | None,
) -> None:
    """Any project path, any other content: the project ends trusted, nothing else moves."""
    text = _toml_table(top)
    for name, values in tables.items():
        if name == "projects":
            continue
        text += f"\n[{json.dumps(name)}]\n{_toml_table(values)}"
    if level is not None and "projects" not in top:
        text += f'\n[projects.{toml_string(directory)}]\ntrust_level = "{level}"\nx = 1\n'
    try:
        before = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return  # a duplicate key made by the strategy: not a file Codex would read
    if "projects" in top:
        with pytest.raises(InstallError, match="add this by hand"):
            edit_codex_project_trust(text, "c.toml", Path(directory))
        return
    after = tomllib.loads(edit_codex_project_trust(text, "c.toml", Path(directory)))
    expected = dict(before)
    projects = dict(expected.get("projects", {}))
    projects[str(Path(directory))] = {
        **projects.get(str(Path(directory)), {}),
        "trust_level": "trusted",
    }
    expected["projects"] = projects
    assert after == expected


@given(st.text(st.characters(codec="utf-8", exclude_categories=["Cs"])))
def test_toml_string_reads_back_as_the_text(text: str) -> None:
    assert tomllib.loads(f"k = {toml_string(text)}") == {"k": text}
    assert tomllib.loads(f"[t.{toml_string(text)}]\nx = 1\n") == {"t": {text: {"x": 1}}}


def test_quoted_keys_with_brackets_and_hashes_are_found_again() -> None:
    """A header ``[projects."]#"]`` is one section (the bracket and hash are the key's)."""
    text = '[projects."]#"]\ntrust_level = "untrusted"\nx = 1\n'
    updated = edit_codex_project_trust(text, "c.toml", Path("]#"))
    assert updated == text.replace("untrusted", "trusted")
    key = "/p/.codex/hooks.json:pre]#:0:0"
    first = edit_codex_trust(None, "c.toml", {key: "sha256:a"}, {})
    second = edit_codex_trust(first, "c.toml", {key: "sha256:b"}, {})
    assert second is not None and second.count("[hooks.state.") == 1
    assert tomllib.loads(second)["hooks"]["state"][key] == {"trusted_hash": "sha256:b"}


def test_a_broken_file_means_nothing_is_written(project: Path, env: dict[str, str]) -> None:
    codex_home = Path(env["HOME"]) / ".codex"
    codex_home.mkdir()
    (codex_home / "config.toml").write_text("a = [\n", encoding="utf-8")
    with pytest.raises(InstallError, match=r"config\.toml.*invalid TOML"):
        plan_install("codex", "project", project, env)
    assert not (project / ".codex").exists()
    settings = project / ".gemini" / "settings.json"
    settings.parent.mkdir()
    settings.write_text('{\n  "a": 1\n  "b": 2\n}\n', encoding="utf-8")
    with pytest.raises(InstallError, match=r"settings\.json:3:3: invalid JSON"):
        plan_install("gemini", "project", project, env)
    assert settings.read_text() == '{\n  "a": 1\n  "b": 2\n}\n'
    assert sorted(p.name for p in settings.parent.iterdir()) == ["settings.json"]


def test_policy_errors_are_reported_and_tool_calls_still_hooked(
    project: Path, env: dict[str, str]
) -> None:
    (project / ".hookwise" / "policy.yaml").write_text(
        "version: 1\nrules:\n  - id: x\n    actoin: deny\n"
    )
    plan = plan_install("gemini", "project", project, env)
    assert [r.event for r in plan.edit.added] == ["BeforeTool"]
    [note] = [n for n in plan.notes if "error(s)" in n]
    assert "policy.yaml:4:5" in note and "denies" in note


def test_gemini_install_says_when_the_folder_is_untrusted(
    project: Path, env: dict[str, str]
) -> None:
    untrusted = {**env, "GEMINI_CLI_TRUST_WORKSPACE": "false"}
    notes = plan_install("gemini", "project", project, untrusted).notes
    assert any("not trusted" in n and "GEMINI_CLI_TRUST_WORKSPACE" in n for n in notes)
    trusted = {**env, "GEMINI_CLI_TRUST_WORKSPACE": "true"}
    assert not any(
        "not trusted" in n for n in plan_install("gemini", "project", project, trusted).notes
    )


def test_writes_are_atomic_and_keep_the_mode(tmp_path: Path) -> None:
    target = tmp_path / "settings.json"
    target.write_text("{}")
    target.chmod(0o600)
    write_text_atomic(target, '{"a": 1}\n')
    assert target.read_text() == '{"a": 1}\n'
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    assert [p.name for p in tmp_path.iterdir()] == ["settings.json"]
    fresh = tmp_path / "deep" / "new.json"
    write_text_atomic(fresh, "{}")
    assert fresh.read_text() == "{}"
    link = tmp_path / "link.json"
    link.symlink_to(target)
    write_text_atomic(link, "{}\n", follow_symlinks=True)  # what install does: a dotfiles link
    assert link.is_symlink() and target.read_text() == "{}\n"
    write_text_atomic(link, "[]\n")  # the default replaces the link itself
    assert not link.is_symlink() and target.read_text() == "{}\n"


def test_an_unreadable_settings_file_is_an_error(project: Path, env: dict[str, str]) -> None:
    settings = project / ".claude" / "settings.json"
    settings.mkdir(parents=True)
    with pytest.raises(InstallError, match="is a directory"):
        plan_install("claude", "project", project, env)
    settings.rmdir()
    settings.write_bytes(b'{"a": "\xff"}')
    with pytest.raises(InstallError, match="not UTF-8"):
        plan_install("claude", "project", project, env)


def test_model_before_and_session_end_rules_register_codex_s_own_events() -> None:
    """Codex 0.169 fires PreModelRequest and SessionEnd (tests/e2e/fixtures/codex-events):
    a rule on model.before or session.end registers them there."""
    compiled = compile_text(
        "version: 1\nrules:\n"
        "  - {id: m, events: [model.before], action: message, message: asking}\n"
        "  - {id: e, events: [session.end], action: message, message: bye}\n"
    )
    assert not compiled["errors"], compiled["errors"]
    assert policy_events(compiled, "codex") == ["PreToolUse", "PreModelRequest", "SessionEnd"]
    assert policy_events(compiled, "claude") == ["PreToolUse", "SessionEnd"]
    assert policy_events(compiled, "gemini") == ["BeforeTool", "BeforeModel", "SessionEnd"]
