"""Why a loaded handler will not do its job, known before any event fires.

A hook that "never fires" is most often one the host refuses to run as written: an http
hook whose URL no ``allowedHttpHookUrls`` pattern allows (never sent), an mcp_tool hook
naming a server the session does not connect (fails, and the tool runs). ``hooks list``
and ``doctor`` show these beside the hook, read with the runtime's own rules (the same
functions the handlers run), so what they say is what ``fire`` and the host do.
"""

from __future__ import annotations

from dataclasses import dataclass

from hookwise.config.claude.http_limits import HttpHookLimits
from hookwise.config.dialect_hooks import DialectHooks
from hookwise.config.mcp_servers import McpServers
from hookwise.config.model import HookEntry
from hookwise.host.dialect_runtime import DialectRuntime
from hookwise.host.handlers.http import normalize_url, url_allowed
from hookwise.host.handlers.model import NO_MODEL
from hookwise.host.runtime import LoadOptions


@dataclass(frozen=True)
class HandlerNote:
    """One handler's note: ``status`` "warn" (it will not run as written) or "info"."""

    origin: str
    event: str
    kind: str
    status: str
    text: str


def handler_notes(
    runtime: DialectRuntime, workspace: str, options: LoadOptions, loaded: DialectHooks
) -> list[HandlerNote]:
    """A note for every handler of ``loaded`` that is not a command the host just runs."""
    mcp = runtime.mcp_loader(workspace, options, loaded) if runtime.mcp_loader else None
    limits = runtime.http_limits(loaded) if runtime.http_limits else None
    notes = []
    for entry in loaded.registry.entries:
        found = _note(entry, mcp, limits)
        if found is not None:
            kind = str(entry.config.get("type"))
            notes.append(HandlerNote(entry.origin, entry.event, kind, *found))
    return notes


def _note(
    entry: HookEntry, mcp: McpServers | None, limits: HttpHookLimits | None
) -> tuple[str, str] | None:
    kind = entry.config.get("type")
    if kind == "http":
        return _http(entry, limits)
    if kind == "mcp_tool":
        server = entry.config.get("server")
        if not isinstance(server, str) or not isinstance(entry.config.get("tool"), str):
            return "warn", "fails: an mcp_tool hook needs 'server' and 'tool' (the tool runs)"
        if mcp is not None and server not in mcp.servers:
            why = mcp.unavailable.get(server, "no such server is configured")
            return "warn", f"fails: MCP server {server!r} is not connected ({why}); the tool runs"
        return None
    if kind in ("prompt", "agent"):
        return (
            "info",
            f"the host asks its own model; in hookwise's runtime {NO_MODEL.format(kind=kind)}",
        )
    return None


def _http(entry: HookEntry, limits: HttpHookLimits | None) -> tuple[str, str] | None:
    url = entry.config.get("url")
    if not isinstance(url, str) or not url.startswith(("http://", "https://")):
        return "warn", "never sent: its url must start with http:// or https:// (the tool runs)"
    normal = normalize_url(url)
    if normal is None:
        return "warn", (
            "never sent: a backslash, a space or a control character in its url, or no host "
            "(the tool runs)"
        )
    allowed = limits.for_scope(entry.scope)[0] if limits is not None else None
    if allowed is not None and not any(url_allowed(normal, p) for p in allowed):
        listed = ", ".join(allowed) or "an empty list"
        return "warn", (
            f"never sent: no allowedHttpHookUrls pattern ({listed}) allows {normal} "
            "(a non-blocking error; the tool runs)"
        )
    return None
