"""GET/PUT the live output configuration (rate group "configuration": 10 per minute)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends

from hookwise.api.edge.ratelimit import limited
from hookwise.api.processing.output_config import OutputConfig, OutputConfigUpdate
from hookwise.api.schemas import UpdateConfigResponse
from hookwise.api.state import ServiceState, service

router = APIRouter(tags=["configuration"], dependencies=[Depends(limited("configuration"))])


@router.get("/api/hook/output-config", response_model=OutputConfig)
def get_output_config(state: ServiceState = Depends(service)) -> OutputConfig:  # noqa: B008
    return state.config.get()


@router.put("/api/hook/output-config", response_model=UpdateConfigResponse)
def put_output_config(
    body: OutputConfigUpdate,
    state: ServiceState = Depends(service),  # noqa: B008
) -> dict[str, Any]:
    """Merge a partial update; it applies to the next request on every worker and persists."""
    return {"updated": True, "config": state.config.update(body)}
