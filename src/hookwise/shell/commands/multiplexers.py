"""Terminal multiplexers: the shell command ``tmux new 'CMD'`` / ``tmux send-keys`` and
``screen -dm CMD`` / ``screen -X stuff`` run (or type into a shell).

Cold: needed only for ``tmux`` and ``screen``. Standard library only.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

_TMUX_RUNS = frozenset(
    [
        "new",
        "new-session",
        "new-window",
        "neww",
        "split-window",
        "splitw",
        "respawn-pane",
        "respawnp",
        "respawn-window",
        "respawnw",
        "run-shell",
        "run",
        "send-keys",
        "send",
        "display-popup",
        "popup",
    ]
)
_TMUX_VALUES = frozenset(["-s", "-n", "-t", "-c", "-x", "-y", "-F", "-e", "-l", "-L", "-S", "-f"])


def _tmux(argv: list[str]) -> list[tuple[str, Any]]:
    """``tmux new -d 'cmd'``, ``tmux send-keys 'cmd' Enter``: the shell command it runs
    (or types into a shell)."""
    i = 1
    while i < len(argv) and argv[i].startswith("-"):
        if argv[i] == "-c" and i + 1 < len(argv):  # tmux -c CMD: runs it, as sh -c does
            return [("script", argv[i + 1])]
        i += 2 if argv[i] in ("-L", "-S", "-f", "-T") else 1
    if i >= len(argv) or argv[i] not in _TMUX_RUNS:
        return []
    sub = argv[i]
    i += 1
    rest: list[str] = []
    while i < len(argv):
        word = argv[i]
        if word.startswith("-") and len(word) > 1 and not rest:
            i += 2 if word in _TMUX_VALUES else 1
            continue
        rest.append(word)
        i += 1
    if sub in ("send-keys", "send"):
        rest = [w for w in rest if w not in ("Enter", "C-m", "KPEnter")]
    return [("script", " ".join(rest))] if rest else []


def _screen(argv: list[str]) -> list[tuple[str, Any]]:
    """``screen -dm cmd args`` runs argv; ``screen -X stuff 'cmd\\n'`` types a command."""
    if "-X" in argv:
        at = argv.index("-X")
        words = argv[at + 1 :]
        if len(words) >= 2 and words[0] == "stuff":
            return [("script", " ".join(words[1:]).replace("\\n", "\n").replace("^M", "\n"))]
        return []
    i = 1
    while i < len(argv) and argv[i].startswith("-"):
        word = argv[i]  # -S NAME, -dmS NAME: a cluster ending in an option that takes one
        i += 2 if len(word) > 1 and word[1] != "-" and word[-1] in "SchpTtes" else 1
    return [("argv", argv[i:])] if i < len(argv) else []


def multiplexer_runs(program: str, argv: list[str]) -> list[tuple[str, Any]]:
    """What ``tmux`` or ``screen`` runs, as :func:`hookwise.shell.programs.runs` answers."""
    return _tmux(argv) if program == "tmux" else _screen(argv)
