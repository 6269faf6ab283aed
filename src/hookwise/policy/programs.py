"""What programs do with their arguments: one table, read by the shell parser and the matcher.

Two kinds of knowledge, so that rule authors write intent, not spellings:

- **options** (:data:`OPTIONS`): for common programs, which spellings are one option
  (``rm -r`` = ``-R`` = ``--recursive``), the long options GNU getopt accepts abbreviated
  (``--rec`` is ``--recursive`` when no other long option starts so), and which options
  take a value (so ``-n 5`` is not a positional ``5``). ``command: rm -r`` matches every
  spelling bash and the program accept.
- **commands run by other commands** (:func:`inner`): wrappers with their own options
  (``sudo``, ``setsid``, ``flock``, ``chroot``, ``taskset``, ``su -c``, ``script -c``,
  ``strace``, ``unshare``, ``nsenter``, ``parallel``, multi-call binaries...), ``find
  -exec/-execdir/-ok ... ;|+`` and ``-delete``, ``ssh``/``docker exec``/``kubectl exec``
  remote commands, ``git -c alias.*`` and aliases, and interpreter one-liners (``python
  -c``, ``perl -e``, ``ruby -e``, ``node -e``, ``php -r``, ``awk``) whose literal shell
  commands and file operations are commands of their own.

Standard library only; :mod:`re` is imported only for an interpreter's code.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any

# ------------------------------------------------------------------------------ options

# program -> (alias groups, first spelling canonical; long options; options taking a value)
OPTIONS: dict[str, tuple[tuple[tuple[str, ...], ...], tuple[str, ...], frozenset[str]]] = {
    "rm": (
        (
            ("-r", "-R", "--recursive"),
            ("-f", "--force"),
            ("-i",),
            ("-I",),
            ("-d", "--dir"),
            ("-v", "--verbose"),
        ),
        (
            "--recursive",
            "--force",
            "--dir",
            "--verbose",
            "--interactive",
            "--one-file-system",
            "--no-preserve-root",
            "--preserve-root",
            "--help",
            "--version",
        ),
        frozenset(),
    ),
    "cp": (
        (
            ("-r", "-R", "--recursive"),
            ("-f", "--force"),
            ("-a", "--archive"),
            ("-t", "--target-directory"),
        ),
        (
            "--recursive",
            "--force",
            "--archive",
            "--target-directory",
            "--no-clobber",
            "--backup",
            "--preserve",
            "--parents",
            "--update",
            "--verbose",
        ),
        frozenset(["-t", "--target-directory", "-S", "--suffix"]),
    ),
    "mv": (
        (("-f", "--force"), ("-t", "--target-directory"), ("-n", "--no-clobber")),
        ("--force", "--target-directory", "--no-clobber", "--backup", "--update", "--verbose"),
        frozenset(["-t", "--target-directory", "-S", "--suffix"]),
    ),
    "chmod": (
        (("-R", "--recursive"), ("-f", "--silent", "--quiet"), ("-v", "--verbose")),
        ("--recursive", "--silent", "--quiet", "--verbose", "--changes", "--reference"),
        frozenset(),
    ),
    "chown": (
        (("-R", "--recursive"), ("-f", "--silent", "--quiet"), ("-h", "--no-dereference")),
        ("--recursive", "--silent", "--quiet", "--no-dereference", "--from", "--reference"),
        frozenset(["--from", "--reference"]),
    ),
    "git": (
        (
            ("-f", "--force"),
            ("-d", "--delete"),
            ("-D",),
            ("-n", "--dry-run"),
            ("-x",),
            ("-X",),
            ("-u", "--set-upstream"),
        ),
        (
            "--force",
            "--force-with-lease",
            "--force-if-includes",
            "--delete",
            "--dry-run",
            "--set-upstream",
            "--all",
            "--mirror",
            "--tags",
            "--hard",
            "--soft",
            "--mixed",
            "--no-verify",
            "--prune",
            "--recurse-submodules",
        ),
        frozenset(
            [
                "-C",
                "-c",
                "--git-dir",
                "--work-tree",
                "-m",
                "-o",
                "--push-option",
                "--repo",
                "--exec-path",
                "--namespace",
            ]
        ),
    ),
    "dd": ((), (), frozenset()),
    "mkfs": ((("-t", "--type"), ("-f", "--force")), ("--type",), frozenset(["-t", "--type"])),
    "find": ((), (), frozenset()),
    "curl": (
        (
            ("-o", "--output"),
            ("-d", "--data"),
            ("-X", "--request"),
            ("-k", "--insecure"),
            ("-s", "--silent"),
            ("-L", "--location"),
            ("-T", "--upload-file"),
            ("-F", "--form"),
        ),
        (
            "--output",
            "--data",
            "--data-binary",
            "--data-raw",
            "--request",
            "--insecure",
            "--silent",
            "--location",
            "--upload-file",
            "--form",
            "--header",
            "--user",
        ),
        frozenset(
            [
                "-o",
                "--output",
                "-d",
                "--data",
                "--data-binary",
                "--data-raw",
                "-X",
                "--request",
                "-T",
                "--upload-file",
                "-F",
                "--form",
                "-H",
                "--header",
                "-u",
                "--user",
                "-A",
                "--user-agent",
                "-e",
                "--referer",
                "-x",
                "--proxy",
            ]
        ),
    ),
    "wget": (
        (("-O", "--output-document"), ("-q", "--quiet"), ("-r", "--recursive")),
        ("--output-document", "--quiet", "--recursive", "--post-data", "--post-file"),
        frozenset(["-O", "--output-document", "--post-data", "--post-file", "-P"]),
    ),
    "docker": (
        (
            ("-f", "--force"),
            ("-a", "--all"),
            ("-v", "--volumes"),
            ("-i", "--interactive"),
            ("-t", "--tty"),
            ("-u", "--user"),
            ("-e", "--env"),
            ("-w", "--workdir"),
        ),
        (
            "--force",
            "--all",
            "--volumes",
            "--interactive",
            "--tty",
            "--user",
            "--env",
            "--workdir",
            "--privileged",
            "--rm",
            "--detach",
        ),
        frozenset(
            [
                "-u",
                "--user",
                "-e",
                "--env",
                "-w",
                "--workdir",
                "--name",
                "-v",
                "--volume",
                "-p",
                "--publish",
                "--entrypoint",
                "--network",
                "--detach-keys",
                "-H",
                "--host",
                "--context",
                "--env-file",
            ]
        ),
    ),
    "kubectl": (
        (
            ("-n", "--namespace"),
            ("-A", "--all-namespaces"),
            ("-f", "--filename"),
            ("-c", "--container"),
            ("-i", "--stdin"),
            ("-t", "--tty"),
        ),
        (
            "--namespace",
            "--all-namespaces",
            "--filename",
            "--container",
            "--stdin",
            "--tty",
            "--all",
            "--force",
            "--grace-period",
            "--context",
            "--cascade",
        ),
        frozenset(
            [
                "-n",
                "--namespace",
                "-f",
                "--filename",
                "-c",
                "--container",
                "--context",
                "-l",
                "--selector",
                "-o",
                "--output",
                "--kubeconfig",
                "--grace-period",
            ]
        ),
    ),
    "terraform": (
        (("-auto-approve", "--auto-approve"), ("-destroy", "--destroy")),
        (),
        frozenset(["-var", "-var-file", "-target", "-chdir"]),
    ),
}

# git abbreviates long options per subcommand (``git clean --forc`` is --force there, and
# ambiguous in ``git push``): the long options of each, from ``git SUB -h`` (git 2.4x)
GIT_LONGS: dict[str, str] = {
    "push": (
        "--all --atomic --delete --dry-run --exec --follow-tags --force --force-if-includes "
        "--force-with-lease --ipv4 --ipv6 --mirror --no-verify --porcelain --progress --prune "
        "--push-option --quiet --receive-pack --recurse-submodules --repo --set-upstream "
        "--signed --tags --thin --verbose"
    ),
    "clean": "--dry-run --exclude --force --interactive --quiet",
    "reset": (
        "--hard --intent-to-add --keep --merge --mixed --no-refresh --patch "
        "--pathspec-file-nul --pathspec-from-file --quiet --recurse-submodules --soft"
    ),
    "branch": (
        "--abbrev --all --color --column --contains --copy --create-reflog --delete "
        "--edit-description --force --format --ignore-case --list --merged --move "
        "--no-contains --no-merged --points-at --quiet --recurse-submodules --remotes "
        "--set-upstream-to --show-current --sort --track --unset-upstream --verbose"
    ),
    "checkout": (
        "--conflict --detach --force --guess --ignore-other-worktrees "
        "--ignore-skip-worktree-bits --merge --orphan --ours --overlay --overwrite-ignore "
        "--patch --pathspec-file-nul --pathspec-from-file --progress --quiet "
        "--recurse-submodules --theirs --track"
    ),
    "switch": (
        "--conflict --create --detach --discard-changes --force --force-create --guess "
        "--ignore-other-worktrees --merge --orphan --overwrite-ignore --progress --quiet "
        "--recurse-submodules --track"
    ),
    "rebase": (
        "--abort --apply --autosquash --autostash --committer-date-is-author-date --continue "
        "--edit-todo --empty --exec --force-rebase --fork-point --gpg-sign --ignore-whitespace "
        "--interactive --keep-base --merge --no-ff --no-stat --no-verify --onto --quiet --quit "
        "--reapply-cherry-picks --rebase-merges --rerere-autoupdate --reschedule-failed-exec "
        "--reset-author-date --root --show-current-patch --signoff --skip --strategy "
        "--strategy-option --update-refs --verbose --whitespace"
    ),
    "gc": "--aggressive --auto --cruft --force --keep-largest-pack --prune --quiet",
    "tag": (
        "--annotate --cleanup --color --column --contains --create-reflog --delete --edit "
        "--file --force --format --ignore-case --list --local-user --merged --message "
        "--no-column --no-contains --no-merged --points-at --sign --sort --verify"
    ),
}
_GIT_LONGS: dict[str, tuple[str, ...]] = {}


def git_longs(sub: str) -> tuple[str, ...] | None:
    """The long options of ``git SUB`` (None: not in the table)."""
    found = _GIT_LONGS.get(sub)
    if found is None and sub in GIT_LONGS:
        found = _GIT_LONGS[sub] = tuple(GIT_LONGS[sub].split())
    return found


_LONG_FOR: dict[str, dict[str, str]] = {}  # program -> spelling -> canonical spelling


def _canonical_map(program: str) -> dict[str, str]:
    found = _LONG_FOR.get(program)
    if found is None:
        found = {}
        groups, _longs, _values = OPTIONS.get(program, ((), (), frozenset()))
        for group in groups:
            for spelling in group:
                found[spelling] = group[0]
        _LONG_FOR[program] = found
    return found


def expand_long(program: str, word: str, longs: Sequence[str] | None = None) -> str:
    """``--rec`` -> ``--recursive`` when the program has exactly one long option so
    starting (GNU getopt's abbreviation); the word itself otherwise. ``longs``: the
    options of a subcommand (git's), instead of the program's."""
    spec = OPTIONS.get(program)
    if spec is None or not word.startswith("--"):
        return word
    name = word.split("=", 1)[0]
    if longs is None:
        longs = spec[1]
    if name in longs:
        return name
    matches = [option for option in longs if option.startswith(name)]
    return matches[0] if len(matches) == 1 else name


def canonical_flag(program: str, flag: str, longs: Sequence[str] | None = None) -> str:
    """The spelling a rule and a command share for one option of ``program``."""
    if flag.startswith("--"):
        flag = expand_long(program, flag, longs)
    return _canonical_map(program).get(flag, flag)


def takes_value(program: str, option: str) -> bool:
    spec = OPTIONS.get(program)
    return spec is not None and (option in spec[2] or expand_long(program, option) in spec[2])


def flags_of(program: str, argv: list[str]) -> tuple[set[str], list[str]]:
    """(canonical flags present, positional arguments) of one simple command."""
    flags: set[str] = set()
    positional: list[str] = []
    known = program in OPTIONS
    longs: Sequence[str] | None = None
    if program == "git":
        at = git_subcommand(argv)
        longs = git_longs(argv[at]) if at > 0 else None
    words = iter(argv[1:])
    done = False
    for word in words:
        if done or word == "-" or not word.startswith("-") or len(word) < 2:
            if not done and word == "--":
                done = True
                continue
            positional.append(word)
            continue
        if word == "--":
            done = True
            continue
        if word.startswith("--"):
            name = canonical_flag(program, word, longs)
            flags.add(name)
            flags.add(word.split("=", 1)[0])  # the spelling as written counts too
            if known and "=" not in word and takes_value(program, word):
                next(words, None)
            continue
        if word[1].isdigit():
            positional.append(word)
            continue
        if known and program in ("terraform",):
            flags.add(canonical_flag(program, word.split("=", 1)[0]))
            continue
        for index, letter in enumerate(word[1:], start=1):
            short = "-" + letter
            flags.add(canonical_flag(program, short))
            flags.add(short)
            if known and takes_value(program, short):
                if index == len(word) - 1:
                    next(words, None)
                break
    return flags, positional


# ------------------------------------------------------------------ commands run by others

# wrapper -> (options taking a value, positionals before the command, options whose value
# is a shell command string)
WRAPPERS: dict[str, tuple[frozenset[str], int, frozenset[str]]] = {
    "sudo": (
        frozenset(
            [
                "-u",
                "-g",
                "-h",
                "-p",
                "-C",
                "-D",
                "-r",
                "-t",
                "-U",
                "-T",
                "--user",
                "--group",
                "--host",
                "--prompt",
                "--chdir",
                "--role",
                "--type",
                "--other-user",
                "--close-from",
            ]
        ),
        0,
        frozenset(),
    ),
    "doas": (frozenset(["-u", "-C"]), 0, frozenset()),
    "pkexec": (frozenset(["--user"]), 0, frozenset()),
    "env": (frozenset(["-u", "-C", "--unset", "--chdir"]), 0, frozenset(["-S", "--split-string"])),
    "command": (frozenset(), 0, frozenset()),
    "builtin": (frozenset(), 0, frozenset()),
    "exec": (frozenset(["-a"]), 0, frozenset()),
    "nohup": (frozenset(), 0, frozenset()),
    "time": (frozenset(["-f", "-o", "--format", "--output"]), 0, frozenset()),
    "nice": (frozenset(["-n", "--adjustment"]), 0, frozenset()),
    "ionice": (frozenset(["-c", "-n", "-p", "--class", "--classdata"]), 0, frozenset()),
    "chrt": (frozenset(["-T", "-P", "-D"]), 1, frozenset()),
    "stdbuf": (frozenset(["-i", "-o", "-e", "--input", "--output", "--error"]), 0, frozenset()),
    "timeout": (frozenset(["-s", "-k", "--signal", "--kill-after"]), 1, frozenset()),
    "xargs": (
        frozenset(
            [
                "-I",
                "-n",
                "-P",
                "-d",
                "-E",
                "-L",
                "-s",
                "-a",
                "-i",
                "-l",
                "-e",
                "--max-args",
                "--max-procs",
                "--delimiter",
                "--arg-file",
                "--replace",
                "--max-lines",
            ]
        ),
        0,
        frozenset(),
    ),
    "setsid": (frozenset(), 0, frozenset()),
    "flock": (
        frozenset(["-w", "--timeout", "-E", "--conflict-exit-code"]),
        1,
        frozenset(["-c", "--command"]),
    ),
    "chroot": (frozenset(["--userspec", "--groups"]), 1, frozenset()),
    "taskset": (frozenset(), 1, frozenset()),
    "watch": (
        frozenset(["-n", "--interval", "-d", "--differences", "-q", "--equexit"]),
        0,
        frozenset(),
    ),
    "su": (
        frozenset(["-s", "--shell", "-g", "--group", "-G", "--supp-group", "-w"]),
        0,
        frozenset(["-c", "--command", "--session-command"]),
    ),
    "runuser": (
        frozenset(["-u", "--user", "-g", "--group", "-G", "--supp-group", "-s", "--shell"]),
        0,
        frozenset(["-c", "--command"]),
    ),
    "sg": (frozenset(), 1, frozenset(["-c"])),
    "script": (
        frozenset(
            [
                "-t",
                "--timing",
                "-T",
                "--log-timing",
                "-I",
                "--log-in",
                "-O",
                "--log-out",
                "-B",
                "--log-io",
                "-E",
                "--echo",
                "-m",
                "--logging-format",
            ]
        ),
        0,
        frozenset(["-c", "--command"]),
    ),
    "strace": (
        frozenset(["-e", "-o", "-p", "-s", "-u", "-E", "-a", "-b", "-I", "-O", "-P", "-S", "-X"]),
        0,
        frozenset(),
    ),
    "ltrace": (
        frozenset(["-e", "-o", "-p", "-s", "-u", "-n", "-a", "-A", "-D", "-l", "-w"]),
        0,
        frozenset(),
    ),
    "unshare": (
        frozenset(
            [
                "--propagation",
                "--setgroups",
                "-S",
                "--setuid",
                "-G",
                "--setgid",
                "-R",
                "--root",
                "-w",
                "--wd",
            ]
        ),
        0,
        frozenset(),
    ),
    "nsenter": (
        frozenset(
            ["-t", "--target", "-S", "--setuid", "-G", "--setgid", "-R", "--root", "-w", "--wd"]
        ),
        0,
        frozenset(),
    ),
    "busybox": (frozenset(), 0, frozenset()),
    "toybox": (frozenset(), 0, frozenset()),
    "eatmydata": (frozenset(), 0, frozenset()),
    "fakeroot": (frozenset(["-l", "-s", "-i"]), 0, frozenset()),
    "firejail": (frozenset(), 0, frozenset()),
    "proxychains": (frozenset(["-f"]), 0, frozenset()),
    "proxychains4": (frozenset(["-f"]), 0, frozenset()),
    "torsocks": (frozenset(["-u", "-p", "-a", "-P"]), 0, frozenset()),
    "catchsegv": (frozenset(), 0, frozenset()),
    "caffeinate": (frozenset(["-w", "-t"]), 0, frozenset()),
    "systemd-run": (
        frozenset(
            [
                "-u",
                "--unit",
                "-p",
                "--property",
                "-E",
                "--setenv",
                "--slice",
                "-M",
                "--machine",
                "--uid",
                "--gid",
            ]
        ),
        0,
        frozenset(),
    ),
    "valgrind": (frozenset(), 0, frozenset()),
    "unbuffer": (frozenset(), 0, frozenset()),
    "chronic": (frozenset(), 0, frozenset()),
    "nocache": (frozenset(), 0, frozenset()),
    "ssh-agent": (frozenset(["-a", "-E", "-t", "-P"]), 0, frozenset()),
    "dbus-run-session": (frozenset(["--config-file", "--dbus-daemon"]), 0, frozenset()),
    "xvfb-run": (
        frozenset(["-n", "--server-num", "-s", "--server-args", "-f", "--auth-file", "-e"]),
        0,
        frozenset(),
    ),
}
# wrappers whose whole remaining argument list is one shell command string (watch 'a; b')
STRING_WRAPPERS = frozenset(["watch"])
# options after which a wrapper runs nothing (sudo -l, timeout --help)
_NO_COMMAND = frozenset(["--help", "--version", "-V", "-l", "--list", "-p"])

INTERPRETERS = {
    "python": ("-c",),
    "perl": ("-e", "-E"),
    "ruby": ("-e",),
    "node": ("-e", "--eval", "-p", "--print"),
    "nodejs": ("-e", "--eval", "-p", "--print"),
    "deno": ("eval",),
    "bun": ("-e", "--eval"),
    "php": ("-r",),
    "osascript": ("-e",),
}
AWKS = frozenset(["awk", "gawk", "mawk", "nawk", "busybox-awk"])
REMOTE = frozenset(["ssh", "docker", "podman", "kubectl", "oc", "nerdctl", "lxc"])
_SSH_VALUES = frozenset(
    [
        "-b",
        "-c",
        "-D",
        "-E",
        "-e",
        "-F",
        "-I",
        "-i",
        "-J",
        "-L",
        "-l",
        "-m",
        "-O",
        "-o",
        "-p",
        "-Q",
        "-R",
        "-S",
        "-W",
        "-w",
        "-B",
    ]
)


def interpreter(program: str) -> str | None:
    """The interpreter family of a program name (``python3.12`` is ``python``)."""
    base = program.rstrip("0123456789.")
    if base in INTERPRETERS:
        return base
    return None


def strip_wrapper(name: str, argv: list[str]) -> tuple[int, str | None] | None:
    """Where the wrapped command starts in ``argv`` (argv[0] is the wrapper), or the shell
    string the wrapper runs; None when the wrapper runs no command."""
    takes, skip, strings = WRAPPERS[name]
    i = 1
    n = len(argv)
    shell = False  # sudo -s / -i: the command runs through the user's shell
    while i < n:
        word = argv[i]
        if word == "--":
            i += 1
            break
        if word.startswith("-") and len(word) > 1:
            option, eq, value = word.partition("=")
            if option in strings:
                if eq:
                    return n, value
                return (n, argv[i + 1]) if i + 1 < n else None
            if (
                len(option) > 2
                and not option.startswith("--")
                and option[-1:] == "c"
                and ("-c" in strings)
            ):  # clustered: script -qc CMD, su -lc CMD
                return (n, argv[i + 1]) if i + 1 < n else None
            if option in _NO_COMMAND and name in ("sudo", "timeout", "flock"):
                return None
            if name == "sudo" and (
                option in ("--shell", "--login")
                or (not option.startswith("--") and _cluster_has(option, "si", takes))
            ):
                shell = True
            if option in takes or option.startswith("--"):
                i += 2 if (option in takes and not eq) else 1
                continue
            # a cluster of short options (env -iu VAR, sudo -Eu root): the first letter that
            # takes a value takes the rest of the word, or the next word when it ends there
            i += 1
            for index, letter in enumerate(option[1:], start=2):
                if "-" + letter in takes:
                    if index == len(option):
                        i += 1
                    break
            continue
        if name == "env" and "=" in word and word.split("=", 1)[0].isidentifier():
            i += 1
            continue
        if skip:
            skip -= 1
            i += 1
            continue
        break
    if name in ("su", "runuser", "sg"):
        # su [-] [user] -c CMD: the command is only ever a -c string (found above);
        # runuser -u user -- CMD runs argv
        if name == "runuser" and "--" in argv:
            return argv.index("--") + 1, None
        rest = argv[i:]
        for index, word in enumerate(rest):
            if word in strings and index + 1 < len(rest):
                return n, rest[index + 1]
        return None
    if name in STRING_WRAPPERS or shell:
        return (n, " ".join(argv[i:])) if i < n else None
    return i, None


def _cluster_has(option: str, letters: str, takes: frozenset[str]) -> bool:
    """Whether a short-option cluster (``-Hiu``) holds one of ``letters`` as an option (not
    inside the value of an option that takes one)."""
    for letter in option[1:]:
        if letter in letters:
            return True
        if "-" + letter in takes:
            return False
    return False


# where a wrapper runs the command it wraps (env -C DIR, sudo -D DIR)
_CHDIR = {"env": ("-C", "--chdir"), "sudo": ("-D", "--chdir"), "nsenter": ("-w", "--wd")}

# variables whose value is a command line something runs later (PROMPT_COMMAND: before each
# prompt; git's: for ssh, the pager, the editor...)
COMMAND_VARIABLES = frozenset(
    [
        "PROMPT_COMMAND",
        "GIT_SSH_COMMAND",
        "GIT_SSH",
        "GIT_PAGER",
        "GIT_EDITOR",
        "GIT_SEQUENCE_EDITOR",
        "GIT_EXTERNAL_DIFF",
        "GIT_ASKPASS",
        "GIT_PROXY_COMMAND",
        "SSH_ASKPASS",
        "SUDO_ASKPASS",
        "PAGER",
        "MANPAGER",
        "EDITOR",
        "VISUAL",
        "LESSOPEN",
        "LESSCLOSE",
        "RSYNC_RSH",
    ]
)
# variables that make a program (or the bash it starts) load code from a file
LOADER_VARIABLES = frozenset(["LD_PRELOAD", "LD_AUDIT", "BASH_ENV", "GIT_EXEC_PATH"])


def wrapper_chdir(name: str, argv: list[str]) -> str | None:
    """The directory a wrapper runs its command in (``env -C /`` runs ``rm -rf etc`` in /)."""
    options = _CHDIR.get(name)
    if options is None:
        return None
    found: str | None = None
    for index, word in enumerate(argv[1:], start=1):
        for option in options:
            if word == option and index + 1 < len(argv):
                found = argv[index + 1]
            elif word.startswith(option + "=") and option.startswith("--"):
                found = word.split("=", 1)[1]
            elif len(option) == 2 and word.startswith(option) and len(word) > 2:
                found = word[2:]
    return found


def xargs_replace(options: list[str]) -> str | None:
    """The replace string of ``xargs -I R`` / ``-i[R]`` / ``--replace[=R]`` (None: none)."""
    for index, word in enumerate(options[1:], start=1):
        if word == "-I" and index + 1 < len(options):
            return options[index + 1]
        if word.startswith("-I") and len(word) > 2:
            return word[2:]
        if word in ("-i", "--replace"):
            return "{}"
        if word.startswith("--replace="):
            return word.split("=", 1)[1] or "{}"
        if word.startswith("-i") and len(word) > 2 and not word[2:].isdigit():
            return word[2:]
    return None


# ---------------------------------------------------------------- find, remote, git


def find_selection(argv: list[str]) -> list[str]:
    """What ``find`` prints (and ``-exec {}`` gets): its tests under its start points."""
    starts: list[str] = []
    i = 1
    while i < len(argv) and not argv[i].startswith(("-", "(", "!")):
        starts.append(argv[i])
        i += 1
    return _deleted(argv, starts or ["."], tests_only=True)


def find_inner(argv: list[str]) -> list[list[str]]:
    """The commands ``find`` runs: ``-exec``/``-execdir``/``-ok``/``-okdir`` ... ``;``/``+``,
    and ``-delete`` as the recursive removal it is (``rm -r -f`` of the start points)."""
    out: list[list[str]] = []
    starts: list[str] = []
    i = 1
    while i < len(argv) and not argv[i].startswith(("-", "(", "!")):
        starts.append(argv[i])
        i += 1
    while i < len(argv):
        word = argv[i]
        if word in ("-exec", "-execdir", "-ok", "-okdir"):
            j = i + 1
            inner: list[str] = []
            selected = " ".join(_deleted(argv, starts or ["."], tests_only=True))
            while j < len(argv) and argv[j] not in (";", "+", "\\;"):
                inner.append(argv[j].replace("{}", selected))  # what find passes
                j += 1
            if inner and inner[0].rsplit("/", 1)[-1] == "rm" and "-maxdepth" not in argv:
                inner.insert(1, "-r")  # find walks the tree: rm of what it finds is recursive
            if inner:
                out.append(inner)
            i = j + 1
            continue
        if word == "-delete":
            out.append(["rm", "-r", "-f", *_deleted(argv, starts or ["."])])
        i += 1
    return out


_TESTS = frozenset(
    [
        "-name",
        "-iname",
        "-path",
        "-ipath",
        "-wholename",
        "-regex",
        "-iregex",
        "-type",
        "-newer",
        "-mtime",
        "-mmin",
        "-atime",
        "-amin",
        "-ctime",
        "-cmin",
        "-size",
        "-user",
        "-group",
        "-empty",
        "-perm",
        "-links",
        "-inum",
        "-samefile",
        "-lname",
    ]
)


def _deleted(argv: list[str], starts: list[str], *, tests_only: bool = False) -> list[str]:
    """What ``find ... -delete`` removes (and ``{}`` stands for): the start points
    themselves without tests, else what the tests select under them (``./*.pyc``), which
    stays inside a start point."""
    if not tests_only and not _TESTS.intersection(argv):
        return starts
    name = "*"
    for flag in ("-name", "-iname"):
        if flag in argv and argv.index(flag) + 1 < len(argv):
            name = argv[argv.index(flag) + 1]
    return [start.rstrip("/") + "/" + name for start in starts]


def remote_inner(program: str, argv: list[str]) -> tuple[list[str] | None, str | None]:
    """(argv, script) a remote-execution command runs elsewhere (one of them, or neither)."""
    if program == "ssh":
        i = 1
        while i < len(argv) and argv[i].startswith("-") and argv[i] != "--":
            i += 2 if argv[i] in _SSH_VALUES else 1
        if i < len(argv) and argv[i] == "--":
            i += 1
        rest = argv[i + 1 :]  # after the host
        return None, (" ".join(rest) if rest else None)
    sub = next((w for w in argv[1:] if not w.startswith("-")), "")
    if program in ("kubectl", "oc"):
        if sub in ("exec", "debug", "run") and "--" in argv:
            rest = argv[argv.index("--") + 1 :]
            return (rest or None), None
        return None, None
    if sub not in ("exec", "run"):
        return None, None
    values = OPTIONS["docker"][2] | frozenset(["-e", "--env", "-u", "--user", "-w", "--workdir"])
    i = argv.index(sub) + 1
    while i < len(argv) and argv[i].startswith("-"):
        i += 2 if (argv[i] in values and "=" not in argv[i]) else 1
    rest = argv[i + 1 :]  # after the container or image
    return (rest or None), None


def git_alias_definitions(argv: list[str]) -> dict[str, str]:
    """Aliases a git command defines: ``git -c alias.X=Y`` and ``git config [--global]
    alias.X Y``."""
    found: dict[str, str] = {}
    for index, word in enumerate(argv):
        if word == "-c" and index + 1 < len(argv) and argv[index + 1].startswith("alias."):
            name, _, value = argv[index + 1][6:].partition("=")
            found[name] = value
    if "config" in argv:
        rest = [w for w in argv[argv.index("config") + 1 :] if not w.startswith("-")]
        if len(rest) >= 2 and rest[0].startswith("alias."):
            found[rest[0][6:]] = " ".join(rest[1:])
    return found


def git_subcommand(argv: list[str]) -> int:
    """The index of git's subcommand in argv (-1: none)."""
    values = OPTIONS["git"][2]
    i = 1
    while i < len(argv):
        word = argv[i]
        if word.startswith("-"):
            i += 2 if (word in values and "=" not in word) else 1
            continue
        return i
    return -1


# ---------------------------------------------------------------- interpreter one-liners


def interpreter_code(program: str, argv: list[str]) -> str | None:
    """The code an interpreter one-liner runs (``python -c CODE``...), if any."""
    family = interpreter(program)
    if program in AWKS:
        i = 1
        while i < len(argv):
            word = argv[i]
            if word in ("-f", "--file"):
                return None
            if word in ("-F", "-v", "--assign", "--field-separator"):
                i += 2
                continue
            if word.startswith("-") and len(word) > 1:
                i += 1
                continue
            return word
        return None
    if family is None:
        return None
    flags = INTERPRETERS[family]
    for index, word in enumerate(argv[1:], start=1):
        for flag in flags:
            if word == flag and index + 1 < len(argv):
                return argv[index + 1]
            clustered = len(flag) == 2 and word[:1] == "-" and word[1:2] != "-"
            if clustered and word.endswith(flag[1]) and len(word) > 2 and index + 1 < len(argv):
                return argv[index + 1]  # python -Ic CODE
    return None


_STRING = r"""(?:'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)")"""
# (pattern, what it becomes): "sh" -> the string is a shell command; "argv" -> a list of
# string literals is an argv; otherwise a command template with {0} the path
_CALLS: list[tuple[str, str]] = [
    (
        r"\b(?:os\.system|os\.popen|commands\.getoutput|subprocess\.getoutput|"
        r"subprocess\.getstatusoutput)\(\s*" + _STRING,
        "sh",
    ),
    (r"\bsubprocess\.\w+\(\s*" + _STRING + r"[^)]*shell\s*=\s*True", "sh"),
    (r"\bsubprocess\.\w+\(\s*\[([^\]]*)\]", "argv"),
    (r"\bos\.exec\w*\(\s*" + _STRING + r"\s*,\s*\[([^\]]*)\]", "argv2"),
    (r"\b(?:system|exec|shell_exec|passthru|popen|proc_open)\s*\(\s*" + _STRING, "sh"),
    (
        r"\b(?:execSync|exec|execFileSync|spawnSync|spawn|execFile)\(\s*"
        + _STRING
        + r"\s*,\s*\[([^\]]*)\]",
        "argv2",
    ),
    (r"\b(?:execSync|exec)\(\s*" + _STRING, "sh"),
    (r"`([^`]+)`", "sh1"),
    (r"\b(?:system|exec)\s*\(?\s*qq?\s*[({\[<]([^)}\]>]*)[)}\]>]", "sh1"),
    (r"\bqx\s*[({\[/]([^)}\]/]+)[)}\]/]", "sh1"),
    (r"%x\(([^)]+)\)", "sh1"),
    (r"\bshutil\.rmtree\(\s*" + _STRING, "rm -r -f {0}"),
    (
        r"\b(?:os\.remove|os\.unlink|\.unlinkSync|File\.delete|unlink)\(\s*" + _STRING,
        "rm -f {0}",
    ),
    (r"\bos\.rmdir\(\s*" + _STRING, "rmdir {0}"),
    (
        r"\.(?:rmSync|rm|rmdirSync)\(\s*" + _STRING + r"[^)]*recursive\s*:\s*true",
        "rm -r -f {0}",
    ),
    (
        r"\b(?:FileUtils\.rm_rf|FileUtils\.rm_r|FileUtils\.remove_dir|rmtree|remove_tree)\(\s*"
        + _STRING,
        "rm -r -f {0}",
    ),
    (r"\bPath\(\s*" + _STRING + r"\s*\)\.unlink\(", "rm -f {0}"),
    (r"\bopen\(\s*" + _STRING + r"\s*,\s*['\"][wax+]", "write {0}"),
    (r"(?:\.writeFileSync|\.appendFileSync|\bFile\.write)\(\s*" + _STRING, "write {0}"),
    (r"\|\s*\"(?:sh|bash|zsh|dash)\"", "pipe-shell"),
    (r"\bdo shell script\s+" + _STRING, "sh"),  # osascript (dcg#398)
    # a command computed at run time: os.system(cmd), execSync(cmd), perl system($cmd)
    (
        r"\b(?:os\.system|os\.popen|subprocess\.\w+|execSync|spawnSync|execFileSync|"
        r"shell_exec|passthru|proc_open)\(\s*(?=[A-Za-z_$@(])(?!shell\b)",
        "computed",
    ),
    (r"\bsystem\s*\(?\s*[$@][A-Za-z_{]", "computed"),
]
# awk only: output redirected to a file, a command string read or computed
_AWK_CALLS: list[tuple[str, str]] = [
    (r"\bprintf?\b[^;}|>]*>>?\s*" + _STRING, "write {0}"),
    (_STRING + r"\s*\|\s*getline", "sh"),
    (r"\bsystem\s*\(\s*(?=[A-Za-z_$(])", "computed"),
    (r"\bprintf?\b[^;}|]*\|\s*(?=[A-Za-z_(])", "computed"),
    (r"\b[A-Za-z_]\w*\s*\|\s*getline", "computed"),
]
_COMPILED_AWK: list[tuple[Any, str]] = []
_COMPILED: list[tuple[Any, str]] = []


def _literals(text: str) -> list[str]:
    import re

    return [
        (a if a is not None else b).encode().decode("unicode_escape", "replace")
        for a, b in re.findall(_STRING, text)
    ]


def code_commands(code: str, awk: bool = False) -> list[tuple[str, Any]]:
    """Literal shell commands and file operations in interpreter code:
    ("script", text) | ("argv", [...]) | ("write", path) | ("unverifiable", why)."""
    import re

    if not _COMPILED:
        _COMPILED.extend((re.compile(p, re.S), kind) for p, kind in _CALLS)
        _COMPILED_AWK.extend((re.compile(p, re.S), kind) for p, kind in _AWK_CALLS)
    out: list[tuple[str, Any]] = []
    seen: set[str] = set()
    for pattern, kind in _COMPILED + (_COMPILED_AWK if awk else []):
        for match in pattern.finditer(code):
            groups = [g for g in match.groups()]
            first = next((g for g in groups if g is not None), None)
            if kind == "pipe-shell":
                out.append(("unverifiable", "the code pipes its output to a shell"))
            elif kind == "computed":
                out.append(("unverifiable", "the code runs a command computed when it runs"))
            elif kind in ("sh", "sh1"):
                if first is not None:
                    out.append(("script", first.encode().decode("unicode_escape", "replace")))
            elif kind == "argv":
                words = _literals(groups[0] or "")
                if words:
                    out.append(("argv", words))
            elif kind == "argv2":
                program = first or ""
                words = _literals(groups[-1] or "")
                if words and words[0].rsplit("/", 1)[-1] == program.rsplit("/", 1)[-1]:
                    words = words[1:]
                out.append(("argv", [program, *words]))
            elif first is not None:
                if kind.startswith("write"):
                    out.append(("write", first))
                else:
                    out.append(("argv", [*kind.format(first).split(" ")[:-1], first]))
    unique: list[tuple[str, Any]] = []
    for item in out:
        key = repr(item)
        if key not in seen:
            seen.add(key)
            unique.append(item)
    return unique


# ----------------------------------------------------- programs that run a command option

# git configuration whose value is a command line git runs (the ``!`` of an alias or a
# credential helper is dropped); ``*`` stands for one name part (pager.log, filter.x.clean)
GIT_COMMAND_KEYS = (
    "core.sshcommand",
    "core.pager",
    "core.editor",
    "core.askpass",
    "core.fsmonitor",
    "core.gitproxy",
    "sequence.editor",
    "diff.external",
    "pager.*",
    "credential.helper",
    "credential.*.helper",
    "gpg.program",
    "gpg.*.program",
    "uploadpack.packobjectshook",
    "filter.*.clean",
    "filter.*.smudge",
    "filter.*.process",
    "diff.*.textconv",
    "diff.*.command",
    "merge.*.driver",
    "mergetool.*.cmd",
    "difftool.*.cmd",
    "interactive.difffilter",
    "web.browser",
    "browser.*.cmd",
    "sendemail.sendmailcmd",
    "ssh.variant",
)


def _git_command_key(key: str) -> bool:
    parts = key.lower().split(".")
    for pattern in GIT_COMMAND_KEYS:
        wanted = pattern.split(".")
        if len(wanted) == len(parts) and all(
            w in ("*", p) for w, p in zip(wanted, parts, strict=True)
        ):
            return True
    return False


def _git_value(key: str, value: str) -> list[tuple[str, Any]]:
    low = key.lower()
    if low == "core.hookspath" and value not in ("", "/dev/null"):
        return [("unverifiable", f"git runs hooks from {value}, known only when it runs")]
    if low == "protocol.ext.allow" and value != "never":
        return [("unverifiable", "git may run an ext:: transport command")]
    if _git_command_key(key) and value not in ("true", "false", ""):
        return [("script", value.removeprefix("!"))]
    return []


def _git_runs(argv: list[str]) -> list[tuple[str, Any]]:
    out: list[tuple[str, Any]] = []
    at = git_subcommand(argv)
    end = at if at > 0 else len(argv)
    for index, word in enumerate(argv[1:end], start=1):
        if word == "-c" and index + 1 < end:
            key, _, value = argv[index + 1].partition("=")
            out += _git_value(key, value)
        elif word.startswith("--exec-path="):
            out.append(("unverifiable", f"git runs its programs from {word[12:]}"))
        elif word.startswith("--config-env="):
            out.append(("unverifiable", "git reads a configuration value from the environment"))
    if at > 0 and argv[at] == "config":
        rest = [w for w in argv[at + 1 :] if not w.startswith("-")]
        if rest and rest[0] in ("set", "add"):
            rest = rest[1:]
        # a persistent hooks directory is how husky and friends install a repository's
        # hooks (code of the repository, like its scripts): only command values count here
        if len(rest) >= 2 and rest[0].lower() != "core.hookspath":
            out += _git_value(rest[0], " ".join(rest[1:]))
    for word in argv[end:]:
        if word.startswith("ext::"):  # git-remote-ext: "% " is a space inside a word
            out.append(("script", word[5:].replace("% ", " ")))
    return out


def _option_values(argv: list[str], shorts: tuple[str, ...], longs: tuple[str, ...]) -> list[str]:
    """The values of options given as ``-X V``, ``-XV``, ``--long V`` or ``--long=V``."""
    out: list[str] = []
    for index, word in enumerate(argv[1:], start=1):
        following = argv[index + 1] if index + 1 < len(argv) else None
        for option in shorts:
            if word == option and following is not None:
                out.append(following)
            elif len(option) == 2 and word.startswith(option) and len(word) > 2:
                out.append(word[2:])
        for option in longs:
            if word == option and following is not None:
                out.append(following)
            elif word.startswith(option + "="):
                out.append(word[len(option) + 1 :])
    return out


def _makefile_recipes(text: str) -> list[tuple[str, Any]]:
    """Recipe lines of a makefile text (``x: ; cmd``, tab-indented lines)."""
    out: list[tuple[str, Any]] = []
    for line in text.splitlines():
        recipe = None
        if line.startswith("\t"):
            recipe = line[1:]
        elif ":" in line and ";" in line.split(":", 1)[1]:
            recipe = line.split(":", 1)[1].split(";", 1)[1]
        if recipe is not None and recipe.strip():
            out.append(("script", recipe.strip().lstrip("@-+")))
    return out


_VIMS = frozenset(["vi", "vim", "nvim", "ex", "view", "gvim", "vimdiff", "rvim", "evim"])
_NPX = {
    "npx": 1,
    "bunx": 1,
    "pnpx": 1,
    "npm": 2,  # npm exec / npm x
    "pnpm": 2,  # pnpm dlx / pnpm exec
    "yarn": 2,  # yarn dlx / yarn exec
    "bun": 2,  # bun x
}
_NPX_SUBCOMMANDS = frozenset(["exec", "x", "dlx"])
# packages whose binary is a recursive delete
RECURSIVE_DELETERS = frozenset(["rimraf", "del-cli", "trash-cli", "rm-rf"])


def _npx(program: str, argv: list[str]) -> list[tuple[str, Any]]:
    skip = _NPX[program]
    if skip == 2 and (len(argv) < 2 or argv[1] not in _NPX_SUBCOMMANDS):
        return []
    i = skip
    out: list[tuple[str, Any]] = []
    while i < len(argv) and argv[i].startswith("-"):
        word = argv[i]
        if word == "--":
            i += 1
            break
        if word in ("-c", "--call") and i + 1 < len(argv):
            out.append(("script", argv[i + 1]))
            return out
        i += 2 if word in ("-p", "--package", "--cache", "--prefix", "-w", "--workspace") else 1
    if i < len(argv):
        name = argv[i]
        base = name.rsplit("@", 1)[0] if name.rfind("@") > 0 else name
        out.append(("argv", [base.rsplit("/", 1)[-1], *argv[i + 1 :]]))
    return out


def _sed_scripts(argv: list[str]) -> list[str]:
    scripts = _option_values(argv, ("-e",), ("--expression",))
    if scripts or any(w in ("-f", "--file") or w.startswith("--file=") for w in argv):
        return scripts
    for index, word in enumerate(argv[1:], start=1):
        if word.startswith("-") and len(word) > 1:
            continue
        if argv[index - 1] in ("-l", "--line-length"):
            continue
        return [word]
    return []


def sed_commands(script: str) -> list[tuple[str, Any]]:
    """What a (GNU) sed script runs or writes: ``e CMD`` and the ``e`` flag of ``s``, ``w
    FILE`` and the ``w`` flag. Reading stops where the script is not understood."""
    out: list[tuple[str, Any]] = []
    i = 0
    n = len(script)

    def to_eol(at: int) -> tuple[str, int]:
        end = script.find("\n", at)
        end = n if end < 0 else end
        return script[at:end].strip(), end

    def delimited(at: int, delimiter: str) -> int:
        while at < n and script[at] != delimiter:
            at += 2 if script[at] == "\\" else 1
        return at + 1

    for _ in range(10_000):
        while i < n and script[i] in " \t\n;{}!0123456789$,~+":
            i += 1
        if i >= n:
            break
        ch = script[i]
        if ch == "/":
            i = delimited(i + 1, "/")
            continue
        if ch == "\\" and i + 1 < n:
            i = delimited(i + 2, script[i + 1])
            continue
        i += 1
        if ch in "s" and i < n:
            delimiter = script[i]
            i = delimited(delimited(i + 1, delimiter), delimiter)
            flags_start = i
            while i < n and script[i] not in ";\n}w":
                i += 1
            if "e" in script[flags_start:i]:
                out.append(("unverifiable", "sed runs the pattern space as a command (s///e)"))
            if i < n and script[i] == "w":
                target, i = to_eol(i + 1)
                out.append(("write", target))
        elif ch == "y" and i < n:
            delimiter = script[i]
            i = delimited(delimited(i + 1, delimiter), delimiter)
        elif ch == "e":
            command, i = to_eol(i)
            if command:
                out.append(("script", command))
            else:
                out.append(("unverifiable", "sed runs the pattern space as a command (e)"))
        elif ch in "wW":
            target, i = to_eol(i)
            out.append(("write", target))
        elif ch in "aicrRbtT:qQlLvF#":
            _text, i = to_eol(i) if ch not in "bBtTqQlL" else (None, i)
            if ch in "bBtT:":
                while i < n and script[i] not in ";\n}":
                    i += 1
        elif ch not in "dDgGhHnNpPxz=":
            break
    return out


def runs(program: str, argv: list[str], stdin: list[str]) -> list[tuple[str, Any]]:
    """Commands a program runs from its options: ``git -c core.pager=CMD``, ``tar
    --to-command=CMD``, ``rsync -e CMD``, ``zip -TT CMD``, ``vim -c '!CMD'``, ``make
    --eval``, ``npx PKG``, ``sed 'e CMD'``... as ("script" | "argv" | "write" |
    "unverifiable", value), the kinds of :func:`code_commands`."""
    if program == "git":
        return _git_runs(argv)
    if program in ("tar", "gtar", "bsdtar"):
        values = _option_values(
            argv,
            ("-I", "-F"),
            (
                "--to-command",
                "--use-compress-program",
                "--info-script",
                "--new-volume-script",
                "--rsh-command",
            ),
        )
        for word in argv:
            if word.startswith("--checkpoint-action=exec="):
                values.append(word[len("--checkpoint-action=exec=") :])
        return [("script", v) for v in values]
    if program == "rsync":
        out: list[tuple[str, Any]] = [
            ("script", v) for v in _option_values(argv, ("-e",), ("--rsh",))
        ]
        return out + _rsync_delete(argv)
    if program == "zip":
        return [("script", v) for v in _option_values(argv, ("-TT",), ("--unzip-command",))]
    if program in _VIMS:
        commands = _option_values(argv, ("-c",), ("--cmd",))
        commands += [w[1:] for w in argv[1:] if w.startswith("+")]
        found: list[tuple[str, Any]] = []
        for text in commands:
            if "!" in text:
                found.append(("script", text.split("!", 1)[1]))
            found += code_commands(text)
        return found
    if program in ("make", "gmake"):
        found = []
        for text in _option_values(argv, ("-E",), ("--eval",)):
            found += _makefile_recipes(text)
        files = _option_values(argv, ("-f",), ("--file", "--makefile"))
        if any(f in ("-", "/dev/stdin") for f in files):
            for text in stdin:
                found += _makefile_recipes(text)
        for word in argv[1:]:
            if word.startswith("SHELL="):
                found.append(("script", word[6:]))
        return found
    if program in _NPX:
        return _npx(program, argv)
    if program == "tmux":
        return _tmux(argv)
    if program == "screen":
        return _screen(argv)
    if program in ("compgen", "complete"):  # -C CMD runs CMD for completions (Bamboo#584)
        return [("script", v) for v in _option_values(argv, ("-C",), ())]
    if program in RECURSIVE_DELETERS:
        operands = [w for w in argv[1:] if not w.startswith("-")]
        return [("argv", ["rm", "-r", "-f", *operands])] if operands else []
    if program in ("sed", "gsed"):
        found = []
        for text in _sed_scripts(argv):
            found += sed_commands(text)
        return found
    return []


def _rsync_delete(argv: list[str]) -> list[tuple[str, Any]]:
    """``rsync --delete SRC DEST`` removes what DEST holds beyond SRC: a recursive delete of
    a local DEST (``host:path`` and ``rsync://`` are another machine's)."""
    if not any(w.startswith("--delete") or w == "--del" for w in argv):
        return []
    operands = [w for w in argv[1:] if not w.startswith("-")]
    if len(operands) < 2:
        return []
    dest = operands[-1]
    head = dest.split("/", 1)[0]
    if ":" in head or dest.startswith("rsync://"):
        return []
    return [("argv", ["rm", "-r", "-f", dest])]


_TMUX_RUNS = frozenset(
    [
        "new",
        "new-session",
        "new-window",
        "neww",
        "split-window",
        "splitw",
        "respawn-pane",
        "respawnp",
        "respawn-window",
        "respawnw",
        "run-shell",
        "run",
        "send-keys",
        "send",
        "display-popup",
        "popup",
    ]
)
_TMUX_VALUES = frozenset(["-s", "-n", "-t", "-c", "-x", "-y", "-F", "-e", "-l", "-L", "-S", "-f"])


def _tmux(argv: list[str]) -> list[tuple[str, Any]]:
    """``tmux new -d 'cmd'``, ``tmux send-keys 'cmd' Enter``: the shell command it runs
    (or types into a shell)."""
    i = 1
    while i < len(argv) and argv[i].startswith("-"):
        i += 2 if argv[i] in ("-L", "-S", "-f") else 1
    if i >= len(argv) or argv[i] not in _TMUX_RUNS:
        return []
    sub = argv[i]
    i += 1
    rest: list[str] = []
    while i < len(argv):
        word = argv[i]
        if word.startswith("-") and len(word) > 1 and not rest:
            i += 2 if word in _TMUX_VALUES else 1
            continue
        rest.append(word)
        i += 1
    if sub in ("send-keys", "send"):
        rest = [w for w in rest if w not in ("Enter", "C-m", "KPEnter")]
    return [("script", " ".join(rest))] if rest else []


def _screen(argv: list[str]) -> list[tuple[str, Any]]:
    """``screen -dm cmd args`` runs argv; ``screen -X stuff 'cmd\\n'`` types a command."""
    if "-X" in argv:
        at = argv.index("-X")
        words = argv[at + 1 :]
        if len(words) >= 2 and words[0] == "stuff":
            return [("script", " ".join(words[1:]).replace("\\n", "\n").replace("^M", "\n"))]
        return []
    i = 1
    while i < len(argv) and argv[i].startswith("-"):
        word = argv[i]  # -S NAME, -dmS NAME: a cluster ending in an option that takes one
        i += 2 if len(word) > 1 and word[1] != "-" and word[-1] in "SchpTtes" else 1
    return [("argv", argv[i:])] if i < len(argv) else []
