"""Which project policy files the user trusts: exact content, pinned by hash, per user.

A policy from a repository (project and local scope, nested ones too) is content the user
did not write. Until the user trusts that file's exact bytes (``hookwise policy trust``),
the compiler applies only its restrictive parts (see :data:`RESTRICTIVE_ACTIONS`); a
changed file is untrusted again. The store is ``$XDG_CONFIG_HOME/hookwise/trust.json``
(``~/.config/hookwise/trust.json``): ``{"version": 1, "files": {realpath: {"sha256": hex,
"trusted_at": iso}}}``. The user (or managed) policy can trust whole directory trees
(``settings.trust.projects``) or turn the check off (``settings.trust.check: false``).

The hook never reads this module: the cache key holds the store's bytes, and the store is
parsed only when the policy is compiled. Standard library only.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from typing import Any

from hookwise.policy.rules import actions
from hookwise.policy.trust.scopes import read_policy_file, sessions_path, trust_store_path

STORE_VERSION = 1
# What an untrusted file may still do: add restrictions, context and messages.
RESTRICTIVE_ACTIONS = actions.RESTRICTIVE
# Settings an untrusted file may set, with the only values it may set them to.
TIGHTENING_SETTINGS: dict[str, frozenset[Any]] = {
    "on_error.tool_events": frozenset(["deny"]),
    "on_error.other_events": frozenset(["deny"]),
    "ask_fallback": frozenset(["deny"]),
    "unparsable": frozenset(["deny"]),
    "unverifiable": frozenset(["deny", "ask"]),
}
# Settings honoured only from the user and managed scopes, trusted project or not: they
# name files or services, decide trust itself, or switch off a protection.
USER_ONLY_SETTINGS = frozenset(
    [
        "audit.path",
        "audit.max_bytes",
        "audit.keep",
        "trust.check",
        "trust.projects",
        "self_protection",
        "require_confinement",  # (a repository turning it on would lock its users out)
        "approvals",  # a repository must not send requests (or tokens) elsewhere
    ]
)
TRUSTED_SCOPES = frozenset(["managed", "user"])
# Seconds around a session's recorded start and end: a file's change time comes from a
# coarser clock than the supervisor's ``time.time()``.
SESSION_SLACK = 1.0


def store_path(env: dict[str, str]) -> str:
    return trust_store_path(env)


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def session_intervals(data: bytes | None) -> list[tuple[float, float]]:
    """(start, end) of every ``hookwise run`` session recorded (run/session_log.py); a
    session without an end (running, or its supervisor killed) lasts until now."""
    starts: dict[str, float] = {}
    out: list[tuple[float, float]] = []
    for line in (data or b"").splitlines():
        try:
            record = json.loads(line)
        except ValueError:
            continue
        if not isinstance(record, dict) or not isinstance(record.get("session"), str):
            continue
        start, end = record.get("start"), record.get("end")
        if isinstance(start, (int, float)):
            starts[record["session"]] = float(start)
        elif isinstance(end, (int, float)) and record["session"] in starts:
            out.append((starts.pop(record["session"]) - SESSION_SLACK, float(end) + SESSION_SLACK))
    out += [(start - SESSION_SLACK, float("inf")) for start in starts.values()]
    return out


def _changed_at(path: str) -> float | None:
    try:
        return os.stat(path).st_ctime
    except OSError:
        return None


def canonical_path(path: str) -> str:
    return os.path.realpath(path)


def linked_in(path: str) -> str | None:
    """The path as loaded, when a symlink in its last two parts (``.hookwise/`` or the file)
    leads elsewhere; None when the file really is in its directory. The trust store pins
    real paths: without this, a repository could link its policy to a file the user
    trusted in another project and be trusted with it (CVE-2026-40068's class)."""
    where = os.path.normpath(os.path.abspath(path))
    directory = os.path.dirname(os.path.dirname(where))
    expected = os.path.join(canonical_path(directory), os.path.relpath(where, directory))
    return None if canonical_path(where) == expected else where


class TrustStoreError(ValueError):
    """The trust store is not what hookwise writes; nothing in it is trusted."""


def parse_store(data: bytes | None, origin: str = "trust store") -> dict[str, str]:
    """realpath -> sha256 of every trusted file."""
    if data is None or data == b"!unreadable":
        return {}
    try:
        document = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise TrustStoreError(f"{origin}: not JSON: {exc}") from None
    if not isinstance(document, dict) or not isinstance(document.get("files"), dict):
        raise TrustStoreError(f"{origin}: expected an object with a 'files' object")
    out: dict[str, str] = {}
    for path, entry in document["files"].items():
        if isinstance(entry, dict) and isinstance(entry.get("sha256"), str):
            out[path] = entry["sha256"]
    return out


class Trust:
    """The trust decisions for one compilation."""

    def __init__(
        self,
        files: dict[str, str] | None = None,
        *,
        everything: bool = False,
        problem: str | None = None,
    ) -> None:
        self.files = files or {}
        self.everything = everything
        self.problem = problem  # the store could not be read (nothing in it counts)
        # inside `hookwise run`: a policy the agent could have written is never trusted
        self.confined = False
        self.session_start: float | None = None  # inside: when this session began
        # when `hookwise run` sessions ran: what was written then is not tree-trusted
        self.sessions: list[tuple[float, float]] = []
        # trusted policy files that are gone from the directories this policy reads
        self.vanished: list[str] = []
        # ...and those whose name now leads to another file (a symlink put on the way)
        self.moved: list[str] = []
        # another user's .hookwise/ above the start directories: not read (scopes.owned)
        self.foreign: list[str] = []
        # ...and of those, the trusted ones: (pinned file, the uid that owns its directory)
        self.disowned: list[tuple[str, int]] = []
        # files reached only through a directory the command line moves into (followed.py):
        # their restrictive parts apply to the whole line, never their allows
        self.followed: set[str] = set()

    @classmethod
    def everything_trusted(cls) -> Trust:
        """For callers that vouch for every file themselves (tests, a chosen file)."""
        return cls(everything=True)

    @classmethod
    def from_store(
        cls, data: bytes | None, env: dict[str, str], directories: list[str] | None = None
    ) -> Trust:
        """``directories``: where project policies are looked for (every ancestor of the
        event's start directories); a trusted file missing there is ``vanished``."""
        try:
            trust = cls(parse_store(data, store_path(env)))
        except TrustStoreError as exc:
            trust = cls(problem=str(exc))
        from hookwise.policy.trust.scopes import foreign_dirs

        trust.foreign = foreign_dirs(directories or [])
        pinned = _pinned_here(trust.files, directories)
        trust.vanished = [path for path in pinned if not os.path.lexists(path)]
        trust.moved = [path for path in pinned if trust.resolves_elsewhere(path)]
        trust.disowned = [(path, uid) for path in pinned if (uid := _disowned(path)) is not None]
        from hookwise.policy import confinement

        trust.confined = confinement.confined(env)
        if trust.confined:
            # the session's socket, bound before the agent started, in a directory
            # read-only inside: nothing the agent wrote is older
            socket = env.get(confinement.AUDIT_VARIABLE) or ""
            try:
                trust.session_start = os.lstat(socket).st_ctime
            except OSError:
                trust.session_start = 0.0  # (cannot tell: everything counts as written now)
        try:
            recorded = read_policy_file(sessions_path(env), "discovered")
        except OSError:
            recorded = b'{"session": "?", "start": 0}'  # unreadable: fail closed
        trust.sessions = session_intervals(recorded)
        return trust

    def resolves_elsewhere(self, pinned: str) -> bool:
        """Whether the pinned name now leads to another file than the one trusted there: a
        symlink put where the file, its ``.hookwise/``, the project or any directory above
        was (moved aside and linked back, or linked to an older directory). The pinned key
        is the real path at trust time, so it resolves to itself unless something on its
        way became a link; a link trusted as such (``linked_in``) must lead to a file
        pinned with the same content. Judged by the name, not by the path walk the link
        redirects: otherwise the file read is simply "new" (restrictive parts only) and one
        rename switches the trusted rules off."""
        if not os.path.lexists(pinned):
            return False
        real = canonical_path(pinned)
        if real == pinned:
            return False
        return self.files.get(real) != self.files[pinned]

    def written_in_session(self, path: str) -> str | None:
        """Why a tree must not vouch for ``path``: its change time falls inside a
        `hookwise run` session, when the agent could write it. None otherwise."""
        changed = _changed_at(path)
        if changed is None or not any(a <= changed <= b for a, b in self.sessions):
            return None
        return (
            "written while a `hookwise run` session ran, so the agent may have written it: "
            "settings.trust.projects does not vouch for it; read it and trust it with "
            f"`hookwise policy trust {path}`"
        )

    def tampered(self, path: str) -> str | None:
        """Inside a session: an error for a project policy file written during it (it may
        have replaced or cut down a policy that was there, whose rules would then be lost
        for the rest of the session); the hook fails closed in its scope."""
        if not self.confined or self.session_start is None:
            return None
        from hookwise.policy import confinement

        if confinement.on_read_only_mount(path):
            return None
        changed = [_changed_at(p) for p in (path, os.path.dirname(path))]
        if not any(c is not None and c >= self.session_start for c in changed):
            return None
        return (
            "written during this `hookwise run` session: a policy cannot change while the "
            "agent runs (it may have replaced one that was there); tool calls are denied "
            "here until the session ends and the file is trusted again"
        )

    def changed(self, path: str, data: bytes) -> str | None:
        """An error for a file pinned with other content: the rules trusted there are gone
        (an edit, a checkout, or the agent replacing them by any program), so the hook
        fails closed in its scope until the file is read and trusted again. Applying only
        the new content's restrictive rules, as for a file never trusted, would let one
        write of any spelling switch the project's rules off."""
        pinned = self.files.get(canonical_path(path))
        if pinned is None or pinned == digest(data):
            return None
        return (
            "changed since you trusted it: the rules trusted there no longer hold, so tool "
            f"calls are denied here until you read it and run `hookwise policy trust {path}` "
            f"(or `hookwise policy untrust {path}` to stop applying it)"
        )

    def decide(self, path: str, data: bytes, settings: dict[str, Any]) -> tuple[bool, str]:
        """(trusted, why) for a project or local file, given the user/managed settings."""
        if path in self.followed:
            return False, (
                "applies to this command line because it moves into the file's directory "
                "(`cd`, `-C`): its restrictive rules only"
            )
        if self.everything:
            return True, "trusted by the caller"
        if self.confined:
            from hookwise.policy import confinement

            if not confinement.on_read_only_mount(path):
                return False, (
                    "writable inside this `hookwise run` session, so the agent may have "
                    "written it: untrusted until the session ends and you trust it again"
                )
        if settings.get("trust.check", True) is False:
            return True, "the user policy turns the trust check off (settings.trust.check)"
        real = canonical_path(path)
        linked = linked_in(path)
        pinned = self.files.get(real)
        if pinned is not None and pinned != digest(data):
            # a file trusted once by its hash that changed is changed, under a trusted tree
            # too: the tree vouches only for content nobody pinned (red team s25 #9)
            return False, "changed since it was trusted"
        refused: str | None = None
        if linked is None:
            for root in settings.get("trust.projects") or ():
                base = canonical_path(os.path.expanduser(str(root)))
                if real == base or real.startswith(base.rstrip("/") + "/"):
                    refused = self.written_in_session(real)
                    if refused is None:
                        return True, f"under {root}, trusted by settings.trust.projects"
                    break
        if pinned is None:
            return False, refused or "not trusted"
        if pinned != digest(data):
            return False, "changed since it was trusted"
        if linked is not None and self.files.get(linked) != pinned:
            # a repository's .hookwise/policy.yaml linked to a file trusted elsewhere must not
            # bring that file's allow rules and validators (run in this directory) along
            return False, f"a symlink to {real}, which is trusted where it is, not here"
        return True, "trusted (content hash matches)"


def _disowned(pinned: str) -> int | None:
    """The owner of a pinned file's ``.hookwise/`` when discovery skips it as another
    user's (scopes.owned), else None. Giving the directory away (a root agent's
    ``os.chown('.hookwise', 65534, -1)``, red team s26 #3) takes the file out of discovery
    while it stays where it was, unchanged: neither vanished nor moved, and the rules
    trusted there would silently stop applying."""
    from hookwise.policy.trust.scopes import owned

    try:
        uid = os.lstat(os.path.dirname(pinned)).st_uid
    except OSError:
        return None
    return None if owned(uid) else uid


def _pinned_here(files: dict[str, str], directories: list[str] | None) -> list[str]:
    """The pinned paths that concern these directories: pinned where they look (as named
    and as resolved), or pinned elsewhere and now resolving to where they look (the
    project moved and linked back, read from the host's real cwd): the trust record is
    matched with what discovery finds by the file's identity, not only by its name."""
    if not files:
        return []
    walked = set(_policy_paths(directories))
    return [path for path in files if path in walked or canonical_path(path) in walked]


def _policy_paths(directories: list[str] | None) -> list[str]:
    """The project and local policy paths of ``directories`` and all their ancestors, as
    the store pins them (real paths)."""
    from hookwise.policy.trust.scopes import LOCAL_FILE, PROJECT_DIR, PROJECT_FILE

    seen: dict[str, None] = {}
    for start in directories or ():
        # as given too: a project (or a directory above) moved aside and linked back is
        # found by its old name only (its real path is the new one, which nobody pinned)
        given = os.path.normpath(os.path.abspath(start))
        for top in dict.fromkeys([given, canonical_path(start)]):
            current = top
            while True:
                seen.setdefault(current)
                parent = os.path.dirname(current)
                if parent == current:
                    break
                current = parent
    return [
        os.path.join(directory, PROJECT_DIR, name)
        for directory in seen
        for name in (PROJECT_FILE, LOCAL_FILE)
    ]


VANISHED = (
    "trusted here, and now gone: the rules trusted there no longer hold (deleted by an "
    "edit, a checkout, or the agent), so tool calls are denied here until you restore it "
    "or run `hookwise policy untrust {path}`"
)
DISOWNED = (
    "trusted here, and its .hookwise/ now belongs to another user (uid {uid}), so discovery "
    "skips it as that user's: the rules trusted there no longer hold, so tool calls are "
    "denied here until you give the directory back to yourself (chown) or run `hookwise "
    "policy untrust {path}`"
)
MOVED = (
    "trusted here, and now this name leads to {real} (a symlink was put on its way: the "
    "file, its .hookwise/, the project or a directory above moved aside and linked back): "
    "the rules trusted there no longer hold, so tool calls are denied here until you put "
    "the file back, or read what it leads to and run `hookwise policy trust {path}` (or "
    "`hookwise policy untrust {path}`)"
)


# ------------------------------------------------------------------------ the store, written


def load_store_document(env: dict[str, str]) -> dict[str, Any]:
    path = store_path(env)
    data = read_policy_file(path, "discovered")
    if data is None:
        return {"version": STORE_VERSION, "files": {}}
    parse_store(data, path)  # raises TrustStoreError for a damaged store
    document: dict[str, Any] = json.loads(data.decode("utf-8"))
    return document


def write_store_document(env: dict[str, str], document: dict[str, Any]) -> str:
    from pathlib import Path

    from hookwise.config.atomic import write_text_atomic

    path = store_path(env)
    text = json.dumps(document, indent=2, sort_keys=True) + "\n"
    write_text_atomic(Path(path), text, follow_symlinks=True)
    return path


def trust_file(path: str, env: dict[str, str]) -> tuple[str, str]:
    """Pin ``path``'s current content; (realpath, sha256)."""
    data = read_policy_file(path, "explicit")
    assert data is not None
    real = canonical_path(path)
    document = load_store_document(env)
    entry = {
        "sha256": digest(data),
        "trusted_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }
    document.setdefault("files", {})[real] = entry
    linked = linked_in(path)
    if linked is not None:  # trusted through this link too (see linked_in)
        document["files"][linked] = dict(entry)
    write_store_document(env, document)
    return real, entry["sha256"]


def untrust_file(path: str, env: dict[str, str]) -> bool:
    """Forget ``path``; whether it was trusted."""
    real = canonical_path(path)
    document = load_store_document(env)
    files = document.setdefault("files", {})
    key = linked_in(path) or real  # through a link: untrusted here, still where it is
    if key not in files:
        return False
    del files[key]
    write_store_document(env, document)
    return True
