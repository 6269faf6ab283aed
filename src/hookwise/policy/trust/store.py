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
from hookwise.policy.trust.scopes import read_policy_file, trust_store_path

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


def store_path(env: dict[str, str]) -> str:
    return trust_store_path(env)


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


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

    @classmethod
    def everything_trusted(cls) -> Trust:
        """For callers that vouch for every file themselves (tests, a chosen file)."""
        return cls(everything=True)

    @classmethod
    def from_store(cls, data: bytes | None, env: dict[str, str]) -> Trust:
        try:
            trust = cls(parse_store(data, store_path(env)))
        except TrustStoreError as exc:
            trust = cls(problem=str(exc))
        from hookwise.policy import confinement

        trust.confined = confinement.confined(env)
        return trust

    def decide(self, path: str, data: bytes, settings: dict[str, Any]) -> tuple[bool, str]:
        """(trusted, why) for a project or local file, given the user/managed settings."""
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
        if linked is None:
            for root in settings.get("trust.projects") or ():
                base = canonical_path(os.path.expanduser(str(root)))
                if real == base or real.startswith(base.rstrip("/") + "/"):
                    return True, f"under {root}, trusted by settings.trust.projects"
        pinned = self.files.get(real)
        if pinned is None:
            return False, "not trusted"
        if pinned != digest(data):
            return False, "changed since it was trusted"
        if linked is not None and self.files.get(linked) != pinned:
            # a repository's .hookwise/policy.yaml linked to a file trusted elsewhere must not
            # bring that file's allow rules and validators (run in this directory) along
            return False, f"a symlink to {real}, which is trusted where it is, not here"
        return True, "trusted (content hash matches)"


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
