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
from collections.abc import Callable
from typing import Final, NamedTuple

from hookwise.protocol.hosts import HOST_NAMES

# The portable command (what install writes): it works on every machine of a team, since
# settings files are committed. It runs this user's launcher (the fast path, written by
# install), else `hookwise` from PATH; when neither runs (not installed, a deleted
# virtualenv: exit 126/127, or killed) it exits 2, which blocks on every host, instead of
# the 127 every host would take as a non-blocking error and run the tool. It is a shell
# script itself, not `sh -c '<script>'`: every host already runs its hook commands
# through a shell (Claude Code `/bin/sh -c`, Gemini CLI and Codex `bash -c`), and a second
# shell would cost each call its start-up.
NOT_INSTALLED: Final = (
    "hookwise is not installed on this machine: install it (pipx install hookwise) "
    "or remove this hook from the agent settings"
)


# The launcher is under $HOME, never $XDG_DATA_HOME: a host that loads a project's env
# file sets XDG_DATA_HOME from it when unset (Gemini CLI), and the command then exec'd a
# launcher the agent wrote (red team s27 #3a); HOME is set before any host starts, so such
# a file cannot move it. Inside `hookwise run` the launcher is the one the session pinned,
# never where $HOME points (the hook's host passes it on; a launcher planted where it
# could be moved would run instead of hookwise): the one-line file `launcher` of this
# user's sessions directory, which each session binds read-only over the empty file there,
# in its own mount namespace (run/supervisor.py, policy/confinement.py).
#
# Outside a session that file is an ordinary file anyone of this user can write (and
# /tmp/hookwise-run-<uid> a directory any user can make first): followed whenever it was
# this user's, it let one write take every later hook (red team s28 MCP F4). So it is
# followed only where nothing but a session can have put it, two facts no process of this
# user outside a session can forge for its host's hooks:
# - the hook's user namespace maps exactly one id (/proc/self/uid_map "<uid> <uid> 1", as a
#   session's does; outside, the initial namespace maps them all: nothing more is read, no
#   file, no fork: the common case costs one short read);
# - /proc/self/mountinfo has a read-only mount whose mount point is that very file (the
#   session's bind; making a mount needs privilege in this mount namespace).
# Then the file and its directory must be this user's and no links, else the command stops
# with exit 2 saying why (a session's own files: something is wrong). Read with bash's
# `read -d ''` (one read), else line by line from the file (dash reads a byte a system
# call: 28 KB of mounts in a session take about 15 ms; never through a pipe, which another
# process could hold open). Without /proc (macOS) nothing is read. The modes are the
# supervisor's (a private directory, files 0400) and the hook checks them
# (confinement.session_record).
SESSION_LAUNCHER: Final = (
    "u=; n=; { read -r u _ n; } 2>/dev/null </proc/self/uid_map; "
    'if [ "$n" = 1 ]; then '
    'for f in "/run/user/$u/hookwise-run-$u/launcher" "/tmp/hookwise-run-$u/launcher"; do '
    '[ -s "$f" ] || continue; '
    "m=; { IFS= read -r -d '' m; } 2>/dev/null </proc/self/mountinfo; o=; "
    'case $m in *" $f ro,"*|*" $f ro "*) o=1 ;; ?*) ;; '
    '*) while IFS= read -r l; do case $l in *" $f ro,"*|*" $f ro "*) o=1; break ;; esac; '
    "done 2>/dev/null </proc/self/mountinfo ;; esac; "
    '[ -n "$o" ] || continue; '
    'if [ -O "${f%/*}" ] && [ ! -h "${f%/*}" ] && [ -O "$f" ] && [ ! -h "$f" ] '
    '&& IFS= read -r h <"$f" && [ -n "$h" ]; then break; fi; '
    "echo \"hookwise: the session's launcher $f is not a file of this user in a directory "
    'of this user (or is a link, or empty): no hook runs; end this session" >&2; exit 2; '
    "done; fi; "
)
# What install wrote in s29: without bash's `read -d ''` (dash) it read the mounts through
# `$(/bin/cat ...)`, a pipe any process of the session could hold open through
# /proc/<pid>/fd, keeping the hook's shell waiting before any deadline (red team s30 run
# #2); now dash reads them line by line from the file (still recognised).
SESSION_LAUNCHER_S29: Final = (
    "u=; n=; { read -r u _ n; } 2>/dev/null </proc/self/uid_map; "
    'if [ "$n" = 1 ]; then '
    'for f in "/run/user/$u/hookwise-run-$u/launcher" "/tmp/hookwise-run-$u/launcher"; do '
    '[ -s "$f" ] || continue; '
    "m=; { IFS= read -r -d '' m; } 2>/dev/null </proc/self/mountinfo; "
    '[ -n "$m" ] || m=$(/bin/cat /proc/self/mountinfo 2>/dev/null); '
    'case $m in *" $f ro,"*|*" $f ro "*) ;; *) continue ;; esac; '
    'if [ -O "${f%/*}" ] && [ ! -h "${f%/*}" ] && [ -O "$f" ] && [ ! -h "$f" ] '
    '&& IFS= read -r h <"$f" && [ -n "$h" ]; then break; fi; '
    "echo \"hookwise: the session's launcher $f is not a file of this user in a directory "
    'of this user (or is a link, or empty): no hook runs; end this session" >&2; exit 2; '
    "done; fi; "
)
# What install wrote from s24 to s28: it followed the file whenever it was this user's and
# no link, in or out of sessions (still recognised; doctor asks for `hookwise install`).
SESSION_LAUNCHER_S24: Final = (
    'u=; { IFS= read -r u; } 2>/dev/null </proc/self/uid_map; u=${u#"${u%%[0-9]*}"}; '
    "u=${u%%[!0-9]*}; "
    'for f in "/run/user/$u/hookwise-run-$u/launcher" "/tmp/hookwise-run-$u/launcher"; do '
    'if [ -n "$u" ] && [ -s "$f" ] && [ -O "$f" ] && [ ! -h "$f" ]; then '
    'IFS= read -r h < "$f"; break; fi; done; '
)


# What the hook's interpreter reads before its first line, which no hook can check: a
# locale that the environment names (LC_ALL, LC_*, LANG, from files LOCPATH points to) whose
# charset no Python codec knows stopped Python in init_fs_encoding with exit 1, and the host
# ran the tool (red team s28 run #1: a project `.env`, which Gemini CLI exports to hooks).
# The command gives the interpreter the C locale, which glibc has built in (no file is
# read; LOCPATH and the other LC_* cannot apply under LC_ALL); the launcher runs in UTF-8
# mode too (-X utf8: launcher.py). The fallback `hookwise hook` answers with 0 or 2; any
# other status (it died before answering: a crash, a signal, not found) is made exit 2,
# which blocks on every host, with why.
LOCALE: Final = "export LC_ALL=C; "


# The limits a tool call can set on its host (`prlimit --pid`, or any program calling
# prlimit64: no spelling of it can be recognised), which every later hook inherits, judged
# where they take effect: here, before the interpreter starts (red team s30 #5, s31 run #2
# and #6). A stack of 24 KiB killed Python with SIGSEGV before its first line, a few
# descriptors or CPU seconds killed or crashed it, an address space or data segment of some
# tens of MB stopped it: any status but 0 and 2 (a signal too) is a non-blocking error on
# every host, and the tool ran. Each soft limit is set to what the hook needs (raised to
# `unlimited` where the hard limit allows, which any process may do; the stack and the
# descriptors to a fixed floor: an unlimited stack changes the memory layout, and the
# descriptors must cover the session's channel, audit.HOOK_CHANNEL_FD 1011); where the
# hard limit is below the floor the hook cannot start as it must, and the command exits 2
# (a block on every host) naming the limit. A file size limit cannot stop the hook (the
# audit log keeps what does not fit: policy/audit.py), but a `.pyc` Python writes under it
# is cut short and renamed in place, and every later hook failed to import it: under one,
# the hook writes no bytecode (PYTHONDONTWRITEBYTECODE, which the launcher honours under
# -I too: snapshot.py). Only then: the launcher's -B for every call made each hook
# compile what its snapshot does not hold (a doctor self-test 3 s -> 69 s).
# (One resource per `ulimit`: dash takes no more; -S: the soft limit only. The descriptors
# come first and outside the `{ ...; } 2>/dev/null` of the others: a shell saves a
# redirected descriptor at 10 or above, which fails under a lower limit, and what the
# redirection covers does not run.)
class Floor(NamedTuple):
    """A limit the hook needs: ulimit's option (dash takes one a call), the floor in
    ulimit's unit, the resource's name, that unit, what one unit is in the resource
    module's (bytes for KiB), and whether `unlimited` is tried first."""

    option: str
    floor: int
    resource: str
    unit: str
    scale: int
    unlimited_first: bool


LIMIT_FLOORS: Final = (  # (the descriptors first)
    Floor("n", 1024, "RLIMIT_NOFILE", "descriptors", 1, False),
    Floor("s", 8192, "RLIMIT_STACK", "KiB", 1024, False),
    Floor("t", 60, "RLIMIT_CPU", "s", 1, True),
    Floor("v", 2097152, "RLIMIT_AS", "KiB", 1024, True),
    Floor("d", 2097152, "RLIMIT_DATA", "KiB", 1024, True),
)

# Said when a hard limit is below its floor, before one line per limit naming it, the
# floor and the hard limit's value (`ulimit -H`, written straight to stderr: no `$(...)`,
# whose pipe another process could hold open). A tool call can lower its host's hard
# limits (`prlimit --pid`), which only a privileged process can raise again: every hook
# blocks until the agent is restarted (red team s32, left open; s33).
LIMIT_BLOCKED: Final = (
    "hookwise: blocked: a hard resource limit of this process is below what the hook "
    "needs. The agent running this hook has it too (lowered by a tool call, prlimit --pid, "
    "or set when it started), and every hook blocks until you restart the agent without it "
    "(hookwise doctor names the limits of the shell it runs in)"
)


def _limits() -> str:
    first, *rest = LIMIT_FLOORS  # (descriptors: no redirection)
    parts = [f'k=; ulimit -S -{first.option} {first.floor} || k="$k {first.option}"; {{ ']
    for limit in rest:
        up = f"ulimit -S -{limit.option} unlimited || " if limit.unlimited_first else ""
        parts.append(f'{up}ulimit -S -{limit.option} {limit.floor} || k="$k {limit.option}"; ')
    cases = "".join(
        f"{limit.option}) printf '%s ' \"hookwise:   {limit.resource} (ulimit -{limit.option}): "
        f'the hook needs {limit.floor} {limit.unit}, the hard limit is" ;; '
        for limit in LIMIT_FLOORS
    )
    parts.append(
        "ulimit -S -f unlimited || export PYTHONDONTWRITEBYTECODE=1; } 2>/dev/null; "
        # (`exec >&2`: no descriptor saved, which a low RLIMIT_NOFILE would refuse)
        f'[ -z "$k" ] || {{ exec >&2; echo "{LIMIT_BLOCKED}"; for o in $k; do '
        f'case $o in {cases}esac; ulimit -H -"$o"; done; exit 2; }}; '
    )
    return "".join(parts)


LIMITS: Final = _limits()
# What install wrote in s32: the hard limits named without their values (still recognised).
LIMITS_S32: Final = (
    'k=; ulimit -S -n 1024 || k="$k (RLIMIT_NOFILE, ulimit -n, 1024 descriptors)"; { '
    'ulimit -S -s 8192 || k="$k (RLIMIT_STACK, ulimit -s, 8192 KiB)"; '
    'ulimit -S -t unlimited || ulimit -S -t 60 || k="$k (RLIMIT_CPU, ulimit -t, 60 s)"; '
    "ulimit -S -v unlimited || ulimit -S -v 2097152 || "
    'k="$k (RLIMIT_AS, ulimit -v, 2 GiB)"; '
    "ulimit -S -d unlimited || ulimit -S -d 2097152 || "
    'k="$k (RLIMIT_DATA, ulimit -d, 2 GiB)"; '
    "ulimit -S -f unlimited || export PYTHONDONTWRITEBYTECODE=1; } 2>/dev/null; "
    '[ -z "$k" ] || { echo "hookwise: a hard limit of this process is below what the '
    'hook needs:$k (set on its host by a tool call? restart the agent): blocked" >&2; '
    "exit 2; }; "
)

# The launcher's exec must not fail into a status the host takes as a non-blocking error:
# one allowed tool call, `sleep 60 3>>$INTERPRETER &`, kept the launcher's interpreter open
# for writing without writing a byte, the kernel refused to start it (ETXTBSY), the shell's
# failed `exec` exited 126, and every host ran the tool (red team s32 run #5). Any failed
# exec now ends in exit 2, saying why: dash exits on it and runs the EXIT trap (which a
# successful exec never does: the process image is gone); bash exits without the trap,
# unless `execfail` is on, and then goes on to the line after. (`shopt` only under bash,
# where it is a builtin: under dash a name looked up on PATH would run whatever was
# planted there.)
LAUNCHER_NOT_STARTED: Final = (
    "hookwise: the launcher $h could not be started (the error above: its interpreter open "
    "for writing by another process, or no longer a program): blocked; reinstall with "
    "hookwise install"
)
EXEC_GUARD: Final = (
    f"trap 'echo \"{LAUNCHER_NOT_STARTED}\" >&2; exit 2' EXIT; "
    '[ -z "${BASH_VERSION-}" ] || shopt -s execfail; ',
    f'; trap - EXIT; echo "{LAUNCHER_NOT_STARTED}" >&2; exit 2',
)


# The direct commands (`hookwise install --direct`: this machine's interpreter running
# run_hook.py; `--console`: its `hookwise hook`) judge the same floors, in the shell the
# host runs every hook command with, before it execs the interpreter: written as a bare
# argv they checked nothing, and a tool call that set its host's stack to 24 KiB killed
# Python before its first line (SIGSEGV), which every host takes as a non-blocking error
# (s33). Nothing in Python could: the interpreter dies before it runs a line.
DIRECT_PREFIX: Final = LIMITS + "exec "


def direct_command(argv: list[str]) -> str:
    """A direct hook command: the limits' check, then ``exec`` of ``argv``."""
    return DIRECT_PREFIX + shlex.join(argv)


def _direct_argv_text(command: str) -> str:
    """A direct command's argv text (a command without the limits' check: itself)."""
    return command.removeprefix(DIRECT_PREFIX)


def direct_inherits_limits(command: object) -> bool:
    """Whether ``command`` runs hookwise's hook (not the portable form) with no limits'
    check before it: a direct form written before s33, or a hand-written
    ``hookwise hook``."""
    return (
        isinstance(command, str)
        and not command.startswith(DIRECT_PREFIX)
        and not is_portable_command(command)
        and is_hookwise_command(command)
    )


def _fallback(arguments: str) -> str:
    return (
        "if command -v hookwise >/dev/null 2>&1; then "
        f'hookwise hook {arguments}; s=$?; case $s in 0|2) exit "$s";; esac; '
        '[ "$s" -lt 126 ] && { echo "hookwise: the hook exited with status $s without '
        'answering: blocked" >&2; exit 2; }; fi; '
    )


def _fallback_s28(arguments: str) -> str:
    """The fallback install wrote up to s28: any status below 126 passed (still
    recognised)."""
    return (
        "if command -v hookwise >/dev/null 2>&1; then "
        f'hookwise hook {arguments}; s=$?; [ "$s" -lt 126 ] && exit "$s"; fi; '
    )


def _portable_script(
    arguments: str,
    session: str = SESSION_LAUNCHER,
    locale: str = LOCALE,
    fallback: Callable[[str], str] | None = None,
    limits: str = LIMITS,
    *,
    exec_guard: tuple[str, str] = EXEC_GUARD,
) -> str:
    before, after = exec_guard
    return (
        'h="$HOME/.local/share/hookwise/hook"; '
        f"{limits}{session}{locale}"
        'if [ -x "$h" ] && IFS= read -r l < "$h"; then p=${l#??}; p=${p%% *}; '
        f'if [ -x "$p" ]; then {before}exec "$h" {arguments}{after}; fi; fi; '
        f"{(fallback or _fallback)(arguments)}"
        f"echo '{NOT_INSTALLED}' >&2; exit 2"
    )
    # (the launcher runs by exec, no fork, only when its interpreter is there; a launcher
    # that cannot import hookwise exits 2 itself)


def portable_command(host: str) -> str:
    """The portable command for ``host``, as written into its settings."""
    return _portable_script(f"--platform {host}")


def portable_argv(host: str) -> list[str]:
    """How a host runs the portable command: through its shell."""
    return ["sh", "-c", portable_command(host)]


def _portable_pattern(
    session: str = SESSION_LAUNCHER, s28: bool = False, s32: bool = True, limits: str = LIMITS
) -> re.Pattern[str]:
    """The portable script with any launcher location (Gemini CLI expands the ``$HOME``
    in it, and ``${XDG_DATA_HOME:-...}`` in the form written before s27, when it loads its
    settings) and any host; ``session``
    empty: the form written before the session's launcher was read; ``s28``: the form
    written up to s28 (no locale, any status of the fallback below 126 passed); ``s32``
    False: the form written before the limits were checked and a failed exec blocked;
    ``limits``: the limits' check as written then (``LIMITS_S32``)."""
    locale, fallback = ("", _fallback_s28) if s28 else (LOCALE, _fallback)
    limits, exec_guard = (limits, EXEC_GUARD) if s32 else ("", ("", ""))
    script = _portable_script(
        "--platform \0", session, locale, fallback, limits, exec_guard=exec_guard
    )
    prefix, rest = script.split('"; ', 1)
    head = re.escape(prefix.split('"', 1)[0] + '"') + '[^"]*"; '
    hosts = "|".join(HOST_NAMES)
    body = re.escape(rest).replace("\x00", f"({hosts})", 1).replace("\x00", "\\1")
    return re.compile(head + body)


_PORTABLE: Final = (
    _portable_pattern(),
    _portable_pattern(SESSION_LAUNCHER_S24, s28=True, s32=False),  # ([1]: follows_any_...)
    _portable_pattern("", s28=True, s32=False),
    _portable_pattern(s28=True, s32=False),  # (this session's lookup, before the locale: s28)
    _portable_pattern(SESSION_LAUNCHER_S29, s32=False),  # ([4]: reads_mounts_through_a_pipe)
    _portable_pattern(s32=False),  # ([5]: inherits_limits: s30 to s31)
    _portable_pattern(limits=LIMITS_S32),  # (s32: the hard limits named without values)
)


def portable_host(command: object) -> str | None:
    """The host of a portable hookwise command: this form, or the ``sh -c '<the script with
    "$@">' hookwise --platform HOST`` that earlier versions registered."""
    if not isinstance(command, str):
        return None
    for pattern in _PORTABLE:
        found = pattern.fullmatch(command)
        if found is not None:
            return found.group(1)
    try:
        argv = shlex.split(command)
    except ValueError:
        return None
    if (
        len(argv) == 6
        and argv[0].rsplit("/", 1)[-1] == "sh"
        and argv[1] == "-c"
        and 'hookwise hook "$@"' in argv[2]
        and argv[3] == "hookwise"
        and argv[4] in ("--platform", "--host")
        and argv[5] in HOST_NAMES
    ):
        return argv[5]
    return None


def is_portable_command(command: object) -> bool:
    return portable_host(command) is not None


def follows_any_session_file(command: object) -> bool:
    """Whether ``command`` is the portable form written from s24 to s28, which follows a
    session's launcher file in or out of sessions (red team s28 MCP F4)."""
    return isinstance(command, str) and _PORTABLE[1].fullmatch(command) is not None


def reads_mounts_through_a_pipe(command: object) -> bool:
    """Whether ``command`` is the portable form written in s29, whose ``$(...)`` under dash
    is a pipe a process of the session can hold open (red team s30 run #2)."""
    return isinstance(command, str) and _PORTABLE[4].fullmatch(command) is not None


def inherits_limits(command: object) -> bool:
    """Whether ``command`` is a portable form written before s32, which runs the hook under
    whatever limits its host has (a tool call can set them: red team s31 run #2 and #6)."""
    return isinstance(command, str) and any(
        pattern.fullmatch(command) is not None for pattern in _PORTABLE[1:6]
    )


def machine_paths(command: object) -> list[str]:
    """Absolute paths a hookwise command needs on this machine (empty: portable)."""
    if not isinstance(command, str) or is_portable_command(command):
        return []
    try:
        argv = shlex.split(_direct_argv_text(command))
    except ValueError:
        return []
    head = argv[: next((i for i, a in enumerate(argv) if a in ("--platform", "--host")), 6)]
    return [a for a in head if a.startswith("/")]


_RUN_HOOK_TAIL: Final = re.compile(r"(^|[/\\])hookwise[/\\]policy[/\\]run_hook\.py$")
_CONSOLE: Final = re.compile(r"(^|[/\\])hookwise(\.exe)?$")


def is_hookwise_command(command: object) -> bool:
    """Whether a hook command runs ``hookwise hook`` (any interpreter, path or options).

    Recognised: the portable script (and its earlier ``sh -c`` form), ``<python> [-flags]
    .../hookwise/policy/run_hook.py ...``, ``[path/]hookwise hook ...`` and ``<python> -m
    hookwise hook ...``.
    """
    if not isinstance(command, str):
        return False
    if is_portable_command(command):
        return True
    try:
        argv = shlex.split(_direct_argv_text(command))
    except ValueError:
        return False
    if not argv:
        return False
    if _CONSOLE.search(argv[0]):
        return argv[1:2] == ["hook"]
    valued = False  # (the value of -X or -W: `-X utf8`, as launcher.hook_argv writes)
    for index, arg in enumerate(argv[1:], start=1):
        if valued:
            valued = False
            continue
        if _RUN_HOOK_TAIL.search(arg):
            return True
        if arg == "-m":
            return argv[index + 1 : index + 3] == ["hookwise", "hook"]
        if not arg.startswith("-"):
            return False
        valued = arg in ("-X", "-W")
    return False


__all__ = [
    "DIRECT_PREFIX",
    "LIMIT_FLOORS",
    "NOT_INSTALLED",
    "Floor",
    "direct_command",
    "direct_inherits_limits",
    "follows_any_session_file",
    "inherits_limits",
    "is_hookwise_command",
    "is_portable_command",
    "machine_paths",
    "portable_argv",
    "portable_command",
    "portable_host",
    "reads_mounts_through_a_pipe",
]


def runs_only_hookwise(command: object) -> bool:
    """Whether a hook command runs hookwise's hook and nothing else, whatever its settings
    file: the portable script (fixed text: this user's launcher or ``hookwise`` from PATH),
    or ``hookwise hook`` with its options and no shell syntax. A path to a program called
    hookwise is not enough (a repository can ship one), so `scan` reads those as any
    other command."""
    if is_portable_command(command):
        return True
    if not isinstance(command, str):
        return False
    try:
        argv = shlex.split(command)
    except ValueError:
        return False
    return argv[:2] == ["hookwise", "hook"] and shlex.join(argv) == command.strip()
