"""Where policy files live: the four scopes, found the same way on the hot and cold paths.

- managed: ``/etc/hookwise/policy.yaml``, or ``$HOOKWISE_MANAGED_POLICY``;
- user: ``$XDG_CONFIG_HOME/hookwise/policy.yaml`` (``~/.config/...``), or
  ``$HOOKWISE_USER_POLICY``;
- project: ``<project>/.hookwise/policy.yaml``, or ``$HOOKWISE_POLICY``;
- local: ``<project>/.hookwise/policy.local.yaml`` (beside ``$HOOKWISE_POLICY``: its
  ``.local.yaml`` sibling).

``<project>`` is the nearest directory at or above the event's cwd (or
``HOOKWISE_PROJECT_DIR``) that has a ``.hookwise/policy.yaml`` or ``.hookwise/policy.local.yaml``.
All four are merged (see compiler.py); none is "first found". Standard library only.
"""

from __future__ import annotations

import os

SCOPES = ("managed", "user", "project", "local")
MANAGED_DEFAULT = "/etc/hookwise/policy.yaml"
PROJECT_DIR = ".hookwise"
PROJECT_FILE = "policy.yaml"
LOCAL_FILE = "policy.local.yaml"


def user_policy_path(env: dict[str, str]) -> str:
    explicit = env.get("HOOKWISE_USER_POLICY")
    if explicit:
        return explicit
    config = env.get("XDG_CONFIG_HOME") or os.path.join(env.get("HOME") or "~", ".config")
    return os.path.join(os.path.expanduser(config), "hookwise", "policy.yaml")


def find_project(start: str) -> str | None:
    """The nearest directory at or above ``start`` holding a project policy file."""
    current = os.path.abspath(start or ".")
    while True:
        base = os.path.join(current, PROJECT_DIR)
        if os.path.isfile(os.path.join(base, PROJECT_FILE)) or os.path.isfile(
            os.path.join(base, LOCAL_FILE)
        ):
            return current
        parent = os.path.dirname(current)
        if parent == current:
            return None
        current = parent


def scope_files(cwd: str, env: dict[str, str]) -> list[tuple[str, str]]:
    """(scope, path) of every policy file that may apply, present or not, in scope order."""
    files = [("managed", env.get("HOOKWISE_MANAGED_POLICY") or MANAGED_DEFAULT)]
    files.append(("user", user_policy_path(env)))
    explicit = env.get("HOOKWISE_POLICY")
    if explicit:
        path = os.path.abspath(explicit)
        files.append(("project", path))
        stem = path[:-5] if path.endswith(".yaml") else path
        files.append(("local", stem + ".local.yaml"))
        return files
    project = find_project(env.get("HOOKWISE_PROJECT_DIR") or cwd or os.getcwd())
    if project is not None:
        files.append(("project", os.path.join(project, PROJECT_DIR, PROJECT_FILE)))
        files.append(("local", os.path.join(project, PROJECT_DIR, LOCAL_FILE)))
    return files


def read_sources(files: list[tuple[str, str]]) -> list[tuple[str, str, bytes | None]]:
    """The files' bytes (None when absent); an unreadable file raises OSError."""
    out: list[tuple[str, str, bytes | None]] = []
    for scope, path in files:
        try:
            with open(path, "rb") as handle:
                data = handle.read()
        except FileNotFoundError:
            out.append((scope, path, None))
            continue
        except IsADirectoryError:
            raise OSError(f"{path}: is a directory, not a policy file") from None
        out.append((scope, path, data))
    return out
