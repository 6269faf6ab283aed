"""hookwise's own hook command as it stands in a host's settings file.

The portable form is what ``hookwise install`` writes: settings files are committed, so the
command must work on every machine of a team. Recognising every form hookwise has written
(portable, the fast launcher, ``hookwise hook``, ``python -m hookwise hook``) is what lets
install, uninstall, migrate, doctor and coverage find hookwise's entries among the others.
Reading a settings file needs no policy code, so this lives in ``config``.
"""

from __future__ import annotations

import re
import shlex
from typing import Final

# The portable command (what install writes): it works on every machine of a team, since
# settings files are committed. It runs this user's launcher (the fast path, written by
# install), else `hookwise` from PATH; when neither runs (not installed, a deleted
# virtualenv: exit 126/127, or killed) it exits 2, which blocks on every host, instead of
# the 127 every host would take as a non-blocking error and run the tool.
NOT_INSTALLED: Final = (
    "hookwise is not installed on this machine: install it (pipx install hookwise) "
    "or remove this hook from the agent settings"
)
PORTABLE_SCRIPT: Final = (
    'h="${XDG_DATA_HOME:-$HOME/.local/share}/hookwise/hook"; '
    'if [ -x "$h" ] && IFS= read -r l < "$h"; then p=${l#??}; p=${p%% *}; '
    'if [ -x "$p" ]; then exec "$h" "$@"; fi; fi; '
    "if command -v hookwise >/dev/null 2>&1; then "
    'hookwise hook "$@"; s=$?; [ "$s" -lt 126 ] && exit "$s"; fi; '
    f"echo '{NOT_INSTALLED}' >&2; exit 2"
)
# (the launcher runs by exec, no fork, only when its interpreter is there; a launcher
# that cannot import hookwise exits 2 itself)


def portable_argv(host: str) -> list[str]:
    return ["sh", "-c", PORTABLE_SCRIPT, "hookwise", "--platform", host]


def is_portable_command(command: object) -> bool:
    if not isinstance(command, str):
        return False
    try:
        argv = shlex.split(command)
    except ValueError:
        return False
    return (
        len(argv) >= 4
        and argv[0].rsplit("/", 1)[-1] == "sh"
        and argv[1] == "-c"
        and 'hookwise hook "$@"' in argv[2]
        and argv[3] == "hookwise"
    )


def machine_paths(command: object) -> list[str]:
    """Absolute paths a hookwise command needs on this machine (empty: portable)."""
    if not isinstance(command, str) or is_portable_command(command):
        return []
    try:
        argv = shlex.split(command)
    except ValueError:
        return []
    return [a for a in argv[:4] if a.startswith("/")]


_RUN_HOOK_TAIL: Final = re.compile(r"(^|[/\\])hookwise[/\\]policy[/\\]run_hook\.py$")
_CONSOLE: Final = re.compile(r"(^|[/\\])hookwise(\.exe)?$")


def is_hookwise_command(command: object) -> bool:
    """Whether a hook command runs ``hookwise hook`` (any interpreter, path or options).

    Recognised: the portable ``sh -c`` command, ``<python> [-flags]
    .../hookwise/policy/run_hook.py ...``, ``[path/]hookwise hook ...`` and ``<python> -m
    hookwise hook ...``.
    """
    if not isinstance(command, str):
        return False
    if is_portable_command(command):
        return True
    try:
        argv = shlex.split(command)
    except ValueError:
        return False
    if not argv:
        return False
    if _CONSOLE.search(argv[0]):
        return argv[1:2] == ["hook"]
    for index, arg in enumerate(argv[1:], start=1):
        if _RUN_HOOK_TAIL.search(arg):
            return all(a.startswith("-") for a in argv[1:index])
        if arg == "-m":
            return argv[index + 1 : index + 3] == ["hookwise", "hook"]
        if not arg.startswith("-"):
            return False
    return False


__all__ = [
    "NOT_INSTALLED",
    "PORTABLE_SCRIPT",
    "is_hookwise_command",
    "is_portable_command",
    "machine_paths",
    "portable_argv",
]
