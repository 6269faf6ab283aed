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


def makefile_items(text: str) -> list[tuple[str, Any]]:
    """What a makefile text runs: its recipe lines (``x: ; cmd``, tab-indented lines) and
    ``$(shell CMD)``, with make's ``$(VAR)`` read as a word known only when it runs."""
    out: list[tuple[str, Any]] = []
    for start in _shell_calls(text):
        out.append(("script", start))
    for line in text.replace("\\\n", " ").splitlines():
        recipe = None
        if line.startswith("\t"):
            recipe = line[1:]
        elif ":" in line and ";" in line.split(":", 1)[1] and not line.lstrip().startswith("#"):
            recipe = line.split(":", 1)[1].split(";", 1)[1]
        if recipe is not None and recipe.strip():
            out.append(("script", _make_words(recipe.strip().lstrip("@-+"))))
    if "$(eval" in text or "${eval" in text:
        out.append(("unverifiable", "the makefile evaluates text made when it runs ($(eval))"))
    return out


def _shell_calls(text: str) -> list[str]:
    """The commands of ``$(shell CMD)`` in a makefile text."""
    found: list[str] = []
    at = text.find("$(shell ")
    while at >= 0:
        depth = 0
        for end in range(at + 1, len(text)):
            if text[end] == "(":
                depth += 1
            elif text[end] == ")":
                depth -= 1
                if depth == 0:
                    found.append(_make_words(text[at + 8 : end]))
                    break
        at = text.find("$(shell ", at + 1)
    return found


def _make_words(recipe: str) -> str:
    """A recipe as the shell gets it: ``$$`` is ``$``, ``$(VAR)`` a value known when make
    runs (a shell variable stands for it)."""
    out: list[str] = []
    i = 0
    while i < len(recipe):
        if recipe.startswith("$$", i):
            out.append("$")
            i += 2
            continue
        if recipe.startswith(("$(", "${"), i):
            closer = ")" if recipe[i + 1] == "(" else "}"
            end = recipe.find(closer, i)
            out.append("${MAKE_VALUE}")
            i = len(recipe) if end < 0 else end + 1
            continue
        if recipe[i] == "$" and i + 1 < len(recipe):
            out.append("${MAKE_VALUE}")
            i += 2
            continue
        out.append(recipe[i])
        i += 1
    return "".join(out)


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


# make's long options (make --help, GNU make 4.3): --ev is --eval, as getopt abbreviates
_MAKE_LONGS = frozenset(
    [
        "--always-make",
        "--directory",
        "--debug",
        "--environment-overrides",
        "--eval",
        "--file",
        "--makefile",
        "--help",
        "--ignore-errors",
        "--include-dir",
        "--jobs",
        "--keep-going",
        "--load-average",
        "--check-symlink-times",
        "--just-print",
        "--dry-run",
        "--recon",
        "--output-sync",
        "--old-file",
        "--assume-old",
        "--print-data-base",
        "--question",
        "--no-builtin-rules",
        "--no-builtin-variables",
        "--silent",
        "--quiet",
        "--no-silent",
        "--no-keep-going",
        "--stop",
        "--touch",
        "--trace",
        "--version",
        "--print-directory",
        "--no-print-directory",
        "--what-if",
        "--new-file",
        "--assume-new",
        "--warn-undefined-variables",
    ]
)
# variables whose value is a command that make's built-in rules (or a recipe) run
_MAKE_COMMANDS = frozenset(
    [
        "SHELL",
        "CC",
        "CXX",
        "CPP",
        "FC",
        "PC",
        "LD",
        "AR",
        "AS",
        "RM",
        "LEX",
        "YACC",
        "M2C",
        "CO",
        "GET",
        "MAKEINFO",
        "TEX",
        "TEXI2DVI",
        "WEAVE",
        "CWEAVE",
        "TANGLE",
        "CTANGLE",
        "MAKE",
        "LINT",
    ]
)


def _make(argv: list[str], stdin: list[str]) -> list[tuple[str, Any]]:
    found: list[tuple[str, Any]] = []
    words = [argv[0]]
    for given in argv[1:]:  # --ev=... is --eval=...: getopt takes an unambiguous prefix
        option, eq, value = given.partition("=")
        if option.startswith("--") and len(option) > 2 and option not in _MAKE_LONGS:
            matches = [o for o in _MAKE_LONGS if o.startswith(option)]
            if len(matches) == 1:
                given = matches[0] + eq + value  # noqa: PLW2901 - the word as make reads it
        words.append(given)
    for text in option_values(words, ("-E",), ("--eval",)):
        found += makefile_items(text)
    for word in words[1:]:
        name, eq, value = word.partition("=")
        if eq and name in _MAKE_COMMANDS and value:
            found.append(("script", value))  # make CC='...' x.o: the built-in rule runs it
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
