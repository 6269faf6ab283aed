"""Codex 0.169.0's ``Interrupt`` event, recorded on the real CLI offline through
``codex app-server`` (JSON-RPC on stdio: an interrupt needs a client, ``codex exec`` has none).

    python -m tests.e2e.record_codex_interrupt [--out tests/e2e/fixtures/codex-events]

The session: ``initialize``; ``hooks/list`` and ``config/batchWrite hooks.state`` to trust
the project's hooks (the app-server has no bypass flag); ``thread/start`` in the project
(approval ``never``, sandbox ``danger-full-access``); ``turn/start`` with the prompt. The fake
model (127.0.0.1, this process) asks for ``sleep 20``; once the PreToolUse hook has logged the
call, ``turn/interrupt``. Hooks on SessionStart, UserPromptSubmit, PreToolUse, PostToolUse,
Stop and Interrupt save their inputs (``answer_hook.py``); the Interrupt hook answers as the
run says:

* ``interrupt``: nothing (exit 0): does Interrupt fire, with which input, does Stop follow;
* ``interrupt-exit2``: exit 2 with a reason, and ``continue: false`` on stdout: does an
  advisory answer change anything (the turn's end, the next turn);
* ``interrupt-message``: a ``systemMessage`` (the one field its answer schema has) and
  ``additionalContext`` (not in it): what the client is sent; ``interrupt-system-message``:
  the ``systemMessage`` alone.

After the interrupt a second ``turn/start`` (the model answers text) tells whether the
session goes on. The record keeps the hook inputs in order, the notifications' methods, the
second turn's status, and whether anything of the Interrupt answer reached the client or
the model. ``tests/e2e/test_codex_events_replay.py`` replays them.
"""

from __future__ import annotations

import functools
import json
import os
import subprocess
import threading
import time
from pathlib import Path
from queue import Empty, Queue
from typing import Any

from tests.e2e import clis
from tests.e2e.fake_model import COMMAND_VARIABLE, FakeModel
from tests.e2e.observe import read_jsonl
from tests.e2e.runner import record_runs

OUT = Path(__file__).parent / "fixtures" / "codex-events"
EVENTS = ("SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop", "Interrupt")
REASON = "INTERRUPT-HOOK-REASON"
MESSAGE = "INTERRUPT-SYSTEM-MESSAGE"
CONTEXT = "INTERRUPT-CONTEXT"
ANSWERS: dict[str, dict[str, Any]] = {
    "interrupt": {"exit": 0, "stdout": "", "stderr": ""},
    "interrupt-exit2": {
        "exit": 2,
        "stdout": json.dumps({"continue": False, "stopReason": REASON}),
        "stderr": REASON,
    },
    "interrupt-message": {
        "exit": 0,
        "stdout": json.dumps(
            {
                "systemMessage": MESSAGE,
                "hookSpecificOutput": {"hookEventName": "Interrupt", "additionalContext": CONTEXT},
            }
        ),
        "stderr": "",
    },
    "interrupt-system-message": {
        "exit": 0,
        "stdout": json.dumps({"systemMessage": MESSAGE}),
        "stderr": "",
    },
}


class AppServer:
    """``codex app-server`` on stdio: requests by id, notifications kept in order."""

    def __init__(self, argv: list[str], cwd: Path, env: dict[str, str]) -> None:
        self.proc = subprocess.Popen(
            argv,
            cwd=cwd,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            start_new_session=True,
        )
        self.notifications: list[dict[str, Any]] = []
        self.replies: Queue[dict[str, Any]] = Queue()
        self.next_id = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            try:
                message = json.loads(line)
            except ValueError:
                continue
            if "id" in message and "method" not in message:
                self.replies.put(message)
            else:
                self.notifications.append(message)

    def send(self, message: dict[str, Any]) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(message) + "\n")
        self.proc.stdin.flush()

    def request(self, method: str, params: dict[str, Any], timeout: float = 30) -> Any:
        self.next_id += 1
        self.send({"id": self.next_id, "method": method, "params": params})
        deadline = time.monotonic() + timeout
        while True:
            try:
                reply = self.replies.get(timeout=max(0.0, deadline - time.monotonic()))
            except Empty:
                raise RuntimeError(f"{method}: no answer in {timeout} s") from None
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result")

    def wait_for(self, method: str, after: int = 0, timeout: float = 60) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for note in self.notifications[after:]:
                if note.get("method") == method:
                    return note
            time.sleep(0.05)
        raise RuntimeError(f"no {method} notification in {timeout} s")

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def _hooks(root: Path, answer: dict[str, Any]) -> dict[str, Any]:
    quiet = clis.hook_command({"exit": 0, "stdout": "", "stderr": ""})
    hooks: dict[str, Any] = {}
    for event in EVENTS:
        command = clis.hook_command(answer) if event == "Interrupt" else quiet
        group: dict[str, Any] = {"hooks": [{"type": "command", "command": command, "timeout": 30}]}
        if event in ("PreToolUse", "PostToolUse"):
            group["matcher"] = "Bash"
        hooks[event] = [group]
    return hooks


def _trust_hooks(server: AppServer, proj: Path) -> int:
    listed = server.request("hooks/list", {"cwds": [str(proj)]})
    state = {
        hook["key"]: {"trusted_hash": hook["currentHash"]}
        for entry in listed["data"]
        for hook in entry.get("hooks", [])
        if hook.get("trustStatus") in ("untrusted", "modified")
    }
    if state:
        edit = {"keyPath": "hooks.state", "value": state, "mergeStrategy": "upsert"}
        server.request("config/batchWrite", {"edits": [edit]})
    return len(state)


def _hook_calls(layout: clis.Layout) -> list[dict[str, Any]]:
    return [c["input"] for c in read_jsonl(layout.hook_log) if isinstance(c.get("input"), dict)]


def record(name: str, root: Path) -> dict[str, Any]:
    layout = clis.Layout(root)
    layout.create()
    answer = ANSWERS[name]
    (layout.proj / ".codex").mkdir(parents=True)
    (layout.proj / ".codex" / "hooks.json").write_text(
        json.dumps({"hooks": _hooks(root, answer)}, indent=1)
    )
    os.environ[COMMAND_VARIABLE] = "sleep 20"
    try:
        with FakeModel() as fake:
            codex_home = layout.home / ".codex"
            codex_home.mkdir(parents=True, exist_ok=True)
            (codex_home / "config.toml").write_text(clis.codex_config(fake.url, layout.proj))
            env = clis.environment("codex", layout, fake.url)
            server = AppServer([str(clis.binary("codex")), "app-server"], layout.proj, env)
            try:
                server.request(
                    "initialize", {"clientInfo": {"name": "hookwise-e2e", "version": "0"}}
                )
                server.send({"method": "initialized"})
                trusted = _trust_hooks(server, layout.proj)
                thread = server.request(
                    "thread/start",
                    {
                        "cwd": str(layout.proj),
                        "approvalPolicy": "never",
                        "sandbox": "danger-full-access",
                    },
                )["thread"]
                turn = server.request(
                    "turn/start",
                    {"threadId": thread["id"], "input": [{"type": "text", "text": clis.PROMPT}]},
                )["turn"]
                deadline = time.monotonic() + 60
                while not any(
                    c.get("hook_event_name") == "PreToolUse" for c in _hook_calls(layout)
                ):
                    if time.monotonic() > deadline:
                        raise RuntimeError("the PreToolUse hook never ran")
                    time.sleep(0.1)
                time.sleep(1.0)  # the command is running
                interrupted_at = time.monotonic()
                server.request("turn/interrupt", {"threadId": thread["id"], "turnId": turn["id"]})
                first_done = server.wait_for("turn/completed")
                seconds_to_end = time.monotonic() - interrupted_at
                time.sleep(2.0)  # an Interrupt hook still running has time to log
                mark = len(server.notifications)
                second = server.request(
                    "turn/start",
                    {"threadId": thread["id"], "input": [{"type": "text", "text": "and now?"}]},
                )["turn"]
                second_done = server.wait_for("turn/completed", after=mark)
                time.sleep(1.0)
            finally:
                server.close()
            requests = fake.model_requests()
    finally:
        os.environ.pop(COMMAND_VARIABLE, None)
    notes = server.notifications
    texts = json.dumps(notes)
    model_texts = json.dumps(requests)
    record = {
        "run": name,
        "cli": "codex",
        "cli_version": clis.installed_version("codex"),
        "driver": "codex app-server: initialize, hooks/list + config/batchWrite hooks.state,"
        " thread/start (approvalPolicy never, sandbox danger-full-access), turn/start,"
        " turn/interrupt once the PreToolUse hook ran (the command: sleep 20), turn/start",
        "hooks_trusted": trusted,
        "answer": answer,
        "fired": [{"event": c.get("hook_event_name"), "input": c} for c in _hook_calls(layout)],
        "first_turn": {
            "id": turn["id"],
            "status": first_done["params"]["turn"].get("status"),
            "seconds_after_interrupt": round(seconds_to_end, 2),
        },
        "second_turn": {
            "id": second["id"],
            "status": second_done["params"]["turn"].get("status"),
        },
        "notification_methods": sorted({n.get("method", "") for n in notes}),
        "client_saw": {m: m in texts for m in (REASON, MESSAGE, CONTEXT)},
        "model_saw": {m: m in model_texts for m in (REASON, MESSAGE, CONTEXT)},
        "model_requests": len(requests),
    }
    return json.loads(json.dumps(record).replace(str(root), "$RUN"))


def main(argv: list[str] | None = None) -> int:
    runs = {name: functools.partial(record, name) for name in ANSWERS}
    description = (__doc__ or "").splitlines()[0]
    return record_runs("codex", runs, description=description, out=OUT, argv=argv)


if __name__ == "__main__":
    raise SystemExit(main())
