"""Reading one policy file: YAML nodes -> validated, compiled rules, or errors with positions.

Validation is strict: an unknown key is an error (with a "did you mean"), so are a wrong
type, an invalid regex, glob or condition, an action that means nothing on the rule's
events, and a blocking rule that would apply to every tool call. Every problem carries
``file:line:column`` from PyYAML's node marks; a problem inside a string (a regex, a glob, a
condition) points at the character.

The output is plain data (dicts, lists, tuples, strings, numbers) that the compiler merges
and marshals into the policy cache; the hot path never imports this module.
"""

from __future__ import annotations

import contextlib
import difflib
import os
import re
from dataclasses import dataclass, field
from typing import Any

import yaml

from hookwise.policy import canonical
from hookwise.policy.rules import actions, packs, schema
from hookwise.policy.rules.condition_syntax import ConditionError, parse_condition
from hookwise.policy.rules.glob_syntax import GlobError, compile_glob, glob_has_slash, is_literal
from hookwise.policy.rules.literals import required_literal
from hookwise.shell.commands.operands import NON_READERS
from hookwise.shell.parser import split_command

_LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
# (reading, validating and compiling every file of one call share one deadline: budget.py)


_ID_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")
_STR = "tag:yaml.org,2002:str"
_INT = "tag:yaml.org,2002:int"
_FLOAT = "tag:yaml.org,2002:float"
_BOOL = "tag:yaml.org,2002:bool"
_NULL = "tag:yaml.org,2002:null"
# What a pack rule may do: restrictive only, so extending a pack never needs trust.
PACK_ACTIONS = actions.PACK


@dataclass(frozen=True)
class Problem:
    """An error or warning at a place in a policy file."""

    file: str
    line: int
    column: int
    message: str
    severity: str = "error"

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}: {self.severity}: {self.message}"

    def as_dict(self) -> dict[str, Any]:
        return {
            "file": self.file,
            "line": self.line,
            "column": self.column,
            "message": self.message,
            "severity": self.severity,
        }


@dataclass
class PolicyFile:
    """One file's compiled content and its problems."""

    path: str
    scope: str
    rules: list[dict[str, Any]] = field(default_factory=list)
    overrides: list[dict[str, Any]] = field(default_factory=list)
    settings: dict[str, tuple[Any, tuple[int, int]]] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)
    # set by the compiler: whether the file applies in full, why, and what was left out
    trusted: bool = True
    trust_why: str = ""
    ignored: list[str] = field(default_factory=list)

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if p.severity == "error"]


def did_you_mean(word: str, options: list[str] | tuple[str, ...]) -> str:
    close = difflib.get_close_matches(word, list(options), n=1, cutoff=0.6)
    return f"; did you mean {close[0]!r}?" if close else ""


def _misspelled(node: Any, key: str, allowed: list[str] | tuple[str, ...]) -> bool:
    """Whether a mapping has an unknown key reported as a misspelling of ``key`` (``actoin``).

    That report already says "did you mean 'action'"; a second one for the missing key would
    count one typo twice.
    """
    if not isinstance(node, yaml.MappingNode):
        return False
    for key_node, _ in node.value:
        word = key_node.value if isinstance(key_node, yaml.ScalarNode) else None
        if (
            isinstance(word, str)
            and word not in allowed
            and difflib.get_close_matches(word, list(allowed), n=1, cutoff=0.6) == [key]
        ):
            return True
    return False


class _RejectError(Exception):
    """Internal: the current value is invalid (already reported)."""


class _Reader:
    def __init__(self, path: str, scope: str, text: str, host_events: dict[str, Any]) -> None:
        self.path = path
        self.scope = scope
        self.text = text
        self.result = PolicyFile(path, scope)
        self.host_events = host_events
        self.constructor = yaml.constructor.SafeConstructor()

    # -- reporting ------------------------------------------------------------------

    def problem(
        self, node: Any, message: str, offset: int | None = None, warn: bool = False
    ) -> None:
        line, column = self.position(node, offset)
        self.result.problems.append(
            Problem(self.path, line, column, message, "warning" if warn else "error")
        )

    def fail(self, node: Any, message: str, offset: int | None = None) -> _RejectError:
        self.problem(node, message, offset)
        return _RejectError()

    def position(self, node: Any, offset: int | None = None) -> tuple[int, int]:
        if node is None:
            return 1, 1
        mark = node.start_mark
        line, column = mark.line + 1, mark.column + 1
        if offset is None or not isinstance(node, yaml.ScalarNode):
            return line, column
        # Point into the string where the value is written on one line.
        end = node.end_mark
        if node.style in (None, "", "'", '"') and end.line == mark.line:
            quote = 1 if node.style in ("'", '"') else 0
            return line, column + quote + offset
        if node.style in ("|", ">"):
            return self.block_position(node, offset)
        return line, column

    def block_position(self, node: Any, offset: int) -> tuple[int, int]:
        """Where the character at ``offset`` of a block scalar's value is in the file.

        Each content line contributes its text and one separator (a newline in ``|``, a
        space in ``>``), which is how a single folded paragraph reads.
        """
        source = self.text.splitlines()
        first = node.start_mark.line + 1
        last = min(node.end_mark.line, len(source))
        remaining = offset
        for index in range(first, last):
            raw = source[index]
            stripped = raw.lstrip(" ")
            indent = len(raw) - len(stripped)
            if remaining <= len(stripped):
                return index + 1, indent + remaining + 1
            remaining -= len(stripped) + 1
        return node.start_mark.line + 1, node.start_mark.column + 1

    # -- node access ------------------------------------------------------------------

    def mapping(
        self, node: Any, allowed: tuple[str, ...], where: str
    ) -> dict[str, tuple[Any, Any]]:
        if not isinstance(node, yaml.MappingNode):
            raise self.fail(node, f"{where} must be a mapping (key: value)")
        out: dict[str, tuple[Any, Any]] = {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode) or key_node.tag == _NULL:
                self.problem(key_node, f"{where}: keys must be strings")
                continue
            key = str(key_node.value)
            if key == "<<":
                self.problem(key_node, f"{where}: YAML merge keys (<<) are not supported")
                continue
            if key in out:
                self.problem(key_node, f"{where}: duplicate key {key!r}")
                continue
            if key not in allowed:
                self.problem(
                    key_node,
                    f"{where}: unknown key {key!r}{did_you_mean(key, allowed)}"
                    f" (allowed: {', '.join(allowed)})",
                )
                continue
            out[key] = (key_node, value_node)
        return out

    def value(self, node: Any) -> Any:
        """Any plain value (for rewrite values and field comparisons)."""
        _check_size(node, self)
        return self.constructor.construct_object(node, deep=True)

    def string(self, node: Any, where: str, allow_empty: bool = False) -> str:
        if not isinstance(node, yaml.ScalarNode) or node.tag != _STR:
            kind = self.kind(node)
            raise self.fail(node, f"{where} must be a string, not {kind} (quote it)")
        value = str(node.value)
        if not allow_empty and not value.strip():
            raise self.fail(node, f"{where} must not be empty")
        return value

    def integer(self, node: Any, where: str, minimum: int | None = None) -> int:
        if not isinstance(node, yaml.ScalarNode) or node.tag != _INT:
            raise self.fail(node, f"{where} must be an integer, not {self.kind(node)}")
        value = int(self.value(node))
        if minimum is not None and value < minimum:
            raise self.fail(node, f"{where} must be at least {minimum}")
        return value

    def number(self, node: Any, where: str) -> float:
        if not isinstance(node, yaml.ScalarNode) or node.tag not in (_INT, _FLOAT):
            raise self.fail(node, f"{where} must be a number (seconds), not {self.kind(node)}")
        value = float(self.value(node))
        if not 0 < value < float("inf"):
            raise self.fail(node, f"{where} must be a positive number of seconds")
        return value

    def boolean(self, node: Any, where: str) -> bool:
        if not isinstance(node, yaml.ScalarNode) or node.tag != _BOOL:
            raise self.fail(node, f"{where} must be true or false, not {self.kind(node)}")
        return bool(self.value(node))

    def choice(self, node: Any, where: str, options: tuple[str, ...] | list[str]) -> str:
        value = self.string(node, where)
        if value not in options:
            raise self.fail(
                node,
                f"{where} must be one of {', '.join(options)}, not {value!r}"
                f"{did_you_mean(value, options)}",
            )
        return value

    def strings(self, node: Any, where: str) -> list[tuple[str, Any]]:
        """A string or a non-empty list of strings, each with its node."""
        if isinstance(node, yaml.SequenceNode):
            if not node.value:
                raise self.fail(node, f"{where} must not be an empty list")
            return [(self.string(item, where), item) for item in node.value]
        return [(self.string(node, where), node)]

    @staticmethod
    def kind(node: Any) -> str:
        if isinstance(node, yaml.MappingNode):
            return "a mapping"
        if isinstance(node, yaml.SequenceNode):
            return "a list"
        tag = getattr(node, "tag", "")
        return {
            _STR: "a string",
            _INT: "an integer",
            _FLOAT: "a number",
            _BOOL: "a boolean",
            _NULL: "null (empty)",
        }.get(tag, "a value")

    # -- compiled pieces ----------------------------------------------------------------

    def regex(self, node: Any, pattern: str, where: str, flags: int = 0) -> tuple[str, int, str]:
        """(pattern, flags, a literal every match contains or '') for the engine."""
        try:
            compiled = re.compile(pattern, flags)
        except re.error as exc:
            raise self.fail(
                node, f"{where}: invalid regular expression: {exc.msg}", exc.pos or 0
            ) from None
        # an inline (?i) counts like the flag (the literal prefilter compares lower case)
        effective = int(flags) | (int(compiled.flags) & int(re.IGNORECASE))
        return (pattern, effective, required_literal(pattern, effective))

    def glob(self, node: Any, pattern: str, where: str) -> Any:
        try:
            return compile_glob(pattern)
        except GlobError as exc:
            raise self.fail(node, f"{where}: invalid glob: {exc.message}", exc.offset) from None

    def condition(self, node: Any, text: str, where: str) -> Any:
        try:
            return parse_condition(text)
        except ConditionError as exc:
            raise self.fail(node, f"{where}: {exc.message}", exc.offset) from None

    # -- the document -----------------------------------------------------------------

    def read(self) -> PolicyFile:
        # libyaml's composer recurses in C: a hostile file nesting [[[[... tens of thousands
        # deep crashes the process (SIGSEGV, and a host lets the tool run). Nesting is at most
        # the number of openers, so a file with many is composed by the Python loader, whose
        # recursion limit fails cleanly.
        many = self.text.count("[") + self.text.count("{") > _C_LOADER_MAX_OPENERS
        try:
            loader = yaml.SafeLoader if many else _LOADER
            documents = list(yaml.compose_all(self.text, Loader=loader))
        except RecursionError:
            self.result.problems.append(
                Problem(self.path, 1, 1, "invalid YAML: collections nest too deeply")
            )
            return self.result
        except yaml.MarkedYAMLError as exc:
            mark = exc.problem_mark or exc.context_mark
            line, column = (mark.line + 1, mark.column + 1) if mark else (1, 1)
            problem = exc.problem or exc.context or "invalid YAML"
            self.result.problems.append(
                Problem(self.path, line, column, f"invalid YAML: {problem}")
            )
            return self.result
        except yaml.YAMLError as exc:
            self.result.problems.append(Problem(self.path, 1, 1, f"invalid YAML: {exc}"))
            return self.result
        documents = [d for d in documents if d is not None]
        if not documents:
            self.result.problems.append(
                Problem(self.path, 1, 1, "the file is empty (no rules)", "warning")
            )
            return self.result
        if len(documents) > 1:
            self.problem(documents[1], "a policy file holds one YAML document, not several")
        with contextlib.suppress(_RejectError):
            self.document(documents[0])
        return self.result

    def document(self, node: Any) -> None:
        top = self.mapping(node, schema.keys_of("policy"), "the policy")
        if "version" not in top:
            raise self.fail(node, f"missing 'version: {schema.FORMAT_VERSION}'")
        version_node = top["version"][1]
        if (
            not isinstance(version_node, yaml.ScalarNode)
            or version_node.tag != _INT
            or int(version_node.value) != schema.FORMAT_VERSION
        ):
            raise self.fail(
                version_node,
                f"unsupported version {version_node.value!r}; this hookwise reads "
                f"version {schema.FORMAT_VERSION} (an integer)",
            )
        if "settings" in top:
            self.guard(self.settings, top["settings"][1])
        if "extends" in top:
            self.guard(self.extends, top["extends"][1])
        if "rules" in top:
            rules_node = top["rules"][1]
            if isinstance(rules_node, yaml.ScalarNode) and rules_node.tag == _NULL:
                pass
            elif not isinstance(rules_node, yaml.SequenceNode):
                self.problem(rules_node, "rules must be a list")
            else:
                seen: dict[str, Any] = {}
                for index, rule_node in enumerate(rules_node.value):
                    rule = self.guard(self.rule, rule_node, index)
                    if rule is None:
                        continue
                    if rule["id"] in seen:
                        self.problem(
                            rule_node,
                            f"duplicate rule id {rule['id']!r} (first at line "
                            f"{seen[rule['id']].start_mark.line + 1})",
                        )
                        continue
                    seen[rule["id"]] = rule_node
                    self.result.rules.append(rule)
        if "overrides" in top:
            overrides = top["overrides"][1]
            if not isinstance(overrides, yaml.SequenceNode):
                self.problem(overrides, "overrides must be a list")
            else:
                for item in overrides.value:
                    self.guard(self.override, item)

    def extends(self, node: Any) -> None:
        """Add the rules of each named pack, in this file's scope, with prefixed ids.

        The rules take this file's scope and the position of the ``extends`` entry, so
        trust, ordering, ``policy show`` and overrides (by ``hookwise/<pack>:<id>``) treat
        them like the file's own rules.
        """
        if isinstance(node, yaml.ScalarNode) and node.tag == _NULL:
            return
        seen: set[str] = set()
        for reference, item in self.strings(node, "extends"):
            try:
                name, version, path = packs.resolve(reference)
            except packs.PackError as exc:
                self.problem(item, f"extends: {exc}")
                continue
            if name in seen:
                self.problem(item, f"extends: pack {packs.PREFIX}{name} is listed twice")
                continue
            seen.add(name)
            try:
                with open(path, encoding="utf-8") as handle:
                    text = handle.read()
            except OSError as exc:
                self.problem(item, f"extends: cannot read pack {reference}: {exc}")
                continue
            label = f"{packs.PREFIX}{name}@{version}"
            reader = _Reader(label, self.scope, text, self.host_events)
            rules = reader.read_pack(name, version)
            self.result.problems.extend(reader.result.problems)
            line, column = self.position(item)
            for rule in rules:
                rule["id"] = packs.rule_id(name, rule["id"])
                rule.update({"file": self.path, "line": line, "column": column, "pack": label})
                self.result.rules.append(rule)

    def read_pack(self, name: str, version: int) -> list[dict[str, Any]]:
        """A pack file's rules (deny and ask only, so untrusted files may extend it)."""
        try:
            node = yaml.compose(self.text, Loader=_LOADER)
        except yaml.YAMLError as exc:
            self.result.problems.append(Problem(self.path, 1, 1, f"invalid pack YAML: {exc}"))
            return []
        out: list[dict[str, Any]] = []
        with contextlib.suppress(_RejectError):
            top = self.mapping(node, ("pack", "version", "description", "rules"), "the pack")
            if "pack" not in top or self.value(top["pack"][1]) != f"{packs.PREFIX}{name}":
                raise self.fail(node, f"the pack file must say 'pack: {packs.PREFIX}{name}'")
            if "version" not in top or self.value(top["version"][1]) != version:
                raise self.fail(node, f"the pack file must say 'version: {version}'")
            rules_node = top["rules"][1] if "rules" in top else None
            if not isinstance(rules_node, yaml.SequenceNode):
                raise self.fail(node, "a pack needs a list of rules")
            for index, rule_node in enumerate(rules_node.value):
                rule = self.guard(self.rule, rule_node, index)
                if rule is None:
                    continue
                if rule["action"] not in PACK_ACTIONS:
                    self.problem(rule_node, f"pack rules deny or ask, not {rule['action']!r}")
                    continue
                if any(r["id"] == rule["id"] for r in out):
                    self.problem(rule_node, f"duplicate rule id {rule['id']!r}")
                    continue
                out.append(rule)
        return out

    def guard(self, func: Any, *args: Any) -> Any:
        try:
            return func(*args)
        except _RejectError:
            return None

    # -- settings ---------------------------------------------------------------------

    def settings(self, node: Any) -> None:
        entries = self.mapping(node, schema.keys_of("settings"), "settings")
        out = self.result.settings
        for key, (key_node, value_node) in entries.items():
            pos = self.position(key_node)
            try:
                if key == "on_error":
                    sub = self.mapping(value_node, schema.sub_keys("settings", key), "on_error")
                    for name, (name_node, v) in sub.items():
                        options = ("deny", "allow")
                        out[f"on_error.{name}"] = (
                            self.choice(v, f"on_error.{name}", options),
                            self.position(name_node),
                        )
                elif key == "audit":
                    sub = self.mapping(value_node, schema.sub_keys("settings", key), "audit")
                    for name, (name_node, v) in sub.items():
                        where = f"audit.{name}"
                        value: Any
                        if name == "enabled":
                            value = self.boolean(v, where)
                        elif name == "path":
                            value = os.path.expanduser(self.string(v, where))
                        elif name == "max_bytes":
                            value = self.integer(v, where, 1024)
                        else:
                            value = self.integer(v, where, 0)
                        out[where] = (value, self.position(name_node))
                elif key == "trust":
                    sub = self.mapping(value_node, schema.sub_keys("settings", key), "trust")
                    for name, (name_node, v) in sub.items():
                        where = f"trust.{name}"
                        if name == "check":
                            value = self.boolean(v, where)
                        else:
                            value = [
                                os.path.expanduser(text) for text, _n in self.strings(v, where)
                            ]
                        out[where] = (value, self.position(name_node))
                elif key == "approvals":
                    out[key] = (self.approvals(value_node), pos)
                elif key in ("self_protection", "require_confinement"):
                    out[key] = (self.boolean(value_node, key), pos)
                elif key == "unparsable":
                    out[key] = (self.choice(value_node, key, ("deny", "ask")), pos)
                elif key == "unverifiable":
                    out[key] = (self.choice(value_node, key, ("deny", "ask", "allow")), pos)
                elif key in ("ask_fallback", "gemini_ask"):
                    choices = schema.SETTINGS_CHOICES[key]
                    out[key] = (self.choice(value_node, key, choices), pos)
                elif key == "retry_budget":
                    out[key] = (self.integer(value_node, key, 0), pos)
                elif key == "validator_timeout":
                    out[key] = (self.number(value_node, key), pos)
            except _RejectError:
                continue

    def approvals(self, node: Any) -> dict[str, Any]:
        """settings.approvals, checked whole (the hook trusts its shape without checking)."""
        from hookwise.policy.approvals.wire import ApprovalsError, check_url

        where = "approvals"
        errors_before = len(self.result.errors)
        entries = self.mapping(node, schema.keys_of("approvals"), where)
        out: dict[str, Any] = dict(schema.APPROVALS_DEFAULTS)
        out["notify"] = []
        failed = False

        def field(key: str, reader: Any) -> None:
            nonlocal failed
            if key not in entries:
                return
            try:
                out[key] = reader(entries[key][1], f"{where}.{key}")
            except _RejectError:
                failed = True

        def url(value_node: Any, label: str, relay: bool) -> str:
            text = self.string(value_node, label).strip()
            try:
                return check_url(text, relay=relay)
            except ApprovalsError as exc:
                raise self.fail(value_node, f"{label}: {exc}") from None

        def seconds(value_node: Any, label: str, positive: bool) -> float:
            if not isinstance(value_node, yaml.ScalarNode) or value_node.tag not in (_INT, _FLOAT):
                raise self.fail(value_node, f"{label} must be a number of seconds")
            value = float(self.value(value_node))
            low_ok = value > 0 if positive else value >= 0
            if not (low_ok and value <= schema.APPROVALS_MAX_WAIT_S):
                raise self.fail(
                    value_node,
                    f"{label} must be {'more than' if positive else 'at least'} 0 and at most "
                    f"{schema.APPROVALS_MAX_WAIT_S} seconds (the host's hook timeout must hold "
                    f"the wait), not {value_node.value}",
                )
            return int(value) if value.is_integer() else value

        def variable(value_node: Any, label: str) -> str:
            text = self.string(value_node, label)
            if not (text.isascii() and text.replace("_", "a").isalnum() and not text[0].isdigit()):
                raise self.fail(
                    value_node, f"{label}: {text!r} is not an environment variable name"
                )
            return text

        def token_file(value_node: Any, label: str) -> str:
            text = os.path.expanduser(self.string(value_node, label))
            if not os.path.isabs(text):
                raise self.fail(
                    value_node, f"{label} must be an absolute path (or ~/...), not {text!r}"
                )
            return text

        def remember(value_node: Any, label: str) -> int:
            value = self.integer(value_node, label, 0)
            if value > schema.APPROVALS_MAX_REMEMBER_MIN:
                raise self.fail(
                    value_node, f"{label} must be at most {schema.APPROVALS_MAX_REMEMBER_MIN}"
                )
            return value

        def notify(value_node: Any, label: str) -> list[dict[str, str]]:
            if not isinstance(value_node, yaml.SequenceNode):
                raise self.fail(value_node, f"{label} must be a list of {{type, url}}")
            if len(value_node.value) > schema.APPROVALS_MAX_NOTIFY:
                raise self.fail(
                    value_node, f"{label}: at most {schema.APPROVALS_MAX_NOTIFY} targets"
                )
            targets = []
            for index, item in enumerate(value_node.value):
                here = f"{label}[{index}]"
                keys = self.mapping(item, ("type", "url"), here)
                if "type" not in keys or "url" not in keys:
                    raise self.fail(item, f"{here} needs 'type' and 'url'")
                kind = self.choice(keys["type"][1], f"{here}.type", schema.APPROVALS_NOTIFY_TYPES)
                targets.append({"type": kind, "url": url(keys["url"][1], f"{here}.url", False)})
            return targets

        field("url", lambda n, label: url(n, label, True))
        field("token_env", variable)
        field("token_file", token_file)
        field("wait", lambda n, label: seconds(n, label, True))
        field("interactive_wait", lambda n, label: seconds(n, label, False))
        field("on_timeout", lambda n, label: self.choice(n, label, ("ask", "deny")))
        field("remember_minutes", remember)
        field("notify", notify)
        if "url" not in entries:
            raise self.fail(node, f"{where} needs 'url' (the hookwise serve base URL)")
        sources = [k for k in ("token_env", "token_file") if k in entries]
        if len(sources) != 1:
            raise self.fail(
                node,
                f"{where} needs exactly one of token_env and token_file (an agent-role token "
                f"of the service), not {' and '.join(sources) or 'neither'}",
            )
        if failed or len(self.result.errors) != errors_before:
            raise _RejectError()
        return out

    # -- overrides --------------------------------------------------------------------

    def override(self, node: Any) -> None:
        entries = self.mapping(node, schema.keys_of("override"), "override")
        if "id" not in entries:
            raise self.fail(node, "an override needs the 'id' of the rule it changes")
        item: dict[str, Any] = {"id": self.string(entries["id"][1], "override id")}
        if "enabled" in entries:
            item["enabled"] = self.boolean(entries["enabled"][1], "enabled")
        if "mode" in entries:
            item["mode"] = self.choice(entries["mode"][1], "mode", schema.MODES)
        if "priority" in entries:
            item["priority"] = self.integer(entries["priority"][1], "priority")
        if len(item) == 1:
            raise self.fail(node, "an override changes enabled, mode or priority; it has none")
        line, column = self.position(node)
        item.update({"file": self.path, "line": line, "column": column, "scope": self.scope})
        self.result.overrides.append(item)

    # -- rules --------------------------------------------------------------------------

    def rule(self, node: Any, index: int) -> dict[str, Any]:
        allowed = schema.keys_of("rule")
        entries = self.mapping(node, allowed, f"rule #{index + 1}")
        if "id" not in entries:
            if _misspelled(node, "id", allowed):
                raise _RejectError
            raise self.fail(node, f"rule #{index + 1} has no 'id'")
        id_node = entries["id"][1]
        rule_id = self.string(id_node, "id")
        if not _ID_RE.match(rule_id):
            raise self.fail(id_node, f"rule id {rule_id!r}: use {schema.RULE_ID_DOC}")
        where = f"rule {rule_id!r}"
        errors_before = len(self.result.errors)
        line, column = self.position(node)
        rule: dict[str, Any] = {
            "id": rule_id,
            "scope": self.scope,
            "file": self.path,
            "line": line,
            "column": column,
            "description": "",
            "priority": 0,
            "mode": "enforce",
            "enabled": True,
            "metadata": {},
        }

        def opt(key: str, reader: Any) -> None:
            if key in entries:
                with contextlib.suppress(_RejectError):
                    rule[key] = reader(entries[key][1])

        opt("description", lambda n: self.string(n, "description", allow_empty=True))
        opt("priority", lambda n: self.integer(n, "priority"))
        opt("mode", lambda n: self.choice(n, "mode", schema.MODES))
        opt("enabled", lambda n: self.boolean(n, "enabled"))
        opt("reason", lambda n: self.string(n, "reason"))
        opt("message", lambda n: self.string(n, "message"))
        opt("context", lambda n: self.string(n, "context"))
        opt("max_retries", lambda n: self.integer(n, "max_retries", 0))
        opt("ask_fallback", lambda n: self.choice(n, "ask_fallback", ("deny", "allow")))
        opt("relay", lambda n: self.boolean(n, "relay"))
        opt("metadata", self.metadata)

        if "action" not in entries:
            if not _misspelled(node, "action", allowed):
                self.problem(node, f"{where} has no 'action' (one of {', '.join(schema.ACTIONS)})")
            action = None
        else:
            try:
                action = self.choice(entries["action"][1], "action", schema.ACTIONS)
            except _RejectError:
                action = None
        rule["action"] = action

        matchers: dict[str, Any] = {}
        present: set[str] = set()
        if "match" in entries:
            match_node = entries["match"][1]
            if isinstance(match_node, yaml.MappingNode):
                present = {str(k.value) for k, _ in match_node.value}
            try:
                matchers = self.match(entries["match"][1], where)
            except _RejectError:
                matchers = {}
        rule["m"] = matchers

        if "when" in entries:
            when_node = entries["when"][1]
            try:
                text = self.string(when_node, "when")
                rule["when"] = self.condition(when_node, text, "when")
                rule["when_src"] = text
            except _RejectError:
                pass

        if "rewrite" in entries:
            opt("rewrite", lambda n: self.rewrite(n, where))
        if "validator" in entries:
            opt("validator", self.validator)

        events_node = entries["events"][1] if "events" in entries else None
        rule["on"] = self.events(events_node, rule, node, where, present)
        if action is not None and len(self.result.errors) == errors_before:
            self.check_action(rule, entries, node, where)
        if len(self.result.errors) != errors_before:
            raise _RejectError()
        return rule

    def metadata(self, node: Any) -> dict[str, Any]:
        entries = self.mapping(node, schema.sub_keys("rule", "metadata"), "metadata")
        out: dict[str, Any] = {}
        for key, (_, value_node) in entries.items():
            if key == "tags":
                if not isinstance(value_node, yaml.SequenceNode):
                    raise self.fail(value_node, "metadata.tags must be a list of strings")
                out[key] = [self.string(item, "tag") for item in value_node.value]
            else:
                out[key] = self.string(value_node, f"metadata.{key}", allow_empty=True)
        return out

    # -- events -------------------------------------------------------------------------

    def events(
        self, node: Any, rule: dict[str, Any], rule_node: Any, where: str, present: set[str]
    ) -> dict[str, Any]:
        on: dict[str, Any] = {}
        if node is None:
            inferred = self.default_events(rule, present)
            if inferred is None:
                if rule.get("action") is not None:
                    self.problem(
                        rule_node,
                        f"{where}: say which events it applies to ('events:'); it has no "
                        "tool, command, files, mcp, prompt or response matcher to infer them",
                    )
                return on
            return {name: None for name in inferred}
        qualified: dict[str, list[str]] = {}
        for name, item in self.strings(node, "events"):
            if name in canonical.CANONICAL_EVENTS:
                on[name] = None
                continue
            host, sep, event = name.partition(":")
            hosts = [host] if sep else [h for h in self.host_events if name in self.host_events[h]]
            if sep and host not in self.host_events:
                self.problem(
                    item, f"unknown host {host!r} in {name!r}; hosts: {', '.join(self.host_events)}"
                )
                continue
            event_name = event if sep else name
            hosts = [h for h in hosts if event_name in self.host_events[h]]
            if not hosts:
                options = [*canonical.CANONICAL_EVENTS]
                for h, names in self.host_events.items():
                    options.extend(names)
                    options.extend(f"{h}:{n}" for n in names)
                self.problem(
                    item,
                    f"unknown event {name!r}{did_you_mean(name, options)} (canonical events: "
                    f"{', '.join(canonical.CANONICAL_EVENTS)}; or a host's event name)",
                )
                continue
            for h in hosts:
                for canon in self.canonical_of(h, event_name):
                    qualified.setdefault(canon, []).append(f"{h}:{event_name}")
        for canon, names in qualified.items():
            if canon in on:
                continue  # the canonical event itself is listed: every host event counts
            on[canon] = sorted(set(names))
        return on

    def canonical_of(self, host: str, event: str) -> tuple[str, ...]:
        return tuple(self.host_events[host][event])

    @staticmethod
    def default_events(rule: dict[str, Any], present: set[str]) -> tuple[str, ...] | None:
        """The events a rule without ``events`` applies to (from its matchers, valid or not)."""
        m = set(rule["m"]) | present
        if rule.get("action") == "retry" or "response" in m:
            return (canonical.AGENT_STOP,)
        if any(k in m for k in ("tool", "tool_regex", "host_tool", "command", "files", "mcp")):
            return (canonical.TOOL_BEFORE,)
        if "prompt" in m:
            return (canonical.PROMPT,)
        return None

    # -- matchers -----------------------------------------------------------------------

    def match(self, node: Any, where: str) -> dict[str, Any]:
        entries = self.mapping(node, schema.keys_of("match"), "match")
        out: dict[str, Any] = {}
        readers = {
            "tool": self.match_tool,
            "tool_regex": lambda n: [
                self.regex(i, p, "tool_regex") for p, i in self.strings(n, "tool_regex")
            ],
            "host_tool": lambda n: [
                self.glob(i, p, "host_tool") for p, i in self.strings(n, "host_tool")
            ],
            "host": lambda n: [
                self.choice(i, "host", schema.HOSTS) for _, i in self.strings(n, "host")
            ],
            "command": self.match_command,
            "files": self.match_files,
            "prompt": lambda n: self.match_text(n, "prompt"),
            "response": lambda n: self.match_text(n, "response"),
            "mcp": self.match_mcp,
            "fields": self.match_fields,
        }
        for key, (_, value_node) in entries.items():
            try:
                out[key] = readers[key](value_node)
            except _RejectError:
                continue
        del where
        return out

    def match_tool(self, node: Any) -> dict[str, Any]:
        names: set[str] = set()
        globs: list[Any] = []
        known_host = {
            name: tool for table in canonical.host_tools().values() for name, tool in table.items()
        }
        options = sorted({*canonical.CANONICAL_TOOLS, *known_host})
        for pattern, item in self.strings(node, "tool"):
            if is_literal(pattern):
                if pattern in canonical.CANONICAL_TOOLS:
                    names.add(pattern)
                elif pattern in known_host:
                    names.add(known_host[pattern])
                    names.add(pattern)
                else:
                    names.add(pattern)
                    if not pattern.startswith("mcp__"):
                        self.problem(
                            item,
                            f"tool {pattern!r} is not a known tool{did_you_mean(pattern, options)}"
                            " (it matches only a tool of exactly that name)",
                            warn=True,
                        )
            else:
                globs.append(self.glob(item, pattern, "tool"))
        return {"names": sorted(names), "globs": globs}

    def match_command(self, node: Any) -> list[dict[str, Any]]:
        items = node.value if isinstance(node, yaml.SequenceNode) else [node]
        if isinstance(node, yaml.SequenceNode) and not items:
            raise self.fail(node, "command must not be an empty list")
        return [self.command_spec(item) for item in items]

    def command_spec(self, node: Any) -> dict[str, Any]:
        spec: dict[str, Any] = {
            "program": None,
            "programs": None,
            "args": [],
            "flags": [],
            "any_flags": [],
            "regex": [],
            "line_regex": [],
            "writes": [],
            "reads": None,
        }
        if isinstance(node, yaml.ScalarNode):
            text = self.string(node, "command")
            script = split_command(text)
            written = [c for c in script.commands if c.depth == 0]  # not what they run
            if not script.complete or len(written) != 1 or written[0].redirects:
                raise self.fail(
                    node,
                    f"command pattern {text!r} must be one simple command (program, arguments, "
                    "flags); use 'line_regex' for more",
                )
            argv = written[0].argv
            if not argv:
                raise self.fail(node, f"command pattern {text!r} names no program")
            spec["program"] = [self.glob(node, argv[0], "command program")]
            spec["programs"] = [argv[0]] if is_literal(argv[0]) else None
            for word in argv[1:]:
                if word.startswith("-") and len(word) > 1:
                    spec["flags"].extend(_expand_flag(word))
                else:
                    spec["args"].append(self.glob(node, word, "command argument"))
            spec["pattern"] = text
            return spec
        entries = self.mapping(node, schema.sub_keys("match", "command"), "command")
        if not entries:
            raise self.fail(node, "a command matcher needs at least one key")
        spec["source"] = {}  # the strings as written, for `hookwise policy fuzz`
        for key, (_, value_node) in entries.items():
            if key == "reads":
                if self.boolean(value_node, "command.reads"):
                    # the programs that do not: the catalog's, as of this compile
                    spec["reads"] = sorted(NON_READERS)
                spec["source"][key] = ["true"] if spec["reads"] else []
                continue
            values = self.strings(value_node, f"command.{key}")
            spec["source"][key] = [p for p, _ in values]
            if key == "program":
                spec["program"] = [self.glob(i, p, "command.program") for p, i in values]
                literal = all(is_literal(p) for p, _ in values)
                spec["programs"] = [p for p, _ in values] if literal else None
            elif key in ("args", "writes"):
                spec[key] = [self.glob(i, p, f"command.{key}") for p, i in values]
            elif key in ("flags", "any_flags"):
                for flag, item in values:
                    if not flag.startswith("-") or flag in ("-", "--"):
                        raise self.fail(
                            item, f"command.{key}: {flag!r} is not a flag (-x or --name)"
                        )
                    spec[key].extend(_expand_flag(flag) if key == "flags" else [flag])
            else:
                spec[key] = [self.regex(i, p, f"command.{key}") for p, i in values]
        return spec

    def match_files(self, node: Any) -> dict[str, Any]:
        spec: dict[str, Any] = {"globs": [], "extensions": [], "outside": None, "exclude": []}
        if isinstance(node, yaml.MappingNode):
            entries = self.mapping(node, schema.sub_keys("match", "files"), "files")
            if not entries:
                raise self.fail(node, "a files matcher needs at least one key")
            for key, (_, value_node) in entries.items():
                if key == "outside_workspace":
                    spec["outside"] = self.boolean(value_node, "files.outside_workspace")
                elif key == "known_paths_only":
                    spec["known"] = self.boolean(value_node, "files.known_paths_only")
                elif key == "operands_only":
                    spec["operands"] = self.boolean(value_node, "files.operands_only")
                elif key == "extensions":
                    for ext, item in self.strings(value_node, "files.extensions"):
                        if "/" in ext or not ext.strip("."):
                            raise self.fail(item, f"files.extensions: {ext!r} is not an extension")
                        spec["extensions"].append(ext if ext.startswith(".") else "." + ext)
                else:
                    spec[key] = [
                        self.file_glob(i, p, f"files.{key}")
                        for p, i in self.strings(value_node, f"files.{key}")
                    ]
            return spec
        spec["globs"] = [self.file_glob(i, p, "files") for p, i in self.strings(node, "files")]
        return spec

    def file_glob(self, node: Any, pattern: str, where: str) -> tuple[Any, bool, bool]:
        expanded = os.path.expanduser(pattern) if pattern.startswith("~") else pattern
        offset_shift = len(expanded) - len(pattern)
        try:
            compiled = compile_glob(expanded)
        except GlobError as exc:
            raise self.fail(
                node, f"{where}: invalid glob: {exc.message}", max(0, exc.offset - offset_shift)
            ) from None
        absolute = expanded.startswith("/")
        return (compiled, absolute or glob_has_slash(compiled), absolute)

    def match_text(self, node: Any, where: str) -> dict[str, Any]:
        spec: dict[str, Any] = {"regex": [], "words": [], "contains": [], "all": False, "cs": False}
        if isinstance(node, yaml.ScalarNode):
            pattern = self.string(node, where)
            spec["regex"] = [self.regex(node, pattern, where, re.IGNORECASE)]
            return spec
        entries = self.mapping(node, schema.sub_keys("match", where), where)
        if "case_sensitive" in entries:
            spec["cs"] = self.boolean(entries["case_sensitive"][1], f"{where}.case_sensitive")
        if "mode" in entries:
            spec["all"] = self.choice(entries["mode"][1], f"{where}.mode", ("any", "all")) == "all"
        flags = 0 if spec["cs"] else re.IGNORECASE
        for key in ("regex", "words", "contains"):
            if key not in entries:
                continue
            values = self.strings(entries[key][1], f"{where}.{key}")
            if key == "regex":
                spec[key] = [self.regex(i, p, f"{where}.regex", flags) for p, i in values]
            else:
                spec[key] = [p if spec["cs"] else p.lower() for p, _ in values]
        if not (spec["regex"] or spec["words"] or spec["contains"]):
            raise self.fail(node, f"{where} needs regex, words or contains")
        return spec

    def match_mcp(self, node: Any) -> dict[str, Any]:
        entries = self.mapping(node, schema.sub_keys("match", "mcp"), "mcp")
        if not entries:
            raise self.fail(node, "mcp needs server and/or tool")
        return {
            key: [self.glob(i, p, f"mcp.{key}") for p, i in self.strings(value, f"mcp.{key}")]
            for key, (_, value) in entries.items()
        }

    def match_fields(self, node: Any) -> Any:
        if not isinstance(node, yaml.SequenceNode) or not node.value:
            raise self.fail(node, "fields must be a non-empty list of {path, op, value}")
        item_keys = tuple(
            schema.SCHEMA["$defs"]["match"]["properties"]["fields"]["items"]["properties"]
        )
        conditions: list[Any] = []
        for item in node.value:
            entries = self.mapping(item, item_keys, "fields item")
            if "path" not in entries or "op" not in entries:
                raise self.fail(item, "a fields item needs 'path' and 'op'")
            path_node = entries["path"][1]
            path_text = self.string(path_node, "fields.path")
            path = self.condition(path_node, path_text, "fields.path")
            if path[0] != "path":
                raise self.fail(path_node, f"fields.path {path_text!r} is not a field path")
            op = self.choice(entries["op"][1], "fields.op", tuple(schema.FIELD_OPS))
            if op in ("exists", "missing"):
                if "value" in entries:
                    self.problem(entries["value"][0], f"op {op!r} takes no value")
                node_ = ("call", "exists", (path,))
                conditions.append(node_ if op == "exists" else ("not", node_))
                continue
            if "value" not in entries:
                raise self.fail(item, f"op {op!r} needs a 'value'")
            value_node = entries["value"][1]
            value = self.value(value_node)
            if op in ("matches", "glob"):
                if not isinstance(value, str):
                    raise self.fail(value_node, f"op {op!r} needs a string value")
                if op == "matches":
                    self.regex(value_node, value, "fields.value")
                    conditions.append(("matches", path, value))
                else:
                    conditions.append(("glob", path, self.glob(value_node, value, "fields.value")))
                continue
            conditions.append(("cmp", schema.FIELD_OPS[op], path, ("lit", _freeze(value))))
        result = conditions[0]
        for extra in conditions[1:]:
            result = ("and", result, extra)
        return result

    # -- actions ------------------------------------------------------------------------

    def rewrite(self, node: Any, where: str) -> dict[str, Any]:
        entries = self.mapping(node, schema.keys_of("rewrite"), "rewrite")
        out: dict[str, Any] = {"set": {}, "replace": []}
        if "set" in entries:
            set_node = entries["set"][1]
            if not isinstance(set_node, yaml.MappingNode) or not set_node.value:
                raise self.fail(set_node, "rewrite.set must map argument names to values")
            for key_node, value_node in set_node.value:
                out["set"][self.string(key_node, "rewrite.set key")] = _freeze(
                    self.value(value_node)
                )
        if "replace" in entries:
            items = entries["replace"][1]
            if not isinstance(items, yaml.SequenceNode) or not items.value:
                raise self.fail(
                    items, "rewrite.replace must be a list of {arg, pattern|find, with}"
                )
            item_keys = tuple(
                schema.SCHEMA["$defs"]["rewrite"]["properties"]["replace"]["items"]["properties"]
            )
            for item in items.value:
                sub = self.mapping(item, item_keys, "rewrite.replace item")
                if "arg" not in sub or "with" not in sub:
                    raise self.fail(item, "a replace item needs 'arg' and 'with'")
                if ("pattern" in sub) == ("find" in sub):
                    raise self.fail(
                        item, "a replace item needs exactly one of 'pattern' and 'find'"
                    )
                arg = self.string(sub["arg"][1], "replace.arg")
                replacement = self.string(sub["with"][1], "replace.with", allow_empty=True)
                if "pattern" in sub:
                    pattern_node = sub["pattern"][1]
                    pattern = self.string(pattern_node, "replace.pattern")
                    self.regex(pattern_node, pattern, "replace.pattern")
                    try:
                        re.compile(pattern).sub(replacement, "")
                    except (re.error, IndexError) as exc:
                        raise self.fail(sub["with"][1], f"replace.with: {exc}") from None
                    out["replace"].append((arg, "regex", pattern, replacement))
                else:
                    out["replace"].append(
                        (arg, "find", self.string(sub["find"][1], "replace.find"), replacement)
                    )
        if not out["set"] and not out["replace"]:
            raise self.fail(node, f"{where}: rewrite needs 'set' or 'replace'")
        return out

    def validator(self, node: Any) -> dict[str, Any]:
        entries = self.mapping(node, schema.keys_of("validator"), "validator")
        if "command" not in entries:
            raise self.fail(node, "validator needs a 'command'")
        out: dict[str, Any] = {"command": self.string(entries["command"][1], "validator.command")}
        if "timeout" in entries:
            out["timeout"] = self.number(entries["timeout"][1], "validator.timeout")
        if "on_error" in entries:
            out["on_error"] = self.choice(
                entries["on_error"][1], "validator.on_error", ("deny", "allow")
            )
        return out

    def check_action(
        self, rule: dict[str, Any], entries: dict[str, tuple[Any, Any]], node: Any, where: str
    ) -> None:
        action = rule["action"]
        action_node = entries["action"][1]
        spec = actions.ACTIONS[action]
        if spec.needs is not None and spec.needs not in rule:
            self.problem(node, f"{where}: action {action!r} needs '{spec.needs}'")
        for other in actions.ACTIONS.values():
            for key in other.owns:
                if key in entries and action != other.name:
                    self.problem(
                        entries[key][0], f"{where}: {key!r} applies only to action {other.name!r}"
                    )
        on = rule["on"]
        if not on:
            return
        supported = schema.ACTION_EVENTS[action]
        if not set(on) & supported:
            self.problem(
                action_node,
                f"{where}: action {action!r} means nothing on {', '.join(sorted(on))}; it applies"
                f" to {', '.join(sorted(supported))}",
            )
            return
        for name in sorted(set(on) - supported):
            self.problem(
                action_node,
                f"{where}: action {action!r} does nothing on {name} (only on "
                f"{', '.join(sorted(supported))})",
                warn=True,
            )
        if "context" in rule and not set(on) & schema.ACTION_EVENTS["context"]:
            self.problem(
                entries["context"][0], f"{where}: no event of this rule takes context", warn=True
            )
        if action in schema.BLOCKING_ACTIONS and set(on) & canonical.TOOL_EVENTS:
            narrowing = ("tool", "tool_regex", "host_tool", "command", "files", "mcp", "fields")
            if not any(k in rule["m"] for k in narrowing) and "when" not in rule:
                self.problem(
                    node,
                    f"{where}: action {action!r} without a tool, command, files, mcp or fields "
                    "matcher (or 'when') applies to every tool call; add `match: {tool: '*'}` "
                    "if that is intended",
                )


def _expand_flag(flag: str) -> list[str]:
    """``-rf`` -> ``[-r, -f]``; ``--force`` stays; ``--force=x`` keeps its name."""
    if flag.startswith("--"):
        return [flag.split("=", 1)[0]]
    return [f"-{ch}" for ch in flag[1:]]


_C_LOADER_MAX_OPENERS = 10_000  # libyaml composes 20,000 levels here; crashes by 50,000
MAX_VALUE_NODES = 10_000  # what one value may expand to, YAML aliases counted each time
MAX_VALUE_DEPTH = 32


def _check_size(node: Any, reader: Any) -> None:
    """Refuse a value that expands past :data:`MAX_VALUE_NODES` (a billion-laughs chain of
    aliases is a few lines and 9**9 items) or nests past :data:`MAX_VALUE_DEPTH`."""
    stack = [(node, 0)]
    seen = 0
    while stack:
        current, depth = stack.pop()
        seen += 1
        if seen > MAX_VALUE_NODES or depth > MAX_VALUE_DEPTH:
            raise reader.fail(
                node,
                f"this value expands to more than {MAX_VALUE_NODES} items or nests deeper "
                f"than {MAX_VALUE_DEPTH} levels (YAML aliases count each time they are used)",
            )
        if isinstance(current, yaml.SequenceNode):
            stack.extend((item, depth + 1) for item in current.value)
        elif isinstance(current, yaml.MappingNode):
            for key, item in current.value:
                stack.append((key, depth + 1))
                stack.append((item, depth + 1))


def _freeze(value: Any) -> Any:
    """YAML values as marshal-able JSON-like data (dates become strings)."""
    if isinstance(value, dict):
        return {str(k): _freeze(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_freeze(v) for v in value]
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return str(value)


def load_policy_text(
    text: str, path: str, scope: str, host_events: dict[str, Any] | None = None
) -> PolicyFile:
    """Validate and compile one policy file's text."""
    if host_events is None:
        host_events = default_host_events()
    return _Reader(path, scope, text, host_events).read()


def default_host_events() -> dict[str, dict[str, list[str]]]:
    """host -> host event -> the canonical events it may raise (from the host tables)."""
    from hookwise.policy.adapters.hosts import host_tables

    return {
        host: {name: raised(spec) for name, spec in table["events"].items()}
        for host, table in host_tables().items()
    }


def raised(spec: dict[str, Any]) -> list[str]:
    """The canonical events a host event's table row may raise: always, or for some of its
    payloads (its ``conditional`` ones: Gemini CLI's AfterTool is a failure when the tool
    failed)."""
    return [*spec["canonical"], *spec.get("conditional", ())]
