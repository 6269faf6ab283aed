"""The approval relay: an ``ask`` becomes a person's decision through ``hookwise serve``.

When the policy's decision for a tool call is ``ask``, the deciding rule does not say
``relay: false`` and the user (or managed) policy has ``settings.approvals``, the hook:

1. opens an approval request (``POST /api/approvals``) bound to the host, session, cwd,
   tool, the canonical input and its hash, the rule and its reason, a fresh nonce and an
   expiry, with the agent-role token;
2. long-polls it (``GET /api/approvals/{id}?wait=S``) until it is decided or its time is
   up: ``wait`` seconds, or ``interactive_wait`` where a person can answer the host's own
   prompt (then the request is withdrawn and the host asks: never both open);
3. checks the answer (approvals.verify_answer): same id, nonce and input hash, a decision
   that agrees with the status, before the expiry; anything else denies, naming the
   mismatch;
4. answers the host: allow -> the host's own allow; deny -> blocked with the approver's
   note as the reason; no decision in time, no service, a refused token, a 5xx, bad TLS
   or garbage -> ``on_timeout``: the host's prompt where a person can answer it, else a
   denial. Never an allow.

Standard library only (urllib), imported by ``hookwise hook`` only for such an ``ask``:
an event that does not ask pays nothing for it. Docs: docs/approvals.md, "The hook".
"""

from __future__ import annotations

import os
import time

from hookwise.policy.approvals import wire as approvals
from hookwise.policy.approvals.wire import ApprovalsError, Expected, MismatchError, Verdict

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from hookwise.policy.canonical import Event
    from hookwise.policy.rules.engine import Decision

GATED = ("tool.before", "permission.request")
POLL_MAX_S = 60  # the service's longest long-poll
POLL_MIN_S = 0.25
REQUEST_TIMEOUT_S = 10.0  # one HTTP exchange, beyond the long-poll's own wait
WITHDRAW_TIMEOUT_S = 3.0
MARGIN_S = 5
"""What ``hookwise install`` adds to the hook's timeout on top of ``wait`` (the last
exchanges after the wait, the withdrawal): a hook the host kills lets the tool run."""
RESPONSE_LIMIT = 1 << 20
REASON_LIMIT = 2000
NAMES = "settings.approvals"


class UnreachableError(Exception):
    """No usable answer from the service (network, TLS, status, body): on_timeout applies."""


class Relayed:
    """What the relay did, for the answer and the audit log."""

    __slots__ = (
        "approver",
        "error",
        "note",
        "outcome",
        "page_url",
        "remembered_from",
        "request_id",
        "waited_ms",
    )

    def __init__(self, outcome: str = "") -> None:
        # allowed | denied | timeout | unreachable | mismatch | handed_over | withdrawn |
        # expired | skipped
        self.outcome = outcome
        self.request_id: str | None = None
        self.approver: str | None = None
        self.note: str | None = None
        self.remembered_from: str | None = None
        self.page_url: str | None = None
        self.waited_ms = 0
        self.error: str | None = None

    def as_dict(self) -> dict[str, Any]:
        record: dict[str, Any] = {"outcome": self.outcome, "waited_ms": self.waited_ms}
        for key in ("request_id", "approver", "note", "remembered_from", "page_url", "error"):
            value = getattr(self, key)
            if value is not None:
                record["id" if key == "request_id" else key] = value
        return record


# --------------------------------------------------------------------------- applies?


# How a host reads a decision on an event where an approval can change what happens
# (hosts.py: "decision"); elsewhere (Gemini's advisory ToolPermission notification) the
# answer cannot let a call through or stop it, so nobody is asked.
DECIDING = ("permission", "permission_request", "top_decision")


def applies(
    decision: Decision | None,
    events: list[Event],
    settings: dict[str, Any],
    tables: dict[str, Any] | None = None,
) -> bool:
    """Whether this decision goes to the relay."""
    if (
        decision is None
        or decision.decision != "ask"
        or not decision.relay
        or not settings.get("approvals")
        or not any(ev.name in GATED for ev in events)
    ):
        return False
    if tables is None:
        return True
    first = events[0]
    spec = tables.get(first.host, {}).get("events", {}).get(first.host_event, {})
    return spec.get("decision") in DECIDING


def _ancestor_attended(program: str, flags: tuple[str, ...], proc: str = "/proc") -> bool:
    """Whether the nearest ancestor running ``program`` has a terminal and none of ``flags``."""
    pid = os.getppid()
    for _ in range(8):
        if pid <= 1:
            return False
        try:
            with open(f"{proc}/{pid}/cmdline", "rb") as handle:
                argv = [a.decode("utf-8", "replace") for a in handle.read().split(b"\0") if a]
            with open(f"{proc}/{pid}/stat", "rb") as handle:
                stat = handle.read().decode("ascii", "replace")
        except OSError:
            return False
        for index, arg in enumerate(argv[:3]):
            base = arg.rsplit("/", 1)[-1]
            if base in (program, f"{program}.js") or f"/{program}-cli/" in arg:
                rest = argv[index + 1 :]
                if any(a in flags or a.split("=", 1)[0] in flags for a in rest):
                    return False
                try:
                    stdin = os.readlink(f"{proc}/{pid}/fd/0")
                except OSError:
                    return False
                return stdin.startswith(("/dev/pts/", "/dev/tty"))
        try:
            pid = int(stat.rsplit(")", 1)[1].split()[1])
        except (IndexError, ValueError):
            return False
    return False


def attended(host: str, table: dict[str, Any], env: dict[str, str]) -> bool:
    """Whether a person watches this session (can answer the host's own prompt).

    The signal per host is in protocol/hosts.py (``attended``), copied into the compiled
    host tables; no signal means headless.
    """
    signal = table.get("attended")
    if not signal:
        return False
    kind = signal[0]
    if kind == "env":
        return bool(env.get(str(signal[1])) == signal[2])
    if kind == "process":
        return bool(_ancestor_attended(str(signal[1]), tuple(signal[2:])))
    return False


def host_prompts(
    host: str, events: list[Event], tables: dict[str, Any], settings: dict[str, Any]
) -> bool:
    """Whether the host itself would show a prompt for ``ask`` on this event (never for
    a host without a table: a framework agent through hookwise.integrations)."""
    table = tables.get(host)
    if table is None:
        return False
    spec = table["events"].get(events[0].host_event, {})
    pattern = spec.get("decision")
    if table.get("attended") is None:
        return False
    if pattern in ("permission", "permission_request"):
        return True
    return (
        pattern == "top_decision"
        and any(ev.name == "tool.before" for ev in events)
        and settings.get("gemini_ask", "auto") in ("auto", "native")
    )


# --------------------------------------------------------------------------- HTTP


def _opener(url: str) -> Any:
    import urllib.request
    from urllib.parse import urlsplit

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        """Redirects are refused: the token must not follow one to another host."""

        def redirect_request(self, *args: Any, **kwargs: Any) -> None:
            return None

    handlers: list[Any] = [NoRedirect()]
    if approvals.is_loopback(urlsplit(url).hostname or ""):
        handlers.append(urllib.request.ProxyHandler({}))  # loopback never goes via a proxy
    return urllib.request.build_opener(*handlers)


class Client:
    """The few calls the hook makes, with the agent token; errors become UnreachableError."""

    def __init__(self, base: str, token: str) -> None:
        self.base = base.rstrip("/")
        self.token = token
        self.opener = _opener(base)

    def call(self, method: str, path: str, body: Any = None, *, timeout: float) -> tuple[int, Any]:
        """(status, parsed JSON body); UnreachableError for no answer, a 5xx or a non-JSON body."""
        import json
        import urllib.error
        import urllib.request

        data = None if body is None else json.dumps(body, ensure_ascii=True).encode("ascii")
        request = urllib.request.Request(self.base + path, data=data, method=method)
        request.add_header("Authorization", f"Bearer {self.token}")
        request.add_header("Accept", "application/json")
        if data is not None:
            request.add_header("Content-Type", "application/json")
        try:
            response = self.opener.open(request, timeout=max(0.5, timeout))
            status = response.status
        except urllib.error.HTTPError as exc:
            response, status = exc, exc.code
        except (OSError, ValueError) as exc:  # URLError, TLS, timeouts, refused, reset...
            reason = getattr(exc, "reason", None) or exc
            raise UnreachableError(f"{self.base} cannot be reached: {reason}") from None
        try:
            raw = response.read(RESPONSE_LIMIT + 1)
        except (OSError, ValueError) as exc:
            raise UnreachableError(f"{self.base}: the answer broke off: {exc}") from None
        finally:
            response.close()
        if status >= 500 or 300 <= status < 400:
            raise UnreachableError(f"{self.base} answered HTTP {status} to {method} {path}")
        if len(raw) > RESPONSE_LIMIT:
            raise UnreachableError(f"{self.base}: the answer to {method} {path} is too large")
        try:
            parsed = json.loads(raw.decode("utf-8")) if raw else None
        except (UnicodeDecodeError, ValueError):
            raise UnreachableError(
                f"{self.base}: the answer to {method} {path} (HTTP {status}) is not JSON"
            ) from None
        return status, parsed


def _error_text(status: int, body: Any) -> str:
    """The service's error message (its error body format), cut short."""
    message = ""
    if isinstance(body, dict):
        error = body.get("error", body.get("detail"))
        if isinstance(error, dict):
            message = str(error.get("message") or error.get("code") or "")
        elif error is not None:
            message = str(error)
    message = message[:300]
    if status in (401, 403):
        why = "the service refused the token" + (
            " (it is not an agent or approver token with access to approvals)"
            if status == 403
            else " (unknown or revoked)"
        )
        return f"{why}: HTTP {status}" + (f" {message}" if message else "")
    return f"the service refused the request: HTTP {status}" + (f" {message}" if message else "")


def probe(config: dict[str, Any], env: dict[str, str], cwd: str) -> tuple[str, str]:
    """(``ok`` | ``fail``, detail) for ``hookwise doctor``: the token can be read and the
    service accepts it (an unknown request id answers 404 to a valid token, 401 else)."""
    url = str(config.get("url"))
    consequence = "every relayed ask falls back to on_timeout (headless: denied)"
    try:
        token = approvals.read_token(config, env, cwd)
    except ApprovalsError as exc:
        return "fail", f"settings.approvals: {exc}; {consequence}"
    client = Client(url, token)
    try:
        status, body = client.call("GET", "/api/approvals/hookwise-doctor-probe", timeout=5)
    except UnreachableError as exc:
        return "fail", f"settings.approvals: {exc}; {consequence}"
    if status == 404:
        return "ok", f"settings.approvals: {url} accepts the token; asks go to a person there"
    return "fail", f"settings.approvals: {_error_text(status, body)}; {consequence}"


# --------------------------------------------------------------------------- the flow


def _now_ms() -> int:
    return int(time.time() * 1000)


class Session:
    """One relayed ask: open, wait, verify, withdraw."""

    def __init__(self, client: Client, expected: Expected, result: Relayed) -> None:
        self.client = client
        self.expected = expected
        self.result = result

    def check(self, status: int, body: Any) -> Verdict:
        if status >= 400:
            raise UnreachableError(_error_text(status, body))
        return approvals.verify_answer(body, self.expected, _now_ms())

    def poll(self, deadline: float) -> Verdict:
        """Long-poll until decided or the deadline; the last verdict seen."""
        path = f"/api/approvals/{_quote(self.expected.id)}"
        verdict = Verdict("pending")
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return verdict
            wait = max(1, min(POLL_MAX_S, int(remaining + 0.999)))
            asked = time.monotonic()
            status, body = self.client.call(
                "GET", f"{path}?wait={wait}", timeout=wait + REQUEST_TIMEOUT_S
            )
            verdict = self.check(status, body)
            if verdict.status != "pending":
                return verdict
            if time.monotonic() - asked < POLL_MIN_S:  # a service that does not hold the
                time.sleep(POLL_MIN_S)  # poll: do not hammer it

    def withdraw(self) -> Verdict:
        """Withdraw the request; when it was decided meanwhile, that decision."""
        path = f"/api/approvals/{_quote(self.expected.id)}"
        status, body = self.client.call("POST", f"{path}/withdraw", {}, timeout=WITHDRAW_TIMEOUT_S)
        if status == 409:
            status, body = self.client.call("GET", path, timeout=WITHDRAW_TIMEOUT_S)
        if status >= 400:
            raise UnreachableError(_error_text(status, body))
        if isinstance(body, dict) and "status" not in body:
            return Verdict("withdrawn")
        return approvals.verify_answer(body, self.expected, _now_ms())


def _quote(text: str) -> str:
    from urllib.parse import quote

    return quote(text, safe="")


def request_body(
    decision: Decision, ev: Event, host: str, config: dict[str, Any], *, nonce: str, expires: int
) -> tuple[dict[str, Any], str]:
    """The POST /api/approvals body and the input hash (ValueError: input not JSON-able)."""
    tool_input = decision.updated_input if decision.updated_input is not None else ev.raw_input
    digest = approvals.input_hash(tool_input)
    body = {
        "host": host,
        "session_id": ev.session or "unknown",  # the service needs one; "remember" keys on it
        "cwd": ev.cwd,
        "tool": ev.host_tool or ev.tool or "unknown",
        "input": tool_input,
        "input_hash": digest,
        "rule_id": decision.rule or "",
        "reason": (decision.reason or "")[:REASON_LIMIT],
        "nonce": nonce,
        "expires_at": expires,
        "remember_minutes": int(config.get("remember_minutes", 0)) if ev.session else 0,
        "notify": list(config.get("notify") or []),
    }
    return body, digest


def relay(
    decision: Decision,
    events: list[Event],
    host: str,
    tables: dict[str, Any],
    settings: dict[str, Any],
    *,
    env: dict[str, str],
) -> Relayed:
    """Ask a person; change ``decision`` to what the answer means; say what happened."""
    ask = _Ask(decision, events, host, settings)
    ask.hand_over = (
        ask.on_timeout == "ask"
        and host_prompts(host, events, tables, settings)
        and attended(host, tables[host], env)
    )
    if ask.hand_over:
        ask.budget = min(ask.wait, float(ask.config.get("interactive_wait", 15)))
    try:
        if ask.budget <= 0:
            ask.fallback("interactive_wait is 0")
        else:
            ask.run(env)
    finally:
        ask.result.waited_ms = int((time.monotonic() - ask.started) * 1000)
    return ask.result


class _Ask:
    """One ask on its way through the relay."""

    def __init__(
        self, decision: Decision, events: list[Event], host: str, settings: dict[str, Any]
    ) -> None:
        self.started = time.monotonic()
        self.decision = decision
        self.ev = next(e for e in events if e.name in GATED)
        self.host = host
        self.config: dict[str, Any] = settings["approvals"]
        self.result = Relayed()
        self.wait = float(self.config.get("wait", 120))
        self.budget = self.wait
        self.on_timeout = str(self.config.get("on_timeout", "ask"))
        self.hand_over = False

    def run(self, env: dict[str, str]) -> None:
        import secrets

        result = self.result
        deadline = self.started + self.budget
        try:
            token = approvals.read_token(self.config, env, self.ev.cwd)
        except ApprovalsError as exc:
            result.outcome, result.error = "unreachable", str(exc)
            self.fallback(str(exc))
            return
        nonce = secrets.token_hex(16)
        # the request lives for the whole wait; a hand-over withdraws it earlier
        expires = _now_ms() + int(self.wait * 1000)
        try:
            body, digest = request_body(
                self.decision, self.ev, self.host, self.config, nonce=nonce, expires=expires
            )
        except ValueError as exc:
            result.outcome, result.error = "invalid", str(exc)
            _deny(self.decision, f"hookwise cannot send this call for approval: {exc}")
            return
        client = Client(str(self.config["url"]), token)
        try:
            timeout = min(REQUEST_TIMEOUT_S, max(1.0, deadline - time.monotonic() + 1))
            status, created = client.call("POST", "/api/approvals", body, timeout=timeout)
            if status >= 400:
                raise UnreachableError(_error_text(status, created))
            request_id = created.get("id") if isinstance(created, dict) else None
            if not isinstance(request_id, str) or not request_id or len(request_id) > 200:
                raise MismatchError("the answer to POST /api/approvals has no request id")
            result.request_id = request_id
            page = created.get("page_url") if isinstance(created, dict) else None
            result.page_url = page[:2048] if isinstance(page, str) else None
            expected = Expected(request_id, nonce, digest, expires, body["remember_minutes"])
            session = Session(client, expected, result)
            verdict = session.poll(deadline)  # at once when already decided (remembered)
            if verdict.status == "pending":
                try:
                    verdict = session.withdraw()
                except UnreachableError:
                    verdict = Verdict("expired")
                if verdict.status == "withdrawn":
                    verdict = Verdict("expired")  # withdrawn by us: no answer in time
            self.conclude(verdict)
        except MismatchError as exc:
            result.outcome, result.error = "mismatch", str(exc)
            where = f" request {result.request_id}" if result.request_id else ""
            _deny(
                self.decision,
                f"hookwise: the approval service's answer does not match{where}: {exc}; "
                "denied (hookwise fails closed)",
            )
        except UnreachableError as exc:
            result.outcome, result.error = "unreachable", str(exc)
            self.fallback(str(exc))

    def conclude(self, verdict: Verdict) -> None:
        result = self.result
        decision = self.decision
        result.approver = verdict.approver or None
        result.note = verdict.note or None
        result.remembered_from = verdict.remembered_from
        rid = result.request_id
        if verdict.decision == "allow":
            result.outcome = "allowed"
            decision.decision = "allow"
            decision.allow_rule = decision.rule or NAMES
            remembered = (
                f", remembered from request {verdict.remembered_from}"
                if verdict.remembered_from
                else ""
            )
            decision.reason = (
                f"approved by {verdict.approver} (hookwise approval {rid}{remembered})"
            )
            if verdict.note:
                decision.reason += f": {verdict.note}"
            return
        if verdict.decision == "deny":
            result.outcome = "denied"
            where = f"denied by {verdict.approver} (hookwise approval {rid})"
            _deny(decision, f"{verdict.note} ({where})" if verdict.note else where.capitalize())
            return
        timed_out = verdict.status in ("expired", "pending")
        result.outcome = "timeout" if timed_out else verdict.status
        self.fallback(
            f"no decision on approval request {rid} within {self.budget:g} s"
            if timed_out
            else f"approval request {rid} was {verdict.status}"
        )

    def fallback(self, why: str) -> None:
        """on_timeout: the host's own prompt where a person can answer it, else a denial."""
        if self.hand_over:
            if self.result.outcome in ("timeout", "withdrawn", ""):
                self.result.outcome = "handed_over"
            self.decision.notes.append(f"{NAMES}: {why}; the host asks the user")
            return
        base = self.decision.reason or "this call needs a person's approval"
        _deny(self.decision, f"{base} ({why}; hookwise denies: {NAMES}.on_timeout)")


def _deny(decision: Decision, reason: str) -> None:
    decision.decision = "deny"
    decision.reason = reason
    decision.allow_rule = None
    decision.updated_input = None
