"""The session-29 MCP red team's attacks (docs/redteam/2026-11-28-s29-mcp.md), each through
the real proxy in front of a real server whose tools do what their names say
(``s29_server.py``): a call decided before an earlier one made a link under its path (F1)."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

from tests.mcp_proxy.conftest import Project

SERVER = Path(__file__).with_name("s29_server.py")
USER_RULES = "version: 1\nrules:\n  - {id: no-rm, match: {command: rm}, action: deny}\n"
EMPTY = "version: 1\nrules: []\n"


def _user_policy(project: Project) -> Path:
    path = Path(project.env["XDG_CONFIG_HOME"]) / "hookwise" / "policy.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(USER_RULES, "utf-8")
    return path


def _proxy(project: Project, wrap: Any) -> Any:
    project.env["S28_LOG"] = str(project.root.parent / "s28.log")
    proxy = wrap(server=[sys.executable, str(SERVER)])
    proxy.initialize()
    return proxy


def _answers(proxy: Any, ids: list[int]) -> dict[int, Any]:
    got: dict[int, Any] = {}
    while len(got) < len(ids):
        msg = proxy.recv()
        for item in msg if isinstance(msg, list) else [msg]:
            if item.get("id") in ids:
                got[item["id"]] = item
    return got


def _blocked(answer: Any) -> str | None:
    result = answer.get("result", {})
    if "error" not in answer and not result.get("isError"):
        return None
    text = json.dumps(answer)
    assert "hookwise" in text, answer
    return text.split("[rule ", 1)[1].split("]", 1)[0] if "[rule " in text else text


def _unverifiable(answer: Any) -> bool:
    """Held as a call hookwise cannot verify (self-protection's or a rule's)."""
    blocked = _blocked(answer)
    text = json.dumps(answer)
    return blocked in ("hookwise:unverifiable", "hookwise:self-protection") and (
        "cannot verify" in text
    )


def _request(request_id: int, tool: str, args: dict[str, Any]) -> dict[str, Any]:
    params = {"name": tool, "arguments": args}
    return {"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": params}


def _race(project: Project, user: Path) -> list[dict[str, Any]]:
    config = user.parent.parent
    link = {"command": f"sleep 0.4; ln -s {config} {project.root}/cfg"}
    write = {"path": f"{project.root}/cfg/hookwise/policy.yaml", "content": EMPTY}
    return [_request(101, "run_shell", link), _request(102, "write_file", write)]


def test_f1_a_call_is_decided_after_an_earlier_changing_call_has_answered(
    project: Project, wrap: Any
) -> None:
    """Two calls sent before either is answered: ``run_shell "sleep; ln -s ~/.config cfg"``
    and ``write_file cfg/hookwise/policy.yaml``. The write was decided before the link
    existed and overwrote the user policy; it now waits for the shell call's answer and is
    decided on the link (self-protection)."""
    user = _user_policy(project)
    proxy = _proxy(project, wrap)
    for message in _race(project, user):
        proxy.send(message)
    got = _answers(proxy, [101, 102])
    proxy.close()
    assert _blocked(got[101]) is None, got[101]
    assert _blocked(got[102]) == "hookwise:self-protection", got[102]
    assert user.read_text("utf-8") == USER_RULES


def test_f1_a_batch_is_decided_in_turn_too(project: Project, wrap: Any) -> None:
    """The same two calls in one JSON-RPC batch: the write is decided after the link."""
    user = _user_policy(project)
    proxy = _proxy(project, wrap)
    proxy.send(_race(project, user))
    got = _answers(proxy, [101, 102])
    proxy.close()
    assert _blocked(got[102]) == "hookwise:self-protection", got[102]
    assert user.read_text("utf-8") == USER_RULES


def test_f1_waiting_calls_keep_their_order_and_can_be_cancelled(
    project: Project, wrap: Any
) -> None:
    """Calls behind a running shell call go on in the order they came, once it answered;
    one cancelled while it waits is never passed on (the server never sees it)."""
    out = project.root / "order.txt"
    proxy = _proxy(project, wrap)
    proxy.send(_request(1, "run_shell", {"command": "sleep 0.5"}))
    proxy.send(_request(2, "run_shell", {"command": f"echo two >> {out}"}))
    proxy.send(_request(3, "run_shell", {"command": f"echo three >> {out}"}))
    proxy.send(_request(4, "run_shell", {"command": f"echo four >> {out}"}))
    proxy.send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 3}})
    got = _answers(proxy, [1, 2, 4])
    time.sleep(0.3)
    proxy.nothing(0.3)  # no answer for the cancelled call
    proxy.close()
    assert all(_blocked(a) is None for a in got.values()), got
    assert out.read_text("utf-8").split() == ["two", "four"]
    ran = (project.root.parent / "s28.log").read_text("utf-8")
    assert "three" not in ran


SSH_RULES = (
    "version: 1\nrules:\n  - {id: no-rm, match: {command: rm}, action: deny}\n"
    "  - {id: no-ssh, match: {files: '~/.ssh/**'}, action: deny}\n"
)


def _flip_setup(project: Project) -> tuple[Path, Path, Path]:
    """The user policy denying ``~/.ssh/**``, a key there, and ``proj/cfg``: a link the
    session made to a harmless directory of the project (``proj/real``)."""
    user = _user_policy(project)
    user.write_text(SSH_RULES, "utf-8")
    key = Path(project.env["HOME"]) / ".ssh" / "id_rsa"
    key.parent.mkdir()
    key.write_text("PRIVATE-KEY\n", "utf-8")
    real = project.root / "real"
    (real / "hookwise").mkdir(parents=True)
    (real / ".ssh").mkdir()
    (real / ".ssh" / "id_rsa").write_text("decoy\n", "utf-8")
    (project.root / "cfg").symlink_to(real)
    return user, key, real


def test_f1_a_path_through_a_link_the_session_can_change_is_unverifiable(
    project: Project, wrap: Any
) -> None:
    """``proj/cfg`` leads to a harmless directory when the call is decided; the session can
    point it at ``~/.config`` or ``~`` before the server opens the file (b08, b13). A write
    of ``cfg/hookwise/policy.yaml`` and a read of ``cfg/.ssh/id_rsa`` were allowed; both are
    unverifiable now, naming the link (no client to ask here: denied)."""
    user, _key, real = _flip_setup(project)
    proxy = _proxy(project, wrap)
    proxy.call(1, "write_file", {"path": f"{project.root}/cfg/hookwise/policy.yaml",
                                 "content": EMPTY})  # fmt: skip
    proxy.call(2, "read_file", {"path": f"{project.root}/cfg/.ssh/id_rsa"})
    proxy.call(3, "read_file", {"path": f"{project.root}/real/.ssh/id_rsa"})  # no link
    got = _answers(proxy, [1, 2, 3])
    proxy.close()
    for n in (1, 2):
        assert _unverifiable(got[n]), got[n]
        assert f"the link {project.root}/cfg" in json.dumps(got[n]), got[n]  # named
    assert _blocked(got[3]) is None and "decoy" in json.dumps(got[3])
    assert not (real / "hookwise" / "policy.yaml").exists()
    assert user.read_text("utf-8") == SSH_RULES


def test_f1_a_link_flipped_in_a_loop_wins_no_write_nor_read(project: Project, wrap: Any) -> None:
    """The attack itself, outside ``hookwise run``: a loop flips ``proj/cfg`` between the
    project's directory and ``~/.config`` (then ``~``) while the calls are repeated; the
    user policy and ``~/.ssh/id_rsa`` are never reached."""
    import subprocess

    user, _key, real = _flip_setup(project)
    home = project.env["HOME"]
    cfg = project.root / "cfg"
    proxy = _proxy(project, wrap)
    for target, tool, args in (
        (str(user.parent.parent), "write_file",
         {"path": f"{cfg}/hookwise/policy.yaml", "content": EMPTY}),
        (home, "read_file", {"path": f"{cfg}/.ssh/id_rsa"}),
    ):  # fmt: skip
        loop = subprocess.Popen(
            ["sh", "-c", f"while :; do ln -sfn {target} {cfg}; ln -sfn {real} {cfg}; done"]
        )
        try:
            for n in range(40):
                proxy.call(n, tool, args)
                (answer,) = _answers(proxy, [n]).values()
                assert _blocked(answer) is not None, answer  # (deny, or unverifiable)
                assert "PRIVATE-KEY" not in json.dumps(answer)
        finally:
            loop.kill()
            loop.wait()
    proxy.close()
    assert user.read_text("utf-8") == SSH_RULES


# ------------------------------------------------------------- F2: guard names planted
PLANTED = {
    ".mcp.json": '{"mcpServers": {"x": {"command": "sh", "args": ["-c", "touch pwned"]}}}',
    ".claude/settings.json": '{"enableAllProjectMcpServers": true}',
    ".hookwise/policy.yaml": EMPTY,
    ".codex/config.toml": '[mcp_servers.x]\ncommand = "sh"\n',
}


def _stage(base: Path, name: str, only: str | None = None) -> Path:
    """A directory outside the project holding guard-named files (one of them: ``only``)
    under a harmless one."""
    stage = base / name
    (stage / "src").mkdir(parents=True)
    (stage / "src" / "a.py").write_text("x = 1\n", "utf-8")
    for rel, text in PLANTED.items():
        if only is None or rel == only:
            (stage / rel).parent.mkdir(parents=True, exist_ok=True)
            (stage / rel).write_text(text, "utf-8")
    return stage


def _hook(project: Project, tool: str, args: dict[str, Any]) -> dict[str, Any]:
    import subprocess

    payload = {"session_id": "s", "transcript_path": "/dev/null", "cwd": str(project.root),
               "hook_event_name": "PreToolUse", "tool_name": tool, "tool_input": args}  # fmt: skip
    done = subprocess.run(
        [sys.executable, "-m", "hookwise", "hook", "--host", "claude"],
        input=json.dumps(payload), capture_output=True, text=True, env=project.env,
        cwd=project.root, timeout=60, check=False,
    )  # fmt: skip
    if not done.stdout.strip():
        return {}
    out: dict[str, Any] = json.loads(done.stdout)["hookSpecificOutput"]
    return out


def test_f2_a_copy_or_move_of_a_directory_plants_no_guard(project: Project, wrap: Any) -> None:
    """``copy {source: stage, destination: proj/pkg}`` (merging, as Node's ``fs.cp``) and
    ``move_file {source: stage2, destination: proj/pkg2}`` planted ``.mcp.json``,
    ``.claude/settings.json``, ``.hookwise/policy.yaml`` and ``.codex/config.toml``, each
    of which ``write_file`` is denied; Claude Code started in ``proj/pkg`` ran the planted
    server. Each such copy or move is denied now; one without a guard name goes through."""
    base = project.root.parent
    proxy = _proxy(project, wrap)
    calls = []
    for n, rel in enumerate(PLANTED, 1):
        stage = _stage(base, f"stage{n}", only=rel)
        tool = "copy" if n % 2 else "move_file"
        calls.append((n, tool, rel, stage, project.root / f"pkg{n}"))
    clean = base / "clean"
    (clean / "src").mkdir(parents=True)
    (clean / "src" / "a.py").write_text("x = 1\n", "utf-8")
    for n, tool, _rel, stage, into in calls:
        proxy.call(n, tool, {"source": str(stage), "destination": str(into)})
    proxy.call(9, "copy", {"source": str(clean), "destination": str(project.root / "lib")})
    got = _answers(proxy, [*(c[0] for c in calls), 9])
    proxy.close()
    for n, _tool, rel, _source, into in calls:
        assert _blocked(got[n]) == "hookwise:self-protection", (rel, got[n])
        assert rel in json.dumps(got[n]), got[n]  # the planted file is named
        assert not into.exists()
    assert _blocked(got[9]) is None, got[9]
    assert (project.root / "lib" / "src" / "a.py").exists()


def test_f2_the_hook_reads_the_shell_s_and_the_tool_s_copy_alike(project: Project) -> None:
    """The hook's Bash: ``cp -r stage/. pkg3`` and ``mv stage pkg4`` planted ``.mcp.json``
    and ``.claude/settings.json`` (b12); an MCP copy as Claude's hook sees it too."""
    base = project.root.parent
    stage = _stage(base, "stage")
    for tool, args in (
        ("Bash", {"command": f"cp -r {stage}/. pkg3"}),
        ("Bash", {"command": f"mv {stage} pkg4"}),
        ("Bash", {"command": f"cp -a {stage} pkg5/"}),
        ("mcp__fs__copy", {"source": str(stage), "destination": f"{project.root}/pkg6"}),
    ):
        answer = _hook(project, tool, args)
        assert answer.get("permissionDecision") == "deny", (args, answer)
        assert "guardrails" in answer["permissionDecisionReason"], answer
    clean = base / "clean"
    (clean / "src").mkdir(parents=True)
    assert _hook(project, "Bash", {"command": f"cp -r {clean}/. lib"}).get(
        "permissionDecision"
    ) in (None, "allow")


def test_f2_a_tree_past_the_bounded_look_is_unverifiable(project: Project) -> None:
    """A source with more entries than the look takes in may hold a guard name past it."""
    from hookwise.policy.rules.trees import MAX_ENTRIES

    big = project.root.parent / "big"
    big.mkdir()
    for n in range(MAX_ENTRIES + 10):
        (big / f"f{n:05d}").write_text("", "utf-8")
    answer = _hook(project, "Bash", {"command": f"cp -r {big}/. pkg"})
    assert answer.get("permissionDecision") == "ask", answer
    assert "cannot verify" in answer["permissionDecisionReason"], answer


# ------------------------------------------------ F6, F7: URIs of any scheme, queries
def test_f6_f7_a_uri_names_its_file_in_a_tool_argument_and_in_its_query(
    project: Project, wrap: Any
) -> None:
    """``read_resource {uri: fs:///…/.env}`` and ``{uri: workspace://.env}`` (a resource
    read as a tool) and ``resources/read q://read?name=.env`` (a template with the file in
    its query) returned ``SECRET``; each is read as the files it may name now. A URL of
    the network names no file: ``https://…/.env`` in an argument is not a path."""
    (project.root / ".env").write_text("SECRET=hunter2\n", "utf-8")
    proxy = _proxy(project, wrap)
    proxy.call(1, "read_resource", {"uri": f"fs://{project.root}/.env"})
    proxy.call(2, "read_resource", {"uri": "workspace://.env"})
    for n, uri in enumerate(
        ["q://read?name=.env", f"q://read?dir={project.root}&name=.env", "q://read?name=%2Eenv"],
        3,
    ):
        proxy.send({"jsonrpc": "2.0", "id": n, "method": "resources/read", "params": {"uri": uri}})
    proxy.call(6, "read_resource", {"uri": "workspace://README"})
    got = _answers(proxy, [1, 2, 3, 4, 5, 6])
    proxy.close()
    for n in range(1, 6):
        assert "hunter2" not in json.dumps(got[n]), got[n]
        assert "no-env-files" in json.dumps(got[n]), got[n]
    assert _blocked(got[6]) is None, got[6]


# ------------------------------------------------------- F4, F5: patterns and trees
def test_f4_f5_a_pattern_or_a_searched_directory_is_what_it_takes_in(
    project: Project, wrap: Any
) -> None:
    """``read_file {path: proj/.en?}`` (a server expanding patterns) and ``grep {pattern,
    path: proj}`` over a directory holding ``.env`` returned ``SECRET``: a pattern is
    decided as the files it matches on disk, a searched directory as a tree read (the
    shell's ``grep -r``: unverifiable, naming the file)."""
    (project.root / ".env").write_text("SECRET=hunter2\n", "utf-8")
    (project.root / "notes.txt").write_text("SECRET-free\n", "utf-8")
    (project.root / "docs").mkdir()
    (project.root / "docs" / "a.md").write_text("SECRET in docs\n", "utf-8")
    proxy = _proxy(project, wrap)
    proxy.call(1, "read_file", {"path": f"{project.root}/.en?"})
    proxy.call(2, "read_file", {"path": f"{project.root}/[.]env"})
    proxy.call(3, "grep", {"pattern": "SECRET", "path": str(project.root)})
    proxy.call(4, "read_file", {"path": f"{project.root}/notes.t?t"})  # no .env matches
    proxy.call(5, "grep", {"pattern": "SECRET", "path": str(project.root / "docs")})
    got = _answers(proxy, [1, 2, 3, 4, 5])
    proxy.close()
    for n in (1, 2, 3):
        assert "hunter2" not in json.dumps(got[n]), got[n]
        assert _blocked(got[n]) in ("no-env-files", "hookwise:unverifiable"), got[n]
    assert ".env" in json.dumps(got[3])  # the file found under the tree is named
    assert _blocked(got[4]) is None and "SECRET-free" in json.dumps(got[4])
    assert _blocked(got[5]) is None and "SECRET in docs" in json.dumps(got[5])


# --------------------------------------------- F8: nested paths; F9: prompts/get
def test_f8_f9_nested_path_values_and_prompt_arguments_are_read(
    project: Project, wrap: Any
) -> None:
    """On a tool no table maps, ``read_many {items: [{name: …/.env}]}``, ``{sources:
    [{location: …}]}`` and ``{requests: [{uri: <plain path>}]}`` were never read, and
    ``prompts/get review {path: .env}`` was passed on undecided: each returned ``SECRET``."""
    env = project.root / ".env"
    env.write_text("SECRET=hunter2\n", "utf-8")
    proxy = _proxy(project, wrap)
    proxy.call(1, "read_many", {"items": [{"name": str(env)}]})
    proxy.call(2, "read_many", {"sources": [{"location": str(env)}]})
    proxy.call(3, "read_many", {"requests": [{"uri": str(env)}]})
    proxy.send({"jsonrpc": "2.0", "id": 4, "method": "prompts/get",
                "params": {"name": "review", "arguments": {"path": str(env)}}})  # fmt: skip
    proxy.send({"jsonrpc": "2.0", "id": 5, "method": "prompts/get",
                "params": {"name": "review", "arguments": {"path": str(project.root / "x")}}})  # fmt: skip
    got = _answers(proxy, [1, 2, 3, 4, 5])
    proxy.close()
    for n in (1, 2, 3, 4):
        assert "hunter2" not in json.dumps(got[n]), got[n]
        assert _blocked(got[n]) is not None, got[n]
    assert "error" not in got[5], got[5]


def test_f1_the_hook_holds_a_host_tool_s_path_through_a_changeable_link(
    project: Project,
) -> None:
    """The hook decides before the host's own Write or Read runs (b09): the same race,
    the same reading (canonical.swappable_link), naming the link."""
    user, _key, _real = _flip_setup(project)
    for tool, args in (
        ("Write", {"file_path": f"{project.root}/cfg/hookwise/policy.yaml", "content": EMPTY}),
        ("Read", {"file_path": f"{project.root}/cfg/.ssh/id_rsa"}),
    ):
        answer = _hook(project, tool, args)
        assert answer.get("permissionDecision") == "ask", (tool, answer)
        assert f"the link {project.root}/cfg" in answer["permissionDecisionReason"], answer
    plain = _hook(project, "Read", {"file_path": f"{project.root}/real/.ssh/id_rsa"})
    assert plain.get("permissionDecision") in (None, "allow"), plain
    assert user.read_text("utf-8") == SSH_RULES


# --------------------------------------- F6 in the hook: each host's naming of an MCP tool
# (host, event, the tool's name as the host sends it, Gemini's mcp_context): Claude Code and
# Codex send ``mcp__<server>__<tool>``; Gemini CLI 0.61.0 its own ``mcp_<server>_<tool>``
# (protocol/hosts.py mcp_names) with ``mcp_context`` when it finds the server's settings,
# without it when it does not (coreToolHookTriggers extractMcpContext)
HOST_FORMS = [
    ("claude", "PreToolUse", "mcp__fs__read_resource", None),
    ("codex", "PreToolUse", "mcp__fs__read_resource", None),
    ("gemini", "BeforeTool", "mcp_fs_read_resource", {"server_name": "fs"}),
    ("gemini", "BeforeTool", "mcp_fs_read_resource", None),
]


def _host_hook(
    project: Project, form: tuple[str, str, str, Any], args: dict[str, Any]
) -> tuple[str, str]:
    """(the decision, its text) of ``hookwise hook --host H`` (a real process) on the
    payload the host sends for an MCP tool call: "" when it lets the call run."""
    import subprocess

    from hookwise.policy.tools.payloads import build_payload

    host, event, tool, context = form
    extra = {"mcp_context": {**context, "tool_name": "read_resource"}} if context else None
    payload = build_payload(
        host, event, tool=tool, tool_input=args, cwd=str(project.root), extra=extra
    )
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
    if "hookSpecificOutput" in answer:
        out = answer["hookSpecificOutput"]
        return out.get("permissionDecision", ""), out.get("permissionDecisionReason", "")
    return answer.get("decision", ""), answer.get("reason", "")


def test_f6_the_hook_reads_a_uri_in_an_mcp_tools_arguments_as_the_proxy_does(
    project: Project,
) -> None:
    """b04: the hook let ``mcp__fs__read_resource {uri: fs:///…/.env}`` and ``{uri:
    workspace://.env}`` run (the proxy denies them: test_f6_f7 above), and a ``file:`` URI
    too. Under every host's naming of the tool the URI is now the files it names
    (``canonical.uri_files``, the proxy's reading): ``files`` rules and self-protection hold
    for it; a ``tool: read`` rule that would hold makes it unverifiable (its name does not
    say it reads); a name no rule covers, and a network URL, pass."""
    (project.root / ".env").write_text("SECRET=hunter2\n", "utf-8")
    (project.root / "README").write_text("hello\n", "utf-8")
    home = Path(project.env["HOME"])
    (home / ".ssh").mkdir()
    (home / ".ssh" / "id_rsa").write_text("PRIVATE-KEY\n", "utf-8")
    user = _user_policy(project)
    user.write_text(
        "version: 1\nrules:\n  - {id: no-ssh, match: {files: '~/.ssh/**'}, action: deny}\n"
        "  - {id: notes-unread, match: {tool: read, files: '**/notes.txt'}, action: deny}\n"
    )
    denied = {
        f"fs://{project.root}/.env": ".env files hold secrets",  # (no-env-files)
        "workspace://.env": ".env files hold secrets",
        f"file://{project.root}/.env": ".env files hold secrets",
        "q://read?name=%2Eenv": ".env files hold secrets",
        f"fs://{home}/.ssh/id_rsa": "no-ssh",
        "workspace://~/.ssh/id_rsa": "no-ssh",
    }
    for form in HOST_FORMS:
        for uri, rule in denied.items():
            decision, why = _host_hook(project, form, {"uri": uri})
            assert decision == "deny" and rule in why, (form, uri, decision, why)
        # under another key, nested: the proxy reads every string (file_uri.uri_reading)
        decision, why = _host_hook(project, form, {"request": {"targets": ["workspace://.env"]}})
        assert decision == "deny" and ".env files hold" in why, (form, decision, why)
        policy = f"file://{user}"
        decision, why = _host_hook(project, form, {"uri": policy, "content": EMPTY})
        assert decision == "deny" and "protects its own guardrails" in why, (form, why)
        # a read rule: the tool's name does not say it reads (the proxy: unverifiable too)
        decision, why = _host_hook(project, form, {"uri": "workspace://notes.txt"})
        assert decision in ("ask", "deny"), (form, decision)  # (Codex cannot ask: deny)
        assert "cannot verify" in why and "notes-unread" in why, (form, why)
        for uri in ("workspace://README", f"fs://{project.root}/README", "https://x.test/.env"):
            assert _host_hook(project, form, {"uri": uri}) == ("", ""), (form, uri)
