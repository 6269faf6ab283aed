"""Codex layers, project trust, hook trust hashes, the features switch, notify and bad files.

The hashes and keys below were read from Codex 0.169.0's own ``hooks/list`` (app-server) for
the same definitions, and the project-trust cases were checked against it as well.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hookwise.config.codex.settings import (
    CodexHooks,
    CodexPaths,
    codex_hook_hash,
    event_label,
    load_codex_hooks,
    parse_codex_config_text,
    parse_codex_hooks_json_text,
    rust_regex_problem,
    trust_codex_hooks,
)
from hookwise.config.model import Source
from hookwise.config.timeouts import timeout_ms
from hookwise.protocol.codex import CODEX
from tests.strategies import json_values


def toml_str(text: str) -> str:
    return json.dumps(text)  # a JSON string is a valid TOML basic string


class Codex:
    """A throw-away Codex layout: CODEX_HOME, a project (a git root) and a managed dir."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.codex_home = root / "home" / ".codex"
        self.project = root / "proj"
        self.managed = root / "etc-codex"
        for d in (self.codex_home, self.project / ".git", self.managed):
            d.mkdir(parents=True)
        self.user_toml: list[str] = []

    def trust(self, directory: Path | None = None, level: str = "trusted") -> None:
        self.user_toml.append(
            f"[projects.{toml_str(str(directory or self.project))}]\ntrust_level = {toml_str(level)}"
        )

    def trust_hash(self, key: str, value: str | None = None, enabled: bool | None = None) -> None:
        lines = [f"[hooks.state.{toml_str(key)}]"]
        if value is not None:
            lines.append(f"trusted_hash = {toml_str(value)}")
        if enabled is not None:
            lines.append(f"enabled = {str(enabled).lower()}")
        self.user_toml.append("\n".join(lines))

    def flush(self) -> None:
        if self.user_toml:
            (self.codex_home / "config.toml").write_text("\n\n".join(self.user_toml) + "\n")

    def hooks_json(self, folder: Path, hooks: Any) -> Path:
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / "hooks.json"
        path.write_text(hooks if isinstance(hooks, str) else json.dumps({"hooks": hooks}))
        return path

    def load(self, **kwargs: Any) -> CodexHooks:
        self.flush()
        return load_codex_hooks(
            self.project,
            codex_home=self.codex_home,
            managed_dir=self.managed,
            env={},
            **kwargs,
        )


@pytest.fixture
def codex(tmp_path: Path) -> Codex:
    return Codex(tmp_path)


def group(command: str, matcher: str | None = None, **extra: Any) -> dict[str, Any]:
    hook: dict[str, Any] = {"type": "command", "command": command, **extra}
    out: dict[str, Any] = {"hooks": [hook]}
    if matcher is not None:
        out["matcher"] = matcher
    return out


def commands(loaded: CodexHooks, event: str = "PreToolUse") -> list[str]:
    return [e.command or "" for e in loaded.registry.for_event(event)]


def warned(loaded: CodexHooks, *parts: str) -> bool:
    return any(all(part in w for part in parts) for w in loaded.warnings)


# --------------------------------------------------------------------------- hashes


@pytest.mark.parametrize(
    ("event", "matcher", "handler", "expected"),
    [
        (
            "PreToolUse",
            "^Bash$",
            {"type": "command", "command": "echo toml", "timeout": 30},
            "sha256:3c1446ab9310886ecf7ad257fb981ce6a9246da87bb351c1551bd6d4871e8492",
        ),
        (
            "PreToolUse",
            "Bash",
            {"type": "command", "command": "echo hi", "timeout": 30},
            "sha256:65f88c378f287741bd683c759c7306a773bbb410594d61f7a39b723f8ab8eb45",
        ),
        (
            "PreToolUse",
            "Bash",
            {"type": "command", "command": "echo two", "statusMessage": "S", "async": True},
            "sha256:58e981e4d315992b431fad29891161c8816319eb6bba84de443ac576a2b9c926",
        ),
        (
            "Stop",
            None,
            {"type": "command", "command": "echo stop"},
            "sha256:236335e9e512004a0f5f42af65a07ea9059bd9a23dbb68286ed57fecf2b69ddf",
        ),
        (
            "PreToolUse",
            "*",
            {"type": "command", "command": "a"},
            "sha256:35247b45193e227d24c6a4dc7aa85ce9d35d6e2abfa6fdf81122f20a9bf0f462",
        ),
        (
            "PreToolUse",
            "",
            {"type": "command", "command": "b"},
            "sha256:bc336523d12965af1f700798007028345496bc0b44693070b249e1ce87d351c7",
        ),
        (
            "PreToolUse",
            None,
            {"type": "command", "command": "c", "timeout": 0, "statusMessage": None},
            "sha256:cd09f1ddab96c4350f1383447729106ff53cc48363a2b49e5b9eece83d37a9fb",
        ),
        (
            "SessionStart",
            "startup|resume",
            {"type": "command", "command": "e", "commandWindows": "w"},
            "sha256:cc02a83b2fda029a180109e4ffbe06bc474fc1d94487274a22ea4be23c717066",
        ),
        (
            "UserPromptSubmit",
            None,  # the loader drops matchers Codex ignores before hashing
            {"type": "command", "command": "d"},
            "sha256:517fd3abd9e563a12c22cbd835d4e4e63885a80d82ab5e446e70e69a4a3064c9",
        ),
    ],
)
def test_hash_matches_codex(
    event: str, matcher: str | None, handler: dict[str, Any], expected: str
) -> None:
    assert codex_hook_hash(event, matcher, handler) == expected


def test_hash_changes_with_the_definition() -> None:
    base = {"type": "command", "command": "x"}
    first = codex_hook_hash("PreToolUse", "Bash", base)
    assert codex_hook_hash("PreToolUse", "Bash", {**base, "timeout": 600}) == first
    assert codex_hook_hash("PreToolUse", "Bash", {**base, "timeout": 5}) != first
    assert codex_hook_hash("PreToolUse", "Edit", base) != first
    assert codex_hook_hash("PostToolUse", "Bash", base) != first
    assert codex_hook_hash("PreToolUse", "Bash", {**base, "command": "y"}) != first


def test_event_labels() -> None:
    assert [event_label(e) for e in CODEX.events] == [
        "session_start",
        "user_prompt_submit",
        "pre_tool_use",
        "permission_request",
        "post_tool_use",
        "pre_compact",
        "post_compact",
        "stop",
        "subagent_start",
        "subagent_stop",
        "interrupt",  # (advisory, since 0.150: issue 27)
        "pre_model_request",  # fired by 0.169 (tests/e2e/fixtures/codex-events)
        "session_end",
    ]


# --------------------------------------------------------------------------- layers


def test_user_and_project_layers_both_forms_keys_and_order(codex: Codex) -> None:
    codex.trust()
    codex.user_toml.append(
        '[[hooks.PreToolUse]]\nmatcher = "^Bash$"\n[[hooks.PreToolUse.hooks]]\n'
        'type = "command"\ncommand = "echo toml"\ntimeout = 30'
    )
    user_json = codex.hooks_json(codex.codex_home, {"PreToolUse": [group("echo user-json")]})
    project_json = codex.hooks_json(
        codex.project / ".codex", {"PreToolUse": [group("echo hi", "Bash", timeout=30)]}
    )
    loaded = codex.load(bypass_hook_trust=True)
    assert commands(loaded) == ["echo hi", "echo user-json", "echo toml"]
    assert [(e.source, e.scope) for e in loaded.registry.entries] == [
        (Source.USER, "user"),
        (Source.USER, "user"),
        (Source.PROJECT, "project"),
    ]
    assert [h.key for h in loaded.hooks] == [
        f"{user_json}:pre_tool_use:0:0",
        f"{codex.codex_home / 'config.toml'}:pre_tool_use:0:0",
        f"{project_json}:pre_tool_use:0:0",
    ]
    assert loaded.hooks[2].current_hash == (
        "sha256:65f88c378f287741bd683c759c7306a773bbb410594d61f7a39b723f8ab8eb45"
    )
    assert (
        f"loading hooks from both {user_json} and {codex.codex_home / 'config.toml'}; "
        "prefer a single representation for this layer"
    ) in loaded.warnings
    assert loaded.project_root == codex.project


def test_untrusted_project_is_not_loaded_and_says_so(codex: Codex) -> None:
    codex.hooks_json(codex.project / ".codex", {"Stop": [group("p")]})
    loaded = codex.load(bypass_hook_trust=True)
    assert commands(loaded, "Stop") == []
    assert warned(loaded, "not a trusted Codex project", "not set")
    codex.trust(level="untrusted")
    assert warned(codex.load(bypass_hook_trust=True), 'trust_level "untrusted"')


def test_trust_project_override(codex: Codex) -> None:
    codex.hooks_json(codex.project / ".codex", {"Stop": [group("p")]})
    assert commands(codex.load(bypass_hook_trust=True, trust_project=True), "Stop") == ["p"]
    codex.trust()
    assert commands(codex.load(bypass_hook_trust=True, trust_project=False), "Stop") == []


def test_project_layers_from_git_root_down_to_the_project(tmp_path: Path) -> None:
    """Codex 0.169: each .codex/ folder counts if its directory, else the root, is trusted."""
    layout = Codex(tmp_path)
    sub = layout.project / "sub"
    cwd = sub / "deep"
    cwd.mkdir(parents=True)
    layout.hooks_json(layout.project / ".codex", {"Stop": [group("root")]})
    layout.hooks_json(sub / ".codex", {"Stop": [group("sub")]})

    def run(*trusts: tuple[Path, str]) -> list[str]:
        layout.user_toml = []
        for directory, level in trusts:
            layout.trust(directory, level)
        layout.flush()
        loaded = load_codex_hooks(
            cwd,
            codex_home=layout.codex_home,
            managed_dir=layout.managed,
            env={},
            bypass_hook_trust=True,
        )
        return commands(loaded, "Stop")

    assert run((layout.project, "trusted")) == ["root", "sub"]
    assert run((sub, "trusted")) == ["sub"]
    assert run((layout.project, "trusted"), (sub, "untrusted")) == ["root"]
    assert run((tmp_path, "trusted")) == []  # an ancestor of the root does not count


def test_without_git_the_project_is_the_root(tmp_path: Path) -> None:
    layout = Codex(tmp_path)
    (layout.project / ".git").rmdir()
    sub = layout.project / "sub"
    layout.hooks_json(sub / ".codex", {"Stop": [group("sub")]})
    layout.trust(layout.project)
    layout.flush()
    loaded = load_codex_hooks(
        sub,
        codex_home=layout.codex_home,
        managed_dir=layout.managed,
        env={},
        bypass_hook_trust=True,
    )
    assert commands(loaded, "Stop") == []
    assert loaded.project_root == sub


def test_codex_home_as_project_is_read_once(codex: Codex) -> None:
    home = codex.codex_home.parent
    codex.hooks_json(codex.codex_home, {"Stop": [group("u")]})
    codex.flush()
    loaded = load_codex_hooks(
        home,
        codex_home=codex.codex_home,
        managed_dir=codex.managed,
        env={},
        trust_project=True,
        bypass_hook_trust=True,
    )
    assert commands(loaded, "Stop") == ["u"]


def test_paths_from_environment(tmp_path: Path) -> None:
    assert (
        CodexPaths.from_environment(tmp_path, env={"CODEX_HOME": str(tmp_path / "c")}).codex_home
        == tmp_path / "c"
    )
    assert CodexPaths.from_environment(
        tmp_path, home=tmp_path / "h", env={"CODEX_HOME": "x"}
    ).codex_home == (tmp_path / "h" / ".codex")
    assert CodexPaths.from_environment(tmp_path, env={}).managed_dir == Path("/etc/codex")


# --------------------------------------------------------------------------- hook trust


def test_untrusted_hooks_are_skipped_with_a_warning(codex: Codex) -> None:
    codex.hooks_json(codex.codex_home, {"PreToolUse": [group("echo hi", "Bash")]})
    loaded = codex.load()
    assert commands(loaded) == []
    (hook,) = loaded.hooks
    assert (hook.trust, hook.runs, hook.trusted_hash) == ("untrusted", False, None)
    assert warned(loaded, "#/hooks/PreToolUse/0/hooks/0", "is not trusted", hook.current_hash)
    assert [o.scope for o in loaded.skipped] == []  # the layer registered; the hook did not


def test_trusted_hash_in_codex_state(codex: Codex) -> None:
    path = codex.hooks_json(codex.codex_home, {"PreToolUse": [group("echo hi", "Bash")]})
    key = f"{path}:pre_tool_use:0:0"
    codex.trust_hash(key, codex_hook_hash("PreToolUse", "Bash", {"command": "echo hi"}))
    loaded = codex.load()
    assert commands(loaded) == ["echo hi"]
    assert loaded.hooks[0].trust == "trusted"
    assert loaded.warnings == []


def test_modified_hook_loses_its_trust(codex: Codex) -> None:
    path = codex.hooks_json(codex.codex_home, {"PreToolUse": [group("echo changed", "Bash")]})
    codex.trust_hash(f"{path}:pre_tool_use:0:0", "sha256:old")
    loaded = codex.load()
    assert commands(loaded) == []
    assert loaded.hooks[0].trust == "modified"
    assert warned(loaded, "changed since it was trusted")


def test_hookwise_trust_store_round_trip(codex: Codex) -> None:
    codex.trust()
    codex.hooks_json(codex.project / ".codex", {"Stop": [group("p")], "PreToolUse": [group("q")]})
    first = codex.load()
    assert commands(first, "Stop") == []
    assert trust_codex_hooks(first.hooks, codex_home=codex.codex_home) == 2
    assert trust_codex_hooks(first.hooks, codex_home=codex.codex_home) == 0
    second = codex.load()
    assert commands(second, "Stop") == ["p"] and commands(second) == ["q"]
    assert {h.trust for h in second.hooks} == {"trusted"}
    store = json.loads((codex.codex_home / "hookwise_trusted_hooks.json").read_text())
    assert set(store["trusted"]) == {h.key for h in first.hooks}


def test_corrupt_trust_store_is_not_overwritten(codex: Codex) -> None:
    store = codex.codex_home / "hookwise_trusted_hooks.json"
    store.write_text("{oops")
    codex.hooks_json(codex.codex_home, {"Stop": [group("p")]})
    loaded = codex.load()
    assert warned(loaded, str(store), "invalid JSON")
    with pytest.raises(ValueError, match="invalid JSON"):
        trust_codex_hooks(loaded.hooks, codex_home=codex.codex_home)
    assert store.read_text() == "{oops"


def test_bypass_hook_trust_but_not_disabled_hooks(codex: Codex) -> None:
    path = codex.hooks_json(
        codex.codex_home, {"PreToolUse": [group("a", "Bash"), group("b", "Bash")]}
    )
    codex.trust_hash(f"{path}:pre_tool_use:0:0", enabled=False)
    loaded = codex.load(bypass_hook_trust=True)
    assert commands(loaded) == ["b"]
    assert [(h.command, h.enabled, h.runs) for h in loaded.hooks] == [
        ("a", False, False),
        ("b", True, True),
    ]
    assert warned(loaded, "enabled = false")


def test_managed_hooks_need_no_trust(codex: Codex) -> None:
    (codex.managed / "config.toml").write_text(
        '[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = "command"\ncommand = "sys"\n'
    )
    (codex.managed / "requirements.toml").write_text(
        '[hooks]\nmanaged_dir = "/opt/hooks"\n[[hooks.Stop]]\n[[hooks.Stop.hooks]]\n'
        'type = "command"\ncommand = "req"\n'
    )
    loaded = codex.load()
    assert commands(loaded, "Stop") == ["req", "sys"]
    assert [(h.trust, h.source, h.key) for h in loaded.hooks] == [
        ("managed", Source.SYSTEM, "/opt/hooks:stop:0:0"),
        ("managed", Source.SYSTEM, f"{codex.managed / 'config.toml'}:stop:0:0"),
    ]


def test_allow_managed_hooks_only(codex: Codex) -> None:
    (codex.managed / "requirements.toml").write_text(
        "allow_managed_hooks_only = true\n[[hooks.Stop]]\n[[hooks.Stop.hooks]]\n"
        'type = "command"\ncommand = "req"\n'
    )
    codex.hooks_json(codex.codex_home, {"Stop": [group("user")]})
    loaded = codex.load(bypass_hook_trust=True)
    assert commands(loaded, "Stop") == ["req"]
    assert loaded.managed_only
    assert warned(loaded, "hooks.json", "allow_managed_hooks_only")


# --------------------------------------------------------------------------- features


@pytest.mark.parametrize(
    ("features", "on", "deprecated"),
    [
        ("hooks = false", False, False),
        ("codex_hooks = false", False, True),
        ("codex_hooks = false\nhooks = true", True, True),
        ("codex_hooks = true\nhooks = false", False, True),
        ("hooks = true", True, False),
        ("", True, False),
    ],
)
def test_features_switch(codex: Codex, features: str, on: bool, deprecated: bool) -> None:
    codex.user_toml.append(f"[features]\n{features}")
    codex.hooks_json(codex.codex_home, {"Stop": [group("u")]})
    loaded = codex.load(bypass_hook_trust=True)
    assert loaded.enabled is on
    assert commands(loaded, "Stop") == (["u"] if on else [])
    assert warned(loaded, "codex_hooks: deprecated") is deprecated
    if not on:
        assert warned(loaded, "Codex hooks are off")
        assert [o.scope for o in loaded.skipped] == ["user"]


def test_trusted_project_can_switch_hooks_off(codex: Codex) -> None:
    codex.trust()
    codex.hooks_json(codex.codex_home, {"Stop": [group("u")]})
    (codex.project / ".codex").mkdir()
    (codex.project / ".codex" / "config.toml").write_text("[features]\nhooks = false\n")
    loaded = codex.load(bypass_hook_trust=True)
    assert not loaded.enabled
    assert loaded.hooks_switch == f"{codex.project / '.codex' / 'config.toml'}#/features/hooks"


def test_features_switch_must_be_boolean(codex: Codex) -> None:
    codex.user_toml.append('[features]\nhooks = "no"')
    codex.hooks_json(codex.codex_home, {"Stop": [group("u")]})
    loaded = codex.load(bypass_hook_trust=True)
    assert loaded.enabled
    assert warned(loaded, "features/hooks: must be true or false")


# --------------------------------------------------------------------------- notify


def test_notify_from_the_effective_config(codex: Codex) -> None:
    codex.user_toml.insert(0, 'notify = ["python3", "/x/notify.py"]')
    assert codex.load().notify == ("python3", "/x/notify.py")
    codex.trust()
    (codex.project / ".codex").mkdir()
    (codex.project / ".codex" / "config.toml").write_text('notify = ["proj-notify"]\n')
    loaded = codex.load()
    assert loaded.notify == ("proj-notify",)
    assert loaded.notify_origin == f"{codex.project / '.codex' / 'config.toml'}#/notify"


def test_notify_of_an_untrusted_project_is_ignored(codex: Codex) -> None:
    codex.user_toml.insert(0, 'notify = ["user"]')
    (codex.project / ".codex").mkdir()
    (codex.project / ".codex" / "config.toml").write_text('notify = ["proj"]\n')
    assert codex.load().notify == ("user",)


@pytest.mark.parametrize("value", ['"notify.sh"', "[1, 2]", "[]"])
def test_bad_or_empty_notify(codex: Codex, value: str) -> None:
    codex.user_toml.insert(0, f"notify = {value}")
    loaded = codex.load()
    assert loaded.notify is None
    assert warned(loaded, "#/notify", "array of strings") is (value != "[]")


# --------------------------------------------------------------------------- handlers


def test_handler_rules(codex: Codex) -> None:
    codex.hooks_json(
        codex.codex_home,
        {
            "PreToolUse": [
                {
                    "matcher": "Bash",
                    "hooks": [
                        {"type": "prompt", "prompt": "p"},
                        {"type": "agent", "prompt": "p"},
                        {"type": "command", "command": "   "},
                        {"type": "command", "command": "zero", "timeout": 0},
                        {"type": "command", "command": "bad-timeout", "timeout": 1.5},
                        {"type": "command", "command": "bg", "async": True},
                        {"type": "http", "url": "u"},
                    ],
                },
                group("never", "("),
                group("lookaround", "(?!Bash)"),
            ],
            "Stop": [group("stop", "ignored-here")],
            # not an event of 0.169 (tests/e2e/fixtures/codex-events lifecycle: never fires)
            "PostModelResponse": [group("x")],
        },
    )
    loaded = codex.load(bypass_hook_trust=True)
    assert commands(loaded) == ["zero", "bg"]
    zero, bg = loaded.registry.for_event("PreToolUse")
    assert (
        zero.config["timeout"] == 1 and timeout_ms(CODEX.events["PreToolUse"], zero.config) == 1000
    )
    assert (
        bg.config["async"] is True and timeout_ms(CODEX.events["PreToolUse"], bg.config) == 600_000
    )
    (stop,) = loaded.registry.for_event("Stop")
    assert stop.matcher is None
    for part in (
        "hooks/0: skipping prompt hook",
        "hooks/1: skipping agent hook",
        "hooks/2: skipping empty hook command",
        "hooks/4: 'timeout' must be a whole number of seconds (got 1.5)",
        'hooks/6/type: must be "command"',
        "PreToolUse/1/matcher: invalid matcher '('",
        "PreToolUse/2/matcher: invalid matcher '(?!Bash)' (look-around",
        "Stop/0/matcher: Codex ignores matchers for Stop",
        'unknown Codex hook event "PostModelResponse" (Codex ignores it)',
    ):
        assert warned(loaded, part), part
    # skipped handlers keep their written index in the key
    assert [h.key.rsplit(":", 2)[-2:] for h in loaded.hooks if h.event == "PreToolUse"] == [
        ["0", "3"],
        ["0", "5"],
    ]


def test_rust_regex_problem() -> None:
    assert rust_regex_problem("^Bash$") is None
    assert rust_regex_problem("Edit|Write") is None
    assert rust_regex_problem("(?<=a)b") is not None
    assert rust_regex_problem(r"(a)\1") is not None
    assert rust_regex_problem("[") is not None


# --------------------------------------------------------------------------- bad files


def test_toml_error_names_the_line_and_the_rest_loads(codex: Codex) -> None:
    codex.trust()
    codex.flush()
    (codex.codex_home / "config.toml").write_text('model = "x"\n[features\nhooks = true\n')
    codex.user_toml = []
    codex.hooks_json(codex.codex_home, {"Stop": [group("user-json")]})
    codex.hooks_json(codex.project / ".codex", {"Stop": [group("proj")]})
    loaded = codex.load(bypass_hook_trust=True, trust_project=True)
    assert commands(loaded, "Stop") == ["proj", "user-json"]
    assert warned(loaded, f"{codex.codex_home / 'config.toml'}:2:", "invalid TOML")


def test_hooks_json_error_names_line_and_column(codex: Codex) -> None:
    codex.hooks_json(codex.codex_home, '{"hooks": {"Stop": [}\n')
    (codex.managed / "config.toml").write_text(
        '[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = "command"\ncommand = "sys"\n'
    )
    loaded = codex.load()
    assert commands(loaded, "Stop") == ["sys"]
    assert warned(loaded, f"{codex.codex_home / 'hooks.json'}:1:21", "invalid JSON at hooks.Stop")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[]", "must hold a JSON object"),
        ('{"hooks": []}', "#/hooks: must be an object"),
        ('{"hooks": {"Stop": 1}}', "#/hooks/Stop: must be an array"),
        ('{"hooks": {"Stop": [{"matcher": 1, "hooks": []}]}}', "matcher: must be a string"),
    ],
)
def test_bad_hooks_json_shapes(codex: Codex, text: str, message: str) -> None:
    codex.hooks_json(codex.codex_home, text)
    assert warned(codex.load(), message)


def test_hooks_table_must_be_a_table(codex: Codex) -> None:
    codex.user_toml.append('hooks = "nope"')
    assert warned(codex.load(), "[hooks] must be a table")


def test_toml_dates_become_text() -> None:
    config, problems = parse_codex_config_text("when = 1979-05-27T07:32:00Z\n", "c.toml")
    assert problems == [] and config == {"when": "1979-05-27T07:32:00+00:00"}


hook_lines = st.sampled_from(
    [
        "[[hooks.PreToolUse]]",
        "[[hooks.PreToolUse.hooks]]",
        "[[hooks.Stop]]",
        "[[hooks.Stop.hooks]]",
        "[[hooks.Bogus]]",
        '[hooks.state."k"]',
        "[features]",
        'type = "command"',
        'type = "prompt"',
        'command = "echo x"',
        'command = ""',
        "timeout = 30",
        "timeout = -1",
        "timeout = 1.5",
        'matcher = "Bash"',
        'matcher = "("',
        "async = true",
        "hooks = false",
        'notify = ["a"]',
        "trusted_hash = 3",
        "[[hooks]]",
        "hooks = 3",
    ]
)


@settings(max_examples=200, deadline=None)
@given(st.lists(hook_lines | st.text(max_size=30), max_size=12))
def test_any_toml_text_gives_hooks_or_warnings(
    tmp_path_factory: pytest.TempPathFactory, lines: list[str]
) -> None:
    layout = Codex(tmp_path_factory.mktemp("fuzz"))
    (layout.codex_home / "config.toml").write_text("\n".join(lines))
    loaded = load_codex_hooks(
        layout.project,
        codex_home=layout.codex_home,
        managed_dir=layout.managed,
        env={},
        bypass_hook_trust=True,
    )
    assert all(e.config["type"] == "command" for e in loaded.registry.entries)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=300))
def test_parsers_never_raise(text: str) -> None:
    parse_codex_config_text(text, "c.toml")
    parse_codex_hooks_json_text(text, "h.json")


@settings(max_examples=150, deadline=None)
@given(
    json_values
    | st.dictionaries(
        st.sampled_from(["PreToolUse", "Stop", "x"]),
        st.lists(
            st.fixed_dictionaries(
                {"hooks": st.lists(json_values | st.just(group("c")["hooks"][0]), max_size=3)},
                optional={"matcher": json_values, "x": json_values},
            )
            | json_values,
            max_size=3,
        ),
        max_size=3,
    )
)
def test_any_hooks_json_gives_hooks_or_warnings(
    tmp_path_factory: pytest.TempPathFactory, hooks: Any
) -> None:
    layout = Codex(tmp_path_factory.mktemp("fuzz"))
    layout.hooks_json(layout.codex_home, json.dumps({"hooks": hooks}))
    loaded = layout.load()
    layout.load(bypass_hook_trust=True)
    assert all(h.current_hash.startswith("sha256:") for h in loaded.hooks)
