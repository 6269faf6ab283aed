"""Scenario files: a scripted session for `hookwise simulate` (format: docs/simulator.md).

A scenario is YAML. Parsing is strict: an unknown key, a missing one, a wrong type, a
duplicate key or a value outside its set is a `ScenarioError` naming the file, the line
and the key path (``steps[0].model[1].calls[0].args``). PyYAML's composer keeps every
node's position, so the checks walk nodes, not constructed values.
"""

from __future__ import annotations

import datetime
import difflib
import math
import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import yaml

from hookwise.protocol.claude import SETUP_TRIGGERS, STOP_FAILURE_ERRORS
from hookwise.protocol.hosts import hosts_with

__all__ = [
    "CHECKS",
    "ApiErrorSpec",
    "CommandSpec",
    "Expectation",
    "ReplySpec",
    "Scenario",
    "ScenarioError",
    "StepSpec",
    "ToolCallSpec",
    "load_scenario",
    "parse_scenario",
]

HOSTS = hosts_with("runtime")
# failed: an API error ended the turn (Claude Code fires StopFailure instead of Stop)
OUTCOMES = ("completed", "blocked", "stopped", "budget", "interrupted", "failed")
CONFIRM_TYPES = ("exec", "edit", "mcp", "info")
DEFAULT_MAX_MODEL_CALLS = 10
DEFAULT_MAX_TURNS = 50  # a TurnEnd hook that always answers must not loop forever


class ScenarioError(ValueError):
    """A scenario that cannot be played; names the file, the line and the key."""

    def __init__(self, path: Path | str, line: int | None, key: str | None, message: str) -> None:
        self.path = Path(path)
        self.line = line
        self.key = key
        self.message = message
        where = f"{path}:{line}" if line is not None else str(path)
        super().__init__(f"{where}: {key}: {message}" if key else f"{where}: {message}")


# --- the model -------------------------------------------------------------------------


@dataclass(frozen=True)
class ToolCallSpec:
    """A function call in a model reply, and what the tool returns when it runs."""

    name: str
    args: dict[str, Any]
    result: Any = None  # None: the scenario's `tools` default, else ""
    approve: bool = True  # the user's answer when the call needs confirmation
    confirm: str | None = None  # exec | edit | mcp | info: the call needs confirmation
    line: int | None = None


@dataclass(frozen=True)
class ApiErrorSpec:
    """A model request that fails: the turn ends on the error (Claude's StopFailure)."""

    error: str  # StopFailure's ``error``, one of STOP_FAILURE_ERRORS
    message: str = ""  # the API's message, after "API Error: "


@dataclass(frozen=True)
class CommandSpec:
    """A slash command: ``/name args`` typed as a step's ``user`` expands to ``prompt``."""

    prompt: str  # ``$ARGUMENTS`` in it becomes the text after the name
    source: str = "projectSettings"  # UserPromptExpansion's ``command_source``
    line: int | None = None


@dataclass(frozen=True)
class ReplySpec:
    """One model call's answer: text (one chunk, or streamed chunks) and function calls,
    or raw GenerateContentResponse chunks."""

    chunks: tuple[str, ...] = ()
    calls: tuple[ToolCallSpec, ...] = ()
    raw: tuple[dict[str, Any], ...] | None = None
    finish_reason: str = "STOP"
    line: int | None = None
    api_error: ApiErrorSpec | None = None  # the request fails instead of answering


@dataclass(frozen=True)
class StepSpec:
    """A user turn (``user``) or a standalone ``compress``."""

    kind: Literal["user", "compress"]
    line: int | None
    user: str | None = None
    model: tuple[ReplySpec, ...] = ()
    hook_turns: tuple[tuple[ReplySpec, ...], ...] = ()  # model replies of HookInput turns
    compress: str | None = None  # PreCompress trigger
    # the user interrupts the turn once its prompt is sent, before the model answers
    # (Codex fires Interrupt; the turn ends without Stop)
    interrupt: bool = False


@dataclass(frozen=True)
class Expectation:
    check: str
    value: Any
    options: dict[str, Any]
    line: int | None
    index: int

    def describe(self) -> str:
        extra = "".join(f", {k}={v!r}" for k, v in self.options.items())
        return f"{self.check}: {self.value!r}{extra}"


@dataclass(frozen=True)
class Scenario:
    path: Path
    workspace: Path
    name: str
    description: str = ""
    host: str | None = None
    profile: str | None = None
    settings: Literal["project", "none"] = "project"
    hooks: dict[str, Any] | None = None
    hooks_line: int | None = None
    model_name: str | None = None  # None: the host's usual model
    tools: dict[str, Any] = field(default_factory=dict)  # name -> default result
    start: str | None = "startup"
    end: str | None = "exit"
    setup: str | None = None  # Setup's trigger (``claude --init``): fired before the session
    commands: dict[str, CommandSpec] = field(default_factory=dict)  # slash commands by name
    default_reply: ReplySpec = ReplySpec()
    max_model_calls: int = DEFAULT_MAX_MODEL_CALLS
    max_turns: int = DEFAULT_MAX_TURNS
    steps: tuple[StepSpec, ...] = ()
    expect: tuple[Expectation, ...] = ()
    lines: dict[str, int] = field(default_factory=dict)  # top-level key -> line

    def error(self, key: str, message: str, line: int | None = None) -> ScenarioError:
        return ScenarioError(self.path, line or self.lines.get(key.partition(".")[0]), key, message)


# --- expectations: the check key, its value's type, the options it takes ---------------

_Kind = Literal["str", "int", "bool", "json", "event", "hook", "outcome", "guard", "delivery"]
_COMMAND_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_:.-]*")
_DELIVERIES = ("same_turn", "new_turn", "dropped_loop_guard", "dropped_session_stopped")

CHECKS: dict[str, tuple[_Kind, dict[str, _Kind]]] = {
    "fired": ("event", {"turn": "int", "tool": "str", "effect": "json", "times": "int"}),
    "not_fired": ("event", {"turn": "int", "tool": "str"}),
    "tool_ran": ("str", {"turn": "int", "args": "json", "times": "int"}),
    "tool_not_ran": ("str", {"turn": "int"}),
    "tool_blocked": ("str", {"turn": "int", "reason_contains": "str"}),
    "answer": ("str", {"turn": "int"}),
    "answer_contains": ("str", {"turn": "int"}),
    "transcript_contains": ("str", {}),
    "transcript_not_contains": ("str", {}),
    "hook_input": (
        "hook",
        {
            "turn": "int",
            "text": "str",
            "text_contains": "str",
            "delivery": "delivery",
            "times": "int",
        },
    ),
    "turns": ("int", {}),
    "loop_guard": ("guard", {}),
    "session_stopped": ("bool", {}),
    "history_contains": ("str", {}),
    "history_not_contains": ("str", {}),
    "request_contains": ("str", {"turn": "int"}),
    "request_not_contains": ("str", {"turn": "int"}),
    "model_calls": ("int", {"turn": "int"}),
    "outcome": ("outcome", {"turn": "int"}),
}


# --- walking nodes ---------------------------------------------------------------------


class _Walker:
    def __init__(self, path: Path, loader: yaml.SafeLoader) -> None:
        self.path = path
        self.loader = loader

    def fail(self, node: yaml.Node | None, key: str, message: str) -> ScenarioError:
        line = node.start_mark.line + 1 if node is not None else None
        return ScenarioError(self.path, line, key or None, message)

    def mapping(
        self,
        node: yaml.Node,
        key: str,
        allowed: Mapping[str, bool],
        *,
        what: str = "",
    ) -> dict[str, tuple[yaml.Node, yaml.Node]]:
        """``name -> (key node, value node)``; ``allowed`` maps each key to 'required'."""
        if not isinstance(node, yaml.MappingNode):
            raise self.fail(node, key, f"must be a mapping{what}, got {_node_kind(node)}")
        self.loader.flatten_mapping(node)
        out: dict[str, tuple[yaml.Node, yaml.Node]] = {}
        for key_node, value_node in node.value:
            name = self.loader.construct_object(key_node, deep=True)
            if not isinstance(name, str):
                raise self.fail(key_node, key, f"keys must be strings, got {name!r}")
            sub = f"{key}.{name}" if key else name
            if name in out:
                raise self.fail(key_node, sub, "duplicate key")
            if name not in allowed:
                close = difflib.get_close_matches(name, list(allowed), n=1, cutoff=0.6)
                hint = f"; did you mean {close[0]!r}?" if close else ""
                expected = ", ".join(allowed)
                raise self.fail(key_node, sub, f"unknown key (expected one of: {expected}){hint}")
            out[name] = (key_node, value_node)
        for name, required in allowed.items():
            if required and name not in out:
                raise self.fail(node, key or name, f"missing required key '{name}'")
        return out

    def sequence(self, node: yaml.Node, key: str) -> list[yaml.Node]:
        if not isinstance(node, yaml.SequenceNode):
            raise self.fail(node, key, f"must be a list, got {_node_kind(node)}")
        return list(node.value)

    def value(self, node: yaml.Node, key: str) -> Any:
        value = self.loader.construct_object(node, deep=True)
        problem = _json_problem(value)
        if problem is not None:
            raise self.fail(node, key, problem)
        return value

    def string(self, node: yaml.Node, key: str, *, empty: bool = True) -> str:
        value = self.value(node, key) if isinstance(node, yaml.ScalarNode) else None
        if not isinstance(value, str):
            shown = _node_kind(node) if not isinstance(node, yaml.ScalarNode) else _kind(value)
            raise self.fail(node, key, f"must be a string, got {shown}")
        if not empty and not value.strip():
            raise self.fail(node, key, "must not be empty")
        return value

    def optional_string(self, node: yaml.Node, key: str) -> str | None:
        if isinstance(node, yaml.ScalarNode) and self.value(node, key) is None:
            return None
        return self.string(node, key)

    def choice(self, node: yaml.Node, key: str, choices: tuple[str, ...]) -> str:
        value = self.string(node, key)
        if value not in choices:
            raise self.fail(node, key, f"must be one of {', '.join(choices)}, got {value!r}")
        return value

    def integer(self, node: yaml.Node, key: str, minimum: int = 0) -> int:
        value = self.value(node, key) if isinstance(node, yaml.ScalarNode) else None
        if type(value) is not int:
            shown = _node_kind(node) if not isinstance(node, yaml.ScalarNode) else _kind(value)
            raise self.fail(node, key, f"must be an integer, got {shown}")
        if value < minimum:
            raise self.fail(node, key, f"must be at least {minimum}, got {value}")
        return value

    def boolean(self, node: yaml.Node, key: str) -> bool:
        value = self.value(node, key) if isinstance(node, yaml.ScalarNode) else None
        if not isinstance(value, bool):
            shown = _node_kind(node) if not isinstance(node, yaml.ScalarNode) else _kind(value)
            raise self.fail(node, key, f"must be true or false, got {shown}")
        return value

    def obj(self, node: yaml.Node, key: str) -> dict[str, Any]:
        if not isinstance(node, yaml.MappingNode):
            raise self.fail(node, key, f"must be a mapping, got {_node_kind(node)}")
        value = self.value(node, key)
        assert isinstance(value, dict)
        return value


def _key_names(walker: _Walker, node: yaml.Node) -> list[str]:
    """The string keys of a mapping node, in order (others are reported by `mapping`)."""
    if not isinstance(node, yaml.MappingNode):
        return []
    names = []
    for key_node, _ in node.value:
        if isinstance(key_node, yaml.ScalarNode):
            name = walker.loader.construct_object(key_node)
            if isinstance(name, str):
                names.append(name)
    return names


def _node_kind(node: yaml.Node) -> str:
    if isinstance(node, yaml.MappingNode):
        return "a mapping"
    if isinstance(node, yaml.SequenceNode):
        return "a list"
    return "a scalar"


def _kind(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    return f"a {type(value).__name__}"


def _json_problem(value: object) -> str | None:
    """Why a constructed YAML value is not JSON (dates, binary, non-string keys, NaN)."""
    if value is None or isinstance(value, bool | int | str):
        return None
    if isinstance(value, float):
        return None if math.isfinite(value) else "numbers must be finite (no .nan or .inf)"
    if isinstance(value, list):
        for item in value:
            problem = _json_problem(item)
            if problem is not None:
                return problem
        return None
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                return f"mapping keys must be strings, got {key!r} (quote it)"
            problem = _json_problem(item)
            if problem is not None:
                return problem
        return None
    if isinstance(value, datetime.date):
        return f"{value.isoformat()} reads as a date; quote it to get a string"
    return f"{type(value).__name__} values are not allowed (JSON values only)"


# --- the scenario ----------------------------------------------------------------------

_TOP: dict[str, bool] = {
    "name": False,
    "description": False,
    "host": False,
    "profile": False,
    "project": False,
    "workspace": False,  # the former name of ``project``, still read
    "settings": False,
    "hooks": False,
    "model_name": False,
    "tools": False,
    "commands": False,
    "session": False,
    "default_reply": False,
    "max_model_calls": False,
    "max_turns": False,
    "steps": True,
    "expect": False,
}


def load_scenario(path: str | os.PathLike[str]) -> Scenario:
    where = Path(path)
    try:
        text = where.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ScenarioError(where, None, None, "no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise ScenarioError(where, None, None, f"cannot read: {reason}") from None
    return parse_scenario(text, where)


def parse_scenario(text: str, path: Path) -> Scenario:
    """Parse and validate a scenario's YAML; relative paths resolve against ``path``'s dir."""
    try:
        loader = yaml.SafeLoader(text)
    except yaml.reader.ReaderError as exc:
        raise ScenarioError(
            path,
            text[: exc.position].count("\n") + 1,
            None,
            f"invalid YAML: character {exc.character!r} is not allowed",
        ) from None
    try:
        try:
            root = loader.get_single_node()
        except yaml.MarkedYAMLError as exc:
            mark = exc.problem_mark or exc.context_mark
            problem = exc.problem or exc.context or "invalid YAML"
            raise ScenarioError(
                path, mark.line + 1 if mark is not None else None, None, f"invalid YAML: {problem}"
            ) from None
        except yaml.YAMLError as exc:
            raise ScenarioError(path, None, None, f"invalid YAML: {exc}") from None
        if root is None:
            raise ScenarioError(path, None, None, "empty scenario: it needs at least 'steps'")
        try:
            return _Parser(_Walker(path, loader), path).scenario(root)
        except yaml.YAMLError as exc:  # a constructor error (bad !!binary, unknown tag...)
            mark = getattr(exc, "problem_mark", None)
            where = mark.line + 1 if mark is not None else None
            raise ScenarioError(path, where, None, f"invalid YAML value: {exc}") from None
    finally:
        loader.dispose()


class _Parser:
    def __init__(self, walker: _Walker, path: Path) -> None:
        self.w = walker
        self.path = path

    def scenario(self, root: yaml.Node) -> Scenario:
        w = self.w
        top = w.mapping(root, "", _TOP, what=" (the scenario)")
        lines = {name: k.start_mark.line + 1 for name, (k, _) in top.items()}
        values: dict[str, Any] = {}

        def get(name: str, read: Callable[[yaml.Node, str], Any]) -> None:
            if name in top:
                values[name] = read(top[name][1], name)

        get("name", w.string)
        get("description", w.string)
        get("host", lambda n, k: w.choice(n, k, HOSTS))
        get("profile", lambda n, k: w.string(n, k, empty=False))
        if "project" in top and "workspace" in top:
            raise w.fail(
                top["workspace"][0],
                "workspace",
                "is the former name of 'project'; give only one of them",
            )
        for key in ("project", "workspace"):
            get(key, lambda n, k: w.string(n, k, empty=False))
        get("settings", lambda n, k: w.choice(n, k, ("project", "none")))
        get("hooks", w.obj)
        get("model_name", lambda n, k: w.string(n, k, empty=False))
        get("tools", self.tools)
        get("commands", self.commands)
        get("default_reply", self.reply)
        get("max_model_calls", lambda n, k: w.integer(n, k, 1))
        get("max_turns", lambda n, k: w.integer(n, k, 1))
        start: str | None = "startup"
        end: str | None = "exit"
        setup: str | None = None
        if "session" in top:
            allowed = {"start": False, "end": False, "setup": False}
            session = w.mapping(top["session"][1], "session", allowed)
            if "setup" in session:
                setup = w.choice(session["setup"][1], "session.setup", SETUP_TRIGGERS)
            if "start" in session:
                start = w.optional_string(session["start"][1], "session.start")
            if "end" in session:
                end = w.optional_string(session["end"][1], "session.end")
        steps = tuple(
            self.step(node, f"steps[{i}]")
            for i, node in enumerate(w.sequence(top["steps"][1], "steps"))
        )
        if not steps:
            raise w.fail(top["steps"][1], "steps", "needs at least one step")
        expect: tuple[Expectation, ...] = ()
        if "expect" in top:
            expect = tuple(
                self.expectation(node, i)
                for i, node in enumerate(w.sequence(top["expect"][1], "expect"))
            )
        workspace = self.path.parent / values.get("project", values.get("workspace", "."))
        return Scenario(
            path=self.path,
            workspace=workspace,
            name=values.get("name", self.path.stem),
            description=values.get("description", ""),
            host=values.get("host"),
            profile=values.get("profile"),
            settings=values.get("settings", "project"),
            hooks=values.get("hooks"),
            hooks_line=lines.get("hooks"),
            model_name=values.get("model_name"),
            tools=values.get("tools", {}),
            start=start,
            end=end,
            setup=setup,
            commands=values.get("commands", {}),
            default_reply=values.get("default_reply", ReplySpec()),
            max_model_calls=values.get("max_model_calls", DEFAULT_MAX_MODEL_CALLS),
            max_turns=values.get("max_turns", DEFAULT_MAX_TURNS),
            steps=steps,
            expect=expect,
            lines=lines,
        )

    def tools(self, node: yaml.Node, key: str) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if not isinstance(node, yaml.MappingNode):
            raise self.w.fail(node, key, f"must be a mapping of tool names, got {_node_kind(node)}")
        for key_node, value_node in node.value:
            name = self.w.string(key_node, key, empty=False)
            sub = f"{key}.{name}"
            if name in out:
                raise self.w.fail(key_node, sub, "duplicate key")
            spec = self.w.mapping(value_node, sub, {"result": False})
            out[name] = self.result(spec["result"][1], f"{sub}.result") if "result" in spec else ""
        return out

    def commands(self, node: yaml.Node, key: str) -> dict[str, CommandSpec]:
        """``name -> {prompt, source}``; a name as typed after the slash."""
        out: dict[str, CommandSpec] = {}
        if not isinstance(node, yaml.MappingNode):
            raise self.w.fail(
                node, key, f"must be a mapping of command names, got {_node_kind(node)}"
            )
        for key_node, value_node in node.value:
            name = self.w.string(key_node, key, empty=False)
            sub = f"{key}.{name}"
            if name in out:
                raise self.w.fail(key_node, sub, "duplicate key")
            if not _COMMAND_NAME.fullmatch(name):
                raise self.w.fail(
                    key_node,
                    sub,
                    "a command name is letters, digits, '-', '_', ':' or '.', without the '/'",
                )
            spec = self.w.mapping(value_node, sub, {"prompt": True, "source": False})
            prompt = self.w.string(spec["prompt"][1], f"{sub}.prompt", empty=False)
            source = "projectSettings"
            if "source" in spec:
                source = self.w.string(spec["source"][1], f"{sub}.source", empty=False)
            out[name] = CommandSpec(prompt, source, key_node.start_mark.line + 1)
        return out

    def api_error(self, node: yaml.Node, key: str) -> ApiErrorSpec:
        fields = self.w.mapping(node, key, {"error": True, "message": False})
        error = self.w.choice(fields["error"][1], f"{key}.error", STOP_FAILURE_ERRORS)
        message = ""
        if "message" in fields:
            message = self.w.string(fields["message"][1], f"{key}.message")
        return ApiErrorSpec(error, message)

    def result(self, node: yaml.Node, key: str) -> Any:
        if isinstance(node, yaml.MappingNode):
            allowed = {"llmContent": False, "returnDisplay": False, "error": False}
            fields = self.w.mapping(node, key, allowed)
            if "llmContent" not in fields and "error" not in fields:
                raise self.w.fail(node, key, "needs 'llmContent' or 'error'")
            return self.w.value(node, key)
        return self.w.string(node, key)

    def reply(self, node: yaml.Node, key: str) -> ReplySpec:
        w = self.w
        allowed = {
            "text": False,
            "chunks": False,
            "calls": False,
            "raw": False,
            "finish_reason": False,
            "api_error": False,
        }
        fields = w.mapping(node, key, allowed, what=" (a model reply)")
        line = node.start_mark.line + 1
        if not fields:
            raise w.fail(node, key, "a reply needs 'text', 'chunks', 'calls', 'raw' or 'api_error'")
        if "api_error" in fields:
            others = [name for name in fields if name != "api_error"]
            if others:
                raise w.fail(
                    fields[others[0]][0],
                    f"{key}.{others[0]}",
                    "a reply with 'api_error' has nothing else (the request failed)",
                )
            failure = self.api_error(fields["api_error"][1], f"{key}.api_error")
            return ReplySpec(line=line, api_error=failure)
        if "text" in fields and "chunks" in fields:
            raise w.fail(fields["chunks"][0], f"{key}.chunks", "give 'text' or 'chunks', not both")
        finish = "STOP"
        if "finish_reason" in fields:
            finish = w.string(fields["finish_reason"][1], f"{key}.finish_reason", empty=False)
        if "raw" in fields:
            others = [name for name in fields if name not in ("raw", "finish_reason")]
            if others:
                raise w.fail(fields["raw"][0], f"{key}.raw", f"'raw' replaces {others[0]!r}")
            items = w.sequence(fields["raw"][1], f"{key}.raw")
            if not items:
                raise w.fail(fields["raw"][1], f"{key}.raw", "needs at least one chunk")
            raw = tuple(w.obj(item, f"{key}.raw[{i}]") for i, item in enumerate(items))
            return ReplySpec(raw=raw, finish_reason=finish, line=line)
        chunks: tuple[str, ...] = ()
        if "text" in fields:
            chunks = (w.string(fields["text"][1], f"{key}.text"),)
        elif "chunks" in fields:
            items = w.sequence(fields["chunks"][1], f"{key}.chunks")
            if not items:
                raise w.fail(fields["chunks"][1], f"{key}.chunks", "needs at least one chunk")
            chunks = tuple(w.string(item, f"{key}.chunks[{i}]") for i, item in enumerate(items))
        calls: tuple[ToolCallSpec, ...] = ()
        if "calls" in fields:
            items = w.sequence(fields["calls"][1], f"{key}.calls")
            calls = tuple(self.call(item, f"{key}.calls[{i}]") for i, item in enumerate(items))
        return ReplySpec(chunks=chunks, calls=calls, finish_reason=finish, line=line)

    def call(self, node: yaml.Node, key: str) -> ToolCallSpec:
        w = self.w
        allowed = {"name": True, "args": False, "result": False, "approve": False, "confirm": False}
        fields = w.mapping(node, key, allowed, what=" (a function call)")
        name = w.string(fields["name"][1], f"{key}.name", empty=False)
        args = w.obj(fields["args"][1], f"{key}.args") if "args" in fields else {}
        result = self.result(fields["result"][1], f"{key}.result") if "result" in fields else None
        approve = w.boolean(fields["approve"][1], f"{key}.approve") if "approve" in fields else True
        confirm = None
        if "confirm" in fields:
            confirm = w.choice(fields["confirm"][1], f"{key}.confirm", CONFIRM_TYPES)
        return ToolCallSpec(name, args, result, approve, confirm, node.start_mark.line + 1)

    def replies(self, node: yaml.Node, key: str) -> tuple[ReplySpec, ...]:
        return tuple(
            self.reply(item, f"{key}[{i}]") for i, item in enumerate(self.w.sequence(node, key))
        )

    def step(self, node: yaml.Node, key: str) -> StepSpec:
        w = self.w
        line = node.start_mark.line + 1
        names = _key_names(w, node)
        if "compress" in names and "user" not in names:
            fields = w.mapping(node, key, {"compress": True}, what=" (a step)")
            trigger = w.string(fields["compress"][1], f"{key}.compress", empty=False)
            return StepSpec("compress", line, compress=trigger)
        allowed = {
            "user": True,
            "model": False,
            "hook_turns": False,
            "compress": False,
            "interrupt": False,
        }
        fields = w.mapping(node, key, allowed, what=" (a step: 'user' or 'compress')")
        user = w.string(fields["user"][1], f"{key}.user")
        model = self.replies(fields["model"][1], f"{key}.model") if "model" in fields else ()
        hook_turns: list[tuple[ReplySpec, ...]] = []
        if "hook_turns" in fields:
            for i, item in enumerate(w.sequence(fields["hook_turns"][1], f"{key}.hook_turns")):
                sub = f"{key}.hook_turns[{i}]"
                turn = w.mapping(item, sub, {"model": True})
                hook_turns.append(self.replies(turn["model"][1], f"{sub}.model"))
        compress = None
        if "compress" in fields:
            compress = w.string(fields["compress"][1], f"{key}.compress", empty=False)
        interrupt = "interrupt" in fields and w.boolean(fields["interrupt"][1], f"{key}.interrupt")
        return StepSpec("user", line, user, model, tuple(hook_turns), compress, interrupt)

    def expectation(self, node: yaml.Node, index: int) -> Expectation:
        w = self.w
        key = f"expect[{index}]"
        if not isinstance(node, yaml.MappingNode):
            raise w.fail(node, key, f"must be a mapping (one check), got {_node_kind(node)}")
        checks = [name for name in _key_names(w, node) if name in CHECKS]
        if len(checks) != 1:
            found = ", ".join(map(str, checks)) if checks else "none"
            raise w.fail(
                node,
                key,
                f"needs exactly one check (found {found}); checks: {', '.join(CHECKS)}",
            )
        check = checks[0]
        kind, options = CHECKS[check]
        fields = w.mapping(node, key, {check: True, **dict.fromkeys(options, False)})
        value = self.typed(fields[check][1], f"{key}.{check}", kind)
        parsed = {
            name: self.typed(fields[name][1], f"{key}.{name}", options[name])
            for name in fields
            if name != check
        }
        if "turn" in parsed and parsed["turn"] < 1:
            raise w.fail(fields["turn"][1], f"{key}.turn", "turns are numbered from 1")
        return Expectation(check, value, parsed, node.start_mark.line + 1, index)

    def typed(self, node: yaml.Node, key: str, kind: _Kind) -> Any:
        w = self.w
        if kind == "str":
            return w.string(node, key)
        if kind == "int":
            return w.integer(node, key)
        if kind == "bool":
            return w.boolean(node, key)
        if kind == "json":
            return w.value(node, key)
        if kind == "event":
            return w.string(node, key, empty=False)
        if kind == "hook":
            return w.choice(node, key, ("TurnStart", "TurnEnd"))
        if kind == "outcome":
            return w.choice(node, key, OUTCOMES)
        if kind == "guard":
            return w.choice(node, key, ("tripped", "not_tripped"))
        return w.choice(node, key, _DELIVERIES)
