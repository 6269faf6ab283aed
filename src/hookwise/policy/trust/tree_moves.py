"""A git command that puts another commit's tree in place of the work tree's (``git
checkout HEAD~1``, ``switch -d origin/main``, ``reset --hard REV``, ``rebase --onto``,
``bisect start``) deletes every tracked file that tree lacks: the project's policy among
them (red team s33 F: after it, the hook fails closed for every call). A command that
merges another commit's changes into it (``merge``, ``pull``, ``rebase UPSTREAM``,
``cherry-pick``, ``revert``, ``stash pop``/``apply``) changes a tracked file exactly where
the incoming side changed it since the common base (incoming).

The commits are read with git's own trees (``git cat-file -e REV:PATH``, ``git diff
--quiet BASE...REV -- PATHS``, ``git rev-list REV^! -- PATHS``) where the command names
them; where the tree that results is known only when git runs (a rebase onto another
base, a bisection, a commit git cannot read), the command is unverifiable. ``git pull``
fetches before it merges: it is judged by what the remote-tracking branch held at its
last fetch (the configured remote is the project's own code, foreign_history.py); a change
to a guard file there is unverifiable, since the fetch may bring another. ``git am`` and
``git apply`` take their files from a patch (data_writes.py). Cold: protect.py imports it
for those git subcommands only, in a work tree that holds a project guard file."""

from __future__ import annotations

import subprocess

from hookwise.policy import os_lite as os

# checkout/switch options that take a value (the branch they make, where they track)
_VALUED = frozenset(["-b", "-B", "-c", "-C", "--orphan", "--conflict", "-t", "--track"])
_MAKES_BRANCH = frozenset(["-b", "-B", "-c", "-C"])
# reset's modes that write the work tree
_RESET_WRITES = frozenset(["--hard", "--keep", "--merge"])
# what moves the tree to a result git computes when it runs
_BISECT = "`git bisect` checks out the commits it picks"


def target(sub: str, rest: list[str]) -> tuple[str | None, str] | None:
    """The commit ``git SUB REST`` puts in place of the work tree: (rev, what); (None,
    what) when only git knows it; None when the work tree keeps HEAD's files (a new branch
    at HEAD, paths checked out: protect reads those as writes of the paths)."""
    if sub in ("checkout", "switch"):
        return _checkout(sub, rest)
    if sub == "reset":
        if not any(w in _RESET_WRITES for w in rest):
            return None
        operands = [w for w in rest if not w.startswith("-")]
        if "--" in rest or len(operands) > 1:
            return None
        return (operands[0], "`git reset` puts its commit's files in place") if operands else None
    if sub == "rebase":
        if any(w == "--onto" or w.startswith("--onto=") or w == "--root" for w in rest):
            return (None, "`git rebase --onto` rebuilds the work tree on another commit")
        return None
    if sub == "bisect":
        words = [w for w in rest if not w.startswith("-")]
        if words[:1] in (["start"], ["bad"], ["good"], ["new"], ["old"], ["skip"], ["next"]):
            return (None, _BISECT)
        return None
    return None


# (how git reads it, the revisions it names): "diff" a change between two trees (``git
# diff --quiet REVS``: BASE...REV is from their common base), "log" the commits that
# changed a path (``git rev-list -n1 REVS``)
Check = tuple[str, tuple[str, ...]]
# options of the merging subcommands that take a value (not a revision)
_MERGE_VALUED = frozenset(
    ["-m", "-F", "--file", "-s", "--strategy", "-X", "--strategy-option", "--into-name",
     "-x", "--exec", "--mainline", "--depth", "--deepen", "--shallow-since", "--upstream",
     "--shallow-exclude", "-j", "--jobs", "--recurse-submodules-default", "-o",
     "--server-option", "--negotiation-tip", "--cleanup"]
)  # fmt: skip
# what ends or steps a merge already under way (the tree goes back to, or stays at, HEAD)
_UNDER_WAY = frozenset(
    ["--abort", "--quit", "--continue", "--skip", "--edit-todo", "--show-current-patch"]
)  # fmt: skip
_UPSTREAM = "@{upstream}"


def incoming(sub: str, rest: list[str]) -> tuple[list[Check], str] | None:
    """What ``git SUB REST`` merges into the work tree, as checks git answers before it
    runs (changed), and what the command does; None when it merges nothing."""
    operands = _merge_operands(rest)
    if operands is None:
        return None
    if sub == "merge":
        revs = operands or [_UPSTREAM]
        return [("diff", (f"HEAD...{rev}",)) for rev in revs], "`git merge` brings in"
    if sub == "pull":
        return _pulled(operands), "`git pull` brings in (what its remote held when last fetched)"
    if sub == "rebase":
        if len(operands) > 2:
            return None
        upstream = operands[0] if operands else _UPSTREAM
        if len(operands) == 2:  # rebase UPSTREAM BRANCH: BRANCH checked out, then moved
            branch = operands[1]
            return [("diff", ("HEAD", branch)), ("diff", (f"{branch}...{upstream}",))], (
                "`git rebase` replays its branch onto"
            )
        return [("diff", (f"HEAD...{upstream}",))], "`git rebase` replays this branch onto"
    if sub in ("cherry-pick", "revert"):
        if not operands:
            return None
        what = f"`git {sub}` applies the changes of"
        if any(o.startswith("^") for o in operands):
            return [("log", tuple(operands))], what
        return [("log", (o if ".." in o else f"{o}^!",)) for o in operands], what
    if sub == "stash" and operands[:1] in (["pop"], ["apply"]):
        stash = operands[1] if len(operands) > 1 else "stash@{0}"
        stash = f"stash@{{{stash}}}" if stash.isdigit() else stash
        return [("diff", (f"{stash}^1", stash))], f"`git stash {operands[0]}` brings back"
    return None


def _merge_operands(rest: list[str]) -> list[str] | None:
    """The revisions (and remotes) among ``rest``; None when the command only ends or
    steps a merge under way."""
    operands: list[str] = []
    skip = False
    for word in rest:
        if skip:
            skip = False
            continue
        if word in _UNDER_WAY:
            return None
        if word == "--":
            break
        if word in _MERGE_VALUED:
            skip = True
            continue
        if word.startswith("-"):
            continue
        operands.append(word)
    return operands


def _pulled(operands: list[str]) -> list[Check]:
    """``git pull [REMOTE [REFSPEC...]]``: the remote-tracking branches it merges (a
    refspec's source under ``REMOTE/``), else the branch's upstream."""
    if len(operands) < 2:
        return [("diff", (f"HEAD...{_UPSTREAM}",))]
    remote = operands[0]
    out: list[Check] = []
    for spec in operands[1:]:
        source = spec.lstrip("+").split(":", 1)[0].removeprefix("refs/heads/")
        out.append(("diff", (f"HEAD...{remote}/{source}",)))
    return out


def changed(cwd: str, check: Check, relatives: list[str]) -> bool | None:
    """Whether what ``check`` reads changes any of ``relatives`` (paths from the work
    tree's top): True, False, or None when git cannot tell (a revision it cannot read)."""
    how, revs = check
    if any("$" in r or "`" in r for r in revs):
        return None  # (a revision the line computes)
    if how == "diff":
        code, _ = _git(cwd, "diff", "--quiet", "--no-ext-diff", "--no-textconv", *revs, "--",
                       *relatives)  # fmt: skip
        return {0: False, 1: True}.get(code)
    code, listed = _git(cwd, "rev-list", "-n1", *revs, "--", *relatives)
    return bool(listed.strip()) if code == 0 else None


def absent(cwd: str, check: Check, *, fetches: bool) -> bool:
    """Whether a revision ``check`` names is none git knows (then git stops: nothing is
    merged), as opposed to one it cannot read. Before a fetch (``fetches``) only a branch
    without an upstream is: any remote-tracking branch may come with the fetch."""
    if fetches:
        if not any(_UPSTREAM in rev for rev in check[1]):
            return False
        code, head = _git(cwd, "symbolic-ref", "-q", "HEAD")
        if code != 0:
            return True  # (a detached HEAD has no upstream: git pull stops)
        code, upstream = _git(cwd, "for-each-ref", "--format=%(upstream)", head.strip())
        return code == 0 and not upstream.strip()
    for rev in check[1]:
        for word in rev.lstrip("^").replace("...", " ").replace("..", " ").split():
            name = word.removesuffix("^!").removesuffix("^1")
            if _git(cwd, "rev-parse", "--verify", "-q", f"{name}^{{commit}}")[0] != 0:
                return True
    return False


def _checkout(sub: str, rest: list[str]) -> tuple[str | None, str] | None:
    operands: list[str] = []
    start_of_branch = False
    skip = False
    for word in rest:
        if skip:
            skip = False
            continue
        if word == "--":
            return None  # (paths: their own writes)
        if word == "--orphan":
            return (None, f"`git {sub} --orphan` empties the index and the tree it keeps")
        if word in _VALUED:
            skip = True
            start_of_branch = start_of_branch or word in _MAKES_BRANCH
            continue
        if word.startswith("-"):
            continue
        operands.append(word)
    if len(operands) != 1:
        return None  # (none: HEAD; several: paths of a checkout)
    return (operands[0], f"`git {sub}` puts {operands[0]}'s files in place")


# The hook runs git in a repository the agent can write, so git's own ways of running
# other programs are shut: no transport at all (a partial clone's lazy fetch of a missing
# object would run `ext::`, ssh or a local upload-pack its config names; GIT_ALLOW_PROTOCOL
# overrides the repository's protocol.*.allow), no fsmonitor, no pager or prompt; and the
# system's git, not the first `git` on PATH (a directory the agent can write: a planted
# `git` would run inside the hook, past every reading of a command). No system git: the
# tree is unknown (fail closed).
_SAFE_CONFIG = ("-c", "core.fsmonitor=false", "-c", "protocol.allow=never", "--no-pager")
_SYSTEM_PATH = "/usr/bin:/bin"


def _git(cwd: str, *args: str) -> tuple[int, str]:
    import shutil

    program = shutil.which("git", path=_SYSTEM_PATH)
    if program is None:
        return (-1, "")
    env = {k: v for k, v in os.environ_copy().items() if not k.startswith("GIT_")}
    env.update(GIT_ALLOW_PROTOCOL="none", GIT_TERMINAL_PROMPT="0", GIT_OPTIONAL_LOCKS="0")
    try:
        done = subprocess.run(
            [program, *_SAFE_CONFIG, *args], cwd=cwd, capture_output=True, text=True,
            timeout=10, check=False, env=env, stdin=subprocess.DEVNULL,
        )  # fmt: skip
    except (OSError, subprocess.SubprocessError):
        return (-1, "")
    return (done.returncode, done.stdout)


def commits(cwd: str, rev: str) -> list[str]:
    """The commits ``git checkout REV`` may move to: REV itself, else the remote-tracking
    branches of that name (git's DWIM makes a branch from one); [] when none (git stops,
    or REV names paths)."""
    if _git(cwd, "rev-parse", "--verify", "-q", f"{rev}^{{commit}}")[0] == 0:
        return [rev]
    code, listed = _git(cwd, "for-each-ref", "--format=%(refname)", "refs/remotes/")
    if code != 0:
        return [rev]  # (git cannot tell: read as the rev, which then lacks every file)
    return [ref for ref in listed.split() if ref.endswith("/" + rev)]


def lacks(cwd: str, rev: str, relative: str) -> bool:
    """Whether a commit ``rev`` may move to lacks ``relative`` in its tree (or git cannot
    tell): git's own reading."""
    return any(
        _git(cwd, "cat-file", "-e", f"{commit}:{relative}")[0] != 0 for commit in commits(cwd, rev)
    )


def tracked_guards(cwd: str, guards: list[str]) -> list[tuple[str, str]]:
    """Of ``guards`` (absolute), those in this work tree that HEAD tracks: (absolute,
    relative to the work tree's top)."""
    top = cwd
    while not os.path.lexists(os.path.join(top, ".git")):
        parent = os.path.dirname(top)
        if parent == top:
            return []
        top = parent
    out: list[tuple[str, str]] = []
    for path in guards:
        if path.startswith(top + "/") and os.path.isfile(path):
            relative = path[len(top) + 1 :]
            if _git(top, "cat-file", "-e", f"HEAD:{relative}")[0] == 0:
                out.append((path, relative))
    return out
