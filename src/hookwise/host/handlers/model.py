"""``type: "prompt"`` and ``type: "agent"``: a model decides, through the embedding
application's callback (hooks reference, "Prompt-based hooks", "Agent-based hooks").

hookwise has no model of its own: an application that runs such hooks passes a
``ModelCallback`` (``load_hook_system(..., model=...)`` or ``HookSystem.execution.model``).
It gets a ``ModelRequest`` (the prompt with ``$ARGUMENTS`` replaced by the hook's JSON
input, or that input appended when the prompt has no placeholder; ``\\$`` stays a literal
``$``) and returns the model's text, or an already parsed object. Without a callback such a
hook fails with an error saying so: it is never skipped in silence.

The model answers ``{"ok": bool, "reason": str, "impossible": bool}``. ``ok: true`` is no
decision; ``ok: false`` becomes the answer a command hook would give on that event
(``MODEL_BLOCK_FORMS`` in protocol/claude.py): an agent hook, or a prompt hook with
``continueOnBlock: true``, takes the second form. Any other answer is a non-blocking error.
"""

from __future__ import annotations

import inspect
import json
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Final

from hookwise.host.process import ProcessResult
from hookwise.protocol.claude import MODEL_BLOCK_FORMS, MODEL_IMPOSSIBLE_ALLOWS
from hookwise.protocol.jsvalue import JSON

_ESCAPED: Final = "\0hookwise-dollar\0"


@dataclass(frozen=True)
class ModelRequest:
    """What the application's model is asked for one prompt or agent hook."""

    kind: str  # "prompt" (one answer) | "agent" (may use tools, up to 50 turns)
    event: str
    prompt: str  # the text to send, the hook's input already in it
    model: str | None  # the handler's ``model``; None: the application's fast model
    hook_input: Mapping[str, JSON]


ModelCallback = Callable[
    [ModelRequest], "str | Mapping[str, JSON] | Awaitable[str | Mapping[str, JSON]]"
]

NO_MODEL: Final = (
    "this {kind} hook needs a model: hookwise has none of its own; pass a model callback "
    "(load_hook_system(..., model=...) or HookSystem.execution.model)"
)


def render_prompt(template: str, hook_input: Mapping[str, JSON]) -> str:
    """``$ARGUMENTS`` -> the input as JSON (appended when absent); ``\\$`` -> ``$``."""
    text = json.dumps(dict(hook_input), ensure_ascii=False)
    escaped = template.replace("\\$", _ESCAPED)
    if "$ARGUMENTS" in escaped:
        rendered = escaped.replace("$ARGUMENTS", text)
    else:
        rendered = f"{escaped}\n\n{text}"
    return rendered.replace(_ESCAPED, "$")


def verdict_answer(
    event: str, kind: str, config: Mapping[str, JSON], verdict: Mapping[str, JSON]
) -> tuple[str, str, int]:
    """The model's verdict as (stdout, stderr, exit code) of the equivalent command hook."""
    ok = verdict.get("ok")
    reason = verdict.get("reason")
    if not isinstance(ok, bool) or ("reason" in verdict and not isinstance(reason, str)):
        return "", 'the model\'s answer needs "ok": true|false and a string "reason"', 1
    if ok:
        return "", "", 0
    reason = reason or "blocked by a model hook"
    if kind == "prompt" and verdict.get("impossible") is True and event in MODEL_IMPOSSIBLE_ALLOWS:
        return "", "", 0
    default, continuing = MODEL_BLOCK_FORMS.get(event, ("none", "none"))
    form = continuing if kind == "agent" or config.get("continueOnBlock") is True else default
    specific = {
        "hookEventName": event,
        "permissionDecision": "deny",
        "permissionDecisionReason": reason,
    }
    answers: dict[str, dict[str, JSON]] = {
        "deny": {"hookSpecificOutput": specific},
        "deny_stop": {"hookSpecificOutput": specific, "continue": False, "stopReason": reason},
        "block": {"decision": "block", "reason": reason},
        "stop": {"continue": False, "stopReason": reason},
    }
    if form == "exit2":
        return "", reason, 2
    if form in answers:
        return json.dumps(answers[form]), "", 0
    return "", "", 0


def _parse(value: str | Mapping[str, JSON]) -> Mapping[str, JSON] | None:
    if isinstance(value, Mapping):
        return value
    text = value.strip()
    start, end = text.find("{"), text.rfind("}")  # models wrap JSON in prose or fences
    if start < 0 or end < start:
        return None
    try:
        parsed = json.loads(text[start : end + 1])
    except ValueError:
        return None
    return parsed if isinstance(parsed, dict) else None


async def run_model_hook(
    config: Mapping[str, JSON],
    event: str,
    payload: Mapping[str, JSON],
    model: ModelCallback | None,
) -> ProcessResult:
    """One prompt or agent hook through ``model`` (see the module's rules)."""
    started = time.monotonic()
    kind = str(config.get("type"))

    def done(stdout: str, stderr: str, code: int) -> ProcessResult:
        return ProcessResult(
            stdout, stderr, exit_code=code, duration_ms=(time.monotonic() - started) * 1000
        )

    if model is None:
        return done("", NO_MODEL.format(kind=kind), 1)
    template = config.get("prompt")
    chosen = config.get("model")
    request = ModelRequest(
        kind,
        event,
        render_prompt(template if isinstance(template, str) else "", payload),
        chosen if isinstance(chosen, str) else None,
        payload,
    )
    try:
        value = model(request)
        if inspect.isawaitable(value):
            value = await value
    except Exception as exc:  # the application's code: its failure is this hook's
        return done("", f"{kind} hook error: the model callback failed: {exc}", 1)
    verdict = _parse(value) if isinstance(value, str | Mapping) else None
    if verdict is None:
        return done("", f"{kind} hook error: the model did not answer a JSON object", 1)
    stdout, stderr, code = verdict_answer(event, kind, config, verdict)
    if code == 1:
        stderr = f"{kind} hook error: {stderr}"
    return done(stdout, stderr, code)
