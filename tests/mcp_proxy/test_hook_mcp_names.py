"""``hookwise hook`` decides an MCP tool as ``hookwise mcp wrap`` decides it (issue 28,
session 30): the tool mapped by its own name with the proxy's table and argument keys
(``tool_input.mcp_call``), a search tool over a directory as a tree read (red team s29 F5)
and an unmapped tool's nested path values (F8). Each call goes to real ``hookwise hook``
processes with the payloads Claude Code, Codex and Gemini CLI send, and to the real proxy in
front of a server whose tools do what their names say (s29_server.py)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from tests.mcp_proxy.conftest import Project
from tests.mcp_proxy.test_redteam_s29 import _answers, _blocked, _proxy

SERVER = "fake"  # the name ``wrap`` gives the proxied server (conftest.wrap_argv)
RULES = """version: 1
rules:
  - {id: notes-unread, match: {tool: read, files: '**/notes.txt'}, action: deny}
  - {id: docs-kept, match: {tool: write, files: 'docs/**'}, action: deny}
  - {id: by-name, match: {tool: [mcp__fake__read_file, mcp_fake_read_file], files: '**/README'},
     action: deny}
  - {id: vault-off, match: {mcp: {server: vault}}, action: deny}
"""
# (host, event, how the host names server S's tool T, whether Gemini's mcp_context is sent):
# Claude Code and Codex send mcp__S__T; Gemini CLI 0.61.0 mcp_S_T with mcp_context naming
# the server and the tool when it finds the server's settings (red team s29, HOST_FORMS)
FORMS = [
    ("claude", "PreToolUse", "mcp__{s}__{t}", False),
    ("codex", "PreToolUse", "mcp__{s}__{t}", False),
    ("gemini", "BeforeTool", "mcp_{s}_{t}", True),
]


def _hook(
    project: Project, form: tuple[str, str, str, bool], tool: str, args: dict[str, Any],
    server: str = SERVER,
) -> tuple[str, str]:  # fmt: skip
    """(decision, reason) of a real ``hookwise hook --host H`` on the host's payload for
    ``tool`` of ``server``: ("", "") when it lets the call run."""
    import subprocess

    from hookwise.policy.tools.payloads import build_payload

    host, event, naming, context = form
    extra = {"mcp_context": {"server_name": server, "tool_name": tool}} if context else None
    payload = build_payload(
        host, event, tool=naming.format(s=server, t=tool), tool_input=args,
        cwd=str(project.root), extra=extra,
    )  # fmt: skip
    done = subprocess.run(
        [sys.executable, "-m", "hookwise", "hook", "--host", host],
        input=json.dumps(payload), capture_output=True, text=True, env=project.env,
        cwd=project.root, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode in (0, 2), done.stderr
    text = done.stdout.strip() or done.stderr.strip()
    if not text or text == "{}":
        return "", ""
    answer = json.loads(text) if text.startswith("{") else {"decision": "deny", "reason": text}
    out = answer.get("hookSpecificOutput", answer)
    decision = out.get("permissionDecision") or out.get("decision") or ""
    return decision, out.get("permissionDecisionReason") or out.get("reason") or ""


def _setup(project: Project) -> None:
    (project.root / ".env").write_text("SECRET=hunter2\n", "utf-8")
    (project.root / "notes.txt").write_text("private notes\n", "utf-8")
    (project.root / "README").write_text("hello\n", "utf-8")
    (project.root / "docs").mkdir()
    (project.root / "docs" / "a.md").write_text("docs\n", "utf-8")
    user = Path(project.env["XDG_CONFIG_HOME"]) / "hookwise" / "policy.yaml"
    user.parent.mkdir(parents=True, exist_ok=True)
    user.write_text(RULES, "utf-8")


def _through_proxy(
    project: Project, wrap: Any, calls: list[tuple[str, dict[str, Any]]]
) -> list[Any]:
    proxy = _proxy(project, wrap)
    for n, (tool, args) in enumerate(calls, 1):
        proxy.call(n, tool, args)
    got = _answers(proxy, list(range(1, len(calls) + 1)))
    proxy.close()
    return [got[n] for n in range(1, len(calls) + 1)]


def test_the_hook_maps_an_mcp_tool_by_its_own_name_as_the_proxy_does(
    project: Project, wrap: Any
) -> None:
    """``tool: read`` and ``tool: write`` rules held for ``mcp__fake__read_file`` /
    ``write_file`` in the proxy; the hook left the tool unmapped (a read rule made it
    unverifiable, a path under ``file`` was read by no rule). Now each host's naming is
    mapped as the proxy maps it, arguments included; a rule on the MCP name or server still
    holds, and arguments the rules cannot account for are unverifiable in both."""
    _setup(project)
    root = project.root
    denied = [
        ("read_file", {"path": f"{root}/notes.txt"}, "notes-unread"),
        ("read_file", {"file": "notes.txt"}, "notes-unread"),  # the proxy's PATH_ALIASES
        ("write_file", {"path": f"{root}/docs/a.md", "content": "x"}, "docs-kept"),
        ("read_file", {"path": f"{root}/README"}, "by-name"),  # a rule on the MCP name
    ]
    unsure = ("read_file", {"path": f"{root}/docs/a.md", "document": f"{root}/notes.txt"})
    allowed = ("read_file", {"path": f"{root}/docs/a.md"})
    for form in FORMS:
        for tool, args, rule in denied:
            decision, why = _hook(project, form, tool, args)
            assert (decision, why) == ("deny", f"blocked by policy rule '{rule}'"), (form, tool)
        decision, why = _hook(project, form, "read_file", {"path": f"{root}/README"}, "vault")
        assert (decision, why) == ("deny", "blocked by policy rule 'vault-off'"), form
        decision, why = _hook(project, form, *unsure)
        assert decision in ("ask", "deny") and "cannot verify" in why, (form, why)
        assert "'document' looks like a path" in why, why
        assert _hook(project, form, *allowed) == ("", ""), form
    got = _through_proxy(project, wrap, [(t, a) for t, a, _ in denied] + [unsure, allowed])
    assert [_blocked(a) for a in got[: len(denied)]] == [r for _, _, r in denied], got
    assert _blocked(got[-2]) == "hookwise:unverifiable", got[-2]
    assert _blocked(got[-1]) is None and "docs" in json.dumps(got[-1]), got[-1]


def test_f5_a_search_tool_over_a_directory_holding_a_denied_file_is_a_tree_read(
    project: Project, wrap: Any
) -> None:
    """b04: the hook let ``mcp__fs__grep {path: proj}`` run over ``proj/.env`` (the proxy
    holds it: test_f4_f5). Mapped as ``grep`` now, the directory is read as a tree in the
    hook too: unverifiable, naming ``.env``; a directory holding no denied file passes."""
    _setup(project)
    root = str(project.root)
    for form in FORMS:
        for tool in ("grep", "search_files"):
            decision, why = _hook(project, form, tool, {"pattern": "SECRET", "path": root})
            assert decision in ("ask", "deny") and ".env" in why, (form, tool, decision, why)
            assert "no-env-files" in why, why
        docs = {"pattern": "x", "path": f"{root}/docs"}
        assert _hook(project, form, "grep", docs) == ("", ""), form
    got = _through_proxy(project, wrap, [("grep", {"pattern": "SECRET", "path": root})])
    assert _blocked(got[0]) in ("no-env-files", "hookwise:unverifiable"), got[0]
    assert "hunter2" not in json.dumps(got[0])


def test_f8_nested_path_values_of_an_unmapped_mcp_tool_are_read(
    project: Project, wrap: Any
) -> None:
    """b04: ``read_many {items: [{name: …/.env}]}`` and ``{sources: [{location: …}]}`` ran
    in the hook (the proxy holds them: test_f8_f9). An unmapped MCP tool's path values at
    any depth are now the files it may read or write there too (``arg_roles.named_paths``,
    the proxy's reading), under each host's naming and Gemini's without ``mcp_context``."""
    _setup(project)
    env = f"{project.root}/.env"
    calls = [
        {"items": [{"name": env}]},
        {"sources": [{"location": env}]},
        {"requests": [{"uri": env}]},
        {"batch": {"files": [{"what": "notes.txt"}]}},  # a read rule's file, relative
    ]
    forms = [*FORMS, ("gemini", "BeforeTool", "mcp_{s}_{t}", False)]
    for form in forms:
        for args in calls:
            decision, why = _hook(project, form, "read_many", args)
            assert decision in ("ask", "deny") and "cannot verify" in why, (form, args, why)
        plain = {"items": [{"name": f"{project.root}/README"}]}
        assert _hook(project, form, "read_many", plain) == ("", ""), form
    got = _through_proxy(project, wrap, [("read_many", a) for a in calls[:3]])
    for answer in got:
        assert _blocked(answer) is not None and "hunter2" not in json.dumps(answer), answer
