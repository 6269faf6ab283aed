"""``install --native`` for Codex's MCP tools: the export's ``disabled_tools`` entries
(``export.codex``) put into the server entries of ``config.toml``, and taken out again.

Only a server the file has gets one: ``[mcp_servers.NAME]`` with nothing but
``disabled_tools`` is an entry without a transport, and Codex would refuse the whole file.
The tool names are added to the server's ``disabled_tools`` (the list created next to the
server's ``command`` in the entry's own form, dotted keys and inline tables included:
``config.toml_spans``), and every edit is parsed back: it must change exactly those lists.
What hookwise added is recorded beside the file (``native_record``); uninstall removes
those names (a name the user had already is the user's), and gives the bytes from before
back when the file is as install left it.
"""

from __future__ import annotations

import contextlib
import json
import tomllib
from pathlib import Path
from typing import Any

from hookwise.config.codex.mcp_layers import mcp_layers, unheld
from hookwise.config.toml_spans import TomlSpans, pair_span, sibling_after
from hookwise.policy.export.codex import MCP_ENTRY, mcp_entry
from hookwise.policy.export.model import Native
from hookwise.policy.install.errors import InstallError
from hookwise.policy.install.native_record import (
    MAX_NATIVE_BYTES,
    Record,
    digest,
    read_record,
    record_change,
    regular_text,
)
from hookwise.policy.install.plan import FileChange

HOST = "codex"


def _servers(text: str, origin: Path) -> dict[str, Any]:
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise InstallError(
            f"{origin}: not valid TOML ({exc}); fix it first (nothing written)"
        ) from None
    servers = doc.get("mcp_servers", {})
    return servers if isinstance(servers, dict) else {}


def _split(entries: list[str]) -> dict[str, list[str]]:
    wanted: dict[str, list[str]] = {}
    for entry in entries:
        found = MCP_ENTRY.match(entry)
        if found:
            wanted.setdefault(found.group(1), []).append(found.group(2))
    return wanted


def _set_list(text: str, origin: Path, server: str, names: list[str]) -> str:
    """``text`` with the server's ``disabled_tools`` made ``names`` (an empty list removes
    the key, when it was hookwise's alone)."""
    spans = TomlSpans(text)
    pair = spans.value(("mcp_servers", server, "disabled_tools"))
    value = json.dumps(names, ensure_ascii=False)
    if pair is not None:
        if not names:
            start, end = pair_span(text, pair)
            return text[:start] + text[end:]
        return text[: pair.value_start] + value + text[pair.value_end :]
    command = spans.value(("mcp_servers", server, "command"))
    if command is None:
        raise InstallError(
            f"{origin}: the entry of MCP server {server!r} could not be located in the text "
            "(nothing written): add its disabled_tools by hand"
        )
    (start, end), new = sibling_after(text, command, "disabled_tools", value)
    return text[:start] + new + text[end:]


def _check(before: str, after: str, origin: Path, lists: dict[str, list[str]]) -> None:
    """The edit, parsed back, changed exactly the servers' ``disabled_tools``."""
    old, new = tomllib.loads(before), None
    with contextlib.suppress(tomllib.TOMLDecodeError):
        new = tomllib.loads(after)

    def without(doc: dict[str, Any]) -> dict[str, Any]:
        servers = {
            name: {k: v for k, v in entry.items() if k != "disabled_tools"}
            if name in lists and isinstance(entry, dict) else entry
            for name, entry in doc.get("mcp_servers", {}).items()
        }  # fmt: skip
        return {**doc, "mcp_servers": servers}

    ok = new is not None and without(old) == without(new)
    for name, names in lists.items():
        got = (new or {}).get("mcp_servers", {}).get(name, {}).get("disabled_tools", [])
        ok = ok and got == names
    if not ok:
        raise InstallError(
            f"{origin}: cannot edit disabled_tools safely (an entry written in a form "
            "hookwise does not edit by text); nothing written: add them by hand"
        )


def _same(before: str | None, after: str) -> bool:
    """Whether the recorded text says what the file says now (a record is a file the
    user's account can write: its text is written back only when it changes nothing)."""
    if before is None:
        return False
    try:
        return tomllib.loads(before) == tomllib.loads(after)
    except tomllib.TOMLDecodeError:
        return False


def plan_codex_mcp(
    config: Path, natives: list[Native] | None, project: Path | None = None
) -> tuple[list[FileChange], list[str], list[str]]:
    """Install (``natives``: the export's) or uninstall (None): the changes to
    ``config.toml`` and its record, the entries written and the notes (among them what a
    profile or ``project``'s layer keeps from holding: install writes the user's file only)."""
    record = read_record(config, HOST)
    ours = list(record.entries.get("deny", [])) if record is not None else []
    wanted = [] if natives is None else [n.entry for n in natives if MCP_ENTRY.match(n.entry)]
    if not wanted and record is None:  # nothing of hookwise's there: the file is not read
        return [], [], []
    text = regular_text(config, MAX_NATIVE_BYTES, "MCP settings")
    if text is None:
        missing = [f"{config}: no such file; no MCP server to switch tools off in"]
        change = [record_change(config, record, None)] if record is not None else []
        return change, [], missing if wanted else []
    servers = _servers(text, config)
    notes = _unholdable(config, natives, project)
    lists: dict[str, list[str]] = {}
    mine: list[str] = []
    for server in sorted(set(_split(ours)) | set(_split(wanted))):
        entry = servers.get(server)
        if not isinstance(entry, dict) or not isinstance(entry.get("command"), str):
            if server in _split(wanted):
                notes.append(
                    f"{config}: no stdio MCP server {server!r} here: its disabled_tools "
                    "entries are not written (they would make an entry Codex refuses)"
                )
            continue
        have = entry.get("disabled_tools", [])
        have = [h for h in have if isinstance(h, str)] if isinstance(have, list) else []
        old_ours = _split(ours).get(server, [])
        user = [h for h in have if h not in old_ours]  # the user's own names stay
        add = [t for t in _split(wanted).get(server, []) if t not in user]
        new = user + [t for t in add if t not in user]
        mine += [mcp_entry(server, t) for t in add]
        if new != have:
            lists[server] = new
    after = text
    for server, names in lists.items():
        after = _set_list(after, config, server, names)
    if lists:
        _check(text, after, config, {s: n for s, n in lists.items()})
    untouched = record is not None and digest(text) == record.written
    if natives is None or not mine:
        if record is not None and untouched and _same(record.before, after):
            after = record.before or after  # the exact bytes, as they were
        dropped = record_change(config, record, None) if record is not None else None
        changes = [FileChange(config, text, after)]
        return changes + ([dropped] if dropped else []), [], notes
    before = text if record is None else (record.before if untouched else None)
    new_record = Record(HOST, str(config), digest(after), before, {"deny": mine}, [])
    return (
        [FileChange(config, text, after), record_change(config, record, new_record)],
        mine,
        notes,
    )


def _unholdable(config: Path, natives: list[Native] | None, project: Path | None) -> list[str]:
    """What no edit of ``config`` makes Codex hold: a profile or project layer's list."""
    if not natives:
        return []
    return [
        f"{entry}: cannot be held: {detail}"
        for entry, why in gaps(config, natives, project).items()
        for kind, detail in why
        if kind in ("profile", "project")
    ]


def gaps(
    config: Path, natives: list[Native], project: Path | None
) -> dict[str, list[tuple[str, str]]]:
    """The export's MCP entries Codex does not hold in every way it may run, each with why
    (``config.codex.mcp_layers.unheld``: the user's file, a profile, a project layer)."""
    layers = mcp_layers(config.parent, project)
    out: dict[str, list[tuple[str, str]]] = {}
    for native in natives:
        match = MCP_ENTRY.match(native.entry)
        if match:
            why = unheld(match.group(1), match.group(2), layers)
            if why:
                out[native.entry] = why
    return out


def present(config: Path, natives: list[Native], project: Path | None) -> set[str]:
    """The export's MCP entries Codex holds now, merged over its layers as it merges them
    (doctor: what Codex enforces, red team s27 F4)."""
    missing = gaps(config, natives, project)
    return {n.entry for n in natives if MCP_ENTRY.match(n.entry) and n.entry not in missing}
