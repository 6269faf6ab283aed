"""The proxy's loop: client stdin -> policy -> server stdin; server stdout -> client stdout.

One thread reads each side, so each direction keeps its order; a call held for an ``ask``
waits on its own (its answer comes through the same stdin) and everything else goes on.
What the proxy tracks is what it must answer for when the server fails: every request it
passed on and has not seen answered gets a JSON-RPC error naming the server when the server
exits, closes its output, never starts, or stays silent past ``--timeout``; a response for
a request the server was never given (a held or denied call, a late one) is dropped, so a
server cannot answer in the proxy's stead.

A call is decided on the filesystem as it is when the decision is made; a call that may
change it (a write, move, link, delete, shell, or a tool the table cannot classify) is in
flight until its answer comes back. A call decided meanwhile could be decided on a path a
moment before a link made by the earlier call redirects it (red team s29 F1, pipelined
calls), so while one is in flight the decided requests that come after it wait, in order,
and are decided once it has answered or the server is gone. A cancellation or --timeout
ends the client's wait, not the server's work (a server may ignore a cancellation, and one
that honours it never answers, so no answer would say it is over): such a call is not
cancelled at the server, and its answer, dropped, is what lets the others go on (red team
s35 F1). A request waiting its turn behind such a call past --timeout is answered as
timed out and never passed on. A call that only reads is cancelled at the server as the
client asks.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import sys
import threading
import time
from dataclasses import dataclass, replace
from typing import Any, BinaryIO

from hookwise.integrations.verdict import Verdict
from hookwise.mcp_proxy import elicit, framing, replies
from hookwise.mcp_proxy.decide import RESOURCE_METHODS, Decider, prompt_args, resource_args
from hookwise.mcp_proxy.framing import Message, Oversize, id_key
from hookwise.mcp_proxy.server import ServerProcess
from hookwise.policy.arg_roles import reads_as
from hookwise.policy.canonical import PROMPT_METHOD

Key = tuple[str, str]
# the methods the policy decides (what a spelling in another case must not dodge)
_DECIDED = frozenset(["tools/call", *RESOURCE_METHODS])
# an id named in a line that is no JSON (a truncated or corrupted answer)
_ID_IN_GARBAGE = re.compile(rb'"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.){0,200}")')


@dataclass
class Flight:
    """A request the server was given and has not answered."""

    id: Any
    method: str
    deadline: float | None
    token: Key | None = None


@dataclass
class Held:
    """A ``tools/call`` waiting for the answer to an ``ask``."""

    value: dict[str, Any]
    tool: str
    args: dict[str, Any]
    verdict: Verdict
    elicitation: Key | None = None
    given: dict[str, Any] | None = None  # a tools/call's arguments as the client gave them


def _id_or_null(value: Any) -> Any:
    request_id = value.get("id") if isinstance(value, dict) else None
    return request_id if isinstance(request_id, str | int | float) else None


class Proxy:
    """One client, one server (see the module docstring)."""

    def __init__(
        self,
        decider: Decider,
        server: ServerProcess,
        *,
        out: BinaryIO,
        timeout: float | None = None,
        max_bytes: int = framing.DEFAULT_MAX_BYTES,
    ) -> None:
        self.decider = decider
        self.name = decider.server
        self.server = server
        self.out = out
        self.timeout = timeout
        self.max_bytes = max_bytes
        self._lock = threading.RLock()
        self._out_lock = threading.Lock()
        self._flights: dict[Key, Flight] = {}
        self._tokens: dict[Key, Key] = {}
        self._held: dict[Key, Held] = {}
        self._elicitations: dict[Key, tuple[Key, Held]] = {}
        # requests passed on that the client no longer awaits (cancelled, timed out): the
        # server may still answer them, so their ids are not taken again (s35 F2)
        self._abandoned: dict[Key, None] = {}
        # the client's initialize requests in flight: their answers lose tools/call tasks
        self._initializing: set[Key] = set()
        # calls passed on that may change the filesystem, not yet answered (F1)
        self._changing: set[Key] = set()
        # decided requests that came while one of those was in flight, in their order
        self._waiting: list[dict[str, Any]] = []
        # when each of those (by id(value)) stops waiting for its turn: --timeout counts
        # from the client's request, so a call queued behind one that never ends is
        # answered as timed out and never passed on
        self._wait_deadline: dict[int, float] = {}
        self._draining = False
        self._prefix = f"hookwise-{secrets.token_hex(8)}-"
        self._count = 0
        self._gone: str | None = None
        self._elicit = False
        self._done = threading.Event()

    # ------------------------------------------------------------------ running
    def run(self, inp: BinaryIO) -> int:
        """Serve until the client closes stdin; the server is stopped on the way out. A
        server the caller started already (``hookwise mcp wrap``), or tried to, is not
        started again."""
        tried = self.server.started() or self.server.start_error is not None
        if self.server.started() or (not tried and self.server.start()):
            threading.Thread(target=self._read_server, name="mcp-server-out", daemon=True).start()
        else:
            self._gone = self.server.start_error
            self._note(f"MCP server '{self.name}' {self._gone}: {' '.join(self.server.argv)}")
        self.decider.warm()  # while the server starts
        if self.timeout:
            threading.Thread(target=self._watch, name="mcp-timeouts", daemon=True).start()
        try:
            self._read(inp.fileno(), self._from_client)
        finally:
            self._done.set()
            self.server.stop()
        return 0

    def _read(self, fd: int, handle: Any) -> None:
        splitter = framing.LineSplitter(self.max_bytes)
        while True:
            try:
                chunk = os.read(fd, 1 << 16)
            except OSError:
                chunk = b""
            lines = splitter.feed(chunk) if chunk else splitter.close()
            for line in lines:
                handle(line)
            if not chunk:
                return

    def _to_client(self, value: Any) -> None:
        self._write_client(value if isinstance(value, bytes) else framing.dumps(value))

    def _write_client(self, line: bytes) -> None:
        with self._out_lock:
            try:
                self.out.write(line + b"\n")
                self.out.flush()
            except (OSError, ValueError):
                pass  # the client is gone; its stdin ends too

    def _note(self, text: str) -> None:
        """Something the client's user should know that answers no request."""
        with contextlib.suppress(OSError, ValueError):
            sys.stderr.write(f"hookwise mcp: {text}\n")
            sys.stderr.flush()
        self._to_client(replies.log("error", f"hookwise: {text}"))

    def _next_id(self) -> str:
        with self._lock:
            self._count += 1
            return f"{self._prefix}{self._count}"

    # ------------------------------------------------------------------ from the client
    def _from_client(self, line: bytes | Oversize) -> None:
        if isinstance(line, Oversize):
            self._to_client(
                replies.error(
                    self._named_id(line.head),
                    replies.INVALID_REQUEST,
                    f"hookwise: a message of {line.size} bytes is over the limit of "
                    f"{self.max_bytes}; not passed to MCP server '{self.name}'",
                )
            )
            return
        if framing.blank(line):
            return
        msg = framing.parse(line)
        if msg.kind == "invalid" and msg.value is None:
            self._to_client(
                replies.error(
                    self._named_id(line),
                    replies.PARSE_ERROR,
                    f"hookwise: {msg.error}; not passed to MCP server '{self.name}'",
                )
            )
            return
        if msg.kind != "batch":
            self._client_items([msg], batch=False)
            return
        self._client_items([framing.classify(v) for v in msg.value], batch=True)

    def _named_id(self, head: bytes) -> Any:
        """The id a client's line the proxy cannot read (over the limit, nested too deep)
        names in its first bytes, so its request is answered (the client would wait for
        it); None when it names none, or one a request not yet answered has (that answer
        is the server's to give)."""
        found = _ID_IN_GARBAGE.search(head[: framing.HEAD_BYTES])
        if not found:
            return None
        try:
            request_id = framing.loads(found.group(1))
        except framing.WireError:
            return None
        key = id_key(request_id)
        with self._lock:
            if key in self._held or key in self._flights or self._waits(key):
                return None
        return request_id

    def _client_items(self, items: list[Message], *, batch: bool) -> None:
        """One message or a batch's items: what goes on goes together (a batch stays one
        batch, less what the proxy answered or holds); the proxy's answers go back together."""
        forward: list[dict[str, Any]] = []
        answers: list[dict[str, Any]] = []
        for msg in items:
            out = self._client_item(msg)
            if out is None:
                continue
            (answers if out[0] == "answer" else forward).append(out[1])
        if forward:
            # always written out again, never the client's bytes: a bare \r is JSON
            # whitespace here and a line break to a server reading with universal newlines
            # (the Python SDK), so a carrier could hold a tools/call never decided here
            self._forward(forward, framing.dumps(forward if batch else forward[0]))
        if answers:
            self._to_client(answers if batch else answers[0])
        self._landed([])  # a cancelled call may have let those waiting have their turn

    def _client_item(self, msg: Message) -> tuple[str, dict[str, Any], bool] | None:
        """("answer", reply, _) | ("forward", message, changed) | None (held or dropped)."""
        value = msg.value
        if msg.kind in {"invalid", "batch"}:
            code = replies.PARSE_ERROR if value is None else replies.INVALID_REQUEST
            why = msg.error or "a batch inside a batch"
            return (
                "answer",
                replies.error(
                    _id_or_null(value),
                    code,
                    f"hookwise: {why}; not passed to MCP server '{self.name}'",
                ),
                False,
            )
        problem = framing.envelope_problem(value)
        if problem is not None:
            return ("answer", self._refused(value, problem), True)
        if msg.kind == "response":
            if self._elicited(msg):
                return None
            return ("forward", value, False)
        method = msg.method or ""
        if method.lower() in _DECIDED and method not in _DECIDED:
            # `Tools/Call` is no method the proxy decides; a server matching methods
            # without case would run it: refused, as it cannot be accounted for
            return (
                "answer",
                replies.error(
                    _id_or_null(value),
                    replies.INVALID_REQUEST,
                    f"hookwise: method {method!r} differs from {method.lower()!r} only by "
                    f"case; not passed to MCP server '{self.name}'",
                ),
                False,
            )
        if msg.kind == "notification":
            if method == "notifications/cancelled" and self._cancel(value):
                return None
            if method == "tools/call":  # a call without an id: decided all the same
                if self._unawaitable(value):
                    return None
                if self._wait_turn(value):
                    return None
                out = self._call(value)
                return out if out is not None and out[0] == "forward" else None
            if method in RESOURCE_METHODS:  # a read without an id (s35 F9): no request
                self._idless(value)
                return None
            return ("forward", value, False)
        bad = _bad_id(value.get("id"))
        if bad is not None:
            return (
                "answer",
                replies.error(
                    None,
                    replies.INVALID_REQUEST,
                    f"hookwise: request id {bad}; not passed to MCP server '{self.name}'",
                ),
                False,
            )
        key = id_key(value.get("id"))
        with self._lock:
            busy = key in self._held or key in self._flights or self._waits(key)
            late = key in self._abandoned
        if busy or late:  # one id, two requests: an answer (or a user's yes) would go to the
            # wrong one; a cancelled or timed-out request's late answer too (s35 F2)
            why = (
                "of a request cancelled or timed out, which the server may still answer"
                if late
                else "by a request not yet answered"
            )
            return (
                "answer",
                replies.error(
                    _id_or_null(value),
                    replies.INVALID_REQUEST,
                    f"hookwise: request id {value.get('id')!r} is already in use {why}; "
                    f"not passed to MCP server '{self.name}'",
                ),
                False,
            )
        if method == "initialize":
            params = value.get("params")
            caps = params.get("capabilities") if isinstance(params, dict) else None
            with self._lock:
                self._elicit = elicit.supports_form(caps)
                self._initializing.add(key)
        if method in _DECIDED and self._wait_turn(value):
            return None
        return self._decided(value)

    def _decided(self, value: dict[str, Any]) -> tuple[str, dict[str, Any], bool] | None:
        method = value.get("method")
        if method == "tools/call":
            return self._call(value)
        if method in RESOURCE_METHODS:
            return self._resource(value)
        return ("forward", value, False)

    # ------------------------------------------------------------------ in turn (F1)
    def _unawaitable(self, value: dict[str, Any]) -> bool:
        """A ``tools/call`` without an id that may change the filesystem: no answer ever
        says it is over, so no later call could be decided after it; dropped, said why."""
        params = value.get("params")
        tool = params.get("name") if isinstance(params, dict) else None
        try:
            changes = not isinstance(tool, str) or self.decider.may_change(tool)
        except Exception:
            changes = True
        if changes:
            self._note(
                f"a tools/call of {tool!r} without an id was not passed to MCP server "
                f"'{self.name}': it may change files and no answer would say when it is "
                "over, so later calls could not be decided after it"
            )
        return changes

    def _idless(self, value: dict[str, Any]) -> None:
        """``resources/read``, ``resources/subscribe`` or ``prompts/get`` without an id: it
        can have no answer, and a server acting on it would read undecided; refused, said
        why, audited (red team s35 F9)."""
        method = str(value.get("method"))
        params = value.get("params")
        reason = (
            f"hookwise: a {method} without an id was not passed to MCP server '{self.name}': "
            "a request that can have no answer is not decided"
        )
        self._note(reason.removeprefix("hookwise: "))
        with contextlib.suppress(Exception):  # the refusal stands without its record
            self.decider.refused(method, params if isinstance(params, dict) else {}, reason, "")

    def _waits(self, key: Key) -> bool:
        return any(id_key(v.get("id")) == key for v in self._waiting if "id" in v)

    def _wait_turn(self, value: dict[str, Any]) -> bool:
        """Queue a decided request while a call that may change the filesystem is in
        flight (or others wait before it): True when it waits."""
        with self._lock:
            if not (self._changing or self._waiting or self._draining):
                return False
            self._waiting.append(value)
            if self.timeout and "id" in value:
                self._wait_deadline[id(value)] = time.monotonic() + self.timeout
            return True

    def _changes(self, value: dict[str, Any]) -> None:
        """Mark a call passed on as one that may change the filesystem (its answer ends
        it: :meth:`_landed`)."""
        params = value.get("params")
        tool = params.get("name") if isinstance(params, dict) else None
        try:
            changes = not isinstance(tool, str) or self.decider.may_change(tool)
        except Exception:  # a name the table cannot read: it may change anything
            changes = True
        if changes:
            with self._lock:
                self._changing.add(id_key(value.get("id")))

    def _landed(self, keys: list[Key]) -> None:
        """Calls that are over (answered, cancelled, timed out, lost): the waiting requests
        are decided in order, as far as the next call that may change the filesystem."""
        with self._lock:
            for key in keys:
                self._changing.discard(key)
            if self._changing or self._draining or not self._waiting:
                return
            self._draining = True
        while True:
            with self._lock:
                if self._changing or not self._waiting:
                    self._draining = False
                    return
                value = self._waiting.pop(0)
                self._wait_deadline.pop(id(value), None)
            try:
                out = self._decided(value)
            except Exception as exc:  # the loop must not die with requests queued
                why = f"hookwise: internal error: {type(exc).__name__}: {exc}"
                out = ("answer", replies.error(_id_or_null(value), replies.DENIED, why), True)
            if out is None:
                continue
            if out[0] == "answer":
                if "id" in value:
                    self._to_client(out[1])
            else:
                self._forward([out[1]], framing.dumps(out[1]))

    def _refused(self, value: dict[str, Any], problem: str) -> dict[str, Any]:
        """A client's message its server could read otherwise (framing.envelope_problem):
        answered with an error, audited as a denial, never passed on. The id is the
        message's unless another key could be read as the id."""
        ids = [k for k in value if reads_as(str(k)) == "id"]
        request_id = _id_or_null(value) if ids == ["id"] else None
        method = value.get("method")
        params = value.get("params")
        reason = f"hookwise: {problem}; not passed to MCP server '{self.name}'"
        try:
            self.decider.refused(
                method if isinstance(method, str) else "(no method)",
                params if isinstance(params, dict) else {},
                reason,
                _call_id(request_id),
            )
        except Exception as exc:  # the answer goes back all the same
            self._note(f"cannot audit a refused message: {type(exc).__name__}: {exc}")
        return replies.error(request_id, replies.INVALID_REQUEST, reason)

    def _forward(self, items: list[dict[str, Any]], line: bytes) -> None:
        """Pass messages on, tracking each request until the server answers it."""
        requests = [v for v in items if "method" in v and "id" in v]
        with self._lock:
            gone = self._gone
            if gone is None:
                for value in requests:
                    self._fly(value)
        keys = [id_key(v.get("id")) for v in requests]
        if gone is not None:
            for value in requests:
                self._to_client(self._gone_error(value.get("id"), str(value["method"]), gone))
            self._landed(keys)
            return
        if self.server.send(line):
            return
        self._landed(keys)
        with self._lock:  # not queued: its requests are answered here, never awaited
            for value in requests:
                flight = self._flights.pop(id_key(value.get("id")), None)
                if flight is not None and flight.token is not None:
                    self._tokens.pop(flight.token, None)
        why = (
            f"MCP server '{self.name}' is not reading its input: {self.server.max_queued} "
            "bytes wait for it already; the message was not passed on"
        )
        if not requests:
            self._note(f"{why} (a notification, dropped)")
        for value in requests:
            self._to_client(
                replies.error(
                    value.get("id"),
                    replies.SERVER_BUSY,
                    f"hookwise: {why}",
                    {"server": self.name},
                )
            )

    def _fly(self, value: dict[str, Any]) -> None:
        key = id_key(value.get("id"))
        deadline = time.monotonic() + self.timeout if self.timeout else None
        params = value.get("params")
        meta = params.get("_meta") if isinstance(params, dict) else None
        token = meta.get("progressToken") if isinstance(meta, dict) else None
        token_key = id_key(token) if isinstance(token, str | int) else None
        self._flights[key] = Flight(value.get("id"), str(value["method"]), deadline, token_key)
        if token_key is not None:
            self._tokens[token_key] = key

    # ------------------------------------------------------------------ tools/call
    def _call(self, value: dict[str, Any]) -> tuple[str, dict[str, Any], bool] | None:
        request_id = value.get("id")
        params = value.get("params")
        args = params.get("arguments") if isinstance(params, dict) else None
        tool = params.get("name") if isinstance(params, dict) else None
        if not isinstance(tool, str) or not (args is None or isinstance(args, dict)):
            return (
                "answer",
                replies.error(
                    _id_or_null(value),
                    replies.INVALID_PARAMS,
                    "hookwise: tools/call needs params.name (a string) and params.arguments "
                    f"(an object, or absent); not passed to MCP server '{self.name}'",
                ),
                False,
            )
        arguments: dict[str, Any] = args or {}
        refused = self._task_refused(value, tool)
        if refused is not None:
            return ("answer", refused, False)
        try:
            prepared = self.decider.prepare(tool, arguments)
            if prepared != arguments:  # the server gets the paths as they were decided on
                arguments = prepared
                value = {**value, "params": {**value["params"], "arguments": arguments}}
            verdict = self.decider.before(tool, arguments, _call_id(request_id), args or {})
        except Exception as exc:  # the Gate fails closed itself; this is the last guard
            verdict = Verdict("deny", f"hookwise: internal error: {type(exc).__name__}: {exc}")
        if verdict.action == "ask":
            self._hold(value, tool, arguments, verdict, given=args or {})
            return None
        return self._applied(value, tool, verdict)

    def _task_refused(self, value: dict[str, Any], tool: str) -> dict[str, Any] | None:
        """A task-augmented call (MCP 2025-11-25 ``params.task``) of a tool that may change
        files: the server answers it at once (CreateTaskResult) and runs it on, so no answer
        would say when its change is done and the calls after it could be decided before it
        (red team s35 F2). Refused, naming why; a call that only reads may be a task."""
        params = value.get("params")
        if not isinstance(params, dict) or "task" not in params:
            return None
        try:
            changes = self.decider.may_change(tool)
        except Exception:
            changes = True
        if not changes:
            return None
        return replies.error(
            _id_or_null(value),
            replies.INVALID_PARAMS,
            f"hookwise: a task-augmented call of {tool!r} (params.task) is not passed to MCP "
            f"server '{self.name}': the tool may change files, and a task is answered before "
            "its work is done, so the calls after it could not be decided after it; call it "
            "without params.task",
        )

    def _resource(self, value: dict[str, Any]) -> tuple[str, dict[str, Any], bool] | None:
        """``resources/read`` (and subscribe): a read of its URI, decided like a tool call
        (Claude Code gives the model a tool for it); the URI passes on unchanged. And
        ``prompts/get``: a read of the files its arguments name (decide.prompt_args)."""
        params = value.get("params")
        uri = params.get("uri") if isinstance(params, dict) else None
        method = str(value["method"])
        if method == PROMPT_METHOD:
            uri = ""  # (no URI: its arguments are what it reads)
        if not isinstance(uri, str) or not isinstance(params, dict):
            return (
                "answer",
                replies.error(
                    _id_or_null(value),
                    replies.INVALID_PARAMS,
                    f"hookwise: {method} needs params"
                    f"{'' if method == PROMPT_METHOD else '.uri (a string)'}; not passed to "
                    f"MCP server '{self.name}'",
                ),
                False,
            )
        args = prompt_args(params) if method == PROMPT_METHOD else resource_args(uri)
        try:
            verdict = self.decider.before(method, args, _call_id(value.get("id")))
        except Exception as exc:  # the Gate fails closed itself; this is the last guard
            verdict = Verdict("deny", f"hookwise: internal error: {type(exc).__name__}: {exc}")
        verdict = replace(verdict, args=None)  # a rewrite has no arguments to change here
        if verdict.action == "ask":
            self._hold(value, method, args, verdict)
            return None
        return self._applied(value, method, verdict)

    def _applied(
        self, value: dict[str, Any], tool: str, verdict: Verdict
    ) -> tuple[str, dict[str, Any], bool]:
        if verdict.action != "allow":
            if value.get("method") != "tools/call":  # no tool result to carry the reason
                return (
                    "answer",
                    replies.error(value.get("id"), replies.DENIED, self._denial(tool, verdict)),
                    True,
                )
            return (
                "answer",
                replies.tool_error(value.get("id"), self._denial(tool, verdict)),
                True,
            )
        out = dict(value)
        if verdict.args is not None and value.get("method") == "tools/call":
            out["params"] = {**value["params"], "arguments": verdict.args}
        if value.get("method") == "tools/call" and "id" in value:
            self._changes(out)  # before the next item of a batch is decided
        # re-written from what was parsed: the server reads exactly what was decided on
        return ("forward", out, True)

    def _denial(self, tool: str, verdict: Verdict) -> str:
        rule = f" [rule {verdict.rule_id}]" if verdict.rule_id else ""
        reason = verdict.reason or "the policy does not allow it"
        return f"hookwise blocked the call of '{tool}' on MCP server '{self.name}'{rule}: {reason}"

    def _hold(
        self,
        value: dict[str, Any],
        tool: str,
        args: dict[str, Any],
        ask: Verdict,
        *,
        given: dict[str, Any] | None = None,
    ) -> None:
        key = id_key(value.get("id"))
        held = Held(value, tool, args, ask, given=given)
        answered_by = self.decider.answering_hooks() if self._elicit else []
        if answered_by:
            sys.stderr.write(
                f"hookwise mcp wrap ({self.name}): not asking through the client: its hooks "
                f"answer elicitations in the user's stead ({', '.join(answered_by)})\n"
            )
        with self._lock:
            asking = self._elicit and "id" in value and not answered_by
            if asking:
                request_id = self._next_id()
                held.elicitation = id_key(request_id)
                self._elicitations[held.elicitation] = (key, held)
            self._held[key] = held
        if asking:
            decided = self.decider.decided_keys(tool, args)
            lines = self.decider.decided_text(tool, args)
            self._to_client(
                elicit.request(
                    request_id, self.name, tool, args, ask.reason, decided=decided, lines=lines
                )
            )
        else:
            threading.Thread(target=self._fallback, args=(key, held), daemon=True).start()

    def _fallback(self, key: Key, held: Held) -> None:
        resolved = self.decider.fallback(
            held.verdict, held.tool, held.args, call_id=_call_id(held.value.get("id"))
        )
        self._release(key, held, resolved)

    def _elicited(self, msg: Message) -> bool:
        """A client's answer to the proxy's own elicitation: the held call goes on or not."""
        with self._lock:
            asked = self._elicitations.pop(msg.key, None)
            if asked is None:
                # an answer to a question withdrawn meanwhile stays here: the server never
                # asked it (and must not learn the proxy's ids)
                return msg.key[0] == "str" and msg.key[1].startswith(self._prefix)
            key, held = asked
            if self._held.get(key) is not held:
                return True  # that call is gone (cancelled): the answer is for nobody
        allowed, how = elicit.answer(msg.value)
        resolved = self.decider.answered(
            held.verdict, held.tool, held.args, allowed, how, call_id=_call_id(held.value.get("id"))
        )
        self._release(key, held, resolved)
        return True

    def _release(self, key: Key, held: Held, resolved: Verdict) -> None:
        with self._lock:
            if self._held.get(key) is not held:
                return  # cancelled meanwhile
            del self._held[key]
        if resolved.action == "allow":
            again = self._again(held, resolved)
            if again is None:
                return  # asked again: another rule asks now
            resolved = again
        if "id" not in held.value:
            if resolved.action == "allow":
                out = self._applied(held.value, held.tool, resolved)
                self._forward([out[1]], framing.dumps(out[1]))
            return
        kind, message, _ = self._applied(held.value, held.tool, resolved)
        if kind == "answer":
            self._to_client(message)
        else:
            self._forward([message], framing.dumps(message))

    def _again(self, held: Held, approved: Verdict) -> Verdict | None:
        """The call decided again, as the policy and its trust are now, once the user (or
        the approval relay) allowed it: they may have changed while the question waited
        (s35 F3). A deny now is a deny, a rewrite applies, an ask for the rule approved is
        the answer given (with its rewrite); an ask for another rule is put again (None)."""
        call_id = _call_id(held.value.get("id"))
        try:
            if held.value.get("method") == "tools/call":
                now = self.decider.before(held.tool, held.args, call_id, held.given)
            else:  # a resource or prompt request: nothing to rewrite
                now = replace(self.decider.before(held.tool, held.args, call_id), args=None)
        except Exception as exc:  # the Gate fails closed itself; this is the last guard
            now = Verdict("deny", f"hookwise: internal error: {type(exc).__name__}: {exc}")
        if now.action == "deny":
            why = now.reason or "the policy does not allow it"
            return replace(now, reason=f"{why} (decided again after the approval)")
        if now.action == "ask":
            if (now.rule_id, now.reason) != (held.verdict.rule_id, held.verdict.reason):
                self._hold(held.value, held.tool, held.args, now, given=held.given)
                return None
            return replace(approved, args=now.args)
        return now

    def _cancel(self, value: dict[str, Any]) -> bool:
        """``notifications/cancelled`` from the client: a held call is dropped here (the
        server never saw it); True when it was one."""
        params = value.get("params")
        request_id = params.get("requestId") if isinstance(params, dict) else None
        key = id_key(request_id)
        with self._lock:
            waiting = [v for v in self._waiting if "id" in v and id_key(v.get("id")) == key]
            if waiting:  # never decided, never passed on: dropped here
                self._waiting.remove(waiting[0])
                self._wait_deadline.pop(id(waiting[0]), None)
                return True
            held = self._held.pop(key, None)
            if held is None:
                flight = self._flights.pop(key, None)  # its answer is no longer awaited
                if flight is not None:
                    self._abandon(key, flight)
                if key in self._changing:
                    # it may change files: the server is not told (a server that stops
                    # never answers, so none could say when it is over) and what waits
                    # behind it goes on once its answer comes (dropped then)
                    return True
                # the server is told (the notification goes on)
            elif held.elicitation is not None:
                self._elicitations.pop(held.elicitation, None)
        if held is None:
            return False
        if held.elicitation is not None:
            ours = held.elicitation[1] if held.elicitation[0] == "str" else None
            self._to_client(replies.cancelled(ours, "the tool call was cancelled"))
        self.decider.answered(
            held.verdict,
            held.tool,
            held.args,
            False,
            "cancelled by the client",
            call_id=_call_id(held.value.get("id")),
        )
        return True

    def _abandon(self, key: Key, flight: Flight) -> None:
        """A request passed on that the client no longer awaits (under the lock): its late
        answer is dropped and its id not taken again while the server may still give it
        (bounded: the oldest are forgotten first)."""
        if flight.token is not None:
            self._tokens.pop(flight.token, None)
        self._abandoned[key] = None
        while len(self._abandoned) > _ABANDONED_KEPT:
            del self._abandoned[next(iter(self._abandoned))]

    # ------------------------------------------------------------------ from the server
    def _read_server(self) -> None:
        self._read(self.server.stdout.fileno(), self._from_server)
        status = self.server.status(wait=2.0)
        if status is None:
            reason = "closed its output"
        elif status < 0:
            reason = f"was killed by signal {-status}"
        else:
            reason = f"exited with status {status}"
        self._server_gone(reason)

    def _from_server(self, line: bytes | Oversize) -> None:
        if isinstance(line, Oversize):
            too_big = f"a message of {line.size} bytes, over the limit of {self.max_bytes}"
            # the request it answers gets an error now, not a wait for --timeout
            self._garbage(Message("invalid", None, error=too_big), line.head)
            return
        if framing.blank(line):
            return
        msg = framing.parse(line)
        if msg.kind != "batch":
            if self._server_item(msg, line):
                self._write_client(self._no_task_tools(msg, line))
            self._landed([msg.key] if msg.kind == "response" else [])
            return
        items = [framing.classify(v) for v in msg.value]
        passed = [item for item in items if self._server_item(item, framing.dumps(item.value))]
        if len(passed) == len(items):
            self._write_client(line)
        elif passed:
            self._to_client([item.value for item in passed])
        self._landed([item.key for item in items if item.kind == "response"])

    def _no_task_tools(self, msg: Message, line: bytes) -> bytes:
        """The answer to ``initialize`` without the server's ``tasks.requests.tools``: a
        client then calls its tools plainly, never as tasks the proxy would refuse for a
        tool that may change files (:meth:`_task_refused`)."""
        with self._lock:
            if msg.kind != "response" or msg.key not in self._initializing:
                return line
            self._initializing.discard(msg.key)
        result = msg.value.get("result")
        caps = result.get("capabilities") if isinstance(result, dict) else None
        tasks = caps.get("tasks") if isinstance(caps, dict) else None
        requests = tasks.get("requests") if isinstance(tasks, dict) else None
        if not isinstance(requests, dict) or "tools" not in requests:
            return line
        assert isinstance(result, dict) and isinstance(caps, dict) and isinstance(tasks, dict)
        kept = {k: v for k, v in requests.items() if k != "tools"}
        tasks = {**tasks, "requests": kept}
        value = {**msg.value, "result": {**result, "capabilities": {**caps, "tasks": tasks}}}
        return framing.dumps(value)

    def _server_item(self, msg: Message, raw: bytes) -> bool:
        """Whether a server message goes on to the client (see the module docstring)."""
        if msg.kind in ("invalid", "batch"):
            self._garbage(msg, raw)
            return False
        if msg.kind == "response":
            with self._lock:
                flight = self._flights.pop(msg.key, None)
                if flight is not None and flight.token is not None:
                    self._tokens.pop(flight.token, None)
                if flight is None:
                    self._abandoned.pop(msg.key, None)  # answered at last: the id is free
            if flight is None:
                self._note(
                    f"MCP server '{self.name}' answered a request it was not given or no "
                    f"longer awaited (id {framing.dumps(msg.id).decode()}); dropped"
                )
            return flight is not None
        if msg.kind == "request":
            if msg.key in self._elicitations or str(msg.id).startswith(self._prefix):
                self.server.send(
                    framing.dumps(
                        replies.error(msg.id, replies.INVALID_REQUEST, "id reserved by hookwise")
                    )
                )
                return False
            return True
        if msg.method == "notifications/progress" and self.timeout:
            params = msg.value.get("params")
            token = params.get("progressToken") if isinstance(params, dict) else None
            with self._lock:
                key = self._tokens.get(id_key(token))
                flight = self._flights.get(key) if key is not None else None
                if flight is not None:
                    flight.deadline = time.monotonic() + self.timeout
        return True

    def _garbage(self, msg: Message, raw: bytes) -> None:
        """A line from the server that is no JSON-RPC message: the request it names, if
        one is in flight, is answered with an error; else the client's log is told."""
        request_id = _id_or_null(msg.value)
        if msg.value is None:
            found = _ID_IN_GARBAGE.search(raw)
            if found:
                with contextlib.suppress(framing.WireError):
                    request_id = framing.loads(found.group(1))
        with self._lock:
            flight = self._flights.pop(id_key(request_id), None) if request_id is not None else None
            if flight is not None:  # answered with an error here; the server may answer yet
                self._abandon(id_key(request_id), flight)
        if flight is not None:
            self._landed([id_key(request_id)])
        preview = raw[:200].decode("utf-8", "replace")
        if flight is None:
            self._note(
                f"MCP server '{self.name}' wrote what is no JSON-RPC message ({msg.error}): "
                f"{preview!r}; dropped"
            )
            return
        self._to_client(
            replies.error(
                flight.id,
                replies.SERVER_GARBAGE,
                f"hookwise: MCP server '{self.name}' answered {flight.method} with what is no "
                f"JSON-RPC message ({msg.error})",
                {"server": self.name, "received": preview},
            )
        )

    def _gone_error(self, request_id: Any, method: str, reason: str) -> dict[str, Any]:
        data: dict[str, Any] = {"server": self.name, "command": self.server.argv}
        tail = self.server.tail()
        if tail:
            data["stderr"] = tail[-1000:]
        return replies.error(
            request_id,
            replies.SERVER_GONE,
            f"hookwise: MCP server '{self.name}' {reason}; {method} was not answered",
            data,
        )

    def _server_gone(self, reason: str) -> None:
        with self._lock:
            self._gone = reason
            flights = list(self._flights.values())
            self._flights.clear()
            self._tokens.clear()
        if not self._done.is_set():
            self._note(f"MCP server '{self.name}' {reason}")
        for flight in flights:
            self._to_client(self._gone_error(flight.id, flight.method, reason))
        with self._lock:
            changing = list(self._changing)
        self._landed(changing)  # what waited is answered as gone too

    # ------------------------------------------------------------------ timeouts
    def _watch(self) -> None:
        assert self.timeout
        while not self._done.wait(min(self.timeout / 4, 0.25)):
            now = time.monotonic()
            with self._lock:
                late = [
                    (k, f) for k, f in self._flights.items() if f.deadline and f.deadline <= now
                ]
                for key, flight in late:
                    del self._flights[key]
                    self._abandon(key, flight)
            with self._lock:
                running = [key for key, _flight in late if key in self._changing]
            for key, flight in late:
                # the server first (queued: never blocks on a server that reads nothing):
                # once the client has its error, the server's cancellation is on its way;
                # not for a call that may change files: it runs on, and what waits behind
                # it goes on once its answer comes (as for a cancellation: _cancel)
                if flight.method != "initialize" and key not in running:
                    self.server.send(
                        framing.dumps(replies.cancelled(flight.id, "timed out in hookwise"))
                    )
                self._to_client(
                    replies.error(
                        flight.id,
                        replies.SERVER_TIMEOUT,
                        f"hookwise: MCP server '{self.name}' did not answer {flight.method} "
                        f"within {self.timeout:g} s (--timeout)",
                        {"server": self.name},
                    )
                )
            if late:
                self._landed([key for key, _flight in late if key not in running])
            self._expire_waiting(now)

    def _expire_waiting(self, now: float) -> None:
        """Requests that waited their turn past --timeout behind a call that may change
        files: answered as timed out here; the server never sees them."""
        with self._lock:
            expired = [v for v in self._waiting if self._wait_deadline.get(id(v), now + 1) <= now]
            for value in expired:
                self._waiting.remove(value)
                del self._wait_deadline[id(value)]
        for value in expired:
            self._to_client(
                replies.error(
                    _id_or_null(value),
                    replies.SERVER_TIMEOUT,
                    f"hookwise: {value.get('method')} waited {self.timeout:g} s (--timeout) "
                    f"behind a call to MCP server '{self.name}' that may change files and "
                    "has not answered; not passed on",
                    {"server": self.name},
                )
            )


# how many ids of requests the client no longer awaits are kept from being taken again
_ABANDONED_KEPT = 4096
# the largest integer a JavaScript server keeps exact: 2**53 + 1 and 2**53 are one id there
_SAFE_INTEGER = 2**53 - 1


def _bad_id(request_id: Any) -> str | None:
    """Why a request's id is refused (None: it is fine): an id that is no string or number
    (a server drops such a request unanswered: the client would wait for --timeout), or an
    integer a JavaScript server reads as another (two requests, one id there)."""
    if isinstance(request_id, bool) or not isinstance(request_id, str | int | float | None):
        return f"of type {type(request_id).__name__} is not a string or a number"
    if isinstance(request_id, int | float) and abs(request_id) > _SAFE_INTEGER:
        return f"{request_id} is beyond 2**53, where a JavaScript server reads another number"
    return None


def _call_id(request_id: Any) -> str:
    """The id as the audit log's ``call_id``: a string as it is, unless it reads as
    another JSON value (``"7"`` is written ``"\"7\""``, apart from the number ``7``)."""
    if not isinstance(request_id, str):
        return framing.dumps(request_id).decode()
    try:
        json.loads(request_id)
    except ValueError:
        return request_id
    return json.dumps(request_id)
