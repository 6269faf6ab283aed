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
_PREVIEW = 600


def supports_form(capabilities: Any) -> bool:
    """Whether an ``initialize``'s client capabilities include form elicitation."""
    if not isinstance(capabilities, Mapping):
        return False
    elicitation = capabilities.get("elicitation")
    if not isinstance(elicitation, Mapping):
        return False
    return not elicitation or isinstance(elicitation.get("form"), Mapping)


def request(
    request_id: str, server: str, tool: str, args: Mapping[str, Any], reason: str
) -> dict[str, Any]:
    """The ``elicitation/create`` request for one held call."""
    shown = json.dumps(dict(args), ensure_ascii=False, sort_keys=True, default=str)
    if len(shown) > _PREVIEW:
        shown = shown[:_PREVIEW] + f"... ({len(shown)} characters)"
    why = reason or "the policy asks for a person's approval"
    message = (
        f"hookwise: the MCP server '{server}' is asked to run its tool '{tool}' with "
        f"{shown}. {why}. Allow this call?"
    )
    schema = {
        "type": "object",
        "properties": {
            FIELD: {
                "type": "boolean",
                "title": "Allow this call",
                "description": f"Run '{tool}' on '{server}' once",
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
        return True, "accepted by the user"
    return False, "the user did not tick 'Allow this call'"
