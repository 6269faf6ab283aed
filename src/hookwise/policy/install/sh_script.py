"""A ``.sh`` file of hookwise's own that runs the hook command, for a host whose hook
command must name a script file (Augment: "command" must be a ``.sh`` file).

The host obeys exit 2 and stderr, so the file only runs the portable command: its exit
status (2 when hookwise is missing) is the script's. Install writes the whole file beside
the settings (``<settings dir>/hooks/hookwise.sh``) and registers its path; uninstall
removes both. A file at that path that is not hookwise's is refused, naming it.
"""

from __future__ import annotations

from pathlib import Path

from hookwise.config.hookwise_command import is_hookwise_command
from hookwise.policy.install.errors import InstallError

MARK = "# Written by `hookwise install"
NAME = "hookwise.sh"
SAFE = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+,@%=:")


def script_path(settings: Path) -> Path:
    """Where the script goes for a settings file; the path must need no shell quoting (the
    host takes the command as a file name: a quoted one would no longer end in ``.sh``)."""
    path = settings.parent / "hooks" / NAME
    if not set(str(path)) <= SAFE:
        raise InstallError(
            f"{path}: the hook script's path has characters a shell would need quoted; "
            "the host needs a bare .sh path as the command (nothing written)"
        )
    return path


def sh_text(command: str, host: str) -> str:
    """The script: the command, whose exit status and stderr the host reads."""
    return (
        "#!/bin/sh\n"
        f"{MARK} {host}`: {host} runs this file before every tool call (its hook command\n"
        "# must be a .sh file). `hookwise uninstall` removes it.\n"
        f"{command}\n"
    )


def sh_command(text: str) -> str | None:
    """hookwise's command in a script install wrote, or None (not hookwise's)."""
    lines = text.splitlines()
    if len(lines) != 4 or lines[0] != "#!/bin/sh" or not lines[1].startswith(MARK):
        return None
    return lines[3] if is_hookwise_command(lines[3]) else None


def edit_sh(text: str | None, origin: str, command: str | None, host: str) -> str | None:
    """The script's new text for ``command`` (None: uninstall, the file goes: ``""``)."""
    if text is not None and sh_command(text) is None:
        raise InstallError(
            f"{origin}: is not the hook script hookwise wrote; move it aside (nothing written)"
        )
    if command is None:
        return None if text is None else ""
    return sh_text(command, host)


__all__ = ["edit_sh", "script_path", "sh_command", "sh_text"]
