"""Named behaviour profiles: where the documents and the real engines disagree.

A profile is chosen explicitly; hookwise never mixes the two by accident.
"""

from __future__ import annotations

from enum import Enum


class Profile(Enum):
    DOCUMENTED = "documented"
    """Follows the Gemini CLI hooks reference (seed 002/004) as written."""

    GEMINI_CLI = "gemini-cli"
    """Follows the real engine, @google/gemini-cli-core 0.61.0, including its departures."""

    @classmethod
    def parse(cls, text: str) -> Profile:
        for profile in cls:
            if profile.value == text:
                return profile
        names = ", ".join(p.value for p in cls)
        raise ValueError(f"unknown profile {text!r}; expected one of: {names}")


DEFAULT_PROFILE = Profile.DOCUMENTED
