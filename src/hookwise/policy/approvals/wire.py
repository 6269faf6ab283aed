"""The approval relay's parsers: the relay URL, the token, the canonical input, the answer.

``hookwise hook`` sends an ``ask`` to a person through ``hookwise serve`` (relay.py does the
talking). Everything here is a pure check that the hook must get exactly right, kept apart
so that each can be tested (and fuzzed) on its own:

- :func:`check_url`: the relay must be ``https://`` (or ``http://`` to a loopback address):
  anyone on the path of a plain-HTTP relay could read the request and forge the approval;
- :func:`read_token`: the agent-role token, from the variable or the file the user's policy
  names; a file inside the project, or one other users can read, is refused;
- :func:`canonical_input` / :func:`input_hash`: the bytes the request is bound to, exactly
  as the service recomputes them (docs/approvals.md, the contract);
- :func:`verify_answer`: the service's answer must be about this request (id, nonce,
  input hash, expiry) and well formed; anything else is a :class:`MismatchError`, which the hook
  turns into a denial (fail closed).

Standard library only: this runs in the hook, and only for an ``ask`` with a relay.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

STATUSES = ("pending", "allowed", "denied", "expired", "withdrawn")
DECIDED = {"allowed": "allow", "denied": "deny"}
NOTE_LIMIT = 2000  # the contract's cap on an approver's note
NAME_LIMIT = 200
TOKEN_LIMIT = 4096
LOOPBACK_NAMES = ("localhost", "localhost.", "ip6-localhost")


class ApprovalsError(ValueError):
    """settings.approvals cannot be used as written (a bad URL, no token...)."""


class MismatchError(ValueError):
    """The service's answer is not an answer to the request the hook made."""


# --------------------------------------------------------------------------- the URL


def is_loopback(host: str) -> bool:
    """Whether ``host`` (a URL's host name or address) is this machine."""
    name = host.strip("[]").lower()
    if name in LOOPBACK_NAMES:
        return True
    import ipaddress

    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def check_url(text: str, *, relay: bool = True) -> str:
    """The URL without a trailing slash, or ApprovalsError saying what is wrong.

    ``relay``: the service's base URL (https, or http to loopback only, no query); else a
    notification target (http or https; the service applies its SSRF checks to it).
    """
    from urllib.parse import urlsplit

    if not text or any(ord(c) < 0x21 or c == "\x7f" for c in text):
        raise ApprovalsError("expected a URL without spaces or control characters")
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError as exc:
        raise ApprovalsError(f"not a URL: {exc}") from None
    if parts.scheme not in ("https", "http"):
        raise ApprovalsError(f"expected an https:// URL, not {parts.scheme or 'no'} scheme")
    if not parts.hostname:
        raise ApprovalsError("the URL has no host")
    if parts.username is not None or parts.password is not None:
        raise ApprovalsError("credentials do not go in the URL (use token_env or token_file)")
    if port == 0:
        raise ApprovalsError("port 0 is not a port")
    if relay:
        if parts.query or parts.fragment:
            raise ApprovalsError("the service's base URL takes no query or fragment")
        if parts.scheme == "http" and not is_loopback(parts.hostname):
            raise ApprovalsError(
                "plain http:// is allowed only to a loopback address: anyone on the way "
                "could read the request and forge the approval; use https://"
            )
        return text.rstrip("/")
    return text


# --------------------------------------------------------------------------- the token


def _project_roots(cwd: str | None) -> list[str]:
    """The event's directory and the project around it (the nearest .git or .hookwise)."""
    if not cwd:
        return []
    here = os.path.realpath(cwd)
    roots = [here]
    probe = here
    while True:
        if os.path.exists(os.path.join(probe, ".git")) or os.path.isdir(
            os.path.join(probe, ".hookwise")
        ):
            roots.append(probe)
            break
        parent = os.path.dirname(probe)
        if parent == probe:
            break
        probe = parent
    return roots


def _inside(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip("/") + "/")


def check_token(value: str, origin: str) -> str:
    """A token fit for an Authorization header (no spaces, no control characters)."""
    token = value.strip()
    if not token:
        raise ApprovalsError(f"{origin} is empty")
    if len(token) > TOKEN_LIMIT or not all(0x21 <= ord(c) <= 0x7E for c in token):
        raise ApprovalsError(f"{origin} does not hold a token (one line of printable ASCII)")
    return token


def read_token(config: dict[str, Any], env: dict[str, str], cwd: str | None) -> str:
    """The agent-role token that settings.approvals names; ApprovalsError says why not."""
    name = config.get("token_env")
    if name:
        value = env.get(str(name))
        if not value:
            raise ApprovalsError(
                f"settings.approvals.token_env names ${name}, which is not set in the "
                "hook's environment"
            )
        return check_token(value, f"${name}")
    path = str(config.get("token_file") or "")
    if not path:
        raise ApprovalsError("settings.approvals has neither token_env nor token_file")
    given = os.path.abspath(path)
    real = os.path.realpath(path)
    for root in _project_roots(cwd):
        if _inside(given, root) or _inside(real, root):
            raise ApprovalsError(
                f"settings.approvals.token_file {path} is inside the project ({root}), "
                "whose files the repository and the agent control; keep it in your home "
                "directory (e.g. ~/.config/hookwise/agent-token, mode 600)"
            )
    try:
        fd = os.open(real, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError as exc:
        raise ApprovalsError(
            f"cannot read settings.approvals.token_file {path}: {exc.strerror}"
        ) from None
    try:
        import stat

        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise ApprovalsError(f"settings.approvals.token_file {path} is not a regular file")
        if info.st_mode & 0o007:
            raise ApprovalsError(
                f"settings.approvals.token_file {path} can be read by other users (mode "
                f"{stat.S_IMODE(info.st_mode):o}); a token must be private: chmod 600 {path}"
            )
        data = os.read(fd, TOKEN_LIMIT + 2)
    finally:
        os.close(fd)
    try:
        text = data.decode("ascii")
    except UnicodeDecodeError:
        raise ApprovalsError(f"settings.approvals.token_file {path} is not ASCII text") from None
    return check_token(text, f"settings.approvals.token_file {path}")


# --------------------------------------------------------------------------- the input


def canonical_input(value: Any) -> bytes:
    """The bytes an approval is bound to (sorted keys, no spaces, UTF-8, no NaN)."""
    import json

    text = json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    )
    return text.encode("utf-8")


def input_hash(value: Any) -> str:
    """``sha256:<hex>`` of :func:`canonical_input` (ValueError for a value JSON cannot hold)."""
    import hashlib

    try:
        data = canonical_input(value)
    except UnicodeEncodeError as exc:
        raise ValueError(f"the tool input holds text that is not valid Unicode: {exc}") from None
    return "sha256:" + hashlib.sha256(data).hexdigest()


# --------------------------------------------------------------------------- the answer


class Expected:
    """What the hook asked: the answer must match it."""

    __slots__ = ("expires_at", "id", "input_hash", "nonce", "remember_minutes")

    def __init__(
        self,
        request_id: str,
        nonce: str,
        hash_: str,
        expires_at: int,
        remember_minutes: int = 0,
    ) -> None:
        self.id = request_id
        self.nonce = nonce
        self.input_hash = hash_
        self.expires_at = expires_at
        self.remember_minutes = remember_minutes


class Verdict:
    """A verified answer: a decision (allowed/denied) or a closed request (expired...)."""

    __slots__ = (
        "approver",
        "decided_at",
        "decision",
        "note",
        "remember_minutes",
        "remembered_from",
        "status",
    )

    def __init__(self, status: str) -> None:
        self.status = status  # pending | allowed | denied | expired | withdrawn
        self.decision: str | None = None  # allow | deny
        self.approver = ""
        self.note = ""
        self.decided_at: int | None = None
        self.remember_minutes = 0
        self.remembered_from: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "decision": self.decision,
            "approver": self.approver,
            "note": self.note,
            "remember_minutes": self.remember_minutes,
            "remembered_from": self.remembered_from,
        }


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _same(answer: dict[str, Any], key: str, expected: Any) -> None:
    got = answer.get(key)
    if got != expected or type(got) is not type(expected):
        shown = repr(got)
        shown = shown if len(shown) <= 80 else shown[:77] + "..."
        raise MismatchError(f"{key} is {shown}, expected {expected!r}")


def verify_answer(answer: Any, expected: Expected, now_ms: int) -> Verdict:
    """Check one answer of the service against the request; MismatchError names what differs.

    A pending, expired or withdrawn request is returned as such (after the identity
    checks); an allowed or denied one must carry a well-formed decision that agrees with
    its status, and must arrive before the request's expiry.
    """
    if not isinstance(answer, dict):
        raise MismatchError(f"the answer is {type(answer).__name__}, not a JSON object")
    _same(answer, "id", expected.id)
    _same(answer, "nonce", expected.nonce)
    _same(answer, "input_hash", expected.input_hash)
    status = answer.get("status")
    if not isinstance(status, str) or status not in STATUSES:
        raise MismatchError(f"unknown status {status!r}")
    expires_at = answer.get("expires_at")
    if expires_at is not None and (not _is_int(expires_at) or expires_at > expected.expires_at):
        raise MismatchError(
            f"expires_at is {expires_at!r}, later than the requested {expected.expires_at}"
        )
    verdict = Verdict(status)
    decision = answer.get("decision")
    if status not in DECIDED:
        return verdict
    if not isinstance(decision, dict):
        raise MismatchError(f"status {status!r} without a decision")
    word = decision.get("decision")
    if word != DECIDED[status]:
        raise MismatchError(f"status {status!r} with decision {word!r}")
    if now_ms >= expected.expires_at:
        raise MismatchError(f"the request expired at {expected.expires_at} (now {now_ms})")
    approver = decision.get("approver")
    if not isinstance(approver, str) or not approver.strip() or len(approver) > NAME_LIMIT:
        raise MismatchError("the decision names no approver")
    if any(ord(c) < 0x20 or c == "\x7f" for c in approver):
        raise MismatchError("the approver's name holds control characters")
    note = decision.get("note", "")
    if note is None:
        note = ""
    if not isinstance(note, str) or len(note) > NOTE_LIMIT:
        raise MismatchError(f"the note is not a string of at most {NOTE_LIMIT} characters")
    remember = decision.get("remember_minutes", 0)
    if remember is None:
        remember = 0
    if not _is_int(remember) or not 0 <= remember <= expected.remember_minutes:
        raise MismatchError(
            f"remember_minutes is {remember!r}, more than the {expected.remember_minutes} "
            "this hook allows"
        )
    remembered = decision.get("remembered_from")
    if remembered is not None and not (isinstance(remembered, str) and 0 < len(remembered) <= 200):
        raise MismatchError("remembered_from is not a request id")
    if remembered is not None and word != "allow":
        raise MismatchError("only an allow can be remembered")
    decided_at = decision.get("decided_at")
    verdict.decision = word
    verdict.approver = approver
    verdict.note = note
    verdict.remember_minutes = remember
    verdict.remembered_from = remembered
    verdict.decided_at = decided_at if _is_int(decided_at) else None
    return verdict
