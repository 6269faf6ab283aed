"""The variables that decide what the guard reads or runs: one table for every check that
asks (red team s27 #3, #5, #9: each check had its own list, and XDG_DATA_HOME, which names
the launcher the registered command execs, was missing from two of them).

Read by: the hook's drop of what a host exported from a project env file
(policy/env_origin.py), self-protection's guard-change check (``XDG_DATA_HOME=/x gemini``,
``export CODEX_HOME=...``: policy/trust/protect.py), ``hookwise run``'s refusal at start and
doctor (config/env_files.py). Plain data and one predicate: the hook's path imports it.
A name ending in "*" is a prefix.
"""

from __future__ import annotations

# hookwise's own settings: each moves or loosens the guard for whatever starts with it
GUARD = (
    "HOOKWISE_POLICY",
    "HOOKWISE_USER_POLICY",
    "HOOKWISE_MANAGED_POLICY",
    "HOOKWISE_PROJECT_DIR",
    "HOOKWISE_CACHE_DIR",
    "HOOKWISE_TRUST_STORE",
    "HOOKWISE_ON_ERROR",
    "HOOKWISE_AUDIT",
    "HOOKWISE_AUDIT_LOG",
    "HOOKWISE_HOOK_TRUST",
)
# where hookwise's files are (the user policy and trust store: XDG_CONFIG_HOME; the
# launcher the registered command execs: XDG_DATA_HOME; the audit log and the sessions'
# record: XDG_STATE_HOME; the compiled cache: XDG_CACHE_HOME; each defaults under HOME:
# policy/trust/scopes.py, audit.py, cache.py) and the hosts' own settings (their hook
# registrations: the rows' config_dir in protocol/hosts.py)
PLACES = (
    "HOME",
    "XDG_CONFIG_HOME",
    "XDG_DATA_HOME",
    "XDG_STATE_HOME",
    "XDG_CACHE_HOME",
    "CLAUDE_CONFIG_DIR",
    "GEMINI_CLI_HOME",
    "CODEX_HOME",
)
# what loads code into any program before its first line runs (the dynamic loader's
# preloads and paths, the C library's charset converters, locale files and catalogs, the
# resolver's aliases, jemalloc's settings): read by MCP proxy entries too (mcp_proxy)
LOADERS = (
    "LD_*",
    "DYLD_*",
    "GCONV_PATH",
    "LOCPATH",
    "NLSPATH",
    "HOSTALIASES",
    "MALLOC_CONF",
)
# what the C library and an interpreter read at start before any line of the program: the
# locale (a charset no Python codec knows stopped the hook's interpreter before its first
# line: red team s28 run #1; the registered command sets LC_ALL=C and the launcher runs in
# UTF-8 mode, config/hookwise_command.py and policy/install/launcher.py), glibc's tunables
# and malloc settings
LIBC = ("LC_*", "LANG", "LANGUAGE", "GLIBC_TUNABLES", "MALLOC_*")
# what a hook's shell and interpreter load before hookwise runs: a hook cannot undo them
RUNNERS = (
    "BASH_ENV",
    "ENV",
    "SHELLOPTS",
    "BASHOPTS",
    "PS4",
    "PATH",
    "PYTHON*",
    "NODE_OPTIONS",
    *LOADERS,
    *LIBC,
)
# always set when a host starts: a file that sets only unset variables cannot change them
ALWAYS_SET = ("PATH", "HOME")


def listed(name: str, table: tuple[str, ...]) -> bool:
    """Whether ``name`` is one of ``table`` (a "*" entry is a prefix)."""
    return any(name.startswith(v[:-1]) if v.endswith("*") else name == v for v in table)


def moves_guard(name: str) -> bool:
    """A variable that moves or loosens hookwise (any ``HOOKWISE_*``: one not known today
    may be tomorrow's setting) or the places its files are, but HOME, which every host has."""
    return name.startswith("HOOKWISE_") or (name in PLACES and name not in ALWAYS_SET)
