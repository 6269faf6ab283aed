"""Validator rules: an external command decides whether the tool call may run.

Cold: needed only when a validate rule matched; it imports :mod:`subprocess` (and with it
:mod:`os`), which costs a hook call far more than this module, so it is imported as usual
rather than served from the launcher's snapshot.
"""

from __future__ import annotations

from hookwise.policy import fastjson
from hookwise.policy import os_lite as os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from hookwise.policy.canonical import Event


def run_validator(rule: dict[str, Any], ev: Event, settings: dict[str, Any]) -> tuple[str, str]:
    """Run a rule's validator: ("pass"|"fail"|"error", text)."""
    import subprocess

    spec = rule["validator"]
    timeout = spec.get("timeout", settings.get("validator_timeout", 10))
    environment = os.environ_copy()
    environment.update(
        {
            "HOOKWISE_RULE_ID": rule["id"],
            "HOOKWISE_EVENT": ev.name,
            "HOOKWISE_HOST": ev.host,
            "HOOKWISE_TOOL": ev.tool or "",
        }
    )
    try:
        done = subprocess.run(
            ["/bin/sh", "-c", spec["command"]],
            input=fastjson.dumps(ev.payload).encode(),
            capture_output=True,
            timeout=timeout,
            cwd=ev.cwd if ev.cwd and os.path.isdir(ev.cwd) else None,
            env=environment,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return "error", f"timed out after {timeout:g} s"
    except OSError as exc:
        return "error", f"could not start: {exc}"
    if done.returncode == 0:
        return "pass", done.stdout.decode("utf-8", "replace").strip()
    text = (
        done.stderr.decode("utf-8", "replace").strip()
        or done.stdout.decode("utf-8", "replace").strip()
    )
    return "fail", text or f"validator exited with status {done.returncode}"
