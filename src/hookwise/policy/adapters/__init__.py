"""One adapter per host: ``decode`` a payload into canonical events, ``encode`` a decision.

The adapter of host NAME is the module ``hookwise.policy.adapters.NAME``; which hosts there
are is the host registry's (``protocol/hosts.py``), reaching the hook through the compiled
host tables (``hosts.py``); ``detect.py`` tells them apart when the command does not say.
"""

from __future__ import annotations

from hookwise.policy.adapters.base import Answer, DecodeError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from types import ModuleType
    from typing import Any

__all__ = ["Answer", "DecodeError", "adapter", "detect_platform", "platforms"]


def platforms() -> tuple[str, ...]:
    """The hosts ``hookwise hook`` answers (off the hook's path: it reads its tables)."""
    from hookwise.protocol.hosts import hosts_with

    return hosts_with("hook")


def adapter(platform: str) -> ModuleType:
    """The adapter module of a platform (ValueError for a name that has none)."""
    if not platform.isidentifier() or platform.startswith("_") or platform == "base":
        raise ValueError(f"unknown platform {platform!r}; expected one of: {_names()}")
    import sys

    name = f"hookwise.policy.adapters.{platform}"
    try:
        __import__(name)  # (not importlib: the hook does not load it)
        module: ModuleType = sys.modules[name]
    except ModuleNotFoundError:
        raise ValueError(f"unknown platform {platform!r}; expected one of: {_names()}") from None
    if not hasattr(module, "encode"):
        raise ValueError(f"unknown platform {platform!r}; expected one of: {_names()}")
    return module


def _names() -> str:
    return ", ".join(platforms())


def detect_platform(payload: dict[str, Any], tables: dict[str, Any], env: dict[str, str]) -> str:
    """The host that sent ``payload`` (raises DecodeError when there is no event name).
    Only a hook command without ``--platform`` needs it (install always writes one), so its
    code lives in ``detect.py``, loaded on first use."""
    from hookwise.policy.adapters.detect import detect

    return detect(payload, tables, env)
