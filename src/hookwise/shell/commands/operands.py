"""A program hookwise does not know whose operands hold a command line a policy guards:
``x86_64 rm -rf d``, ``ld.so /usr/bin/git push -f``, ``msgexec -i F rm -rf d``, ``jobs -x
git push -f``, ``perf stat -o F rm -rf d``. Any program may run its operands (a
personality switch, a loader, a profiler, a gettext filter, a tool installed tomorrow), so
a longer list of wrappers is always one short. The rule instead: the command line that
starts at an operand naming a program of :data:`~hookwise.shell.programs.OPERAND_PROGRAMS`
is a command of its own for deny and ask rules (its origin says so; it needs no approval of
its own: policy/rules/approval_cover.py). Programs whose operands are data (names,
packages, patterns, text) or whose words hookwise reads itself are not read this way.

Cold: loaded only for a command with such an operand. Standard library only."""

from __future__ import annotations

from hookwise.shell import programs

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

MAX_OPERAND_COMMANDS = 4  # command lines taken from one command's operands

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
     "return", "mktemp", "watch", "inotifywait", "lsof", "fuser",
     # package runners (what they run is a command of its own)
     "npx", "pnpx", "bunx", "uvx", "pipx"]
)  # fmt: skip


def operand_commands(command: Any, depth: int, script: Any, inner: Callable[..., None]) -> None:
    """Add the command lines in ``command``'s operands (``inner``: the parser's way of
    adding an argv as a command of its own, at ``depth`` + 1)."""
    program = command.program
    if (
        program in DATA_OPERANDS
        or program in NON_READERS
        or program in programs.OPERAND_PROGRAMS
        or program in programs.WRAPPER_NAMES
        or program in programs.RUNNER_NAMES
        or programs.family(program) is not None
    ):
        return
    argv, dynamic = command.argv, command.dynamic
    found = 0
    for index in range(1, len(argv)):
        word = argv[index]
        if dynamic[index] or word[:1] == "-":
            continue
        if word.rsplit("/", 1)[-1] in programs.OPERAND_PROGRAMS:
            inner(argv[index:], depth, script, command.text, programs.OPERANDS_ORIGIN + program)
            found += 1
            if found >= MAX_OPERAND_COMMANDS:
                return
