"""The live output-processing configuration (GET/PUT ``/api/hook/output-config``).

``OutputConfig`` is the contract's document with its defaults; ``OutputConfigUpdate`` is
the PUT body (every key optional, unknown keys and odd values refused); ``apply_update``
merges a partial update into the current document, key by key, so a PUT of
``{"timeoutMs": {"hookExecution": 5000}}`` keeps ``permissionRequest``.

``permissionFallback`` is hookwise's extension: what an "ask" permission request that
nobody resolved within ``timeoutMs.permissionRequest`` becomes ("deny" by default, so an
unattended agent never gains a permission by waiting).
"""

# Field names are the contract's wire names (camelCase).
# ruff: noqa: N815

from __future__ import annotations

from typing import Annotated, Any, Final, Literal, Self

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ModelWrapValidatorHandler,
    StrictBool,
    StrictInt,
    ValidationError,
    field_validator,
    model_validator,
)
from pydantic_core import InitErrorDetails, PydanticCustomError

Behavior = Literal["success", "blocking_error", "non_blocking_error"]
SUCCESS: Final = "success"
BLOCKING_ERROR: Final = "blocking_error"
NON_BLOCKING_ERROR: Final = "non_blocking_error"

OTHERS: Final = "others"
# Exit codes as the platforms report them: negative signal numbers (Python) up to
# Windows' 32-bit unsigned status codes.
EXIT_CODE_MIN: Final = -(2**31)
EXIT_CODE_MAX: Final = 2**32 - 1

PERMISSION_TIMEOUT_MAX_MS: Final = 24 * 3600 * 1000
HOOK_TIMEOUT_MAX_MS: Final = 3600 * 1000

DEFAULT_EXIT_CODE_BEHAVIOR: Final[dict[str, Behavior]] = {
    "0": "success",
    "2": "blocking_error",
    "others": "non_blocking_error",
}

PermissionTimeout = Annotated[StrictInt, Field(ge=1, le=PERMISSION_TIMEOUT_MAX_MS)]
HookTimeout = Annotated[StrictInt, Field(ge=1, le=HOOK_TIMEOUT_MAX_MS)]


def _check_exit_code_keys(value: Any) -> Any:
    for key in value or ():
        if key == OTHERS:
            continue
        try:
            number = int(key)
        except ValueError:
            number = None
        if number is None or str(number) != key:
            raise ValueError(
                f"exitCodeBehavior key {key!r} must be an exit code written as a plain "
                f"integer (e.g. '1', '-9') or 'others'"
            )
        if not EXIT_CODE_MIN <= number <= EXIT_CODE_MAX:
            raise ValueError(
                f"exitCodeBehavior key {key!r} is outside {EXIT_CODE_MIN}..{EXIT_CODE_MAX}"
            )
    return value


class StrictModel(BaseModel):
    """A request-side model: unknown keys are refused, and the error names the known ones.

    The error keeps pydantic's type (``extra_forbidden``) so every handler maps it as
    before; only its message changes, from "Extra inputs are not permitted" to
    "unknown field 'x'; expected one of: a, b".
    """

    model_config = ConfigDict(extra="forbid")

    @model_validator(mode="wrap")
    @classmethod
    def _name_unknown_keys(cls, data: Any, handler: ModelWrapValidatorHandler[Self]) -> Self:
        try:
            return handler(data)
        except ValidationError as exc:
            errors = exc.errors()
            if not any(_own_extra(e["type"], e["loc"]) for e in errors):
                raise
            known = ", ".join(cls.model_fields)
            lines: list[InitErrorDetails] = []
            for e in errors:
                message = e["msg"]
                if _own_extra(e["type"], e["loc"]):
                    message = f"unknown field {e['loc'][0]!r}; expected one of: {known}"
                error = PydanticCustomError(e["type"], message)
                lines.append({"type": error, "loc": e["loc"], "input": e["input"]})
            raise ValidationError.from_exception_data(exc.title, lines) from None


def _own_extra(kind: str, loc: tuple[int | str, ...]) -> bool:
    return kind == "extra_forbidden" and len(loc) == 1


class TimeoutMs(StrictModel):
    permissionRequest: PermissionTimeout = 30_000
    hookExecution: HookTimeout = 10_000


class UiConfig(StrictModel):
    keyboardNavigation: StrictBool = True
    autoExpandHookBlocks: StrictBool = False
    showHookExecutionTime: StrictBool = True


class OutputConfig(StrictModel):
    """The whole configuration, as GET returns it and as it is stored."""

    exitCodeBehavior: dict[str, Behavior] = Field(
        default_factory=lambda: dict(DEFAULT_EXIT_CODE_BEHAVIOR)
    )
    jsonPrecedence: StrictBool = True
    validationLevel: Literal["strict", "lenient"] = "strict"
    timeoutMs: TimeoutMs = Field(default_factory=TimeoutMs)
    uiConfig: UiConfig = Field(default_factory=UiConfig)
    permissionFallback: Literal["deny", "allow"] = Field(
        default="deny",
        description=(
            "hookwise extension: the decision an unresolved permission request takes "
            "when timeoutMs.permissionRequest passes"
        ),
    )

    _check_keys = field_validator("exitCodeBehavior")(_check_exit_code_keys)


class TimeoutMsUpdate(StrictModel):
    permissionRequest: PermissionTimeout | None = None
    hookExecution: HookTimeout | None = None


class UiConfigUpdate(StrictModel):
    keyboardNavigation: StrictBool | None = None
    autoExpandHookBlocks: StrictBool | None = None
    showHookExecutionTime: StrictBool | None = None


class OutputConfigUpdate(StrictModel):
    """The PUT body: any subset of the configuration; nested objects merge key by key."""

    # A null entry removes that exit code's own mapping (it falls back to ``others``).
    exitCodeBehavior: dict[str, Behavior | None] | None = None
    jsonPrecedence: StrictBool | None = None
    validationLevel: Literal["strict", "lenient"] | None = None
    timeoutMs: TimeoutMsUpdate | None = None
    uiConfig: UiConfigUpdate | None = None
    permissionFallback: Literal["deny", "allow"] | None = None

    _check_keys = field_validator("exitCodeBehavior")(_check_exit_code_keys)


def _merge(base: dict[str, Any], patch: dict[str, Any]) -> dict[str, Any]:
    merged = dict(base)
    for key, value in patch.items():
        if value is None:
            continue
        old = merged.get(key)
        merged[key] = (
            _merge(old, value) if isinstance(old, dict) and isinstance(value, dict) else value
        )
    return merged


def apply_update(config: OutputConfig, update: OutputConfigUpdate) -> OutputConfig:
    """The configuration with ``update``'s keys laid over it (absent keys unchanged)."""
    patch = update.model_dump(exclude_none=True)
    if not patch:
        return config
    merged = _merge(config.model_dump(), patch)
    for key, value in (update.exitCodeBehavior or {}).items():
        if value is None:
            merged["exitCodeBehavior"].pop(key, None)
    return OutputConfig.model_validate(merged)


def behavior_for(config: OutputConfig, exit_code: int) -> Behavior:
    """What ``exit_code`` means under ``config``: its own entry, else ``others``."""
    table = config.exitCodeBehavior
    found = table.get(str(exit_code))
    if found is None:
        found = table.get(OTHERS, NON_BLOCKING_ERROR)
    return found
