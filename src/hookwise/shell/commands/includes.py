"""The files a program's data makes it read (``#include "F"`` fed to ``cpp``, groff's ``.so
F``, m4's ``include(F)``): imported by the parser only for a program of
``programs.DATA_INCLUDERS`` fed data on the line. Standard library only."""

from __future__ import annotations

from hookwise.shell.programs import DATA_INCLUDERS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def included_files(program: str, data: str) -> list[str]:
    """The files ``data`` makes ``program`` read (DATA_INCLUDERS). A C preprocessor's
    ``#include`` of anything but a literal name (``#include X(.E)``, a macro building it:
    red team s28 O) reads a name known only when it runs (programs.COMPUTED); lines are
    spliced and comments dropped first, as the preprocessor does, and ``%:`` is ``#``."""
    directive = DATA_INCLUDERS[program]
    if directive == "include!":
        return _rust_included(data)
    found: list[str] = []
    if directive == "#include":
        import re

        data = re.sub(r"(?s)/\*.*?\*/", " ", data.replace("\\\n", ""))
    for line in data.splitlines():
        text = line.strip()
        name = ""
        if directive == "#include":
            if text.startswith(("%:", "??=")):
                text = "#" + text[2 if text[0] == "%" else 3 :]
            after = text[1:].lstrip() if text.startswith("#") else ""
            word = after[: len(after) - len(after.lstrip("abcdefghijklmnopqrstuvwxyz_"))]
            rest = after[len(word) :].strip() if word.startswith(("include", "import")) else ""
            if rest[:1] in ('"', "<") and rest[:1]:
                name = rest[1:].split('"' if rest[0] == '"' else ">", 1)[0]
            elif word.startswith(("include", "import")):
                from hookwise.shell.programs import COMPUTED

                name = COMPUTED  # a name a macro makes: known only when it runs
        elif directive == "include(":
            at = text.find(directive)
            if at >= 0:
                name = text[at + len(directive) :].split(")", 1)[0].strip("`'\" ")
        elif text.startswith(directive + " ") or text.startswith(directive + "\t"):
            name = text[len(directive) :].split()[0]
        if name:
            found.append(name)
    return found[:64]


# a Rust string literal, raw (r#"..."#) or plain, closing the macro's call
_RUST_LITERAL = r'\s*(?:r(#*)"(.*?)"\1|"((?:[^"\\]|\\.)*)")\s*[)\]}]'


def _rust_included(data: str) -> list[str]:
    """The files Rust code reads when it compiles: ``include_str!("F")``,
    ``include_bytes!``, ``include!`` of a literal (plain or raw string); of anything else
    (``concat!``, ``env!``: red team s33 J) a name known only when it runs."""
    import re

    from hookwise.shell.programs import COMPUTED

    found: list[str] = []
    for match in re.finditer(r"\binclude(?:_str|_bytes)?\s*!\s*[(\[{]", data):
        literal = re.match(_RUST_LITERAL, data[match.end() :], re.S)
        if literal is None:
            found.append(COMPUTED)
        else:
            found.append(literal.group(2) if literal.group(2) is not None else literal.group(3))
    return found[:64]


def written_includes(command: Any, script: Any) -> list[str]:
    """The files a DATA_INCLUDERS program reads through the ``#include`` (``.so``,
    ``include(``) lines of operands the line wrote (red team s31 U: ``printf '#include
    "../home/.netrc"' > x.c; cpp -P x.c``), each found beside the file that names it. A
    file written with content known only when it runs: noted unverifiable."""
    found: list[str] = []
    argv = command.argv
    for at, word in enumerate(argv[1:], start=1):
        if word.startswith("-") or argv[at - 1] == "-o" or not script.was_written(word):
            continue  # (gcc -o v.so: its own output)
        content = script.recall(word)
        if content is None:
            why = f"{command.program} reads the lines of {word}, written on the line with"
            command.unknowns.append(f"{why} content known only when it runs")
            continue
        beside = word.rsplit("/", 1)[0] + "/" if "/" in word else ""
        for name in included_files(command.program, content):
            found.append(name if name.startswith("/") or "$" in name else beside + name)
    return found


def search_selection(program: str, argv: list[str]) -> list[str] | None:
    """The files a recursive search reads when patterns choose them (red team s27 H):
    ``grep -r --include=.env``, ``rg -g '*.pem'``, ``git grep --no-index -- '*.env'``:
    each pattern under each searched directory, at any depth, as globs. None: no pattern
    narrows the search (it reads its trees, which the rules judge as trees)."""
    from hookwise.shell.programs import flags_of

    flags, positional = flags_of(program, argv)
    patterns: list[str] = []
    if program == "git":
        if "grep" not in positional[:1]:
            return None
        rest = argv[argv.index("grep") + 1 :]
        if "--" in rest:
            patterns = [w for w in rest[rest.index("--") + 1 :] if w[:1] not in ":!"]
        dirs = ["."]
    else:
        names = ("--include", "-g", "--glob", "--iglob") if program != "grep" else ("--include",)
        for index, word in enumerate(argv[1:], start=1):
            name, eq, value = word.partition("=")
            if name in names:
                if not eq:
                    value = argv[index + 1] if index + 1 < len(argv) else ""
                if value and value[:1] != "!":
                    patterns.append(value)
        given = sum(w in ("-e", "-f", "--regexp", "--file") for w in argv)
        skip = given if flags & {"-e", "-f", "--regexp", "--file"} else 1
        dirs = [w for w in positional[skip:] if w not in patterns] or ["."]
    if not patterns:
        return None
    found: list[str] = []
    for directory in dirs[:8]:
        base = "" if directory in (".", "./") else directory.rstrip("/") + "/"
        for pattern in patterns[:8]:
            found += [base + pattern, base + "**/" + pattern]
    return found
