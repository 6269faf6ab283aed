"""``hookwise install --native`` / ``uninstall --native``: the policy's exported rules
(``policy/export/``) kept in each host's own permission system, and taken out again.

Where they go is the exporter's fact: a file hookwise owns whole, marked by the export's
header line (Gemini CLI, Codex: ``FILES``), or entries in the settings file install
registers hooks in (Claude Code: ``permissions.deny`` / ``ask``, edited by
``native_permissions``). What was written is recorded beside it (``native_record``): install
again rewrites only what changed (an unchanged policy changes no byte), uninstall gives
the exact bytes back when nobody edited the file since, and otherwise removes only
hookwise's entries and says which. At user scope only managed and user rules are exported:
entries there hold in every project.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hookwise.config.host_homes import config_dir
from hookwise.config.jsonc import parse_json_text, parse_jsonc
from hookwise.policy.export.build import EXPORTERS, export_policy
from hookwise.policy.export.model import Export, header
from hookwise.policy.install.errors import InstallError
from hookwise.policy.install.native_permissions import edit_permissions
from hookwise.policy.install.native_record import (
    DECISIONS,
    MAX_NATIVE_BYTES,
    Record,
    digest,
    read_record,
    record_change,
    regular_text,
)
from hookwise.policy.install.plan import FileChange
from hookwise.policy.install.targets import settings_path
from hookwise.protocol.hosts import HOST_TITLES
from hookwise.protocol.hosts import host as host_info

USER_SCOPES = frozenset(("managed", "user"))
# how an entry of a whole native file begins, after its ``# <rule id>`` line (render())
ENTRY_STARTS = ("[[rule]]", "prefix_rule(")
EDITED_SUFFIX = ".hookwise-edited"
"""A hand-edited native file moved aside keeps its text under this name (no host loads it)."""


@dataclass
class NativePlan:
    host: str
    scope: str
    target: Path
    export: Export | None
    changes: list[FileChange] = field(default_factory=list)
    added: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    restored: bool = False
    """Uninstall gave back the file's bytes from before install."""

    @property
    def changed(self) -> bool:
        return any(change.changed for change in self.changes)


# the hosts whose own rules live in a file install --native can keep them in (an
# exporter's FILES is None where the host reads them from its command line only)
NATIVE_HOSTS = tuple(h for h, e in EXPORTERS.items() if e.FILES is not None)


def native_target(host: str, scope: str, project: Path, env: Mapping[str, str]) -> Path:
    """Where ``host``'s native rules live at ``scope``; InstallError where it has none."""
    exporter = EXPORTERS[host]
    if exporter.FILES is None:
        raise InstallError(
            f"{HOST_TITLES[host]} reads its tool permissions from its command line only, so "
            f"there is no file to keep them in: start it with the arguments `hookwise policy "
            f"export --host {host}` prints (nothing written)"
        )
    if not exporter.FILES:
        return settings_path(host, scope, project, env)
    relative: str | None = exporter.FILES.get(scope)
    if relative is None:
        where = ", ".join(exporter.FILES)
        raise InstallError(
            f"{HOST_TITLES[host]}: hookwise writes its native rules at scope {where} only "
            f"(docs/policy-export.md says why); nothing written"
        )
    base = Path(os.path.abspath(project)) if scope == "project" else config_dir(host, env)
    return base / relative


def export_for(host: str, scope: str, compiled: Mapping[str, Any]) -> Export:
    """The export install --native writes at ``scope`` (user: managed and user rules only)."""
    return export_policy(dict(compiled), host, USER_SCOPES if scope == "user" else None)


def plan_native(
    host: str,
    scope: str,
    project: Path,
    env: Mapping[str, str],
    compiled: Mapping[str, Any] | None,
) -> NativePlan:
    """Install (``compiled`` given: that policy's export) or uninstall (None) the native rules
    of ``host`` at ``scope``; nothing is written."""
    if host not in EXPORTERS:
        raise InstallError(f"{HOST_TITLES.get(host, host)}: no exporter of native rules")
    target = native_target(host, scope, project, env)
    export = None if compiled is None else export_for(host, scope, compiled)
    plan = NativePlan(host, scope, target, export)
    record = read_record(target, host)
    text = regular_text(target, MAX_NATIVE_BYTES, "native rules")
    if EXPORTERS[host].FILES:  # a file of hookwise's own (else entries in the settings)
        _plan_whole(plan, text, record)
    else:
        _plan_entries(plan, text, record)
    mcp_file = getattr(EXPORTERS[host], "MCP_FILE", None)
    if mcp_file is not None and scope == "user":  # MCP tools switched off in server entries
        from hookwise.policy.install.codex_mcp_native import plan_codex_mcp

        natives = None if export is None else export.natives
        changes, added, notes = plan_codex_mcp(config_dir(host, env) / mcp_file, natives, project)
        plan.changes += changes
        plan.added += added
        plan.notes += notes
    return plan


def _missing_dirs(path: Path) -> list[str]:
    """The directories writing ``path`` will create, innermost first."""
    out: list[str] = []
    parent = path.parent
    while not parent.exists():
        out.append(str(parent))
        parent = parent.parent
    return out


def _plan_entries(plan: NativePlan, text: str | None, record: Record | None) -> None:
    """Claude Code, Qwen Code: hookwise's strings in ``permissions.deny`` / ``ask``."""
    target, origin = plan.target, str(plan.target)
    jsonc = host_info(plan.host).jsonc
    ours = record.entries if record is not None else {}
    made = record.made if record is not None else []
    untouched = record is not None and text is not None and digest(text) == record.written
    if plan.export is None:  # uninstall
        if record is None:
            return
        root = _made_root(record, target)
        # the recorded entries taken out; the record's ``before`` is written only when it
        # says the same as that (a planted record cannot put other settings in the file)
        edit = edit_permissions(text, origin, {}, ours, made, jsonc=jsonc)
        plan.removed = edit.removed
        after = edit.after
        if untouched and _same_value(after, record.before, jsonc):
            plan.restored, after = True, record.before
        change = FileChange(target, text, after)
        if record.before is None and (after is None or _empty(after)):  # install made it
            change.after, change.deleted, change.root = "", True, root
        plan.changes.append(change)
        if text is not None and not plan.restored:
            plan.notes.append(
                f"{target} changed since install --native wrote it: only hookwise's "
                f"entries were taken out ({', '.join(edit.removed) or 'none left'})"
                + (f"; already gone: {', '.join(edit.gone)}" if edit.gone else "")
            )
        plan.changes.append(record_change(target, record, None, root))
        return
    desired = {d: [n.entry for n in plan.export.natives if n.decision == d] for d in DECISIONS}
    edit = edit_permissions(text, origin, desired, ours, made, jsonc=jsonc)
    plan.added, plan.removed = edit.added, edit.removed
    if edit.gone:
        plan.notes.append(
            f"{target}: hookwise's {', '.join(edit.gone)} had been removed by hand; written again"
        )
    if edit.shared:
        plan.notes.append(
            f"{target}: {', '.join(edit.shared)} already there (the user's own entries: "
            "uninstall leaves them)"
        )
    if record is None:
        before = text
    elif untouched:
        before = record.before
    else:  # edited since: what uninstall gives back is this text without hookwise's entries
        before = edit_permissions(text, origin, {}, ours, made, jsonc=jsonc).after
        if _empty(before) and record.before is None:
            before = None
    after = edit.after if edit.after is not None else ""
    plan.changes.append(FileChange(target, text, edit.after))
    new = Record(plan.host, str(target), digest(after), before, edit.ours, edit.made)
    if record is None and text is None:
        new.made += _missing_dirs(target)
    elif record is not None:
        new.made += [m for m in record.made if m.startswith("/") and m not in new.made]
    plan.changes.append(record_change(target, record, new))


def _plan_whole(plan: NativePlan, text: str | None, record: Record | None) -> None:
    """Gemini CLI, Codex: a file hookwise owns whole, its first line the export's header."""
    target = plan.target
    mark = header(plan.host, "#")
    if text is not None and not text.startswith(mark):
        if plan.export is None:
            plan.notes.append(f"{target} is not hookwise's (no header line): left as it is")
            if record is not None:
                plan.changes.append(record_change(target, record, None))
            return
        raise InstallError(
            f"{target}: not written by hookwise (its first line is not hookwise's header "
            f"{mark.strip()!r}); move it aside first (nothing written)"
        )
    edited = text is not None and (record is None or digest(text) != record.written)
    if edited and (plan.export is None or text != plan.export.content):
        aside = target.with_name(target.name + EDITED_SUFFIX)
        plan.changes.append(
            FileChange(aside, regular_text(aside, MAX_NATIVE_BYTES, "a copy"), text)
        )
        plan.notes.append(
            f"{target} was edited by hand since install --native wrote it: kept as {aside} "
            f"(which {HOST_TITLES[plan.host]} does not load)"
        )
    dirs = record.made if record is not None else _missing_dirs(target)
    if plan.export is None:
        root = _made_root(record, target)
        if text is not None:
            plan.restored = not edited
            plan.removed = rules_of(text)
            plan.changes.append(FileChange(target, text, "", deleted=True, root=root))
        if record is not None:
            plan.changes.append(record_change(target, record, None, root))
        return
    content = plan.export.content
    plan.changes.append(FileChange(target, text, content))
    old = set(rules_of(text or ""))
    new_entries = rules_of(content)
    plan.added = [e for e in new_entries if e not in old]
    plan.removed = [e for e in old if e not in set(new_entries)]
    new = Record(plan.host, str(target), digest(content), None, {}, dirs)
    plan.changes.append(record_change(target, record, new))


def _made_root(record: Record | None, target: Path) -> Path:
    """Below what install's directories go when uninstall leaves them empty: only the
    target's own parents count (a record naming others is not believed)."""
    made = record.made if record is not None else []
    dirs = [Path(m) for m in made if m.startswith("/") and target.is_relative_to(m)]
    return min(dirs, key=lambda d: len(d.parts)).parent if dirs else target.parent


def _same_value(text: str | None, other: str | None, jsonc: bool) -> bool:
    """Whether two settings texts say the same (None: no file, or an empty one)."""
    if other is None:
        return text is None or _empty(text)
    if text is None:
        return False
    parse = parse_jsonc if jsonc else parse_json_text
    try:
        (a, bad_a), (b, bad_b) = parse(text), parse(other)
    except (RecursionError, ValueError):
        return False
    return bad_a is None and bad_b is None and a == b


def _empty(text: str | None) -> bool:
    """A settings text that holds nothing: blank, or an empty object."""
    if text is None:
        return False
    value, problem = parse_jsonc(text) if text.strip() else ({}, None)
    return problem is None and value == {}


def rules_of(text: str) -> list[str]:
    """The rules of a whole native file (the ``# <rule id>`` line before each entry)."""
    lines = text.splitlines()[1:]
    return list(
        dict.fromkeys(
            line[2:]
            for i, line in enumerate(lines[:-1])
            if line.startswith("# ") and lines[i + 1].startswith(ENTRY_STARTS)
        )
    )


__all__ = [
    "EDITED_SUFFIX",
    "NATIVE_HOSTS",
    "NativePlan",
    "export_for",
    "native_target",
    "plan_native",
    "rules_of",
]
