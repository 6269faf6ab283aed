"""What one run of a real CLI shows about the hook's answer.

The hook answers of the matrix carry three tokens, one per audience, so that what reached
the model can be found in the requests the fake model received, whatever the CLI wrapped
around it:

* ``REASON`` marks a reason (stderr text, ``reason``, ``permissionDecisionReason``);
* ``CONTEXT`` marks context (plain stdout, ``additionalContext``);
* ``USER`` marks text meant for the user (``stopReason``, ``systemMessage``, an allow's
  reason).

Observed, per run:

* ``hook_calls``: how many times the hook ran;
* ``tool_ran``: the marker file exists (the shell command ran), ``input_rewritten``: the
  hook's ``updatedInput`` ran instead (``marker-modified``);
* ``proceeded``: the hooked step went ahead - PreToolUse and PermissionRequest: the tool ran; UserPromptSubmit:
  the prompt reached the model; Stop: the agent stopped (no model request after the hook);
* ``reason_reached_model`` / ``context_reached_model`` / ``user_text_reached_model``: the
  paragraph of a request body holding that token in the model requests after the hook, or
  null (normalised: run directory -> ``$RUN``, hook command -> ``$HOOK_COMMAND``). A block
  whose text carries no token (exit 2 with empty stderr) still reaches the model as
  something: for PreToolUse the reason is then the text the model got in place of the tool
  result, for Stop the text the agent was sent back to work with;
* ``session_stopped``: the agent ended the session because of the hook. PreToolUse: no
  model request followed the hook. UserPromptSubmit and Stop: false when the session went
  on (a model request followed the hook); null when nothing followed, because headless mode
  ends the session at that point whether or not the hook asked it to;
* ``waiting``: the run was still going when its time limit came and nothing had followed
  the hook: the CLI waits for a confirmation that nobody gives in a headless run (Gemini
  CLI on ``ask``). ``session_stopped`` is then null (the session did not end), and so is
  ``proceeded`` of a Stop hook;
* ``shown_to_user``: the paragraphs with a token that the CLI printed (stdout or stderr):
  what a user of the headless CLI saw. Recorded, not compared: the interactive UIs show
  more than headless mode prints.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

REASON = "POLICY-E2E-REASON"
# events about one tool call: "proceeded" means the tool ran (GitHub Copilot CLI's
# camelCase keys are the same points)
TOOL_EVENTS = ("PreToolUse", "PermissionRequest", "preToolUse", "permissionRequest")
PRE_TOOL_EVENTS = ("PreToolUse", "preToolUse")
# the CLIs that speak Chat Completions, and their shell tool
CHAT_SHELL = {"copilot": "bash", "qwen": "run_shell_command"}
CONTEXT = "POLICY-E2E-CONTEXT"
USER = "POLICY-E2E-USER"
TOKENS = {"reason": REASON, "context": CONTEXT, "user": USER}


def strings(value: Any) -> Iterator[str]:
    """Every string in a JSON value (object keys excluded), depth first."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings(item)


def is_turn_request(cli: str, request: dict[str, Any]) -> bool:
    """A request of the agent loop (not a title, router or token-count request)."""
    body = request.get("body")
    if request.get("method") != "POST" or not isinstance(body, dict):
        return False
    path = str(request.get("path", ""))
    if cli == "claude":
        tools = {t.get("name") for t in body.get("tools") or [] if isinstance(t, dict)}
        return "/messages" in path and "count_tokens" not in path and "Bash" in tools
    if cli == "codex":
        return urlsplit(path).path.endswith("/responses")
    if cli in CHAT_SHELL:
        tools = {(t.get("function") or {}).get("name") for t in body.get("tools") or []}
        return urlsplit(path).path.endswith("/chat/completions") and CHAT_SHELL[cli] in tools
    return "GenerateContent" in path and bool(body.get("tools"))


def normaliser(replacements: dict[str, str]) -> Callable[[str], str]:
    pairs = sorted(((k, v) for k, v in replacements.items() if k), key=lambda kv: -len(kv[0]))

    def normalise(text: str) -> str:
        for old, new in pairs:
            text = text.replace(old, new)
        return text

    return normalise


def segment(text: str, token: str) -> str:
    """The paragraph of ``text`` (blank-line separated) that holds ``token``.

    Claude Code, for one, puts prompt-hook context into its long system prompt; the
    paragraph is the part the hook caused.
    """
    for paragraph in text.split("\n\n"):
        if token in paragraph:
            return paragraph
    return text


def find_segment(
    requests: list[dict[str, Any]], token: str, normalise: Callable[[str], str] = str
) -> str | None:
    """The first paragraph holding ``token``, searched after ``normalise`` (which turns the
    hook command, whose argv holds every token of the answer, into ``$HOOK_COMMAND``)."""
    for request in requests:
        for raw in strings(request.get("body")):
            text = normalise(raw)
            if token in text:
                return segment(text, token)
    return None


# Claude Code's frame for hook text it adds as context (plain stdout of a prompt hook,
# additionalContext): a text in it is context whatever token it carries
CONTEXT_FRAME = re.compile(
    r"^(?:<system-reminder>\s*)?\w+(?::[\w-]+)? hook (?:success|additional context): "
)


def is_context_frame(text: str) -> bool:
    return CONTEXT_FRAME.match(text.strip()) is not None


def _texts(value: Any) -> list[str]:
    """A content value as text: a string, or the ``text`` of a list of parts."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [str(p["text"]) for p in value if isinstance(p, dict) and "text" in p]
    return []


def new_items(cli: str, body: Any) -> list[tuple[str, str]]:
    """(kind, text) of what follows the model's last turn: "result" for tool results, "text"."""
    if not isinstance(body, dict):
        return []
    items: list[tuple[str, str]] = []
    if cli == "claude":
        messages = [m for m in body.get("messages") or [] if isinstance(m, dict)]
        last = max((i for i, m in enumerate(messages) if m.get("role") == "assistant"), default=-1)
        for message in messages[last + 1 :]:
            content = message.get("content")
            if isinstance(content, str):
                items.append(("text", content))
                continue
            for block in content or []:
                if not isinstance(block, dict):
                    continue
                if block.get("type") == "tool_result":
                    items += [("result", t) for t in _texts(block.get("content"))]
                elif block.get("type") == "text":
                    items.append(("text", str(block.get("text", ""))))
    elif cli in CHAT_SHELL:
        messages = [m for m in body.get("messages") or [] if isinstance(m, dict)]
        last = max((i for i, m in enumerate(messages) if m.get("role") == "assistant"), default=-1)
        for message in messages[last + 1 :]:
            kind = "result" if message.get("role") == "tool" else "text"
            items += [(kind, t) for t in _texts(message.get("content"))]
    elif cli == "codex":
        inputs = [i for i in body.get("input") or [] if isinstance(i, dict)]
        last = max(
            (
                i
                for i, item in enumerate(inputs)
                if item.get("type") == "function_call"
                or (item.get("type") == "message" and item.get("role") == "assistant")
            ),
            default=-1,
        )
        for item in inputs[last + 1 :]:
            if item.get("type") == "function_call_output":
                items += [("result", t) for t in _texts(item.get("output"))]
            elif item.get("type") == "message":
                items += [("text", t) for t in _texts(item.get("content"))]
    else:
        contents = [c for c in body.get("contents") or [] if isinstance(c, dict)]
        last = max((i for i, c in enumerate(contents) if c.get("role") == "model"), default=-1)
        for content in contents[last + 1 :]:
            for part in content.get("parts") or []:
                if not isinstance(part, dict):
                    continue
                if "functionResponse" in part:
                    response = (part["functionResponse"] or {}).get("response")
                    items += [("result", t) for t in strings(response)]
                elif "text" in part:
                    items.append(("text", str(part["text"])))
    return items


def unframed(text: str) -> str:
    """The text without surrounding whitespace and system-reminder tags."""
    text = text.strip()
    if text.startswith("<system-reminder>") and text.endswith("</system-reminder>"):
        text = text[len("<system-reminder>") : -len("</system-reminder>")].strip()
    return text


_TIMESTAMP = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z?")


def output_strings(stdout: str, stderr: str) -> list[str]:
    """The CLI's printed text: JSON on stdout unpacked, stderr by line, timestamps masked."""
    found: list[str] = []
    try:
        found += list(strings(json.loads(stdout)))
    except ValueError:
        for line in stdout.splitlines():
            try:
                found += list(strings(json.loads(line)))
            except ValueError:
                found.append(line)
    found += stderr.splitlines()
    return [_TIMESTAMP.sub("<time>", s) for s in found]


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            out.append(json.loads(line))
    return out


def event_args(event: str, hook_input: dict[str, Any]) -> dict[str, Any]:
    """The event's own arguments out of the host's hook input (what `hookwise fire` takes)."""
    keys = {
        "PreToolUse": ("tool_name", "tool_input"),
        # GitHub Copilot CLI's camelCase payloads
        "preToolUse": ("toolName", "toolArgs"),
        "permissionRequest": ("hookName", "toolName", "toolInput", "permissionSuggestions"),
        "PermissionRequest": ("tool_name", "tool_input"),
        "UserPromptSubmit": ("prompt",),
        # Claude/Codex Stop; Gemini's AfterAgent adds the prompt and the answer
        "Stop": ("stop_hook_active", "last_assistant_message", "prompt", "prompt_response"),
    }[event]
    return {k: hook_input[k] for k in keys if k in hook_input}


def observe(
    *,
    cli: str,
    event: str,
    requests: list[dict[str, Any]],
    hook_calls: list[dict[str, Any]],
    proj: Path,
    stdout: str,
    stderr: str,
    replacements: dict[str, str],
    timed_out: bool = False,
) -> dict[str, Any]:
    normalise = normaliser(replacements)
    turns = [r for r in requests if is_turn_request(cli, r)]
    first_call = hook_calls[0]["t"] if hook_calls else None
    after = [r for r in turns if first_call is not None and r["t"] > first_call]
    follow_up = new_items(cli, after[0]["body"]) if after else []
    tool_ran = (proj / "marker").exists() or (proj / "marker-modified").exists()
    reason = find_segment(after, REASON, normalise)
    context = find_segment(after, CONTEXT, normalise)
    user_text = find_segment(after, USER, normalise)
    if reason is not None and is_context_frame(reason):
        # added as context (a prompt hook's plain stdout holding a reason, say)
        context, reason = context or reason, None

    proceeded: bool | None
    session_stopped: bool | None
    # the run was still going when its time was up, nothing having followed the hook: the
    # CLI waits (for a confirmation nobody gives in a headless run)
    waiting = bool(hook_calls) and timed_out and not after
    if not hook_calls:
        proceeded, session_stopped = None, None
    elif event in TOOL_EVENTS:
        proceeded = tool_ran
        session_stopped = None if waiting else not after
        replaced = next((t for kind, t in follow_up if kind == "result"), None)
        if not tool_ran and event in PRE_TOOL_EVENTS and replaced is not None:
            # a blocked call: the text the model got in place of the tool's result is the
            # reason, whichever token it holds (Gemini blocks with plain stdout text) or
            # none (exit 2 without stderr). A PermissionRequest's host-made denial is the
            # host's own text: only a token marks the hook's.
            reason = normalise(replaced)
    elif event == "UserPromptSubmit":
        from tests.e2e.clis import PROMPT

        proceeded = any(PROMPT in s for r in after for s in strings(r.get("body")))
        session_stopped = False if after else None
        if context is None:
            # the prompt went on: hook text that reached the model is context
            context, reason = reason, None
    else:  # Stop
        proceeded = None if waiting else not after
        session_stopped = False if after else None
        if reason is None and after:
            # sent back to work: the text that came back in place of a reason, unless the
            # host framed it as context
            texts = (normalise(t) for _, t in follow_up)
            reason = next((t for t in texts if not is_context_frame(t)), None)
    if context is not None and reason is not None and unframed(context) == unframed(reason):
        context = None  # one text, read as the reason

    shown = [
        normalise(segment(s, token))
        for s in output_strings(stdout, stderr)
        for token in (REASON, CONTEXT, USER)
        if token in s
    ]
    return {
        "hook_calls": len(hook_calls),
        "tool_ran": tool_ran,
        "input_rewritten": (proj / "marker-modified").exists(),
        "proceeded": proceeded,
        "reason_reached_model": reason,
        "context_reached_model": context,
        "user_text_reached_model": user_text,
        "session_stopped": session_stopped,
        "waiting": waiting,
        "shown_to_user": list(dict.fromkeys(shown)),
        "model_requests": len(turns),
        "model_requests_after_hook": len(after),
    }
