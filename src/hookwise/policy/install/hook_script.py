"""An executable hook file of hookwise's own, for a host whose hooks are files named after
their event (Cline: ``.clinerules/hooks/PreToolUse``, ``~/.cline/hooks/PreToolUse``).

Cline obeys only ``{"cancel": true}`` on stdout and ignores exit codes, so the file cannot
be the portable command alone (which exits 2 when hookwise is missing): it runs it, passes a
successful answer through, and answers every other outcome (hookwise missing, a launcher
that cannot start, a crash, a usage error) with a cancel of its own. Install writes the whole
file; uninstall removes it. A file at that path that is not hookwise's is refused, naming it.
"""

from __future__ import annotations

import json

from hookwise.config.hookwise_command import is_hookwise_command
from hookwise.policy.install.errors import InstallError
from hookwise.policy.install.hooks_edit import HooksEdit
from hookwise.policy.install.registrations import Registration

MARK = "# Written by `hookwise install"
FAILED = (
    "hookwise did not answer (exit {code}): it is not installed on this machine or could "
    "not start, so tool calls are blocked until it runs (install hookwise, or remove this hook "
    "file: {path})"
)


def script_text(command: str, host: str, path: str) -> str:
    """The file: the command's answer on success, a cancel otherwise."""
    message = json.dumps(FAILED.format(code="%s", path=path))
    cancel = '{"cancel":true,"errorMessage":' + message + "}"
    return (
        "#!/bin/sh\n"
        f"{MARK} {host}`: {host} runs this file before every tool call.\n"
        '# It obeys only {"cancel": true} on stdout (exit codes are ignored), so any\n'
        "# outcome but hookwise's own answer is a cancel. `hookwise uninstall` removes it.\n"
        f"out=$({command})\n"
        "s=$?\n"
        'if [ "$s" -eq 0 ]; then [ -n "$out" ] && printf \'%s\\n\' "$out"; exit 0; fi\n'
        f"printf '{cancel}\\n' \"$s\"\n"
        "exit 0\n"
    )


def script_command(text: str) -> str | None:
    """hookwise's command in a hook file install wrote, or None (not hookwise's)."""
    lines = text.splitlines()
    if len(lines) < 5 or lines[0] != "#!/bin/sh" or not lines[1].startswith(MARK):
        return None
    found = [line for line in lines if line.startswith("out=$(") and line.endswith(")")]
    if len(found) != 1:
        return None
    command = found[0][len("out=$(") : -1]
    return command if is_hookwise_command(command) else None


def edit_script(
    text: str | None, origin: str, desired: list[Registration], host: str, event: str
) -> HooksEdit:
    """The file's text for ``desired``'s ``event`` registration (none: the file goes)."""
    if text is not None and script_command(text) is None:
        raise InstallError(
            f"{origin}: holds a hook that is not hookwise's; {host} runs one such file per "
            "event and directory, so move it aside or call hookwise from it (nothing written)"
        )
    mine = [r for r in desired if r.event == event]
    if not mine:
        return HooksEdit(text, None if text is None else "")
    command = str(mine[0].handler.get("command", ""))
    after = script_text(command, host, origin)
    return HooksEdit(text, after, added=mine if text != after else [], kept=[])


__all__ = ["edit_script", "script_command", "script_text"]
