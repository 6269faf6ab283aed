"""smolagents bridge: every tool of an agent behind hookwise's gate.

smolagents has no gate before a tool runs (``step_callbacks`` fire after a step, when the tool
already ran), so :func:`guard` replaces each tool of the agent with a :class:`GatedTool` that
asks the :class:`~hookwise.integrations.gate.Gate` first and calls the real tool only when it is
allowed:

* deny: the tool's ``forward`` never runs. A ``ToolCallingAgent`` gets the reason as the tool's
  observation; in a ``CodeAgent`` the call raises :class:`ToolCallDeniedError`, which stops the code
  snippet there (the rest of the snippet must not go on as if the call had worked) and the model
  reads the reason in the execution error.
* rewrite: the real tool runs with the rewritten arguments.
* ask: smolagents has no approval mechanism, so :meth:`Gate.resolve_ask` decides (the approval
  relay; without one, the policy's ``ask_fallback``, deny by default).
* after the tool: deny replaces the result with the reason.
* context (from any verdict) is added to the step's observations by a step callback once the
  step ends, so the tool's return value keeps its type (code may compute with it).
* ``stop`` ends the run with :class:`~hookwise.integrations.errors.RunStoppedError` at the end of
  the step; the prompt (``agent.run(task)``) is checked first (deny raises
  :class:`~hookwise.integrations.errors.PromptBlockedError`); the final answer goes through
  ``final_answer_checks``, so a deny sends the model back to work with the reason.

A ``CodeAgent`` runs model-written Python that calls the tools as functions (also positionally,
also ``tool.forward(...)`` directly): each call goes through the same gate, and the gated tool
holds no attribute through which the snippet could reach the real tool or the gate. Each
snippet is also gated as a call of the tool ``python_interpreter`` with ``{"code": ...}``
(the name smolagents records for it), so rules can match the code itself. Remote executors
(docker, e2b, modal...) run tools in another process where this gate does not exist; guarding
such an agent raises ``ValueError`` rather than leave its tools ungated.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable
from typing import Any

from hookwise.integrations import require

require("smolagents", "smolagents")

from smolagents import CodeAgent, Tool  # noqa: E402 - after the check that names the extra
from smolagents.agents import MultiStepAgent  # noqa: E402
from smolagents.memory import ActionStep, MemoryStep  # noqa: E402

from hookwise.integrations.errors import PromptBlockedError, RunStoppedError  # noqa: E402
from hookwise.integrations.gate import Gate  # noqa: E402
from hookwise.integrations.verdict import Verdict  # noqa: E402

__all__ = [
    "CODE_TOOL",
    "FRAMEWORK",
    "GatedTool",
    "PromptBlockedError",
    "RunStoppedError",
    "ToolCallDeniedError",
    "guard",
]

FRAMEWORK = "smolagents"
CODE_TOOL = "python_interpreter"  # the name smolagents gives a CodeAgent's code action
FINAL_ANSWER = "final_answer"


class ToolCallDeniedError(PermissionError):
    """A tool call hookwise denied, raised inside a ``CodeAgent``'s code (the model reads it)."""


class _Guard:
    """The state one guarded agent shares between its gated tools and its callbacks.

    Never reachable from the agent's code: the gated tools find it in a module-level table.
    """

    def __init__(self, gate: Gate, *, raise_on_deny: bool) -> None:
        self.gate = gate
        self.raise_on_deny = raise_on_deny
        self._lock = threading.Lock()
        self._notes: list[str] = []
        self._stop: Verdict | None = None

    # -------------------------------------------------------------- deferred effects
    def note(self, verdict: Verdict) -> None:
        with self._lock:
            if verdict.context:
                self._notes.append(verdict.context)
            if verdict.stop is not None and self._stop is None:
                self._stop = verdict

    def end_of_step(self, step: MemoryStep) -> None:
        """Step callback: context into the observations the model reads next; stop."""
        with self._lock:
            notes, self._notes = self._notes, []
            stop, self._stop = self._stop, None
        if notes and isinstance(step, ActionStep):
            text = "\n".join(notes)
            step.observations = f"{step.observations}\n{text}" if step.observations else text
        if stop is not None:
            raise RunStoppedError(stop.stop or stop.reason, stop)

    # -------------------------------------------------------------- one call
    def refuse(self, verdict: Verdict, fallback: str) -> str:
        reason = verdict.reason or fallback
        if self.raise_on_deny:
            raise ToolCallDeniedError(reason)
        return reason

    def call(self, name: str, real: Tool, arguments: dict[str, Any]) -> Any:
        gate = self.gate
        verdict = gate.before_tool(name, arguments)
        if verdict.action == "ask":
            verdict = gate.resolve_ask(verdict, name, arguments)
        self.note(verdict)
        if verdict.action == "deny":
            return self.refuse(verdict, f"hookwise denied the call to {name}")
        run_with = verdict.args if verdict.args is not None else arguments
        result = real(**run_with)
        after = gate.after_tool(name, run_with, result)
        self.note(after)
        if after.action == "deny":
            return self.refuse(after, f"hookwise withheld the result of {name}")
        return result


# gated tool -> (its tool name, the real tool, the guard); weak, so a dropped agent goes
_TARGETS: weakref.WeakKeyDictionary[GatedTool, tuple[str, Tool, _Guard]] = (
    weakref.WeakKeyDictionary()
)


def _named_arguments(real: Tool, args: tuple[Any, ...], kwargs: dict[str, Any]) -> dict[str, Any]:
    """The call's arguments by name, as the gate and the real tool take them.

    Tool calls come as keywords; a CodeAgent's code may pass them positionally (in the order
    of the tool's ``inputs``) or as one dict, as ``Tool.__call__`` accepts.
    """
    names = list(real.inputs)
    one = args[0] if len(args) == 1 and not kwargs else None
    if isinstance(one, dict) and all(key in real.inputs for key in one):
        return dict(one)
    if len(args) > len(names):
        raise TypeError(
            f"{real.name}() takes {len(names)} argument(s) ({', '.join(names)}); "
            f"got {len(args)} positional"
        )
    named = dict(zip(names, args, strict=False))
    for key, value in kwargs.items():
        if key in named:
            raise TypeError(f"{real.name}() got multiple values for argument {key!r}")
        named[key] = value
    return named


class GatedTool(Tool):  # type: ignore[misc]  # smolagents is untyped
    """A tool that asks hookwise before its real tool runs (see the module docstring)."""

    skip_forward_signature_validation = True

    def __init__(self, real: Tool, guard: _Guard) -> None:
        super().__init__()
        self.name = real.name
        self.description = real.description
        self.inputs = dict(real.inputs)
        self.output_type = real.output_type
        self.output_schema = getattr(real, "output_schema", None)
        _TARGETS[self] = (real.name, real, guard)

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        target = _TARGETS.get(self)
        if target is None:  # not made by guard(): nothing to call, and never ungated
            raise ToolCallDeniedError("hookwise: this gated tool has no guard")
        name, real, guard = target
        return guard.call(name, real, _named_arguments(real, args, kwargs))


class _GatedExecutor:
    """A CodeAgent's Python executor whose snippets are gated as ``python_interpreter``."""

    def __init__(self, executor: Any, guard: _Guard) -> None:
        object.__setattr__(self, "_executor", executor)
        object.__setattr__(self, "_guard", guard)

    def __call__(self, code_action: str) -> Any:
        guard: _Guard = object.__getattribute__(self, "_guard")
        gate = guard.gate
        verdict = gate.before_tool(CODE_TOOL, {"code": code_action})
        if verdict.action == "ask":
            verdict = gate.resolve_ask(verdict, CODE_TOOL, {"code": code_action})
        guard.note(verdict)
        if verdict.action == "deny":
            raise ToolCallDeniedError(verdict.reason or "hookwise denied this code")
        code = code_action
        if verdict.args is not None and isinstance(verdict.args.get("code"), str):
            code = verdict.args["code"]
        return object.__getattribute__(self, "_executor")(code)

    def __getattr__(self, name: str) -> Any:
        return getattr(object.__getattribute__(self, "_executor"), name)

    def __setattr__(self, name: str, value: Any) -> None:
        setattr(object.__getattribute__(self, "_executor"), name, value)


def _final_answer_check(guard: _Guard) -> Callable[..., bool]:
    def hookwise_end(final_answer: Any, memory: Any = None, agent: Any = None) -> bool:
        text = final_answer if isinstance(final_answer, str) else str(final_answer)
        verdict = guard.gate.end(text)
        if verdict.action == "deny":
            # smolagents shows the model "Check hookwise_end failed with error: <reason>"
            raise ValueError(verdict.reason or "hookwise: do not stop yet")
        return True

    return hookwise_end


def guard(
    agent: MultiStepAgent, gate: Gate | None = None, /, **gate_options: Any
) -> MultiStepAgent:
    """Put every tool of ``agent`` (and its prompt, code and final answer) behind hookwise.

    ``guard(agent, cwd=...)`` builds a :class:`Gate` for ``smolagents`` named after the agent
    (its ``name``; the keyword arguments are the Gate's: ``agent``, ``cwd``, ``policy``,
    ``hooks_from``, ``tool_names``...); ``guard(agent, gate)`` uses a given one. Returns the
    agent, changed in place. Guarding twice is an error (the tools would be gated twice).
    """
    if not isinstance(agent, MultiStepAgent):
        raise TypeError(f"guard() takes a smolagents agent; got {type(agent).__name__}")
    if gate is not None and gate_options:
        raise TypeError("guard(): give a Gate or the Gate's options, not both")
    if getattr(agent, "_hookwise_guarded", False):
        raise ValueError("guard(): this agent is already guarded by hookwise")
    is_code = isinstance(agent, CodeAgent)
    if is_code and getattr(agent, "executor_type", "local") != "local":
        raise ValueError(
            f"guard(): a CodeAgent with the {agent.executor_type!r} executor runs its tools in "
            "another process, where hookwise's gate cannot hold; use executor_type='local'"
        )
    if gate is None:
        gate_options.setdefault("agent", agent.name or "")
    the_gate = gate if gate is not None else Gate(FRAMEWORK, **gate_options)
    the_guard = _Guard(the_gate, raise_on_deny=is_code)
    for name, tool in list(agent.tools.items()):
        if name == FINAL_ANSWER or isinstance(tool, GatedTool):
            continue
        agent.tools[name] = GatedTool(tool, the_guard)
    if is_code:
        agent.python_executor = _GatedExecutor(agent.python_executor, the_guard)
        the_gate.accounted_tools |= {CODE_TOOL}  # (its tools are gated one by one above)
    agent.step_callbacks.register(ActionStep, the_guard.end_of_step)
    agent.final_answer_checks = [*agent.final_answer_checks, _final_answer_check(the_guard)]
    run = agent.run

    def run_gated(task: str, *args: Any, **kwargs: Any) -> Any:
        verdict = the_gate.prompt(task)
        if verdict.stop is not None:
            raise RunStoppedError(verdict.stop, verdict)
        if verdict.action == "deny":
            raise PromptBlockedError(verdict.reason, verdict)
        if verdict.context:
            task = f"{task}\n\n{verdict.context}"
        return run(task, *args, **kwargs)

    agent.run = run_gated
    agent._hookwise_guarded = True
    agent._hookwise_gate = the_gate
    return agent


def gate_of(agent: MultiStepAgent) -> Gate:
    """The Gate a guarded agent uses."""
    found = getattr(agent, "_hookwise_gate", None)
    if not isinstance(found, Gate):
        raise ValueError("gate_of(): this agent is not guarded by hookwise")
    return found
