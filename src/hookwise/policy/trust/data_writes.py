"""Where a command writes files whose names come from data, for self-protection.

An archive extracted, a patch applied, a directory's contents copied, untracked files
stashed away: the names of the files changed are in the archive, the patch, the listing,
not on the command line, so no word tells whether hookwise's own files are among them.
Such a write into a directory that holds them is unverifiable (protect.py); the programs
and the words that make them write are the catalog's (``programs.DATA_WRITERS``,
``programs.GIT_DATA_WRITERS``), read here. Cold: loaded for those programs only.
"""

from __future__ import annotations

from hookwise.shell.commands.option_words import option_values
from hookwise.shell.programs import DATA_WRITERS, GIT_DATA_WRITERS, git_subcommand

_LISTING = frozenset(["-l", "-t", "-v", "-p", "-Z", "-z", "--dry-run", "--list", "--test"])
_COPIERS = {"cp": "rR", "rsync": "ra", "scp": "r"}
_STASH_OTHERS = frozenset(
    ["pop", "apply", "list", "show", "drop", "clear", "branch", "create", "store"]
)


def _program(argv: list[str]) -> tuple[str, list[str]]:
    """The program and its words, seeing through ``python -m zipfile``, ``cmake -E tar``
    and ``busybox tar``."""
    name = argv[0].rsplit("/", 1)[-1]
    if name.startswith("python") and "-m" in argv[:-1]:
        at = argv.index("-m")
        return argv[at + 1], argv[at + 1 :]
    if name == "cmake" and "-E" in argv[:-1]:
        at = argv.index("-E")
        return argv[at + 1], argv[at + 1 :]
    if name == "busybox" and len(argv) > 1:
        return argv[1], argv[1:]
    return name, argv


def _cluster(word: str, letters: str) -> bool:
    """Whether a short-option cluster (``-xzf``) or an old-style mode word (``xzf``, the
    first word of tar, jar, ar) holds one of ``letters``."""
    body = word[1:] if word.startswith("-") and not word.startswith("--") else word
    return body.isalnum() and any(letter in body for letter in letters)


def _writes(name: str, mode: str, words: list[str]) -> bool:
    if mode == "always":
        return not any(w in _LISTING for w in words)
    if mode.startswith("="):
        wanted = mode[1:].split("|")
        operands = [w for w in words if not w.startswith("-")]
        options = [w for w in words if w.startswith("-")]
        return bool(operands and operands[0] in wanted) or any(
            o in wanted or o.partition("=")[0] in wanted for o in options
        )
    first = words[0] if words else ""
    if first and not first.startswith("-") and _cluster(first, mode):
        return True  # tar xf, jar xvf, ar x
    longs = {"x": ("--extract", "--get"), "i": ("--extract",), "r": ("--read",)}.get(mode, ())
    return any(
        w in longs or (w.startswith("-") and not w.startswith("--") and _cluster(w, mode))
        for w in words
    )


def _directories(name: str, options: tuple[str, ...], argv: list[str]) -> list[str]:
    """The directories the extraction writes into, as written (``.`` by default)."""
    found: list[str] = []
    for option in options:
        if option.startswith("@"):
            operands = [w for w in argv[1:] if not w.startswith("-")]
            index = int(option[1:]) - 1
            found.append(operands[index] if index < len(operands) else ".")
            continue
        shorts = (option,) if not option.startswith("--") else ()
        longs = (option,) if option.startswith("--") else ()
        found += option_values(argv, shorts, longs)
    return found or ["."]


def _copies(name: str, argv: list[str]) -> list[str]:
    """Where a recursive copy puts the trees it copies: ``cp -r D/. .`` writes D's
    entries into ``.``, ``cp -r /x/.config ~`` makes ``~/.config``."""
    letters = _COPIERS[name]
    recursive = any(
        w in ("--recursive", "--archive", "-a") or (_cluster(w, letters) and w.startswith("-"))
        for w in argv[1:]
        if w.startswith("-")
    )
    if not recursive:
        return []
    # cp -T / --no-target-directory: the source's entries go into the target itself
    whole = any(
        w == "--no-target-directory" or (w[:1] == "-" and w[1:2] != "-" and "T" in w)
        for w in argv[1:]
    )
    target: str | None = None
    operands: list[str] = []
    skip = False
    for index, word in enumerate(argv[1:], start=1):
        if skip:
            skip = False
            continue
        if word in ("-t", "--target-directory") and index + 1 < len(argv):
            target, skip = argv[index + 1], True
        elif word.startswith("--target-directory="):
            target = word.split("=", 1)[1]
        elif not word.startswith("-"):
            operands.append(word)
    if target is None:
        if len(operands) < 2:
            return []
        target, operands = operands[-1], operands[:-1]
    if not target:  # cp -a x '': no such directory, the copy fails and writes nothing
        return []
    out: list[str] = []
    for source in operands:
        base = source.rstrip("/").rsplit("/", 1)[-1]
        contents = whole or base in (".", "..", "") or (name == "rsync" and source.endswith("/"))
        out.append(target if contents else target.rstrip("/") + "/" + base)
    return out


def data_writes(argv: list[str]) -> list[tuple[str, str]]:
    """(directory as written, what writes there) for each directory ``argv`` writes files
    into whose names come from data; [] for a command that writes none."""
    if not argv:
        return []
    name, words = _program(argv)
    if name in _COPIERS and words is argv:
        return [(d, f"`{name}` copies a directory's entries") for d in _copies(name, argv)]
    if name == "git":
        at = git_subcommand(argv)
        sub = argv[at] if at > 0 else ""
        triggers = GIT_DATA_WRITERS.get(sub)
        if triggers is None:
            return []
        rest = argv[at + 1 :]
        if sub == "stash" and any(w in _STASH_OTHERS for w in rest[:1]):
            return []
        dry = ("--dry-run", "--check", "--stat", "--numstat", "--summary")
        if any(w in dry or (w[:1] == "-" and w[1:2] != "-" and "n" in w) for w in rest):
            return []  # (clean -nd, apply --check: nothing is written)
        hit = "" in triggers or any(
            w in triggers
            or (
                w.startswith("-")
                and not w.startswith("--")
                and _cluster(w, "".join(t[1] for t in triggers if len(t) == 2))
            )
            for w in rest
        )
        if not hit:
            return []
        prefix = next((w.split("=", 1)[1] for w in rest if w.startswith("--prefix=")), "")
        if sub == "checkout-index" and prefix:  # (its files go under the prefix)
            return [(prefix, f"`git {sub}` changes files named by the repository's data")]
        if sub == "format-patch":
            directories = option_values(["git", *rest], ("-o",), ("--output-directory",))
            return [(d, "`git format-patch` names its files by the commits") for d in directories]
        return [(".", f"`git {sub}` changes files named by the repository's data")]
    fact = DATA_WRITERS.get(name)
    if fact is None:
        return []
    mode, options = fact
    if not _writes(name, mode, words[1:]):
        return []
    what = f"`{name}` writes the files its input names"
    return [(d, what) for d in _directories(name, options, words)]


# git subcommands that write working-tree files whose names come from the repository's
# data (a branch, a merge, an index): into the work tree wherever it is
_GIT_TREE_WRITERS = frozenset(
    ["checkout", "switch", "restore", "reset", "pull", "merge", "rebase", "cherry-pick",
     "revert", "am", "apply", "stash", "read-tree", "checkout-index", "clone", "worktree",
     "sparse-checkout", "submodule"]
)  # fmt: skip


def git_worktree(argv: list[str], env: dict[str, str]) -> tuple[list[str], list[str], str]:
    """For a git command whose files are elsewhere (``-C D``, ``--work-tree=D``,
    ``GIT_WORK_TREE=D``, ``checkout-index --prefix=D/``): the files it names, as paths
    from the working directory; the directories it writes data-named files into; why."""
    at = git_subcommand(argv)
    if at < 0:
        return [], [], ""
    sub = argv[at]
    base: str | None = env.get("GIT_WORK_TREE")
    chdir: str | None = None
    for index, word in enumerate(argv[1:at], start=1):
        following = argv[index + 1] if index + 1 < at else ""
        if word == "--work-tree" and following:
            base = following
        elif word.startswith("--work-tree="):
            base = word.split("=", 1)[1]
        elif word == "-C" and following:
            chdir = following if chdir is None or following[:1] in "/~" else f"{chdir}/{following}"
    if chdir is not None:  # (a relative --work-tree is taken from where -C went)
        base = chdir if base is None else base if base[:1] in "/~$" else f"{chdir}/{base}"
    rest = argv[at:]
    operands: list[str] = []
    done = False
    for word in rest[1:]:
        if not done and word == "--":
            done = True
        elif done or not word.startswith("-"):
            operands.append(word)
    prefix = next((w.split("=", 1)[1] for w in rest if w.startswith("--prefix=")), "")
    if sub == "checkout-index" and prefix:
        base = f"{base}/{prefix}" if base is not None and prefix[:1] not in "/~" else prefix
    if base is None:
        return [], [], ""
    named = [o if o[:1] in "/~" else f"{base.rstrip('/')}/{o}" for o in operands]
    if sub not in _GIT_TREE_WRITERS and sub not in ("rm", "mv", "bundle", "merge-file"):
        return [], [], ""
    into = [base] if sub in _GIT_TREE_WRITERS else []
    return named, into, f"`git {sub}` writes files named by the repository's data"
