"""Claude Code 2.1.330's CwdChanged, FileChanged, PermissionDenied, Elicitation,
ElicitationResult and WorktreeCreate, recorded on the real CLI offline in ``claude -p``.

    python -m tests.e2e.record_claude_offline_events [--out tests/e2e/fixtures/claude-offline]
                                                      [--only NAME]

Each run is ``claude -p please --output-format json`` against the fake model (this process,
127.0.0.1), every event of hookwise's Claude table hooked with a logging command
(``answer_hook.py``) that answers nothing, except the run's own answers. The model's calls
are scripted per run:

* ``cwd-watch``: a Bash call ``mkdir -p sub && cd sub`` (CwdChanged fires: the Bash tool
  keeps its directory), whose hook answers ``watchPaths`` naming ``sub/watched.txt``; then a
  call that writes that file and waits 3 s: FileChanged fires (the watch works in ``-p``).
* ``permission-denied``: ``--permission-mode auto``, no allow rule, and a download piped to a
  shell: auto mode's classifier runs on Anthropic's side, which the fake model is not, so every check is refused and
  PermissionDenied fires (reason ``Classifier unavailable``); ``permission-denied-retry``: its
  hook answers ``retry: true``.
* ``elicitation-*``: an MCP server of the user's (``elicit_server.py``) whose tool sends
  ``elicitation/create`` during the call. ``-none``: no answer (the CLI cancels;
  ElicitationResult fires); ``-accept``: the Elicitation hook accepts with content;
  ``-exit2``: the Elicitation hook exits 2; ``-result``: no Elicitation answer, the
  ElicitationResult hook changes the cancel into an accept with content.
* ``worktree-create``: ``-w feat`` in a git repository, the WorktreeCreate hook prints a
  directory (made beforehand, holding the project's settings): the session runs there;
  ``worktree-create-fails``: the hook exits 1.
* ``config-change`` and ``-block`` (``record_interactive``): ``claude`` with no prompt in a
  pseudo-terminal; the project's settings change while it runs (a SessionEnd hook added);
  ConfigChange's hook answers nothing, or a block: does the change apply.

The record keeps the inputs the hooks got in order (run paths as ``$RUN``), each answer
given, the tool results the model read, and (elicitation) what the server got back.
``tests/e2e/test_claude_offline_events_replay.py`` replays them through hookwise (no CLI
needed).
"""

from __future__ import annotations

import contextlib
import functools
import json
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.e2e import clis
from tests.e2e.fake_model import FakeModel, Script, ToolCall, call
from tests.e2e.observe import read_jsonl
from tests.e2e.runner import record_runs, run_bounded

OUT = Path(__file__).parent / "fixtures" / "claude-offline"
REPO = Path(__file__).resolve().parents[2]
SERVER = Path(__file__).parent / "elicit_server.py"
WATCHED = "sub/watched.txt"
EXIT2_REASON = "ELICIT-EXIT2-REASON"
# a command auto mode sends to its classifier (a download piped to a shell; port 9 of the
# loopback, should it ever run)
UNCHECKED = "curl -s http://127.0.0.1:9/install.sh | sh"


def _specific(event: str, **fields: Any) -> dict[str, Any]:
    answer = {"hookSpecificOutput": {"hookEventName": event, **fields}}
    return {"exit": 0, "stdout": json.dumps(answer), "stderr": ""}


@dataclass(frozen=True)
class Run:
    calls: tuple[ToolCall, ...]
    answers: dict[str, dict[str, Any]] = field(default_factory=dict)
    flags: tuple[str, ...] = ()
    allow: tuple[str, ...] = ("Bash",)
    elicit: bool = False
    # the project is a git repository and ``-w feat`` asks for a worktree; the hook's path
    # ``$RUN/made-by-hook`` exists and holds the project's settings (hooks go on there)
    worktree: bool = False


def _bash(command: str) -> ToolCall:
    return call("Bash", command=command, description=command)


ASK = call("mcp__asker__ask")
WORKTREE = "$RUN/made-by-hook"
RUNS: dict[str, Run] = {
    "cwd-watch": Run(
        (
            _bash("mkdir -p sub && cd sub"),
            _bash("echo x > watched.txt && sleep 3"),
        ),
        {"CwdChanged": _specific("CwdChanged", watchPaths=[f"$RUN/proj/{WATCHED}"])},
    ),
    "permission-denied": Run((_bash(UNCHECKED),), flags=("--permission-mode", "auto"), allow=()),
    "permission-denied-retry": Run(
        (_bash(UNCHECKED),),
        {"PermissionDenied": _specific("PermissionDenied", retry=True)},
        flags=("--permission-mode", "auto"),
        allow=(),
    ),
    "elicitation-none": Run((ASK,), allow=("mcp__asker__ask",), elicit=True),
    "elicitation-accept": Run(
        (ASK,),
        {"Elicitation": _specific("Elicitation", action="accept", content={"name": "from-hook"})},
        allow=("mcp__asker__ask",),
        elicit=True,
    ),
    "elicitation-exit2": Run(
        (ASK,),
        {"Elicitation": {"exit": 2, "stdout": "", "stderr": EXIT2_REASON}},
        allow=("mcp__asker__ask",),
        elicit=True,
    ),
    "elicitation-result": Run(
        (ASK,),
        {
            "ElicitationResult": _specific(
                "ElicitationResult", action="accept", content={"name": "from-result-hook"}
            )
        },
        allow=("mcp__asker__ask",),
        elicit=True,
    ),
    "worktree-create": Run(
        (_bash("pwd"),),
        {"WorktreeCreate": {"exit": 0, "stdout": WORKTREE + "\n", "stderr": ""}},
        flags=("-w", "feat"),
        worktree=True,
    ),
    "worktree-create-fails": Run(
        (_bash("pwd"),),
        {"WorktreeCreate": {"exit": 1, "stdout": "", "stderr": "WORKTREE-HOOK-FAILED"}},
        flags=("-w", "feat"),
        worktree=True,
    ),
}


def _git_project(proj: Path, worktree: Path) -> None:
    """A repository with one commit; the directory the hook names, with the same settings."""
    import shutil
    import subprocess

    identity = ["-c", "user.email=e2e@example.invalid", "-c", "user.name=e2e"]
    subprocess.run(["git", "init", "-q", str(proj)], check=True)
    (proj / "README").write_text("x\n")
    subprocess.run(["git", "-C", str(proj), "add", "README"], check=True)
    subprocess.run(["git", "-C", str(proj), *identity, "commit", "-qm", "init"], check=True)
    shutil.copytree(proj / ".claude", worktree / ".claude")


def _normalise(value: Any, root: Path) -> Any:
    return json.loads(json.dumps(value).replace(str(root), "$RUN"))


def _concrete(value: Any, root: Path) -> Any:
    return json.loads(json.dumps(value).replace("$RUN", str(root)))


def record(name: str, run: Run, root: Path) -> dict[str, Any]:
    from hookwise.protocol.claude import CLAUDE

    layout = clis.Layout(root)
    layout.create()
    quiet = {"exit": 0, "stdout": "", "stderr": ""}
    hooks = {
        event: [
            {
                "hooks": [
                    {
                        "type": "command",
                        "command": clis.hook_command(
                            _concrete(run.answers.get(event, quiet), root)
                        ),
                    }
                ]
            }
        ]
        for event in CLAUDE.events
    }
    settings = {"hooks": hooks, "permissions": {"allow": list(run.allow)}}
    path = layout.proj / ".claude" / "settings.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(settings, indent=1))
    user: dict[str, Any] = {
        "hasCompletedOnboarding": True,
        "projects": {str(layout.proj): {"hasTrustDialogAccepted": True}},
    }
    if run.worktree:
        _git_project(layout.proj, Path(_concrete(WORKTREE, root)))
    server_log = root / "elicit.jsonl"
    if run.elicit:
        server = {"type": "stdio", "command": sys.executable, "args": [str(SERVER)]}
        server["env"] = {"ELICIT_LOG": str(server_log)}
        user["mcpServers"] = {"asker": server}
    (layout.home / ".claude.json").write_text(json.dumps(user))
    argv = ["claude", "-p", "please", "--output-format", "json", *run.flags]
    with FakeModel(script=Script(run.calls)) as fake:
        env = clis.environment("claude", layout, fake.url)
        started = time.monotonic()
        _, stderr, code, timed_out = run_bounded(
            [str(clis.binary("claude")), *argv[1:]], layout.proj, env, 120
        )
        seconds = time.monotonic() - started
        results = fake.tool_results()
    fired = [
        {"event": c["input"].get("hook_event_name"), "input": c["input"]}
        for c in read_jsonl(layout.hook_log)
        if isinstance(c.get("input"), dict)
    ]
    server_got = [
        m.get("result") or {"error": m.get("error")}
        for m in read_jsonl(server_log)
        if m.get("method") is None and m.get("id") == "elicit-1"
    ]
    return _normalise(
        {
            "run": name,
            "cli": "claude",
            "cli_version": clis.installed_version("claude"),
            "argv": argv,
            "calls": [{"name": c.name, "args": dict(c.args)} for c in run.calls],
            "answers": run.answers,
            "fired": fired,
            "tool_results": results,
            "server_got": server_got,
            "tool_ran": (layout.proj / "marker").exists(),
            "worktrees": _worktrees(layout.proj) if run.worktree else [],
            "stderr": stderr.decode("utf-8", "replace")[-2000:].replace(str(REPO), "$REPO"),
            "exit_code": code,
            "timed_out": timed_out,
            "seconds": round(seconds, 2),
        },
        root,
    )


# the interactive runs: ConfigChange answered with nothing, or with a block
INTERACTIVE: dict[str, dict[str, Any]] = {
    "config-change": {},
    "config-change-block": {
        "ConfigChange": {"exit": 0, "stdout": json.dumps({"decision": "block"}), "stderr": ""}
    },
}
NEW_HOOK_MARK = "new-hook-ran"


def record_interactive(name: str, root: Path) -> dict[str, Any]:
    """``claude`` with no prompt in a pseudo-terminal; once started, the project's settings
    gain a second SessionEnd hook (it touches ``$RUN/new-hook-ran``); then ``/exit``. Did
    ConfigChange fire, with what input; did the changed settings apply (the new hook ran)."""
    import os
    import pty
    import select
    import signal

    from hookwise.protocol.claude import CLAUDE

    layout = clis.Layout(root)
    layout.create()
    answers = INTERACTIVE[name]
    quiet = {"exit": 0, "stdout": "", "stderr": ""}
    hooks = {
        event: [
            {
                "hooks": [
                    {"type": "command", "command": clis.hook_command(answers.get(event, quiet))}
                ]
            }
        ]
        for event in CLAUDE.events
    }
    path = layout.proj / ".claude" / "settings.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"hooks": hooks, "permissions": {"allow": ["Bash"]}}, indent=1))
    project = {"hasTrustDialogAccepted": True, "hasCompletedProjectOnboarding": True}
    # the custom API key approved beforehand: else a dialog asking about it takes the keys
    approved = {"approved": ["dummy"], "rejected": []}
    user = {
        "hasCompletedOnboarding": True,
        "theme": "dark",
        "customApiKeyResponses": approved,
        "projects": {str(layout.proj): project},
    }
    (layout.home / ".claude.json").write_text(json.dumps(user))
    mark = root / NEW_HOOK_MARK
    screen = bytearray()
    with FakeModel(script=Script([])) as fake:
        env = clis.environment("claude", layout, fake.url)
        env |= {"TERM": "xterm-256color", "COLUMNS": "120", "LINES": "40"}
        binary = str(clis.binary("claude"))
        pid, fd = pty.fork()
        if pid == 0:  # the child: the CLI on the terminal
            os.chdir(layout.proj)
            os.execve(binary, [binary], env)

        def pump(seconds: float) -> None:
            end = time.monotonic() + seconds
            while time.monotonic() < end:
                ready, _, _ = select.select([fd], [], [], 0.2)
                if ready:
                    try:
                        screen.extend(os.read(fd, 65536))
                    except OSError:
                        return

        pump(8)  # the session starts and draws its prompt
        settings = json.loads(path.read_text())
        added = {"type": "command", "command": f"touch {mark}"}
        settings["hooks"]["SessionEnd"].append({"hooks": [added]})
        path.write_text(json.dumps(settings, indent=1))
        pump(6)  # the watcher notices
        os.write(fd, b"/exit\r")
        pump(6)
        with contextlib.suppress(ProcessLookupError):  # /exit ended it
            os.kill(pid, signal.SIGTERM)
        pump(1)
        _, status = os.waitpid(pid, 0)
        os.close(fd)
    fired = [
        {"event": c["input"].get("hook_event_name"), "input": c["input"]}
        for c in read_jsonl(layout.hook_log)
        if isinstance(c.get("input"), dict)
    ]
    return _normalise(
        {
            "run": name,
            "cli": "claude",
            "cli_version": clis.installed_version("claude"),
            "argv": ["claude"],
            "driver": "a pseudo-terminal (pty.fork); 8 s, the project's settings gain a"
            " SessionEnd hook touching $RUN/new-hook-ran, 6 s, /exit",
            "answers": answers,
            "fired": fired,
            "changed_settings_applied": mark.exists(),
            "wait_status": status,
        },
        root,
    )


def _worktrees(proj: Path) -> list[str]:
    import subprocess

    listed = subprocess.run(
        ["git", "-C", str(proj), "worktree", "list", "--porcelain"],
        capture_output=True,
        text=True,
        check=True,
    )
    return [line[9:] for line in listed.stdout.splitlines() if line.startswith("worktree ")]


def main(argv: list[str] | None = None) -> int:
    runs: dict[str, Callable[[Path], dict[str, Any]]] = {
        name: functools.partial(record, name, run) for name, run in RUNS.items()
    }
    runs |= {name: functools.partial(record_interactive, name) for name in INTERACTIVE}
    description = (__doc__ or "").splitlines()[0]
    return record_runs("claude", runs, description=description, out=OUT, argv=argv)


if __name__ == "__main__":
    raise SystemExit(main())
