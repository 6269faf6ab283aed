"""Settings scopes and their merge, in both profiles."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from hookwise.config.env_expansion import resolve_env_vars
from hookwise.config.gemini.merge import deep_merge, merge_settings
from hookwise.config.gemini.paths import SettingsPaths, SettingsScope
from hookwise.config.gemini.schema import js_number_from_string, validate_settings
from hookwise.config.gemini.settings_edit import SettingsEditError, update_disabled_hooks
from hookwise.config.gemini.system_file_security import system_file_insecurity
from hookwise.config.jsonc import parse_jsonc
from hookwise.config.model import Source
from hookwise.config.registry import build_registry
from hookwise.protocol.gemini import EVENTS, SCHEMA_EVENT_ORDER
from hookwise.protocol.profiles import Profile
from tests.config.conftest import Layout, command_hook, hooks_of

TRUSTED = {"GEMINI_CLI_TRUST_WORKSPACE": "true"}


def commands(layout: Layout, event: str, profile: Profile) -> list[tuple[str, str, str]]:
    """(command, source, scope) of one event's enabled hooks, in execution order."""
    registry = layout.sources(profile).registry()
    return [(e.command or "", e.source.value, e.scope) for e in registry.for_event(event)]


def four_scopes(layout: Layout) -> None:
    for scope in ("systemDefaults", "user", "project", "system"):
        layout.write(scope, hooks_of("BeforeTool", command_hook(scope)))


# --------------------------------------------------------------------------- paths


def test_schema_event_order_covers_every_event() -> None:
    assert set(SCHEMA_EVENT_ORDER) == set(EVENTS)


def test_default_paths_follow_gemini_cli(tmp_path: Path) -> None:
    paths = SettingsPaths.from_environment(tmp_path, env={}, home=tmp_path / "h", platform="linux")
    assert paths.system_settings == Path("/etc/gemini-cli/settings.json")
    assert paths.system_defaults == Path("/etc/gemini-cli/system-defaults.json")
    assert paths.user_settings == tmp_path / "h" / ".gemini" / "settings.json"
    assert (
        paths.workspace_settings == Path(os.path.realpath(tmp_path)) / ".gemini" / "settings.json"
    )
    assert paths.trusted_folders == tmp_path / "h" / ".gemini" / "trustedFolders.json"
    assert paths.trusted_hooks == tmp_path / "h" / ".gemini" / "trusted_hooks.json"
    assert paths.extensions_dir == tmp_path / "h" / ".gemini" / "extensions"
    mac = SettingsPaths.from_environment(tmp_path, env={}, home=tmp_path, platform="darwin")
    assert mac.system_settings == Path("/Library/Application Support/GeminiCli/settings.json")
    win = SettingsPaths.from_environment(tmp_path, env={}, home=tmp_path, platform="win32")
    assert str(win.system_settings) == "C:\\ProgramData\\gemini-cli\\settings.json"


def test_paths_from_environment_variables(tmp_path: Path) -> None:
    env = {
        "GEMINI_CLI_HOME": str(tmp_path / "gh"),
        "GEMINI_CLI_SYSTEM_SETTINGS_PATH": str(tmp_path / "sys" / "s.json"),
        "GEMINI_CLI_TRUSTED_FOLDERS_PATH": str(tmp_path / "tf.json"),
    }
    paths = SettingsPaths.from_environment(tmp_path, env=env)
    assert paths.home == tmp_path / "gh"
    assert paths.system_settings == tmp_path / "sys" / "s.json"
    assert paths.system_defaults == tmp_path / "sys" / "system-defaults.json"  # next to it
    assert paths.trusted_folders == tmp_path / "tf.json"
    env["GEMINI_CLI_SYSTEM_DEFAULTS_PATH"] = str(tmp_path / "d.json")
    assert SettingsPaths.from_environment(tmp_path, env=env).system_defaults == tmp_path / "d.json"


def test_sandbox_exec_moves_trusted_folders(tmp_path: Path) -> None:
    paths = SettingsPaths.from_environment(tmp_path, env={"SANDBOX": "sandbox-exec"}, home=tmp_path)
    assert paths.trusted_folders == tmp_path / ".cache" / ".gemini" / "trustedFolders.json"


def test_workspace_is_the_physical_directory(tmp_path: Path) -> None:
    (tmp_path / "real").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "real")
    paths = SettingsPaths.from_environment(tmp_path / "link", env={}, home=tmp_path)
    assert paths.workspace == Path(os.path.realpath(tmp_path / "real"))


# --------------------------------------------------------------------------- merge: gemini-cli


def test_gemini_cli_concatenates_every_scope_as_project(layout: Layout) -> None:
    layout.env.update(TRUSTED)
    four_scopes(layout)
    assert commands(layout, "BeforeTool", Profile.GEMINI_CLI) == [
        ("systemDefaults", "project", "systemDefaults"),
        ("user", "project", "user"),
        ("project", "project", "project"),
        ("system", "project", "system"),
    ]


def test_gemini_cli_untrusted_folder_drops_every_settings_hook(layout: Layout) -> None:
    four_scopes(layout)
    layout.extension(
        "ext", {"name": "ext", "version": "1"}, hooks_of("BeforeTool", command_hook("ext"))
    )
    sources = layout.sources(Profile.GEMINI_CLI)
    assert not sources.settings.trusted
    assert [c for c, _, _ in commands(layout, "BeforeTool", Profile.GEMINI_CLI)] == ["ext"]
    assert any("not trusted" in w for w in sources.warnings)
    assert len(sources.settings.skipped_hooks_objects) == 4


def test_gemini_cli_wraps_a_non_array_event_value(layout: Layout) -> None:
    layout.env.update(TRUSTED)
    layout.write("user", hooks_of("BeforeTool", command_hook("u")))
    layout.write("project", {"hooks": {"BeforeTool": {"hooks": [command_hook("p")]}}})
    settings = layout.load(Profile.GEMINI_CLI)
    assert [c for c, _, _ in commands(layout, "BeforeTool", Profile.GEMINI_CLI)] == ["u", "p"]
    assert any("not an array" in w and "hooks.BeforeTool" in w for w in settings.warnings)
    # documented: each file stands alone, the object is rejected by the registry
    assert [c for c, _, _ in commands(layout, "BeforeTool", Profile.DOCUMENTED)] == ["u"]


def test_gemini_cli_unknown_event_last_scope_wins(layout: Layout) -> None:
    layout.env.update(TRUSTED)
    layout.write("user", {"hooks": {"Custom": [1]}})
    layout.write("project", {"hooks": {"Custom": [2]}})
    settings = layout.load(Profile.GEMINI_CLI)
    custom = [o.hooks for o in settings.hooks_objects if "Custom" in o.hooks]
    assert custom == [{"Custom": [2]}]
    registry = build_registry(settings.hooks_objects)
    assert sum("Invalid hook event name" in w for w in registry.warnings) == 1


def test_gemini_cli_hooks_replaced_by_a_non_object(layout: Layout) -> None:
    layout.env.update(TRUSTED)
    layout.write("user", hooks_of("BeforeTool", command_hook("u")))
    layout.write("project", {"hooks": [1, 2]})
    assert commands(layout, "BeforeTool", Profile.GEMINI_CLI) == []
    layout.write("system", hooks_of("BeforeTool", command_hook("s")))
    # an object after the array starts again from an empty object
    assert [c for c, _, _ in commands(layout, "BeforeTool", Profile.GEMINI_CLI)] == ["s"]


def test_gemini_cli_keeps_file_origins_for_messages(layout: Layout) -> None:
    layout.env.update(TRUSTED)
    layout.write("user", hooks_of("BeforeTool", command_hook("a"), {"type": "nope"}))
    registry = layout.sources(Profile.GEMINI_CLI).registry()
    assert any(
        str(layout.path("user")) + "#/hooks/BeforeTool/0/hooks/1" in w for w in registry.warnings
    )


# --------------------------------------------------------------------------- merge: documented


def test_documented_precedence_project_user_system_extensions(layout: Layout) -> None:
    layout.env.update(TRUSTED)
    four_scopes(layout)
    layout.extension(
        "ext", {"name": "ext", "version": "1"}, hooks_of("BeforeTool", command_hook("ext"))
    )
    assert commands(layout, "BeforeTool", Profile.DOCUMENTED) == [
        ("project", "project", "project"),
        ("user", "user", "user"),
        ("system", "system", "system"),
        ("systemDefaults", "system", "systemDefaults"),
        ("ext", "extensions", "extension:ext"),
    ]


def test_documented_untrusted_folder_drops_only_the_project(layout: Layout) -> None:
    four_scopes(layout)
    layout.write(
        "project",
        {**hooks_of("BeforeTool", command_hook("project")), "hooksConfig": {"disabled": ["user"]}},
    )
    sources = layout.sources(Profile.DOCUMENTED)
    assert not sources.settings.trusted
    # The untrusted project file is ignored entirely, its hooksConfig included.
    assert [c for c, _, _ in commands(layout, "BeforeTool", Profile.DOCUMENTED)] == [
        "user",
        "system",
        "systemDefaults",
    ]
    assert [o.scope for o in sources.settings.skipped_hooks_objects] == ["project"]


# --------------------------------------------------------------------------- hooksConfig


def test_hooks_config_disabled_is_a_union_and_enabled_last_wins(layout: Layout) -> None:
    layout.env.update(TRUSTED)
    layout.write("systemDefaults", {"hooksConfig": {"disabled": ["a"], "enabled": False}})
    layout.write(
        "user", {"hooksConfig": {"disabled": ["b", "a"], "enabled": True, "notifications": False}}
    )
    layout.write("project", {"hooksConfig": {"disabled": ["c"]}})
    for profile in Profile:
        config = layout.load(profile).hooks_config
        assert config.disabled == ("a", "b", "c")
        assert config.enabled is True
        assert config.notifications is False
    layout.write("system", {"hooksConfig": {"enabled": False}})
    assert layout.load().hooks_config.enabled is False


def test_disabled_hooks_stay_registered_but_do_not_run(layout: Layout) -> None:
    layout.env.update(TRUSTED)
    layout.write(
        "user",
        {
            **hooks_of("BeforeTool", command_hook("x", name="named"), command_hook("plain")),
            "hooksConfig": {"disabled": ["named", "plain"]},
        },
    )
    registry = layout.sources().registry()
    assert [e.enabled for e in registry.entries] == [False, False]
    assert registry.for_event("BeforeTool") == []


def test_hooks_disabled_globally_gives_an_empty_registry(layout: Layout) -> None:
    layout.env.update(TRUSTED)
    layout.write(
        "user", {**hooks_of("BeforeTool", command_hook("x")), "hooksConfig": {"enabled": False}}
    )
    layout.extension(
        "e", {"name": "e", "version": "1"}, hooks_of("BeforeTool", command_hook("ext"))
    )
    sources = layout.sources()
    assert not sources.enabled
    assert sources.registry().entries == []
    assert sources.extensions.objects == []  # hooks.json not even read


def test_string_booleans_are_coerced_in_a_valid_file(layout: Layout) -> None:
    layout.env.update(TRUSTED)
    layout.write("user", {"hooksConfig": {"enabled": "false"}})
    assert layout.load().hooks_config.enabled is False


def test_disabled_as_a_string_becomes_one_name(layout: Layout) -> None:
    layout.write("user", {"hooksConfig": {"disabled": "abc"}})
    settings = layout.load()
    # invalid for the schema (warned), then the union merge wraps it: exact name "abc"
    assert settings.hooks_config.disabled == ("abc",)
    assert any("hooksConfig.disabled: expected array, got string" in w for w in settings.warnings)


def test_redaction_settings(layout: Layout) -> None:
    layout.write(
        "user",
        {
            "security": {
                "environmentVariableRedaction": {
                    "enabled": True,
                    "allowed": ["A"],
                    "blocked": ["B"],
                }
            }
        },
    )
    layout.write("system", {"security": {"environmentVariableRedaction": {"allowed": ["C"]}}})
    redaction = layout.load().redaction
    assert redaction.enabled is True
    assert redaction.allowed == ("C",)  # no merge strategy: last wins
    assert redaction.blocked == ("B",)
    assert layout.load().redaction.enabled is True


def test_redaction_is_off_by_default(layout: Layout) -> None:
    redaction = layout.load().redaction
    assert (redaction.enabled, redaction.allowed, redaction.blocked) == (False, (), ())


# --------------------------------------------------------------------------- bad input


def test_malformed_file_warns_with_location_and_other_scopes_load(layout: Layout) -> None:
    layout.env.update(TRUSTED)
    layout.write("user", hooks_of("BeforeTool", command_hook("user-hook")))
    path = layout.write(
        "project",
        '{\n  "hooks": {\n    "BeforeTool": [\n      {"hooks": [{"type": "command", "command": "p"},]}\n    ]\n  }\n}',
    )
    for profile in Profile:
        settings = layout.load(profile)
        warning = next(w for w in settings.warnings if str(path) in w)
        assert f"{path}:4:" in warning
        assert "hooks.BeforeTool[0].hooks[1]" in warning
        assert "trailing comma" in warning
        assert [c for c, _, _ in commands(layout, "BeforeTool", profile)] == ["user-hook"]


def test_not_an_object(layout: Layout) -> None:
    path = layout.write("user", "[1, 2]")
    settings = layout.load()
    assert any(str(path) in w and "not a valid JSON object" in w for w in settings.warnings)


def test_directory_instead_of_file(layout: Layout) -> None:
    layout.path("user").mkdir(parents=True)
    settings = layout.load()
    assert any("cannot read settings" in w for w in settings.warnings)


def test_invalid_entries_inside_a_valid_file(layout: Layout) -> None:
    layout.env.update(TRUSTED)
    layout.write(
        "user",
        {
            "hooks": {
                "BeforeTool": [
                    {
                        "hooks": [
                            {"type": "command"},
                            command_hook("ok"),
                            {"type": "bogus", "command": "x"},
                        ]
                    },
                    {"matcher": "x"},
                ],
                "NotAnEvent": [],
            }
        },
    )
    registry = layout.sources().registry()
    assert [e.command for e in registry.entries] == ["ok"]
    text = "\n".join(registry.warnings)
    assert "/hooks/BeforeTool/0/hooks/0" in text
    assert "/hooks/BeforeTool/0/hooks/2" in text
    assert "/hooks/BeforeTool/1" in text
    assert "NotAnEvent" in text


def test_validation_issue_is_a_warning_and_the_file_is_used_as_written(layout: Layout) -> None:
    layout.write(
        "user",
        {"hooks": {"BeforeTool": [{"matcher": 5, "hooks": [command_hook("x", timeout="1000")]}]}},
    )
    settings = layout.load()
    warning = next(w for w in settings.warnings if "invalid configuration" in w)
    assert "hooks.BeforeTool[0].matcher: expected string, got number" in warning
    hook = settings.file(SettingsScope.USER).settings["hooks"]["BeforeTool"][0]["hooks"][0]
    assert hook["timeout"] == "1000"  # not coerced: the file did not validate


def test_numeric_strings_are_coerced_in_a_valid_file(layout: Layout) -> None:
    layout.write(
        "user", hooks_of("BeforeTool", command_hook("x", timeout=" 0x10 ", env={"A": "1"}))
    )
    hook = layout.load().file(SettingsScope.USER).settings["hooks"]["BeforeTool"][0]["hooks"][0]
    assert hook["timeout"] == 16
    assert list(hook) == ["type", "command", "timeout", "env"]


def test_insecure_system_files_are_skipped(layout: Layout) -> None:
    path = layout.write("system", hooks_of("BeforeTool", command_hook("s")))
    os.chmod(layout.system_dir, 0o777)
    paths = SettingsPaths.from_environment(
        layout.workspace, env={}, home=layout.home, system_settings=path
    )
    from hookwise.config.gemini.settings import load_settings

    settings = load_settings(paths, env={})
    assert settings.hooks_objects == []
    assert any("Security Warning: Skipping system settings file" in w for w in settings.warnings)
    assert system_file_insecurity(path) is not None
    assert system_file_insecurity(layout.system_dir / "missing.json") is None


def test_workspace_equal_to_home_reads_the_file_once(layout: Layout) -> None:
    layout.write("user", hooks_of("BeforeTool", command_hook("u")))
    paths = SettingsPaths.from_environment(layout.home, env=TRUSTED, home=layout.home)
    from hookwise.config.gemini.settings import load_settings

    settings = load_settings(paths, env=TRUSTED, profile=Profile.GEMINI_CLI)
    assert [o.scope for o in settings.hooks_objects] == ["user"]
    assert not settings.file(SettingsScope.PROJECT).exists


# --------------------------------------------------------------------------- env vars


def test_env_vars_in_settings_are_expanded(layout: Layout) -> None:
    layout.env.update({"TOOLS": "/opt/tools", **TRUSTED})
    layout.write(
        "user",
        hooks_of(
            "BeforeTool",
            command_hook("$TOOLS/a ${TOOLS}/b ${NOPE:-dflt} $NOPE $GEMINI_PROJECT_DIR/x $1"),
        ),
    )
    registry = layout.sources().registry()
    assert (
        registry.entries[0].command
        == "/opt/tools/a /opt/tools/b dflt $NOPE $GEMINI_PROJECT_DIR/x $1"
    )


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("$A", "a"),
        ("${A}", "a"),
        ("${A:-d}", "a"),
        ("${Z:-d}", "d"),
        ("${Z:-}", ""),
        ("${Z}", "${Z}"),
        ("$Zé", "$Zé"),
        ("$", "$"),
        ("${}", "${}"),
        ("${C}", "custom"),
        ("$$A", "$a"),
        ("${A B}", "${A B}"),
    ],
)
def test_resolve_env_vars(text: str, expected: str) -> None:
    assert resolve_env_vars(text, {"A": "a"}, {"C": "custom"}) == expected


def test_resolve_env_vars_walks_values_not_keys() -> None:
    assert resolve_env_vars({"$A": ["$A", 1, None]}, {"A": "x"}) == {"$A": ["x", 1, None]}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("12", 12),
        (" 1e3 ", 1000),
        ("0x1F", 31),
        ("0b11", 3),
        ("0o7", 7),
        (".5", 0.5),
        ("5.", 5),
        ("-Infinity", float("-inf")),
        ("abc", None),
        ("1_0", None),
        ("-0x1", None),
        ("", 0),
    ],
)
def test_js_number_from_string(text: str, expected: float | None) -> None:
    assert js_number_from_string(text) == expected


# --------------------------------------------------------------------------- deep merge


def test_deep_merge_matches_merge_recursively() -> None:
    target = {"hooks": {"BeforeTool": []}, "hooksConfig": {"disabled": ["a"]}, "x": {"y": 1}}
    deep_merge(target, {"hooks": {"BeforeTool": 5}, "hooksConfig": {"disabled": "a"}, "x": 3})
    assert target == {"hooks": {"BeforeTool": [5]}, "hooksConfig": {"disabled": ["a"]}, "x": 3}
    deep_merge(target, {"x": {"z": 2}, "__proto__": {"p": 1}})
    assert target["x"] == {"z": 2} and "__proto__" not in target


def test_union_keeps_js_set_semantics() -> None:
    merged = merge_settings([{"hooksConfig": {"disabled": [1, True, "1", 1.0]}}])
    assert merged["hooksConfig"]["disabled"] == [1, True, "1"]


def test_validate_settings_reports_paths() -> None:
    _, issues = validate_settings(
        {"hooks": {"Custom": 1, "AfterTool": [{"hooks": [{"timeout": "x"}]}]}}
    )
    assert issues == [
        "hooks.AfterTool[0].hooks[0].timeout: expected number, got string",
        "hooks.Custom: expected array, got number",
    ]


# --------------------------------------------------------------------------- editing


def test_update_disabled_preserves_comments_and_formatting(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    original = (
        "{\n"
        "  // my hooks\n"
        '  "hooks": {"BeforeTool": []}, /* keep */\n'
        '  "hooksConfig": {\n'
        '    "disabled": ["a"] // old\n'
        "  }\n"
        "}\n"
    )
    path.write_text(original)
    update_disabled_hooks(path, ["a", "b"])
    assert path.read_text() == original.replace('["a"]', '["a", "b"]')


def test_update_disabled_adds_the_member(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_text(
        '{\n  "ui": {"theme": "x"}, // c\n  "hooksConfig": {\n    "enabled": true\n  }\n}\n'
    )
    update_disabled_hooks(path, ["n"])
    text = path.read_text()
    assert '"enabled": true,\n    "disabled": ["n"]\n' in text
    assert "// c" in text
    path.write_text('{"ui": 1}')
    update_disabled_hooks(path, ["n"])
    assert json.loads(path.read_text()) == {"ui": 1, "hooksConfig": {"disabled": ["n"]}}
    path.write_text("{\n  // only a comment\n}\n")
    update_disabled_hooks(path, ["n"])
    value, problem = parse_jsonc(path.read_text())
    assert problem is None and value == {"hooksConfig": {"disabled": ["n"]}}
    assert "// only a comment" in path.read_text()
    path.write_text('{"hooksConfig": "odd"}')
    update_disabled_hooks(path, [])
    assert json.loads(path.read_text()) == {"hooksConfig": {"disabled": []}}


def test_update_disabled_creates_and_refuses(tmp_path: Path) -> None:
    path = tmp_path / "new" / "settings.json"
    update_disabled_hooks(path, ["x"])
    assert json.loads(path.read_text()) == {"hooksConfig": {"disabled": ["x"]}}
    path.write_text('{"a": 1,}')
    with pytest.raises(SettingsEditError, match="trailing comma"):
        update_disabled_hooks(path, ["x"])
    assert path.read_text() == '{"a": 1,}'


def test_sources_label_hooks_for_every_scope(layout: Layout) -> None:
    layout.env.update(TRUSTED)
    four_scopes(layout)
    entries = layout.sources().registry().entries
    assert {e.scope: e.source for e in entries} == {
        "project": Source.PROJECT,
        "user": Source.USER,
        "system": Source.SYSTEM,
        "systemDefaults": Source.SYSTEM,
    }
