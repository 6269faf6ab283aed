"""Replaying the Gemini oracle's case format through hookwise (``gemini-cli`` profile).

A case (docs/conformance.md) describes hooks, an event and its arguments; the output has
the oracle's keys (plan, stdinPerHook, results, aggregated, derived, effect), so anyone
can diff hookwise against the real engine on their own settings. Each case runs in a
fresh directory that stands for ``{{TMP}}`` both ways, with the oracle's controlled
environment for hooks.
"""

from __future__ import annotations

import asyncio
import copy
import os
import re
import shutil
import tempfile
from collections.abc import Callable, Iterable, Iterator
from typing import Any, cast

from hookwise import __version__
from hookwise.config.environment import RedactionConfig
from hookwise.config.model import Source
from hookwise.config.registry import HooksObject, build_registry
from hookwise.host.answer import HookAnswer
from hookwise.host.effect import (
    Effect,
    ModelRequestEffect,
    ModelResponseEffect,
    PromptEffect,
    ResponseEffect,
    SessionStartEffect,
    ToolCallEffect,
    ToolResultEffect,
    ToolSelectionEffect,
)
from hookwise.host.execute import ExecutionSettings, HookRun
from hookwise.host.plan import MatchContext, create_plan
from hookwise.host.system import FireResult, HookSystem
from hookwise.protocol import llm
from hookwise.protocol.jsvalue import (
    JSON,
    UNDEFINED,
    JSTypeError,
    drop_undefined,
    js_json_parse,
    js_json_stringify,
    truthy,
)
from hookwise.protocol.profiles import Profile

TMP_TOKEN = "{{TMP}}"
SAFE_PATH = re.compile(r"^[A-Za-z0-9/._-]+$")
DEFAULT_BASE = {
    "session_id": "oracle-session",
    "transcript_path": "",
    "cwd": TMP_TOKEN,
    "timestamp": "2000-01-01T00:00:00.000Z",
}
KEPT_ENV = ("PATH", "HOME", "USER", "LOGNAME", "SHELL", "TMPDIR")


def _arg(args: list[JSON], index: int) -> JSON:
    return args[index] if index < len(args) else UNDEFINED


TRANSLATIONS: dict[str, Callable[[list[JSON]], JSON]] = {
    "toHookLLMRequest": lambda a: llm.to_hook_llm_request(_arg(a, 0), Profile.GEMINI_CLI),
    "fromHookLLMRequest": lambda a: llm.from_hook_llm_request(_arg(a, 0), _arg(a, 1)),
    "toHookLLMResponse": lambda a: llm.to_hook_llm_response(_arg(a, 0), Profile.GEMINI_CLI),
    "fromHookLLMResponse": lambda a: llm.from_hook_llm_response(_arg(a, 0)),
    "toHookToolConfig": lambda a: llm.to_hook_tool_config(_arg(a, 0)),
    "fromHookToolConfig": lambda a: llm.from_hook_tool_config(_arg(a, 0)),
}


class CaseError(ValueError):
    """A case that is not in the oracle's format."""


def controlled_environment(inherit: bool = False) -> dict[str, str]:
    """The environment the oracle gives hooks, so outputs don't depend on the caller."""
    if inherit:
        return dict(os.environ)
    names = list(KEPT_ENV)
    names += [n.strip() for n in os.environ.get("ORACLE_PASS_ENV", "").split(",") if n.strip()]
    env = {n: os.environ[n] for n in names if n in os.environ}
    env["LANG"] = "C.UTF-8"
    env["SHLVL"] = "1"
    return env


def temp_root() -> str:
    root = os.path.realpath(os.environ.get("ORACLE_TMPDIR") or tempfile.gettempdir())
    return root if SAFE_PATH.match(root) else os.path.realpath("/tmp")


def _materialize(case: dict[str, Any], tmp: str) -> dict[str, Any]:
    prepared = copy.deepcopy(case)
    if prepared.get("op", "run") != "translate":
        base = dict(prepared.get("base") or {})
        base.setdefault("cwd", TMP_TOKEN)
        prepared["base"] = base
        prepared.setdefault("plans_dir", f"{TMP_TOKEN}/plans")
    escaped = js_json_stringify(tmp)[1:-1]
    text = js_json_stringify(prepared).replace(TMP_TOKEN, escaped)
    out = js_json_parse(text)
    assert isinstance(out, dict)
    cwd = out.get("base", {}).get("cwd")
    if isinstance(cwd, str) and (cwd == tmp or cwd.startswith(tmp + os.sep)):
        os.makedirs(cwd, exist_ok=True)
    return out


def _hook_view(config: dict[str, JSON]) -> JSON:
    return drop_undefined({k: v for k, v in config.items() if k != "action"})


def _registry(case: dict[str, Any]) -> Any:
    objects = []
    if case.get("trusted", True):
        hooks = copy.deepcopy(case.get("hooks"))
        if hooks is not None:
            objects.append(HooksObject(hooks, Source.PROJECT, "settings", "project"))
    for index, ext in enumerate(case.get("extension_hooks") or []):
        if ext:
            objects.append(
                HooksObject(copy.deepcopy(ext), Source.EXTENSIONS, f"ext{index}", f"ext{index}")
            )
    return build_registry(objects, case.get("disabled") or [])


def _default_context(event: str, payload: dict[str, JSON]) -> MatchContext | None:
    if event in ("BeforeTool", "AfterTool"):
        return MatchContext(tool_name=payload.get("tool_name"))
    field = {"SessionStart": "source", "SessionEnd": "reason", "PreCompress": "trigger"}.get(event)
    return MatchContext(trigger=payload.get(field)) if field else None


def _context_json(context: MatchContext | None) -> JSON:
    if context is None:
        return UNDEFINED
    out: dict[str, JSON] = {}
    if context.tool_name is not None:
        out["toolName"] = context.tool_name
    if context.trigger is not None:
        out["trigger"] = context.trigger
    return out


def _context_from_case(value: JSON) -> MatchContext | None:
    if not isinstance(value, dict):
        return None
    return MatchContext(tool_name=value.get("toolName"), trigger=value.get("trigger"))


def _result_json(run: HookRun) -> dict[str, JSON]:
    out: dict[str, JSON] = {"hook": _hook_view(run.entry.config), "success": run.success}
    if run.exit_code is not None:
        out["exitCode"] = run.exit_code
    if run.output_format is not None:
        out["outputFormat"] = run.output_format
    if run.output is not None:
        out["output"] = drop_undefined(run.output)
    if run.stdout is not None:
        out["stdout"] = run.stdout
    if run.stderr is not None:
        out["stderr"] = run.stderr
    if run.error is not None:
        out["error"] = run.error
    return out


def _derived(final: HookAnswer, case: dict[str, Any]) -> dict[str, JSON]:
    blocking = final.blocking_error()
    d: dict[str, JSON] = {
        "isBlockingDecision": final.is_blocking_decision(),
        "isAskDecision": final.is_ask_decision(),
        "shouldStopExecution": final.should_stop_execution(),
        "effectiveReason": final.effective_reason(),
        "blockingError": {"blocked": blocking.blocked, "reason": blocking.reason},
        "additionalContext": final.additional_context() or UNDEFINED,
        "shouldClearContext": final.should_clear_context(),
        "tailToolCallRequest": final.tail_tool_call_request() or UNDEFINED,
    }
    cls = final.output_class
    if cls == "BeforeToolHookOutput":
        modified = final.modified_tool_input()
        d["modifiedToolInput"] = UNDEFINED if modified is None else modified
    if cls == "BeforeModelHookOutput":
        d["syntheticResponse"] = _guard(final.synthetic_response)
    if cls == "AfterModelHookOutput":
        d["modifiedResponse"] = _guard(final.modified_response)
    args = case.get("args") if isinstance(case.get("args"), dict) else {}
    request = args.get("llm_request") if args else None
    if truthy(request) and cls == "BeforeModelHookOutput":
        d["appliedLLMRequest"] = _guard(
            lambda: final.apply_llm_request_modifications(copy.deepcopy(request))
        )
    if cls == "BeforeToolSelectionHookOutput":
        config = request.get("config") if isinstance(request, dict) else None
        target = {
            "toolConfig": config.get("toolConfig", UNDEFINED)
            if isinstance(config, dict)
            else UNDEFINED,
            "tools": config.get("tools", UNDEFINED) if isinstance(config, dict) else UNDEFINED,
        }
        d["appliedToolConfig"] = _guard(lambda: final.apply_tool_config_modifications(target))
    return cast(dict[str, JSON], drop_undefined(d))


def _guard(fn: Any) -> JSON:
    try:
        return fn()
    except JSTypeError as exc:
        return {"throws": str(exc)}


def _effect_json(event: str, effect: Effect, result: FireResult, raw_input: bool) -> JSON:
    final = result.aggregate.final
    if isinstance(effect, ToolCallEffect):
        if effect.action in ("stop", "block"):
            return {"status": "error", "error": effect.error, "errorType": effect.error_type}
        out: dict[str, JSON] = {"status": "continue"}
        if effect.action == "ask":
            out["hookDecision"] = "ask"
            out["hookSystemMessage"] = effect.ask_message
        out["modifiedArgs"] = effect.tool_input
        return drop_undefined(out)
    if isinstance(effect, ToolResultEffect):
        return drop_undefined({"toolResult": effect.tool_result})
    if isinstance(effect, PromptEffect):
        if final is None:
            return {"kind": "none"}
        if effect.action == "stop":
            return drop_undefined(
                {
                    "kind": "agent_execution_stopped",
                    "reason": effect.reason,
                    "systemMessage": effect.system_message,
                    "promptKeptInHistory": True,
                }
            )
        if effect.action == "block":
            return drop_undefined(
                {
                    "kind": "agent_execution_blocked",
                    "reason": effect.reason,
                    "systemMessage": effect.system_message,
                    "promptKeptInHistory": False,
                }
            )
        if effect.appended_part is not UNDEFINED:
            return {"kind": "additional_context", "appendedPart": effect.appended_part}
        return {"kind": "none"}
    if isinstance(effect, ResponseEffect):
        if final is None or effect.action == "accept":
            return {"kind": "none"}
        out = {
            "kind": "agent_execution_stopped"
            if effect.action == "stop"
            else "agent_execution_blocked_retry",
            "reason": effect.reason,
            "systemMessage": effect.system_message,
            "contextCleared": effect.clear_context,
        }
        if effect.action == "retry":
            out["continueRequest"] = effect.retry_prompt
            out["nextStopHookActive"] = True
        return drop_undefined(out)
    if isinstance(effect, SessionStartEffect):
        if final is None:
            return {"kind": "none"}
        return drop_undefined(
            {
                "systemMessage": effect.system_message,
                "historyPart": effect.history_part if effect.history_part else UNDEFINED,
            }
        )
    if raw_input and event in ("BeforeModel", "AfterModel", "BeforeToolSelection"):
        # with a raw input the oracle reports executeHooks' own return value
        agg = result.aggregate
        return drop_undefined(
            {
                "success": agg.success,
                "finalOutput": final.as_json() if final else UNDEFINED,
                "allOutputs": agg.all_outputs,
                "errors": [{"error": e} for e in agg.errors],
                "totalDuration": round(sum(r.duration_ms for r in result.runs)),
            }
        )
    if isinstance(effect, ModelRequestEffect):
        if final is None or effect.failed:
            return {"blocked": False}
        if effect.action == "stop":
            return drop_undefined({"blocked": True, "stopped": True, "reason": effect.reason})
        if effect.action == "block":
            return drop_undefined(
                {
                    "blocked": True,
                    "reason": effect.reason,
                    "syntheticResponse": effect.synthetic_response,
                }
            )
        request = effect.request
        get = (
            (lambda k: request.get(k, UNDEFINED))
            if isinstance(request, dict)
            else (lambda k: UNDEFINED)
        )
        return drop_undefined(
            {
                "blocked": False,
                "modifiedModel": get("model"),
                "modifiedConfig": get("config"),
                "modifiedContents": get("contents"),
            }
        )
    if isinstance(effect, ModelResponseEffect):
        out = {"response": effect.response}
        if effect.action == "stop" and not effect.failed:
            out.update({"stopped": True, "reason": effect.reason})
        elif effect.action == "block" and not effect.failed:
            out.update({"blocked": True, "reason": effect.reason})
        return drop_undefined(out)
    if isinstance(effect, ToolSelectionEffect):
        if not effect.changed or effect.failed:
            return {}
        return drop_undefined({"toolConfig": effect.tool_config, "tools": effect.tools})
    return UNDEFINED


async def _run_case(case: dict[str, Any], tmp: str, inherit_env: bool) -> dict[str, JSON]:
    event = case.get("event")
    if not isinstance(event, str):
        raise CaseError("a run case needs an 'event' string")
    base = {**DEFAULT_BASE, **(case.get("base") or {})}
    env = controlled_environment(inherit_env)
    if isinstance(case.get("env_replace"), dict):
        env = {k: str(v) for k, v in case["env_replace"].items()}
    if isinstance(case.get("env"), dict):
        env.update({k: str(v) for k, v in case["env"].items()})
    sanitization = case.get("sanitization") or {}
    execution = ExecutionSettings(
        profile=Profile.GEMINI_CLI,
        base_env=env,
        redaction=RedactionConfig(
            enabled=bool(sanitization.get("enableEnvironmentVariableRedaction", False)),
            allowed=tuple(sanitization.get("allowedEnvironmentVariables") or ()),
            blocked=tuple(sanitization.get("blockedEnvironmentVariables") or ()),
        ),
        plans_dir=case.get("plans_dir", f"{tmp}/plans"),
        default_cwd=tmp,
    )
    system = HookSystem(
        _registry(case),
        profile=Profile.GEMINI_CLI,
        cwd=base["cwd"],
        session_id=base["session_id"],
        transcript_path=base["transcript_path"],
        execution=execution,
        clock=lambda: base["timestamp"],
    )
    system.session_id = base["session_id"]
    raw_input = isinstance(case.get("input"), dict)
    if raw_input:
        payload = copy.deepcopy(case["input"])
        context = (
            _context_from_case(case["context"])
            if "context" in case
            else _default_context(event, payload)
        )
        result = await system.fire_input(event, payload, context, args={})
    else:
        result = await system.fire(event, copy.deepcopy(case.get("args") or {}), validate=False)
    final = result.aggregate.final
    quirk = result.error is not None and not raw_input  # see docs/conformance.md
    aggregated: dict[str, JSON] = {
        "success": True if quirk else result.aggregate.success,
        "finalOutput": final.as_json() if final is not None else UNDEFINED,
        "finalOutputClass": final.output_class if final is not None else UNDEFINED,
        "allOutputs": [] if quirk else result.aggregate.all_outputs,
        "errors": [] if quirk else result.aggregate.errors,
    }
    plan = result.plan
    body = drop_undefined(
        {
            "plan": None
            if plan is None
            else {
                "sequential": plan.sequential,
                "hooks": [_hook_view(e.config) for e in plan.hooks],
            },
            "context": _context_json(result.context),
            "input": result.input,
            "stdinPerHook": [run.stdin for run in result.runs],
            "results": []
            if result.error and not result.aggregate.merge_error
            else [_result_json(run) for run in result.runs],
            "aggregated": aggregated,
            "derived": _derived(final, case) if final is not None else UNDEFINED,
            "effect": _effect_json(event, result.effect, result, raw_input),
        }
    )
    return cast(dict[str, JSON], body)


def _plan_case(case: dict[str, Any]) -> dict[str, JSON]:
    registry = _registry(case)
    event = case.get("event", "")
    payload = case.get("input") or case.get("args") or {}
    context = (
        _context_from_case(case["context"])
        if "context" in case
        else _default_context(event, payload)
    )
    plan = create_plan(registry, event, context)
    entries = [
        drop_undefined(
            {
                "config": _hook_view(e.config),
                "source": e.source.value,
                "eventName": e.event,
                "matcher": e.matcher if e.matcher is not None else UNDEFINED,
                "sequential": e.sequential if e.sequential is not None else UNDEFINED,
                "enabled": e.enabled,
            }
        )
        for e in registry.entries
    ]
    return {
        "registry": entries,
        "plan": None
        if plan is None
        else {"sequential": plan.sequential, "hooks": [_hook_view(e.config) for e in plan.hooks]},
    }


def run_case(
    case: dict[str, Any], *, inherit_env: bool = False, keep_tmp: bool = False
) -> dict[str, JSON]:
    """One case in, one output object (the oracle's keys) out."""
    tmp = os.path.realpath(tempfile.mkdtemp(prefix="hookwise-case-", dir=temp_root()))
    try:
        prepared = _materialize(case, tmp)
        op = prepared.get("op", "run")
        body: dict[str, JSON]
        try:
            if op == "translate":
                fn = TRANSLATIONS.get(str(prepared.get("fn")))
                if fn is None:
                    raise CaseError(f"unknown translate fn {prepared.get('fn')!r}")
                args = copy.deepcopy(prepared.get("args") or [])
                body = {"value": drop_undefined(fn(args if isinstance(args, list) else [args]))}
            elif op == "plan":
                body = _plan_case(prepared)
            elif op == "run":
                body = asyncio.run(_run_case(prepared, tmp, inherit_env))
            else:
                raise CaseError(f"unknown op {op!r}; expected run, plan or translate")
        except (CaseError, JSTypeError, KeyError, TypeError, ValueError) as exc:
            body = {"driverError": f"{type(exc).__name__}: {exc}"}
        out: dict[str, JSON] = {}
        if "id" in case:
            out["id"] = case["id"]
        if "event" in case:
            out["event"] = case["event"]
        out.update(body)
        out["implementation"] = {
            "package": "hookwise",
            "version": __version__,
            "profile": "gemini-cli",
        }
        escaped = js_json_stringify(tmp)[1:-1]
        result = js_json_parse(js_json_stringify(out).replace(escaped, TMP_TOKEN))
        assert isinstance(result, dict)
        return result
    finally:
        if not keep_tmp:
            shutil.rmtree(tmp, ignore_errors=True)


def read_cases(lines: Iterable[str]) -> Iterator[dict[str, Any]]:
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            case = js_json_parse(line)
        except ValueError as exc:
            raise CaseError(f"line {number}: not JSON: {exc}") from None
        if not isinstance(case, dict):
            raise CaseError(f"line {number}: a case must be a JSON object")
        yield case
