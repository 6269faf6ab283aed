"""Can hookwise account for everything a command runs? The one place that decides.

The principle (docs/policy.md, "Unverifiable commands"): a command whose effect depends
on code or words produced at run time on the line, or fed to a program as data, is
unverifiable; code already on disk (the project's ``make test``, ``pytest``, ``python
tools/x.py``, ``npm run build``) is not: running the repository's code is the agent's
job, and the confinement floor bounds what it can reach.

Everything that finds what a command runs (the parser, wrappers, the handlers
:func:`programs.runs` names, :mod:`code_readers` for programs with a script language)
reports what it cannot read as ``command.unknowns``; :func:`code_items` is where a
program's code comes from (inline, stdin, a file written on the line, a pipe); and
:func:`account`, run for every simple command, gives the verdict:
``command.unverifiable``, the first reason, or None. A word known only when it runs is
not judged here: it makes the command unverifiable only for a rule whose flag,
argument or program it could be (policy/rules/engine.py).

Hot (every command passes here): names and set lookups only; the tables are cold.
"""

from __future__ import annotations

import sys

from hookwise.shell import programs

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

_GLOB = frozenset("*?[")


# options that give code (or a script file) inline, over the families; and the families
# whose operand is code itself (awk's program, sqlite's SQL, ed's commands on stdin)
_CODE_OPTIONS = frozenset(
    ["-c", "-e", "-E", "-p", "-r", "-x", "-f", "-s", "-S", "-B", "-R", "-P", "-l", "-ex",
     "-iex", "-o", "-O", "-cmd", "-init", "--eval", "--print", "--command",
     "--execute", "--file", "--makefile", "--source", "--script", "--load", "--eval-command",
     "-eval-command", "-Command", "-command", "-File", "-file", "--require", "--import",
     "--loader", "--experimental-loader", "--rcfile", "--init-file", "--one-line", "-ix",
     "--expression", "-script", "-eval", "-c", "--commands", "-F",
     # a console after the script or code (python -i, node -i, lua -i, php -a): what it
     # reads from a stdin the line does not give is typed in later (code_readers), as for
     # the program alone: one answer for every console (session 33)
     "-i", "--interactive", "-a"]
)  # fmt: skip
_CODE_OPERANDS = frozenset(
    ["awk", "gawk", "mawk", "nawk", "busybox-awk", "sqlite3", "duckdb", "ed", "red", "ex",
     "parallel", "sem", "deno", "dc", "m4", "crontab", "gdb"]
)  # fmt: skip


# programs that act on another process (the keys of process_targets.ACTORS, kept equal by
# tests/policy/test_s32_process_targets.py: this module is hot, that one cold)
PROCESS_ACTORS = frozenset(
    ["kill", "pkill", "killall", "killall5", "skill", "snice", "strace", "ltrace", "gdb",
     "lldb", "gdbserver", "gcore", "reptyr", "perf", "bpftrace", "py-spy", "prlimit", "renice",
     "ionice", "chrt", "taskset", "criu", "fuser"]
)  # fmt: skip


# python -m MODULE whose operands are code (code_readers._PY_CODE_MODULES)
_CODE_MODULES = frozenset(["timeit", "doctest"])


def next_word(argv: list[str], word: str) -> str:
    """The word after ``word``'s first place in ``argv`` ('' at the end)."""
    at = argv.index(word) + 1
    return argv[at] if at < len(argv) else ""


def reads_code(command: Any, script: Any, name: str, *, outputs: bool = True) -> bool:
    """Whether a code reader may take code other than a script already on disk: inline
    code, stdin, a file written on the line, a process substitution (cheap: most runs of
    ``python3 -m pytest`` or ``node build.js`` need nothing more). ``outputs=False``: a
    file the line writes counts only where the command names it, and its own output
    redirects (``> out.log``, ``2>/dev/null``) not at all (after a source, a program's
    code given on the line: commands/env_files.leaks_values)."""
    if name == "crontab" and any(w in ("-l", "-r") for w in command.argv[1:]):
        return False  # crontab -l lists the table, -r removes it: no code is given
    if name in _CODE_OPERANDS or command.stdin or command.piped_from is not None:
        return True
    if outputs and (script.written or command.redirects):
        return True
    if command.program in programs.IPYTHON_SHELLS:
        return True  # its settings hold code (--c, --Class.trait=V): read them all
    if name in ("python", "pypy"):
        from hookwise.shell.py_entry import python_entry

        entry = python_entry(command.argv)  # after python's options: -Im timeit, -mpickle
        if entry.kind in ("code", "unknown"):
            return True
        if entry.kind == "module":
            module = entry.value
            if module in _CODE_MODULES or module.split(".", 1)[0] in sys.stdlib_module_names:
                return True  # python -m timeit CODE, -m pickle F (code_readers.unread_module)
            return module.split(".", 1)[0] in programs.PY_SHELLS
    if not outputs:
        written = script.written
        named = (w[2:] if w.startswith("./") else w for w in command.argv[1:])
        if any(w in written for w in named):
            return True
        if any(r not in command.writes for r in command.redirects):
            return True  # python3 < x.py: its input read as the script
    for word in command.argv[1:]:
        if word[:1] != "-":
            if word.startswith(("<(", "/dev/", "/proc/", "http:", "https:", "data:")):
                return True
            if "=" in word and "$" in word:  # make 'X:=$(shell ...)': a variable is code
                return True
            continue
        option = word.split("=", 1)[0]
        if word == "-" or option in _CODE_OPTIONS:
            return True
        if (
            len(option) > 3
            and option[:2] == "--"
            and any(o.startswith(option) for o in _CODE_OPTIONS)
        ):  # make --ev=CODE: long options abbreviated (getopt_long takes any unique prefix)
            return True
        if not word.startswith("--") and ("c" in word or "e" in word or "E" in word):
            return True  # a cluster: python -Ic CODE, perl -ne CODE
    return len(command.argv) == 1  # alone: it reads its code from stdin (a terminal here)


def code_items(
    command: Any,
    script: Any,
    printed: Callable[[Any], str | None],
    parsed: Callable[[str, int], list[Any]],
) -> list[tuple[str, Any]]:
    """What a program with a script language runs, read from its code wherever it comes
    from; code it reads at run time is ("unverifiable", why)."""
    name = programs.family(command.program)
    if name is None or not reads_code(command, script, name):
        return []
    from hookwise.shell.code_readers import read

    return read(command, script, printed, parsed)


def file_items(content: str, path: str) -> list[tuple[str, Any]] | None:
    """A file written on the line and run as a program: by its ``#!`` line, what its
    interpreter runs; None for a shell script (the parser reads it)."""
    from hookwise.shell.code_readers import file_items as items

    return items(content, path)


def _globbed(word: str) -> bool:
    """``/bin/r[m]``, ``/usr/bin/?m``: a pattern bash expands against the disk."""
    if not _GLOB.intersection(word):
        return False
    if "*" in word or "?" in word:
        return True
    at = word.find("[")
    return at >= 0 and word.find("]", at + 2) > at


def account(command: Any, script: Any) -> None:
    """Set ``command.unverifiable`` to why it runs something hookwise cannot account for
    (the program's name, code or words known only when it runs), or None."""
    argv = command.argv
    why: str | None = None
    if argv and command.dynamic[0]:
        why = f"the program is {argv[0]!r}, known only when the command runs"
    elif argv and argv[0].startswith(("/proc/", "/dev/fd/", "/dev/std")):
        # /proc/self/exe, /dev/fd/../exe: the running shell (or any process's program)
        # under a name that is no program's (red team s30 S)
        command.dynamic[0] = True
        why = f"the program is {argv[0]!r}, a process's own executable known only when it runs"
    elif argv and _globbed(argv[0]) and not command.quoted_program:
        command.dynamic[0] = True  # as good as unknown: any program the pattern finds
        why = f"the program is the pattern {argv[0]!r}, which bash expands when it runs"
    elif command.unknowns:
        why = command.unknowns[0]
    elif command.env and (
        not programs.ENV_LOADERS.keys().isdisjoint(command.env)
        or any(n[:11].lower() == programs.NPM_CONFIG for n in command.env)
        or any(n.startswith(("CARGO", "RUST")) for n in command.env)  # (cargo's settings)
    ):
        from hookwise.shell.code_readers import env_loads

        why = env_loads(command, script)
    if why is None and command.program in PROCESS_ACTORS and len(argv) > 1:
        # a process the line did not start, the agent's host and its hooks among them:
        # signalled, stopped, traced, injected into or limited (prlimit --pid: every hook
        # it starts then runs under them), every later hook dies or never starts and the
        # host runs the tool (red team s30 run #5, s32 #3)
        from hookwise.shell.commands.process_targets import judge

        why = judge(command)
    if why is None and script.written and argv and _writes_loaded(script.written):
        from hookwise.shell.commands.build_files import config_written

        why = config_written(command.program, script.written)
    if why is None and script.written and _option_files(command.program, argv):
        from hookwise.shell.commands.build_files import option_file_written

        why = option_file_written(command.program, argv, script.written)
    command.unverifiable = why


# programs that take a configuration file by option (the keys of build_files.OPTION_FILES,
# kept equal by tests/policy/test_redteam_s29_jkpic.py: this module is hot, that one cold)
OPTION_FILE_PROGRAMS = frozenset(
    ["ssh", "scp", "sftp", "ssh-keyscan", "vim", "vi", "nvim", "view", "vimdiff", "ex", "gvim",
     "rvim", "cmake", "kubectl", "helm", "docker", "npm", "npx", "yarn", "pnpm", "tmux",
     "screen", "mutt", "wget", "gradle"]
)  # fmt: skip


def _option_files(program: str, argv: list[str]) -> bool:
    """Whether the command may take a configuration or response file (``ssh -F c``, ``gcc
    @o``): the gate before build_files.option_file_written is loaded."""
    if any(w[:1] == "@" for w in argv[1:]):
        return True
    stripped = program.rstrip("0123456789.-")
    return stripped in OPTION_FILE_PROGRAMS or stripped.rsplit("-", 1)[-1] in OPTION_FILE_PROGRAMS


# names whose assignment rebinds what a later command name runs (bash's alias and hash tables)
_NAME_TABLES = ("BASH_ALIASES", "BASH_CMDS")
_HISTORY_OPTIONS = frozenset(["histexpand"])


def _writes_loaded(written: dict[str, str | None]) -> bool:
    """Whether a file written on the line has the name of one a program loads (the gate
    before shell/commands/build_files.py is loaded)."""
    names = programs.LOADED_FILE_NAMES
    return any(f" {key.rsplit('/', 1)[-1]} " in names for key in written)


def rebinds(command: Any) -> str | None:
    """Why, after ``command``, a later word of the line may not mean what it says: it
    changes what a name runs (``hash -p``, ``enable``, an alias ending in a blank, the
    ``BASH_ALIASES``/``BASH_CMDS`` tables) or turns history expansion on (``set -H``:
    bash rewrites later lines from its history). None when it does neither. The parser
    makes every later command of the line unverifiable with this reason."""
    argv = command.argv
    program = command.program
    words = [*command.assigned, *command.env.values(), *argv[:1]]
    if program in _ASSIGNS_NAMES:
        # declare and friends assign only a word with a value (`declare -p BASH_ALIASES`
        # prints it); unset only gives a name back its own meaning
        words += [w for w in argv[1:] if "=" in w or program not in _DECLARERS]
    for word in words:
        found = rebinds_by_value(word)
        if found is not None:
            return found
    if program == "hash" and any(w[:1] == "-" and "p" in w for w in argv[1:]):
        return "hash -p binds a command name to another program for the rest of the line"
    if program == "enable" and any(w[:1] != "-" for w in argv[1:]):
        return "enable changes which builtin or loaded code a command name runs"
    if program == "alias" and any(w.partition("=")[2][-1:] in (" ", "\t") for w in argv[1:]):
        return "an alias ending in a blank makes bash expand the next word as an alias too"
    if program == "set":
        words = iter(argv[1:])
        for word in words:
            if word == "-o" and next(words, "") in _HISTORY_OPTIONS:
                return "history expansion is turned on: bash rewrites later lines from its history"
            if word[:1] == "-" and word[1:2] != "-" and "H" in word:
                return "history expansion is turned on: bash rewrites later lines from its history"
    return None


def rebinds_by_value(word: str) -> str | None:
    """A word or value naming a table: its assignment, or a name made to refer to it
    (``declare -n a=BASH_ALIASES; a[x]=rm``, ``declare -n a; a=BASH_CMDS``), rebinds."""
    for table in _NAME_TABLES:
        if table in word:
            return f"{table} is assigned, which rebinds later command names"
    return None


_DECLARERS = frozenset(["declare", "typeset", "local", "export", "readonly"])
_ASSIGNS_NAMES = _DECLARERS | frozenset(["read", "mapfile", "readarray", "printf"])


def replays(command: Any) -> str | None:
    """Why ``command`` runs commands bash stored (``fc`` without ``-l`` runs the history,
    which the line may have written with ``history -s``), or None."""
    if command.program == "fc" and not any(w[:1] == "-" and "l" in w for w in command.argv[1:]):
        return "fc runs a command from the history, which the line itself may have written"
    return None


# shopt options that change what a pattern selects
GLOB_OPTIONS = frozenset(["nocaseglob", "dotglob", "extglob", "globstar", "nullglob", "failglob"])


def glob_options(command: Any) -> frozenset[str]:
    """The glob options ``shopt -s`` turns on (for the rest of the line)."""
    if command.program != "shopt" or "-s" not in command.argv:
        return frozenset()
    return GLOB_OPTIONS.intersection(command.argv)


# what hands glob options to a shell it starts: its -O/+O options and these variables
_OPTION_VARIABLES = ("BASHOPTS", "SHELLOPTS")


def glob_settings(command: Any) -> frozenset[str]:
    """The glob options ``command`` may turn on for patterns anywhere on the line (red team
    s29 E): a ``shopt`` wherever it stands (a function's body runs when called, a ``-c``
    string is a line of its own), a shell's ``-O``/``+O``, ``BASHOPTS``/``SHELLOPTS`` in its
    environment. A computed word among them could be any option: all of them."""
    words: list[str] = []
    computed = False
    if command.program == "shopt":
        words = command.argv[1:]
        computed = any(command.dynamic[1:])
    elif command.program in programs.SHELLS:
        for index, word in enumerate(command.argv[1:], start=1):
            # -O NAME, and in a cluster of short options (bash -iO dotglob: s30 E)
            clustered = word[:1] in "-+" and word[1:2] != "-" and "O" in word[1:]
            if (word in ("-O", "+O") or clustered) and index + 1 < len(command.argv):
                words.append(command.argv[index + 1])
                computed = computed or command.dynamic[index + 1]
    for name in _OPTION_VARIABLES:
        if name in command.assigned:
            value = command.env.get(name)
            if value is None or "$" in value or "`" in value:
                computed = True
            else:
                words.extend(value.split(":"))
    if computed:
        return GLOB_OPTIONS
    return GLOB_OPTIONS.intersection(words)


def as_matched(pattern: str, options: frozenset[str]) -> str | None:
    """``pattern`` as bash matches it under ``options``: with nocaseglob each letter is
    either case; an extglob group (``@(...)``, ``!(...)``) is None (unverifiable: what
    it selects is not read here). dotglob, globstar, nullglob and failglob keep the
    pattern: the matcher already lets ``*`` and ``**`` reach dot names and depth."""
    if "extglob" in options and "(" in pattern:
        return None
    if "nocaseglob" in options:
        out: list[str] = []
        inside = False  # in a bracket expression: a letter adds its other case there
        for c in pattern:
            if c == "[" and not inside:
                inside = True
                out.append(c)
            elif c == "]" and inside and out[-1] != "[":
                inside = False
                out.append(c)
            elif c.isalpha():
                both = c.lower() + c.upper()
                out.append(both if inside else f"[{both}]")
            else:
                out.append(c)
        return "".join(out)
    return pattern


def loads_code(env: dict[str, str]) -> bool:
    """Whether assignments alone (``LD_PRELOAD=x.so`` on a line of its own) may load code
    into what runs after them: such an assignment is kept as a command of its own."""
    return any(name in programs.ENV_LOADERS or name in programs.CODE_VARIABLES for name in env)


def traced(commands: list[Any]) -> bool:
    """Whether bash traces what it runs at this point of the line: the last ``set`` that
    turned ``-x``/``-v`` (``-o xtrace``/``verbose``) on or off. Traced, a sourced file's
    lines are printed as they run (``set -x; . ./.env`` prints ``+ SECRET=...``)."""
    for command in reversed(commands):
        argv: list[str] = command.argv
        if argv and command.program in programs.SHELLS and _shell_traces(argv):
            return True  # bash -xc '. ./.env; :' (red team s29 H: PS4='$SECRET ')
        if not argv or argv[0] != "set":
            continue
        for index in range(len(argv) - 1, 0, -1):
            word = argv[index]
            if argv[index - 1] in ("-o", "+o") and word in ("xtrace", "verbose"):
                return argv[index - 1] == "-o"
            if word[:1] in "-+" and word[1:].isalpha() and ("x" in word or "v" in word):
                return word[0] == "-"
    return False


def _shell_traces(argv: list[str]) -> bool:
    """Whether a shell's options (before its script or ``-c`` string) turn tracing on:
    ``-x``, ``-v``, a cluster holding either (``-xc``), ``-o xtrace``/``verbose``."""
    for index, word in enumerate(argv[1:], start=1):
        if word in ("-o", "+o"):
            continue
        if argv[index - 1] == "-o" and word in ("xtrace", "verbose"):
            return True
        if word[:1] != "-" or word == "--" or word.startswith("--"):
            if argv[index - 1] in ("-o", "+o"):
                continue
            return False
        if word[1:].isalpha() and ("x" in word or "v" in word):
            return True
    return False
