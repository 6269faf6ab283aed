"""The values of a program's options, read as getopt_long reads them (and git's
parse-options, curl's parser): one reader for every program whose options name files or
commands (option_commands, sed_script, data_writes, build_files, programs).

Its own module: sed and the readers import it without the option programs' tables (an
import cycle otherwise: option_commands -> programs -> sed_script). Standard library only.
"""

from __future__ import annotations


def option_values(
    argv: list[str],
    shorts: tuple[str, ...],
    longs: tuple[str, ...],
    known: tuple[str, ...] = (),
) -> list[str]:
    """The values of options given as ``-X V``, ``-XV``, ``--long V`` or ``--long=V``, in
    the spellings getopt_long (and git's parse-options, curl's parser) accept: a long
    option is any unambiguous prefix of its name (``--post-f=F`` is ``--post-file=F``),
    and a short option may end a cluster with its value attached (``-sT.env`` is ``-s -T
    .env``). A prefix that is ambiguous makes the program stop, so taking it is the safe
    side. ``known``: other long names of the program, which a word spelled exactly is
    (``--cookie`` is not an abbreviation of ``--cookie-jar``)."""
    out: list[str] = []
    for index, word in enumerate(argv[1:], start=1):
        following = argv[index + 1] if index + 1 < len(argv) else None
        if word.startswith("--"):
            if word == "--":
                break  # (what follows is operands)
            name, equals, value = word.partition("=")
            if len(name) < 3 or not longs:
                continue
            exact = name in longs or name in known
            for option in longs:
                if option == name or (not exact and option.startswith(name)):
                    if equals:
                        out.append(value)
                    elif following is not None:
                        out.append(following)
                    break
        elif word.startswith("-") and len(word) > 1:
            out += _short_values(word, following, shorts)
        for option in longs:  # one dash or none: openssl's -out F, dd's if=F, matched whole
            if not option.startswith("--"):
                if word == option and following is not None:
                    out.append(following)
                elif word.startswith(option + "="):
                    out.append(word[len(option) + 1 :])
    return out


def _short_values(word: str, following: str | None, shorts: tuple[str, ...]) -> list[str]:
    """The value of a short option in ``word``: ``-X V``, ``-XV``, or the last option of a
    cluster of letters (``-sT.env``, ``-sTV``): every letter may be the one that takes
    it. A one-dash long option (``-files0-from F``) is matched whole."""
    out: list[str] = []
    for option in shorts:
        if len(option) > 2:  # one-dash long option (find -files0-from F, -out F)
            if word == option and following is not None:
                out.append(following)
            elif word.startswith(option + "="):
                out.append(word[len(option) + 1 :])
            continue
        letter = option[1:]
        at = 1
        while at < len(word) and at <= 16:
            if word[at] == letter:
                rest = word[at + 1 :]
                if rest:
                    if at == 1 or not rest.startswith("-"):
                        out.append(rest)
                elif following is not None:
                    out.append(following)
                break
            if not word[at].isalnum():
                break  # (past the letters: a value of some earlier option)
            at += 1
    return out
