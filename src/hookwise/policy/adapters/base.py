"""What the adapters share: the answer shape, decoding helpers, fallback texts."""

from __future__ import annotations

from hookwise.policy import canonical, fastjson
from hookwise.policy.canonical import Event

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from hookwise.policy.rules.engine import Decision


class DecodeError(ValueError):
    """A payload the adapter cannot turn into canonical events."""


class Answer:
    """What ``hookwise hook`` prints and exits with."""

    __slots__ = ("exit_code", "notes", "stderr", "stdout")

    def __init__(
        self, stdout: str = "", stderr: str = "", exit_code: int = 0, notes: list[str] | None = None
    ) -> None:
        self.stdout = stdout
        self.stderr = stderr
        self.exit_code = exit_code
        self.notes = notes if notes is not None else []

    def as_dict(self) -> dict[str, Any]:
        return {
            "stdout": self.stdout,
            "stderr": self.stderr,
            "exit_code": self.exit_code,
            "notes": list(self.notes),
        }


def exit_blocking(answer: Answer, decision: Decision | None, spec: dict[str, Any] | None) -> None:
    """Say a deny with exit status 2 too, where the host blocks on it whatever stdout holds
    (the event's ``exit2`` is ``block``: Claude Code's and Codex's tool gates) or whenever
    stdout is not one JSON answer (``text``: Gemini CLI, where JSON wins).

    Inside ``hookwise run`` another process of the session can reopen the hook's output
    pipe through ``/proc/<pid>/fd`` (the host holds it too) and write an answer of its own
    before or around the hook's; the exit status is the hook's alone. stderr carries the
    reason (Codex blocks only with one); stdout keeps the JSON answer, which Claude Code
    still reads for the reason and a stop."""
    if decision is None or decision.decision != "deny" or answer.exit_code != 0:
        return
    if spec is None or spec.get("exit2") not in ("block", "text"):
        return
    answer.exit_code = 2
    if not answer.stderr.strip():
        answer.stderr = (decision.reason or "denied by hookwise") + "\n"


def event_name(payload: dict[str, Any]) -> str:
    name = payload.get("hook_event_name")
    if not isinstance(name, str) or not name:
        raise DecodeError("the payload has no hook_event_name")
    return name


def tool_of(payload: dict[str, Any]) -> tuple[str | None, dict[str, Any]]:
    name = payload.get("tool_name")
    raw = payload.get("tool_input")
    return (name if isinstance(name, str) and name else None), (
        raw if isinstance(raw, dict) else {}
    )


def failed(response: object) -> bool:
    """Whether a tool response reports a failure."""
    if not isinstance(response, dict):
        return False
    error = response.get("error")
    if error not in (None, "", False, {}, []):
        return True
    if response.get("success") is False or response.get("is_error") is True:
        return True
    for key in ("exit_code", "exitCode"):
        code = response.get(key)
        if isinstance(code, int) and not isinstance(code, bool) and code != 0:
            return True
    return False


def make_events(
    host: str,
    host_event: str,
    names: list[str],
    payload: dict[str, Any],
    fields: tuple[str | None, dict[str, Any] | None, str | None, str | None],
    *,
    env: dict[str, str],
    now: float,
    tools: dict[str, str],
    table: dict[str, Any] | None = None,
) -> list[Event]:
    """One Event per canonical name; ``fields`` is (host tool, tool input, prompt, response);
    ``tools`` is the host table's tool names -> canonical tools; ``table``, the host's
    table, where the host's MCP tools are read by its ``mcp_names`` (:func:`mcp_call`;
    Gemini CLI's by canonical.mcp_readings, with its ``mcp_context``)."""
    host_tool, raw_input, prompt, response = fields
    if table is not None and host_tool:
        host_tool = mcp_call(host_tool, payload, table)
    tool = tools.get(host_tool, host_tool) if host_tool else None
    mapped = mcp_mapped(host_tool, tool, payload, raw_input)
    if mapped is not None:
        tool = mapped[0]
    events = [
        Event(
            name,
            host,
            host_event,
            payload,
            host_tool=host_tool,
            raw_input=raw_input,
            prompt=prompt,
            response=response,
            env=env,
            now=now,
            tool=tool,
            mapped_input=None if mapped is None else mapped[1],
        )
        for name in names
    ]
    return mcp_readings(events)


def mcp_call(host_tool: str, payload: dict[str, Any], table: dict[str, Any]) -> str:
    """The host tool a call is decided as, having put an MCP call's readings in the payload
    (canonical.MCP_CALL) where the host names it otherwise than ``mcp__<server>__<tool>``.

    By the host's naming (``mcp_names``, protocol/hosts.py): a tool outside its table whose
    name is an MCP tool's there is read at each separator (``fs__write_file`` from Cline,
    ``fs___write_file`` from Droid), renamed ``mcp__<server>__<tool>`` of the host's own
    reading (the host's name kept as ``host_tool_name``), so it is mapped and decided as
    the MCP proxy decides the call. Where the host's naming is not recorded, a tool outside
    its table, and a tool its table calls ``mcp`` (Cursor's MCP), may be an MCP tool whose
    server and tool cannot be told: each rule on them that could hold is unverifiable
    (rules/mcp_unsure.py). An adapter that read the parts from the payload's fields
    (``mcp_fields``) put them there already."""
    call = payload.get(canonical.MCP_CALL)
    title = str(table.get("title", ""))
    if not isinstance(call, dict):
        known = table["tools"].get(host_tool)
        if known is not None and known != "mcp":
            return host_tool
        naming = table.get("mcp_names")
        found = None
        if naming is not None and known is None:
            found = canonical.mcp_name_readings(naming, host_tool)
            if found is None:
                return host_tool
        readings, why = found if found is not None else ([], "")
        if found is None:
            # a name mcp__<server>__<tool> is still read so (its tool mapped as the proxy
            # maps it), every rule on the server or tool that could hold left unverifiable
            split = canonical.split_mcp(host_tool) if known is None else None
            readings = [split] if split is not None else []
            why = (
                f"names no MCP server or tool in {host_tool!r}"
                if known == "mcp"
                else f"names MCP tools in a way hookwise has no record of: {host_tool!r} "
                "may be one, whose server and tool cannot be told"
            )
        changed = naming[4] if naming is not None else ""
        keeps = naming[2] if naming is not None and changed in ("silent", "encoded") else ""
        call = {"readings": [list(r) for r in readings], "why": why, "keeps": keeps,
                "host": title, "encoded": changed == "encoded"}  # fmt: skip
        payload[canonical.MCP_CALL] = call
    readings = call.get("readings") or []
    named = f"mcp__{readings[0][0]}__{readings[0][1]}" if readings else host_tool
    if named != host_tool:
        payload.setdefault("host_tool_name", host_tool)
    return named


def field_call(
    spec: list[Any] | None, source: dict[str, Any], payload: dict[str, Any], title: str
) -> dict[str, Any] | None:
    """The arguments of an MCP call whose server, tool and arguments a payload names in
    fields (``mcp_fields``: [server key | None, tool key, arguments key, "json" | "object"]),
    its readings put in the payload (canonical.MCP_CALL); None when ``spec`` is None or the
    tool is not named. Arguments that are not an object (JSON text that does not decode to
    one) are kept under ``input``, which the rules cannot account for (unverifiable)."""
    if spec is None:
        return None
    server_key, tool_key, args_key, form = spec
    tool = source.get(tool_key)
    if not isinstance(tool, str) or not tool:
        return None
    server = source.get(server_key) if server_key else None
    server = server if isinstance(server, str) and server else ""
    args: Any = source.get(args_key)
    if form == "json" and isinstance(args, str):
        try:
            args = fastjson.loads(args)
        except ValueError:
            args = {"input": args}
    if args is None:
        args = {}
    found: dict[str, Any] = args if isinstance(args, dict) else {"input": args}
    # a server not named is "": a rule on it could hold (rules/mcp_unsure.py)
    payload[canonical.MCP_CALL] = {"readings": [[server, tool]], "why": "", "keeps": "",
                                   "host": title}  # fmt: skip
    return found


def mcp_readings(events: list[Event]) -> list[Event]:
    """``events`` and, for an MCP tool (under any host's naming, mapped by its own name or
    not), the same events for each other reading of its arguments a server may make
    (``arg_readings.readings``: its paths as the proxy passes them on, trimmed paths,
    decoded JSON texts, an unmapped tool's bare names), as the MCP proxy decides them
    too: a rule holding for any reading holds for the call. The first events stay the
    call as given (answers and rewrites are of it)."""
    first = events[0] if events else None
    if first is None or not (first.host_tool or "").startswith("mcp_"):
        return events
    from hookwise.policy.arg_readings import readings
    from hookwise.policy.tool_input import canonical_input

    tool = first.tool or ""
    mapped = tool in canonical.CANONICAL_TOOLS
    raw = first.mcp_args if first.mcp_args is not None else first.raw_input
    moves = mapped and tool in ("write", "edit") and canonical.moves_files(first.host_tool or "")
    out = list(events)
    where = (first.cwd, first.env.get("HOME") or "")
    for other in readings(tool, raw, mapped=mapped, moves=moves, where=where):
        as_rules = canonical_input(tool, other, moves=moves).args
        out += [
            Event(ev.name, ev.host, ev.host_event, ev.payload, host_tool=ev.host_tool,
                  raw_input=other, prompt=ev.prompt, response=ev.response, env=ev.env,
                  now=ev.now, tool=ev.tool, mapped_input=as_rules)
            for ev in events
        ]  # fmt: skip
    return out


def mcp_mapped(
    host_tool: str | None, tool: str | None, payload: dict[str, Any], raw: dict[str, Any] | None
) -> tuple[str, dict[str, Any]] | None:
    """An MCP tool the host's table leaves unmapped, mapped by its own name as the MCP proxy
    maps it (tool_input.mcp_call); None for every other tool (no import for them)."""
    if host_tool is None or tool != host_tool or not host_tool.startswith("mcp_"):
        return None
    from hookwise.policy.tool_input import mcp_call

    return mcp_call(host_tool, payload, raw if raw is not None else {})


def text_field(payload: dict[str, Any], key: str) -> str | None:
    value = payload.get(key)
    return value if isinstance(value, str) else None


class Encoding:
    """One answer being built: what every adapter does the same way lives here."""

    __slots__ = ("events", "extra_user", "host", "hso", "name", "notes", "out", "spec")

    def __init__(self, host: str, events: list[Event], tables: dict[str, Any]) -> None:
        self.host = host
        self.events = events
        self.name = events[0].host_event
        self.spec: dict[str, Any] = tables[host]["events"][self.name]
        self.out: dict[str, Any] = {}
        self.hso: dict[str, Any] = {}
        self.notes: list[str] = []
        self.extra_user: list[str] = []

    def cannot(self, what: str, show: str | None = None) -> None:
        """Record what the host cannot be given (and show ``show`` to the user instead)."""
        self.notes.append(f"{self.host} cannot {what} on {self.name}")
        if show is not None:
            self.extra_user.append(show if show.startswith("hookwise:") else f"hookwise: {show}")

    @property
    def stops(self) -> bool:
        return canonical.AGENT_STOP in {ev.name for ev in self.events}

    def decide_requests_and_blocks(
        self, decision: Decision, verdict: str | None, reason: str, *, rewrite_requests: bool
    ) -> None:
        """Claude Code / Codex: PermissionRequest behaviour, top-level blocks, the rest."""
        pattern = self.spec["decision"]
        hso = self.hso
        if pattern == "permission_request":
            if verdict == "deny":
                hso["decision"] = {"behavior": "deny", "message": reason}
            elif verdict == "allow":
                behaviour: dict[str, Any] = {"behavior": "allow"}
                if decision.updated_input is not None:
                    if rewrite_requests:
                        behaviour["updatedInput"] = decision.updated_input
                    else:
                        self.cannot("rewrite the input")
                hso["decision"] = behaviour
            elif verdict == "ask":
                self.notes.append("PermissionRequest: ask leaves the question to the host")
        elif pattern == "block":
            if verdict == "deny":
                self.out["decision"] = "block"
                self.out["reason"] = reason
            elif decision.retry is not None and self.stops:
                self.out["decision"] = "block"
                self.out["reason"] = decision.retry
        elif pattern != "permission" and verdict == "deny":
            self.cannot("block", reason)

    def finish(self, decision: Decision, stop: str | None, *, always_json: bool = False) -> Answer:
        """Add stop, context and user messages; wrap hookSpecificOutput; serialise."""
        spec = self.spec
        if decision.retry is not None and "decision" not in self.out:
            self.cannot("send the agent back")
        if stop is not None:
            if spec["stop"]:
                self.out["continue"] = False
                self.out["stopReason"] = stop
            else:
                self.cannot("stop the agent", stop)
        if decision.contexts:
            if "additionalContext" in spec["specific"]:
                self.hso["additionalContext"] = "\n\n".join(decision.contexts)
            else:
                self.cannot("pass context to the model")
        shown = "\n".join([*decision.messages, *decision.warnings, *self.extra_user])
        if shown:
            if "systemMessage" in spec["common"]:
                self.out["systemMessage"] = shown
            else:
                self.cannot("show a message")
        if self.hso:
            self.out["hookSpecificOutput"] = {"hookEventName": self.name, **self.hso}
        if self.out or always_json:
            return Answer(fastjson.dumps(self.out), "", 0, self.notes)
        return Answer("", "", 0, self.notes)


def resolve_ask(decision: Decision, settings: dict[str, Any]) -> str:
    """What ``ask`` becomes where the host cannot ask: "deny" or "allow"."""
    return decision.ask_fallback or str(settings.get("ask_fallback", "deny"))


def ask_denied_reason(decision: Decision) -> str:
    return f"{decision.reason} (this needs a user's confirmation, which this host cannot ask for)"


def gates_tool(events: list[Event]) -> bool:
    """Whether an event decides whether a tool runs (these fail closed)."""
    return any(ev.name in (canonical.TOOL_BEFORE, canonical.PERMISSION_REQUEST) for ev in events)


def decode_dialect(
    host: str,
    payload: dict[str, Any],
    tables: dict[str, Any],
    env: dict[str, str],
    now: float,
) -> list[Event]:
    """Claude Code and Codex share the payload shape; their tables differ."""
    name = event_name(payload)
    spec = tables[host]["events"].get(name)
    if spec is None:
        label = tables[host]["title"]
        raise DecodeError(
            f"unknown {label} event {name!r}; expected one of: {', '.join(tables[host]['events'])}"
        )
    names = list(spec["canonical"])
    host_tool, raw_input = tool_of(payload)
    if names == [canonical.TOOL_AFTER] and failed(payload.get("tool_response")):
        names.append(canonical.TOOL_FAILURE)
    prompt = text_field(payload, "prompt") if canonical.PROMPT in names else None
    response = (
        text_field(payload, "last_assistant_message") if canonical.AGENT_STOP in names else None
    )
    fields = (host_tool, raw_input, prompt, response)
    return make_events(
        host, name, names, payload, fields, env=env, now=now, tools=tables[host]["tools"],
        table=tables[host],
    )  # fmt: skip
