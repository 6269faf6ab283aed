"""A hook file of hookwise's own, for hosts that load every file of a hooks directory
(GitHub Copilot CLI: ``.github/hooks/*.json``, ``~/.copilot/hooks/*.json``).

Install writes the whole file; uninstall removes it, which gives back the directory as it
was. A file at that path holding anything but hookwise's own handlers is refused, naming
what is there, and nothing is written.
"""

from __future__ import annotations

import json
from typing import Any

from hookwise.config.hookwise_command import is_hookwise_command
from hookwise.policy.install.errors import InstallError
from hookwise.policy.install.hooks_edit import HooksEdit
from hookwise.policy.install.registrations import Registration

FILE_VERSION = 1


def _check_ours(text: str, origin: str, command_key: str) -> None:
    try:
        value = json.loads(text)
    except ValueError as exc:
        raise InstallError(f"{origin}: not JSON ({exc}); nothing written") from None
    hooks = value.get("hooks") if isinstance(value, dict) else None
    if (
        not isinstance(value, dict)
        or set(value) - {"version", "hooks"}
        or not isinstance(hooks, dict)
    ):
        raise InstallError(
            f"{origin}: expected hookwise's own hook file ({{version, hooks}}); move it "
            "aside first (nothing written)"
        )
    for event, handlers in hooks.items():
        for handler in handlers if isinstance(handlers, list) else [handlers]:
            command = handler.get(command_key) if isinstance(handler, dict) else None
            if not is_hookwise_command(command):
                raise InstallError(
                    f"{origin}: hooks.{event} holds a handler that is not hookwise's "
                    f"({command!r}); this file is hookwise's own: move that handler to "
                    "another file (nothing written)"
                )


def edit_own_file(
    text: str | None, origin: str, desired: list[Registration], command_key: str
) -> HooksEdit:
    """The file's text with exactly ``desired`` (uninstall: ``[]``: the file goes)."""
    if text is not None:
        _check_ours(text, origin, command_key)
    if not desired:
        return HooksEdit(text, None if text is None else "")
    hooks: dict[str, list[dict[str, Any]]] = {}
    for registration in desired:
        hooks.setdefault(registration.event, []).append(dict(registration.handler))
    after = json.dumps({"version": FILE_VERSION, "hooks": hooks}, indent=2) + "\n"
    return HooksEdit(text, after, added=list(desired))


def own_file_handlers(text: str, command_key: str) -> list[tuple[str, int, dict[str, Any]]]:
    """hookwise's handlers in a hook file of the flat layout: (event, index, handler)."""
    try:
        value = json.loads(text)
    except ValueError:
        return []
    hooks = value.get("hooks") if isinstance(value, dict) else None
    found: list[tuple[str, int, dict[str, Any]]] = []
    for event, handlers in hooks.items() if isinstance(hooks, dict) else ():
        for index, handler in enumerate(handlers if isinstance(handlers, list) else []):
            if isinstance(handler, dict) and is_hookwise_command(handler.get(command_key)):
                found.append((str(event), index, handler))
    return found


__all__ = ["edit_own_file", "own_file_handlers"]
