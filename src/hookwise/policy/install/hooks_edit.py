"""hookwise's entries in a host's ``hooks`` object, edited as text.

Only hookwise's own handlers (recognised by their command, ``is_hookwise_command``) are added
or removed; every other byte stays where it was, comments of Gemini's JSONC included.
Installing twice changes nothing; removing after adding gives back the original bytes (except
that an empty ``hooks`` object or event list that existed before is removed with hookwise's
last entry: the file cannot say whether it was there first). :func:`edit_hooks` is pure (text
in, text out); a text it cannot edit in place is an InstallError and nothing is written.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from hookwise.config.dialect_hooks import json_type
from hookwise.config.hookwise_command import is_hookwise_command
from hookwise.config.jsonc import JsonDocument, JsonEditError, JsonNode
from hookwise.policy.install.errors import InstallError
from hookwise.policy.install.registrations import Registration


@dataclass(frozen=True)
class FoundHook:
    """A hookwise handler in a settings file (indexes as written)."""

    event: str
    group: int
    handler: int
    matcher: Any
    config: dict[str, Any]
    alone: bool
    """The only handler of its group (its group is hookwise's own)."""
    group_config: dict[str, Any]


def _hooks_node(doc: JsonDocument, top: bool = False) -> JsonNode | None:
    """The object holding the events: ``hooks``, or with ``top`` the file itself (Factory
    Droid's hooks.json keeps its event keys at the top level)."""
    if top:
        return doc.root
    found = doc.root.member("hooks")
    if found is None:
        return None
    node = found[1]
    if node.kind != "object":
        raise InstallError(
            f'{doc.where(node)}: "hooks" must be an object (event -> matcher groups), got '
            f"{json_type(doc.value_of(node))}; fix it first (nothing written)"
        )
    return node


def find_hookwise(
    doc: JsonDocument, *, top: bool = False, flat: bool = False, script: str | None = None
) -> list[FoundHook]:
    """Every hookwise handler of the document, in file order (``top``: events at the top
    level; ``flat``: each event holds handlers, each its own matcher, not groups: Crush,
    Kiro). A flat handler is found as a group of one, so removing it is removing its
    entry. ``script``: the hook script install wrote, whose path is the command (Augment)."""

    def ours(command: object) -> bool:
        return is_hookwise_command(command) or (script is not None and command == script)

    hooks = _hooks_node(doc, top)
    if hooks is None:
        return []
    found: list[FoundHook] = []
    for index, (event, _) in enumerate(hooks.keys):
        if hooks.member(event) != (index, hooks.children[index]):
            continue  # an earlier duplicate: JSON.parse keeps only the last
        groups = doc.value_of(hooks.children[index])
        if not isinstance(groups, list):
            continue
        for g, group in enumerate(groups):
            if flat and isinstance(group, dict) and ours(group.get("command")):
                found.append(FoundHook(event, g, 0, group.get("matcher"), group, True, group))
                continue
            if flat or not isinstance(group, dict) or not isinstance(group.get("hooks"), list):
                continue
            handlers = group["hooks"]
            for h, handler in enumerate(handlers):
                if isinstance(handler, dict) and ours(handler.get("command")):
                    found.append(
                        FoundHook(
                            event,
                            g,
                            h,
                            group.get("matcher"),
                            handler,
                            len(handlers) == 1,
                            group,
                        )
                    )
    return found


def _remove_found(doc: JsonDocument, hook: FoundHook, top: bool) -> None:
    """Remove one handler: its whole group when it is alone there, then empty containers."""
    hooks = _hooks_node(doc, top)
    assert hooks is not None
    member = hooks.member(hook.event)
    assert member is not None
    groups = member[1]
    if not hook.alone:
        inner = groups.children[hook.group].member("hooks")
        assert inner is not None
        doc.remove(inner[1], hook.handler)
        return
    doc.remove(groups, hook.group)
    hooks = _hooks_node(doc, top)
    assert hooks is not None
    member = hooks.member(hook.event)
    assert member is not None
    if member[1].children:
        return
    doc.remove(hooks, member[0])
    hooks = _hooks_node(doc, top)
    assert hooks is not None
    if not top and not hooks.children:
        root_member = doc.root.member("hooks")
        assert root_member is not None
        doc.remove(doc.root, root_member[0])


def _add(doc: JsonDocument, registration: Registration, top: bool, flat: bool) -> None:
    entry = registration.entry(flat)
    hooks = _hooks_node(doc, top)
    if hooks is None:
        doc.append(doc.root, {registration.event: [entry]}, key="hooks")
        return
    member = hooks.member(registration.event)
    if member is None:
        doc.append(hooks, [entry], key=registration.event)
        return
    groups = member[1]
    if groups.kind != "array":
        raise InstallError(
            f'{doc.where(groups)}: "hooks.{registration.event}" must be an array of matcher '
            f"{'handlers' if flat else 'groups'}, got {json_type(doc.value_of(groups))}; fix it "
            "first (nothing written)"
        )
    doc.append(groups, entry)


def _is_current(found: list[FoundHook], registration: Registration, flat: bool) -> bool:
    if len(found) != 1:
        return False
    hook = found[0]
    return hook.alone and hook.group_config == registration.entry(flat)


@dataclass
class HooksEdit:
    """What one settings file's ``hooks`` become."""

    before: str | None
    after: str | None
    added: list[Registration] = field(default_factory=list)
    removed: list[FoundHook] = field(default_factory=list)
    kept: list[Registration] = field(default_factory=list)
    hookwise: list[FoundHook] = field(default_factory=list)
    """hookwise's handlers in ``after``, with their indexes there."""

    @property
    def changed(self) -> bool:
        return self.before != self.after


def edit_hooks(
    text: str | None,
    origin: str,
    desired: list[Registration],
    *,
    jsonc: bool,
    top: bool = False,
    flat: bool = False,
    script: str | None = None,
) -> HooksEdit:
    """Make hookwise's entries in a settings text exactly ``desired`` (uninstall: ``[]``).

    Other entries are untouched; a hookwise entry that is already as desired stays in place.
    A text that cannot be edited in place is an InstallError (nothing is written). ``top``:
    the events are the file's own keys, not those of its ``hooks`` object; ``flat``: an
    event holds handlers (matcher inside), not matcher groups; ``script``: a command that is
    hookwise's too (the path of the hook script install wrote).
    """
    try:
        return _edit_hooks(text, origin, desired, jsonc=jsonc, top=top, flat=flat, script=script)
    except JsonEditError as exc:
        raise InstallError(str(exc)) from None


def _edit_hooks(
    text: str | None,
    origin: str,
    desired: list[Registration],
    *,
    jsonc: bool,
    top: bool,
    flat: bool,
    script: str | None,
) -> HooksEdit:
    if text is None or not text.strip():
        if not desired:
            return HooksEdit(text, text)
        hooks: dict[str, Any] = {}
        for registration in desired:
            hooks.setdefault(registration.event, []).append(registration.entry(flat))
        made = hooks if top else {"hooks": hooks}
        created = json.dumps(made, indent=2, ensure_ascii=False) + "\n"
        doc = JsonDocument(created, origin, jsonc=jsonc)
        found = find_hookwise(doc, top=top, flat=flat, script=script)
        return HooksEdit(text, created, added=list(desired), hookwise=found)
    doc = JsonDocument(text, origin, jsonc=jsonc)
    if doc.root.kind != "object":
        raise InstallError(f"{origin}: expected a JSON object; fix it first (nothing written)")
    existing = find_hookwise(doc, top=top, flat=flat, script=script)
    wanted = {r.event: r for r in desired}
    keep: list[Registration] = []
    drop: list[FoundHook] = []
    for event in dict.fromkeys(h.event for h in existing):
        mine = [h for h in existing if h.event == event]
        current = wanted.get(event)
        if current is not None and _is_current(mine, current, flat):
            keep.append(current)
        else:
            drop.extend(mine)
    for hook in reversed(drop):  # from the end: earlier indexes stay valid
        _remove_found(doc, hook, top)
    add = [r for r in desired if r not in keep]
    for registration in add:
        _add(doc, registration, top, flat)
    return HooksEdit(
        text,
        doc.rendered(),
        added=add,
        removed=drop,
        kept=keep,
        hookwise=find_hookwise(doc, top=top, flat=flat, script=script),
    )


__all__ = ["FoundHook", "HooksEdit", "edit_hooks", "find_hookwise"]
