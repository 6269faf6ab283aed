"""classify-error: a failed hook run -> what went wrong and what to do about it.

The first rule that matches wins:

1. exit 2 on a blocking event (its table says exit 2 blocks): the hook refused the action
   on purpose -> ``validation_failed``, severity ``error``, fallback ``block`` (Claude
   Code: exit 2's block is the one outcome JSON cannot override).
2. ``timeout``: exit 124 (``timeout(1)``), 137/143 or -9/-15 (SIGKILL/SIGTERM, how a
   runner ends an overdue hook), or stderr saying it timed out. Retried automatically;
   on a tool-permission event the fallback is ``ask_user`` (a timed-out hook decides
   nothing, so the normal permission flow asks), elsewhere ``continue``.
3. ``permission_denied``: exit 126, or stderr with "Permission denied", EACCES, EPERM.
4. exit 127 or "command not found" / "No such file or directory": ``execution_failed``
   with a suggestion naming the missing command.
5. ``malformed_json``: stderr reporting a JSON parse error.
6. ``validation_failed``: stderr reporting a schema or validation failure.
7. anything else: ``execution_failed``.

Severity follows the event: a hook that cannot run at all (rules 3, 4) on a blocking event
is ``fatal`` (the gate is silently bypassed: the host treats 126/127 as non-blocking) and
falls back to ``ask_user``; failures on a blocking event are ``error``; the rest
``warning`` with fallback ``continue``.
"""

from __future__ import annotations

import re
import shlex
from typing import Any, Final

from hookwise.api.processing.hook_events import hook_event
from hookwise.protocol.dialect import DialectEvent, Kind

TIMEOUT_CODES: Final = frozenset({124, 137, 143, -9, -15})
EXIT_BLOCK: Final = 2
EXIT_NOT_EXECUTABLE: Final = 126
EXIT_NOT_FOUND: Final = 127

_TIMED_OUT = re.compile(r"timed?[ -]?out|timeout|ETIMEDOUT|deadline exceeded", re.IGNORECASE)
_DENIED = re.compile(r"permission denied|EACCES|EPERM|operation not permitted", re.IGNORECASE)
_NOT_FOUND = re.compile(
    r"command not found|: not found|no such file or directory|ENOENT", re.IGNORECASE
)
_MISSING_NAME = re.compile(
    r"(?:^|[\s:])([^\s:]+): (?:command not found|not found|No such file or directory)",
    re.IGNORECASE | re.MULTILINE,
)
_DENIED_NAME = re.compile(r"(?:^|[\s:])([^\s:]+): Permission denied", re.IGNORECASE | re.MULTILINE)
_BAD_JSON = re.compile(
    r"JSON|Unexpected token|Expecting (?:value|property name|',' delimiter)|"
    r"Unterminated string|Extra data",
    re.IGNORECASE,
)
_INVALID = re.compile(
    r"validat|schema|hookEventName|invalid (?:hook )?output|unsupported field", re.IGNORECASE
)
_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=")
_INTERPRETERS: Final = frozenset(
    {"bash", "sh", "zsh", "dash", "env", "python", "python3", "node", "uv", "uvx", "npx"}
)


def _first_line(text: str) -> str:
    for line in text.splitlines():
        if line.strip():
            return line.strip()
    return ""


def program(command: str) -> str:
    """The program (or script) a hook command runs: env assignments, interpreters and
    their options skipped (``FOO=1 bash ./x.sh`` -> ``./x.sh``, ``sh -c 'y z'`` -> ``y``)."""
    try:
        words = shlex.split(command)
    except ValueError:
        words = command.split()
    index = 0
    while index < len(words):
        word = words[index]
        index += 1
        if _ASSIGNMENT.match(word) or word.startswith("-"):
            continue
        if word.rsplit("/", 1)[-1] not in _INTERPRETERS:
            return word
        if index < len(words) - 1 and words[index] == "-c":
            return program(words[index + 1])
    return words[-1] if words else command.strip()


def _tool_permission(spec: object) -> bool:
    if isinstance(spec, DialectEvent):
        return spec.kind in (Kind.TOOL_BEFORE, Kind.PERMISSION)
    return getattr(spec, "name", "") == "BeforeTool"


def _answer(
    kind: str, severity: str, message: str, *, suggestion: str, retry: bool, fallback: str
) -> dict[str, Any]:
    return {
        "errorType": kind,
        "severity": severity,
        "message": message,
        "recovery": {"suggestion": suggestion, "autoRetry": retry, "fallbackBehavior": fallback},
    }


def classify_error(
    exit_code: int, stderr: str, hook_event_name: str, hook_command: str
) -> dict[str, Any]:
    """The classify-error answer (UnknownHookEventError for an unknown event)."""
    found = hook_event(hook_event_name)
    blocking = found.blocking
    line = _first_line(stderr)
    said = f": {line}" if line else ""
    hook = f"{found.name} hook `{hook_command}`"
    failing = "error" if blocking else "warning"
    fallback = "ask_user" if blocking else "continue"
    if exit_code == EXIT_BLOCK and blocking:
        return _answer(
            "validation_failed",
            "error",
            f"{hook} blocked the action (exit code 2){said or ': no stderr output'}",
            suggestion="The hook refused on purpose: address the reason it gave, "
            "or change its rule.",
            retry=False,
            fallback="block",
        )
    if exit_code in TIMEOUT_CODES or _TIMED_OUT.search(stderr):
        return _answer(
            "timeout",
            failing,
            f"{hook} timed out (exit code {exit_code}){said}",
            suggestion=f"Make `{program(hook_command)}` finish sooner, or raise its timeout "
            "(the hook's timeout setting, timeoutMs.hookExecution).",
            retry=True,
            fallback="ask_user" if _tool_permission(found.spec) else "continue",
        )
    if exit_code == EXIT_NOT_EXECUTABLE or _DENIED.search(stderr):
        named = _DENIED_NAME.search(stderr)
        target = named.group(1) if named else program(hook_command)
        return _answer(
            "permission_denied",
            "fatal" if blocking else "error",
            f"{hook} could not be run: permission denied ({target})",
            suggestion=f"Make `{target}` executable (chmod +x {shlex.quote(target)}) and "
            "readable by the user the agent runs as.",
            retry=False,
            fallback=fallback,
        )
    if exit_code == EXIT_NOT_FOUND or _NOT_FOUND.search(stderr):
        named = _MISSING_NAME.search(stderr)
        target = named.group(1) if named else program(hook_command)
        return _answer(
            "execution_failed",
            "fatal" if blocking else "error",
            f"{hook} failed: command not found: {target}",
            suggestion=f"Command `{target}` was not found: check the path (use an absolute "
            'path or "$CLAUDE_PROJECT_DIR"/...) and that it is installed on the PATH the '
            "agent sees.",
            retry=False,
            fallback=fallback,
        )
    if _BAD_JSON.search(stderr):
        return _answer(
            "malformed_json",
            failing,
            f"{hook} produced malformed JSON{said}",
            suggestion="Print exactly one JSON object on stdout (its first character '{') "
            "and send logs to stderr; check it with /internal/hook/validate-json.",
            retry=False,
            fallback="continue",
        )
    if _INVALID.search(stderr):
        return _answer(
            "validation_failed",
            failing,
            f"{hook} output failed validation{said}",
            suggestion="Check the hook's output fields for this event with "
            "/internal/hook/validate-json.",
            retry=False,
            fallback="continue",
        )
    if exit_code == 0:
        return _answer(
            "execution_failed",
            "warning",
            f"{hook} exited 0 (success){said}",
            suggestion="Exit code 0 is success: stderr of a successful hook only goes to "
            "the debug log.",
            retry=False,
            fallback="continue",
        )
    return _answer(
        "execution_failed",
        failing,
        f"{hook} failed with exit code {exit_code}{said}",
        suggestion=f"Run `{hook_command}` by hand with the hook's input to see why it fails; "
        "only exit code 2 blocks, other codes are non-blocking errors.",
        retry=False,
        fallback="continue",
    )
