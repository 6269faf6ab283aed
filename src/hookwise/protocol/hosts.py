"""The host registry: every agent hookwise speaks to, and where each fact about it lives.

One row per host: its name (the word used in code, CLI flags and docs), its title, the
settings files that hold its hooks (in a project and in the user's home), the unit of a
hook's ``timeout``, its pre-tool event and shell tool, how a hook can tell that a person
watches the session (``attended``, see below), and the protocol module holding its event
table (events with kind, order, matcher field, input fields, decision pattern and default
timeout), reached through ``event_names`` and ``table``.

The order of ``HOST_NAMES`` is the tie-break order of detection and of listings. The
``hookwise hook`` path reads this module, so it imports nothing at run time: no typing,
no dataclasses (each costs that path milliseconds).
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Final, Literal

    from hookwise.protocol.dialect import DialectSpec

    Host = Literal["gemini", "claude", "codex"]
    """The hosts' names, for type checks and request schemas (the same as HOST_NAMES)."""

HOST_NAMES: Final[tuple[Host, ...]] = ("gemini", "claude", "codex")

# ``attended``: how a hook can tell an interactive session (a person can answer the host's
# own prompt) from a headless one (``claude -p``, ``gemini -p``, ``codex exec``), observed
# with Claude Code 2.1.330, Codex 0.169.0 and Gemini CLI 0.61.0:
#
# - ("env", NAME, VALUE): the host gives its hooks NAME=VALUE in an attended session.
#   Claude Code sets CLAUDE_CODE_SESSION_ATTENDED=1 interactively and 0 under ``-p`` (and
#   CLAUDE_CODE_ENTRYPOINT=cli / sdk-cli); the payload is the same in both modes.
# - ("process", PROGRAM, FLAGS): nothing in the payload or the environment says it, so the
#   hook looks at its nearest ancestor process whose command line names PROGRAM: attended
#   when that process has a terminal on stdin and none of FLAGS (Gemini CLI runs
#   non-interactively with ``-p``/``--prompt`` or without a terminal; it gives hooks only
#   GEMINI_SESSION_ID, GEMINI_PROJECT_DIR, GEMINI_CWD, GEMINI_PLANS_DIR). Linux (/proc) only;
#   elsewhere the session counts as headless.
# - None: the host cannot show a prompt for a hook's ``ask`` on its pre-tool event at all
#   (Codex: ``ask`` there is ignored, and the payload and environment are the same in
#   ``codex exec`` and in the TUI).
#
# ``env_files``: the dotenv files a host loads into its own environment at start, which its
# hooks inherit: (user files, relative to the home as ``user_files``; project files, looked
# for in the start directory and each parent, the first found loaded; whether a file's
# values override the environment). Codex (codex-rs/arg0 load_dotenv): $CODEX_HOME/.env,
# overriding, keys starting with CODEX_ skipped. Gemini CLI (settings.ts findEnvFile and
# loadEnvironment, 0.61.0): from its cwd up, ``.gemini/.env`` then ``.env`` in each
# directory, then ``~/.gemini/.env``, ``~/.env``; only in a trusted workspace; the first file
# found, setting only variables that are unset.


class HostInfo:
    """One host's row."""

    __slots__ = (
        "attended",
        "env_files",
        "module",
        "name",
        "pre_tool_event",
        "project_files",
        "shell_tool",
        "table_name",
        "timeout_unit",
        "title",
        "user_files",
    )

    def __init__(  # noqa: PLR0917 - one row of the table, in column order
        self,
        name: Host,
        title: str,
        project_files: tuple[str, ...],
        user_files: tuple[str, ...],
        timeout_unit: Literal["ms", "s"],
        pre_tool_event: str,
        shell_tool: str,
        module: str,
        table_name: str | None = None,
        attended: tuple[str, ...] | None = None,
        env_files: tuple[tuple[str, ...], tuple[str, ...], bool] = ((), (), False),
    ) -> None:
        self.name = name
        self.title = title
        self.project_files = project_files  # relative to the project: files holding hooks
        self.user_files = user_files  # relative to the home directory
        self.timeout_unit = timeout_unit  # the unit of a hook's ``timeout``
        self.pre_tool_event = pre_tool_event
        self.shell_tool = shell_tool
        self.module = module  # the protocol module with its event table and EVENT_NAMES
        self.table_name = table_name  # its DialectSpec there, for hosts read per run
        self.attended = attended  # how a hook tells an interactive session (see above)
        self.env_files = env_files  # dotenv files loaded at start, exported to hooks (above)


HOSTS: Final[dict[Host, HostInfo]] = {
    "gemini": HostInfo(
        "gemini",
        "Gemini CLI",
        (".gemini/settings.json",),
        (".gemini/settings.json",),
        "ms",
        "BeforeTool",
        "run_shell_command",
        "hookwise.protocol.gemini",
        attended=("process", "gemini", "-p", "--prompt"),
        env_files=((".gemini/.env", ".env"), (".gemini/.env", ".env"), False),
    ),
    "claude": HostInfo(
        "claude",
        "Claude Code",
        (".claude/settings.json", ".claude/settings.local.json"),
        (".claude/settings.json",),
        "s",
        "PreToolUse",
        "Bash",
        "hookwise.protocol.claude",
        "CLAUDE",
        attended=("env", "CLAUDE_CODE_SESSION_ATTENDED", "1"),
    ),
    "codex": HostInfo(
        "codex",
        "Codex",
        (".codex/hooks.json", ".codex/config.toml"),
        (".codex/hooks.json", ".codex/config.toml"),
        "s",
        "PreToolUse",
        "Bash",
        "hookwise.protocol.codex",
        "CODEX",
        env_files=((".codex/.env",), (), True),
    ),
}

HOST_TITLES: Final[dict[str, str]] = {name: info.title for name, info in HOSTS.items()}


def host(name: str) -> HostInfo:
    """The row of ``name``, or ValueError naming the hosts."""
    for info in HOSTS.values():
        if info.name == name:
            return info
    raise ValueError(f"unknown host {name!r}; expected one of: {', '.join(HOST_NAMES)}")


def event_names(name: str) -> tuple[str, ...]:
    """The host's hook events in the host's own order (loads its table)."""
    import importlib

    names: tuple[str, ...] = importlib.import_module(host(name).module).EVENT_NAMES
    return names


def table(name: str) -> DialectSpec:
    """The event table of a host whose answers are read per run (Claude Code, Codex)."""
    import importlib

    info = host(name)
    if info.table_name is None:
        raise ValueError(f"{name} has no dialect table; its events are in {info.module}")
    spec: DialectSpec = getattr(importlib.import_module(info.module), info.table_name)
    return spec


def matcher_field(name: str, event: str) -> str | None:
    """The stdin field a definition's ``matcher`` is compared with on ``event`` (None: the
    matcher is ignored there), from the host's event table."""
    import importlib

    info = host(name)
    module = importlib.import_module(info.module)
    events = getattr(module, info.table_name).events if info.table_name else module.EVENTS
    field: str | None = events[event].matcher_field
    return field


def __getattr__(name: str) -> Any:
    """``Host`` at run time (request schemas need the Literal), built on first use."""
    if name == "Host":
        from typing import Literal

        return Literal[HOST_NAMES]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
