"""doctor: this process's resource limits against the floors the registered command needs.

The registered command (``config/hookwise_command.LIMIT_FLOORS``) raises a soft limit below
its floor and blocks every hook, exit 2, under a hard one: a tool call can lower its
host's hard limits (``prlimit --pid``), which only a privileged process raises again, so
the hooks stay blocked until the agent restarts. Doctor run from the agent's shell (or by
the agent) names them before a hook does.
"""

from __future__ import annotations

import resource

from hookwise.config.hookwise_command import LIMIT_FLOORS, Floor


def _in_units(limit: Floor, value: int) -> str:
    if value == resource.RLIM_INFINITY:
        return "unlimited"
    return f"{value // limit.scale} {limit.unit}"


def limit_checks() -> list[tuple[str, str]]:
    """(status, detail) per limit of this process below the hook's floor: a hard one
    fails (every hook started with it blocks), a soft one alone is said (raised)."""
    out: list[tuple[str, str]] = []
    for limit in LIMIT_FLOORS:
        soft, hard = resource.getrlimit(getattr(resource, limit.resource))
        need = limit.floor * limit.scale
        name = f"{limit.resource} (ulimit -{limit.option})"
        floor = f"{limit.floor} {limit.unit}"
        if hard != resource.RLIM_INFINITY and hard < need:
            out.append((
                "fail",
                f"{name}: the hard limit of this process is {_in_units(limit, hard)}, below "
                f"the {floor} the hook needs: every hook started with it blocks (exit 2, "
                "naming it). An agent started from here, or the agent running this, has it "
                "too (a tool call can lower its host's limits, prlimit --pid, and only a "
                "privileged process raises a hard limit): restart the agent from a shell "
                f"without it (`ulimit -H -{limit.option}` shows it)",
            ))  # fmt: skip
        elif soft != resource.RLIM_INFINITY and soft < need:
            out.append((
                "info",
                f"{name}: the soft limit of this process is {_in_units(limit, soft)}, below "
                f"the {floor} the hook needs; the registered command raises it for every "
                "hook (the hard limit allows)",
            ))  # fmt: skip
    return out


__all__ = ["limit_checks"]
