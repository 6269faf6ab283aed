"""Exit code + stdout + stderr -> one hook's answer.

Two readings exist and both are needed: the hooks reference (``documented``) and what
the real engine does (``gemini-cli``: JSON wins over the exit code, stderr is parsed when
stdout is empty, any code but 0 and 1 with text denies). Whatever the bytes, the result
is an answer or no answer, never an exception.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from hookwise.protocol.gemini import event_spec
from hookwise.protocol.jsvalue import JSON, is_object, js_json_parse, js_trim
from hookwise.protocol.profiles import Profile

EXIT_SUCCESS = 0
EXIT_WARNING = 1
EXIT_BLOCK = 2


@dataclass(frozen=True)
class Interpretation:
    """What one hook said."""

    output: JSON = None  # the answer object (dict, or list in the gemini-cli profile)
    output_format: str | None = None  # "json" | "text" | None when there is no answer
    warnings: tuple[str, ...] = field(default=())
    reading: Any = None  # a dialect's own classification of the run (Claude, Codex)


def parse_json_answer(text: str) -> JSON:
    """The engine's parse: JSON.parse, once more if that gave a string; objects only.

    Returns None when the text is JSON but not an object (``5``, ``null``: no answer);
    raises ValueError when it is not JSON at all.
    """
    parsed = js_json_parse(text)
    if isinstance(parsed, str):
        parsed = js_json_parse(parsed)
    if is_object(parsed) and parsed is not None:
        return parsed
    return None


def plain_text_answer(text: str, exit_code: int) -> dict[str, JSON]:
    """convertPlainTextToHookOutput: 0 informs, 1 warns, anything else denies."""
    if exit_code == EXIT_SUCCESS:
        return {"decision": "allow", "systemMessage": text}
    if exit_code == EXIT_WARNING:
        return {"decision": "allow", "systemMessage": f"Warning: {text}"}
    return {"decision": "deny", "reason": text}


def interpret_engine(stdout: str, stderr: str, exit_code: int | None) -> Interpretation:
    """The real engine (hookRunner.ts, close handler); ``exit_code`` None = killed by signal."""
    text = js_trim(stdout) or js_trim(stderr)
    if not text:
        return Interpretation()
    try:
        parsed = parse_json_answer(text)
    except ValueError:
        return Interpretation(plain_text_answer(text, exit_code or EXIT_SUCCESS), "text")
    if parsed is None:
        return Interpretation()
    return Interpretation(parsed, "json")


def interpret_documented(
    event: str, stdout: str, stderr: str, exit_code: int | None
) -> Interpretation:
    """The hooks reference: exit 0 -> stdout JSON (else a systemMessage); exit 2 blocks
    with stderr; other codes warn and continue. stderr is never parsed as JSON."""
    spec = event_spec(event)
    out = js_trim(stdout)
    err = js_trim(stderr)
    if exit_code == EXIT_SUCCESS:
        if not out:
            return Interpretation()
        try:
            parsed = js_json_parse(out)
        except ValueError:
            parsed = None
        if isinstance(parsed, dict):
            return Interpretation(parsed, "json")
        return Interpretation({"systemMessage": out}, "text")
    if exit_code == EXIT_BLOCK:
        message = err or out or "hook exited with code 2"
        if spec.flow_control:
            return Interpretation({"decision": "deny", "reason": message}, "text")
        return Interpretation({"systemMessage": message}, "text")
    code = "a signal" if exit_code is None else f"code {exit_code}"
    detail = f": {err}" if err else ""
    return Interpretation(warnings=(f"hook exited with {code}{detail}",))


def interpret(
    profile: Profile, event: str, stdout: str, stderr: str, exit_code: int | None
) -> Interpretation:
    if profile is Profile.GEMINI_CLI:
        return interpret_engine(stdout, stderr, exit_code)
    return interpret_documented(event, stdout, stderr, exit_code)
