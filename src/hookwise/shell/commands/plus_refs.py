"""A branch whose name starts with ``+`` (red team s25): ``git checkout -b +main && git push
origin $(git branch --show-current)`` pushes the refspec ``+main``, git's own spelling of a
forced push, though the line never writes ``+`` or ``--force`` next to ``push``. The name
git later gives back (``git branch --show-current``, ``git rev-parse --abbrev-ref HEAD``) is
the one chosen here, so naming a ref that way is read as the force push it sets up, on
this line or a later one.

Cold: loaded only for a git command with a word starting with ``+`` or holding ``/+``.
Standard library only."""

from __future__ import annotations

from hookwise.shell import programs

# the subcommands that name a ref, and tag's options whose value is text, not a name
_NAMING = frozenset(["checkout", "switch", "branch", "worktree", "symbolic-ref", "update-ref",
                     "tag"])  # fmt: skip
_TEXT_VALUES = frozenset(["-m", "--message", "-F", "--file", "-u", "--local-user"])


def plus_names(argv: list[str]) -> list[str]:
    """The ref names starting with ``+`` that this git command creates, renames or points
    HEAD at (``refs/heads/+x`` is the branch ``+x``)."""
    at = programs.git_subcommand(argv)
    if at < 0 or argv[at] not in _NAMING:
        return []
    found: list[str] = []
    words = argv[at + 1 :]
    for index, word in enumerate(words):
        if argv[at] == "tag" and index > 0 and words[index - 1] in _TEXT_VALUES:
            continue
        name = (word.partition("=")[2] if "=" in word else "") if word[:1] == "-" else word
        short = name.rsplit("refs/heads/", 1)[-1]
        if short.startswith("+"):
            found.append(short)
    return found
