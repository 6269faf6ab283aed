"""The Gate: one framework agent's tool calls, prompts and run ends through hookwise.

Every bridge (``hookwise.integrations.<framework>``) turns its framework's events into
calls of one :class:`Gate` and applies the :class:`Verdict` with the framework's own
mechanism. The Gate decides in process with the same engine as ``hookwise hook``
(:func:`hookwise.policy.rules.engine.evaluate`, the same scopes, trust model and compiled cache;
no process is spawned), optionally runs the project's existing Claude Code / Gemini CLI /
Codex hooks (``hooks_from``, see :mod:`hookwise.integrations.hooks`) and keeps the stricter
answer, and writes every decision to the policy audit log with ``framework`` and ``agent``.

Failure is closed as in ``hookwise hook``: a policy that cannot be read, or an internal
error, denies tool calls (the reason names the file and the error) and lets prompts and
run ends through with a message, unless ``settings.on_error`` / ``HOOKWISE_ON_ERROR`` says
otherwise.
"""

from __future__ import annotations

import os
import threading
import time
import uuid
from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Literal

from hookwise.integrations import shell_args
from hookwise.integrations.file_uri import uri_reading
from hookwise.integrations.json_data import jsonable
from hookwise.integrations.tools import MOVE_SOURCE_KEYS, ToolNames, command_like, moves_files
from hookwise.integrations.verdict import Action, Verdict
from hookwise.policy import audit, canonical
from hookwise.policy.adapters.base import Answer, failed
from hookwise.policy.arg_readings import bare_names
from hookwise.policy.arg_roles import named_paths, unaccounted, writes_content
from hookwise.policy.cache import load_policy
from hookwise.policy.canonical import Event
from hookwise.policy.hook import audit_record
from hookwise.policy.pipeline import Outcome, first_error, on_error_verdict
from hookwise.policy.retry_state import RetryState
from hookwise.policy.rules.engine import UNVERIFIABLE_ID, Decision, evaluate
from hookwise.policy.tool_input import MappedInput, canonical_input, shell_command
from hookwise.policy.trust.scopes import scope_sources, trust_store_path

if TYPE_CHECKING:
    from hookwise.integrations.hooks import HookBridge

HooksFrom = Literal["claude", "gemini", "codex"]
HOOK_HOSTS: tuple[str, ...] = ("claude", "gemini", "codex")
RANK: Mapping[str, int] = {"allow": 0, "ask": 1, "deny": 2}


def _stat(path: str) -> tuple[int, int, int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


def vanished(before: tuple[Any, ...], now: tuple[Any, ...]) -> str | None:
    """A policy file present at the last load and missing now, or None. Deleting the user
    policy made the Gate read "no rules" within a second (red team s27 F14): one deletion
    was worth a rewrite, which self-protection refuses."""
    present = {path for path, stat in before if stat is not None}
    return next((path for path, stat in now if stat is None and path in present), None)


class _Policy:
    """The compiled policy of one Gate, reloaded when a scope file or the trust store
    changes (a stat per file per call; the bytes are read only then)."""

    __slots__ = ("_guard", "error", "files", "policy", "signature")

    def __init__(
        self,
        signature: tuple[Any, ...],
        policy: dict[str, Any] | None,
        files: list[tuple[str, str]],
        error: str | None,
    ) -> None:
        self.signature = signature
        self.policy = policy
        self.files = files
        self.error = error
        self._guard: Any = None

    def guard(self, env: dict[str, str], cwd: str) -> Any:
        """Self-protection's protected paths for this policy, worked out once (they
        depend on the env, the cwd and the policy files, which a reload renews)."""
        if self._guard is None and self.policy is not None:
            from hookwise.policy.trust.protect import Guard

            files = [path for _scope, path in self.policy.get("files", ())]
            self._guard = Guard(env, files, cwd)
        return self._guard


class Gate:
    """hookwise's gate for one agent of one framework (see the module docstring)."""

    def __init__(
        self,
        framework: str,
        *,
        agent: str = "",
        cwd: str | os.PathLike[str] | None = None,
        policy: str | os.PathLike[str] | None = None,
        hooks_from: HooksFrom | None = None,
        tool_names: Mapping[str, str] | None = None,
        session_id: str | None = None,
        relay: bool = True,
        recheck: float = 0.0,
        env: Mapping[str, str] | None = None,
    ) -> None:
        if not isinstance(framework, str) or not framework.strip():
            raise ValueError("Gate: framework must name the framework (e.g. 'openai-agents')")
        if hooks_from is not None and hooks_from not in HOOK_HOSTS:
            raise ValueError(
                f"Gate: hooks_from must be one of {', '.join(HOOK_HOSTS)} or None; "
                f"got {hooks_from!r}"
            )
        self.framework = framework.strip()
        self.agent = agent
        self.cwd = os.path.abspath(os.fspath(cwd)) if cwd is not None else os.getcwd()
        # ``env``: the environment the policy, trust store and audit log are found with
        # (the MCP proxy's pinned one); this process's by default
        self.env: dict[str, str] = dict(os.environ if env is None else env)
        if policy is not None:
            self.env["HOOKWISE_POLICY"] = os.path.abspath(os.fspath(policy))
        self.hooks_from: HooksFrom | None = hooks_from
        self.session_id = session_id or f"{self.framework}-{uuid.uuid4()}"
        self.relay = relay
        # seconds between looks for a changed policy (0: every call); a long-lived process
        # on a busy path (the MCP proxy) trades that much delay for fewer stats per call
        self.recheck = recheck
        self._checked = 0.0
        self.names = ToolNames(tool_names)
        self.state = RetryState()
        self._lock = threading.Lock()
        self._loaded: _Policy | None = None
        # a policy file this Gate loaded that then disappeared (vanished())
        self._vanished: str | None = None
        self._hooks: HookBridge | None = None
        self._stop_hook_active = False
        # tools whose every inner call the bridge gates on its own (a smolagents CodeAgent's
        # code action: each tool its snippet calls is gated), so not unverifiable as a whole
        self.accounted_tools: frozenset[str] = frozenset()

    # ------------------------------------------------------------------ the public calls
    def canonical_tool(self, tool: str) -> str:
        """The canonical name of a framework tool (``shell``, ``write``...) or its own."""
        return self.names.canonical(tool)

    def before_tool(self, tool: str, args: Mapping[str, Any], *, call_id: str = "") -> Verdict:
        """Before a tool runs: deny (the tool must not run), ask, allow, maybe new args."""
        verdict, record = self._before_hooked(tool, args, call_id)
        self._write(record, verdict)
        return verdict

    async def abefore_tool(
        self, tool: str, args: Mapping[str, Any], *, call_id: str = ""
    ) -> Verdict:
        """:meth:`before_tool` for asyncio frameworks (hooks run without blocking the loop)."""
        verdict, record = await self._abefore_hooked(tool, args, call_id)
        self._write(record, verdict)
        return verdict

    def before_tool_held(
        self, tool: str, args: Mapping[str, Any], *, call_id: str = ""
    ) -> tuple[Verdict, Held]:
        """:meth:`before_tool` whose audit record of an ``ask`` is written only when the
        returned :class:`Held` is written: frameworks that run the call's step again once
        a person answers (LangGraph's interrupt, ADK's confirmation) write the ask once, and
        the answer (:meth:`record_approval`) instead of a second ask. Other verdicts are
        written at once."""
        verdict, record = self._before_hooked(tool, args, call_id)
        return verdict, self._hold(record, verdict)

    async def abefore_tool_held(
        self, tool: str, args: Mapping[str, Any], *, call_id: str = ""
    ) -> tuple[Verdict, Held]:
        """:meth:`before_tool_held` for asyncio frameworks."""
        verdict, record = await self._abefore_hooked(tool, args, call_id)
        return verdict, self._hold(record, verdict)

    def _hold(self, record: dict[str, Any], verdict: Verdict) -> Held:
        if verdict.action == "ask":
            return Held(self, record, verdict)
        self._write(record, verdict)
        return Held(self, None, verdict)

    def _before_hooked(
        self, tool: str, args: Mapping[str, Any], call_id: str
    ) -> tuple[Verdict, dict[str, Any]]:
        verdict, record = self._before(tool, args, call_id)
        if self.hooks_from is not None and verdict.action != "deny" and verdict.stop is None:
            verdict = self._combine_before(
                verdict, tool, args, self._bridge().before_tool(tool, verdict.args or args), record
            )
        return verdict, record

    async def _abefore_hooked(
        self, tool: str, args: Mapping[str, Any], call_id: str
    ) -> tuple[Verdict, dict[str, Any]]:
        verdict, record = self._before(tool, args, call_id)
        if self.hooks_from is not None and verdict.action != "deny" and verdict.stop is None:
            hooked = await self._bridge().abefore_tool(tool, verdict.args or args)
            verdict = self._combine_before(verdict, tool, args, hooked, record)
        return verdict, record

    def after_tool(
        self, tool: str, args: Mapping[str, Any], result: Any, *, call_id: str = ""
    ) -> Verdict:
        """After a tool ran: deny means the model gets ``reason`` instead of the result;
        ``context`` is appended to it."""
        verdict, record = self._after(tool, args, result, call_id)
        if self.hooks_from is not None:
            hooked = self._bridge().after_tool(tool, args, result)
            verdict = self._combine(verdict, hooked, record)
        self._write(record, verdict)
        return verdict

    async def aafter_tool(
        self, tool: str, args: Mapping[str, Any], result: Any, *, call_id: str = ""
    ) -> Verdict:
        verdict, record = self._after(tool, args, result, call_id)
        if self.hooks_from is not None:
            hooked = await self._bridge().aafter_tool(tool, args, result)
            verdict = self._combine(verdict, hooked, record)
        self._write(record, verdict)
        return verdict

    def prompt(self, text: str) -> Verdict:
        """A user prompt: deny blocks it; ``context`` is added to it."""
        self._stop_hook_active = False
        payload = self._payload(canonical.PROMPT, prompt=text)
        events = [self._event(canonical.PROMPT, payload, prompt=text)]
        verdict, record = self._decide(events, tool_event=False)
        if self.hooks_from is not None and verdict.action != "deny":
            verdict = self._combine(verdict, self._bridge().prompt(text), record)
        self._write(record, verdict)
        return verdict

    def end(self, final_text: str = "") -> Verdict:
        """The agent is about to finish: deny means "do not stop yet", ``reason`` says what
        to do (retry rules, with their budget per session)."""
        payload = self._payload(
            canonical.AGENT_STOP,
            last_assistant_message=final_text,
            stop_hook_active=self._stop_hook_active,
        )
        events = [self._event(canonical.AGENT_STOP, payload, response=final_text)]
        verdict, record = self._decide(events, tool_event=False)
        if self.hooks_from is not None and verdict.action != "deny":
            hooked = self._bridge().end(final_text, self._stop_hook_active)
            verdict = self._combine(verdict, hooked, record)
        self._stop_hook_active = verdict.action == "deny"
        self._write(record, verdict)
        return verdict

    def resolve_ask(
        self, verdict: Verdict, tool: str, args: Mapping[str, Any], *, call_id: str = ""
    ) -> Verdict:
        """An ``ask`` for a framework without an approval mechanism: a person's decision
        through the approval relay when the user's policy has ``settings.approvals`` (and
        the rule does not say ``relay: false``), the same relay ``hookwise hook`` uses;
        else, or when nobody answers in time, the policy's ``ask_fallback`` (the rule's,
        else ``settings.ask_fallback``; deny by default): never silently an allow. Other
        verdicts pass unchanged."""
        if verdict.action != "ask":
            return verdict
        if self.relay:
            relayed = self._relay(tool, args)
            if relayed is not None:
                return relayed
        fallback = self._ask_fallback(verdict.rule_id)
        if fallback == "allow":
            resolved = replace(verdict, action="allow")
        else:
            why = verdict.reason or "this call needs a person's approval"
            resolved = replace(
                verdict,
                action="deny",
                args=None,
                reason=f"{why} (this needs a user's confirmation, which {self.framework} "
                "cannot ask for here)",
            )
        self.record_approval(tool, args, resolved, f"ask_fallback: {fallback}", call_id=call_id)
        return resolved

    def record_approval(
        self,
        tool: str,
        args: Mapping[str, Any],
        resolved: Verdict,
        how: str,
        approval: dict[str, Any] | None = None,
        *,
        call_id: str = "",
    ) -> None:
        """Audit how an ``ask`` was answered (``how``: the fallback, the framework's
        approver, the relay...), as a ``permission.request`` record of the same call."""
        if not isinstance(args, Mapping):
            args = {}
        mapped = canonical_input(self.canonical_tool(tool), args)
        payload = self._payload(canonical.PERMISSION_REQUEST, tool=tool, args=mapped.args)
        if call_id:
            payload["tool_use_id"] = call_id
        ev = self._event(canonical.PERMISSION_REQUEST, payload, tool=tool, mapped=mapped)
        record = self._record([ev], None, 0.0)
        record.update(decision=resolved.action, reason=resolved.reason, ask_resolved=how)
        record["rule"] = resolved.rule_id or None
        if approval is not None:
            record["approval"] = approval
        self._write(record, resolved)

    def record_refusal(
        self, tool: str, args: Mapping[str, Any], reason: str, rule_id: str, *, call_id: str = ""
    ) -> None:
        """Audit a call refused before any rule was asked (the MCP proxy's envelope check:
        the message reads otherwise to its server), as a denial by ``rule_id``."""
        self._policy()  # the audit log's settings
        mapped = MappedInput(dict(args) if isinstance(args, Mapping) else {}, {}, True)
        payload = self._payload(canonical.TOOL_BEFORE, tool=tool, args=mapped.args)
        if call_id:
            payload["tool_use_id"] = call_id
        ev = self._event(canonical.TOOL_BEFORE, payload, tool=tool, mapped=mapped)
        record = self._record([ev], None, 0.0)
        record.update(decision="deny", reason=reason, rule=rule_id)
        self._write(record, Verdict("deny", reason, rule_id=rule_id))

    def _relay(self, tool: str, args: Mapping[str, Any]) -> Verdict | None:
        """The call decided again (its rule, its relay flag) and, when it goes to the
        relay, the person's answer as a verdict; None when the relay does not apply."""
        from hookwise.policy.approvals import relay

        policy = self._policy().policy
        if policy is None or first_error(policy) or not policy["settings"].get("approvals"):
            return None
        if not isinstance(args, Mapping):
            args = {}
        mapped = canonical_input(self.canonical_tool(tool), args)
        payload = self._payload(canonical.TOOL_BEFORE, tool=tool, args=mapped.args)
        ev = self._event(canonical.TOOL_BEFORE, payload, tool=tool, mapped=mapped)
        decision = evaluate(policy, [ev], self.state, guard=self._loaded_guard())
        if not relay.applies(decision, [ev], policy["settings"]):
            return None
        # a framework has no prompt of its own to hand over to: on_timeout "ask" means
        # a denial, as on a headless host
        result = relay.relay(
            decision,
            [ev],
            self.framework,
            policy["hosts"],
            policy["settings"],
            env=self.env,
        )
        resolved = self._verdict(decision, [ev])
        if resolved.action == "ask":  # the relay leaves an ask only for a host's prompt
            resolved = replace(resolved, action="deny")
        if resolved.args is not None:
            resolved = replace(resolved, args=self._back(mapped, args, resolved.args))
        self.record_approval(tool, args, resolved, f"relay: {result.outcome}", result.as_dict())
        return resolved

    # ------------------------------------------------------------------ building events
    @property
    def host(self) -> str:
        """The ``host`` the rules see (``when: host == ...``): the framework's name."""
        return self.framework

    def host_event(self, name: str) -> str:
        """The host's name for a canonical event: the canonical name itself (a framework
        is no host, so rules naming a host's events do not apply to it)."""
        return name

    def _payload(
        self, name: str, *, tool: str | None = None, args: Any = None, **fields: Any
    ) -> dict[str, Any]:
        payload: dict[str, Any] = {
            "hook_event_name": name,
            "session_id": self.session_id,
            "cwd": self.cwd,
            "framework": self.framework,
            "agent": self.agent,
        }
        if tool is not None:
            payload["tool_name"] = tool
            payload["tool_input"] = jsonable(args)
        for key, value in fields.items():
            payload[key] = jsonable(value)
        return payload

    def _event(
        self,
        name: str,
        payload: dict[str, Any],
        *,
        tool: str | None = None,
        mapped: MappedInput | None = None,
        prompt: str | None = None,
        response: str | None = None,
        as_tool: str | None = None,
    ) -> Event:
        return Event(
            name,
            self.host,
            self.host_event(name),
            payload,
            host_tool=tool,
            raw_input=payload.get("tool_input") if mapped is not None else None,
            prompt=prompt,
            response=response,
            env=self.env,
            now=time.time(),
            tool=as_tool or (self.canonical_tool(tool) if tool is not None else None),
        )

    # ------------------------------------------------------------------ deciding
    def _before(
        self, tool: str, args: Mapping[str, Any], call_id: str
    ) -> tuple[Verdict, dict[str, Any]]:
        if not isinstance(args, Mapping):
            args = {}
        name = self.canonical_tool(tool)
        moves = moves_files(tool) and name in ("write", "edit")
        where = shell_args.with_cwd(args) if name == canonical.SHELL else args
        mapped = canonical_input(name, where, moves=moves)
        if where is not args and "cwd" not in args:
            mapped.added = mapped.added | {"cwd"}  # for the rules only: never sent
        payload = self._payload(canonical.TOOL_BEFORE, tool=tool, args=mapped.args)
        if call_id:
            payload["tool_use_id"] = call_id
        ev = self._event(canonical.TOOL_BEFORE, payload, tool=tool, mapped=mapped)
        if not mapped.complete:
            reason = (
                f"hookwise: cannot find the command of shell tool {tool!r} in its arguments "
                f"({', '.join(sorted(map(str, args))) or 'none'}); expected one of "
                "'command', 'cmd', 'script' or a single string argument; denied (fail closed)"
            )
            record = self._record([ev], None, 0.0)
            record["error"] = reason
            return Verdict("deny", reason, rule_id="hookwise:unmapped-shell"), record
        verdict, record = self._decide([ev], tool_event=True)
        if moves and verdict.action != "deny":
            verdict, record = self._move_source(tool, args, call_id, verdict, record)
        if name == canonical.SHELL and verdict.action != "deny":
            verdict, record = self._list_as_line(tool, args, call_id, verdict, record)
        if name == canonical.SHELL and verdict.action != "deny":
            verdict, record = self._shell_extras(tool, args, call_id, verdict, record)
        if verdict.action != "deny":
            verdict, record = self._uri_paths(tool, args, call_id, verdict, record)
        if verdict.args is not None:
            verdict = replace(verdict, args=self._back(mapped, args, verdict.args))
        if tool in self.accounted_tools:
            return verdict, record
        if verdict.action != "deny":
            why = unaccounted(name, args, mapped=name != tool, moves=moves)
            if why is not None:
                verdict = self._unverifiable(tool, why, verdict)
        if name == tool and verdict.action != "deny":
            verdict, record = self._bare_names(tool, args, call_id, verdict, record)
        if name == tool and verdict.action != "deny":
            verdict, record = self._unmapped_file(tool, args, call_id, verdict, record)
        if verdict.action == "allow" and not verdict.rule_id and name == tool:
            verdict = self._unmapped(tool, args, verdict)
        return verdict, record

    def _uri_paths(
        self,
        tool: str,
        args: Mapping[str, Any],
        call_id: str,
        verdict: Verdict,
        record: dict[str, Any],
    ) -> tuple[Verdict, dict[str, Any]]:
        """A ``file:`` URI under any key is decided as the path it names (file_uri.py):
        self-protection and every ``files`` rule hold for ``{"uri": "file:///..."}``."""
        found = uri_reading(args, self.cwd, self.env.get("HOME") or "")
        if found is None:
            return verdict, record
        name = self.canonical_tool(tool)
        mapped = canonical_input(name, found, moves=moves_files(tool) and name in ("write", "edit"))
        return self._stricter(tool, mapped, call_id, (verdict, record))

    def _bare_names(
        self,
        tool: str,
        args: Mapping[str, Any],
        call_id: str,
        verdict: Verdict,
        record: dict[str, Any],
    ) -> tuple[Verdict, dict[str, Any]]:
        """A tool the table does not map, with a bare word under a path key (``target:
        authorized_keys``, ``to: id_rsa``): no ``/`` or dot says it is a path, nor that
        it is not (a deploy stage, a mail name), so it is decided as a file name too; a
        rule naming that file matches it, any other verdict stands."""
        names = bare_names(tool, args)
        if not names:
            return verdict, record
        reading = MappedInput({"file_paths": names}, {}, True)
        return self._stricter(tool, reading, call_id, (verdict, record))

    def _unmapped_file(
        self,
        tool: str,
        args: Mapping[str, Any],
        call_id: str,
        verdict: Verdict,
        record: dict[str, Any],
    ) -> tuple[Verdict, dict[str, Any]]:
        """A tool the name table does not map, taking a path (``putFile {path}``,
        ``get_file {path}``), is decided as each file tool it could be: its name says
        nothing, so rules on ``tool: write``/``edit``/``read`` would otherwise never hold for
        it (red team s26 F7). Taking content for the path says it writes: a write or edit
        rule then applies as it is. Else a rule that holds for one of the readings makes the
        call unverifiable (the guard cannot tell whether the tool does what the rule is
        about)."""
        names = named_paths(tool, args)
        found = uri_reading(args, self.cwd, self.env.get("HOME") or "")
        names += found["file_paths"] if found is not None else []
        if not names:
            return verdict, record
        reading = MappedInput({"file_paths": names}, {}, True)
        writes = writes_content(args)
        for as_tool in ("write", "edit", "read"):
            other, other_record = self._reading(tool, reading, call_id, as_tool)
            if RANK[other.action] <= RANK[verdict.action]:
                continue
            if writes is not None and as_tool != "read":
                verdict, record = replace(other, args=None), other_record
            else:
                does = "reads" if as_tool == "read" else "writes"
                why = (
                    f"tool {tool!r} is not mapped to a canonical tool; if it {does} "
                    f"{names[0]!r}, rule {other.rule_id or '?'} applies ({other.reason}); map it "
                    "(tool_names), or name it in a rule"
                )
                verdict = self._unverifiable(tool, why, verdict)
            if verdict.action == "deny":
                break
        return verdict, record

    def _reading(
        self, tool: str, reading: MappedInput, call_id: str, as_tool: str | None = None
    ) -> tuple[Verdict, dict[str, Any]]:
        """The call decided as another ``reading`` of its arguments (as ``as_tool``)."""
        payload = self._payload(canonical.TOOL_BEFORE, tool=tool, args=reading.args)
        if call_id:
            payload["tool_use_id"] = call_id
        ev = self._event(canonical.TOOL_BEFORE, payload, tool=tool, mapped=reading, as_tool=as_tool)
        return self._decide([ev], tool_event=True)

    def _stricter(
        self,
        tool: str,
        reading: MappedInput,
        call_id: str,
        current: tuple[Verdict, dict[str, Any]],
        *,
        as_tool: str | None = None,
    ) -> tuple[Verdict, dict[str, Any]]:
        """The call decided again as another ``reading`` of its arguments; the stricter
        verdict (and its record) than ``current`` wins."""
        verdict = current[0]
        other, other_record = self._reading(tool, reading, call_id, as_tool)
        if other.action == "deny" or (other.action == "ask" and verdict.action != "ask"):
            return replace(other, args=None), other_record
        return current

    def _move_source(
        self,
        tool: str,
        args: Mapping[str, Any],
        call_id: str,
        verdict: Verdict,
        record: dict[str, Any],
    ) -> tuple[Verdict, dict[str, Any]]:
        """A move's or copy's source is read as well (``tools.MOVE_TOOLS``): a rule on
        reading a file also stops its copy under another name."""
        source = next(
            (v for k in MOVE_SOURCE_KEYS if isinstance(v := args.get(k), str) and v), None
        )
        if source is None:
            return verdict, record
        reading = MappedInput({"file_path": source}, {}, True)
        return self._stricter(tool, reading, call_id, (verdict, record), as_tool="read")

    def _list_as_line(
        self,
        tool: str,
        args: Mapping[str, Any],
        call_id: str,
        verdict: Verdict,
        record: dict[str, Any],
    ) -> tuple[Verdict, dict[str, Any]]:
        """A command given as a list is an argv to a server that execs it, but a shell
        line to one that spawns it through a shell (Node's ``shell: true`` joins it with
        blanks; Python's ``shell=True`` runs the first item): ``["rm -rf x"]`` is one
        program word read as argv. Both readings are decided; the stricter wins."""
        key, _ = shell_command(args)
        words = args.get(key) if key is not None else None
        if key is None or not isinstance(words, list) or not all(isinstance(w, str) for w in words):
            return verdict, record
        for line in sorted({" ".join(words), words[0]} if words else set()):
            rest = {k: v for k, v in args.items() if k != key}
            reading = MappedInput({**rest, "command": line}, {}, True)
            verdict, record = self._stricter(tool, reading, call_id, (verdict, record))
            if verdict.action == "deny":
                break
        return verdict, record

    def _shell_extras(
        self,
        tool: str,
        args: Mapping[str, Any],
        call_id: str,
        verdict: Verdict,
        record: dict[str, Any],
    ) -> tuple[Verdict, dict[str, Any]]:
        """A shell tool's argv, environment and stdin arguments (``shell_args``): the lines
        they make are decided too, the stricter verdict wins; where no line can say what
        runs, the call is unverifiable."""
        try:
            lines = shell_args.readings(args)
        except shell_args.UnverifiableError as why:
            return self._unverifiable(tool, str(why), verdict), record
        where = shell_args.with_cwd(args)
        rest = {k: v for k, v in where.items() if k in ("cwd", "workdir", "path", "directory")}
        for line in lines:
            reading = MappedInput({**rest, "command": line}, {}, True)
            verdict, record = self._stricter(tool, reading, call_id, (verdict, record))
            if verdict.action == "deny":
                break
        return verdict, record

    def _unverifiable(self, tool: str, why: str, verdict: Verdict) -> Verdict:
        """Arguments the rules cannot account for (``arg_roles.unaccounted``): the call is
        unverifiable (``settings.unverifiable``: ask by default; deny stays deny)."""
        policy = self._policy().policy
        setting = str((policy or {}).get("settings", {}).get("unverifiable", "ask"))
        if setting not in ("ask", "deny"):
            return verdict
        action: Action = "deny" if setting == "deny" else "ask"
        reason = f"hookwise cannot verify this call of {tool!r}: {why}"
        return replace(verdict, action=action, reason=reason, rule_id=UNVERIFIABLE_ID, args=None)

    def _unmapped(self, tool: str, args: Mapping[str, Any], verdict: Verdict) -> Verdict:
        """A tool the name table does not map, taking something to run (``command``,
        ``code``...): no ``shell`` rule reads it, so no rule can say it is fine; it is
        unverifiable (``settings.unverifiable``, ask by default) unless a rule named it."""
        key = command_like(args)
        if key is None:
            return verdict
        policy = self._policy().policy
        setting = str((policy or {}).get("settings", {}).get("unverifiable", "ask"))
        if setting not in ("ask", "deny"):
            return verdict
        action: Action = "deny" if setting == "deny" else "ask"
        reason = (
            f"hookwise cannot verify this call: tool {tool!r} is not mapped to a canonical "
            f"tool, and its argument {key!r} looks like something it runs, which no shell "
            "rule reads; map it (tool_names={...: 'shell'}), name it in a rule, or set "
            "settings.unverifiable"
        )
        return replace(verdict, action=action, reason=reason, rule_id=UNVERIFIABLE_ID)

    @staticmethod
    def _back(
        mapped: MappedInput, original: Mapping[str, Any], rewritten: Mapping[str, Any]
    ) -> dict[str, Any]:
        """A rewrite in the framework's keys; a command that was a list stays a list."""
        return mapped.back(original, rewritten)

    def _after(
        self, tool: str, args: Mapping[str, Any], result: Any, call_id: str
    ) -> tuple[Verdict, dict[str, Any]]:
        if not isinstance(args, Mapping):
            args = {}
        mapped = canonical_input(self.canonical_tool(tool), args)
        response = jsonable(result)
        payload = self._payload(
            canonical.TOOL_AFTER, tool=tool, args=mapped.args, tool_response=response
        )
        if call_id:
            payload["tool_use_id"] = call_id
        names = [canonical.TOOL_AFTER]
        if isinstance(result, BaseException) or failed(response):
            names.append(canonical.TOOL_FAILURE)
        events = [self._event(n, payload, tool=tool, mapped=mapped) for n in names]
        return self._decide(events, tool_event=False)

    def _decide(self, events: list[Event], *, tool_event: bool) -> tuple[Verdict, dict[str, Any]]:
        started = time.perf_counter()
        loaded = self._policy()
        decision: Decision | None = None
        problem = loaded.error
        policy = loaded.policy
        if problem is None and policy is not None:
            problem = first_error(policy)
            if problem is None:
                try:
                    decision = evaluate(
                        policy, events, self.state, guard=loaded.guard(self.env, self.cwd)
                    )
                except Exception as exc:
                    problem = f"internal error: {type(exc).__name__}: {exc}"
        if problem is not None:
            decision = self._failure(problem, tool_event, policy)
        assert decision is not None
        record = self._record(events, decision, (time.perf_counter() - started) * 1000)
        if loaded.error is not None or (policy is not None and first_error(policy)):
            record["error"] = problem
        return self._verdict(decision, events), record

    def _failure(self, problem: str, tool_event: bool, policy: dict[str, Any] | None) -> Decision:
        settings = policy["settings"] if policy is not None else {}
        decision = Decision()
        decision.errors.append(problem)
        text = f"hookwise: {problem}"
        if on_error_verdict(tool_event, settings, self.env) == "deny":
            decision.decision = "deny"
            decision.rule = "hookwise:error"
            decision.reason = (
                f"{text} (hookwise fails closed: tool calls are blocked until it can decide)"
            )
        else:
            decision.messages.append(f"{text} (policy not applied)")
        return decision

    @staticmethod
    def _verdict(decision: Decision, events: list[Event]) -> Verdict:
        action: Action = "allow"
        reason = ""
        stopping = any(ev.name == canonical.AGENT_STOP for ev in events)
        if decision.decision in ("deny", "ask"):
            action = "deny" if decision.decision == "deny" else "ask"
            reason = decision.reason
        elif decision.retry is not None and stopping:
            action, reason = "deny", decision.retry
        elif decision.decision == "allow":
            reason = decision.reason
        stop = decision.stop
        gating = any(ev.name == canonical.TOOL_BEFORE for ev in events)
        if stop is not None and gating and action != "deny":
            # the run ends: the tool must not run first (as hookwise answers Claude Code)
            action, reason = "deny", stop
        rule = decision.rule or decision.allow_rule or (decision.retry_rule if stopping else None)
        return Verdict(
            action=action,
            reason=reason if action != "allow" else "",
            args=dict(decision.updated_input) if decision.updated_input is not None else None,
            context="\n\n".join(decision.contexts),
            stop=stop,
            rule_id=rule or decision.stop_rule or "",
            message="\n".join([*decision.messages, *decision.warnings]),
        )

    def _ask_fallback(self, rule_id: str) -> str:
        loaded = self._policy()
        policy = loaded.policy
        if policy is None:
            return "deny"
        if rule_id:
            for rule in policy["rules"]:
                if rule.get("id") == rule_id:
                    fallback = rule.get("ask_fallback")
                    if fallback in ("allow", "deny"):
                        return str(fallback)
                    break
        configured = policy["settings"].get("ask_fallback", "deny")
        return "allow" if configured == "allow" else "deny"

    # ------------------------------------------------------------------ the policy
    def _policy(self) -> _Policy:
        if self.recheck and self._loaded is not None:
            now = time.monotonic()
            if now - self._checked < self.recheck:
                return self._loaded
            self._checked = now
        found = scope_sources(self.cwd, self.env)
        trust = trust_store_path(self.env)
        signature = (
            tuple((path, _stat(path)) for _scope, path, _how in found),
            _stat(trust),
        )
        loaded = self._loaded
        if loaded is not None and loaded.signature == signature:
            return loaded
        gone = self._vanished or (vanished(loaded.signature[0], signature[0]) if loaded else None)
        if gone is not None:  # stays so: a deletion is no way to drop the rules (s27 F14)
            self._vanished = gone
            files = [(scope, path) for scope, path, _how in found]
            self._loaded = _Policy(signature, None, files, f"the policy file {gone} vanished "
                                   "after it was loaded; restart to run without it")  # fmt: skip
            return self._loaded
        with self._lock:
            loaded = self._loaded
            if loaded is not None and loaded.signature == signature:
                return loaded
            files = [(scope, path) for scope, path, _how in found]
            try:
                result = load_policy(self.cwd, self.env)
                loaded = _Policy(signature, result.policy, result.files, None)
            except OSError as exc:
                loaded = _Policy(signature, None, files, f"cannot read the policy: {exc}")
            self._loaded = loaded
            return loaded

    def _loaded_guard(self) -> Any:
        loaded = self._loaded
        return loaded.guard(self.env, self.cwd) if loaded is not None else None

    def mcp_server_literals(self) -> list[str]:
        """The MCP server names the policy's rules spell out whole (``mcp: {server:
        bücher.de}``; a glob with a wildcard is not one)."""
        policy = self._policy().policy or {}
        out: list[str] = []
        for rule in policy.get("rules") or ():
            spec = rule.get("m", {}).get("mcp") if isinstance(rule, dict) else None
            for glob in spec.get("server") or () if isinstance(spec, dict) else ():
                if isinstance(glob, str):
                    out.append(glob)
                elif len(glob) == 1 and len(glob[0]) == 1 and glob[0][0][0] == "L":
                    out.append(str(glob[0][0][1]))
        return list(dict.fromkeys(out))

    @property
    def policy_files(self) -> list[str]:
        """The policy files that apply to this agent (present or not), in scope order."""
        return [path for _scope, path in self._policy().files]

    # ------------------------------------------------------------------ existing hooks
    def _bridge(self) -> HookBridge:
        if self._hooks is None:
            from hookwise.integrations.hooks import HookBridge

            assert self.hooks_from is not None
            self._hooks = HookBridge(self, self.hooks_from)
        return self._hooks

    def _combine_before(
        self,
        verdict: Verdict,
        tool: str,
        args: Mapping[str, Any],
        hooked: Verdict,
        record: dict[str, Any],
    ) -> Verdict:
        """Policy, then hooks: the stricter wins; a hook's rewrite is checked by the policy
        again (a hook cannot smuggle a denied command past it)."""
        combined = self._combine(verdict, hooked, record)
        if hooked.args is not None and combined.action != "deny":
            again, _ = self._before(tool, hooked.args, "")
            if RANK[again.action] > RANK[combined.action]:
                combined = replace(
                    again, context=combined.context, message=combined.message, args=None
                )
                record["hooks"]["rewrite_checked"] = again.action
            else:
                combined = replace(combined, args=again.args or dict(hooked.args))
        return combined

    def _combine(self, verdict: Verdict, hooked: Verdict, record: dict[str, Any]) -> Verdict:
        record["hooks"] = {
            "host": self.hooks_from,
            "action": hooked.action,
            "reason": hooked.reason,
        }
        action = verdict.action
        reason, rule, args = verdict.reason, verdict.rule_id, verdict.args
        if RANK[hooked.action] > RANK[action]:
            action, reason, rule = hooked.action, hooked.reason, hooked.rule_id
            args = None if action == "deny" else args
        if hooked.args is not None and action != "deny":
            args = hooked.args
        context = "\n\n".join(c for c in (verdict.context, hooked.context) if c)
        message = "\n".join(m for m in (verdict.message, hooked.message) if m)
        return Verdict(
            action=action,
            reason=reason,
            args=args,
            context=context,
            stop=verdict.stop or hooked.stop,
            rule_id=rule,
            message=message,
        )

    # ------------------------------------------------------------------ audit
    def _record(
        self, events: list[Event], decision: Decision | None, latency_ms: float
    ) -> dict[str, Any]:
        outcome = Outcome()
        outcome.host = self.host
        outcome.host_event = events[0].host_event if events else None
        outcome.events = events
        outcome.decision = decision
        outcome.answer = Answer()
        loaded = self._loaded
        files = loaded.files if loaded is not None else []
        record = audit_record(
            outcome, now=time.time(), latency_ms=latency_ms, files=files, source="integration"
        )
        record.pop("exit_code", None)
        record["framework"] = self.framework
        record["agent"] = self.agent
        call_id = events[0].payload.get("tool_use_id") if events else None
        if call_id:
            record["call_id"] = call_id
        if loaded is not None and loaded.policy is not None and loaded.policy.get("untrusted"):
            record["untrusted"] = loaded.policy["untrusted"]
        return record

    def _write(self, record: dict[str, Any], verdict: Verdict) -> None:
        """Append the decision (as applied, hooks included) to the audit log."""
        loaded = self._loaded
        settings: dict[str, Any] = (
            loaded.policy["settings"] if loaded is not None and loaded.policy is not None else {}
        )
        if not settings.get("audit.enabled", True) or self.env.get("HOOKWISE_AUDIT") == "0":
            return
        if record.get("decision") != verdict.action and (
            verdict.action != "allow" or record.get("decision") not in ("none", None)
        ):
            record["policy_decision"] = record.get("decision")
            record["decision"] = verdict.action
            record["reason"] = verdict.reason
            if verdict.rule_id:
                record["rule"] = verdict.rule_id
        if verdict.args is not None:
            record["updated_input"] = jsonable(verdict.args)
        try:
            audit.append(
                audit.audit_path(settings, self.env),
                record,
                int(settings.get("audit.max_bytes", audit.DEFAULT_MAX_BYTES)),
                int(settings.get("audit.keep", audit.DEFAULT_KEEP)),
            )
        except (OSError, ValueError, TypeError) as exc:
            import sys

            sys.stderr.write(f"hookwise: cannot write the audit log: {exc}\n")


class Held:
    """The audit record of an ``ask`` kept back until the framework shows it is not an
    answer being resumed (see :meth:`Gate.before_tool_held`); written at most once."""

    __slots__ = ("_gate", "_record", "verdict")

    def __init__(self, gate: Gate, record: dict[str, Any] | None, verdict: Verdict) -> None:
        self._gate = gate
        self._record = record
        self.verdict = verdict

    def write(self) -> None:
        """Write the held record (nothing when it was written already or not held)."""
        record, self._record = self._record, None
        if record is not None:
            self._gate._write(record, self.verdict)
