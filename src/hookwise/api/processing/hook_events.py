"""Every ``hookEvent`` name the service accepts, and which host dialect reads it.

The contract names four events; the service also takes every event in hookwise's tables
so that one endpoint serves Claude Code, Codex and Gemini CLI hooks. A name both Claude
Code and another host use (SessionStart, Notification, ...) is read the Claude way: the
contract was written for a Claude-like agent. Codex names that Claude Code lacks go to
Codex; the rest of Gemini CLI's names go to Gemini. The order of ``ACCEPTED_EVENTS`` is the
order error messages and the OpenAPI enum list them in.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from hookwise.protocol.claude import CLAUDE
from hookwise.protocol.codex import CODEX
from hookwise.protocol.dialect import DialectEvent, Exit2
from hookwise.protocol.gemini import EVENTS as GEMINI_EVENTS
from hookwise.protocol.gemini import EventSpec
from hookwise.protocol.hosts import Host

Dialect = Host

CONTRACT_EVENTS: Final = ("PreToolUse", "PostToolUse", "UserPromptSubmit", "Stop")


@dataclass(frozen=True, slots=True)
class HookEvent:
    """One accepted name: the dialect that reads it and that dialect's event table row."""

    name: str
    dialect: Dialect
    spec: DialectEvent | EventSpec
    blocking: bool  # exit 2 keeps the guarded action from happening


class UnknownHookEventError(ValueError):
    """A ``hookEvent`` no table knows; the message lists the accepted names."""

    def __init__(self, name: object) -> None:
        self.name = name
        super().__init__(
            f"unknown hook event {name!r}; expected one of: {', '.join(ACCEPTED_EVENTS)}"
        )


def _blocking(spec: DialectEvent | EventSpec) -> bool:
    if isinstance(spec, DialectEvent):
        return spec.exit2 in (Exit2.BLOCK, Exit2.CONTINUE)
    return spec.flow_control


def _build() -> dict[str, HookEvent]:
    table: dict[str, HookEvent] = {}
    for spec in CLAUDE.events.values():
        table[spec.name] = HookEvent(spec.name, "claude", spec, _blocking(spec))
    for spec in CODEX.events.values():
        table.setdefault(spec.name, HookEvent(spec.name, "codex", spec, _blocking(spec)))
    for name, gemini in GEMINI_EVENTS.items():
        table.setdefault(name, HookEvent(name, "gemini", gemini, _blocking(gemini)))
    ordered = {name: table[name] for name in CONTRACT_EVENTS}
    ordered.update(table)
    return ordered


HOOK_EVENTS: Final[dict[str, HookEvent]] = _build()
ACCEPTED_EVENTS: Final[tuple[str, ...]] = tuple(HOOK_EVENTS)


def hook_event(name: object) -> HookEvent:
    """The accepted event called ``name``, or UnknownHookEventError."""
    found = HOOK_EVENTS.get(name) if isinstance(name, str) else None
    if found is None:
        raise UnknownHookEventError(name)
    return found


def dialect_event(name: object) -> tuple[Dialect, DialectEvent | EventSpec]:
    """(dialect, event table row) for ``name``: claude, codex or gemini."""
    found = hook_event(name)
    return found.dialect, found.spec


def is_blocking(name: object) -> bool:
    """Does exit 2 on this event keep the action from happening (its table says so)?"""
    return hook_event(name).blocking
