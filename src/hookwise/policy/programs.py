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


def expand_long(program: str, word: str) -> str:
    """``--rec`` -> ``--recursive`` when the program has exactly one long option so
    starting (GNU getopt's abbreviation); the word itself otherwise."""
    spec = OPTIONS.get(program)
    if spec is None or not word.startswith("--"):
        return word
    name = word.split("=", 1)[0]
    longs = spec[1]
    if name in longs:
        return name
    matches = [option for option in longs if option.startswith(name)]
    return matches[0] if len(matches) == 1 else name


def canonical_flag(program: str, flag: str) -> str:
    """The spelling a rule and a command share for one option of ``program``."""
    if flag.startswith("--"):
        flag = expand_long(program, flag)
    return _canonical_map(program).get(flag, flag)


def takes_value(program: str, option: str) -> bool:
    spec = OPTIONS.get(program)
    return spec is not None and (option in spec[2] or expand_long(program, option) in spec[2])


def flags_of(program: str, argv: list[str]) -> tuple[set[str], list[str]]:
    """(canonical flags present, positional arguments) of one simple command."""
    flags: set[str] = set()
    positional: list[str] = []
    known = program in OPTIONS
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
            name = canonical_flag(program, word)
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
            i += 2 if (option in takes and not eq) else 1
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
    if name in STRING_WRAPPERS:
        return (n, " ".join(argv[i:])) if i < n else None
    return i, None


# ---------------------------------------------------------------- find, remote, git


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
]
_COMPILED: list[tuple[Any, str]] = []


def _literals(text: str) -> list[str]:
    import re

    return [
        (a if a is not None else b).encode().decode("unicode_escape", "replace")
        for a, b in re.findall(_STRING, text)
    ]


def code_commands(code: str) -> list[tuple[str, Any]]:
    """Literal shell commands and file operations in interpreter code:
    ("script", text) | ("argv", [...]) | ("write", path) | ("unverifiable", why)."""
    import re

    if not _COMPILED:
        _COMPILED.extend((re.compile(p, re.S), kind) for p, kind in _CALLS)
    out: list[tuple[str, Any]] = []
    seen: set[str] = set()
    for pattern, kind in _COMPILED:
        for match in pattern.finditer(code):
            groups = [g for g in match.groups()]
            first = next((g for g in groups if g is not None), None)
            if kind == "pipe-shell":
                out.append(("unverifiable", "the code pipes its output to a shell"))
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
