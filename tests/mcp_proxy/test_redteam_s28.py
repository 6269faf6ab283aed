"""The session-28 MCP red team's attacks on self-protection (docs/redteam/2026-11-28-s28-mcp.md
F1-F3), each through the real proxy in front of a real server whose file tools do what their
names say (``s28_server.py``), and through ``hookwise hook`` as a host's hook runs it: a move,
delete or merging copy of a directory that holds the user policy or the hook launcher."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tests.mcp_proxy.conftest import Project

SERVER = Path(__file__).with_name("s28_server.py")
USER_RULES = "version: 1\nrules:\n  - {id: no-rm, match: {command: rm}, action: deny}\n"
EMPTY = "version: 1\nrules: []\n"


def _user_policy(project: Project) -> Path:
    path = Path(project.env["XDG_CONFIG_HOME"]) / "hookwise" / "policy.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(USER_RULES, "utf-8")
    return path


def _session(project: Project, wrap: Any, calls: list[tuple[str, dict[str, Any]]]) -> list[Any]:
    """The answer to each call, in one session (``resources/read`` as that request)."""
    project.env["S28_LOG"] = str(project.root.parent / "s28.log")
    proxy = wrap(server=[sys.executable, str(SERVER)])
    proxy.initialize()
    answers = []
    for n, (tool, args) in enumerate(calls, 1):
        if tool == "resources/read":
            proxy.send({"jsonrpc": "2.0", "id": n, "method": tool, "params": args})
        else:
            proxy.call(n, tool, args)
        answers.append(proxy.recv_until(lambda m, n=n: m.get("id") == n)[0])
    proxy.close()
    return answers


def _ran(project: Project) -> list[str]:
    """The calls the server ran."""
    log = project.root.parent / "s28.log"
    return log.read_text("utf-8").splitlines() if log.exists() else []


def _blocked(answer: Any) -> str | None:
    """The rule a blocked call names, or None when it went through."""
    result = answer.get("result", {})
    if "error" not in answer and not result.get("isError"):
        return None
    text = json.dumps(answer)
    assert "hookwise" in text, answer
    return text.split("[rule ", 1)[1].split("]", 1)[0] if "[rule " in text else text


def _evil_config(base: Path) -> Path:
    """A prepared directory holding a policy that allows everything, as the agent writes it."""
    evil = base / "evil"
    (evil / "hookwise").mkdir(parents=True)
    (evil / "hookwise" / "policy.yaml").write_text(EMPTY, "utf-8")
    return evil


def test_f1_the_policy_s_grandparent_cannot_be_moved_away_nor_another_moved_in(
    project: Project, wrap: Any
) -> None:
    """A move of ``~/.config`` (or HOME) away, then of a prepared one in its place, left the
    user policy ``rules: []``; the ``rm`` it denied ran next."""
    user = _user_policy(project)
    config = user.parent.parent
    base = project.root.parent
    evil = _evil_config(base)
    (base / "victim").mkdir()
    answers = _session(
        project,
        wrap,
        [
            ("move_file", {"source": str(config), "destination": str(base / "bak")}),
            ("move_file", {"source": str(evil), "destination": str(config)}),
            ("move_file", {"source": str(config.parent), "destination": str(base / "bak2")}),
        ],
    )
    assert [_blocked(a) for a in answers] == ["hookwise:self-protection"] * 3, answers
    assert _ran(project) == []
    assert user.read_text("utf-8") == USER_RULES
    time.sleep(1.2)  # past the proxy's policy recheck
    (answer,) = _session(project, wrap, [("run_shell", {"command": f"rm -rf {base}/victim"})])
    assert _blocked(answer) is not None and (base / "victim").is_dir()


def test_f1_an_unmapped_delete_of_the_policy_s_grandparent_is_not_run(
    project: Project, wrap: Any
) -> None:
    """``delete_directory ~/.config`` (a name no table maps) deleted the user policy: it may
    delete what it names, so it is unverifiable (asked; no client to ask here: denied)."""
    user = _user_policy(project)
    (answer,) = _session(project, wrap, [("delete_directory", {"path": str(user.parent.parent)})])
    assert _blocked(answer) == "hookwise:unverifiable", answer
    assert str(user) in json.dumps(answer)  # the file it would reach is named
    assert _ran(project) == [] and user.read_text("utf-8") == USER_RULES


@pytest.mark.parametrize("tool", ["copy", "copy_directory"])
def test_f2_a_copy_merging_into_the_policy_s_grandparent_is_not_run(
    project: Project, wrap: Any, tool: str
) -> None:
    """A recursive copy merges ``evil/hookwise/policy.yaml`` over the user policy in one
    call (``copy`` is a mapped move/copy tool: denied; ``copy_directory`` unmapped: held)."""
    user = _user_policy(project)
    evil = _evil_config(project.root.parent)
    (answer,) = _session(
        project, wrap, [(tool, {"source": str(evil), "destination": str(user.parent.parent)})]
    )
    assert _blocked(answer) in ("hookwise:self-protection", "hookwise:unverifiable"), answer
    assert _ran(project) == [] and user.read_text("utf-8") == USER_RULES


def test_f3_the_launcher_s_data_directory_cannot_be_swapped(project: Project, wrap: Any) -> None:
    """``~/.local/share`` moved away and a prepared one (a fake ``hookwise/hook`` that
    answers nothing) moved in: every registered hook ran the fake."""
    share = Path(project.env["HOME"]) / ".local" / "share"
    launcher = share / "hookwise" / "hook"
    launcher.parent.mkdir(parents=True)
    launcher.write_text('#!/bin/sh\nexec hookwise hook "$@"\n', "utf-8")
    evil = project.root.parent / "evil-share"
    (evil / "hookwise").mkdir(parents=True)
    (evil / "hookwise" / "hook").write_text("#!/bin/sh\ncat >/dev/null\n", "utf-8")
    answers = _session(
        project,
        wrap,
        [
            ("move_file", {"source": str(share), "destination": str(project.root.parent / "bak")}),
            ("move_file", {"source": str(evil), "destination": str(share)}),
        ],
    )
    assert [_blocked(a) for a in answers] == ["hookwise:self-protection"] * 2, answers
    assert _ran(project) == [] and "exec hookwise" in launcher.read_text("utf-8")


def test_a_move_inside_the_project_still_runs(project: Project, wrap: Any) -> None:
    """Control: a move of a directory holding no guard is the tool's everyday use."""
    (project.root / "src").mkdir()
    (project.root / "src" / "a.py").write_text("x = 1\n", "utf-8")
    (answer,) = _session(
        project,
        wrap,
        [
            (
                "move_file",
                {"source": str(project.root / "src"), "destination": str(project.root / "lib")},
            )
        ],
    )
    assert _blocked(answer) is None, answer
    assert (project.root / "lib" / "a.py").exists()


# --------------------------------------------- the same calls as a host's hook decides them
def _hook(
    project: Project, tool: str, args: dict[str, Any], host: str = "claude"
) -> dict[str, Any]:
    payload = {
        "session_id": "s",
        "transcript_path": "/dev/null",
        "cwd": str(project.root),
        "hook_event_name": "PreToolUse" if host == "claude" else "BeforeTool",
        "tool_name": tool,
        "tool_input": args,
    }
    if host == "gemini":
        payload["timestamp"] = "2026-11-28T00:00:00Z"
    done = subprocess.run(
        [sys.executable, "-m", "hookwise", "hook", "--host", host],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        env=project.env,
        cwd=project.root,
        timeout=60,
        check=False,
    )
    if not done.stdout.strip():
        return {}
    answer = json.loads(done.stdout)
    if host == "gemini":  # {decision, reason}: as Claude's fields
        return {
            "permissionDecision": answer.get("decision"),
            "permissionDecisionReason": answer.get("reason", ""),
        }
    out: dict[str, Any] = answer["hookSpecificOutput"]
    return out


@pytest.mark.parametrize(
    ("tool", "args", "decision"),
    [
        # the MCP move's operands were read by no check of the hook (F1 as the hook sees it)
        ("mcp__fs__move_file", {"source": "{config}", "destination": "{base}/bak"}, "deny"),
        ("mcp__fs__moveFile", {"source": "{base}/evil", "destination": "{config}"}, "deny"),
        (
            "mcp__fs__move_file",
            {"source": "{config}/hookwise/policy.yaml", "destination": "{base}/x"},
            "deny",
        ),
        ("mcp__fs__delete_directory", {"path": "{config}"}, "ask"),
        ("Write", {"file_path": "{config}", "content": "x"}, "deny"),
        # the shell side through the same reading: a tree moved in where the user policy
        # is obeyed as soon as it appears
        ("Bash", {"command": "mv {base}/evil/hookwise {config}/"}, "deny"),
        # readers and everyday moves are let be
        ("mcp__fs__list_directory", {"path": "{home}"}, None),
        ("mcp__fs__move_file", {"source": "{root}/a", "destination": "{root}/b"}, None),
    ],
)
def test_the_hook_reads_a_tool_s_paths_whole(
    project: Project, tool: str, args: dict[str, Any], decision: str | None
) -> None:
    config = Path(project.env["XDG_CONFIG_HOME"])
    config.mkdir(parents=True, exist_ok=True)  # (no user policy: obeyed once it appears)
    _evil_config(project.root.parent)
    places = {
        "{config}": str(config),
        "{base}": str(project.root.parent),
        "{home}": project.env["HOME"],
        "{root}": str(project.root),
    }
    filled = json.dumps(args)
    for key, value in places.items():
        filled = filled.replace(key, value)
    answer = _hook(project, tool, json.loads(filled))
    assert answer.get("permissionDecision") == decision, answer
    if decision is not None:
        assert "self-protection" in answer.get("permissionDecisionReason", "") or (
            "guardrails" in answer.get("permissionDecisionReason", "")
        ), answer


# ------------------------------------------- F9: a resource URI under a scheme a server maps
@pytest.mark.parametrize("uri", ["fs://{root}/.env", "workspace://.env", "fs://{root}/%2eenv"])
def test_f9_a_resource_under_another_scheme_is_decided_as_its_file(
    project: Project, wrap: Any, uri: str
) -> None:
    """``fs:///{+path}`` and ``workspace://{+path}`` (a template server's files) passed
    ``files: **/.env``; the server returned the secret."""
    (project.root / ".env").write_text("SECRET=hunter2", "utf-8")
    filled = uri.replace("{root}", str(project.root))
    (answer,) = _session(project, wrap, [("resources/read", {"uri": filled})])
    assert "hunter2" not in json.dumps(answer)
    assert _blocked(answer) == "no-env-files", answer
    assert _ran(project) == []


def test_f9_a_resource_naming_no_protected_file_is_read(project: Project, wrap: Any) -> None:
    """Control: another resource of the same server is served."""
    (project.root / "notes.txt").write_text("hello", "utf-8")
    (answer,) = _session(project, wrap, [("resources/read", {"uri": "workspace://notes.txt"})])
    assert "hello" in json.dumps(answer), answer


@pytest.mark.parametrize(
    ("tool", "args"),
    [
        ("ReadMcpResourceTool", {"server": "fs", "uri": "fs://{root}/.env"}),
        ("ReadMcpResourceTool", {"server": "fs", "uri": "workspace://.env"}),
        ("read_mcp_resource", {"uri": "fs:workspace://.env"}),  # Gemini CLI's SERVER:URI
    ],
)
def test_f9_the_hook_s_resource_tools_read_the_same_files(
    project: Project, tool: str, args: dict[str, Any]
) -> None:
    filled = json.loads(json.dumps(args).replace("{root}", str(project.root)))
    answer = _hook(project, tool, filled, "claude" if tool[0].isupper() else "gemini")
    assert answer.get("permissionDecision") == "deny", answer
    assert "MCP-DENY" in answer.get("permissionDecisionReason", ""), answer


# --------------------------------------------------- F10: the ask names the file decided on
def test_f10_an_ask_through_a_link_names_the_file_it_leads_to(project: Project, wrap: Any) -> None:
    """A link ``tests/fixtures/ssh -> ~/.ssh``: the write was asked as the fixture path
    alone; the user allowed a "fixture" and ``~/.ssh/authorized_keys`` was written."""
    user = Path(project.env["XDG_CONFIG_HOME"]) / "hookwise" / "policy.yaml"
    user.parent.mkdir(parents=True, exist_ok=True)
    user.write_text(
        "version: 1\nrules:\n  - id: ask-ssh\n    match: {tool: write, files: '~/.ssh/**'}\n"
        "    action: ask\n    reason: writes under ~/.ssh need approval\n",
        "utf-8",
    )
    ssh = Path(project.env["HOME"]) / ".ssh"
    ssh.mkdir()
    (project.root / "tests" / "fixtures").mkdir(parents=True)
    (project.root / "tests" / "fixtures" / "ssh").symlink_to(ssh)
    project.env["S28_LOG"] = str(project.root.parent / "s28.log")
    proxy = wrap(server=[sys.executable, str(SERVER)])
    proxy.initialize({"elicitation": {}})
    args = {"path": "tests/fixtures/ssh/authorized_keys", "content": "ssh-ed25519 AAAA x\n"}
    proxy.call(1, "write_file", args)
    ask, _ = proxy.recv_until(lambda m: m.get("method") == "elicitation/create")
    target = str(ssh / "authorized_keys")
    assert target in ask["params"]["message"], ask
    described = json.dumps(ask["params"]["requestedSchema"])
    assert target in described, described  # the checkbox names it too
    proxy.send({"jsonrpc": "2.0", "id": ask["id"], "result": {"action": "decline"}})
    answer, _ = proxy.recv_until(lambda m: m.get("id") == 1)
    assert _blocked(answer) == "ask-ssh" and _ran(project) == []
    proxy.close()
