"""How Gemini CLI merges its settings scopes: ``customDeepMerge`` with the schema's strategies.

Later scopes win, except where the schema names a strategy: every event's hook list is
concatenated and ``hooksConfig.disabled`` is a union. The quirks of ``getMergeStrategyForPath``
are kept, since they decide which hooks run.
"""

from __future__ import annotations

import copy
from typing import Final

from hookwise.protocol.gemini import SCHEMA_EVENT_ORDER
from hookwise.protocol.jsvalue import JSON, UNDEFINED

SKIPPED_KEYS: Final = ("__proto__", "constructor", "prototype")
"""Keys the merge never copies (prototype pollution)."""


# The part of the settings schema that decides how hook-related keys merge.
_MERGE_SCHEMA: Final[dict[str, dict[str, JSON]]] = {
    "hooksConfig": {
        "properties": {
            "enabled": {},
            "disabled": {"mergeStrategy": "union"},
            "notifications": {},
        }
    },
    "hooks": {
        "properties": {event: {"mergeStrategy": "concat"} for event in SCHEMA_EVENT_ORDER},
        "additionalProperties": {"mergeStrategy": "concat"},
    },
    "security": {
        "properties": {
            "folderTrust": {"properties": {"enabled": {}}},
            "environmentVariableRedaction": {
                "properties": {"allowed": {}, "blocked": {}, "enabled": {}}
            },
            "blockGitExtensions": {},
            "allowedExtensions": {},
        }
    },
    "experimental": {"properties": {"extensionConfig": {}}},
}

# Property names every JS object literal answers (so ``schema[key]`` is truthy for them).
_JS_OBJECT_PROTOTYPE: Final = frozenset(
    {
        "toString",
        "toLocaleString",
        "valueOf",
        "hasOwnProperty",
        "isPrototypeOf",
        "propertyIsEnumerable",
        "__defineGetter__",
        "__defineSetter__",
        "__lookupGetter__",
        "__lookupSetter__",
    }
)


def merge_strategy(path: tuple[str, ...]) -> str | None:
    """``getMergeStrategyForPath`` over the hook-related schema, quirks included.

    At the first key the schema does not know, the answer is the ``additionalProperties``
    strategy of the *grandparent* node (the code's ``parent`` lags one step). So an unknown
    event directly under ``hooks`` gets none (last wins), while ``hooks.BeforeTool.hooks``
    (a definition object merged in place of the array) gets ``concat``.
    """
    current: dict[str, JSON] | None = None
    properties: JSON = _MERGE_SCHEMA
    parent: dict[str, JSON] | None = None
    for key in path:
        known = isinstance(properties, dict) and key in properties
        if not known and not (properties is not None and key in _JS_OBJECT_PROTOTYPE):
            extra = parent.get("additionalProperties") if parent is not None else None
            return extra.get("mergeStrategy") if isinstance(extra, dict) else None
        parent = current
        current = properties[key] if known and isinstance(properties, dict) else {}
        properties = current.get("properties") if isinstance(current, dict) else None
    strategy = current.get("mergeStrategy") if isinstance(current, dict) else None
    return strategy if isinstance(strategy, str) else None


def _js_unique(values: list[JSON]) -> list[JSON]:
    """``[...new Set(values)]``: SameValueZero for primitives, identity for objects."""
    seen: set[tuple[str, object]] = set()
    out: list[JSON] = []
    for value in values:
        if isinstance(value, dict | list):
            marker: tuple[str, object] = ("o", id(value))
        elif isinstance(value, bool):
            marker = ("b", value)
        elif isinstance(value, int | float):
            marker = ("n", float(value))
        else:
            marker = (type(value).__name__, value)
        if marker not in seen:
            seen.add(marker)
            out.append(value)
    return out


def deep_merge(
    target: dict[str, JSON], source: dict[str, JSON], path: tuple[str, ...] = ()
) -> None:
    """``mergeRecursively`` (cli/src/utils/deepMerge.ts), in place."""
    for key, src in source.items():
        if key in SKIPPED_KEYS:
            continue
        new_path = (*path, key)
        obj = target.get(key, UNDEFINED)
        strategy = merge_strategy(new_path)
        if isinstance(obj, list):
            src_list = src if isinstance(src, list) else [src]
            if strategy == "concat":
                target[key] = obj + src_list
                continue
            if strategy == "union":
                target[key] = _js_unique(obj + src_list)
                continue
        if isinstance(obj, dict) and isinstance(src, dict):
            deep_merge(obj, src, new_path)
        elif isinstance(src, dict):
            fresh: dict[str, JSON] = {}
            target[key] = fresh
            deep_merge(fresh, src, new_path)
        else:
            target[key] = src


def schema_defaults() -> dict[str, JSON]:
    """The schema defaults the CLI merges first (the hook-related part)."""
    return {
        "security": {
            "folderTrust": {"enabled": True},
            "environmentVariableRedaction": {"allowed": [], "blocked": [], "enabled": False},
            "blockGitExtensions": False,
            "allowedExtensions": [],
        },
        "experimental": {"extensionConfig": True},
        "hooksConfig": {"enabled": True, "disabled": [], "notifications": True},
        "hooks": {event: [] for event in SCHEMA_EVENT_ORDER},
    }


def merge_settings(layers: list[dict[str, JSON]]) -> dict[str, JSON]:
    """``customDeepMerge(schemaDefaults, *layers)``; the inputs are not modified."""
    merged = schema_defaults()
    for layer in layers:
        deep_merge(merged, copy.deepcopy(layer))
    return merged


__all__ = ["SKIPPED_KEYS", "deep_merge", "merge_settings", "merge_strategy", "schema_defaults"]
