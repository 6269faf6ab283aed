"""``hookwise run [--host H] [--protect-secrets] [--read-only-proc] [--print-paths] -- COMMAND``.

Starts an agent confined (``hookwise.run``). It is dispatched before click is imported
(entry.py), as ``hook`` is: click and the command modules cost more than the 50 ms a start
may add. The click command registered in the CLI (:func:`command`) serves listings and
embedders; both go through :func:`main`.
"""

from __future__ import annotations

import os
import sys

from hookwise.protocol.hosts import hosts_with

ON_HOOK_LOST = ("report", "stop")  # what --on-hook-lost takes (run/supervisor.py acts on it)

TYPE_CHECKING = False
if TYPE_CHECKING:
    import click

USAGE = """\
Usage: hookwise run [OPTIONS] -- COMMAND [ARGS...]

  Start an agent (or any command) confined: hookwise's policy files, trust store, data,
  caches, audit log and installed code, managed files and the hosts' hook registrations
  are read-only at the OS level for it and every process it starts. Linux only; refuses
  (exit 125) where the confinement cannot be set up. See docs/confinement.md.

Options:
  --host HOST          the agent's host (gemini, claude, codex); without COMMAND, its CLI
  --protect-secrets    also make the secrets pack's files unreadable (~/.ssh, ~/.aws, .env...)
  --read-only-proc     /proc read-only: no process writes another's memory through
                       /proc/PID/mem, but none can set up a user namespace (bubblewrap,
                       Codex's and Chromium's sandboxes, unshare -U fail)
  --on-hook-lost WHAT  a hook that started and never answered (killed or stopped by another
                       process of the session): `report` it at the end and in the audit
                       log (the default), or `stop` the session at the first one
  --print-paths        list what would be protected and hidden (for COMMAND, if given), and
                       exit
  -h, --help           show this message and exit
"""


class UsageError(ValueError):
    """The command line is wrong (exit 2)."""


class Options:
    __slots__ = (
        "command",
        "help",
        "host",
        "on_hook_lost",
        "print_paths",
        "protect_secrets",
        "read_only_proc",
    )

    def __init__(self) -> None:
        self.host: str | None = None
        self.protect_secrets = False
        self.read_only_proc = False
        self.on_hook_lost = "report"
        self.print_paths = False
        self.help = False
        self.command: list[str] = []


def parse(args: list[str]) -> Options:
    """The options, then the command: after ``--``, or from the first word that is not an
    option (the command's own options are never read as hookwise's)."""
    options = Options()
    index = 0
    while index < len(args):
        word = args[index]
        if word == "--":
            index += 1
            break
        if word in ("-h", "--help"):
            options.help = True
        elif word == "--protect-secrets":
            options.protect_secrets = True
        elif word == "--read-only-proc":
            options.read_only_proc = True
        elif word == "--print-paths":
            options.print_paths = True
        elif word.partition("=")[0] in ("--host", "--on-hook-lost"):
            name = word.partition("=")[0]
            if word == name:
                index += 1
                if index == len(args):
                    raise UsageError(f"{name} needs a value")
                value = args[index]
            else:
                value = word.partition("=")[2]
            choices = hosts_with("run") if name == "--host" else ON_HOOK_LOST
            if value not in choices:
                raise UsageError(f"{name} {value!r}: one of {', '.join(choices)}")
            if name == "--host":
                options.host = value
            else:
                options.on_hook_lost = value
        elif word.startswith("-"):
            raise UsageError(f"no such option: {word}")
        else:
            break
        index += 1
    options.command = args[index:]
    if not options.command and options.host:
        options.command = [options.host]  # each host's CLI has the host's name
    return options


def main(args: list[str]) -> int:
    """``hookwise run`` without click: the exit status."""
    try:
        options = parse(args)
    except UsageError as exc:
        sys.stderr.write(f"{USAGE}\nError: {exc}\n")
        return 2
    if options.help:
        sys.stdout.write(USAGE)
        return 0
    import gc

    collecting = gc.isenabled()
    gc.disable()  # (nor while the supervisor's modules load: run() enables it at the start)
    try:
        return _main(options, collecting)
    finally:
        if collecting:
            gc.enable()


def _main(options: Options, collecting: bool) -> int:
    from hookwise.run.supervisor import RunError, describe, run

    env = dict(os.environ)
    cwd = os.getcwd()
    if options.print_paths:
        try:
            lines = describe(env, cwd, options.protect_secrets, options.command)
        except (OSError, ValueError) as exc:
            sys.stderr.write(f"hookwise run: {exc}\n")
            return 1
        sys.stdout.write("".join(f"{line}\n" for line in lines))
        return 0
    if not options.command:
        sys.stderr.write(f"{USAGE}\nError: no command to run (give it after --)\n")
        return 2
    try:
        return run(
            options.command,
            env,
            cwd,
            protect_secrets=options.protect_secrets,
            read_only_proc=options.read_only_proc,
            on_hook_lost=options.on_hook_lost,
            hook_script=_runs_only_hookwise,
            collect=collecting,
        )
    except RunError as exc:
        sys.stderr.write(f"hookwise run: {exc}\n")
        return exc.code


def _runs_only_hookwise(script: str) -> bool:
    """Whether a shell's ``-c`` script is a registered hookwise hook command (asked by the
    session's exec watch; the module is imported at its first exec, off the start)."""
    from hookwise.config.hookwise_command import runs_only_hookwise

    return runs_only_hookwise(script)


def command() -> click.Command:
    """The click command the CLI registers (click is imported here, off the fast path)."""
    import click

    @click.command(
        "run",
        add_help_option=False,
        context_settings={"ignore_unknown_options": True, "allow_extra_args": True},
    )
    @click.pass_context
    def run_command(ctx: click.Context) -> None:
        """Start an agent confined: the guard's files read-only for it (Linux).

        hookwise run [--host H] [--protect-secrets] [--print-paths] -- COMMAND [ARGS...];
        `hookwise run --help` says more.
        """
        ctx.exit(main(list(ctx.args)))

    return run_command
