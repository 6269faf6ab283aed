"""An ``ask`` put to the user through MCP elicitation (``elicitation/create``, form mode).

Only a client that declared the capability is asked (MCP 2025-06-18: ``elicitation: {}``;
2025-11-25: ``{}`` or ``{"form": {}}``; a URL-only client cannot show a form). Only an
explicit ``accept`` with ``allow: true`` allows; decline, cancel, a malformed answer or an
error denies, so a client that answers carelessly never lets a call through.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

FIELD = "allow"
_OTHER_VALUE = 200  # characters of an argument the policy did not decide on
_OTHERS = 800  # of all those arguments together


def supports_form(capabilities: Any) -> bool:
    """Whether an ``initialize``'s client capabilities include form elicitation."""
    if not isinstance(capabilities, Mapping):
        return False
    elicitation = capabilities.get("elicitation")
    if not isinstance(elicitation, Mapping):
        return False
    return not elicitation or isinstance(elicitation.get("form"), Mapping)


def _shown(value: Any) -> str:
    """A value as JSON with every character outside printable ASCII escaped: blank-looking
    padding (U+2800), line breaks and direction marks cannot hide what follows."""
    return json.dumps(value, ensure_ascii=True, sort_keys=True, default=str)


def _cut(text: str, keep: int) -> str:
    """``text`` elided in the middle past ``keep`` characters: its head and its tail stay
    (a long padding cannot push the words that matter out of sight: red team s27 F9)."""
    if len(text) <= keep:
        return text
    half = keep // 2
    return f"{text[:half]} ...(cut: {len(text) - 2 * half} characters)... {text[-half:]}"


def describe(
    tool: str, args: Mapping[str, Any], decided: list[str], lines_decided: list[str] | None = None
) -> str:
    """The call as the user is shown it: what the policy decided on first, whole (the
    command lines and files it read, then those arguments); the others after them, each
    elided in the middle past a stated length (and said so)."""
    lines = [f"tool {_shown(tool)}"]
    lines += [f"  {_shown(line)}" for line in lines_decided or ()]
    for key in decided:
        lines.append(f"  {_shown(key)}: {_shown(args[key])}")
    budget = _OTHERS
    rest = [k for k in sorted(args, key=str) if k not in decided]
    for at, key in enumerate(rest):
        text = _shown(args[key])
        text = _cut(text, _OTHER_VALUE)
        if budget - len(text) < 0:
            lines.append(f"  ... {len(rest) - at} more arguments not shown")
            break
        budget -= len(text)
        lines.append(f"  {_shown(key)}: {text}")
    return "\n".join(lines)


def request(
    request_id: str,
    server: str,
    tool: str,
    args: Mapping[str, Any],
    reason: str,
    *,
    decided: list[str] | None = None,
    lines: list[str] | None = None,
) -> dict[str, Any]:
    """The ``elicitation/create`` request for one held call; ``decided``: the argument
    keys the policy read (paths, command, a shell tool's argv...), ``lines``: the command
    lines and files it decided on; both shown first and never cut."""
    keys = [k for k in (decided or []) if k in args]
    why = reason or "the policy asks for a person's approval"
    message = (
        f"hookwise: the MCP server {_shown(server)} is asked to run "
        f"{describe(tool, args, keys, lines)}\n{why}\nAllow this call?"
    )
    schema = {
        "type": "object",
        "properties": {
            FIELD: {
                "type": "boolean",
                "title": "Allow this call",
                "description": f"Run {_shown(tool)} on {_shown(server)} once"
                + "".join(f"; {_shown(line)}" for line in lines or ())
                + "".join(f"; {_shown(k)}: {_shown(args[k])}" for k in keys),
                "default": False,
            }
        },
        "required": [FIELD],
    }
    return {
        "jsonrpc": "2.0",
        "id": request_id,
        "method": "elicitation/create",
        "params": {"message": message, "requestedSchema": schema},
    }


def answer(response: Mapping[str, Any]) -> tuple[bool, str]:
    """(allowed, how) from the client's response to :func:`request`."""
    if "error" in response:
        err = response.get("error")
        text = err.get("message") if isinstance(err, Mapping) else None
        return False, f"the client could not ask: {text or err!r}"
    result = response.get("result")
    if not isinstance(result, Mapping):
        return False, "the client's answer had no result"
    action = result.get("action")
    if action != "accept":
        return False, f"the user chose {action!r}" if isinstance(action, str) else "no choice"
    content = result.get("content")
    if isinstance(content, Mapping) and content.get(FIELD) is True:
        # the client answered: its user, or a hook of the client (Claude Code runs
        # Elicitation hooks before it shows the question), so the record does not say who
        return True, "accepted in the client"
    return False, "the user did not tick 'Allow this call'"
