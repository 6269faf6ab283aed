"""Small helpers for the words hookwise prints (counts with the right noun)."""

from __future__ import annotations


def count(number: int, singular: str, plural: str | None = None) -> str:
    """``1 rule``, ``2 rules``, ``0 rules``: the number with its noun in the right form."""
    word = singular if number == 1 else (plural if plural is not None else f"{singular}s")
    return f"{number} {word}"
