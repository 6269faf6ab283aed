"""Codex's legacy turn-complete ``notify`` program.

``notify = ["prog", "arg"]`` in config.toml: when a turn completes Codex starts the program
with the event JSON appended as the last argument, with no stdin/stdout/stderr, and does
not wait for it (codex-rs/hooks/src/legacy_notify.rs).
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Mapping, Sequence
from typing import Any

from hookwise.protocol.codex import NOTIFY_TYPE


def notify_payload(
    *,
    thread_id: str,
    turn_id: str,
    cwd: str,
    input_messages: Sequence[str],
    last_assistant_message: str | None,
    client: str | None = None,
) -> dict[str, Any]:
    """The agent-turn-complete event, with Codex's kebab-case keys."""
    payload: dict[str, Any] = {
        "type": NOTIFY_TYPE,
        "thread-id": thread_id,
        "turn-id": turn_id,
        "cwd": cwd,
    }
    if client is not None:
        payload["client"] = client
    payload["input-messages"] = list(input_messages)
    payload["last-assistant-message"] = last_assistant_message
    return payload


def run_notify(
    argv: Sequence[str],
    payload: Mapping[str, Any],
    *,
    cwd: str | None = None,
    env: Mapping[str, str] | None = None,
) -> subprocess.Popen[bytes] | str:
    """Start the program fire-and-forget; a start failure is returned as a message."""
    if not argv:
        return "notify is empty: nothing to run"
    command = [*argv, json.dumps(payload, separators=(",", ":"), ensure_ascii=False)]
    try:
        return subprocess.Popen(
            command,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            cwd=cwd,
            env=dict(env) if env is not None else None,
            start_new_session=True,
        )
    except OSError as exc:
        return f"notify program {argv[0]!r} could not start: {exc.strerror or exc}"
