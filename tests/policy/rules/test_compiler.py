from __future__ import annotations

import textwrap
from pathlib import Path

from hookwise.policy.rules.compiler import compile_files, compile_sources
from hookwise.policy.trust.scopes import find_project, scope_files
from hookwise.policy.trust.store import Trust
from tests.policy.conftest import compile_text, rule_ids

DENY_LS = "{id: %s, match: {command: ls}, action: deny, reason: %s}"


def sources(**texts: str) -> list[tuple[str, str, bytes | None]]:
    return [
        (scope, f"{scope}.yaml", textwrap.dedent(texts[scope]).encode() if scope in texts else None)
        for scope in ("managed", "user", "project", "local")
    ]


def test_scopes_merge_and_later_scopes_replace_by_id() -> None:
    policy = compile_sources(
        sources(
            user=f"version: 1\nrules:\n  - {DENY_LS % ('a', 'user')}\n  - {DENY_LS % ('b', 'user')}\n",
            project=f"version: 1\nrules:\n  - {DENY_LS % ('a', 'project')}\n",
            local=f"version: 1\nrules:\n  - {DENY_LS % ('c', 'local')}\n",
        ),
        trust=Trust.everything_trusted(),
    )
    assert policy["errors"] == []
    by_id = {r["id"]: r for r in policy["rules"]}
    assert set(by_id) == {"a", "b", "c"}
    assert by_id["a"]["reason"] == "project"
    assert by_id["a"]["replaces"] == "user (user.yaml:3)"
    assert [scope for scope, _ in policy["files"]] == ["user", "project", "local"]


def test_managed_rules_cannot_be_redefined_disabled_or_overridden() -> None:
    policy = compile_sources(
        sources(
            managed=f"version: 1\nsettings: {{ask_fallback: deny}}\nrules:\n  - {DENY_LS % ('m', 'managed')}\n",
            project=(
                f"version: 1\nsettings: {{ask_fallback: allow}}\nrules:\n  - {DENY_LS % ('m', 'mine')}\n"
                "overrides:\n  - {id: m, enabled: false}\n"
            ),
        )
    )
    messages = [(e["file"], e["line"], e["message"]) for e in policy["errors"]]
    assert (
        "project.yaml",
        2,
        "setting 'ask_fallback' is set by the managed policy (managed.yaml) and cannot be changed here",
    ) in messages
    assert any("defined by the managed policy" in m for _, _, m in messages)
    assert any("managed rules cannot be disabled" in m for _, _, m in messages)
    (rule,) = policy["rules"]
    assert rule["reason"] == "managed" and rule["enabled"]
    assert policy["settings"]["ask_fallback"] == "deny"


def test_overrides_change_lower_rules() -> None:
    policy = compile_sources(
        sources(
            project=f"version: 1\nrules:\n  - {DENY_LS % ('a', 'x')}\n  - {DENY_LS % ('b', 'x')}\n",
            local="version: 1\noverrides:\n  - {id: a, enabled: false}\n  - {id: b, mode: warn, priority: 7}\n  - {id: zz, mode: audit}\n",
        ),
        trust=Trust.everything_trusted(),
    )
    by_id = {r["id"]: r for r in policy["rules"]}
    assert not by_id["a"]["enabled"]
    assert (by_id["b"]["mode"], by_id["b"]["priority"]) == ("warn", 7)
    assert policy["index"]["tool.before"]["prog"] == {"ls": [rule_ids(policy).index("b")]}
    assert [w["message"] for w in policy["warnings"]] == ["override of unknown rule 'zz'"]


def test_evaluation_order_priority_then_scope_then_file() -> None:
    policy = compile_sources(
        sources(
            managed=f"version: 1\nrules:\n  - {DENY_LS % ('m0', 'x')}\n",
            user="version: 1\nrules:\n  - {id: u9, match: {command: ls}, action: deny, priority: 9}\n",
            project=f"version: 1\nrules:\n  - {DENY_LS % ('p1', 'x')}\n  - {DENY_LS % ('p2', 'x')}\n",
            local=f"version: 1\nrules:\n  - {DENY_LS % ('l0', 'x')}\n",
        )
    )
    assert rule_ids(policy) == ["u9", "m0", "l0", "p1", "p2"]


def test_delivery_warnings_name_the_host() -> None:
    policy = compile_text(
        """\
        version: 1
        rules:
          - {id: ctx, match: {tool: shell}, action: context, context: hello}
        """
    )
    messages = [w["message"] for w in policy["warnings"]]
    assert messages[0] == (
        "rule 'ctx': gemini does not pass context to the model on BeforeTool (tool.before); "
        "it is recorded in the audit log"
    )
    # every host whose pre-tool answer has no context field; Claude Code, Codex, Copilot
    # (additionalContext) and Cline (contextModification) pass it
    named = {m.split(": ", 1)[1].split(" ", 1)[0] for m in messages}
    assert named == {
        "gemini",
        "qwen",
        "opencode",
        "kilo",
        "droid",
        "cursor",
        "crush",
        "windsurf",
        "kiro",
        "augment",
    }


def test_non_utf8_and_bom(tmp_path: Path) -> None:
    policy = compile_sources([("project", "p.yaml", b"\xff\xfe version")])
    assert "not UTF-8" in policy["errors"][0]["message"]
    policy = compile_sources([("project", "p.yaml", b"\xef\xbb\xbfversion: 1\n")])
    assert policy["errors"] == []


def test_scope_files_and_project_discovery(isolated: Path, monkeypatch: object) -> None:
    project = isolated / "repo"
    (project / ".hookwise").mkdir(parents=True)
    (project / ".hookwise" / "policy.yaml").write_text("version: 1\n")
    sub = project / "src" / "deep"
    sub.mkdir(parents=True)
    assert find_project(str(sub)) == str(project)
    env = {"HOME": str(isolated / "home"), "HOOKWISE_MANAGED_POLICY": "/m.yaml"}
    files = scope_files(str(sub), env)
    assert files == [
        ("managed", "/etc/hookwise/policy.yaml"),
        ("managed", "/m.yaml"),
        ("user", str(isolated / "home" / ".config" / "hookwise" / "policy.yaml")),
        ("project", str(project / ".hookwise" / "policy.yaml")),
        ("local", str(project / ".hookwise" / "policy.local.yaml")),
    ]
    explicit = scope_files(str(sub), {**env, "HOOKWISE_POLICY": str(isolated / "x.yaml")})
    assert explicit[3:] == [
        ("project", str(isolated / "x.yaml")),
        ("local", str(isolated / "x.local.yaml")),
    ]
    compiled = compile_files(files)
    assert compiled["files"] == [("project", str(project / ".hookwise" / "policy.yaml"))]


def test_managed_default_path() -> None:
    assert scope_files("/", {"HOME": "/h"})[0] == ("managed", "/etc/hookwise/policy.yaml")


def test_compiled_policies_marshal() -> None:
    import marshal

    policy = compile_text(
        """\
        version: 1
        rules:
          - {id: a, match: {prompt: "(?i)deploy", tool_regex: "^Ba"}, action: deny, events: [prompt]}
          - {id: b, match: {command: {line_regex: "x", regex: ["(?i)y"]}}, action: deny}
          - {id: c, match: {response: {regex: [z], case_sensitive: false}}, action: retry, reason: r}
        """
    )
    assert policy["errors"] == []
    assert marshal.loads(marshal.dumps(policy)) == policy
