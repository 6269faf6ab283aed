"""The policy engine: one rule file, answered the way Gemini CLI, Claude Code and Codex obey.

Public API (imported lazily, so ``hookwise hook`` loads only what it uses)::

    compile_files([(scope, path), ...]) -> policy          # validate + merge scopes
    compile_sources([(scope, path, bytes | None), ...])   # the same from bytes
    scope_files(cwd, env) -> [(scope, path), ...]          # managed, user, project, local
    load_policy(cwd, env) -> Loaded                        # through the compiled cache
    decide(payload, policy, platform, env, now=...) -> Outcome   # detect/decode/evaluate/encode
    explain.explain(policy, payload, platform, env, now=...)     # every rule, and why
    build_payload(host, event, tool=..., tool_input=..., ...)    # a host's payload
    load_scenarios(path) / run_scenarios(file, policy)           # ``hookwise test``

Modules: ``schema`` (the format), ``loader`` (YAML -> rules, with positions), ``compiler``
(scopes), ``cache``, ``canonical`` (events, tools, arguments), ``shell``, ``globs``,
``condition_syntax`` and ``condition`` (``when``: parsed; evaluated), ``literals``,
``engine`` (matching, decision), ``adapters`` (one per host), ``pipeline``, ``hook`` (the
command), ``snapshot`` and ``os_lite`` (its cold start), ``audit``, ``explain``,
``scenarios``.
See docs/policy.md.
"""

# (no ``from __future__ import annotations``: the hook must not import __future__)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

_EXPORTS = {
    "compile_files": "hookwise.policy.rules.compiler",
    "compile_sources": "hookwise.policy.rules.compiler",
    "scope_files": "hookwise.policy.trust.scopes",
    "load_policy": "hookwise.policy.cache",
    "decide": "hookwise.policy.pipeline",
    "Outcome": "hookwise.policy.pipeline",
    "Decision": "hookwise.policy.rules.engine",
    "RetryState": "hookwise.policy.retry_state",
    "build_payload": "hookwise.policy.tools.payloads",
    "load_scenarios": "hookwise.policy.tools.scenarios",
    "run_scenarios": "hookwise.policy.tools.scenarios",
}

__all__ = [
    "Decision",
    "Outcome",
    "RetryState",
    "build_payload",
    "compile_files",
    "compile_sources",
    "decide",
    "load_policy",
    "load_scenarios",
    "run_scenarios",
    "scope_files",
]


def __getattr__(name: str) -> "Any":
    module_name = _EXPORTS.get(name)
    if module_name is None:
        raise AttributeError(f"module 'hookwise.policy' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module_name), name)
