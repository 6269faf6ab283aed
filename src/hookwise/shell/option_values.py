"""The values a program's options carry (``-X V``, ``-XV``, ``--long V``, ``--long=V``):
the one reader the handlers of programs that run a command option share.

Cold: needed only by those handlers (:mod:`option_commands`, :mod:`sed_script`).
"""

from __future__ import annotations


def option_values(argv: list[str], shorts: tuple[str, ...], longs: tuple[str, ...]) -> list[str]:
    """The values of options given as ``-X V``, ``-XV``, ``--long V`` or ``--long=V``."""
    out: list[str] = []
    for index, word in enumerate(argv[1:], start=1):
        following = argv[index + 1] if index + 1 < len(argv) else None
        for option in shorts:
            if word == option and following is not None:
                out.append(following)
            elif len(option) == 2 and word.startswith(option) and len(word) > 2:
                out.append(word[2:])
        for option in longs:
            if word == option and following is not None:
                out.append(following)
            elif word.startswith(option + "="):
                out.append(word[len(option) + 1 :])
    return out
