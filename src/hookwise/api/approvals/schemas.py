"""The approval routes' bodies, with a size cap on every field (the agent is untrusted).

``input_hash`` is recomputed here from ``input`` exactly as the hook computes it
(``canonical_hash``): a request whose hash does not match what it carries is refused.
"""

from __future__ import annotations

import hashlib
import json
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, Field, StrictInt, StrictStr

from hookwise.api.permissions import text_problem
from hookwise.api.processing.output_config import StrictModel
from hookwise.api.schemas import JsonObject
from hookwise.api.webhooks.subscribers import MAX_URL_CHARS, url_problem

MAX_INPUT_BYTES = 64 * 1024  # the canonical JSON of ``input``
MAX_NOTE_CHARS = 2000
MAX_REMEMBER_MINUTES = 1440
MAX_AHEAD_MS = 24 * 3_600_000
MAX_NOTIFY = 8
MAX_WAIT_S = 60
MAX_LIST = 200
HASH_PATTERN = r"^sha256:[0-9a-f]{64}$"
NONCE_PATTERN = r"^[0-9a-f]{32,128}$"


def canonical_hash(value: Any) -> str:
    """The contract's ``input_hash``: sha256 of the sorted, compact, UTF-8 JSON."""
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return "sha256:" + hashlib.sha256(text.encode()).hexdigest()


def _storable(value: str) -> str:
    problem = text_problem(value)
    if problem is not None:
        raise ValueError(problem)
    return value


def _small_input(value: dict[str, Any]) -> dict[str, Any]:
    size = len(json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode())
    if size > MAX_INPUT_BYTES:
        raise ValueError(f"at most {MAX_INPUT_BYTES} bytes of JSON, got {size}")
    return value


Storable = AfterValidator(_storable)
Name = Annotated[StrictStr, Field(min_length=1, max_length=64), Storable]
SessionId = Annotated[StrictStr, Field(min_length=1, max_length=256), Storable]
Cwd = Annotated[StrictStr, Field(max_length=4096), Storable]
Tool = Annotated[StrictStr, Field(min_length=1, max_length=256), Storable]
RuleId = Annotated[StrictStr, Field(max_length=256), Storable]
Reason = Annotated[StrictStr, Field(max_length=4000), Storable]
Note = Annotated[StrictStr, Field(max_length=MAX_NOTE_CHARS), Storable]
InputHash = Annotated[StrictStr, Field(pattern=HASH_PATTERN)]
Minutes = Annotated[StrictInt, Field(ge=0, le=MAX_REMEMBER_MINUTES)]


def _target_url(value: str) -> str:
    problem = url_problem(value)
    if problem:
        raise ValueError(problem)
    return value


class NotifyTarget(StrictModel):
    type: Literal["ntfy", "slack", "webhook"]
    url: Annotated[StrictStr, Field(max_length=MAX_URL_CHARS), AfterValidator(_target_url)]


class CreateApproval(StrictModel):
    host: Name
    session_id: SessionId
    cwd: Cwd
    tool: Tool
    input: Annotated[JsonObject, AfterValidator(_small_input)]
    input_hash: InputHash
    rule_id: RuleId
    reason: Reason
    nonce: Annotated[StrictStr, Field(pattern=NONCE_PATTERN)]
    expires_at: StrictInt = Field(description="epoch ms; in the future, at most 24 h ahead")
    remember_minutes: Minutes = 0
    notify: Annotated[list[NotifyTarget], Field(max_length=MAX_NOTIFY)] = Field(
        default_factory=list
    )


class DecideApproval(StrictModel):
    decision: Literal["allow", "deny"]
    input_hash: InputHash
    note: Note = ""
    remember_minutes: Minutes = 0
