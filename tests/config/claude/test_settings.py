"""Claude Code settings scopes, plugins, merge rules and bad files; timeouts of every dialect."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hookwise.config.claude.settings import (
    ClaudeHooks,
    ClaudePaths,
    dedup_key,
    load_claude_hooks,
    parse_claude_settings_text,
)
from hookwise.config.model import Source
from hookwise.config.timeouts import claude_session_end_budget_ms, timeout_ms
from hookwise.protocol.claude import CLAUDE
from hookwise.protocol.codex import CODEX
from tests.config.conftest import command_hook, hooks_of
from tests.strategies import json_values


class Claude:
    """A throw-away Claude Code layout: home, project, managed dir and plugins under tmp."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.home = root / "home"
        self.project = root / "proj"
        self.managed = root / "managed"
        for d in (self.home, self.project, self.managed):
            d.mkdir()

    def path(self, scope: str) -> Path:
        return {
            "managed": self.managed / "managed-settings.json",
            "user": self.home / ".claude" / "settings.json",
            "project": self.project / ".claude" / "settings.json",
            "local": self.project / ".claude" / "settings.local.json",
        }[scope]

    def write(self, target: str | Path, content: Any) -> Path:
        path = self.path(target) if isinstance(target, str) else target
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content if isinstance(content, str) else json.dumps(content))
        return path

    def plugin(
        self, plugin_id: str, hooks: Any, *, registry: bool = True, name: str | None = None
    ) -> Path:
        plugin_name, _, marketplace = plugin_id.partition("@")
        root = self.home / ".claude" / "plugins" / "cache" / marketplace / plugin_name / "1.0.0"
        (root / ".claude-plugin").mkdir(parents=True)
        (root / ".claude-plugin" / "plugin.json").write_text(
            json.dumps({"name": name or plugin_name})
        )
        if hooks is not None:
            self.write(root / "hooks" / "hooks.json", hooks)
        if registry:
            installed = self.home / ".claude" / "plugins" / "installed_plugins.json"
            data = json.loads(installed.read_text()) if installed.exists() else {"version": 2}
            data.setdefault("plugins", {})[plugin_id] = [
                {"scope": "user", "installPath": str(root), "version": "1.0.0"}
            ]
            installed.write_text(json.dumps(data))
        return root

    def load(self, **kwargs: Any) -> ClaudeHooks:
        return load_claude_hooks(
            self.project, home=self.home, managed_dir=self.managed, env={}, **kwargs
        )


@pytest.fixture
def claude(tmp_path: Path) -> Claude:
    return Claude(tmp_path)


def rows(loaded: ClaudeHooks, event: str = "PreToolUse") -> list[tuple[str, Source, str]]:
    return [(e.command or "", e.source, e.scope) for e in loaded.registry.for_event(event)]


def warned(loaded: ClaudeHooks, *parts: str) -> bool:
    return any(all(part in w for part in parts) for w in loaded.warnings)


# --------------------------------------------------------------------------- paths


@pytest.mark.parametrize(
    ("platform", "expected"),
    [
        ("linux", "/etc/claude-code"),
        ("darwin", "/Library/Application Support/ClaudeCode"),
        ("win32", "C:\\Program Files\\ClaudeCode"),
    ],
)
def test_managed_dir_per_platform(tmp_path: Path, platform: str, expected: str) -> None:
    paths = ClaudePaths.from_environment(tmp_path, home=tmp_path, env={}, platform=platform)
    assert paths.managed_dir == Path(expected)
    assert paths.managed_settings == Path(expected) / "managed-settings.json"


def test_config_dir_from_env_unless_home_is_given(tmp_path: Path) -> None:
    env = {"CLAUDE_CONFIG_DIR": str(tmp_path / "cfg")}
    assert ClaudePaths.from_environment(tmp_path, env=env).user_settings == (
        tmp_path / "cfg" / "settings.json"
    )
    explicit = ClaudePaths.from_environment(tmp_path, home=tmp_path / "h", env=env)
    assert explicit.user_settings == tmp_path / "h" / ".claude" / "settings.json"
    assert explicit.plugins_dir == tmp_path / "h" / ".claude" / "plugins"


# --------------------------------------------------------------------------- scopes


def test_every_scope_loads_with_its_source_and_scope(claude: Claude) -> None:
    for scope in ("managed", "user", "project", "local"):
        claude.write(scope, hooks_of("PreToolUse", command_hook(f"echo {scope}")))
    claude.write(
        claude.managed / "managed-settings.d" / "10-extra.json",
        hooks_of("PreToolUse", command_hook("echo dropin")),
    )
    loaded = claude.load(
        flag_settings={"hooks": hooks_of("PreToolUse", command_hook("echo flag"))["hooks"]}
    )
    assert sorted(rows(loaded)) == sorted(
        [
            ("echo managed", Source.SYSTEM, "managed"),
            ("echo dropin", Source.SYSTEM, "managed"),
            ("echo user", Source.USER, "user"),
            ("echo project", Source.PROJECT, "project"),
            ("echo local", Source.PROJECT, "local"),
            ("echo flag", Source.USER, "flag"),
        ]
    )
    assert loaded.warnings == []
    assert loaded.env == {"CLAUDE_PROJECT_DIR": str(claude.project.resolve())}
    assert claude.path("local") in loaded.files


def test_hooks_add_up_across_scopes_for_every_event(claude: Claude) -> None:
    claude.write("user", hooks_of("Stop", command_hook("a")))
    claude.write(
        "project",
        {
            "hooks": {
                **hooks_of("Stop", command_hook("b"))["hooks"],
                **hooks_of("SessionEnd", command_hook("c"))["hooks"],
            }
        },
    )
    loaded = claude.load()
    assert [c for c, _, _ in rows(loaded, "Stop")] == ["b", "a"]  # project runs before user
    assert [c for c, _, _ in rows(loaded, "SessionEnd")] == ["c"]


def test_origin_names_the_written_position_even_after_skips(claude: Claude) -> None:
    claude.write(
        "project",
        {
            "hooks": {
                "PreToolUse": [
                    {"matcher": "Bash", "hooks": [{"type": "http", "url": "u"}, command_hook("x")]}
                ]
            }
        },
    )
    (entry,) = claude.load().registry.entries
    assert entry.origin == f"{claude.path('project')}#/hooks/PreToolUse/0/hooks/1"
    assert entry.matcher == "Bash"


@pytest.mark.parametrize("form", ["json", "path"])
def test_flag_settings_as_text_or_file(claude: Claude, form: str) -> None:
    content = json.dumps(hooks_of("Stop", command_hook("flagged")))
    flag: str = content if form == "json" else str(claude.write(claude.root / "f.json", content))
    assert rows(claude.load(flag_settings=flag), "Stop") == [("flagged", Source.USER, "flag")]


def test_broken_flag_settings_text_is_a_warning(claude: Claude) -> None:
    loaded = claude.load(flag_settings="{nope")
    assert warned(loaded, "--settings:1:2", "invalid JSON")


# --------------------------------------------------------------------------- dedup


def test_same_handler_in_several_settings_files_runs_once(claude: Claude) -> None:
    hook = hooks_of("PreToolUse", command_hook("same"), matcher="Bash")
    for scope in ("user", "project", "local"):
        claude.write(scope, hook)
    loaded = claude.load()
    assert rows(loaded) == [("same", Source.PROJECT, "local")]  # highest precedence kept
    kept = f"{claude.path('local')}#/hooks/PreToolUse/0/hooks/0"
    assert sorted(loaded.deduplicated) == sorted(
        [
            (f"{claude.path('project')}#/hooks/PreToolUse/0/hooks/0", kept),
            (f"{claude.path('user')}#/hooks/PreToolUse/0/hooks/0", kept),
        ]
    )


def test_managed_copy_wins_the_dedup(claude: Claude) -> None:
    hook = hooks_of("Stop", command_hook("same"))
    claude.write("user", hook)
    claude.write("managed", hook)
    assert rows(claude.load(), "Stop") == [("same", Source.SYSTEM, "managed")]


def test_dedup_ignores_timeout_and_within_one_file(claude: Claude) -> None:
    claude.write(
        "project",
        {
            "hooks": {
                "Stop": [
                    {"hooks": [command_hook("same", timeout=5)]},
                    {"matcher": "*", "hooks": [command_hook("same")]},
                ]
            }
        },
    )
    assert len(rows(claude.load(), "Stop")) == 1


def test_different_matchers_stay_but_share_the_runtime_key(claude: Claude) -> None:
    claude.write("user", hooks_of("PreToolUse", command_hook("same"), matcher="Bash"))
    claude.write("project", hooks_of("PreToolUse", command_hook("same"), matcher="Bash|Edit"))
    loaded = claude.load()
    entries = loaded.registry.for_event("PreToolUse")
    assert len(entries) == 2
    assert dedup_key(entries[0].config, entries[0].scope) == dedup_key(
        entries[1].config, entries[1].scope
    )


def test_plugin_copy_of_a_handler_stays_separate(claude: Claude) -> None:
    hook = hooks_of("Stop", command_hook("same"))
    claude.write("user", {**hook, "enabledPlugins": {"fmt@market": True}})
    claude.plugin("fmt@market", hook)
    loaded = claude.load()
    assert rows(loaded, "Stop") == [
        ("same", Source.USER, "user"),
        ("same", Source.EXTENSIONS, "plugin:fmt@market"),
    ]
    keys = {dedup_key(e.config, e.scope) for e in loaded.registry.entries}
    assert len(keys) == 2
    assert loaded.deduplicated == []


def test_dedup_key_follows_each_handler_type() -> None:
    """The CLI's own comparison: http by url, mcp_tool by server, tool, input and
    onFailure, prompt by prompt and model, agent by prompt; ``if`` for all of them."""
    assert dedup_key({"type": "http", "url": "http://a", "timeout": 3}) == dedup_key(
        {"type": "http", "url": "http://a"}
    )
    assert dedup_key({"type": "http", "url": "http://a"}) != dedup_key(
        {"type": "http", "url": "http://b"}
    )
    mcp = {"type": "mcp_tool", "server": "s", "tool": "t", "input": {"a": 1}}
    assert dedup_key(mcp) != dedup_key({**mcp, "input": {"a": 2}})
    assert dedup_key({"type": "prompt", "prompt": "x"}) != dedup_key(
        {"type": "prompt", "prompt": "x", "model": "m"}
    )
    assert dedup_key({"type": "agent", "prompt": "x", "if": "Bash(a)"}) != dedup_key(
        {"type": "agent", "prompt": "x"}
    )
    assert dedup_key({"type": "nothing"}) is None
    assert dedup_key({"type": "command", "command": "a"}) != dedup_key(
        {"type": "command", "command": "a", "args": ["b"]}
    )


# --------------------------------------------------------------------------- switches


def test_disable_all_hooks_in_user_settings_keeps_managed_hooks(claude: Claude) -> None:
    claude.write("user", {"disableAllHooks": True, **hooks_of("Stop", command_hook("user"))})
    claude.write("project", hooks_of("Stop", command_hook("project")))
    claude.write("managed", hooks_of("Stop", command_hook("managed")))
    loaded = claude.load()
    assert rows(loaded, "Stop") == [("managed", Source.SYSTEM, "managed")]
    assert loaded.disable_all_hooks and loaded.enabled
    assert loaded.disabled_by == str(claude.path("user"))
    assert {o.scope for o in loaded.skipped} == {"user", "project"}
    assert warned(loaded, "disableAllHooks", "except managed hooks")


def test_project_false_overrides_user_true(claude: Claude) -> None:
    claude.write("user", {"disableAllHooks": True, **hooks_of("Stop", command_hook("user"))})
    claude.write("project", {"disableAllHooks": False})
    loaded = claude.load()
    assert rows(loaded, "Stop") == [("user", Source.USER, "user")]
    assert not loaded.disable_all_hooks


def test_local_and_flag_precedence_for_disable_all_hooks(claude: Claude) -> None:
    claude.write("project", {"disableAllHooks": True, **hooks_of("Stop", command_hook("p"))})
    claude.write("local", {"disableAllHooks": False})
    assert rows(claude.load(), "Stop") == [("p", Source.PROJECT, "project")]
    assert rows(claude.load(flag_settings={"disableAllHooks": True}), "Stop") == []


def test_only_managed_disable_all_hooks_turns_managed_hooks_off(claude: Claude) -> None:
    claude.write("managed", {"disableAllHooks": True, **hooks_of("Stop", command_hook("m"))})
    claude.write("user", {"disableAllHooks": False, **hooks_of("Stop", command_hook("u"))})
    loaded = claude.load()
    assert rows(loaded, "Stop") == []
    assert not loaded.enabled
    assert warned(loaded, "managed settings: no hook runs")


def test_disable_all_hooks_must_be_boolean(claude: Claude) -> None:
    claude.write("user", {"disableAllHooks": "yes", **hooks_of("Stop", command_hook("u"))})
    loaded = claude.load()
    assert rows(loaded, "Stop") == [("u", Source.USER, "user")]
    assert warned(loaded, f"{claude.path('user')}#/disableAllHooks", "true or false")


def test_allow_managed_hooks_only(claude: Claude) -> None:
    claude.write(
        "managed",
        {
            "allowManagedHooksOnly": True,
            "enabledPlugins": {"forced@m": True},
            **hooks_of("Stop", command_hook("managed")),
        },
    )
    claude.write(
        "user", {"enabledPlugins": {"other@m": True}, **hooks_of("Stop", command_hook("user"))}
    )
    claude.write("project", hooks_of("Stop", command_hook("project")))
    claude.plugin("forced@m", hooks_of("Stop", command_hook("forced")))
    claude.plugin("other@m", hooks_of("Stop", command_hook("other")))
    loaded = claude.load()
    assert sorted(c for c, _, _ in rows(loaded, "Stop")) == ["forced", "managed"]
    assert loaded.managed_only
    assert warned(loaded, str(claude.path("user")), "allowManagedHooksOnly")
    assert warned(loaded, "other@m", "allowManagedHooksOnly")


def test_allow_managed_hooks_only_outside_managed_is_ignored(claude: Claude) -> None:
    claude.write("user", {"allowManagedHooksOnly": True, **hooks_of("Stop", command_hook("u"))})
    loaded = claude.load()
    assert rows(loaded, "Stop") == [("u", Source.USER, "user")]
    assert warned(loaded, "allowManagedHooksOnly: only honoured in managed settings")


# --------------------------------------------------------------------------- plugins


def test_enabled_plugin_hooks_get_plugin_env(claude: Claude) -> None:
    claude.write("user", {"enabledPlugins": {"fmt@market": True}})
    root = claude.plugin("fmt@market", {"description": "d", **hooks_of("Stop", command_hook("f"))})
    loaded = claude.load()
    (entry,) = loaded.registry.entries
    assert entry.source is Source.EXTENSIONS and entry.scope == "plugin:fmt@market"
    assert entry.config["env"] == {
        "CLAUDE_PLUGIN_ROOT": str(root),
        "CLAUDE_PLUGIN_DATA": str(claude.home / ".claude" / "plugins" / "data" / "fmt-market"),
    }
    assert entry.origin == f"{root / 'hooks' / 'hooks.json'}#/hooks/Stop/0/hooks/0"
    assert [p.id for p in loaded.plugins] == ["fmt@market"]


def test_plugin_found_in_the_cache_without_registry(claude: Claude) -> None:
    claude.write("project", {"enabledPlugins": {"fmt@market": True}})
    claude.plugin("fmt@market", hooks_of("Stop", command_hook("f")), registry=False)
    assert rows(claude.load(), "Stop") == [("f", Source.EXTENSIONS, "plugin:fmt@market")]


def test_later_scope_disables_a_plugin(claude: Claude) -> None:
    claude.write("user", {"enabledPlugins": {"fmt@market": True}})
    claude.write("local", {"enabledPlugins": {"fmt@market": False}})
    claude.plugin("fmt@market", hooks_of("Stop", command_hook("f")))
    loaded = claude.load()
    assert rows(loaded, "Stop") == []
    assert loaded.plugins == []


def test_enabled_but_missing_plugin_is_a_warning(claude: Claude) -> None:
    claude.write("user", {"enabledPlugins": {"ghost@market": True, "bad@m": "yes"}})
    loaded = claude.load()
    assert warned(loaded, "ghost@market", "not installed")
    assert warned(loaded, "enabledPlugins/bad@m", "true or false")


def test_plugin_dirs_load_like_plugin_dir(claude: Claude, tmp_path: Path) -> None:
    root = tmp_path / "dev-plugin"
    (root / ".claude-plugin").mkdir(parents=True)
    (root / ".claude-plugin" / "plugin.json").write_text(json.dumps({"name": "devp"}))
    claude.write(root / "hooks" / "hooks.json", hooks_of("Stop", command_hook("dev")))
    loaded = claude.load(plugin_dirs=[root, tmp_path / "missing"])
    assert rows(loaded, "Stop") == [("dev", Source.EXTENSIONS, "plugin:devp")]
    assert warned(loaded, "missing", "does not exist")


def test_plugin_hooks_json_without_hooks_object(claude: Claude) -> None:
    claude.write("user", {"enabledPlugins": {"fmt@market": True}})
    claude.plugin("fmt@market", {"hooks": []})
    assert warned(claude.load(), "hooks.json#/hooks", "needs a 'hooks' object")


# --------------------------------------------------------------------------- bad input


def test_malformed_file_is_a_located_warning_and_the_rest_loads(claude: Claude) -> None:
    claude.write("user", '{\n  "hooks": {,\n}')
    claude.write("project", hooks_of("Stop", command_hook("p")))
    loaded = claude.load()
    assert rows(loaded, "Stop") == [("p", Source.PROJECT, "project")]
    assert warned(loaded, f"{claude.path('user')}:2:13", "invalid JSON at hooks")


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ([], "must hold a JSON object"),
        ({"hooks": []}, "#/hooks: must be an object"),
        ({"hooks": {"Stop": {}}}, "#/hooks/Stop: must be an array"),
        ({"hooks": {"Stop": ["x"]}}, "#/hooks/Stop/0: a matcher group must be an object"),
        ({"hooks": {"Stop": [{"matcher": "*"}]}}, "#/hooks/Stop/0: a matcher group needs"),
        ({"hooks": {"Stop": [{"hooks": [1]}]}}, "#/hooks/Stop/0/hooks/0: a hook must be an object"),
        ({"hooks": {"Stop": [{"hooks": [{"type": "bogus"}]}]}}, "/hooks/0/type: must be one of"),
        ({"hooks": {"Stop": [{"hooks": [{"type": "command"}]}]}}, "non-empty string 'command'"),
        (
            {"hooks": {"Stop": [{"hooks": [command_hook("x", timeout=0)]}]}},
            "'timeout' must be a positive number of seconds (got 0)",
        ),
        (
            {"hooks": {"Stop": [{"hooks": [command_hook("x", timeout="9")]}]}},
            "'timeout' must be a positive number",
        ),
        ({"hooks": {"Stop": [{"hooks": [command_hook("x", args="a")]}]}}, "'args' must be"),
        ({"hooks": {"Stop": [{"hooks": [command_hook("x", shell="zsh")]}]}}, "'shell' must be"),
        ({"hooks": {"Stop": [{"hooks": [command_hook("x", **{"async": 1})]}]}}, "'async' must"),
        (
            {"hooks": {"SessionStart": [{"hooks": [{"type": "agent", "prompt": "p"}]}]}},
            "does not run agent hooks on SessionStart",
        ),
        ({"hooks": {"Stop": [{"hooks": [{"type": "http", "url": "ftp://x"}]}]}}, "needs a 'url'"),
        ({"hooks": {"Stop": [{"hooks": [{"type": "mcp_tool", "server": "s"}]}]}}, "'tool'"),
        ({"hooks": {"Stop": [{"hooks": [{"type": "prompt", "prompt": " "}]}]}}, "'prompt'"),
        ({"hooks": {"Stop": [{"hooks": [command_hook("x", **{"if": "Bash(x)"})]}]}}, "never runs"),
        ({"hooks": {"Bogus": []}}, 'unknown Claude Code hook event "Bogus"'),
        ({"hooks": {"PreModelSwitch": []}}, "does not run Claude Code PreModelSwitch hooks"),
        ({"hooks": {"PreToolUse": [{"matcher": 3, "hooks": []}]}}, "/matcher: must be a string"),
    ],
)
def test_bad_parts_are_warned_with_file_and_path(
    claude: Claude, content: Any, message: str
) -> None:
    claude.write("project", content)
    claude.write("user", hooks_of("Stop", command_hook("still here")))
    loaded = claude.load()
    assert warned(loaded, str(claude.path("project")), message), loaded.warnings
    assert ("still here", Source.USER, "user") in rows(loaded, "Stop")
    assert all(e.scope == "user" for e in loaded.registry.entries)


def test_matcher_problems_warn_but_keep_the_hook(claude: Claude) -> None:
    claude.write(
        "project",
        {
            "hooks": {
                "PreToolUse": [{"matcher": "(", "hooks": [command_hook("bad-regex")]}],
                "Stop": [{"matcher": "x", "hooks": [command_hook("ignored")]}],
                "PostToolUse": [{"matcher": "Edit, Write", "hooks": [command_hook("list")]}],
            }
        },
    )
    loaded = claude.load()
    assert len(loaded.registry.entries) == 3
    assert warned(loaded, "PreToolUse/0/matcher", "not a valid JavaScript regular expression")
    assert warned(loaded, "Stop/0/matcher", "ignored for Stop")
    assert not warned(loaded, "PostToolUse")


def test_once_is_ignored_in_settings(claude: Claude) -> None:
    claude.write("project", hooks_of("Stop", command_hook("x", once=True)))
    loaded = claude.load()
    assert len(loaded.registry.entries) == 1
    assert warned(loaded, "/once", "skill frontmatter")


def test_unreadable_dropin_dir_entries_and_hidden_files(claude: Claude) -> None:
    dropins = claude.managed / "managed-settings.d"
    claude.write(dropins / ".hidden.json", hooks_of("Stop", command_hook("hidden")))
    claude.write(dropins / "notes.txt", "x")
    (dropins / "dir.json").mkdir()
    loaded = claude.load()
    assert rows(loaded, "Stop") == []
    assert warned(loaded, "dir.json", "is a directory")


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=300))
def test_parse_claude_settings_text_never_raises(text: str) -> None:
    value, problems = parse_claude_settings_text(text, "f.json")
    assert (value is None) == bool(problems)


@settings(max_examples=150, deadline=None)
@given(
    json_values
    | st.dictionaries(
        st.sampled_from(["hooks", "disableAllHooks", "enabledPlugins", "x"]),
        json_values
        | st.dictionaries(
            st.sampled_from(["Stop", "PreToolUse", "Bogus"]),
            st.lists(
                st.fixed_dictionaries(
                    {"hooks": st.lists(json_values | st.just(command_hook("c")), max_size=3)},
                    optional={"matcher": json_values},
                )
                | json_values,
                max_size=3,
            ),
            max_size=3,
        ),
        max_size=3,
    )
)
def test_any_settings_json_loads_or_warns(
    tmp_path_factory: pytest.TempPathFactory, value: Any
) -> None:
    layout = Claude(tmp_path_factory.mktemp("fuzz"))
    layout.write("project", json.dumps(value))
    loaded = layout.load()
    assert all(e.config.get("type") == "command" for e in loaded.registry.entries)


# --------------------------------------------------------------------------- timeouts


def test_timeouts_in_each_hosts_unit() -> None:
    pre, prompt = CLAUDE.events["PreToolUse"], CLAUDE.events["UserPromptSubmit"]
    assert timeout_ms(pre, {}) == 600_000
    assert timeout_ms(prompt, {}) == 30_000
    assert timeout_ms(pre, {"timeout": 30}) == 30_000
    assert timeout_ms(pre, {"timeout": 1.5}) == 1_500
    for bad in (0, -1, "30", True, None, float("nan")):
        assert timeout_ms(pre, {"timeout": bad}) == 600_000
    assert timeout_ms(CODEX.events["UserPromptSubmit"], {}) == 600_000
    assert timeout_ms(CODEX.events["Stop"], {"timeout": 30}) == 30_000
    # Gemini CLI: milliseconds, Node's setTimeout rules
    assert timeout_ms("BeforeTool", {"timeout": 30}) == 30
    assert timeout_ms("BeforeTool", {}) == 60_000
    assert timeout_ms("BeforeTool", {"timeout": 0}) == 1


def test_session_end_budget() -> None:
    assert claude_session_end_budget_ms([]) == 1_500
    assert claude_session_end_budget_ms([{"timeout": 5}, {"timeout": 0.5}]) == 5_000
    assert claude_session_end_budget_ms([{"timeout": 600}]) == 60_000
    env = {"CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS": "2500"}
    assert claude_session_end_budget_ms([{"timeout": 5}], env) == 2_500
    assert (
        claude_session_end_budget_ms([], {"CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS": "x"}) == 1_500
    )


# ------------------------------------------------------------------ server-managed settings


def test_server_managed_settings_replace_the_endpoint_managed_files(claude: Claude) -> None:
    """Server-managed settings (the remote-settings.json cache) take precedence: the
    managed-settings.json hooks never run, and loading says so."""
    claude.write("managed", hooks_of("Stop", command_hook("endpoint")))
    remote = claude.write(
        claude.home / ".claude" / "remote-settings.json", hooks_of("Stop", command_hook("server"))
    )
    loaded = claude.load()
    assert rows(loaded, "Stop") == [("server", Source.SYSTEM, "managed")]
    assert loaded.managed_source == "server"
    assert warned(loaded, str(claude.path("managed")), "never run", str(remote))
    assert loaded.skip_reasons[str(claude.path("managed"))].startswith("not used: server-managed")


def test_allow_managed_hooks_only_from_the_server(claude: Claude) -> None:
    claude.write(
        claude.home / ".claude" / "remote-settings.json",
        {"allowManagedHooksOnly": True, **hooks_of("Stop", command_hook("org"))},
    )
    claude.write("user", hooks_of("Stop", command_hook("mine")))
    loaded = claude.load()
    assert [r[0] for r in rows(loaded, "Stop")] == ["org"]
    assert loaded.managed_only
    assert "allowManagedHooksOnly" in loaded.skip_reasons[str(claude.path("user"))]


def test_an_empty_or_broken_server_cache_leaves_the_endpoint_files(claude: Claude) -> None:
    claude.write("managed", hooks_of("Stop", command_hook("endpoint")))
    cache = claude.home / ".claude" / "remote-settings.json"
    for content in ("{}", "{not json"):
        claude.write(cache, content)
        loaded = claude.load()
        assert [r[0] for r in rows(loaded, "Stop")] == ["endpoint"]
        assert loaded.managed_source == "endpoint"
