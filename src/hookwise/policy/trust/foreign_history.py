"""git commands that bring another repository's history into the work tree (red team s27
K): ``git pull URL``, ``git fetch PATH && git merge FETCH_HEAD``, ``cherry-pick``,
``checkout`` or ``rebase`` of what such a fetch brought. The files they write are named by
commits nobody has read yet, so no word tells whether hookwise's own files are among them:
where the guard has files in the tree, the command is unverifiable (as ``tar x`` there is).
A configured remote is the project's own code (``git pull``, ``git pull origin main``,
``git merge origin/main`` stay free); what counts as configured is read from the
repository's configuration at decision time (shell/commands/git_aliases.config_entries).

Cold: loaded for a git command whose subcommand fetches or merges. Standard library only."""

from __future__ import annotations

from hookwise.policy import os_lite as os
from hookwise.shell.commands.git_aliases import (
    UnreadableError,
    config_entries,
    repository_dir,
    work_dir,
)
from hookwise.shell.programs import git_subcommand

TYPE_CHECKING = False
if TYPE_CHECKING:
    from hookwise.shell.parser import Command

# subcommands that fetch (what they fetch is remembered for the line) or write the tree
# from a revision
FETCHERS = frozenset(["fetch", "pull"])
MERGERS = frozenset(
    ["pull", "merge", "cherry-pick", "rebase", "revert", "checkout", "switch", "reset",
     "restore", "read-tree", "am", "worktree", "stash"]
)  # fmt: skip
WATCHED = FETCHERS | MERGERS


def _operands(words: list[str]) -> list[str]:
    """The words that are not options, and the values of ``--opt=VALUE``, up to ``--``."""
    out: list[str] = []
    for word in words:
        if word == "--":
            break
        if word.startswith("--") and "=" in word:
            out.append(word.split("=", 1)[1])
        elif not word.startswith("-"):
            out.append(word)
    return out


def _plain(url: str) -> str:
    return url.rstrip("/").removesuffix(".git").rstrip("/")


class History:
    """What fetches earlier on the line brought from outside the configured remotes."""

    __slots__ = ("fetched",)

    def __init__(self) -> None:
        self.fetched: dict[str, str] = {}  # a name (FETCH_HEAD, a ref) -> where it came from

    def check(self, cmd: Command, cwd: str, env: dict[str, str]) -> tuple[str, str] | None:
        """(the work tree, why) when ``cmd`` writes another repository's files into it."""
        argv = cmd.argv
        at = git_subcommand(argv)
        if at < 0 or argv[at] not in WATCHED:
            return None
        sub, rest = argv[at], argv[at + 1 :]
        tree = work_dir(cmd, at, cwd, {**env, **cmd.env})
        try:
            remotes = _remotes(cmd, at, cwd, env)
        except UnreadableError as error:
            return tree, f"`git {sub}` reads remotes from {error}, which hookwise cannot read"
        if remotes is None:
            return None  # not in a repository: git does nothing here
        operands = _operands(rest)
        if sub in FETCHERS and operands:
            source = operands[0]
            if not _configured(source, remotes, tree):
                if sub == "pull":
                    return tree, f"`git pull` merges {source}, which is no configured remote"
                self.fetched["FETCH_HEAD"] = source
                for spec in operands[1:]:
                    target = spec.lstrip("+").rpartition(":")[2]
                    if target:
                        self.fetched[target] = source
                        self.fetched[target.removeprefix("refs/heads/")] = source
            return None
        for word in operands:
            name = word.split("~", 1)[0].split("^", 1)[0].split("..", 1)[0]
            came = self.fetched.get(name)
            if came is None and name == "FETCH_HEAD":
                came = _fetch_head_source(cmd, at, cwd, env, remotes)
            if came is not None:
                return tree, f"`git {sub}` writes {word}, fetched from {came}, into the tree"
        return None


def _remotes(cmd: Command, at: int, cwd: str, env: dict[str, str]) -> dict[str, list[str]] | None:
    """The configured remotes (name -> URLs), None outside a repository."""
    if repository_dir(cmd, at, cwd, env) is None:
        return None
    found: dict[str, list[str]] = {}
    for section, key, value, _path in config_entries(cmd, at, cwd, env):
        head, _, name = section.partition(".")
        if head == "remote" and name and key in ("url", "pushurl"):
            found.setdefault(name, []).append(value)
    return found


def _configured(source: str, remotes: dict[str, list[str]], cwd: str) -> bool:
    """Whether a fetch's source is the project's own: a configured remote (by name or by
    one of its URLs), ``.`` (the repository itself), or a bare name that is neither a
    remote nor a path (git fails on it). A URL or a path is another repository, whether
    it exists now or the line makes it."""
    if source in remotes or source == ".":
        return True
    if _plain(source) in {_plain(u) for urls in remotes.values() for u in urls}:
        return True
    if "/" in source or ":" in source or source == "..":
        return False
    return not os.lexists(os.join(cwd or "/", source))


def _fetch_head_source(
    cmd: Command, at: int, cwd: str, env: dict[str, str], remotes: dict[str, list[str]]
) -> str | None:
    """Where ``FETCH_HEAD`` (left by an earlier call) came from, when that is not a
    configured remote; None when it is one or there is none."""
    git_dir = repository_dir(cmd, at, cwd, env)
    path = os.join(git_dir or "", "FETCH_HEAD")
    from hookwise.shell.commands.disk_files import read_head

    try:
        text = read_head(path, 1 << 20).decode("utf-8", "replace")  # (a FIFO: not opened)
    except FileNotFoundError:
        return None
    except OSError:
        return path
    urls = {_plain(u) for values in remotes.values() for u in values}
    for line in text.splitlines():
        # SHA, "not-for-merge" or nothing, then "branch 'x' of URL" or the URL alone
        description = line.split("\t", 2)[-1]
        source = description.rpartition(" of ")[2].strip()
        if source and _plain(source) not in urls and source not in remotes:
            return source
    return None
