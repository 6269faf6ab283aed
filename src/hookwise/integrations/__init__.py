"""Bridges: agents built with Python frameworks obey hookwise's policy and hook settings.

``hookwise.integrations.gate.Gate`` is the core every bridge shares; one module per
framework (``claude_agent_sdk``, ``openai_agents``, ``langchain``, ``pydantic_ai``,
``google_adk``, ``smolagents``) applies its verdicts with that framework's own mechanism.
No framework is imported here: each bridge imports its own, and a missing one raises an
ImportError naming the extra to install (:func:`require`).
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from hookwise.integrations.gate import Gate
    from hookwise.integrations.verdict import Verdict

__all__ = ["Gate", "Verdict", "require"]


def require(module: str, extra: str) -> ModuleType:
    """Import a framework's module, or raise an ImportError naming the extra to install."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise ImportError(
            f"hookwise's {extra} bridge needs the {module.split('.', maxsplit=1)[0]!r} package: "
            f'pip install "hookwise[{extra}]"'
        ) from exc


def __getattr__(name: str) -> Any:
    if name == "Gate":
        from hookwise.integrations.gate import Gate

        return Gate
    if name == "Verdict":
        from hookwise.integrations.verdict import Verdict

        return Verdict
    raise AttributeError(f"module 'hookwise.integrations' has no attribute {name!r}")
