"""What ``xargs`` runs: its replace string (``-I {}``) and the operands it reads from its
input, when they are known here (a static ``echo``, a ``find`` selection, a here-string).

Cold: needed only for a command run by ``xargs``. It must not import the shell parser (the
parser imports it, and the policy layer has no import cycles, not even lazy ones), so the
parser's word type comes in as a constructor and the commands as what they hold.
"""

from __future__ import annotations

from hookwise.shell.programs import XARGS_INPUT

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Protocol, TypeVar

    class _Word(Protocol):
        value: str
        dynamic: bool
        quoted: bool
        start: int
        end: int

    class _Piped(Protocol):
        """The command whose output xargs reads (a hookwise.shell.parser.Command)."""

        program: str
        argv: list[str]
        dynamic: list[bool]

    W = TypeVar("W", bound=_Word)


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


def xargs_operands(
    words: list[W],
    options: list[str],
    piped_from: _Piped | None,
    stdin: list[str],
    word: Callable[[str, bool, bool, int, int], W],
) -> list[W]:
    """The command ``xargs`` runs with the operands it reads: the words of a static ``echo``
    or a ``find`` selection piped in, or a here-string; else an operand known only when it
    runs (a path that resolves nowhere, so an `outside the workspace` rule holds).
    ``word(value, dynamic, quoted, start, end)`` makes one of the parser's words."""
    if not words:
        return words
    replace = xargs_replace(options)
    items: list[str] | None = None
    if stdin:
        items = " ".join(stdin).split()
    elif piped_from is not None and "-a" not in options and "--arg-file" not in options:
        source = piped_from.program
        if source in ("echo", "printf") and not any(piped_from.dynamic[1:]):
            args = [w for w in piped_from.argv[1:] if not (source == "echo" and w in ("-e", "-n"))]
            items = " ".join(args).replace("\\n", "\n").split()
        elif source == "find":
            from hookwise.shell.find_exec import find_selection

            items = find_selection(piped_from.argv)
    known = items is not None
    text = " ".join(items or []) if known else XARGS_INPUT
    if replace is not None:
        return [
            word(w.value.replace(replace, text), w.dynamic or not known, w.quoted, w.start, w.end)
            if replace in w.value
            else w
            for w in words
        ]
    extra = [word(item, False, True, 0, 0) for item in items or []] if known else []
    if not known:
        extra = [word(XARGS_INPUT, True, True, 0, 0)]
    return [*words, *extra]
