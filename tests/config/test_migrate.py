"""Migrating hooks between the hosts: maps, units, round trips, files (Gemini, Claude, Codex)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, cast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hookwise.config.detect import Dialect
from hookwise.config.migrate import (
    Migration,
    MigrationError,
    convert_hooks,
    convert_matcher,
    map_event,
    plan_migration,
    target_path,
)
from hookwise.config.migrate_hosts import migrate_host
from hookwise.protocol.codex import CODEX
from hookwise.protocol.gemini import EVENTS
from hookwise.protocol.hosts import hosts_with
from tests.strategies import json_values

CLAUDE_TO_GEMINI_EVENTS = migrate_host("gemini").from_claude

MIGRATABLE = hosts_with("migrate")


def cmd(command: str, **extra: Any) -> dict[str, Any]:
    return {"type": "command", "command": command, **extra}


def grp(*hooks: dict[str, Any], matcher: str | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"hooks": list(hooks)}
    if matcher is not None:
        out["matcher"] = matcher
    return out


def convert(hooks: dict[str, Any], source: str, target: str) -> Any:
    return convert_hooks(hooks, cast(Dialect, source), cast(Dialect, target))


def one_tool_hook(hook: dict[str, Any], source: str, target: str) -> dict[str, Any]:
    """Convert a single before-tool hook; the converted handler."""
    event = "BeforeTool" if source == "gemini" else "PreToolUse"
    (group,) = next(iter(convert({event: [grp(hook)]}, source, target).hooks.values()))
    handler: dict[str, Any] = group["hooks"][0]
    return handler


# --------------------------------------------------------------------------- events


def test_gemini_map_and_its_reverse() -> None:
    for claude, gemini in CLAUDE_TO_GEMINI_EVENTS.items():
        assert map_event(claude, "claude", "gemini") == gemini
        assert map_event(gemini, "gemini", "claude") == claude
    assert map_event("PreToolUse", "gemini", "claude") is None  # not a Gemini name


@pytest.mark.parametrize(
    ("event", "source", "target"),
    [
        ("SubagentStop", "claude", "gemini"),
        ("PermissionRequest", "claude", "gemini"),
        ("PostToolUseFailure", "claude", "codex"),
        ("Notification", "claude", "codex"),
        ("BeforeModel", "gemini", "claude"),
        ("BeforeToolSelection", "gemini", "codex"),
        ("Notification", "gemini", "codex"),
        ("SubagentStart", "codex", "gemini"),
        ("Bogus", "claude", "codex"),
    ],
)
def test_unmappable_events(event: str, source: str, target: str) -> None:
    assert map_event(event, cast(Dialect, source), cast(Dialect, target)) is None
    out = convert({event: [grp(cmd("x"))]}, source, target)
    assert out.hooks == {}
    assert len(out.unmapped) == 1 and event in out.unmapped[0]


def test_session_end_maps_to_codex_which_fires_it_since_0_169() -> None:
    """Codex 0.169 fires SessionEnd (tests/e2e/fixtures/codex-events), its reason always
    "other"."""
    assert map_event("SessionEnd", "claude", "codex") == "SessionEnd"


def test_codex_uses_claude_names() -> None:
    from hookwise.protocol.claude import CLAUDE

    for event in CODEX.events:
        if event not in CLAUDE.events:  # Codex's own (Interrupt): nothing to map it to
            assert map_event(event, "codex", "claude") is None
            continue
        assert map_event(event, "claude", "codex") == event
        assert map_event(event, "codex", "claude") == event
    assert map_event("BeforeTool", "gemini", "codex") == "PreToolUse"
    assert map_event("AfterAgent", "gemini", "codex") == "Stop"
    assert map_event("PreCompact", "codex", "gemini") == "PreCompress"


# --------------------------------------------------------------------------- matchers


@pytest.mark.parametrize(
    ("matcher", "source", "target", "expected"),
    [
        ("Edit", "claude", "gemini", "replace"),
        ("Bash", "claude", "gemini", "run_shell_command"),
        (
            "Read|Write|Glob|Grep|LS",
            "claude",
            "gemini",
            "read_file|write_file|glob|grep_search|list_directory",
        ),
        ("Edit, Write", "claude", "gemini", "replace|write_file"),
        ("mcp__x__Edit|mcp__x__Bash", "claude", "gemini", "mcp__x__Edit|mcp__x__Bash"),
        ("^(Edit|Bash)$", "claude", "gemini", "^(replace|run_shell_command)$"),
        ("replace|run_shell_command", "gemini", "claude", "Edit|Bash"),
        ("search_file_content", "gemini", "claude", "Grep"),
        ("write_file", "gemini", "codex", "Write"),
        ("apply_patch", "codex", "claude", "Edit|Write"),
        ("^apply_patch$", "codex", "claude", "^(?:Edit|Write)$"),
        ("apply_patch|Bash", "codex", "gemini", "replace|write_file|run_shell_command"),
        ("Edit|Write|Bash", "claude", "codex", "Edit|Write|Bash"),
    ],
)
def test_tool_names_in_matchers(matcher: str, source: str, target: str, expected: str) -> None:
    notes: list[str] = []
    assert (
        convert_matcher(matcher, cast(Dialect, source), cast(Dialect, target), "m", notes)
        == expected
    )
    assert notes == []


def test_codex_has_no_such_tool_note() -> None:
    notes: list[str] = []
    assert convert_matcher("Read|Bash", "claude", "codex", "p", notes) == "Read|Bash"
    assert notes == ["p/matcher: Codex has no Read tool; the hook will not fire for it"]
    notes.clear()
    convert_matcher("read_file", "gemini", "codex", "p", notes)
    assert "no read_file tool" in notes[0]
    notes.clear()
    # a tool the target has none of is said, whichever the target
    assert convert_matcher("NotebookEdit", "claude", "gemini", "p", notes) == "NotebookEdit"
    assert notes == [
        "p/matcher: Gemini CLI has no NotebookEdit tool; the hook will not fire for it"
    ]


def test_lifecycle_matchers() -> None:
    to_gemini = convert(
        {"SessionStart": [grp(cmd("s"), matcher="startup|resume")]}, "claude", "gemini"
    )
    assert [g["matcher"] for g in to_gemini.hooks["SessionStart"]] == ["startup", "resume"]
    to_codex = convert(
        {"SessionStart": [grp(cmd("s"), matcher="startup, resume")]}, "claude", "codex"
    )
    assert to_codex.hooks["SessionStart"][0]["matcher"] == "startup|resume"
    regex = convert({"SessionStart": [grp(cmd("s"), matcher="^st")]}, "codex", "gemini")
    assert regex.hooks["SessionStart"][0]["matcher"] == "^st"
    assert "compares SessionStart matchers exactly" in regex.notes[0]


def test_matchers_the_target_ignores_are_dropped_with_a_note() -> None:
    out = convert({"Notification": [grp(cmd("n"), matcher="idle_prompt")]}, "claude", "gemini")
    assert "matcher" not in out.hooks["Notification"][0]
    assert "ignores matchers on Notification" in out.notes[0]
    quiet = convert({"BeforeAgent": [grp(cmd("n"), matcher="whatever")]}, "gemini", "claude")
    assert "matcher" not in quiet.hooks["UserPromptSubmit"][0]
    assert quiet.notes == []  # Gemini ignored it already


# --------------------------------------------------------------------------- commands


@pytest.mark.parametrize(
    ("command", "source", "target", "expected"),
    [
        ('"$CLAUDE_PROJECT_DIR"/h.sh', "claude", "gemini", '"$GEMINI_PROJECT_DIR"/h.sh'),
        ("${CLAUDE_PROJECT_DIR}/h.sh", "claude", "gemini", "${GEMINI_PROJECT_DIR}/h.sh"),
        ("$GEMINI_PROJECT_DIR/h.sh", "gemini", "claude", "$CLAUDE_PROJECT_DIR/h.sh"),
        ("$CLAUDE_PROJECT_DIRX", "claude", "gemini", "$CLAUDE_PROJECT_DIRX"),
        ("$CLAUDE_PROJECT_DIR/h.sh", "claude", "codex", "$PWD/h.sh"),
        ("${GEMINI_PROJECT_DIR}/h.sh", "gemini", "codex", "${PWD}/h.sh"),
        ("$PWD/h.sh", "codex", "claude", "$PWD/h.sh"),
    ],
)
def test_project_dir_variables(command: str, source: str, target: str, expected: str) -> None:
    assert one_tool_hook(cmd(command), source, target)["command"] == expected


def test_variables_the_target_does_not_set_are_noted() -> None:
    out = convert({"BeforeTool": [grp(cmd("echo $GEMINI_SESSION_ID"))]}, "gemini", "claude")
    assert any("$GEMINI_SESSION_ID" in n and "Claude Code does not set" in n for n in out.notes)
    fine = convert({"PreToolUse": [grp(cmd("echo $CLAUDE_PLUGIN_ROOT"))]}, "codex", "claude")
    assert fine.notes == []


def test_exec_form_becomes_a_quoted_command_line() -> None:
    hook = cmd("node", args=["${CLAUDE_PROJECT_DIR}/a b.js", "it's", "$X"])
    out = convert({"Stop": [grp(hook)]}, "claude", "gemini")
    line = out.hooks["AfterAgent"][0]["hooks"][0]["command"]
    assert line == "node \"${GEMINI_PROJECT_DIR}\"'/a b.js' 'it'\"'\"'s' \"$X\""


# --------------------------------------------------------------------------- timeouts


@pytest.mark.parametrize(
    ("timeout", "source", "target", "expected"),
    [
        (30, "claude", "gemini", 30_000),  # never 30 ms
        (30, "codex", "gemini", 30_000),
        (1.5, "claude", "gemini", 1_500),
        (30_000, "gemini", "claude", 30),
        (1_500, "gemini", "claude", 1.5),
        (1_500, "gemini", "codex", 2),
        (1.5, "claude", "codex", 2),
        (45, "codex", "claude", 45),
        (1, "gemini", "claude", 0.001),
    ],
)
def test_timeout_units(timeout: float, source: str, target: str, expected: float) -> None:
    assert one_tool_hook(cmd("x", timeout=timeout), source, target)["timeout"] == expected


def test_invalid_timeouts_are_dropped_with_a_note() -> None:
    out = convert({"Stop": [grp(cmd("a", timeout="30"), cmd("b", timeout=-1))]}, "claude", "gemini")
    assert [h.get("timeout") for h in out.hooks["AfterAgent"][0]["hooks"]] == [None, None]
    assert len(out.notes) == 2


def test_default_timeout_changes_are_noted() -> None:
    out = convert(
        {"PreToolUse": [grp(cmd("a"), cmd("b"))], "UserPromptSubmit": [grp(cmd("c"))]},
        "claude",
        "gemini",
    )
    notes = out.default_notes("claude", "gemini")
    assert notes == [
        "1 hook(s) set no timeout: the default is 30 s in Claude Code and 60 s in Gemini CLI "
        "(add a timeout to keep 30 s)",
        "2 hook(s) set no timeout: the default is 600 s in Claude Code and 60 s in Gemini CLI "
        "(add a timeout to keep 600 s)",
    ]
    assert convert({"Stop": [grp(cmd("a"))]}, "claude", "codex").default_changes == {}


# --------------------------------------------------------------------------- fields


def test_only_command_hooks_move_and_fields_are_reported() -> None:
    hooks = {
        "PreToolUse": [
            grp(
                {"type": "prompt", "prompt": "p"},
                {"type": "http", "url": "u"},
                cmd("x", statusMessage="s", **{"if": "Bash(git *)", "async": True}),
                matcher="Bash",
            )
        ]
    }
    to_gemini = convert(hooks, "claude", "gemini")
    assert to_gemini.hooks["BeforeTool"][0]["hooks"] == [cmd("x")]
    assert len(to_gemini.unmapped) == 2
    joined = "\n".join(to_gemini.notes)
    assert "Bash(git *)" in joined and "runs hooks synchronously" in joined
    assert "dropped statusMessage" in joined
    to_codex = convert(hooks, "claude", "codex")
    assert to_codex.hooks["PreToolUse"][0]["hooks"] == [
        cmd("x", statusMessage="s", **{"async": True})
    ]


def test_gemini_names_and_descriptions_are_dropped_with_a_note() -> None:
    out = convert({"BeforeTool": [grp(cmd("x", name="n", description="d"))]}, "gemini", "claude")
    assert out.hooks["PreToolUse"][0]["hooks"] == [cmd("x")]
    assert "dropped name, description" in out.notes[0]


def test_hooks_config_keys_in_gemini_hooks_are_skipped() -> None:
    assert convert({"enabled": True, "disabled": []}, "gemini", "claude").unmapped == []


# --------------------------------------------------------------------------- round trips

CLAUDE_HOOKS: dict[str, Any] = {
    "PreToolUse": [
        grp(cmd('"$CLAUDE_PROJECT_DIR"/check.sh', timeout=30), matcher="Bash|Edit|Write"),
        grp(cmd("read-guard"), matcher="Read"),
    ],
    "PostToolUse": [grp(cmd("fmt", timeout=2.5), matcher="^(Edit|Write)$")],
    "UserPromptSubmit": [grp(cmd("prompt", timeout=10))],
    "Stop": [grp(cmd("stop"))],
    "SessionStart": [grp(cmd("start"), matcher="startup")],
    "SessionEnd": [grp(cmd("end"), matcher="logout")],
    "PreCompact": [grp(cmd("compact"), matcher="auto")],
    "Notification": [grp(cmd("notify"))],
}


def test_claude_gemini_claude_round_trip() -> None:
    there = convert(CLAUDE_HOOKS, "claude", "gemini")
    assert there.unmapped == []
    assert there.hooks["BeforeTool"][0] == grp(
        cmd('"$GEMINI_PROJECT_DIR"/check.sh', timeout=30_000),
        matcher="run_shell_command|replace|write_file",
    )
    back = convert(there.hooks, "gemini", "claude")
    assert back.unmapped == []
    assert back.hooks == CLAUDE_HOOKS


def test_gemini_claude_gemini_round_trip() -> None:
    gemini = {
        "BeforeTool": [
            grp(cmd("$GEMINI_PROJECT_DIR/a", timeout=5_000), matcher="run_shell_command")
        ],
        "AfterTool": [grp(cmd("b"), matcher="write_file|replace")],
        "BeforeAgent": [grp(cmd("c", timeout=250))],
        "PreCompress": [grp(cmd("d"), matcher="manual")],
    }
    back = convert(convert(gemini, "gemini", "claude").hooks, "claude", "gemini")
    assert back.hooks == gemini


def test_claude_codex_claude_round_trip() -> None:
    codex_side = {k: v for k, v in CLAUDE_HOOKS.items() if k in CODEX.events}
    there = convert(codex_side, "claude", "codex")
    back = convert(there.hooks, "codex", "claude")
    assert [n for n in there.notes if "$PWD" not in n and "no Read tool" not in n] == [
        "hooks#/hooks/PostToolUse/0/hooks/0/timeout: Codex counts whole seconds: 2.5 s became 3"
    ]
    text = json.dumps(codex_side).replace("$CLAUDE_PROJECT_DIR", "$PWD")
    expected = json.loads(text.replace('"timeout": 2.5', '"timeout": 3'))
    assert back.hooks == expected


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(MIGRATABLE),
    st.sampled_from(MIGRATABLE),
    json_values
    | st.dictionaries(
        st.sampled_from([*EVENTS, *CODEX.events, "x"]),
        st.lists(
            st.fixed_dictionaries(
                {"hooks": st.lists(json_values | st.just(cmd("c", timeout=3)), max_size=3)},
                optional={"matcher": json_values | st.sampled_from(["Bash|Edit", "apply_patch"])},
            )
            | json_values,
            max_size=3,
        ),
        max_size=4,
    ),
)
def test_convert_never_raises(source: str, target: str, hooks: Any) -> None:
    out = convert(hooks, source, target)
    for groups in out.hooks.values():
        for group in groups:
            assert all(h["type"] == "command" for h in group["hooks"])


# --------------------------------------------------------------------------- files


class Project:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.home = root / "home"
        self.project = root / "proj"
        self.home.mkdir()
        self.project.mkdir()

    def write(self, relative: str, content: Any, *, user: bool = False) -> Path:
        path = (self.home if user else self.project) / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content if isinstance(content, str) else json.dumps(content, indent=2))
        return path

    def plan(self, source: str, target: str, scope: str = "project") -> Migration:
        return plan_migration(
            cast(Dialect, source),
            cast(Dialect, target),
            self.project,
            scope=scope,
            home=self.home,
            env={},
        )


@pytest.fixture
def project(tmp_path: Path) -> Project:
    return Project(tmp_path)


def test_dry_run_shows_a_diff_and_writes_nothing(project: Project) -> None:
    project.write(
        ".claude/settings.json",
        {"hooks": {"PreToolUse": [grp(cmd("x", timeout=30), matcher="Bash")]}},
    )
    migration = project.plan("claude", "gemini")
    target = project.project / ".gemini" / "settings.json"
    assert migration.target_path == target and not target.exists()
    diff = migration.diff()
    assert diff.startswith(f"--- /dev/null\n+++ b{target}\n")
    assert '+            "timeout": 30000' in diff
    assert migration.added == 1 and migration.changed
    assert migration.write() is True
    written = json.loads(target.read_text())
    assert written["hooks"]["BeforeTool"][0]["matcher"] == "run_shell_command"


def test_existing_hooks_are_kept_and_duplicates_not_repeated(project: Project) -> None:
    project.write(".claude/settings.json", {"hooks": {"Stop": [grp(cmd("a")), grp(cmd("b"))]}})
    project.write(".claude/settings.local.json", {"hooks": {"Stop": [grp(cmd("a"))]}})
    existing = {
        "general": {"keep": True},
        "hooks": {"AfterAgent": [grp(cmd("b"))], "BeforeTool": [grp(cmd("mine"))]},
    }
    target = project.write(".gemini/settings.json", existing)
    migration = project.plan("claude", "gemini")
    assert (migration.found, migration.added, migration.duplicates) == (3, 1, 2)
    migration.write()
    written = json.loads(target.read_text())
    assert written["general"] == {"keep": True}
    assert written["hooks"]["BeforeTool"] == [grp(cmd("mine"))]
    assert written["hooks"]["AfterAgent"] == [grp(cmd("b")), grp(cmd("a"))]
    again = project.plan("claude", "gemini")
    assert not again.changed and again.added == 0 and again.diff() == ""
    assert again.write() is False


def test_equivalent_matcher_lists_are_duplicates(project: Project) -> None:
    project.write(
        ".gemini/settings.json",
        {"hooks": {"BeforeTool": [grp(cmd("x"), matcher="replace|write_file")]}},
    )
    project.write(
        ".claude/settings.json", {"hooks": {"PreToolUse": [grp(cmd("x"), matcher="Write, Edit")]}}
    )
    assert project.plan("gemini", "claude").added == 0


def test_comments_in_the_target_are_reported(project: Project) -> None:
    project.write(".gemini/settings.json", '{\n  // mine\n  "hooks": {}\n}\n')
    project.write(".claude/settings.json", {"hooks": {"Stop": [grp(cmd("a"))]}})
    migration = project.plan("claude", "gemini")
    assert migration.added == 1
    assert any("comments are not kept" in n for n in migration.notes)


def test_malformed_target_is_an_error_and_never_written(project: Project) -> None:
    target = project.write(".claude/settings.json", '{"hooks": ')
    project.write(".gemini/settings.json", {"hooks": {"AfterAgent": [grp(cmd("a"))]}})
    migration = project.plan("gemini", "claude")
    assert migration.error is not None and "invalid JSON" in migration.error
    assert not migration.changed and migration.diff() == ""
    with pytest.raises(MigrationError):
        migration.write()
    assert target.read_text() == '{"hooks": '


@pytest.mark.parametrize("content", [{"hooks": []}, {"hooks": {"Stop": {}}}, []])
def test_target_shapes_that_cannot_take_hooks(project: Project, content: Any) -> None:
    project.write(".claude/settings.json", content)
    project.write(".codex/hooks.json", {"hooks": {"Stop": [grp(cmd("a"))]}})
    assert project.plan("codex", "claude").error is not None


def test_codex_sources_both_forms_and_user_scope(project: Project) -> None:
    project.write(
        ".codex/hooks.json", {"hooks": {"Stop": [grp(cmd("json", timeout=7))]}}, user=True
    )
    project.write(
        ".codex/config.toml",
        '[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = "command"\ncommand = "toml"\n'
        '[hooks.state."k"]\ntrusted_hash = "x"\n',
        user=True,
    )
    migration = project.plan("codex", "gemini", scope="user")
    assert migration.target_path == project.home / ".gemini" / "settings.json"
    assert [p.name for p in migration.sources] == ["hooks.json", "config.toml"]
    migration.write()
    hooks = json.loads(migration.target_path.read_text())["hooks"]["AfterAgent"]
    assert hooks == [grp(cmd("json", timeout=7_000)), grp(cmd("toml"))]


def test_bad_source_is_a_warning(project: Project) -> None:
    project.write(".codex/config.toml", "[[hooks.Stop]\n")
    project.write(".codex/hooks.json", {"hooks": {"Stop": [grp(cmd("ok"))]}})
    migration = project.plan("codex", "claude")
    assert migration.added == 1
    assert any("invalid TOML" in w for w in migration.warnings)


def test_to_codex_writes_hooks_json_and_notes_trust(project: Project) -> None:
    project.write(
        ".claude/settings.json", {"hooks": {"PreToolUse": [grp(cmd("x"), matcher="Edit")]}}
    )
    migration = project.plan("claude", "codex")
    assert migration.target_path == project.project / ".codex" / "hooks.json"
    migration.write()
    assert json.loads(migration.target_path.read_text()) == {
        "hooks": {"PreToolUse": [grp(cmd("x"), matcher="Edit")]}
    }
    assert any("trusted" in n for n in migration.notes)


def test_target_paths(tmp_path: Path) -> None:
    env = {"CODEX_HOME": str(tmp_path / "ch")}
    assert target_path("codex", tmp_path, scope="user", env=env) == tmp_path / "ch" / "hooks.json"
    assert target_path("claude", tmp_path, scope="user", home=tmp_path / "h", env={}) == (
        tmp_path / "h" / ".claude" / "settings.json"
    )
    assert target_path("gemini", tmp_path, env={}) == tmp_path / ".gemini" / "settings.json"


def test_same_dialect_or_bad_scope_is_refused(project: Project) -> None:
    with pytest.raises(ValueError, match="same agent"):
        project.plan("claude", "claude")
    with pytest.raises(ValueError, match="scope"):
        project.plan("claude", "gemini", scope="system")


def test_to_json(project: Project) -> None:
    project.write(".claude/settings.json", {"hooks": {"SubagentStop": [grp(cmd("x"))]}})
    payload = project.plan("claude", "gemini").to_json()
    assert payload["added"] == 0 and payload["changed"] is False
    assert "SubagentStop" in payload["unmapped"][0]
    assert migrate_host("gemini").tool_for("shell") == "run_shell_command"
