"""Whether git surely ignores a path: what ``git add -A`` leaves out (rules/kept.py: a
secret copied under a name git does not ignore is published by the next ``git add -A``
and push, where the original was not: ``mv .env .env.bak`` with ``.env`` in .gitignore).

Read from the work tree's own ignore files only (each ``.gitignore`` from the top of the
work tree down to the path's directory, and ``.git/info/exclude``), as git matches them.
The answer leans to "not ignored", the side on which the copy stays a read: a ``!``
line anywhere (a later line may take an ignore back), a pattern this module does not
read (braces), an unreadable file and the user's global excludes (not read) never make
a path ignored. Cold: only for a copy whose names a rule guards. Standard library only."""

from __future__ import annotations

from hookwise.policy import os_lite as os  # os without its import cost

# an ignore file larger than this is not read (the path is then not known ignored)
_MAX_BYTES = 256 * 1024


def work_tree(directory: str) -> str | None:
    """The top of the git work tree holding ``directory`` (a ``.git`` there or above)."""
    path = os.path.normpath(directory)
    while True:
        if os.path.lexists(f"{path.rstrip('/')}/.git"):
            return path
        if path == "/":
            return None
        path = os.path.dirname(path)


def ignored(path: str) -> bool | None:
    """True: git ignores ``path`` (absolute); False: it surely does not or it is not known;
    None: no git work tree holds it."""
    top = work_tree(os.path.dirname(path))
    if top is None:
        return None
    relative = path[len(top.rstrip("/")) + 1 :]
    parts = relative.split("/")
    files = [(f"{top}/.git/info/exclude", "")]
    for depth in range(len(parts)):  # the work tree's top, then each directory down
        base = "/".join(parts[:depth])
        files.append((f"{top.rstrip('/')}/{base + '/' if base else ''}.gitignore", base))
    hit = False
    for name, base in files:
        lines = _lines(name)
        if lines is None:
            return False
        for line in lines:
            if line.startswith("!"):
                return False  # (a later line may un-ignore it: not surely ignored)
            tail = relative[len(base) + 1 :] if base else relative
            hit = hit or _matches(line, tail)
    return hit


def _lines(name: str) -> list[str] | None:
    """The patterns of an ignore file ([] when there is none; None: it cannot be read as
    a plain file, so what it says is not known)."""
    try:
        st = os.lstat(name)
    except OSError:
        return []
    if not os.S_ISREG(st.st_mode) or st.st_size > _MAX_BYTES:
        return None  # (a link, a FIFO: not opened)
    try:
        fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return None
    try:
        data = os.read(fd, _MAX_BYTES + 1)
    finally:
        os.close(fd)
    out = []
    for raw in data.decode("utf-8", "replace").splitlines():
        line = raw.rstrip(" \t\r")
        if line and not line.startswith("#"):
            out.append(line[1:] if line.startswith("\\") else line)
    return out


def _matches(pattern: str, relative: str) -> bool:
    """Whether a positive ignore ``pattern`` matches ``relative`` or a directory above it
    (git does not descend into an ignored directory)."""
    from hookwise.policy.rules.glob_syntax import compile_glob
    from hookwise.policy.rules.globs import glob_match

    if "{" in pattern or "}" in pattern:
        return False  # (not git's syntax as hookwise's globs read it)
    only_dirs = pattern.endswith("/")
    pattern = pattern.rstrip("/")
    anchored = "/" in pattern
    pattern = pattern.lstrip("/")
    if not pattern:
        return False
    compiled = compile_glob(pattern)
    parts = relative.split("/")
    for end in range(1, len(parts) + 1):
        if only_dirs and end == len(parts):
            break  # (the path itself is a file)
        text = "/".join(parts[:end]) if anchored else parts[end - 1]
        if glob_match(compiled, text):
            return True
    return False
