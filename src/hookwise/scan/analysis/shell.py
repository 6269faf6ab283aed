"""Facts of shell text (a hook's command line or a shell script), through the policy parser.

``shell/parser.split_command`` gives every simple command with wrappers, assignments and
keywords taken off, redirect targets, ``bash -c``/``eval``/substitution bodies and
interpreter one-liners parsed as commands of their own, and the pipe each reads from; the
facts are read from those commands, never from regexes over the raw text (except for the
two things the parser drops on purpose: bare ``NAME=value`` assignments and PowerShell).
"""

from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING, Final

from hookwise.scan import catalog
from hookwise.scan.analysis.facts import ScriptRef
from hookwise.scan.analysis.scripts import resolve, script_paths
from hookwise.scan.locate import line_of_offset
from hookwise.shell import programs
from hookwise.shell.parser import Command, split_command
from hookwise.shell.programs import SHELLS
from hookwise.shell.scripts import reads_stdin

if TYPE_CHECKING:
    from hookwise.scan.analysis.runnable_analyser import RunnableAnalyser

__all__ = ["analyse_shell"]

_SUBSTITUTION: Final = re.compile(r"\$\(|`|<\(")
_ASSIGN: Final = re.compile(
    r"(?:^|[\s;&|(])(?:export\s+|declare\s+-x\s+|typeset\s+-x\s+)?([A-Za-z_][A-Za-z0-9_]*)=(\"[^\"]*\"|'[^']*'|[^\s;&|]*)",
    re.M,
)
_BARE_ENV: Final = re.compile(r"(?:^|[;&|(]|\$\()\s*(?:env|printenv)\s*(?=[|>;&)]|$)", re.M)
"""``env`` alone prints the environment; the parser drops it (a wrapper running nothing)."""
_NAMES_ONLY: Final = re.compile(
    r"""\s*\|\s*(?:cut\s+(?:-d\s*['"]?=['"]?\s+-f\s*1|-f\s*1\s+-d\s*['"]?=['"]?)(?![\d,-])"""
    r"""|awk\s+-F\s*['"]?=['"]?\s+['"]\{\s*print\s+\$1\s*\}['"]"""
    r"""|sed\s+(?:-e\s+)?['"]s/=\.\*\$?//['"])"""
)
"""A stage after ``env`` that keeps only the names."""
# $NAME, ${NAME}, ${NAME:-x}; not ${NAME+x} / ${NAME:+x} (whether it is set, not its value)
_ENV_REF: Final = re.compile(
    r"\$(?:\{([A-Za-z_][A-Za-z0-9_]*)(?![A-Za-z0-9_]|:?\+)|([A-Za-z_][A-Za-z0-9_]*))"
)
_NOT_EXPORTED: Final = frozenset(["PATH", "SHELL", "EDITOR", "VISUAL", "PAGER", "ENV"])
_GIT_PERSIST_KEYS: Final = (
    "core.hookspath",
    "core.sshcommand",
    "core.fsmonitor",
    "core.pager",
    "alias.",
    "include.path",
    "credential.helper",
)


def _locator(text: str, base: int, located: bool) -> tuple[dict[int, int], list[Command]]:
    """Lines of the commands of ``text`` (``base`` when it is a one-line command)."""
    script = split_command(text)
    lines: dict[int, int] = {}
    cursor = 0
    anchor = 0
    for command in script.commands:
        if not located:
            lines[id(command)] = base
            continue
        needle = command.text
        start = cursor if command.depth == 0 else anchor
        offset = text.find(needle, start) if needle else -1
        if offset < 0 and needle:
            offset = text.find(needle)
        if offset < 0:
            offset = anchor
        elif command.depth == 0:
            anchor = offset
            cursor = offset + len(needle)
        lines[id(command)] = base + line_of_offset(text, offset) - 1
    return lines, script.commands


def analyse_shell(an: RunnableAnalyser, text: str, file: str, line: int, *, located: bool) -> None:
    """Record the facts of ``text``; ``located``: it is a file's text starting at ``line``."""
    lines, commands = _locator(text, line, located)
    for command in commands:
        _command(an, command, file, lines[id(command)])
    _assignments(an, text, file, line, located)
    for match in _BARE_ENV.finditer(text):
        if _NAMES_ONLY.match(text, match.end()):
            continue  # env | cut -d= -f1: the names, not the values
        where = line + line_of_offset(text, match.start()) - 1 if located else line
        an.sink.add("env-dump", "`env` prints every variable", file, where, match.group(0).strip())
    an.powershell_text(text, file, line, located=located)


def _assignments(an: RunnableAnalyser, text: str, file: str, base: int, located: bool) -> None:
    for match in _ASSIGN.finditer(text):
        name, value = match.group(1), match.group(2).strip("\"'")
        if name not in catalog.HIJACK_VARS or name in _NOT_EXPORTED:
            continue
        if name == "NODE_OPTIONS" and not catalog.NODE_CODE_FLAGS.search(value):
            continue
        where = base + line_of_offset(text, match.start()) - 1 if located else base
        an.sink.add("env-export", f"sets {name}={value[:80]}", file, where, match.group(0).strip())


def _words_after_options(argv: list[str]) -> list[str]:
    return [w for w in argv[1:] if not w.startswith("-")]


def _pipeline(command: Command) -> list[Command]:
    found: list[Command] = []
    current = command.piped_from
    while current is not None and len(found) < 32:
        found.append(current)
        current = current.piped_from
    return found


def _decodes(command: Command) -> bool:
    program, argv = command.program, command.argv
    if program in ("base64", "base32", "basenc"):
        return any(
            w in ("-d", "--decode", "-D")
            or (w.startswith("-") and "d" in w[1:] and not w.startswith("--"))
            for w in argv[1:]
        )
    if program == "xxd":
        return any(w.startswith("-r") for w in argv[1:])
    if program == "openssl":
        return "-d" in argv or ("base64" in argv[1:2] and "-d" in argv)
    if program in ("uudecode", "gunzip", "zcat", "bunzip2", "xz", "unxz"):
        return program != "xz" or "-d" in argv
    if program == "gpg":
        return "-d" in argv or "--decrypt" in argv
    return False


def _fetches(command: Command) -> bool:
    program = command.program
    if program in catalog.FETCHERS:
        return True
    if program.lower() in catalog.POWERSHELLS or program.lower() in (
        "iwr",
        "irm",
        "invoke-webrequest",
        "invoke-restmethod",
    ):
        return bool(
            re.search(
                r"(?i)\b(iwr|irm|invoke-webrequest|invoke-restmethod|downloadstring|downloadfile|webclient)\b",
                command.text,
            )
        )
    return False


def _runs_stdin(command: Command) -> bool:
    """A shell or interpreter that runs what comes in on stdin."""
    program, argv = command.program, command.argv
    family = programs.interpreter(program)
    if program in SHELLS:
        return reads_stdin(argv)
    if family in ("python", "perl", "ruby", "node", "nodejs", "php") or program in ("bun", "deno"):
        return len(argv) == 1 or "-" in argv[1:]
    return program.lower() in ("iex", "invoke-expression") or (
        program.lower() in catalog.POWERSHELLS
        and ("-" in argv[1:] or ("-Command" in argv and argv[-1] == "-"))
    )


def _substitution_verdict(words: list[str]) -> str | None:
    """download-exec / decode-exec / eval-dynamic for code built from substitutions."""
    verdict: str | None = None
    for word in words:
        if not _SUBSTITUTION.search(word):
            continue
        inner = split_command(word.replace("<(", "$(")).commands
        if any(_fetches(c) for c in inner):
            return "download-exec"
        if any(_decodes(c) for c in inner):
            verdict = "decode-exec"
        elif verdict is None:
            verdict = "eval-dynamic"
    return verdict


def _executed_words(command: Command) -> list[str]:
    """The words whose text is run as code by ``command``."""
    argv, program = command.argv, command.program
    if not argv:
        return []
    if command.dynamic and command.dynamic[0]:
        return [argv[0]]
    if program == "eval":
        return argv[1:]
    if program in catalog.SHELL_SOURCES or (program in SHELLS and "-c" not in argv):
        # a file name: a path computed by a substitution (source "$(dirname "$0")/x.sh")
        # is not code; a process substitution (<(...)) is the code itself
        operands = [w for w in argv[1:] if not w.startswith("-")][:1]
        return [w for w in operands if w.startswith("<(")]
    if program in SHELLS:
        return argv[argv.index("-c") + 1 :][:1]
    family = programs.interpreter(program)
    if family is not None:
        code = programs.interpreter_code(program, argv)
        return [code] if code is not None else [w for w in argv[1:] if w.startswith("<(")][:1]
    return []


def _command(an: RunnableAnalyser, command: Command, file: str, line: int) -> None:
    argv, program = command.argv, command.program
    sink = an.sink
    evidence = command.text
    # -- code from the network or from a decoder, run
    executed = _executed_words(command)
    verdict = _substitution_verdict(executed)
    if _runs_stdin(command):
        upstream = _pipeline(command)
        if any(_fetches(c) for c in upstream):
            verdict = "piped"
            sink.add(
                "download-exec", f"pipes a download into {program}", file, line, _pipe_text(command)
            )
        elif any(_decodes(c) for c in upstream):
            verdict = "piped"
            sink.add(
                "decode-exec", f"pipes decoded data into {program}", file, line, _pipe_text(command)
            )
    shown = program if command.dynamic and not command.dynamic[0] else "the shell"
    if verdict == "download-exec":
        sink.add(verdict, f"{shown} runs the output of a download", file, line, evidence)
    elif verdict == "decode-exec":
        sink.add(verdict, f"{shown} runs decoded data", file, line, evidence)
    elif verdict == "eval-dynamic" and program in ("eval", *SHELLS, *catalog.SHELL_SOURCES):
        sink.add(verdict, f"{program} runs the output of a command", file, line, evidence)
    # -- network
    if _fetches(command):
        sink.add("fetch", f"{program} reaches the network", file, line, evidence)
        options = set(argv[1:])
        if any(
            w in catalog.UPLOAD_OPTIONS
            or w.split("=", 1)[0] in catalog.UPLOAD_OPTIONS
            or (w.startswith("-d") and len(w) > 2 and not w.startswith("--"))
            for w in options
        ) or ("-X" in argv and any(m in argv for m in ("POST", "PUT"))):
            sink.add("send", f"{program} uploads data", file, line, evidence)
    if program in ("nc", "ncat", "netcat", "socat", "telnet") or (
        program == "openssl" and "s_client" in argv
    ):
        sink.add("send", f"{program} opens a raw network connection", file, line, evidence)
    if program in catalog.COPIERS and any(
        re.match(r"^[\w.@-]+:", w) and not w.startswith(("/", "./")) for w in argv[1:]
    ):
        sink.add("send", f"{program} copies files to another machine", file, line, evidence)
    if program == "ssh":
        sink.add("fetch", "ssh connects to another machine", file, line, evidence)
    if any("/dev/tcp/" in t or "/dev/udp/" in t for t in [*command.redirects, *argv]):
        sink.add("send", "opens a network connection through /dev/tcp", file, line, evidence)
    # -- packages fetched and run
    runner = program in catalog.REGISTRY_RUNNERS or (
        program in catalog.REGISTRY_SUBCOMMANDS
        and catalog.REGISTRY_SUBCOMMANDS[program] in argv[1:3]
    )
    if runner:
        package = next(
            (w for w in argv[1:] if not w.startswith("-") and w not in ("dlx", "run", "tool")), ""
        )
        pinned = bool(re.search(r".@\d|==\d", package))
        unattended = program != "npx" or any(w in ("-y", "--yes") for w in argv[1:])
        state = "pinned" if pinned else ("not pinned" if unattended else "local or asks first")
        sink.add(
            "registry-run",
            f"{program} downloads and runs {package or 'a package'} ({state})",
            file,
            line,
            evidence,
        )
    # -- nested code
    family = programs.interpreter(program)
    code = programs.interpreter_code(program, argv)
    if code is not None and family == "python":
        an.python(code, file, line, located=False)
    elif code is not None and family in ("node", "nodejs"):
        an.node(code, file, line, located=False)
    if program.lower() in catalog.POWERSHELLS:
        an.powershell_text(" ".join(argv[1:]), file, line, located=False)
    # -- scripts and programs it runs
    resolved = False
    for word, hint in script_paths(command):
        resolved = _script(an, word, hint, file=file, line=line, evidence=evidence) or resolved
    # -- writes
    for target in _write_targets(command):
        _write(an, command, target, file, line)
    _persistence(an, command, file, line)
    # -- credentials
    _credentials(an, command, file, line)
    # -- destructive removal outside the repository
    if program == "rm" and any(
        w.startswith("-") and ("r" in w.lower() or w == "--recursive") for w in argv[1:]
    ):
        for target in _words_after_options(argv):
            form = catalog.home_form(target, an.home)
            if form in ("~", "~/", "~/*", "/", "/*", "..", "../*") or (
                form.startswith("~/.") and form.count("/") == 1
            ):
                sink.add("destroy", f"rm -r removes {target}", file, line, evidence)
    # -- exports
    if program in ("export", "declare", "typeset", "setenv"):
        for word in argv[1:]:
            name, _, value = word.partition("=")
            if name in catalog.HIJACK_VARS and name not in _NOT_EXPORTED:
                if name == "NODE_OPTIONS" and not catalog.NODE_CODE_FLAGS.search(value):
                    continue
                sink.add("env-export", f"exports {name}={value[:80]}", file, line, evidence)
    if command.unverifiable and not verdict and not (resolved and command.dynamic[:1] == [True]):
        sink.add("unverifiable", command.unverifiable, file, line, evidence)


def _pipe_text(command: Command) -> str:
    parts = [c.text for c in reversed(_pipeline(command))]
    return " | ".join([*parts, command.text])


def _script(
    an: RunnableAnalyser, word: str, hint: str | None, *, file: str, line: int, evidence: str
) -> bool:
    """Record the script ``word`` names; False when its path cannot be known."""
    own = any(ref.path == file for ref in an.sink.scripts)  # (a script's own text)
    path = resolve(
        word,
        an.variables,
        an.home,
        an.cwd,
        script_dir=os.path.dirname(file) if own else None,
        project=str(an.ctx.project),
    )
    if path is None:
        return False
    an.sink.scripts.append(ScriptRef(path, hint, file, line))
    if an.ctx.inside(path):
        return True
    shown = catalog.home_form(path, an.home)
    home = an.home.rstrip("/") + "/"
    if path.startswith(catalog.TEMP_PREFIXES) and not path.startswith(home):
        an.sink.add("temp-exec", f"runs {shown} from a temporary directory", file, line, evidence)
    elif not path.startswith(catalog.SYSTEM_PREFIXES) and an.repository:
        an.sink.add("outside-exec", f"runs {shown}, outside the repository", file, line, evidence)
    return True


def _write_targets(command: Command) -> list[str]:
    argv, program = command.argv, command.program
    targets = list(command.writes)
    operands = _words_after_options(argv)
    if program == "tee":
        targets += operands
    elif program in ("cp", "mv", "install", "ln", "rsync") and len(operands) >= 2:
        targets.append(operands[-1])
    elif program == "sed" and any(w.startswith("-i") or w == "--in-place" for w in argv[1:]):
        targets += operands[1:]
    elif program == "dd":
        targets += [w[3:] for w in argv[1:] if w.startswith("of=")]
    elif program in ("touch", "truncate", "chmod"):
        targets += operands[1:] if program == "chmod" else operands
    return targets


def _write(an: RunnableAnalyser, command: Command, target: str, file: str, line: int) -> None:
    sink = an.sink
    expanded = catalog.home_form(target, an.home)
    content = " ".join(command.argv[1:]) + "".join(command.stdin)
    hijack = [n for n in catalog.HIJACK_VARS if re.search(rf"\b{re.escape(n)}=", content)]
    if "CLAUDE_ENV_FILE" in target or "GITHUB_ENV" in target:
        if hijack:
            sink.add(
                "env-persist",
                f"writes {', '.join(sorted(hijack))} to {target}",
                file,
                line,
                command.text,
            )
        return
    if catalog.profile_path(expanded, an.home):
        sink.add("profile-write", f"writes {expanded}", file, line, command.text)
        if hijack:
            sink.add(
                "env-persist",
                f"writes {', '.join(sorted(hijack))} to {expanded}",
                file,
                line,
                command.text,
            )
    elif catalog.persistence_path(expanded, an.home):
        sink.add("persistence", f"writes {expanded}", file, line, command.text)
    elif catalog.agent_settings_path(expanded, an.home):
        sink.add("agent-settings-write", f"writes {expanded}", file, line, command.text)


def _persistence(an: RunnableAnalyser, command: Command, file: str, line: int) -> None:
    argv, program = command.argv, command.program
    if program == "crontab" and not any(w in ("-l", "-r") for w in argv[1:]):
        an.sink.add("persistence", "installs a crontab", file, line, command.text)
    elif program == "launchctl" and any(w in ("load", "bootstrap", "submit") for w in argv[1:]):
        an.sink.add("persistence", "loads a launchd job", file, line, command.text)
    elif program == "systemctl" and "enable" in argv[1:]:
        an.sink.add("persistence", "enables a systemd unit", file, line, command.text)
    elif program == "schtasks" and any(w.lower() == "/create" for w in argv[1:]):
        an.sink.add("persistence", "creates a scheduled task", file, line, command.text)
    elif program == "git" and "config" in argv:
        lowered = [w.lower() for w in argv]
        scope = "--global" in lowered or "--system" in lowered
        if any(w.startswith(_GIT_PERSIST_KEYS) for w in lowered) and (
            scope or "core.hookspath" in lowered
        ):
            an.sink.add(
                "persistence",
                "changes git configuration that runs commands",
                file,
                line,
                command.text,
            )


def _dumps_environment(argv: list[str]) -> bool:
    """``env``, ``printenv``, ``set``, ``export -p``, ``declare -x``: every variable printed;
    ``set -e`` or ``set -o pipefail`` only changes options."""
    if not argv:
        return False
    program, rest = argv[0].rsplit("/", 1)[-1], argv[1:]
    if program == "env":  # a bare `env` is _BARE_ENV's, which knows `env | cut -d= -f1`
        return False
    if program == "printenv":
        return not _words_after_options(argv)
    if program == "set":
        return not rest
    if program in ("export", "declare", "typeset"):
        return all(w in ("-p", "-x", "-px", "-xp") for w in rest)
    return False


def _credentials(an: RunnableAnalyser, command: Command, file: str, line: int) -> None:
    argv, program = command.argv, command.program
    sink = an.sink
    reads = [w for w in argv[1:] if not w.startswith("-")] + [
        r for r in command.redirects if r not in command.writes
    ]
    if program not in ("rm", "mkdir", "chmod", "touch", "echo", "printf"):
        for word in reads:
            tail = word.split("=", 1)[-1]
            for candidate in (word, tail, tail.lstrip("@"), word.lstrip("@")):
                match = catalog.credential_path(candidate, an.home)
                if match:
                    sink.add(
                        "cred-file",
                        f"reads {catalog.home_form(candidate, an.home)}",
                        file,
                        line,
                        command.text,
                    )
                    break
    tested = program in ("[", "test", "[[")  # [ -n "$TOKEN" ]: only whether it is set
    for braced, bare in [] if tested else _ENV_REF.findall(command.text):
        name = braced or bare
        if name in catalog.CREDENTIAL_ENV:
            sink.add("cred-env", f"reads ${name}", file, line, command.text)
    if _dumps_environment(argv):
        sink.add("env-dump", f"`{program}` prints every variable", file, line, command.text)
    if any("/environ" in w for w in reads):
        sink.add("env-dump", "reads a process environment", file, line, command.text)
    joined = " ".join(argv[1:])
    for tool, subcommands in catalog.KEYCHAIN_COMMANDS:
        if program == tool and any(joined.startswith(s) or s in argv for s in subcommands):
            sink.add("keychain", f"{program} {joined[:60]}", file, line, command.text)
