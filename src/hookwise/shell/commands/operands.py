"""A program hookwise does not know whose operands hold a command line: ``x86_64 rm -rf
d``, ``x86_64 awk 'BEGIN{system(...)}'``, ``ld.so /usr/bin/git push -f``, ``choom -n 0 --
sed -n '1e CMD' F``, ``perf stat -o F make --eval=...``. Any program may run its operands
(a personality switch, a loader, a profiler, a gettext filter, a tool installed
tomorrow), so a longer list of wrappers is always one short. The rule instead: the
command line that starts at an operand naming a program the analysis knows anything
about (a guarded program, a code reader, a wrapper, a program with a handler or an option
table), or any executable program followed by arguments, is a command of its own for
deny and ask rules (its origin says so; it needs no approval of its own:
policy/rules/approval_cover.py). Then everything hookwise reads in that program (its
code, its options, its reads) is read as if it were the command's own program. Programs
whose operands are data (:data:`~hookwise.shell.programs.DATA_OPERANDS`) or whose words
hookwise reads itself are not read this way (programs.reads_operands).

Cold: loaded only for an unknown program with an operand. Standard library only."""

from __future__ import annotations

import posix  # (builtin: os costs the hook's cold path its imports)

from hookwise.shell import programs

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

MAX_OPERAND_COMMANDS = 4  # command lines taken from one command's operands
MAX_LOOKUPS = 8  # operands looked up on PATH for one command

# programs whose operands are data (what to look up, install, kill, print, compare) or
# code on disk with its arguments (cargo run -- x: the project's program, not a command
# line): ``man git push``, ``apt-get install git curl``, ``pkill rsync`` run neither
DATA_OPERANDS = frozenset(
    ["man", "info", "whatis", "apropos", "help", "tldr", "whereis", "type", "hash",
     "complete", "compgen", "history", "fc", "apt", "apt-get", "apt-cache", "aptitude", "dpkg",
     "dpkg-query", "rpm", "dnf", "yum", "zypper", "apk", "pacman", "brew", "port", "snap",
     "flatpak", "nix-env", "pip", "pip3", "npm", "yarn", "pnpm", "gem", "cargo", "go",
     "composer", "mvn", "gradle", "dotnet", "just", "task", "pgrep", "pkill", "killall",
     "pidof", "systemctl", "service", "update-alternatives", "diff", "cmp", "comm", "tar",
     "zip", "unzip", "gzip", "xz", "bzip2", "zstd", "sort", "uniq", "head", "tail", "less",
     "more", "cut", "tr", "wc", "shellcheck", "shfmt", "say", "notify-send", "logger",
     "gh", "glab", "jq", "yq", "basename", "dirname", "seq", "expr", "let", "read",
     "getopts", "printenv", "id", "groups", "pwd", "date", "uname", "hostname", "tput",
     "stty", "sleep", "usleep"]
)  # fmt: skip
# Programs that take file operands without putting their contents in their output or
# sending them anywhere (they list, test, move, copy on disk, hash, use a key, or generate
# one), and the searchers and shells whose operands are patterns or code that other rules
# read. Every other program reads the files it is given: a rule's `reads: true`
# (policy/rules/loader.py) matches it, so a reader nobody listed (fold, rev, iconv,
# column, split, a tool installed tomorrow) is one.
NON_READERS = frozenset(
    ["ls", "dir", "vdir", "stat", "file", "test", "[", "[[", "chmod", "chown", "chgrp",
     "chattr", "lsattr", "getfacl", "setfacl", "touch", "mkdir", "rmdir", "rm", "shred",
     "unlink", "ln", "cp", "mv", "install", "realpath", "readlink", "basename", "dirname",
     "du", "df", "wc", "md5sum", "sha1sum", "sha224sum", "sha256sum", "sha384sum",
     "sha512sum", "b2sum", "cksum", "sum", "find", "fd", "fdfind", "locate", "which", "type",
     "command", "cd", "pushd", "popd", "echo", "printf", "true", "false", ":", "export",
     "unset", "set", "shopt", "alias", "hash", "declare", "local", "readonly", "typeset",
     "source", ".", "ssh", "ssh-add", "ssh-keygen", "ssh-copy-id", "ssh-keyscan", "openssl",
     "mkcert", "certbot", "age-keygen", "git", "docker", "podman", "docker-compose",
     "nerdctl", "kubectl", "helm", "dotenv", "dotenvx", "direnv", "env-cmd", "sync",
     "grep", "egrep", "fgrep", "rg", "ag", "ack", "sleep", "kill", "wait", "trap", "exit",
     "return", "mktemp", "watch", "inotifywait", "lsof", "fuser", "let",
     # package runners (what they run is a command of its own)
     "npx", "pnpx", "bunx", "uvx", "pipx"]
)  # fmt: skip


# every program some table of the analysis says something about: named in an operand, it
# starts a command line the analysis reads (not DATA_OPERANDS: `x86_64 sort` is not a
# wrapper's data, but man/apt/pkill's operands never are commands, so they stay data)
KNOWN = (
    programs.OPERAND_PROGRAMS
    | programs.WRAPPER_NAMES
    | programs.RUNNER_NAMES
    | programs.RUNS_PROGRAMS
    | programs.CODE_READERS
    | programs.TREE_READERS
    | programs.NAME_READERS
    | NON_READERS
    | frozenset(programs.OPTIONS)
    | frozenset(programs.DATA_INCLUDERS)
    | frozenset(programs.DATA_WRITERS)
    | frozenset(["hookwise"])
) - frozenset([".", "source"])  # a shell's builtins, and `.` as an operand is a directory


def known(name: str) -> bool:
    """Whether the analysis knows what ``name`` runs, reads or writes."""
    return name in KNOWN or programs.family(name) is not None


def _executable_file(path: str) -> bool:
    try:
        mode = posix.stat(path).st_mode
    except (OSError, ValueError):
        return False
    return mode & 0o170000 == 0o100000 and posix.access(path, posix.X_OK)


def executable(word: str) -> bool:
    """Whether ``word`` names an executable file: a path, or a name found on PATH."""
    if "/" in word:
        return _executable_file(word)
    if not word or word in (".", ".."):
        return False
    found = posix.environ.get(b"PATH") or b"/bin:/usr/bin"
    for directory in found.decode("utf-8", "surrogateescape").split(":"):
        if _executable_file(f"{directory or '.'}/{word}"):
            return True
    return False


def operand_commands(command: Any, depth: int, script: Any, inner: Callable[..., object]) -> None:
    """Add the command lines in ``command``'s operands (``inner``: the parser's way of
    adding an argv as a command of its own, at ``depth`` + 1)."""
    program = command.program
    if not programs.reads_operands(program):
        return
    argv, dynamic = command.argv, command.dynamic
    found = lookups = 0
    for index in range(1, len(argv)):
        word = argv[index]
        if dynamic[index] or word[:1] == "-" or "=" in word.split("/", 1)[0]:
            continue
        named = known(word.rsplit("/", 1)[-1])
        if not named and index + 1 < len(argv) and lookups < MAX_LOOKUPS:
            lookups += 1  # an executable followed by its arguments: it may be run
            named = executable(word)
        if named:
            origin = programs.OPERANDS_ORIGIN + program
            inner(argv[index:], depth, script, command.text, origin, inherits=command)
            found += 1
            if found >= MAX_OPERAND_COMMANDS:
                return
