"""A workspace-trust verdict: trusted or not, and what decided it, whichever host's rules did.

Gemini CLI's folder trust (``gemini/folder_trust.py``) and Claude Code's workspace trust
(``claude/trust.py``) both answer with it, so the loaders and the reports treat them alike.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class FolderTrust:
    """Whether the workspace is trusted, and what decided it."""

    trusted: bool
    source: str
    """``env``, ``disabled`` (folder trust off), ``file`` (a rule), ``default`` (no rule),
    or ``error`` (trustedFolders.json is invalid); for Claude Code also ``hookwise`` (its
    store) and ``flag`` (``--trust-project``)."""
    detail: str


__all__ = ["FolderTrust"]
