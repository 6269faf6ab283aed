"""``/api/webhooks``: register, list, inspect and remove webhook subscribers.

The contract names the three payloads but not how receivers register, so this is
hookwise's own management API. It needs the bearer token like every API route and has no
per-session rate limit: the contract's groups do not cover it, it is an operator's
tool, and its calls are rare and cheap.

``LOOPS`` runs the outbox dispatcher in every server process (see
``hookwise.api.webhooks.dispatcher``).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, get_args

from fastapi import APIRouter, Depends, Path, Query, Response
from pydantic import BaseModel, ConfigDict, Field, field_validator
from pydantic.alias_generators import to_camel

from hookwise.api.errors import ApiError
from hookwise.api.state import ServiceState, service
from hookwise.api.webhooks import subscribers
from hookwise.api.webhooks.dispatcher import run_dispatcher
from hookwise.api.webhooks.outbox import ALL_EVENTS, EVENT_TYPES

router = APIRouter(prefix="/api/webhooks", tags=["webhooks"])

EventName = Literal["hook_output_processed", "permission_requested", "permission_resolved", "*"]
assert set(get_args(EventName)) == {*EVENT_TYPES, ALL_EVENTS}  # one list of names
State = Annotated[ServiceState, Depends(service)]
WebhookId = Annotated[str, Path(max_length=64, description="The subscriber's id (whk_...)")]


class WebhookCreate(BaseModel):
    model_config = ConfigDict(extra="forbid")

    url: str = Field(
        description="Absolute http(s) URL that receives POSTed events",
        max_length=subscribers.MAX_URL_CHARS,
        json_schema_extra={"pattern": subscribers.URL_PATTERN},
    )
    events: list[EventName] = Field(
        min_length=1,
        description='Event types to receive; "*" means every type, including later ones',
    )
    secret: str | None = Field(
        default=None,
        min_length=1,
        max_length=subscribers.MAX_SECRET_CHARS,
        description="HMAC-SHA256 key for X-Hookwise-Signature; generated when absent",
    )

    @field_validator("url")
    @classmethod
    def _check_url(cls, url: str) -> str:
        problem = subscribers.url_problem(url)
        if problem:
            raise ValueError(problem)
        return url

    @field_validator("events", mode="before")
    @classmethod
    def _check_events(cls, events: Any) -> Any:
        """All unknown names in one detail for ``events`` (not one per list position)."""
        if isinstance(events, list) and all(isinstance(e, str) for e in events):
            return list(subscribers.normalise_events(events))
        return events


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


def _found(state: ServiceState, webhook_id: str) -> subscribers.Subscriber:
    found = subscribers.get(state.engine, webhook_id)
    if found is None:
        raise ApiError(404, "not_found", f"no webhook subscriber with id {webhook_id!r}")
    return found


@router.post("", status_code=201, response_model=WebhookCreated)
def create_webhook(body: WebhookCreate, state: State) -> dict[str, Any]:
    """Register a subscriber; the answer carries its secret, which is never shown again."""
    created = subscribers.create(state.engine, body.url, body.events, body.secret, state.generation)
    return created.view(with_secret=True)


@router.get("", response_model=WebhookList)
def list_webhooks(state: State) -> dict[str, Any]:
    return {"webhooks": [s.view() for s in subscribers.list_all(state.engine)]}


@router.get("/{webhook_id}", response_model=Webhook, responses=_NOT_FOUND)
def get_webhook(webhook_id: WebhookId, state: State) -> dict[str, Any]:
    return _found(state, webhook_id).view()


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
    await run_dispatcher(state.engine)


LOOPS = [_dispatch]
