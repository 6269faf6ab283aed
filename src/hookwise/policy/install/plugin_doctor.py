"""``hookwise doctor --host opencode|kilo``: is hookwise's plugin there, current and answering.

The plugin hosts have no hooks settings: what is checked is the plugin file in each scope
(hookwise's, with the command and timeout install would write now), that the host will
load it (its switches), what it waits for first (its plugin package, installed with npm),
and a self-test: the plugin's command run on a harmless payload must answer the JSON the
plugin obeys. What a failure does is said too: the plugin fails closed, the host has no
timeout of its own, and an ``ask`` is ask_fallback (the plugin API cannot ask).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from hookwise.policy.install import plugin_files
from hookwise.policy.install.doctor import HostReport, run_command
from hookwise.policy.install.launcher import hook_command
from hookwise.policy.install.registrations import timeout_seconds
from hookwise.protocol import js_plugin
from hookwise.protocol.plugin_hosts import plugin_host

_COMMAND = re.compile(r"^const COMMAND = (.*);$", re.MULTILINE)
_TIMEOUT = re.compile(r"^const TIMEOUT_MS = (\d+);$", re.MULTILINE)


def check_plugin_host(
    host: str,
    project: Path,
    env: Mapping[str, str],
    compiled: Mapping[str, Any],
    *,
    explicit: bool = False,
    run_self_test: bool = True,
) -> HostReport:
    row = plugin_host(host)
    report = HostReport(host)
    seconds = timeout_seconds(compiled)
    found: list[tuple[str, Path, str]] = []
    for scope in ("project", "user"):
        path = plugin_files.plugin_path(host, scope, project, env)
        try:
            text = path.read_text(encoding="utf-8")
        except OSError:
            continue
        if not plugin_files.is_hookwise_plugin(text):
            report.add("warn", "plugin", f"{path}: a hookwise.js hookwise did not write")
            continue
        found.append((scope, path, text))
    if not found:
        report.add(
            "fail" if explicit else "info",
            "plugin",
            f"not installed (`hookwise install {host}` writes "
            f"{plugin_files.plugin_path(host, 'project', project, env)})",
        )
        return report
    report.installed = True
    for scope, path, text in found:
        wanted = plugin_files.plugin_text(host, hook_command(host), seconds * 1000)
        if text == wanted:
            report.add("ok", "plugin", f"{path} ({scope}): current")
        else:
            report.add(
                "warn",
                "plugin",
                f"{path} ({scope}): not what install writes now (another version or "
                f"timeout); run `hookwise install {host} --scope {scope}`",
            )
    for note in plugin_files.dependency_notes(host, found[0][0], project, env):
        report.add("warn", "loading", note)
    report.add(
        "info",
        "failure",
        f"the plugin blocks the tool when hookwise is missing, crashes, answers anything but "
        f"its JSON or takes longer than its timeout; {row.title} itself waits for a plugin "
        "with no timeout",
    )
    fallback = compiled["settings"].get("ask_fallback", "deny")
    report.add(
        "info",
        "ask",
        f"{row.title}'s plugin API cannot ask (permission.ask is never triggered): an `ask` "
        f"is ask_fallback ({fallback}) in the TUI and in `{host} run` alike",
    )
    if run_self_test:
        _self_test(host, found[0][2], project, env, report)
    return report


def _self_test(
    host: str, text: str, project: Path, env: Mapping[str, str], report: HostReport
) -> None:
    command_match, timeout_match = _COMMAND.search(text), _TIMEOUT.search(text)
    if command_match is None or timeout_match is None:
        report.add("fail", "self-test", "the plugin file holds no command to run")
        return
    command = json.loads(command_match.group(1))
    timeout_s = int(timeout_match.group(1)) / 1000
    payload = {
        "hook_event_name": js_plugin.EVENT,
        "session_id": "hookwise-doctor",
        "tool_use_id": "hookwise-doctor",
        "cwd": str(project),
        "tool_name": "bash",
        "tool_input": {"command": "echo hookwise-doctor", "description": "doctor"},
    }
    test = run_command(host, command, payload, cwd=project, env=env, timeout=timeout_s)
    if test.timed_out:
        report.add("fail", "self-test", f"no answer within {timeout_s:g} s: the plugin blocks")
        return
    try:
        answer = json.loads(test.stdout)
        event = answer["hookSpecificOutput"]["hookEventName"]
    except (ValueError, KeyError, TypeError):
        answer, event = None, None
    if test.exit_code != 0 or event != js_plugin.EVENT:
        why = test.stderr.strip() or test.stdout.strip() or f"exit {test.exit_code}"
        report.add("fail", "self-test", f"the plugin would block every tool: {why[:300]}")
        return
    decision = answer["hookSpecificOutput"].get("permissionDecision") or "no decision"
    report.add(
        "ok", "self-test", f"answers in {test.seconds * 1000:.0f} ms ({decision} for `echo`)"
    )
