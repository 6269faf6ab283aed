"""What a program is told inside its words: the pieces of its option values, its script
text, its environment and its input that could be a path.

A program may write any file it is told about, in any way it likes: node's
``--redirect-warnings=F``, gcc's ``-Wa,-a=F``/``-Wl,-Map,F``, perl's ``-MO=Xref,-oF`` and
``PERLDB_OPTS="LineInfo=F"``, vim's ``-c 'w F'``, ed's and sqlite3's commands on stdin
(``w F``, ``.log F``), awk's ``-v f=F`` then ``print > f`` (red team s35 F-R). hookwise
does not list those options: it reads every piece of text the program is given
(protect.py then asks when a piece names a guard place, unless the program is one known
to only read what it is given). The same cuts as a reader's
(:func:`hookwise.policy.canonical.embedded_paths`: a value after ``=``, a value glued to a
short option, ``@F``), applied to each piece: one reading of a word for secrets and
guards.

Standard library only (hot path; loaded for a program that is neither a known reader nor
a known writer, when one of its words could hold a path).
"""

from __future__ import annotations

from hookwise.policy.canonical import embedded_paths

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

# What cannot be inside a path as a program's text names it: blanks, quotes, an option's
# `=`, a pass-through list's `,` (-Wl,-Map,F), a script's punctuation (awk's `> "F"`,
# `ENVIRON["F"]`, vim's `w! F`, a `\n` left unexpanded). Not `:` (a PATH-like list names
# directories, not the files a program writes), not glob characters (the disk decides).
_CUTS = " \t\n\r\v\f'\"`=,;(){}[]<>|&!\\"
_TO_SPACE = str.maketrans(dict.fromkeys(_CUTS, " "))


def pieces(text: str) -> list[str]:
    """The pieces of ``text`` that could name a file (a ``/``, or a leading ``~`` or
    ``.``), with what a short option glued to one names (``-o../x``: ``../x``)."""
    out: list[str] = []
    for piece in text.translate(_TO_SPACE).split():
        if piece[:1] in ("-", "@"):
            out += [p for p in embedded_paths(piece) if p not in out]
        if ("/" in piece or piece[:1] in "~.") and piece not in out:
            out.append(piece)
    return out


def words(text: str) -> list[str]:
    """Every piece of ``text``, path-like or not (for a program run in a directory that
    holds a guard place: a bare name there is one)."""
    return text.translate(_TO_SPACE).split()


def fed_texts(command: Any, script: Any) -> list[str]:
    """The text ``command`` reads when the line says what it is: its here-documents and
    here-strings, what a piped ``echo``/``printf``/``cat <<EOF`` prints, and a file
    written earlier on the line that a ``<``, an operand or an option's value gives it."""
    from hookwise.shell.parser import static_output  # (loaded: the command came from it)

    out = list(command.stdin)
    if command.piped_from is not None:
        printed = static_output(command.piped_from)
        if printed:
            out.append(printed)
    if script is None:
        return out
    # (a script file the line wrote, given as an operand or an option's value: vim -S F,
    # awk -f F, sqlite3 -init F, or on stdin: ed < F)
    named = [t for t in command.redirects if t not in command.writes]
    for word in command.argv[1:]:
        named += [word, *embedded_paths(word)] if word[:1] in ("-", "@") else [word]
    for target in dict.fromkeys(named):
        if target and script.was_written(target):
            content = script.recall(target)
            if content:
                out.append(content)
    return out
