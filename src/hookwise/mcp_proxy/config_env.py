"""The variables that decide hookwise's own configuration, pinned on the proxy's command line.

A host starts a server entry with the entry's ``env`` block on top of its own environment,
and the proxy is that entry's command: ``HOOKWISE_USER_POLICY=/nonexistent``,
``XDG_CONFIG_HOME=/tmp`` or ``HOOKWISE_AUDIT=0`` there would turn the user's policy or the
audit log off for the server, set by whoever wrote the entry (a repository's ``.mcp.json``).
So an entry ``install --mcp`` writes carries ``--pinned``: the proxy then drops every such
variable it was given and takes only the ``--pin KEY=VALUE`` pairs install saw in the
installing user's environment (where they differ from the defaults), and the home of the
account it runs as. ``doctor`` and ``install`` name entries whose ``env`` sets any of them.

The pins are the entry's own words too, so a repository could write its own. A pin is
taken only when the program that started the proxy (the host) was itself started with that
value (its environment as ``/proc`` shows it): the user's environment, never the entry's.
Where ``/proc`` cannot say (not Linux), the pins are taken as given, and doctor, scan and
install are where a foreign one is caught.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from hookwise.policy.confinement import PINNED, PINNED_PREFIX

# what decides which files hookwise reads and writes (the session confinement's list)
CONFIG_VARIABLES = frozenset(PINNED)


def is_config(name: str) -> bool:
    """Whether an environment variable changes where or how hookwise decides and audits."""
    return name.startswith(PINNED_PREFIX) or name in CONFIG_VARIABLES


# The ones install pins from the installing user's environment: where the policy, trust,
# cache and audit log are and how failures are answered. Never the others of the prefix:
# a pin is written into a settings file a repository may commit (`HOOKWISE_API_TOKEN`,
# `HOOKWISE_DATABASE_URL` are secrets; a test suite's own variables are noise). The proxy
# still drops every configuration variable it is given.
PIN_VARIABLES = frozenset(
    [
        *CONFIG_VARIABLES,
        "HOOKWISE_POLICY",
        "HOOKWISE_USER_POLICY",
        "HOOKWISE_MANAGED_POLICY",
        "HOOKWISE_TRUST_STORE",
        "HOOKWISE_CACHE_DIR",
        "HOOKWISE_AUDIT",
        "HOOKWISE_AUDIT_LOG",
        "HOOKWISE_ON_ERROR",
        "HOOKWISE_HOOK_TRUST",
    ]
)


def account_home() -> str:
    """The home directory of the account this process runs as (not ``$HOME``)."""
    try:
        import pwd

        return pwd.getpwuid(os.getuid()).pw_dir
    except (
        ImportError,
        KeyError,
    ):  # no passwd entry (a bare container uid): nothing better to go on
        return os.path.expanduser("~")


def parse_pin(text: str) -> tuple[str, str]:
    """``KEY=VALUE`` of ``--pin``, or a ValueError saying what was expected."""
    key, sep, value = text.partition("=")
    if not sep or not is_config(key):
        raise ValueError(
            f"--pin {text!r}: expected KEY=VALUE with KEY one of HOOKWISE_*, "
            f"{', '.join(sorted(CONFIG_VARIABLES))}"
        )
    return key, value


def pinned(environ: Mapping[str, str], pins: Mapping[str, str]) -> dict[str, str]:
    """The environment the policy is read with: ``environ`` without any configuration
    variable, the account's home, then the pins."""
    out = {k: v for k, v in environ.items() if not is_config(k)}
    out["HOME"] = account_home()
    out.update(pins)
    return out


def pins_for(env: Mapping[str, str]) -> list[str]:
    """``--pinned`` and a ``--pin`` for each configuration variable of the installing
    user's ``env`` that is not its default (none for most users: the entry stays
    portable)."""
    out = ["--pinned"]
    for key in sorted(env):
        value = env[key]
        if key not in PIN_VARIABLES or (key == "HOME" and value == account_home()):
            continue
        out += ["--pin", f"{key}={value}"]
    return out


def overrides(entry_env: object) -> list[str]:
    """The configuration variables a server entry's ``env`` sets (sorted)."""
    if not isinstance(entry_env, Mapping):
        return []
    return sorted(str(k) for k in entry_env if is_config(str(k)))


def host_environment(pid: int) -> dict[str, str] | None:
    """The environment process ``pid`` was started with (``/proc/PID/environ``), or None
    where the system cannot say."""
    try:
        with open(f"/proc/{pid}/environ", "rb") as f:
            data = f.read()
    except OSError:
        return None
    out: dict[str, str] = {}
    for item in data.split(b"\0"):
        key, sep, value = item.partition(b"=")
        if sep:
            out[key.decode("utf-8", "surrogateescape")] = value.decode("utf-8", "surrogateescape")
    return out


def unvouched(pins: Mapping[str, str], host_env: Mapping[str, str] | None) -> list[str]:
    """The pins (``KEY=VALUE``) the host's own environment does not hold: an entry's, not
    the user's (none where the host's environment is unknown)."""
    if host_env is None:
        return []
    return [f"{key}={value}" for key, value in pins.items() if host_env.get(key) != value]
