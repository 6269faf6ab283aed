"""Wrappers: programs that run the command given in their arguments (``sudo``, ``env``,
``timeout``, ``xargs``, ``su -c``, ``flock -c``...), and where that command starts.

Cold: needed only for a command that starts with a wrapper. The names alone are
:data:`hookwise.shell.programs.WRAPPER_NAMES` (hot), so any other command never loads
this table. Standard library only.
"""

from __future__ import annotations

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
    "prlimit": (frozenset(["-p", "--pid", "-o", "--output"]), 0, frozenset()),
    "setpriv": (
        frozenset(
            [
                "--reuid",
                "--regid",
                "--ruid",
                "--rgid",
                "--euid",
                "--egid",
                "--groups",
                "--inh-caps",
                "--ambient-caps",
                "--bounding-set",
                "--securebits",
                "--pdeathsig",
                "--selinux-label",
                "--apparmor-profile",
                "--landlock-access",
                "--landlock-rule",
                "--seccomp-filter",
            ]
        ),
        0,
        frozenset(),
    ),
    "numactl": (
        frozenset(
            [
                "-C",
                "--physcpubind",
                "-N",
                "--cpunodebind",
                "-m",
                "--membind",
                "-p",
                "--preferred",
                "-i",
                "--interleave",
            ]
        ),
        0,
        frozenset(),
    ),
    "gosu": (frozenset(), 1, frozenset()),
    "su-exec": (frozenset(), 1, frozenset()),
    "tini": (frozenset(["-e", "-p"]), 0, frozenset()),
    "dumb-init": (frozenset(["-r", "--rewrite"]), 0, frozenset()),
    "sshpass": (frozenset(["-p", "-f", "-d", "-P"]), 0, frozenset()),
    "faketime": (frozenset(["-f", "-m"]), 1, frozenset()),
    "cpulimit": (frozenset(["-l", "--limit", "-p", "--pid", "-e", "--exe"]), 0, frozenset()),
    "trickle": (frozenset(["-d", "-u", "-w", "-t", "-l", "-n"]), 0, frozenset()),
    "aa-exec": (frozenset(["-p", "--profile", "-n", "--namespace"]), 0, frozenset()),
    "runcon": (
        frozenset(["-u", "-r", "-t", "-l", "--user", "--role", "--type", "--range"]),
        0,
        frozenset(),
    ),
    "chpst": (
        frozenset(
            ["-u", "-U", "-e", "-n", "-l", "-L", "-m", "-d", "-o", "-p", "-f", "-c", "-r", "-t"]
        ),
        0,
        frozenset(),
    ),
    "setarch": (frozenset(), 1, frozenset()),
    "linux32": (frozenset(), 0, frozenset()),
    "linux64": (frozenset(), 0, frozenset()),
    "xvfb-run": (
        frozenset(["-n", "--server-num", "-s", "--server-args", "-f", "--auth-file", "-e"]),
        0,
        frozenset(),
    ),
}
# wrappers whose whole remaining argument list is one shell command string (watch 'a; b')
STRING_WRAPPERS = frozenset(["watch"])
# wrappers whose options (or operands) name a file they read into their output or write:
# wrapper -> (options read, options written, whether their operands are files written).
# ``xargs -a F`` prints F's words through the command; ``script F`` is the typescript it
# writes, ``time -o F``/``strace -o F`` their reports
WRAPPER_FILES: dict[str, tuple[tuple[str, ...], tuple[str, ...], bool]] = {
    "xargs": (("-a", "--arg-file"), (), False),
    "script": ((), ("-O", "--log-out", "-I", "--log-in", "-B", "--log-io", "-T",
                    "--log-timing"), True),
    "time": ((), ("-o", "--output"), False),
    "strace": ((), ("-o", "--output"), False),
    "ltrace": ((), ("-o", "--output"), False),
    "valgrind": ((), ("--log-file", "--xml-file"), False),
}  # fmt: skip
# wrappers whose output option pipes to a command given as ``|CMD`` or ``!CMD``
PIPED_OUTPUTS = frozenset(["strace"])
# options after which a wrapper runs nothing (sudo -l, timeout --help)
_NO_COMMAND = frozenset(["--help", "--version", "-V", "-l", "--list", "-p"])


def _with_rest(name: str, string: str, rest: list[str]) -> str:
    """``env -S STRING ARGS...`` runs STRING's words followed by ARGS (red team s30 E:
    ``env -S 'bash -O dotglob -c' 'cat ?env'``); another wrapper's string runs alone."""
    if name != "env" or not rest:
        return string
    from hookwise.shell.quote import join

    words: list[object] = [*rest]
    return f"{string} {join(words)}"


# wrappers that act on a running process instead with an option (process_targets.ACTORS)
ACTOR_WRAPPERS = frozenset(["strace", "ltrace", "ionice", "chrt", "taskset", "perf"])


def _names_pid(word: str) -> bool:
    """``-p``, ``--pid``, ``--pid=P``, ``-pP``: prlimit's process option."""
    return (
        word in ("-p", "--pid")
        or word.startswith("--pid=")
        or (word.startswith("-p") and word[2:].isdigit())
    )


def strip_wrapper(name: str, argv: list[str]) -> tuple[int, str | None] | None:
    """Where the wrapped command starts in ``argv`` (argv[0] is the wrapper), or the shell
    string the wrapper runs; None when the wrapper runs no command."""
    takes, skip, strings = WRAPPERS[name]
    if name == "prlimit" and any(_names_pid(w) for w in argv[1:]):
        return None  # prlimit --pid P: another process's limits, no command (red team s30)
    if name in ACTOR_WRAPPERS:
        from hookwise.shell.commands.process_targets import names_process

        if names_process(name, argv):  # strace -p P, ionice -p P: no command (s32 #3)
            return None
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
            if option in strings or _abbreviates(option, strings):
                if eq:
                    return n, _with_rest(name, value, argv[i + 1 :])
                return (n, _with_rest(name, argv[i + 1], argv[i + 2 :])) if i + 1 < n else None
            found = _string_in_cluster(word, strings, takes)
            if found is not None:  # script -qc CMD, env -S'CMD', env -vS CMD
                if found[1]:
                    return n, _with_rest(name, found[1], argv[i + 1 :])
                return (n, _with_rest(name, argv[i + 1], argv[i + 2 :])) if i + 1 < n else None
            if option in _NO_COMMAND and name in ("sudo", "timeout", "flock"):
                return None
            if name == "command" and _cluster_has(option, "vV", takes):
                return None  # command -v NAME / -V NAME: says what NAME is, runs nothing
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
        if name == "env" and "=" in word and not word.startswith("="):  # any NAME=VALUE
            i += 1
            continue
        if skip:
            skip -= 1
            i += 1
            continue
        break
    if name in ("su", "runuser", "sg", "script"):
        # su [-] [user] -c CMD, script [FILE] -c CMD: the command is only ever a -c string
        # (found above; script's operand is the file it writes, wrapper_files);
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


def _abbreviates(option: str, strings: frozenset[str]) -> bool:
    """``--split-str`` for ``--split-string``: getopt takes an unambiguous prefix."""
    if not option.startswith("--") or len(option) < 5:
        return False
    return len([s for s in strings if s.startswith("--") and s.startswith(option)]) == 1


def _string_in_cluster(
    word: str, strings: frozenset[str], takes: frozenset[str]
) -> tuple[str, str] | None:
    """A short option whose value is a command, in a cluster of short options: (the
    option, the rest of the word: the command, or '' when it is the next word)."""
    if word.startswith("--") or len(word) < 2:
        return None
    for index, letter in enumerate(word[1:], start=1):
        if "-" + letter in strings:
            return "-" + letter, word[index + 1 :]
        if "-" + letter in takes:
            return None  # the rest of the word is that option's value
    return None


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


def wrapper_chdir(name: str, argv: list[str]) -> str | None:
    """The directory a wrapper runs its command in (``env -C /`` runs ``rm -rf etc`` in /)."""
    options = _CHDIR.get(name)
    return None if options is None else wrapper_chdir_by(options, argv)


# Programs that run the commands they start in a directory an option names, not by a
# wrapper's argv: program -> (the subcommands it applies to, "" for any; the options that
# name the directory, or "@start" for find's start point: -execdir runs each command in
# the directory of what it found, under that start). Red team s27 #7: each was a spelling
# of `cd sub &&` that did not bring sub's scope.
_RUNS_IN: dict[str, tuple[frozenset[str], tuple[str, ...]]] = {
    "find": (frozenset([""]), ("@start",)),  # only with -execdir/-okdir (runs_in)
    "parallel": (frozenset([""]), ("--wd", "--workdir")),
    "tmux": (frozenset(["new", "new-session", "new-window", "neww", "split-window", "splitw",
                        "respawn-pane", "respawnp", "respawn-window", "respawnw"]), ("-c",)),
}  # fmt: skip


def runs_in(name: str, argv: list[str]) -> str | None:
    """The directory ``name`` runs the commands it starts in, by an option of the
    :data:`_RUNS_IN` table (``parallel --wd sub``, ``tmux new -c sub``, ``find sub
    -execdir``), or None."""
    row = _RUNS_IN.get(name)
    if row is None:
        return None
    subcommands, options = row
    if options == ("@start",):
        if not {"-execdir", "-okdir"}.intersection(argv):
            return None
        starts = [w for w in argv[1:] if not w.startswith(("-", "(", "!"))][:1]
        return starts[0] if starts else "."
    at = 1
    if "" not in subcommands:
        found = [i for i, w in enumerate(argv[1:], start=1) if w in subcommands][:1]
        if not found:
            return None
        at = found[0] + 1
    return wrapper_chdir_by(options, argv[at - 1 :])


def wrapper_chdir_by(options: tuple[str, ...], argv: list[str]) -> str | None:
    """The value of the last of ``options`` in ``argv[1:]`` (``-C DIR``, ``--chdir=DIR``,
    ``-CDIR``)."""
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


# Runners: a program whose subcommand runs the command after it (``uv run CMD``, ``poetry
# run``, ``bundle exec``, ``direnv exec DIR CMD``, ``nix-shell --run 'CMD'``...): program
# -> (subcommands, options taking a value, options whose value is a shell string,
# positionals after the subcommand before the command)
RUNNERS: dict[str, tuple[frozenset[str], frozenset[str], frozenset[str], int]] = {
    "uv": (frozenset(["run"]), frozenset(["--with", "--with-requirements", "--with-editable",
           "--python", "-p", "--directory", "--project", "--env-file", "--extra", "--group",
           "--package", "--index", "--index-url", "--extra-index-url", "-w"]), frozenset(), 0),
    "uvx": (frozenset([""]), frozenset(["--with", "--from", "--python", "-p"]), frozenset(), 0),
    "pipx": (frozenset(["run"]), frozenset(["--spec", "--python", "--pip-args"]), frozenset(), 0),
    "poetry": (frozenset(["run"]), frozenset(["-C", "--directory", "-P", "--project"]),
               frozenset(), 0),
    "pipenv": (frozenset(["run"]), frozenset(), frozenset(), 0),
    "pdm": (frozenset(["run"]), frozenset(["-p", "--project"]), frozenset(), 0),
    "hatch": (frozenset(["run"]), frozenset(["-e", "--env"]), frozenset(), 0),
    "rye": (frozenset(["run"]), frozenset(["--pyproject"]), frozenset(), 0),
    "conda": (frozenset(["run"]), frozenset(["-n", "--name", "-p", "--prefix", "--cwd"]),
              frozenset(), 0),
    "mamba": (frozenset(["run"]), frozenset(["-n", "--name", "-p", "--prefix"]), frozenset(), 0),
    "micromamba": (frozenset(["run"]), frozenset(["-n", "--name", "-p", "--prefix"]),
                   frozenset(), 0),
    "pixi": (frozenset(["run", "exec"]), frozenset(["-e", "--environment", "--manifest-path"]),
             frozenset(), 0),
    "bundle": (frozenset(["exec"]), frozenset(["--gemfile"]), frozenset(), 0),
    "direnv": (frozenset(["exec"]), frozenset(), frozenset(), 1),
    "nix-shell": (frozenset([""]), frozenset(["-p", "--packages", "-I", "--arg", "--argstr",
                  "-A", "--attr"]), frozenset(["--run", "--command"]), 0),
    "nix": (frozenset(["develop", "shell"]), frozenset(["-i", "--ignore-environment"]),
            frozenset(), 0),
    "devbox": (frozenset(["run"]), frozenset(["-c", "--config"]), frozenset(), 0),
    "mise": (frozenset(["exec", "x"]), frozenset(["-C", "--cd"]), frozenset(), 0),
    "asdf": (frozenset(["exec"]), frozenset(), frozenset(), 0),
    "op": (frozenset(["run"]), frozenset(["--env-file"]), frozenset(), 0),
    "doppler": (frozenset(["run"]), frozenset(["-p", "--project", "-c", "--config"]),
                frozenset(["--command"]), 0),
    "aws-vault": (frozenset(["exec"]), frozenset(["-d", "--duration", "-r", "--region"]),
                  frozenset(), 1),
    "dotenv": (frozenset(["", "run"]), frozenset(["-f", "-e", "-v"]), frozenset(["-c"]), 0),
    # these load an environment file into the command (commands/env_loaders.py's table)
    "dotenvx": (frozenset(["run"]), frozenset(["-f", "--env-file", "-e", "--env", "-fk",
                "--env-keys-file", "--convention", "--ignore"]), frozenset(), 0),
    "env-cmd": (frozenset([""]), frozenset(["-f", "--file", "-r", "--rc-file", "-e",
                "--environments"]), frozenset(), 0),
    "honcho": (frozenset(["run"]), frozenset(["-e", "--env", "-f", "--procfile", "-d",
               "--app-root"]), frozenset(), 0),
    "foreman": (frozenset(["run"]), frozenset(["-e", "--env", "-f", "--procfile", "-d",
                "--root"]), frozenset(), 0),
    "heroku": (frozenset(["local:run"]), frozenset(["-e", "--env", "-p", "--port"]),
               frozenset(), 0),
    # just --command CMD (-c): CMD with the justfile's dotenv loaded (a recipe on disk is
    # the project's own code: no command from the line)
    "just": (frozenset([""]), frozenset(["-E", "--dotenv-path", "-F", "--dotenv-filename",
             "-f", "--justfile", "-d", "--working-directory", "--shell", "--shell-arg",
             "--color", "--chooser", "--list-heading", "--list-prefix"]), frozenset(), 0),
}  # fmt: skip


def strip_runner(name: str, argv: list[str]) -> tuple[int, str | None] | None:
    """Where the command a runner runs starts in ``argv`` (or the shell string it runs);
    None when it runs no command (``uv sync``, ``poetry install``)."""
    subcommands, takes, strings, skip = RUNNERS[name]
    i = 1
    if "" not in subcommands:
        while i < len(argv) and argv[i].startswith("-"):
            i += 2 if argv[i] in takes else 1
        if i >= len(argv) or argv[i] not in subcommands:
            return None
        i += 1
    if name in ("nix", "just") and "-c" not in argv and "--command" not in argv:
        return None
    while i < len(argv):
        word = argv[i]
        if word == "--":
            i += 1
            break
        option, eq, value = word.partition("=")
        if option in strings:
            if eq:
                return len(argv), value
            return (len(argv), argv[i + 1]) if i + 1 < len(argv) else None
        if name in ("nix", "just") and word in ("-c", "--command"):
            i += 1
            break
        if word.startswith("-"):
            i += 2 if (option in takes and not eq) else 1
            continue
        if skip:
            skip -= 1
            i += 1
            continue
        break
    return (i, None) if i < len(argv) else None


def wrapper_files(name: str, argv: list[str]) -> list[tuple[str, str]]:
    """("read" | "write", file) for the files a wrapper's own words name (WRAPPER_FILES),
    ("script", CMD) for an output piped to a command (PIPED_OUTPUTS);
    ``argv``: the wrapper's words, up to the command it runs."""
    fact = WRAPPER_FILES.get(name)
    if fact is None:
        return []
    reads, writes, operands = fact
    takes = WRAPPERS[name][0] | WRAPPERS[name][2]  # (script -c CMD: the value is a command)
    found: list[tuple[str, str]] = []
    skip = False
    for index, word in enumerate(argv[1:], start=1):
        if skip:
            skip = False
            continue
        option, eq, value = word.partition("=")
        kind = "read" if option in reads else "write" if option in writes else None
        if kind is None and option.startswith("--") and len(option) > 3:
            # xargs --arg-f=F: getopt_long takes any unambiguous prefix (the wrapper's
            # other long options make it ambiguous at worst, and then nothing runs)
            if any(o.startswith(option) for o in reads):
                kind = "read"
            elif any(o.startswith(option) for o in writes):
                kind = "write"
        if word.startswith("-") and len(word) > 1:
            if kind is not None:
                if not eq and index + 1 < len(argv):
                    value = argv[index + 1]
                    skip = True
                if value and kind == "write" and name in PIPED_OUTPUTS and value[:1] in "|!":
                    found.append(("script", value[1:]))  # strace -o '|CMD': piped to CMD
                elif "%q{" in value:  # valgrind's %q{VAR}: the environment's value
                    value = value.replace("%q{HOME}", "~")
                    if "%q{" in value:
                        found.append(("unverifiable", f"{name} writes {value}, a path "
                                      "built from the environment when it runs"))  # fmt: skip
                    else:
                        found.append((kind, value))
                elif value:
                    found.append((kind, value))
                continue
            if len(option) > 2 and option[:2] in reads + writes and not option.startswith("--"):
                found.append(("read" if option[:2] in reads else "write", word[2:]))
                continue  # -a.env: the value attached
            skip = option in takes and not eq
            if not option.startswith("--") and not skip:
                # a cluster (script -qc CMD): the first letter taking a value takes the
                # rest of the word, or the next word when it ends the cluster
                for at, letter in enumerate(option[1:], start=2):
                    if "-" + letter in takes:
                        skip = at == len(option)
                        break
            continue
        if operands and word:
            found.append(("write", word))
    return [(kind, value) for kind, value in found if value]


def starts_shell(program: str, argv: list[str]) -> bool:
    """Whether ``argv`` of a SHELL_STARTER runs the user's shell: no command after the
    wrapper (``unshare -r``, ``su root``, ``chroot /``, ``script -q F``), ``sudo -s``/``-i``
    without one, or ``newgrp``, which never takes one."""
    if program not in WRAPPERS:
        return True
    if program == "sudo":
        return any(w in ("-s", "-i", "--shell", "--login") for w in argv[1:]) and (
            strip_wrapper(program, argv) in (None, (len(argv), None))
        )
    found = strip_wrapper(program, argv)
    return found is None or (found[1] is None and found[0] >= len(argv))
