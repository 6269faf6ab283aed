"""hookwise's own commands: turn hooks (``.agent/hook.toml``) and policy validators.

Turn hooks run as an argv in the workspace at every turn of a hookwise-driven agent, with
no trust step: repository content that runs without a prompt. A policy validator is a
``/bin/sh -c`` command of a ``validate`` rule; a project policy's validators apply only
once the user trusts that file's exact bytes (``hookwise policy trust``), so they are read
twice: as the compiler applies them now, and as they would apply in full.
"""

from __future__ import annotations

import shlex
from typing import Any

from hookwise.config.hook_toml import HookTomlError, hook_toml_path, load_hook_toml
from hookwise.policy.rules.compiler import compile_sources
from hookwise.policy.trust.scopes import read_sources, scope_sources
from hookwise.policy.trust.store import Trust
from hookwise.scan.context import ScanContext
from hookwise.scan.locate import text_line
from hookwise.scan.model import Gate, Runnable

__all__ = ["policy_validators", "turn_hooks"]


def turn_hooks(ctx: ScanContext) -> tuple[list[Runnable], list[str]]:
    path = hook_toml_path(ctx.project)
    try:
        config = load_hook_toml(ctx.project)
    except HookTomlError as exc:
        return [], [f"hookwise: {exc}"]
    if config is None:
        return [], []
    out: list[Runnable] = []
    for hook in (config.turn_start, config.turn_end):
        if hook is None:
            continue
        out.append(
            Runnable(
                host="hookwise",
                kind="turn-hook",
                name=hook.kind.title,
                scope="project",
                command=shlex.join(hook.argv),
                file=str(path),
                line=hook.line or 1,
                gate=Gate.NO_PROMPT,
                gate_detail="turn hooks run at every turn; no trust step",
                argv=hook.argv,
                cwd=str(ctx.project),
            )
        )
    return out, []


def _env(ctx: ScanContext) -> dict[str, str]:
    env = dict(ctx.env)
    env.setdefault("HOME", str(ctx.user_home))
    if ctx.home is not None:
        env["HOME"] = str(ctx.home)
        env.pop("XDG_CONFIG_HOME", None)
        env.pop("HOOKWISE_USER_POLICY", None)
    return env


def policy_validators(ctx: ScanContext) -> tuple[list[Runnable], list[str]]:
    env = _env(ctx)
    files = scope_sources(str(ctx.project), env)
    if ctx.hookwise_managed_policy is not None:
        files = [f for f in files if f[0] != "managed"]
        files.insert(0, ("managed", str(ctx.hookwise_managed_policy), "discovered"))
    try:
        sources = read_sources([(scope, path) for scope, path, _how in files])
    except OSError as exc:
        return [], [f"hookwise policy: {exc}"]
    if not any(data is not None for _s, _p, data in sources):
        return [], []
    from hookwise.policy.trust.scopes import trust_store_path

    store: bytes | None
    try:
        with open(trust_store_path(env), "rb") as handle:
            store = handle.read()
    except OSError:
        store = None
    now = compile_sources(sources, trust=Trust.from_store(store, env))
    full = compile_sources(sources, trust=Trust.everything_trusted())
    applied = {(r["file"], r["line"]) for r in now["rules"] if r.get("enabled", True)}
    out: list[Runnable] = []
    for rule in full["rules"]:
        validator: Any = rule.get("validator")
        if rule.get("action") != "validate" or not isinstance(validator, dict):
            continue
        command = validator.get("command")
        if not isinstance(command, str):
            continue
        scope = str(rule.get("scope", ""))
        where = (rule["file"], rule["line"])
        if scope in ("managed", "user"):
            gate, detail = Gate.USER, f"{scope} policy"
        elif where in applied:
            gate, detail = Gate.TRUSTED, "project policy trusted (hookwise policy trust)"
        else:
            gate, detail = Gate.AFTER_TRUST, "runs once `hookwise policy trust` accepts the file"
        if not rule.get("enabled", True):
            gate, detail = Gate.OFF, "rule disabled"
        out.append(
            Runnable(
                host="hookwise",
                kind="validator",
                name=str(rule["id"]),
                scope=scope,
                command=command,
                file=str(rule["file"]),
                line=text_line(str(rule["file"]), command) if command else int(rule["line"]),
                gate=gate,
                gate_detail=detail,
                cwd=str(ctx.project),
            )
        )
    return out, [
        f"hookwise policy: {e['file']}:{e['line']}: {e['message']}" for e in full["errors"]
    ]
