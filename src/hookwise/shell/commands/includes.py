"""The files a program's data makes it read (``#include "F"`` fed to ``cpp``, groff's ``.so
F``, m4's ``include(F)``): imported by the parser only for a program of
``programs.DATA_INCLUDERS`` fed data on the line. Standard library only."""

from __future__ import annotations

from hookwise.shell.programs import DATA_INCLUDERS


def included_files(program: str, data: str) -> list[str]:
    """The files ``data`` makes ``program`` read (DATA_INCLUDERS)."""
    directive = DATA_INCLUDERS[program]
    found: list[str] = []
    for line in data.splitlines():
        text = line.strip()
        name = ""
        if directive == "#include":
            after = text[1:].lstrip() if text.startswith("#") else ""
            rest = after[len("include") :].strip() if after.startswith("include") else ""
            if rest[:1] in ('"', "<") and rest[:1]:
                name = rest[1:].split('"' if rest[0] == '"' else ">", 1)[0]
        elif directive == "include(":
            at = text.find(directive)
            if at >= 0:
                name = text[at + len(directive) :].split(")", 1)[0].strip("`'\" ")
        elif text.startswith(directive + " ") or text.startswith(directive + "\t"):
            name = text[len(directive) :].split()[0]
        if name:
            found.append(name)
    return found[:64]
