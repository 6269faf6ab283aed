"""Folder trust, the engine's warn-once hook keys, and hookwise's fingerprints / enforce mode."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from hookwise.config.gemini.folder_trust import TrustedFolders, TrustLevel, folder_trust
from hookwise.config.gemini.hook_trust import (
    approve_project_hooks,
    assess_project_hooks,
    check_project_hooks,
    engine_hook_keys,
    engine_untrusted_hooks,
    engine_warning,
)
from hookwise.config.hook_trust_mode import HookTrustMode, resolve_trust_mode
from hookwise.config.model import HookEntry, Source, hook_fingerprint
from hookwise.config.workspace_trust import FolderTrust
from hookwise.protocol.profiles import Profile
from tests.config.conftest import Layout, command_hook, hooks_of

# --------------------------------------------------------------------------- folder trust


def trust(
    layout: Layout, rules: object, *, enabled: bool = True, env: dict[str, str] | None = None
) -> tuple[FolderTrust, list[str]]:
    if rules is not None:
        layout.write("trustedFolders", rules if isinstance(rules, str) else json.dumps(rules))
    return folder_trust(
        layout.workspace,
        enabled=enabled,
        trusted_folders_path=layout.path("trustedFolders"),
        env=env or {},
    )


def test_no_rule_means_untrusted(layout: Layout) -> None:
    verdict, warnings = trust(layout, None)
    assert (verdict.trusted, verdict.source, warnings) == (False, "default", [])
    assert "hookwise hooks trust --folder" in verdict.detail


def test_environment_overrides_everything(layout: Layout) -> None:
    deny = {str(layout.workspace): "DO_NOT_TRUST"}
    assert trust(layout, deny, env={"GEMINI_CLI_TRUST_WORKSPACE": "true"})[0].trusted
    allow = {str(layout.workspace): "TRUST_FOLDER"}
    assert not trust(layout, allow, env={"GEMINI_CLI_TRUST_WORKSPACE": "false"})[0].trusted
    assert not trust(layout, allow, enabled=False, env={"GEMINI_RESTRICTED_MODE": "true"})[
        0
    ].trusted
    # only the exact strings "true" / "false" override: "yes" falls through to the rules
    assert trust(layout, None, env={"GEMINI_CLI_TRUST_WORKSPACE": "yes"})[0].source == "file"


def test_folder_trust_disabled_trusts_everything(layout: Layout) -> None:
    verdict, _ = trust(layout, {str(layout.workspace): "DO_NOT_TRUST"}, enabled=False)
    assert verdict.trusted and verdict.source == "disabled"


@pytest.mark.parametrize(
    ("rules", "trusted"),
    [
        ({"{ws}": "TRUST_FOLDER"}, True),
        ({"{root}": "TRUST_FOLDER"}, True),  # subfolders too
        ({"{ws}/sub": "TRUST_FOLDER"}, None),
        ({"{ws}/x": "TRUST_PARENT"}, True),  # trusts the parent of the rule path
        ({"{ws}": "DO_NOT_TRUST"}, False),
        ({"{root}": "TRUST_FOLDER", "{ws}": "DO_NOT_TRUST"}, False),  # longest rule wins
        ({"{root}": "DO_NOT_TRUST", "{ws}": "TRUST_FOLDER"}, True),
        ({"{ws}2": "TRUST_FOLDER"}, None),  # not a prefix match on text
    ],
)
def test_trusted_folder_rules(layout: Layout, rules: dict[str, str], trusted: bool | None) -> None:
    ws = str(layout.paths.workspace)
    concrete = {k.format(ws=ws, root=os.path.dirname(ws)): v for k, v in rules.items()}
    layout.write("trustedFolders", concrete)
    folders = TrustedFolders.load(layout.path("trustedFolders"))
    assert folders.is_path_trusted(layout.workspace) is trusted


def test_rules_follow_symlinks(layout: Layout) -> None:
    link = layout.root / "link"
    link.symlink_to(layout.workspace)
    layout.write("trustedFolders", {str(link): "TRUST_FOLDER"})
    assert TrustedFolders.load(layout.path("trustedFolders")).is_path_trusted(layout.workspace)


def test_invalid_trusted_folders_fail_closed(layout: Layout) -> None:
    verdict, warnings = trust(layout, '{"/x": "MAYBE"}')
    assert (verdict.trusted, verdict.source) == (False, "error")
    assert 'Invalid trust level "MAYBE"' in warnings[0]
    verdict, warnings = trust(layout, "{,}")
    assert not verdict.trusted and "trustedFolders.json:1:2" in warnings[0]


def test_trusted_folders_accept_comments(layout: Layout) -> None:
    verdict, _ = trust(layout, f'// mine\n{{"{layout.paths.workspace}": "TRUST_FOLDER" /* yes */}}')
    assert verdict.trusted and verdict.source == "file"


def test_set_level_keeps_other_rules(layout: Layout) -> None:
    layout.write("trustedFolders", {"/elsewhere": "DO_NOT_TRUST"})
    folders = TrustedFolders.load(layout.path("trustedFolders"))
    folders.set_level(layout.paths.workspace, TrustLevel.TRUST_FOLDER)
    data = json.loads(layout.path("trustedFolders").read_text())
    assert data == {"/elsewhere": "DO_NOT_TRUST", str(layout.paths.workspace): "TRUST_FOLDER"}
    assert oct(os.stat(layout.path("trustedFolders")).st_mode & 0o777) == "0o600"


def test_settings_use_folder_trust(layout: Layout) -> None:
    layout.write("project", hooks_of("BeforeTool", command_hook("p")))
    assert not layout.load().trusted
    layout.trust_workspace()
    assert layout.load().trusted
    # a project cannot switch folder trust off for itself
    layout.write("trustedFolders", {})
    layout.write("project", {"security": {"folderTrust": {"enabled": False}}})
    assert not layout.load().trusted
    layout.write("user", {"security": {"folderTrust": {"enabled": False}}})
    assert layout.load().trusted


# --------------------------------------------------------------------------- fingerprints


def entry(**config: object) -> HookEntry:
    base = {"type": "command", "command": "x", **config}
    return HookEntry(base, "BeforeTool", Source.PROJECT, matcher=None, scope="project")


def test_fingerprint_covers_the_definition() -> None:
    first = hook_fingerprint(entry())
    assert first == hook_fingerprint(entry(description="docs only", source="project"))
    for changed in (
        entry(command="y"),
        entry(env={"A": "1"}),
        entry(timeout=5),
        entry(name="n"),
    ):
        assert hook_fingerprint(changed) != first
    with_matcher = entry()
    with_matcher.matcher = "write_.*"
    assert hook_fingerprint(with_matcher) != first
    other_event = entry()
    other_event.event = "AfterTool"
    assert hook_fingerprint(other_event) != first
    assert hook_fingerprint(entry(env={"A": "1", "B": "2"})) == hook_fingerprint(
        entry(env={"B": "2", "A": "1"})
    )


def test_engine_keys_and_untrusted_names() -> None:
    hooks = {
        "BeforeTool": [
            {
                "hooks": [
                    {"type": "command", "command": "a"},
                    {"type": "command", "command": "b", "name": "B"},
                ]
            },
            None,
            {"matcher": "x"},
        ],
        "AfterTool": "not an array",
        "BeforeAgent": [
            {"hooks": [{"type": "runtime", "name": "r"}, {"type": "command", "command": "a"}, "s"]}
        ],
    }
    assert engine_hook_keys(hooks) == [":a", "B:b", ":"]
    assert engine_untrusted_hooks([":a"], hooks) == ["B", "unknown-hook"]
    assert engine_untrusted_hooks([":a", "B:b", ":"], hooks) == []
    assert engine_warning(["x"]).startswith(
        "WARNING: The following project-level hooks have been detected in this workspace:\n  - x\n\n"
    )


# --------------------------------------------------------------------------- warn once


def project_with(layout: Layout, *hooks: dict[str, object], matcher: str | None = None) -> None:
    layout.write("project", hooks_of("BeforeTool", *hooks, matcher=matcher))


def test_gemini_cli_warns_once_and_stores_engine_keys(layout: Layout) -> None:
    layout.trust_workspace()
    project_with(layout, command_hook("./check.sh", name="check"), command_hook("./log.sh"))
    settings = layout.load(Profile.GEMINI_CLI)
    report = check_project_hooks(settings)
    assert report.warnings == [engine_warning(["check", "./log.sh"])]
    root = str(layout.paths.workspace)
    store = json.loads(layout.paths.trusted_hooks.read_text())
    assert store == {root: ["check:./check.sh", ":./log.sh"]}
    assert layout.paths.trusted_hooks.read_text().startswith('{\n  "')  # JSON.stringify(x, null, 2)
    again = check_project_hooks(layout.load(Profile.GEMINI_CLI))
    assert again.warnings == []
    # a changed matcher does not change the engine key: Gemini CLI stays silent
    project_with(
        layout, command_hook("./check.sh", name="check"), command_hook("./log.sh"), matcher="x"
    )
    assert check_project_hooks(layout.load(Profile.GEMINI_CLI)).warnings == []
    project_with(layout, command_hook("./check.sh --v2", name="check"))
    assert check_project_hooks(layout.load(Profile.GEMINI_CLI)).warnings == [
        engine_warning(["check"])
    ]


def test_documented_warns_about_changed_definitions(layout: Layout) -> None:
    layout.trust_workspace()
    project_with(layout, command_hook("./check.sh", name="check"))
    first = check_project_hooks(layout.load())
    assert len(first.warnings) == 1 and "check (BeforeTool; new)" in first.warnings[0]
    assert check_project_hooks(layout.load()).warnings == []
    project_with(layout, command_hook("./check.sh", name="check", env={"MODE": "lax"}))
    changed = check_project_hooks(layout.load())
    assert "check (BeforeTool; changed since it was approved)" in changed.warnings[0]
    assert check_project_hooks(layout.load()).warnings == []


def test_no_check_in_an_untrusted_folder(layout: Layout) -> None:
    project_with(layout, command_hook("./x.sh"))
    report = check_project_hooks(layout.load(Profile.GEMINI_CLI))
    assert report.warnings == [] and not layout.paths.trusted_hooks.exists()
    assert [s.state for s in report.statuses] == ["new"]  # still assessed for listings


def test_user_hooks_are_not_fingerprinted(layout: Layout) -> None:
    layout.trust_workspace()
    layout.write("user", hooks_of("BeforeTool", command_hook("./u.sh")))
    for profile in Profile:
        assert check_project_hooks(layout.load(profile)).warnings == []


def test_corrupt_engine_store_is_replaced_with_a_warning(layout: Layout) -> None:
    layout.trust_workspace()
    layout.paths.trusted_hooks.write_text("{oops")
    project_with(layout, command_hook("./x.sh"))
    report = check_project_hooks(layout.load(Profile.GEMINI_CLI))
    assert any("cannot read the trusted hooks store" in w for w in report.warnings)
    assert json.loads(layout.paths.trusted_hooks.read_text()) == {
        str(layout.paths.workspace): [":./x.sh"]
    }


# --------------------------------------------------------------------------- enforce


def test_enforce_refuses_until_approved(layout: Layout) -> None:
    layout.trust_workspace()
    layout.env["HOOKWISE_HOOK_TRUST"] = "enforce"
    project_with(layout, command_hook("./check.sh", name="check"))
    layout.write("user", hooks_of("BeforeTool", command_hook("./user.sh")))
    for profile in Profile:
        sources = layout.sources(profile)
        assert sources.settings.hook_trust_mode is HookTrustMode.ENFORCE
        report = check_project_hooks(sources.settings)
        assert "not approved and will not run" in report.warnings[0]
        registry = sources.registry()
        refused = {e.command: report.refuse(e) for e in registry.entries}
        assert refused["./user.sh"] is None
        assert "hookwise hooks trust" in (refused["./check.sh"] or "")
        assert not layout.paths.trusted_hooks.exists()  # enforce records nothing by itself
    approve_project_hooks(layout.load())
    for profile in Profile:
        sources = layout.sources(profile)
        report = check_project_hooks(sources.settings)
        assert report.warnings == []
        assert all(report.refuse(e) is None for e in sources.registry().entries)
    # a changed definition is refused again
    project_with(layout, command_hook("./check.sh", name="check"), matcher="write_file")
    sources = layout.sources()
    report = check_project_hooks(sources.settings)
    [project_entry] = [e for e in sources.registry().entries if e.scope == "project"]
    assert report.refuse(project_entry) is not None
    status = report.status_of(project_entry)
    assert status is not None and status.state == "changed"


def test_enforce_covers_what_actually_runs(layout: Layout) -> None:
    """gemini-cli appends a non-array event value: it must be fingerprinted too."""
    layout.trust_workspace()
    layout.env["HOOKWISE_HOOK_TRUST"] = "enforce"
    layout.write("project", {"hooks": {"BeforeTool": {"hooks": [command_hook("./sneaky.sh")]}}})
    sources = layout.sources(Profile.GEMINI_CLI)
    report = check_project_hooks(sources.settings)
    [sneaky] = sources.registry().entries
    assert report.refuse(sneaky) is not None


def test_approve_replaces_old_approvals(layout: Layout) -> None:
    layout.trust_workspace()
    project_with(layout, command_hook("./a.sh"))
    approve_project_hooks(layout.load())
    project_with(layout, command_hook("./b.sh"))
    report = approve_project_hooks(layout.load())
    assert [s.state for s in report.statuses] == ["approved"]
    own = json.loads(layout.paths.hookwise_trusted_hooks.read_text())
    [records] = own["projects"].values()
    assert [r["key"] for r in records.values()] == [":./b.sh"]
    engine = json.loads(layout.paths.trusted_hooks.read_text())
    assert engine[str(layout.paths.workspace)] == [":./a.sh", ":./b.sh"]  # the engine only adds


def test_assess_is_read_only(layout: Layout) -> None:
    layout.trust_workspace()
    project_with(layout, command_hook("./a.sh"))
    report = assess_project_hooks(layout.load())
    assert [s.state for s in report.pending] == ["new"]
    assert not layout.paths.trusted_hooks.exists()
    assert not layout.paths.hookwise_trusted_hooks.exists()


def test_trust_mode_sources(layout: Layout) -> None:
    assert resolve_trust_mode({}, {"hookTrust": "enforce"})[0] is HookTrustMode.ENFORCE
    assert (
        resolve_trust_mode({"HOOKWISE_HOOK_TRUST": "warn"}, {"hookTrust": "enforce"})[0]
        is HookTrustMode.WARN
    )
    mode, warnings = resolve_trust_mode({"HOOKWISE_HOOK_TRUST": "strict"}, {"hookTrust": 1})
    assert mode is HookTrustMode.WARN and len(warnings) == 2
    layout.write("user", {"hookwise": {"hookTrust": "enforce"}})
    assert layout.load().hook_trust_mode is HookTrustMode.ENFORCE
    # a project cannot relax (or set) its own gate
    layout.write("user", {})
    layout.write("project", {"hookwise": {"hookTrust": "enforce"}})
    settings = layout.load()
    assert settings.hook_trust_mode is HookTrustMode.WARN
    assert any("is ignored" in w for w in settings.warnings)


def test_stores_never_touch_the_real_home(layout: Layout) -> None:
    assert str(layout.paths.trusted_hooks).startswith(str(layout.root))
    assert str(layout.paths.hookwise_trusted_hooks).startswith(str(layout.root))
    assert Path.home() not in layout.paths.trusted_hooks.parents
