"""Which hooks each Gemini settings file contributes, under each profile.

* ``documented``: one object per file, each with its own source label (project > user >
  system); an untrusted folder loses only the project file.
* ``gemini-cli``: the merged ``hooks`` as the engine registers it (systemDefaults + user +
  project + system concatenated), split back by file so messages can name it.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Final

from hookwise.config.gemini.merge import SKIPPED_KEYS, deep_merge, merge_strategy
from hookwise.config.gemini.paths import SettingsScope
from hookwise.config.gemini.settings_file import SettingsFile
from hookwise.config.model import Source
from hookwise.config.registry import HooksObject
from hookwise.protocol.gemini import SCHEMA_EVENT_ORDER
from hookwise.protocol.jsvalue import JSON, UNDEFINED, truthy

DOCUMENTED_SOURCES: Final = {
    SettingsScope.PROJECT: Source.PROJECT,
    SettingsScope.USER: Source.USER,
    SettingsScope.SYSTEM: Source.SYSTEM,
    SettingsScope.SYSTEM_DEFAULTS: Source.SYSTEM,
}


def documented_hooks_objects(
    files: dict[SettingsScope, SettingsFile], trusted: bool
) -> tuple[list[HooksObject], list[HooksObject]]:
    """One object per file, each with its own source; the registry orders them."""
    objects: list[HooksObject] = []
    skipped: list[HooksObject] = []
    order = (
        SettingsScope.PROJECT,
        SettingsScope.USER,
        SettingsScope.SYSTEM,
        SettingsScope.SYSTEM_DEFAULTS,
    )
    for scope in order:
        file = files[scope]
        if not file.loaded or "hooks" not in file.settings:
            continue
        source = DOCUMENTED_SOURCES[scope]
        obj = HooksObject(file.settings["hooks"], source, str(file.path), scope.value)
        if scope is SettingsScope.PROJECT and not trusted:
            skipped.append(obj)
        else:
            objects.append(obj)
    return objects, skipped


@dataclass
class _Tracked:
    """A merged ``hooks[event]`` value and, per element, the file it came from."""

    value: JSON
    origins: list[SettingsScope]


def engine_hooks_objects(
    files: dict[SettingsScope, SettingsFile],
    scopes: list[SettingsScope],
    warnings: list[str],
) -> list[HooksObject]:
    """The merged ``hooks`` as the engine registers it, split by file for messages.

    This replays ``mergeRecursively`` on the ``hooks`` subtree while remembering where each
    definition came from. Registering the returned objects in order gives every event the
    same hook list as registering the merged object (systemDefaults + user + project +
    system), and keeps file paths in the registry's warnings.
    """
    tracked: dict[str, _Tracked] | _Tracked = {
        event: _Tracked([], []) for event in SCHEMA_EVENT_ORDER
    }
    for scope in scopes:
        file = files[scope]
        if "hooks" not in file.settings:
            continue
        src = file.settings["hooks"]
        if isinstance(tracked, dict) and isinstance(src, dict):
            _merge_tracked_hooks(tracked, src, scope, str(file.path), warnings)
        elif isinstance(src, dict):
            tracked = {}
            _merge_tracked_hooks(tracked, src, scope, str(file.path), warnings)
        else:
            tracked = _Tracked(copy.deepcopy(src), [scope])

    objects: list[HooksObject] = []
    if isinstance(tracked, _Tracked):
        if truthy(tracked.value):  # ``settings.hooks || {}``
            scope = tracked.origins[-1]
            origin = str(files[scope].path)
            objects.append(HooksObject(tracked.value, Source.PROJECT, origin, scope.value))
        return objects
    for event, item in tracked.items():
        if not isinstance(item.value, list):
            scope = item.origins[-1]
            origin = str(files[scope].path)
            objects.append(HooksObject({event: item.value}, Source.PROJECT, origin, scope.value))
            continue
        for scope, run in _runs(item):
            objects.append(
                HooksObject({event: run}, Source.PROJECT, str(files[scope].path), scope.value)
            )
    return objects


def _runs(item: _Tracked) -> Iterator[tuple[SettingsScope, list[JSON]]]:
    start = 0
    values = item.value
    assert isinstance(values, list)
    for index in range(1, len(values) + 1):
        if index == len(values) or item.origins[index] is not item.origins[start]:
            yield item.origins[start], values[start:index]
            start = index


def _merge_tracked_hooks(
    target: dict[str, _Tracked],
    source: dict[str, JSON],
    scope: SettingsScope,
    origin: str,
    warnings: list[str],
) -> None:
    """``mergeRecursively`` one level below ``hooks``, keeping each element's file."""
    for key, value in source.items():
        if key in SKIPPED_KEYS:
            continue
        src = copy.deepcopy(value)
        current = target.get(key)
        obj: JSON = current.value if current is not None else UNDEFINED
        if isinstance(obj, list) and merge_strategy(("hooks", key)) == "concat":
            assert current is not None
            if not isinstance(src, list):
                warnings.append(
                    f"{origin}: hooks.{key} is not an array; Gemini CLI appends it as one "
                    "hook definition"
                )
            added = src if isinstance(src, list) else [src]
            current.value = [*obj, *added]
            current.origins = [*current.origins, *([scope] * len(added))]
        elif isinstance(obj, dict) and isinstance(src, dict):
            assert current is not None
            deep_merge(obj, src, ("hooks", key))
            current.origins = [scope]
        elif isinstance(src, dict):
            fresh: dict[str, JSON] = {}
            deep_merge(fresh, src, ("hooks", key))
            target[key] = _Tracked(fresh, [scope])
        else:
            target[key] = _Tracked(src, [scope] * len(src) if isinstance(src, list) else [scope])


__all__ = ["DOCUMENTED_SOURCES", "documented_hooks_objects", "engine_hooks_objects"]
