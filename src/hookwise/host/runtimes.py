"""Which runtime runs which host: the one place a host name becomes its runtime."""

from __future__ import annotations

from collections.abc import Callable

from hookwise.host import cancel_form, claude_dialect, codex_dialect
from hookwise.host.claude_form import make_runtime
from hookwise.host.dialect_runtime import DialectRuntime
from hookwise.host.gemini_runtime import GeminiRuntime
from hookwise.host.runtime import HostRuntime
from hookwise.protocol.hosts import host, hosts_with
from hookwise.protocol.profiles import DEFAULT_PROFILE, Profile

# Hosts with a reading of their own; a host whose hooks are script files (its row's layout
# "script": Cline) answers with a cancel (cancel_form.py); every other host the registry gives
# a runtime reads Claude Code's form through its own table (claude_form.py).
_OWN: dict[str, DialectRuntime] = {
    runtime.name: runtime for runtime in (claude_dialect.RUNTIME, codex_dialect.RUNTIME)
}
_OWN.update(
    {
        name: cancel_form.make_runtime(name)
        for name in hosts_with("runtime")
        if host(name).hooks_layout == "script"
    }
)

# The runtimes driven by an event table (the service reads their tables and readers).
TABLE_RUNTIMES: dict[str, DialectRuntime] = {
    name: _OWN[name] if name in _OWN else make_runtime(name)
    for name in hosts_with("runtime")
    if name != GeminiRuntime.name
}


def _fixed(runtime: HostRuntime) -> Callable[[Profile], HostRuntime]:
    """A runtime with no profiles: the same one whatever is asked."""
    return lambda _profile: runtime


_FACTORIES: dict[str, Callable[[Profile], HostRuntime]] = {
    GeminiRuntime.name: GeminiRuntime,
    **{name: _fixed(runtime) for name, runtime in TABLE_RUNTIMES.items()},
}


# The hosts whose runtime reads under a profile (documented or the real engine's).
PROFILED: frozenset[str] = frozenset({GeminiRuntime.name})


def runtime_for(host: str, profile: Profile = DEFAULT_PROFILE) -> HostRuntime:
    """The runtime of ``host``; ``profile`` selects Gemini CLI's reading."""
    try:
        factory = _FACTORIES[host]
    except KeyError:
        raise ValueError(
            f"unknown host {host!r}; expected one of: {', '.join(_FACTORIES)}"
        ) from None
    return factory(profile)
