"""Every host's MCP tool calls, as its hook sees them, decided as ``hookwise mcp wrap``
decides the call (issue 28, session 32). Claude Code, Codex and Gemini CLI were done; the
other hosts name an MCP call their own way (protocol/hosts.py ``mcp_names`` and
``mcp_fields``, read in the hosts' own code): Cline 3.0.65 ``server__tool``, Droid
0.225.2 ``server___tool``, Qwen Code 0.24.4 ``mcp__server__tool`` (hashed when it changes
a character), OpenCode and Kilo ``server_tool`` where hookwise's plugin finds no server,
Cline's ``use_mcp_tool`` and Windsurf's fields, Cursor's beforeMCPExecution (no server's
name at all). Before, none of these was read as an MCP call: ``mcp:`` rules never held and
``write``/``read`` rules held only as unverifiable, or not at all. The attacks go through
real ``hookwise hook`` processes; then a differential (hypothesis) of the proxy's decision
against each host's payload shape."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from hookwise.mcp_proxy.decide import Decider
from hookwise.policy.cache import load_policy
from hookwise.policy.pipeline import decide
from hookwise.policy.rules.mcp_unsure import NAMED
from hookwise.policy.tools.payloads import build_payload
from hookwise.protocol.hosts import HOSTS
from tests.mcp_proxy.conftest import Project
from tests.mcp_proxy.test_hook_proxy_readings import _calls
from tests.mcp_proxy.test_hook_proxy_readings import _setup as _readings_setup

SERVER = "fake"  # the name ``wrap`` gives the proxied server (conftest.wrap_argv)
RULES = """version: 1
rules:
  - {id: notes-unread, match: {tool: read, files: '**/notes.txt'}, action: deny}
  - {id: docs-kept, match: {tool: write, files: 'docs/**'}, action: deny}
  - {id: vault-off, match: {mcp: {server: vault}}, action: deny}
  - {id: team-vault-off, match: {mcp: {server: team__vault}}, action: deny}
  - {id: dotted-off, match: {mcp: {server: my.vault}}, action: deny}
  - {id: no-drop, match: {mcp: {tool: drop_table}}, action: deny}
  - {id: my-vault-get, match: {mcp: {server: my, tool: vault_get}}, action: deny}
  - id: rw-draft
    match: {tool: write, files: '**/draft.txt'}
    action: rewrite
    rewrite: {replace: [{arg: file_path, find: draft.txt, with: final.txt}]}
"""


# how each host names tool T of server S, as read in its own code (names the tests give
# keep every character, so no host changes them); checked against the protocol table below
NAMES = {"qwen": "mcp__{s}__{t}", "cline": "{s}__{t}", "droid": "{s}___{t}", "copilot": "{s}-{t}"}


def _named(host: str, server: str, tool: str) -> str:
    return NAMES[host].format(s=server, t=tool)


def test_the_names_are_the_protocol_table_s() -> None:
    for host, form in NAMES.items():
        naming = HOSTS[host].mcp_names
        assert naming is not None and form == f"{naming[0]}{{s}}{naming[1]}{{t}}", host


def payload(host: str, shape: str, server: str, tool: str, args: dict[str, Any],
            cwd: str) -> dict[str, Any]:  # fmt: skip
    """The pre-tool payload ``host`` sends for ``tool`` of ``server`` called with ``args``,
    in its own shape: ``name`` (the tool named by the host's naming), ``use_mcp_tool``
    (Cline's tool with the parts as fields), ``before_mcp`` (Cursor), ``fields``
    (Windsurf), ``plugin`` (OpenCode/Kilo: hookwise's plugin found no server to rename
    it by, so it sends the host's own ``server_tool``), ``unrecorded`` (a host whose naming
    has no record: ``mcp__server__tool``, as a host may call it)."""
    where = None
    if shape == "name":
        return build_payload(host, HOSTS[host].pre_tool_event, tool=_named(host, server, tool),
                             tool_input=args, cwd=cwd, extra=where)  # fmt: skip
    if shape == "unrecorded":
        return build_payload(host, HOSTS[host].pre_tool_event,
                             tool=f"mcp__{server}__{tool}", tool_input=args, cwd=cwd)  # fmt: skip
    if shape == "use_mcp_tool":
        given = {"server_name": server, "tool_name": tool, "arguments": json.dumps(args)}
        return build_payload("cline", "PreToolUse", tool="use_mcp_tool", tool_input=given,
                             cwd=cwd, extra=where)  # fmt: skip
    if shape == "before_mcp":
        return {"hook_event_name": "beforeMCPExecution", "conversation_id": "c1",
                "generation_id": "g1", "cursor_version": "2.4.21", "workspace_roots": [cwd],
                "tool_name": tool, "tool_input": json.dumps(args),
                "command": "npx -y some-mcp-server"}  # fmt: skip
    if shape == "fields":
        return {"agent_action_name": "pre_mcp_tool_use", "trajectory_id": "t1",
                "execution_id": "e1", "timestamp": "2026-11-29T00:00:00Z",
                "tool_info": {"mcp_server_name": server, "mcp_tool_name": tool,
                              "mcp_tool_arguments": args}}  # fmt: skip
    if shape == "plugin":
        return {"hook_event_name": "tool.execute.before", "session_id": "s1",
                "tool_use_id": "c1", "cwd": cwd, "tool_name": f"{server}_{tool}",
                "tool_input": args}  # fmt: skip
    raise AssertionError(shape)


# (host, shape): every host hookwise answers whose MCP calls its hook can be told of
SHAPES = [
    ("qwen", "name"),
    ("cline", "name"),
    ("cline", "use_mcp_tool"),
    ("droid", "name"),
    ("copilot", "name"),
    ("opencode", "plugin"),
    ("kilo", "plugin"),
    ("windsurf", "fields"),
    ("cursor", "before_mcp"),
]


def _answer(host: str, done: subprocess.CompletedProcess[str]) -> tuple[str, str]:
    """(decision, reason) of a hook's answer in the host's own form; ("", "") to run."""
    text = done.stdout.strip()
    if done.returncode == 2 and not text.startswith("{"):  # Windsurf: exit 2 + stderr
        return "deny", done.stderr.strip()
    if not text or text == "{}":
        return "", ""
    answer = json.loads(text)
    if answer.get("cancel") is True:  # Cline
        return "deny", str(answer.get("errorMessage", ""))
    if "permission" in answer:  # Cursor
        return str(answer["permission"]), str(answer.get("user_message", ""))
    out = answer.get("hookSpecificOutput", answer)
    decision = out.get("permissionDecision") or out.get("decision") or ""
    return decision, out.get("permissionDecisionReason") or out.get("reason") or ""


def _hook(project: Project, host: str, shape: str, server: str, tool: str,
          args: dict[str, Any]) -> tuple[str, str]:  # fmt: skip
    """A real ``hookwise hook --host HOST`` process on the host's payload."""
    sent = payload(host, shape, server, tool, args, str(project.root))
    done = subprocess.run(
        [sys.executable, "-m", "hookwise", "hook", "--host", host],
        input=json.dumps(sent), capture_output=True, text=True, env=project.env,
        cwd=project.root, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode in (0, 2), done.stderr
    return _answer(host, done)


def _setup(project: Project) -> None:
    (project.root / "notes.txt").write_text("private notes\n", "utf-8")
    (project.root / "docs").mkdir()
    (project.root / "docs" / "a.md").write_text("docs\n", "utf-8")
    user = Path(project.env["XDG_CONFIG_HOME"]) / "hookwise" / "policy.yaml"
    user.parent.mkdir(parents=True, exist_ok=True)
    user.write_text(RULES, "utf-8")


@pytest.mark.parametrize(("host", "shape"), SHAPES)
def test_each_host_s_mcp_call_is_decided_as_the_proxy_decides_it(
    project: Project, host: str, shape: str
) -> None:
    """``write``/``read`` rules on the tool's files and ``mcp:`` rules on the server and the
    tool hold for the call as each host's hook is given it; a call no rule holds for runs.
    Before: Cline's, Droid's and the plugin's names were tools the tables did not map
    (``mcp: {server: vault}`` never held), Windsurf's ``team__vault`` was read as server
    ``team``, Cursor's call was a tool named ``write_file`` of no server."""
    _setup(project)
    root = project.root
    attacks = [
        (SERVER, "write_file", {"path": f"{root}/docs/a.md", "content": "x"}, "docs-kept"),
        (SERVER, "read_file", {"path": f"{root}/notes.txt"}, "notes-unread"),
        (SERVER, "drop_table", {"name": "users"}, "no-drop"),
    ]
    if shape != "before_mcp":  # Cursor names no server: below
        attacks.append(("vault", "read_secret", {"name": "db"}, "vault-off"))
    if shape in ("fields", "use_mcp_tool"):  # the parts by name: a "__" in a server's name
        attacks.append(("team__vault", "list", {}, "team-vault-off"))
    for server, tool, args, rule in attacks:
        got = _hook(project, host, shape, server, tool, args)
        assert got[0] == "deny" and f"'{rule}'" in got[1], (host, shape, tool, got)
    fine = _hook(project, host, shape, SERVER, "read_file", {"path": f"{root}/docs/a.md"})
    if shape == "before_mcp":  # no server named: the rules on servers cannot be checked
        assert fine[0] == "ask" and "cannot verify" in fine[1], fine
    else:
        assert fine == ("", ""), (host, shape, fine)


def test_a_name_that_does_not_tell_its_server_leaves_the_server_s_rules_unverifiable(
    project: Project,
) -> None:
    """A name the host hashed (Qwen Code ``_`` + 7 base-36 digits, Cline ``_`` + 8 hex: the
    server's real name may be ``my.vault``), a server whose ``.`` Droid made ``_`` with no
    mark, one whose ``.`` GitHub Copilot CLI made ``-`` with no mark, a name Copilot may have
    cut to 64 characters, Cursor's call that names no server, and a host whose naming has no
    record (Crush): a rule on the server that could hold makes the call unverifiable
    (``settings.unverifiable``: ask), where it ran before; a rule on the tool alone is
    decided on the tool the payload names."""
    _setup(project)
    cases = [
        ("qwen", "name", "my_vault", "get_abc1234", "vault-off"),  # any server: the first
        ("cline", "name", "my_vault", "get_0123abcd", "vault-off"),
        ("droid", "name", "my_vault", "get", "dotted-off"),
        ("cursor", "before_mcp", "?", "get", "vault-off"),
        ("crush", "unrecorded", "other", "get", "vault-off"),
        # Copilot makes server my.vault's "." "-" with no mark (observed): my-vault-get
        ("copilot", "name", "my-vault", "get", "dotted-off"),
        # ... and cuts a name past 64 characters to 64 with no mark: a 64-character name
        # (every rule on MCP calls: the first named, a built-in one)
        ("copilot", "name", "v" * 60, "get", ""),
    ]
    for host, shape, server, tool, rule in cases:
        decision, why = _hook(project, host, shape, server, tool, {"name": "db"})
        assert decision in ("ask", "deny") and "cannot verify" in why, (host, decision, why)
        assert NAMED in why, (host, why)
        if shape in ("name", "before_mcp") and host != "qwen" and host != "cline" and rule:
            assert f"'{rule}'" in why, (host, why)  # the rule that could hold, named
        if not rule:
            assert "to 64 with no mark" in why, (host, why)
    # Cursor's tool is named: a rule on another tool does not hold, none on a server does
    # not read the server
    assert _hook(project, "cursor", "before_mcp", "?", "drop_table", {})[0] == "deny"


def test_a_rewrite_goes_back_in_the_host_s_own_keys(project: Project) -> None:
    """Cline takes a rewrite as ``overrideInput``: for its ``use_mcp_tool`` the server's
    arguments go back as the JSON text under ``arguments`` (server and tool kept), for a
    tool it names ``server__tool`` as the tool's own input; Droid's ``updatedInput``."""
    _setup(project)
    root = str(project.root)
    args = {"file": f"{root}/draft.txt", "content": "x"}
    for host, shape in [("cline", "use_mcp_tool"), ("cline", "name"), ("droid", "name")]:
        sent = payload(host, shape, SERVER, "write_file", args, root)
        done = subprocess.run(
            [sys.executable, "-m", "hookwise", "hook", "--host", host],
            input=json.dumps(sent), capture_output=True, text=True, env=project.env,
            cwd=root, timeout=60, check=False,
        )  # fmt: skip
        answer = json.loads(done.stdout)
        new = answer.get("overrideInput") or answer["hookSpecificOutput"]["updatedInput"]
        if shape == "use_mcp_tool":
            assert new["server_name"] == SERVER and new["tool_name"] == "write_file", new
            new = json.loads(new["arguments"])
        assert new == {"file": f"{root}/final.txt", "content": "x"}, (host, shape, answer)


def _hook_action(policy: dict[str, Any], env: dict[str, str], root: str, host: str,
                 shape: str, tool: str, args: dict[str, Any]) -> str:  # fmt: skip
    sent = payload(host, shape, SERVER, tool, args, root)
    sent.setdefault("cwd", root)  # as hook.py does for a payload naming no directory
    outcome = decide(sent, policy, host, env, now=time.time())
    found = outcome.decision.decision if outcome.decision is not None else None
    return found or "allow"


def test_the_proxy_and_each_host_s_hook_decide_generated_calls_alike(project: Project) -> None:
    """Over the generated calls of test_hook_proxy_readings (path spellings, mapped and
    unmapped tools, a link): the proxy's decision is the hook's for every host's payload
    shape (each host's naming, Cline's use_mcp_tool, Windsurf's fields, Cursor's
    beforeMCPExecution, the plugin hosts' own names)."""
    _readings_setup(project)
    root = str(project.root)
    env = project.env
    decider = Decider(SERVER, cwd=root, env=env)
    policy = load_policy(root, env, use_cache=False).policy
    seen: dict[str, int] = {}

    @settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
    @given(_calls(root))
    def check(call: tuple[str, dict[str, Any]]) -> None:
        tool, args = call
        proxy = decider.before(tool, decider.prepare(tool, args), "t", args).action
        seen[proxy] = seen.get(proxy, 0) + 1
        for host, shape in SHAPES:
            hook = _hook_action(policy, env, root, host, shape, tool, args)
            assert hook == proxy, (host, shape, tool, args, proxy, hook)

    check()
    assert {"allow", "deny"} <= set(seen), seen


def test_the_plugin_s_rename_is_read_with_every_server_the_host_s_name_fits(
    project: Project,
) -> None:
    """hookwise's OpenCode/Kilo plugin renames the host's ``sanitize(S)_T`` by the longest
    configured server that fits and sends both names. ``mcp__team__vault__list`` was read
    at its first ``__`` (server ``team``: ``mcp: {server: team__vault}`` did not hold), and
    with servers ``my`` and ``my_vault`` configured, ``my_vault_get`` may be either's: a
    rule on the other is unverifiable, not passed."""
    _setup(project)
    root = str(project.root)
    for host in ("opencode", "kilo"):
        cases = [
            ("mcp__team__vault__list", "team__vault_list", "deny", "'team-vault-off'"),
            ("mcp__my_vault__get", "my_vault_get", "deny", "cannot verify"),  # ask: deny here
            ("mcp__fake__read_file", "fake_read_file", "", ""),
        ]
        for renamed, own, decision, said in cases:
            sent = {"hook_event_name": "tool.execute.before", "session_id": "s1",
                    "tool_use_id": "c1", "cwd": root, "tool_name": renamed,
                    "host_tool_name": own, "tool_input": {"name": "x"}}  # fmt: skip
            if own.startswith("my_"):  # a rule on server ``my``'s tool ``vault_get``
                sent["tool_input"] = {"table": "users"}
            done = subprocess.run(
                [sys.executable, "-m", "hookwise", "hook", "--host", host],
                input=json.dumps(sent), capture_output=True, text=True, env=project.env,
                cwd=root, timeout=60, check=False,
            )  # fmt: skip
            got = _answer(host, done)
            assert got[0] == decision and said in got[1], (host, renamed, got)


def test_copilot_s_changed_tool_name_leaves_a_rule_on_it_unverifiable(project: Project) -> None:
    """GitHub Copilot CLI names tool ``drop.table`` of server ``fake`` ``fake-drop-table``
    with no mark (observed: tests/e2e/test_host_mcp_names_live.py COPILOT_TOOLS): a rule
    on ``drop.table`` cannot be matched against that name, so it makes the call
    unverifiable, where it ran before; a name with no ``-`` but its separator holds no
    changed name, and the rule does not touch it."""
    user = Path(project.env["XDG_CONFIG_HOME"]) / "hookwise" / "policy.yaml"
    user.parent.mkdir(parents=True, exist_ok=True)
    user.write_text(
        "version: 1\nrules:\n"
        "  - {id: dotted-tool, match: {mcp: {tool: drop.table}}, action: deny}\n",
        "utf-8",
    )
    decision, why = _hook(project, "copilot", "name", SERVER, "drop-table", {"name": "users"})
    assert decision == "ask" and "'dotted-tool'" in why and NAMED in why, (decision, why)
    assert _hook(project, "copilot", "name", SERVER, "greet", {"name": "x"}) == ("", "")
