"""``$VAR``, ``${VAR}`` and ``${VAR:-default}`` in settings values, as Gemini CLI expands them.

Settings files and extension manifests are expanded from the environment before they are
validated and merged (``resolveEnvVarsInObject``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Final

from hookwise.protocol.jsvalue import JSON

_ENV_VAR_RE: Final = re.compile(r"\$(?:([A-Za-z0-9_]+)|\{([^}]+?)(?::-([^}]*))?\})")


def resolve_env_vars(
    value: JSON, env: Mapping[str, str], custom: Mapping[str, str] | None = None
) -> JSON:
    """``resolveEnvVarsInObject``: ``$VAR``, ``${VAR}``, ``${VAR:-default}`` in every string.

    Unknown variables without a default are left as written, so ``$1`` or an unset
    ``$GEMINI_PROJECT_DIR`` reach the hook's shell untouched.
    """

    def substitute(match: re.Match[str]) -> str:
        name = match.group(1) or match.group(2) or ""
        if not name:
            return match.group(0)
        if custom is not None and isinstance(custom.get(name), str):
            return custom[name]
        found = env.get(name)
        if isinstance(found, str):
            return found
        default = match.group(3)
        return default if default is not None else match.group(0)

    def walk(item: JSON) -> JSON:
        if isinstance(item, str):
            return _ENV_VAR_RE.sub(substitute, item)
        if isinstance(item, list):
            return [walk(v) for v in item]
        if isinstance(item, dict):
            return {k: walk(v) for k, v in item.items()}
        return item

    return walk(value)


__all__ = ["resolve_env_vars"]
