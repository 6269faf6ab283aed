"""Gemini CLI's MCP tools without ``mcp_context`` (issue 28, session 31, item 3).

Gemini CLI 0.61.0 names server S's tool T ``mcp_S_T`` (its ``generateValidName``) and sends
``mcp_context`` only when it finds the server's settings (``extractMcpContext``: none for a
server it no longer has under that name). The hook left such a tool unmapped and without a
server: ``mcp: {server: vault}`` did not hold for ``mcp_vault_read_file``, and ``tool:
read`` rules held only as "unverifiable". Now the name is read as Gemini's policy engine
reads one it has no server for (the server up to the first ``_``, ``parseMcpToolName``);
a rule on the server or tool that holds for another reading of the name (``my_fs``'s
``read_file``), or for any server at all when Gemini cut the name past 63 characters, makes
the call unverifiable. Real ``hookwise hook --host gemini`` processes, Gemini's payload."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.mcp_proxy.conftest import Project
from tests.mcp_proxy.test_hook_mcp_names import _hook, _through_proxy
from tests.mcp_proxy.test_redteam_s29 import _blocked

RULES = """version: 1
rules:
  - {id: notes-unread, match: {tool: read, files: '**/notes.txt'}, action: deny}
  - {id: vault-off, match: {mcp: {server: vault}}, action: deny}
  - {id: myfs-off, match: {mcp: {server: my_fs}}, action: deny}
  - {id: no-erase, match: {mcp: {tool: erase_*}}, action: deny}
  - {id: docs-kept, match: {tool: write, files: 'docs/**'}, action: deny}
"""
NO_CONTEXT = ("gemini", "BeforeTool", "mcp_{s}_{t}", False)
# what Gemini CLI 0.61.0 makes of a name past 63 characters: the first 30 and last 30 kept
CUT = "mcp_vault_read_file_with_a_ver...y_long_name_that_gemini_cuts_it"


def _setup(project: Project) -> None:
    root = project.root
    (root / "notes.txt").write_text("private notes\n", "utf-8")
    (root / "ok.txt").write_text("fine\n", "utf-8")
    (root / "docs").mkdir()
    user = Path(project.env["XDG_CONFIG_HOME"]) / "hookwise" / "policy.yaml"
    user.parent.mkdir(parents=True, exist_ok=True)
    user.write_text(RULES, "utf-8")


def _gemini(project: Project, name: str, args: dict[str, Any]) -> tuple[str, str]:
    """The hook's answer to Gemini's payload for the tool named ``name``, no context."""
    server, _, tool = name.partition("_")  # (_hook puts mcp_ back before server_tool)
    return _hook(project, NO_CONTEXT, tool, args, server)


def test_a_gemini_mcp_tool_without_context_is_mapped_by_gemini_s_own_reading(
    project: Project, wrap: Any
) -> None:
    _setup(project)
    root = project.root
    denied = [
        ("fake_read_file", {"path": f"{root}/notes.txt"}, "notes-unread"),  # mapped: read
        ("fake_write_file", {"path": f"{root}/docs/a.md", "content": "x"}, "docs-kept"),
        ("vault_read_file", {"path": f"{root}/ok.txt"}, "vault-off"),  # the server's rule
        ("fake_erase_all", {}, "no-erase"),  # the tool's
    ]
    for name, args, rule in denied:
        got = _gemini(project, name, args)
        assert got == ("deny", f"blocked by policy rule '{rule}'"), (name, got)
    assert _gemini(project, "fake_read_file", {"path": f"{root}/ok.txt"}) == ("", "")
    # the proxy, which knows the server and the tool, decides the fake server's calls alike
    got = _through_proxy(project, wrap, [(n[5:], a) for n, a, _ in denied[:2]])
    assert [_blocked(a) for a in got] == ["notes-unread", "docs-kept"], got


def test_a_name_that_does_not_say_its_server_fails_closed_for_rules_on_the_server(
    project: Project,
) -> None:
    """``mcp_my_fs_read_file`` is ``my``'s ``fs_read_file`` to Gemini's policy engine, and
    may be ``my_fs``'s ``read_file``: the rule on ``my_fs`` makes it unverifiable (Gemini
    headless: ``ask_fallback``, a deny saying why). A cut name: every rule on a server or
    tool does. A rule on no server or tool is not concerned."""
    _setup(project)
    root = project.root
    decision, why = _gemini(project, "my_fs_read_file", {"path": f"{root}/ok.txt"})
    assert decision == "deny" and "cannot verify" in why and "myfs-off" in why, why
    assert "may be tool 'read_file' of MCP server 'my_fs'" in why, why
    decision, why = _hook(project, ("gemini", "BeforeTool", "{t}", False), CUT, {})
    assert decision == "deny" and "cannot verify" in why and "cut the name" in why, why
    assert _gemini(project, "my_notes_list", {"path": f"{root}/ok.txt"}) == ("", "")
