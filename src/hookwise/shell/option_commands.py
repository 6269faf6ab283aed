"""Programs that run a command named in their options: ``tar --to-command=CMD``,
``rsync -e CMD`` (and ``--delete`` as the removal it is), ``zip -TT CMD``, ``vim -c
'!CMD'``, ``make --eval``/``SHELL=``, ``compgen -C CMD``.

Cold: needed only for those programs (their names: :data:`programs.OPTION_COMMANDS`).
Standard library only.
"""

from __future__ import annotations

from hookwise.shell.option_values import option_values

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any


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


def _tar(argv: list[str], stdin: list[str]) -> list[tuple[str, Any]]:
    values = option_values(
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


def _rsync(argv: list[str], stdin: list[str]) -> list[tuple[str, Any]]:
    out: list[tuple[str, Any]] = [("script", v) for v in option_values(argv, ("-e",), ("--rsh",))]
    return out + _rsync_delete(argv)


def _zip(argv: list[str], stdin: list[str]) -> list[tuple[str, Any]]:
    return [("script", v) for v in option_values(argv, ("-TT",), ("--unzip-command",))]


def _vim(argv: list[str], stdin: list[str]) -> list[tuple[str, Any]]:
    from hookwise.shell.code_commands import code_commands

    commands = option_values(argv, ("-c",), ("--cmd",))
    commands += [w[1:] for w in argv[1:] if w.startswith("+")]
    found: list[tuple[str, Any]] = []
    for text in commands:
        if "!" in text:
            found.append(("script", text.split("!", 1)[1]))
        found += code_commands(text)
    return found


def _make(argv: list[str], stdin: list[str]) -> list[tuple[str, Any]]:
    found: list[tuple[str, Any]] = []
    for text in option_values(argv, ("-E",), ("--eval",)):
        found += _makefile_recipes(text)
    files = option_values(argv, ("-f",), ("--file", "--makefile"))
    if any(f in ("-", "/dev/stdin") for f in files):
        for text in stdin:
            found += _makefile_recipes(text)
    for word in argv[1:]:
        if word.startswith("SHELL="):
            found.append(("script", word[6:]))
    return found


def _compgen(argv: list[str], stdin: list[str]) -> list[tuple[str, Any]]:
    # -C CMD runs CMD for completions (Bamboo#584)
    return [("script", v) for v in option_values(argv, ("-C",), ())]


HANDLERS: dict[str, Callable[[list[str], list[str]], list[tuple[str, Any]]]] = {
    "tar": _tar,
    "gtar": _tar,
    "bsdtar": _tar,
    "rsync": _rsync,
    "zip": _zip,
    **dict.fromkeys(["vi", "vim", "nvim", "ex", "view", "gvim", "vimdiff", "rvim", "evim"], _vim),
    "make": _make,
    "gmake": _make,
    "compgen": _compgen,
    "complete": _compgen,
}


def option_runs(program: str, argv: list[str], stdin: list[str]) -> list[tuple[str, Any]]:
    """What ``program`` (one of :data:`HANDLERS`) runs from its options, as
    :func:`hookwise.shell.programs.runs` answers."""
    return HANDLERS[program](argv, stdin)
