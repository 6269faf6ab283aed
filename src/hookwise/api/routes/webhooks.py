"""``/api/webhooks``: register, list, inspect, change and remove webhook subscribers.

The contract names the three payloads but not how receivers register, so this is
hookwise's own management API. It needs the bearer token like every API route and has no
per-session rate limit: the contract's groups do not cover it, it is an operator's
tool, and its calls are rare and cheap.

Operators can also pause a subscriber (``PATCH`` with ``active: false``: its queue waits),
rotate its secret, list its queued, delivered and dead events, and requeue dead ones.

``LOOPS`` runs the outbox dispatcher in every server process (see
``hookwise.api.webhooks.dispatcher``).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, get_args

from fastapi import APIRouter, Depends, Path, Query, Response
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StringConstraints, field_validator
from pydantic.alias_generators import to_camel

from hookwise.api.edge.errors import ApiError, invalid_request
from hookwise.api.state import ServiceState, service
from hookwise.api.webhooks import subscribers
from hookwise.api.webhooks.dispatcher import run_dispatcher
from hookwise.api.webhooks.outbox import ALL_EVENTS, EVENT_TYPES
from hookwise.api.webhooks.signing import MIN_SECRET_BYTES
from hookwise.api.webhooks.targets import url_refusal

router = APIRouter(prefix="/api/webhooks", tags=["webhooks"])

EventName = Literal[
    "hook_output_processed",
    "permission_requested",
    "permission_resolved",
    "approval_requested",
    "approval_decided",
    "approval_closed",
    "*",
]
assert set(get_args(EventName)) == {*EVENT_TYPES, ALL_EVENTS}  # one list of names
State = Annotated[ServiceState, Depends(service)]
WebhookId = Annotated[str, Path(max_length=64, description="The subscriber's id (whk_...)")]


Url = Annotated[
    str,
    Field(
        description="Absolute http(s) URL that receives POSTed events",
        max_length=subscribers.MAX_URL_CHARS,
        json_schema_extra={"pattern": subscribers.URL_PATTERN},
    ),
]
Events = Annotated[
    list[EventName],
    Field(
        min_length=1,
        description='Event types to receive; "*" means every type, including later ones',
    ),
]


def _check_url(url: Any) -> Any:
    if isinstance(url, str):
        problem = subscribers.url_problem(url)
        if problem:
            raise ValueError(problem)
    return url


def _check_events(events: Any) -> Any:
    """All unknown names in one detail for ``events`` (not one per list position)."""
    if isinstance(events, list) and all(isinstance(e, str) for e in events):
        return list(subscribers.normalise_events(events))
    return events


def _no_defaults(schema: dict[str, Any]) -> None:
    """A left-out field is "unchanged" or "all", not its placeholder default: say nothing."""
    for prop in schema.get("properties", {}).values():
        prop.pop("default", None)


class WebhookCreate(BaseModel):
    model_config = ConfigDict(extra="forbid")

    url: Url
    events: Events
    secret: str | None = Field(
        default=None,
        min_length=MIN_SECRET_BYTES,
        max_length=subscribers.MAX_SECRET_CHARS,
        description=f"HMAC-SHA256 key for X-Hookwise-Signature, at least {MIN_SECRET_BYTES} "
        "characters; generated when absent",
    )

    _url = field_validator("url")(_check_url)
    _events = field_validator("events", mode="before")(_check_events)


class WebhookUpdate(BaseModel):
    """Fields left out keep their value; the same rules as at creation apply."""

    # Not Optional: a null is refused like any wrong type (one detail per field, where a
    # union would give one per member); the defaults are placeholders, ``given`` tells
    # which fields the request set.
    model_config = ConfigDict(extra="forbid", json_schema_extra=_no_defaults)

    url: Url = ""
    events: Events = Field(default_factory=list)
    active: StrictBool = Field(
        default=True,
        description="false pauses deliveries: no new events are queued, queued ones wait",
    )

    _url = field_validator("url")(_check_url)
    _events = field_validator("events", mode="before")(_check_events)

    def given(self, name: str) -> bool:
        return name in self.model_fields_set


class WebhookRedeliver(BaseModel):
    model_config = ConfigDict(extra="forbid", json_schema_extra=_no_defaults)

    event_ids: list[Annotated[str, StringConstraints(min_length=1, max_length=64)]] = Field(
        default_factory=list,
        alias="eventIds",
        min_length=1,
        max_length=1000,
        description="Dead events to requeue; leave out to requeue all of them",
    )


class _Camel(BaseModel):
    """Python names in snake case, JSON names in the contract's camelCase."""

    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True)


class Webhook(_Camel):
    id: str
    url: str
    events: list[str]
    active: bool
    created_at: int = Field(description="Milliseconds since the epoch")


class WebhookCreated(Webhook):
    secret: str = Field(description="Shown only here: keep it to verify signatures")


class WebhookSecret(BaseModel):
    id: str
    secret: str = Field(description="Shown only here: keep it to verify signatures")


class WebhookRequeued(BaseModel):
    requeued: int = Field(description="Dead events made pending again")


EventStatus = Literal["pending", "delivered", "dead"]


class WebhookEvent(_Camel):
    event_id: str = Field(description="Same on every attempt and for every subscriber")
    event_type: str
    status: EventStatus
    attempts: int = Field(description="Attempts made since queued (or requeued)")
    next_attempt_at: int | None = Field(description="When it is tried next; null unless pending")
    last_error: str | None = Field(description="Why the latest attempt failed")
    created_at: int = Field(description="When the event was queued, ms since the epoch")
    delivered_at: int | None


class WebhookEvents(BaseModel):
    events: list[WebhookEvent]


class WebhookList(BaseModel):
    webhooks: list[Webhook]


class WebhookDelivery(_Camel):
    event_id: str = Field(description="Same on every attempt and for every subscriber")
    event_type: str
    attempt: int = Field(description="1 for the first attempt")
    status_code: int | None = Field(description="The receiver's status; null if no answer")
    error: str | None = Field(description="Why the attempt failed; null when delivered")
    duration_ms: float
    at: int = Field(description="When the attempt ended, ms since the epoch")


class WebhookDeliveries(BaseModel):
    deliveries: list[WebhookDelivery]


class ErrorBody(BaseModel):
    error: str
    message: str


_NOT_FOUND: dict[int | str, dict[str, Any]] = {
    404: {"model": ErrorBody, "description": "No subscriber has this id"}
}


def _reachable(state: ServiceState, url: str) -> None:
    """400 naming ``url`` when it is, or resolves to, an address webhooks may not reach."""
    problem = url_refusal(url, state.settings.webhook_targets)
    if problem:
        raise invalid_request([{"field": "url", "message": problem, "code": "FORBIDDEN_TARGET"}])


def _found(state: ServiceState, webhook_id: str) -> subscribers.Subscriber:
    found = subscribers.get(state.engine, webhook_id)
    if found is None:
        raise ApiError(404, "not_found", f"no webhook subscriber with id {webhook_id!r}")
    return found


@router.post("", status_code=201, response_model=WebhookCreated)
def create_webhook(body: WebhookCreate, state: State) -> dict[str, Any]:
    """Register a subscriber; the answer carries its secret, which is never shown again."""
    _reachable(state, body.url)
    created = subscribers.create(state.engine, body.url, body.events, body.secret, state.generation)
    return created.view(with_secret=True)


@router.get("", response_model=WebhookList)
def list_webhooks(state: State) -> dict[str, Any]:
    return {"webhooks": [s.view() for s in subscribers.list_all(state.engine)]}


@router.get("/{webhook_id}", response_model=Webhook, responses=_NOT_FOUND)
def get_webhook(webhook_id: WebhookId, state: State) -> dict[str, Any]:
    return _found(state, webhook_id).view()


@router.patch("/{webhook_id}", response_model=Webhook, responses=_NOT_FOUND)
def update_webhook(webhook_id: WebhookId, body: WebhookUpdate, state: State) -> dict[str, Any]:
    """Change URL, events or active; every worker sees the change on its next request."""
    if body.given("url"):
        _reachable(state, body.url)
    updated = subscribers.update(
        state.engine,
        webhook_id,
        url=body.url if body.given("url") else None,
        events=body.events if body.given("events") else None,
        active=body.active if body.given("active") else None,
        generation=state.generation,
    )
    if updated is None:
        raise ApiError(404, "not_found", f"no webhook subscriber with id {webhook_id!r}")
    return updated.view()


@router.post("/{webhook_id}/rotate-secret", response_model=WebhookSecret, responses=_NOT_FOUND)
def rotate_secret(webhook_id: WebhookId, state: State) -> dict[str, Any]:
    """A new generated secret, shown only in this answer (as at creation)."""
    rotated = subscribers.rotate_secret(state.engine, webhook_id, state.generation)
    if rotated is None:
        raise ApiError(404, "not_found", f"no webhook subscriber with id {webhook_id!r}")
    return {"id": rotated.id, "secret": rotated.secret}


@router.post("/{webhook_id}/redeliver", response_model=WebhookRequeued, responses=_NOT_FOUND)
def redeliver(
    webhook_id: WebhookId, state: State, body: WebhookRedeliver | None = None
) -> dict[str, Any]:
    """Dead events become pending again under the same event id (receivers deduplicate)."""
    _found(state, webhook_id)
    event_ids = (
        body.event_ids if body is not None and "event_ids" in body.model_fields_set else None
    )
    return {"requeued": subscribers.redeliver(state.engine, webhook_id, event_ids)}


@router.get("/{webhook_id}/events", response_model=WebhookEvents, responses=_NOT_FOUND)
def list_events(
    webhook_id: WebhookId,
    state: State,
    status: Annotated[EventStatus | None, Query(description="Only events in this state")] = None,
    limit: Annotated[int, Query(ge=1, le=1000, description="Newest events first")] = 100,
) -> dict[str, Any]:
    _found(state, webhook_id)
    found = subscribers.outbox_events(state.engine, webhook_id, status, limit)
    return {"events": [e.view() for e in found]}


@router.delete("/{webhook_id}", status_code=204, response_class=Response, responses=_NOT_FOUND)
def delete_webhook(webhook_id: WebhookId, state: State) -> Response:
    """Remove the subscriber with its undelivered events and its delivery log."""
    if not subscribers.delete(state.engine, webhook_id, state.generation):
        raise ApiError(404, "not_found", f"no webhook subscriber with id {webhook_id!r}")
    return Response(status_code=204)


@router.get("/{webhook_id}/deliveries", response_model=WebhookDeliveries, responses=_NOT_FOUND)
def list_deliveries(
    webhook_id: WebhookId,
    state: State,
    limit: Annotated[int, Query(ge=1, le=1000, description="Newest attempts first")] = 100,
) -> dict[str, Any]:
    _found(state, webhook_id)
    found = subscribers.deliveries(state.engine, webhook_id, limit)
    return {"deliveries": [d.view() for d in found]}


async def _dispatch(state: ServiceState) -> None:
    await run_dispatcher(state.engine, state.settings.webhook_targets)


LOOPS = [_dispatch]
