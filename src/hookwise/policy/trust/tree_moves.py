"""A git command that puts another commit's tree in place of the work tree's (``git
checkout HEAD~1``, ``switch -d origin/main``, ``reset --hard REV``, ``revert``, ``rebase
--onto``, ``bisect start``) deletes every tracked file that tree lacks: the project's policy
among them (red team s33 F: after it, the hook fails closed for every call).

The commit is read with git's own trees (``git cat-file -e REV:PATH``) where the command
names it; where the tree that results is known only when git runs (a revert, a rebase
onto another base, a bisection), the command is unverifiable. Cold: protect.py imports it
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
_COMPUTED = {
    "revert": "`git revert` undoes a commit's changes (one may have added the policy)",
    "bisect": "`git bisect` checks out the commits it picks",
}


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
            return (None, _COMPUTED["bisect"])
        return None
    if sub == "revert" and not any(w in ("--quit", "--abort", "--skip") for w in rest):
        return (None, _COMPUTED["revert"])
    return None


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
