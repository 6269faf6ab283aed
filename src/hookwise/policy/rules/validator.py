"""Validator rules: an external command decides whether the tool call may run.

Cold: needed only when a validate rule matched; it imports :mod:`subprocess` (and with it
:mod:`os`), which costs a hook call far more than this module, so it is imported as usual
rather than served from the launcher's snapshot.
"""

from __future__ import annotations

from hookwise.policy import call_deadline, fastjson
from hookwise.policy import os_lite as os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from hookwise.policy.canonical import Event


# The validators of one decision wait this long together at most. ``hookwise install`` writes
# a hook timeout of at least this plus its base (install/registrations.py), so hookwise
# answers before the host gives up on it: several hosts run the tool when a hook times out.
TOTAL_BUDGET_S = 590.0


POLICY_DIR = ".hookwise"


def validator_directory(rule: dict[str, Any]) -> str:
    """Where a rule's validator runs, and its relative paths resolve: the project a project
    or local policy governs (the directory holding ``.hookwise/``), else the policy file's
    directory. Never the event's cwd: the agent moves that, and a relative
    ``./tools/check.sh`` looked up there is the agent's program (red team s24, #10).
    ``hookwise run`` guards what this resolves to (``run/guarded_paths._validators``)."""
    directory = os.path.dirname(str(rule.get("file") or "")) or "/"
    if os.path.basename(directory) == POLICY_DIR:
        directory = os.path.dirname(directory) or "/"
    return directory


def run_validator(
    rule: dict[str, Any], ev: Event, settings: dict[str, Any], spent_s: float = 0.0
) -> tuple[str, str]:
    """Run a rule's validator: ("pass"|"fail"|"error", text). ``spent_s``: what earlier
    validators of the same decision used of TOTAL_BUDGET_S."""
    import subprocess

    spec = rule["validator"]
    own = float(spec.get("timeout", settings.get("validator_timeout", 10)))
    left = TOTAL_BUDGET_S - spent_s
    if left <= 0:
        return "error", f"not run: the validators used their {TOTAL_BUDGET_S:g} s"
    timeout = min(own, left)
    environment = os.environ_copy()
    environment.update(
        {
            "HOOKWISE_RULE_ID": rule["id"],
            "HOOKWISE_EVENT": ev.name,
            "HOOKWISE_HOST": ev.host,
            "HOOKWISE_TOOL": ev.tool or "",
            "HOOKWISE_EVENT_CWD": ev.cwd or "",
        }
    )
    directory = validator_directory(rule)
    try:
        with call_deadline.paused():  # bounded by its own timeout, which install adds
            done = subprocess.run(
                ["/bin/sh", "-c", spec["command"]],
                input=fastjson.dumps(ev.payload).encode(),
                capture_output=True,
                timeout=timeout,
                cwd=directory if os.path.isdir(directory) else "/",
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
