"""The policy actions: one table that the loader, the schema, the compiler, the trust model
and the engine read. A new action is one entry here plus its effect in the engine's
``_EFFECTS`` and, where hosts must be told, its encoders in the adapters.

Fields of :class:`Action`:

- ``doc``: one line for the JSON Schema and ``policy schema``;
- ``events``: the canonical events where the action means something (a rule whose events
  allow none of them is an error);
- ``blocking``: it can stop something (``warn`` mode turns it into a warning; such a rule on
  every tool call is an error);
- ``restrictive``: an untrusted project file may use it (it only adds restrictions);
- ``approves``: it approves a call, so it must cover the whole call (approval_cover.limit_approval);
- ``needs``: the rule key it cannot do without;
- ``owns``: rule keys that mean something only with this action;
- ``pack``: rule packs may use it.

Standard library only (the engine reads it on the hot path).
"""

from __future__ import annotations

from hookwise.policy.canonical import (
    AGENT_START,
    AGENT_STOP,
    CANONICAL_EVENTS,
    COMPACTION,
    COMPACTION_AFTER,
    CONFIG_CHANGE,
    MCP_ELICITATION,
    MODEL_AFTER,
    MODEL_BEFORE,
    PERMISSION_REQUEST,
    PROMPT,
    SESSION_START,
    TOOL_AFTER,
    TOOL_BEFORE,
    TOOL_FAILURE,
)


class Action:
    __slots__ = (
        "approves",
        "blocking",
        "doc",
        "events",
        "name",
        "needs",
        "owns",
        "pack",
        "restrictive",
    )

    def __init__(
        self,
        name: str,
        doc: str,
        events: frozenset[str],
        *,
        blocking: bool = False,
        restrictive: bool = False,
        approves: bool = False,
        needs: str | None = None,
        owns: tuple[str, ...] = (),
        pack: bool = False,
    ) -> None:
        self.name = name
        self.doc = doc
        self.events = events
        self.blocking = blocking
        self.restrictive = restrictive
        self.approves = approves
        self.needs = needs
        self.owns = owns
        self.pack = pack


_DENYABLE = frozenset(
    [
        TOOL_BEFORE,
        TOOL_AFTER,
        TOOL_FAILURE,
        PERMISSION_REQUEST,
        PROMPT,
        MODEL_BEFORE,
        MODEL_AFTER,
        COMPACTION,
        CONFIG_CHANGE,
        MCP_ELICITATION,
    ]
)
_GATED = frozenset([TOOL_BEFORE, PERMISSION_REQUEST])

ACTIONS: dict[str, Action] = {
    a.name: a
    for a in (
        Action(
            "deny",
            "block the action; `reason` goes to the agent (the model)",
            _DENYABLE,
            blocking=True,
            restrictive=True,
            pack=True,
        ),
        Action(
            "ask",
            "ask the user to confirm (`reason` is shown), through settings.approvals when "
            "it is set; where the host cannot ask, `ask_fallback` decides",
            _GATED,
            blocking=True,
            restrictive=True,
            owns=("ask_fallback", "relay"),
            pack=True,
        ),
        Action(
            "allow",
            "approve explicitly (skips the host's confirmation where it has one)",
            _GATED,
            approves=True,
        ),
        Action(
            "rewrite",
            "change the tool's arguments (`rewrite`), approving the rewritten call",
            frozenset([TOOL_BEFORE]),
            blocking=True,
            approves=True,
            needs="rewrite",
            owns=("rewrite",),
        ),
        Action(
            "context",
            "add `context` for the model",
            frozenset(
                [
                    TOOL_BEFORE,
                    TOOL_AFTER,
                    TOOL_FAILURE,
                    PROMPT,
                    AGENT_START,
                    AGENT_STOP,
                    SESSION_START,
                ]
            ),
            restrictive=True,
            needs="context",
        ),
        Action(
            "message",
            "show `message` to the user",
            frozenset(CANONICAL_EVENTS),
            restrictive=True,
            needs="message",
        ),
        Action(
            "stop",
            "stop the agent (`reason` is shown to the user)",
            frozenset(
                [
                    TOOL_BEFORE,
                    TOOL_AFTER,
                    TOOL_FAILURE,
                    PROMPT,
                    AGENT_START,
                    AGENT_STOP,
                    MODEL_BEFORE,
                    MODEL_AFTER,
                    SESSION_START,
                    COMPACTION,
                    COMPACTION_AFTER,
                ]
            ),
            blocking=True,
            restrictive=True,
        ),
        Action(
            "validate",
            "run `validator`; a failing validator denies with its output as reason",
            _DENYABLE,
            blocking=True,
            needs="validator",
            owns=("validator",),
        ),
        Action(
            "retry",
            "on agent.stop: send the agent back with `reason` as its next prompt",
            frozenset([AGENT_STOP]),
            blocking=True,
            needs="reason",
            owns=("max_retries",),
        ),
    )
}

NAMES: tuple[str, ...] = tuple(ACTIONS)
BLOCKING = frozenset(n for n, a in ACTIONS.items() if a.blocking)
RESTRICTIVE = frozenset(n for n, a in ACTIONS.items() if a.restrictive)
APPROVING = frozenset(n for n, a in ACTIONS.items() if a.approves)
PACK = frozenset(n for n, a in ACTIONS.items() if a.pack)
EVENTS: dict[str, frozenset[str]] = {n: a.events for n, a in ACTIONS.items()}
DOCS: dict[str, str] = {n: a.doc for n, a in ACTIONS.items()}
