"""HookInput: a turn hook's stderr, as the agent receives it.

- stderr is trimmed: ``\\r\\n`` becomes ``\\n``, trailing blanks go from every line, blank
  lines from both ends. Whitespace-only stderr is no HookInput at all.
- The trimmed text is capped at ``max_bytes`` UTF-8 bytes (16 KiB unless hook.toml's
  ``[hook_input] max_bytes`` says otherwise), cut at a character boundary; a cut text
  ends with ``[HookInput truncated: <kept> of <total> bytes]``. Bytes the process layer
  already dropped (beyond 1 MiB of stderr) count in the total.
- The model receives ``HookInput (TurnStart): <text>`` (text form, the default) or
  ``{"source": "TurnStart", "text": "<text>"}`` (JSON form, ``format = "json"``; it adds
  ``"truncated": true`` when the text was cut).
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from hookwise.config.hook_toml import HookInputFormat, TurnHookKind

__all__ = ["CappedText", "cap_text", "clean_stderr", "hook_input_message", "truncation_mark"]


def clean_stderr(stderr: str) -> str:
    """Trimmed stderr; '' when it held only whitespace."""
    lines = [line.rstrip() for line in stderr.replace("\r\n", "\n").split("\n")]
    while lines and not lines[0]:
        lines.pop(0)
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines)


def truncation_mark(kept: int, total: int) -> str:
    return f"\n[HookInput truncated: {kept} of {total} bytes]"


@dataclass(frozen=True)
class CappedText:
    text: str
    truncated: bool
    total_bytes: int


def cap_text(text: str, max_bytes: int, dropped_bytes: int = 0) -> CappedText:
    """``text`` cut to ``max_bytes`` UTF-8 bytes (mark included), the cut marked."""
    data = text.encode("utf-8")
    total = len(data) + dropped_bytes
    if total <= max_bytes:
        return CappedText(text, False, total)
    budget = max(max_bytes - len(truncation_mark(max_bytes, total).encode("utf-8")), 0)
    kept = data[:budget].decode("utf-8", "ignore")  # never half a character
    kept_bytes = len(kept.encode("utf-8"))
    return CappedText(kept + truncation_mark(kept_bytes, total), True, total)


def hook_input_message(
    kind: TurnHookKind, text: str, fmt: HookInputFormat, truncated: bool = False
) -> str:
    """The message the model receives for one HookInput."""
    if fmt is HookInputFormat.JSON:
        body: dict[str, object] = {"source": kind.title, "text": text}
        if truncated:
            body["truncated"] = True
        return json.dumps(body, ensure_ascii=False)
    return f"HookInput ({kind.title}): {text}"
