"""Issue 27: a long ``additionalContext`` as Claude Code and Codex pass it to the model.

The figures are the real CLIs' (tests/e2e cells ``*-shape-context_at_cap``,
``*-shape-long_context``); these tests hold the reading's shape for any text.
"""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from hookwise.host import claude_dialect, codex_dialect
from hookwise.protocol.claude import CLAUDE, OUTPUT_CAP_CHARS, PERSISTED_PREVIEW_CHARS
from hookwise.protocol.codex import CONTEXT_CAP_BYTES, CONTEXT_KEPT_BYTES

PROMPT = CLAUDE.events["UserPromptSubmit"]
# a piece repeated: lengths on both sides of the caps, multi-byte characters and line ends
TEXT = st.builds(
    lambda piece, times: piece * times,
    st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=40),
    st.integers(min_value=0, max_value=1_500),
)
CLAUDE_FRAME = re.compile(
    r"<persisted-output>\nOutput too large \((?P<size>[\d.]+KB)\)\. Full output saved to: "
    r"~/\.claude/projects/<project>/<session_id>/tool-results/hook-<id>-UserPromptSubmit-"
    r"<hash>-additionalContext\.txt\n\nPreview \(first 2KB\):\n(?P<head>.*)\n\.\.\.\n"
    r"</persisted-output>",
    re.DOTALL,
)
CODEX_FRAME = re.compile(
    r"Warning: truncated output \(original token count: (?P<tokens>\d+)\)\n"
    r"Total output lines: (?P<lines>\d+)\n\n(?P<head>.*)…(?P<removed>\d+) tokens truncated…"
    r"(?P<tail>.*)\n\nFull hook output saved to: \$TMPDIR/hook_outputs/<id>/<id>\.txt",
    re.DOTALL,
)


@given(TEXT)
def test_claude_keeps_a_context_up_to_the_cap_and_sends_a_head_past_it(text: str) -> None:
    sent = claude_dialect.model_context(PROMPT, text)
    if len(text) <= OUTPUT_CAP_CHARS:
        assert sent == text
        return
    match = CLAUDE_FRAME.fullmatch(sent)
    assert match is not None, sent[:300]
    head = match["head"]
    assert text.startswith(head) and len(head) <= PERSISTED_PREVIEW_CHARS
    assert match["size"] == f"{len(text) / 1024:.1f}KB"


def test_claude_cuts_the_preview_at_its_last_line_end() -> None:
    text = "".join(f"line {i:05d} of the context\n" for i in range(500))
    head = CLAUDE_FRAME.fullmatch(claude_dialect.model_context(PROMPT, text))
    assert head is not None
    assert head["head"].endswith("line 00075 of the context")  # 76 lines of 26: 1976 chars


@given(TEXT)
def test_codex_keeps_a_context_up_to_the_cap_and_its_head_and_tail_past_it(text: str) -> None:
    sent = codex_dialect.model_context(text)
    raw = text.encode()
    if len(raw) <= CONTEXT_CAP_BYTES:
        assert sent == text
        return
    match = CODEX_FRAME.fullmatch(sent)
    assert match is not None, sent[:300]
    head, tail = match["head"].encode(), match["tail"].encode()
    assert raw.startswith(head) and raw.endswith(tail)
    assert CONTEXT_KEPT_BYTES - 3 <= len(head) <= CONTEXT_KEPT_BYTES
    assert CONTEXT_KEPT_BYTES - 3 <= len(tail) <= CONTEXT_KEPT_BYTES
    assert int(match["tokens"]) == -(-len(raw) // 4)
    assert int(match["removed"]) == -(-(len(raw) - len(head) - len(tail)) // 4)


def test_codex_figures_of_the_recorded_cell() -> None:
    """prompt-shape-long_context: 30,000 characters in 1,153 lines; Codex removed 5,039
    tokens and kept 4,922 bytes on each side."""
    text = (
        "POLICY-E2E-CONTEXT: head. "
        + "".join(f"line {i:05d} of the context\n" for i in range(1154))
    )[:30_000]
    match = CODEX_FRAME.fullmatch(codex_dialect.model_context(text))
    assert match is not None
    assert (match["tokens"], match["lines"], match["removed"]) == ("7500", "1153", "5039")
