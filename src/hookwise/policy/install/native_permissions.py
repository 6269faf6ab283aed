"""hookwise's entries in a settings file's ``permissions.deny`` / ``permissions.ask`` (Claude
Code; Qwen Code, whose settings are JSONC), edited as text (the span-preserving editor of
``config/jsonc.py``): every other byte, comments included, stays.

Which strings are hookwise's is not in the file (a user may have written the same one):
the caller passes the recorded ones (``ours``), and gets back the new set. An entry
the user already has is not added again and never becomes hookwise's, so uninstall
cannot take it away. Pure: text in, text out.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from hookwise.config.dialect_hooks import json_type
from hookwise.config.jsonc import JsonDocument, JsonEditError, JsonNode
from hookwise.policy.install.errors import InstallError
from hookwise.policy.install.native_record import DECISIONS

PERMISSIONS = "permissions"


@dataclass
class PermissionsEdit:
    before: str | None
    after: str | None
    ours: dict[str, list[str]] = field(default_factory=dict)
    """decision -> hookwise's entries in ``after``."""
    made: list[str] = field(default_factory=list)
    added: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    gone: list[str] = field(default_factory=list)
    """Recorded as hookwise's but no longer in the file (someone removed them)."""
    shared: list[str] = field(default_factory=list)
    """Wanted, and already the user's own entry: left to the user."""


def _object(doc: JsonDocument) -> JsonNode | None:
    found = doc.root.member(PERMISSIONS)
    if found is None:
        return None
    if found[1].kind != "object":
        raise InstallError(
            f'{doc.where(found[1])}: field "permissions": expected an object (deny, ask, '
            f"allow lists), got {json_type(doc.value_of(found[1]))}; fix it first "
            "(nothing written)"
        )
    return found[1]


def _list(doc: JsonDocument, decision: str) -> JsonNode | None:
    permissions = _object(doc)
    found = None if permissions is None else permissions.member(decision)
    if found is None:
        return None
    if found[1].kind != "array":
        raise InstallError(
            f'{doc.where(found[1])}: field "permissions.{decision}": expected an array of '
            f"rule strings, got {json_type(doc.value_of(found[1]))}; fix it first "
            "(nothing written)"
        )
    return found[1]


def _values(doc: JsonDocument, decision: str) -> list[Any]:
    node = _list(doc, decision)
    return [] if node is None else [doc.value_of(child) for child in node.children]


def current_entries(text: str, origin: str, jsonc: bool = False) -> dict[str, list[str]]:
    """The string entries of ``permissions.deny`` / ``ask`` (InstallError when malformed)."""
    doc = _document(text, origin, jsonc)
    return {d: [v for v in _values(doc, d) if isinstance(v, str)] for d in DECISIONS}


def _document(text: str, origin: str, jsonc: bool) -> JsonDocument:
    try:
        return JsonDocument(text, origin, jsonc=jsonc)
    except JsonEditError as exc:
        raise InstallError(str(exc)) from None


def edit_permissions(
    text: str | None,
    origin: str,
    desired: dict[str, list[str]],
    ours: dict[str, list[str]],
    made: list[str],
    *,
    jsonc: bool = False,
) -> PermissionsEdit:
    """Make hookwise's entries exactly ``desired`` (uninstall: empty), given the recorded
    ``ours`` and the containers install ``made``; what uninstall made and left empty goes."""
    try:
        return _edit(text, origin, desired, ours, made, jsonc=jsonc)
    except JsonEditError as exc:
        raise InstallError(str(exc)) from None


def _edit(
    text: str | None,
    origin: str,
    desired: dict[str, list[str]],
    ours: dict[str, list[str]],
    made: list[str],
    *,
    jsonc: bool,
) -> PermissionsEdit:
    wanted = {d: list(dict.fromkeys(desired.get(d, []))) for d in DECISIONS}
    if text is None or not text.strip():
        if not any(wanted.values()):
            return PermissionsEdit(text, text)
        body = {d: v for d, v in wanted.items() if v}
        created = json.dumps({PERMISSIONS: body}, indent=2, ensure_ascii=False) + "\n"
        return PermissionsEdit(
            text,
            created,
            ours={d: list(v) for d, v in wanted.items()},
            made=[PERMISSIONS, *(f"{PERMISSIONS}.{d}" for d in body)],
            added=[e for v in wanted.values() for e in v],
        )
    doc = _document(text, origin, jsonc)
    out = PermissionsEdit(text, None, made=list(made))
    for decision in DECISIONS:
        _list(doc, decision)  # a wrong type is refused before anything changes
    for decision in DECISIONS:
        mine = list(dict.fromkeys(ours.get(decision, [])))
        present = _values(doc, decision)
        kept: list[str] = []
        for entry in mine:
            if entry not in present:
                out.gone.append(entry)
            elif entry in wanted[decision]:
                kept.append(entry)
            else:  # ours, no longer wanted: the last copy goes (the user's twin stays)
                node = _list(doc, decision)
                assert node is not None
                index = len(present) - 1 - present[::-1].index(entry)
                doc.remove(node, index)
                present = _values(doc, decision)
                out.removed.append(entry)
        for entry in wanted[decision]:
            if entry in kept:
                continue
            if entry in present:
                out.shared.append(entry)
                continue
            _append(doc, decision, entry, out.made)
            kept.append(entry)
            out.added.append(entry)
        out.ours[decision] = kept
    _drop_empty(doc, out.made)
    out.after = doc.rendered()
    return out


def _append(doc: JsonDocument, decision: str, entry: str, made: list[str]) -> None:
    permissions = _object(doc)
    if permissions is None:
        doc.append(doc.root, {decision: [entry]}, key=PERMISSIONS)
        made += [PERMISSIONS, f"{PERMISSIONS}.{decision}"]
        return
    node = _list(doc, decision)
    if node is None:
        doc.append(permissions, [entry], key=decision)
        made.append(f"{PERMISSIONS}.{decision}")
        return
    doc.append(node, entry)


def _drop_empty(doc: JsonDocument, made: list[str]) -> None:
    """Containers install made, now empty, go (and leave ``made``)."""
    for decision in DECISIONS:
        name = f"{PERMISSIONS}.{decision}"
        node = _list(doc, decision)
        permissions = _object(doc)
        if name in made and node is not None and not node.children and permissions is not None:
            member = permissions.member(decision)
            assert member is not None
            doc.remove(permissions, member[0])
            made.remove(name)
        elif name in made and node is None:
            made.remove(name)
    permissions = _object(doc)
    if PERMISSIONS in made and permissions is not None and not permissions.children:
        member = doc.root.member(PERMISSIONS)
        assert member is not None
        doc.remove(doc.root, member[0])
        made.remove(PERMISSIONS)
    elif PERMISSIONS in made and permissions is None:
        made.remove(PERMISSIONS)


__all__ = ["PermissionsEdit", "current_entries", "edit_permissions"]
