"""Extension hooks: discovery, activation, hydration and settings."""

from __future__ import annotations

import json
import os

import pytest

from hookwise.config.gemini.extensions import (
    extension_enabled,
    hydrate,
    hydrate_string,
    load_extensions,
    parse_dotenv,
)
from hookwise.config.model import Source
from hookwise.protocol.profiles import Profile
from tests.config.conftest import Layout, command_hook, hooks_of

CONFIG = {"name": "guard", "version": "1.0.0"}


def ext_commands(layout: Layout) -> list[str]:
    return [
        e.command or ""
        for e in layout.sources().registry().entries
        if e.source is Source.EXTENSIONS
    ]


def test_hooks_are_hydrated(layout: Layout) -> None:
    directory = layout.extension(
        "guard",
        CONFIG,
        hooks_of(
            "BeforeTool",
            command_hook(
                "node ${extensionPath}${/}run.js ${workspacePath} ${pathSeparator} ${unknown} $HOME",
                name="${extensionPath}",
            ),
            matcher="${extensionPath}",
        ),
    )
    loaded = load_extensions(layout.load())
    [ext] = loaded.extensions
    assert ext.name == "guard" and ext.active
    definition = ext.hooks["BeforeTool"][0]
    hook = definition["hooks"][0]
    sep = os.sep
    assert hook["command"] == (
        f"node {directory}{sep}run.js {layout.paths.workspace} {sep} ${{unknown}} $HOME"
    )
    assert hook["name"] == str(directory)
    assert definition["matcher"] == str(directory)
    [obj] = loaded.objects
    assert obj.source is Source.EXTENSIONS
    assert obj.scope == "extension:guard"
    assert obj.origin == str(directory / "hooks" / "hooks.json")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("${a}", "A"),
        ("${a}${a}", "AA"),
        ("${b}", "${b}"),
        ("${", "${"),
        ("${}", "E"),
        ("${a\n}", "${a\n}"),  # "." does not cross line terminators in JS
        ("${a\u2028}", "${a\u2028}"),
        ("$${a}}", "$A}"),
        ("${${a}}", "${${a}}"),  # lazy: the key is "${a"
    ],
)
def test_hydrate_string(text: str, expected: str) -> None:
    assert hydrate_string(text, {"a": "A", "": "E"}) == expected


def test_hydrate_drops_prototype_keys_and_keeps_non_strings() -> None:
    value = {"__proto__": 1, "constructor": 2, "k": ["${a}", 1, None, True]}
    assert hydrate(value, {"a": "x"}) == {"k": ["x", 1, None, True]}


def test_settings_from_env_files_hydrate_and_reach_command_env(layout: Layout) -> None:
    layout.env["GEMINI_CLI_TRUST_WORKSPACE"] = "true"
    config = {
        **CONFIG,
        "settings": [
            {"name": "Key", "envVar": "API_URL", "description": "d"},
            {"name": "Other", "envVar": "MISSING"},
        ],
    }
    layout.extension(
        "guard",
        config,
        {
            "hooks": {
                "BeforeTool": [
                    {
                        "hooks": [
                            command_hook(
                                "curl ${API_URL} ${EXTRA}", env={"A": "1", "API_URL": "old"}
                            ),
                            {"type": "plugin", "command": "p"},
                        ]
                    }
                ]
            }
        },
        env="API_URL=https://user.example\nEXTRA=from-user\n",
    )
    (layout.workspace / ".env").write_text("EXTRA=from-workspace\n")
    [ext] = load_extensions(layout.load()).extensions
    hooks = ext.hooks["BeforeTool"][0]["hooks"]
    assert hooks[0]["command"] == "curl https://user.example from-workspace"
    # only declared settings go into env, and they win over the hook's own value
    assert hooks[0]["env"] == {"A": "1", "API_URL": "https://user.example"}
    assert "env" not in hooks[1]


def test_workspace_env_file_needs_a_trusted_folder(layout: Layout) -> None:
    layout.extension(
        "guard", CONFIG, hooks_of("BeforeTool", command_hook("echo ${V}")), env="V=user"
    )
    (layout.workspace / ".env").write_text("V=workspace")
    assert ext_commands(layout) == ["echo user"]
    layout.env["GEMINI_CLI_TRUST_WORKSPACE"] = "true"
    assert ext_commands(layout) == ["echo workspace"]


def test_user_settings_are_read_by_extension_name(layout: Layout) -> None:
    layout.extension("dir-name", CONFIG, hooks_of("BeforeTool", command_hook("${V}")))
    (layout.home / ".gemini" / "extensions" / "guard").mkdir()
    (layout.home / ".gemini" / "extensions" / "guard" / ".env").write_text("V=by-name")
    commands = ext_commands(layout)
    assert commands == ["by-name"]


def test_extension_config_setting_off_ignores_env_files(layout: Layout) -> None:
    layout.write("user", {"experimental": {"extensionConfig": False}})
    layout.extension("guard", CONFIG, hooks_of("BeforeTool", command_hook("${V}")), env="V=x")
    assert ext_commands(layout) == ["${V}"]


def test_hooks_disabled_means_no_extension_hooks(layout: Layout) -> None:
    layout.write("user", {"hooksConfig": {"enabled": False}})
    layout.extension("guard", CONFIG, hooks_of("BeforeTool", command_hook("x")))
    loaded = load_extensions(layout.load())
    assert loaded.extensions[0].hooks is None
    assert loaded.objects == []


def test_order_is_by_directory_name_and_bad_extensions_are_skipped(layout: Layout) -> None:
    layout.extension("b", {"name": "b", "version": "1"}, hooks_of("BeforeTool", command_hook("b")))
    layout.extension("a", {"name": "a", "version": "1"}, hooks_of("BeforeTool", command_hook("a")))
    layout.extension("c-missing-config")
    layout.extension("d", {"name": "d"}, hooks_of("BeforeTool", command_hook("d")))
    layout.extension("e", {"name": "bad name!", "version": "1"})
    layout.extension("f", {"name": "a", "version": "2"})  # duplicate name
    (layout.home / ".gemini" / "extensions" / "g-file").write_text("not a dir")
    loaded = load_extensions(layout.load())
    assert [e.name for e in loaded.extensions] == ["a", "b"]
    text = "\n".join(loaded.warnings)
    assert "Configuration file not found" in text
    assert 'missing "version"' in text
    assert "Invalid extension name" in text
    assert "Extension with name a already was loaded" in text
    assert ext_commands(layout) == ["a", "b"]


def test_invalid_hooks_json(layout: Layout) -> None:
    layout.extension("a", {"name": "a", "version": "1"}, '{"hooks": [1]}')
    layout.extension("b", {"name": "b", "version": "1"}, '{"hooks": {}, }')
    layout.extension("c", {"name": "c", "version": "1"})
    loaded = load_extensions(layout.load())
    assert [e.hooks for e in loaded.extensions] == [None, None, None]
    text = "\n".join(loaded.warnings)
    assert '"hooks" property must be an object' in text
    assert "hooks.json:1:" in text and "trailing comma" in text
    assert len(loaded.warnings) == 2  # no hooks.json is fine


def test_malformed_hooks_with_settings_skip_the_extension(layout: Layout) -> None:
    config = {**CONFIG, "settings": [{"name": "k", "envVar": "K"}]}
    layout.extension("guard", config, {"hooks": {"BeforeTool": 5}}, env="K=v")
    loaded = load_extensions(layout.load())
    assert loaded.extensions == []  # the engine throws while adding env, and skips it
    assert any("Skipping extension" in w for w in loaded.warnings)


def test_enablement_rules(layout: Layout) -> None:
    layout.extension("guard", CONFIG, hooks_of("BeforeTool", command_hook("x")))
    enablement = layout.home / ".gemini" / "extensions" / "extension-enablement.json"
    workspace = str(layout.paths.workspace)
    enablement.write_text(json.dumps({"guard": {"overrides": [f"!{workspace}/"]}}))
    loaded = load_extensions(layout.load())
    assert not loaded.extensions[0].active
    assert loaded.objects == []
    enablement.write_text(
        json.dumps({"guard": {"overrides": [f"!{workspace}/", f"{os.path.dirname(workspace)}/*"]}})
    )
    assert load_extensions(layout.load()).extensions[0].active
    assert not load_extensions(layout.load(), enabled_extensions=["none"]).extensions[0].active
    assert load_extensions(layout.load(), enabled_extensions=["GUARD"]).extensions[0].active
    enablement.write_text("{")
    loaded = load_extensions(layout.load())
    assert loaded.extensions[0].active
    assert any("Failed to read extension enablement config" in w for w in loaded.warnings)


@pytest.mark.parametrize(
    ("rules", "path", "enabled"),
    [
        ([], "/a/b", True),
        (["!/a/b/"], "/a/b", False),
        (["!/a/b/"], "/a/b/c", True),
        (["!/a/*"], "/a/b/c", False),
        (["!/a/*"], "/a", False),
        (["!/a/*", "/a/b/"], "/a/b", True),
        (["!/a.b/"], "/aXb", True),  # regex characters are escaped
    ],
)
def test_extension_enabled(rules: list[str], path: str, enabled: bool) -> None:
    assert extension_enabled({"x": {"overrides": rules}}, "x", path) is enabled


def test_linked_extension_uses_the_link_target(layout: Layout) -> None:
    target = layout.root / "src-ext"
    target.mkdir()
    (target / "gemini-extension.json").write_text(json.dumps(CONFIG))
    (target / "hooks").mkdir()
    (target / "hooks" / "hooks.json").write_text(
        json.dumps(hooks_of("BeforeTool", command_hook("${extensionPath}")))
    )
    link = layout.extension("guard")
    (link / ".gemini-extension-install.json").write_text(
        json.dumps({"type": "link", "source": str(target)})
    )
    assert ext_commands(layout) == [str(target)]


def test_security_settings_filter_extensions(layout: Layout) -> None:
    directory = layout.extension("guard", CONFIG, hooks_of("BeforeTool", command_hook("x")))
    (directory / ".gemini-extension-install.json").write_text(
        json.dumps({"type": "git", "source": "https://github.com/o/r"})
    )
    layout.write("user", {"security": {"blockGitExtensions": True}})
    assert load_extensions(layout.load()).extensions == []
    layout.write("user", {"security": {"allowedExtensions": ["github\\.com/o/"]}})
    assert [e.name for e in load_extensions(layout.load()).extensions] == ["guard"]
    layout.write("user", {"security": {"allowedExtensions": ["gitlab"]}})
    loaded = load_extensions(layout.load())
    assert loaded.extensions == [] and "allowedExtensions" in loaded.warnings[0]


def test_extension_hooks_run_after_settings_hooks_in_both_profiles(layout: Layout) -> None:
    layout.env["GEMINI_CLI_TRUST_WORKSPACE"] = "true"
    layout.write("project", hooks_of("BeforeTool", command_hook("p")))
    layout.extension("guard", CONFIG, hooks_of("BeforeTool", command_hook("e")))
    for profile in Profile:
        registry = layout.sources(profile).registry()
        assert [e.command for e in registry.for_event("BeforeTool")] == ["p", "e"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("A=1\nB = two \n", {"A": "1", "B": "two"}),
        ("export A=1", {"A": "1"}),
        ("A='x # y'", {"A": "x # y"}),
        ('A="line\\nbreak"', {"A": "line\nbreak"}),
        ("A='line\\nraw'", {"A": "line\\nraw"}),
        ("A=x # comment", {"A": "x"}),
        ("A=\nB=2", {"A": "", "B": "2"}),
        ("A: 1", {"A": "1"}),
        ('A="multi\nline"', {"A": "multi\nline"}),
        ("# only a comment\n", {}),
        ("A=1\r\nB=2\r\n", {"A": "1", "B": "2"}),
        ("__proto__=x", {}),
        ("A.B-C=1", {"A.B-C": "1"}),
    ],
)
def test_parse_dotenv(text: str, expected: dict[str, str]) -> None:
    assert parse_dotenv(text) == expected
