"""The project scopes of the directories a command line moves into.

Which project policies apply was decided once, from the event's cwd, while ``cd`` along the
line was followed only for the paths rules match: from a project's root, ``cd sub && curl
...`` ran curl in ``sub/`` without ``sub/``'s trusted deny (red team s26 #5; the same for
``git -C sub``, ``env -C sub``, ``(cd sub; ...)``, a shell tool's own directory argument).
So the hook loads the policy again with each directory the line runs a command in
(canonical.command_dirs) that brings a project scope of its own: a ``.hookwise/`` the cwd's
walk does not reach, or a file the trust store pins there (gone or given away, it fails
closed as in the cwd). Their files apply to the whole line, restrictive parts only (an
allow of ``sub/`` must not approve what runs in the parent). A ``cd`` to a directory known
only when it runs (``cd "$X"``) could enter any nested project: every trusted (pinned)
policy below the cwd's project applies the same way.
"""

from __future__ import annotations

from hookwise.policy import canonical, fastjson
from hookwise.policy import os_lite as os
from hookwise.policy.trust.scopes import (
    PROJECT_DIR,
    _has_policy_dir,
    policy_dirs,
    read_policy_file,
    start_dirs,
    trust_store_path,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from hookwise.policy.canonical import Event


# More directories than this on one line are followed as one known only when it runs: every
# pinned policy below the cwd's project applies (a line of hundreds of cd's is no developer's)
MAX_FOLLOWED = 64


def named_dirs(ev: Event) -> list[str]:
    """The directories of the paths a call names (a file tool's, a command's operands and
    redirect targets; a path written with a trailing "/" is one itself): a nested project's
    file rules apply to its files whatever the cwd (red team s27 #6: Write
    sub/secrets/k.txt from the parent got no decision from sub's rules)."""
    out = [
        ref.absolute if ref.raw.endswith("/") else os.path.dirname(ref.absolute)
        for ref in ev.paths
        if ref.absolute
    ]
    return list(dict.fromkeys(out))


def moved(ev: Event) -> tuple[list[str], bool]:
    """(the directories other than the event's cwd where the line runs a command or whose
    files the call names, whether one is known only when it runs)."""
    named = named_dirs(ev)
    script = ev.script if ev.tool == canonical.SHELL else None
    if script is None:
        return [d for d in named if d != ev.cwd], False
    where = ev.shell_cwd
    home = ev.env.get("HOME") or ""
    dirs = canonical.command_dirs(script.commands, where, home, None, ev.env.get("CDPATH"))
    known = [d for d in dict.fromkeys([where, *dirs, *named]) if d and d != ev.cwd]
    return known, not where or None in dirs


def _pinned(env: dict[str, str]) -> list[str]:
    """The project directories of every policy file the trust store pins."""
    try:
        data = read_policy_file(trust_store_path(env), "discovered")
        document = fastjson.loads(data.decode("utf-8")) if data else {}
    except (OSError, ValueError):
        return []  # (a store the compiler cannot read trusts nothing either)
    files = document.get("files") if isinstance(document, dict) else None
    if not isinstance(files, dict):
        return []
    out = [  # a project's files only (.hookwise/policy*.yaml), not the user's or a named one
        os.path.dirname(os.path.dirname(path))
        for path in map(str, files)
        if os.path.basename(os.path.dirname(path)) == PROJECT_DIR
    ]
    return list(dict.fromkeys(p for p in out if p.startswith("/")))


def _at_or_below(path: str, top: str) -> bool:
    return path == top or path.startswith(top.rstrip("/") + "/")


def extra_starts(ev: Event, cwd: str, env: dict[str, str]) -> list[str]:
    """The directories whose project scope the line enters beyond ``cwd``'s (see above)."""
    if env.get("HOOKWISE_POLICY"):
        return []  # one file named: no project is searched, wherever the line goes
    known, unknown = moved(ev)
    if not known and not unknown:
        return []
    if len(known) > MAX_FOLLOWED:  # as for a directory known only when it runs (below)
        known, unknown = [], True
    ordered = policy_dirs(cwd, env)
    current = set(ordered)
    starts = start_dirs(cwd, env)
    pinned = _pinned(env)

    def reached(directory: str) -> bool:  # (its scope is part of the cwd's already)
        return any(_at_or_below(s, directory) for s in starts)

    brings: dict[str, bool] = {}  # directory -> it or a parent has a scope the cwd lacks

    def new_scope(directory: str) -> bool:
        """Each directory stat'ed once per call: a line entering deeper and deeper
        directories (cd a/a/...; x700) costs its number of directories, not their square
        (red team s27 #2)."""
        walked: list[str] = []
        current_dir = os.path.abspath(directory or ".")
        found = False
        while current_dir not in brings:
            walked.append(current_dir)
            if current_dir not in current and _has_policy_dir(current_dir):
                found = True
                break
            parent = os.path.dirname(current_dir)
            if parent == current_dir:
                break
            current_dir = parent
        else:
            found = brings[current_dir]
        for seen in walked:
            brings[seen] = found
        return found

    out: list[str] = []
    for directory in known:
        held = [p for p in pinned if _at_or_below(directory, p) and not reached(p)]
        if held or new_scope(directory):
            out.append(directory)
    if unknown:
        roots = [*ordered[:1], *starts]
        for project in pinned:
            below = any(_at_or_below(project, r) and project != r for r in roots)
            if below and not reached(project) and project not in out:
                out.append(project)
    return out
