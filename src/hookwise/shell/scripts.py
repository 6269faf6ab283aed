"""Scripts a shell reads: ``bash -c SCRIPT``, a here-document or ``echo ... |`` on its
stdin, a script file written earlier on the line, a process substitution (``bash
<(curl ...)``); ``source``/``.`` and ``at`` the same way.

Cold: needed only for a shell (``sh``, ``bash``...), ``source``, ``at``. It must not import
the shell parser (the parser imports it, and the policy layer has no import cycles, not
even lazy ones), so the parser comes in as ``parse`` and ``printed`` (what a command prints
when that is known here, :func:`hookwise.shell.parser.static_output`).
"""

from __future__ import annotations

from hookwise.shell.programs import SHELLS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, Protocol, TypeVar

    class _Command(Protocol):
        """What is read of a hookwise.shell.parser.Command."""

        program: str
        argv: list[str]
        dynamic: list[bool]
        redirects: list[str]
        writes: list[str]
        stdin: list[str]
        unknowns: list[str]
        unknown_args: bool

    class _Script(Protocol):
        """What is read of a hookwise.shell.parser.Script."""

        def recall(self, path: str) -> str | None: ...

        def was_written(self, path: str) -> bool: ...

        @property
        def disk_code(self) -> list[tuple[Any, str]]: ...

    C = TypeVar("C", bound=_Command)
    S = TypeVar("S", bound=_Script)


def shell_runs(
    command: C,
    depth: int,
    script: S,
    piped_from: C | None,
    *,
    parse: Callable[..., None],
    printed: Callable[[C], str | None],
    parsed: Callable[[str, int], list[C]],
) -> None:
    """A shell runs its ``-c`` script, else the script on its stdin, else its script file."""
    argv = command.argv
    for rcfile in _rc_files(argv):  # bash --rcfile <(...) -i: the file runs first
        script_file(
            command, rcfile, depth, script, piped_from, parse=parse, printed=printed,
            parsed=parsed,
        )  # fmt: skip
    at = shell_c_index(argv)
    if at is not None:
        if command.dynamic[at]:
            command.unknowns.append(
                f"{command.program} -c runs {argv[at]!r}, a script known only when it runs"
            )
            command.unknown_args = True
        parse(argv[at], depth + 1, script, argv[at + 1 :] or None)
    elif reads_stdin(argv):
        stdin_script(command, depth, script, piped_from, parse=parse, printed=printed)
    else:
        script_file(
            command,
            script_operand(argv),
            depth,
            script,
            piped_from,
            parse=parse,
            printed=printed,
            parsed=parsed,
        )


_VALUED = frozenset(["-o", "+o", "-O", "+O", "--rcfile", "--init-file"])


def option_values(word: str) -> int:
    """How many words after this shell option are its values: ``-O dotglob``, ``--rcfile
    F``, and in a cluster one for each ``o``/``O`` (``bash -iO dotglob -c``, ``-eo
    pipefail``: red team s30 E)."""
    if word in _VALUED:
        return 1
    if word[:1] in "-+" and word[1:2] not in ("-", "") and len(word) > 2:
        return word.count("o") + word.count("O")
    return 0


def reads_stdin(argv: list[str]) -> bool:
    """Whether a shell runs the script on its stdin (no -c, no script file)."""
    i = 1
    while i < len(argv):
        word = argv[i]
        if word in ("-s", "-"):
            return True
        if word.startswith(("-", "+")):
            if "c" in word[1:] and word[1:2] != "-":
                return False  # (a -c cluster: its script is a word)
            i += 1 + option_values(word)
            continue
        return False
    return True


def stdin_script(
    command: C,
    depth: int,
    script: S,
    piped_from: C | None,
    *,
    parse: Callable[..., None],
    printed: Callable[[C], str | None],
) -> None:
    """A shell reading its script from stdin: a here-document or here-string is parsed;
    ``echo 'cmd' | sh`` too; anything else piped in is unverifiable."""
    if command.stdin:
        for body in command.stdin:
            parse(body, depth + 1, script)
        return
    if piped_from is None:
        fed = False
        for source in command.redirects:  # sh < x.sh, x.sh written earlier on the line
            if source not in command.writes:
                fed = True
                script_file(
                    command, source, depth, script, None, parse=parse, printed=printed,
                    parsed=lambda text, depth: [],
                )  # fmt: skip
        if not fed:  # bare `bash`, `sh -s`, `bash -i`: commands typed in after this check
            command.unknowns.append(
                f"{command.program} runs the commands on its standard input, which this line "
                "does not give (typed in later)"
            )
        return
    output = printed(piped_from)
    if output is not None:
        parse(output, depth + 1, script)
        return
    command.unknowns.append(
        f"{command.program} runs a script read from the output of `{piped_from.program}`, "
        "known only when it runs"
    )
    command.unknown_args = True


_STDIN_FILES = frozenset(["-", "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"])


def script_operand(argv: list[str]) -> str | None:
    """The script file a shell runs (``bash -x x.sh``): the first word after its options."""
    i = 1
    while i < len(argv):
        word = argv[i]
        if word == "--":
            return argv[i + 1] if i + 1 < len(argv) else None
        if word[:1] in "-+" and len(word) > 1:
            i += 1 + option_values(word)
            continue
        return word
    return None


def script_file(
    command: C,
    operand: str | None,
    depth: int,
    script: S,
    piped_from: C | None,
    *,
    parse: Callable[..., None],
    printed: Callable[[C], str | None],
    parsed: Callable[[str, int], list[C]],
) -> None:
    """A shell (or ``source``) running a script file: ``/dev/stdin`` is its input, a
    process substitution is what its command prints, a file written earlier on the line
    is that content; files on disk are not read. ``parsed(text, depth)``: the commands of
    ``text`` parsed on their own."""
    if operand is None:
        return
    if operand in _STDIN_FILES:
        stdin_script(command, depth, script, piped_from, parse=parse, printed=printed)
        return
    if operand.startswith("<(") and operand.endswith(")"):
        inner = parsed(operand[2:-1], depth + 1)
        body = printed(inner[0]) if len(inner) == 1 else None
        if body is not None:
            parse(body, depth + 1, script)
        else:
            command.unknowns.append(
                f"{command.program} runs the script `{operand[2:-1]}` prints, known only when "
                "it runs"
            )
            command.unknown_args = True
        return
    if operand.startswith(("/dev/fd/", "/proc/")):  # a descriptor the line redirected
        body = "".join(command.stdin)
        if body and "$" not in body and "`" not in body:
            parse(body, depth + 1, script)
        else:
            command.unknowns.append(
                f"{command.program} runs {operand}, a descriptor whose content is known only "
                "when it runs"
            )
        return
    if script.was_written(operand):
        written = script.recall(operand)
        if written is None:
            command.unknowns.append(
                f"{command.program} runs {operand}, written earlier on the line with content "
                "known only when it runs"
            )
        else:
            parse(written, depth + 1, script)
    else:
        script.disk_code.append((command, operand))


def _rc_files(argv: list[str]) -> list[str]:
    """``--rcfile FILE`` / ``--init-file FILE``: a file the shell runs before its script."""
    return [
        argv[index + 1]
        for index, word in enumerate(argv[:-1])
        if word in ("--rcfile", "--init-file")
    ]


def shell_c_script(argv: list[str]) -> str | None:
    """The script of ``bash -c SCRIPT`` (also ``-lc``, ``-ec``, ``busybox sh -c``)."""
    at = shell_c_index(argv)
    return argv[at] if at is not None else None


def shell_c_index(argv: list[str]) -> int | None:
    """Where the script of ``bash -c SCRIPT`` is in argv (its $0, $1... follow it)."""
    offset = 1
    args = argv[1:]
    if argv and argv[0].rsplit("/", 1)[-1] == "busybox":
        if not args or args[0] not in SHELLS:
            return None
        args = args[1:]
        offset = 2
    has_c = False
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "--":
            i += 1
            break
        if arg in _VALUED:
            i += 2
            continue
        if arg.startswith("--"):
            i += 1
            continue
        if arg[:1] in "-+" and len(arg) > 1:
            if "c" in arg[1:]:
                has_c = True
            i += 1 + option_values(arg)
            continue
        break
    if has_c and i < len(args):
        return i + offset
    return None
