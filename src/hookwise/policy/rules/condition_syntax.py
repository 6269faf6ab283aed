"""The ``when`` condition language's syntax: names, operators, lexer and parser.

Grammar (keywords are lower case)::

    expr    := and ("or" and)*
    and     := not ("and" not)*
    not     := "not" not | compare
    compare := value [op value]
    op      := "==" | "!=" | "<" | "<=" | ">" | ">=" | "in" | "not in"
             | "matches" | "glob" | "contains" | "startswith" | "endswith"
    value   := STRING | NUMBER | "true" | "false" | "null" | "[" [expr ("," expr)*] "]"
             | "(" expr ")" | NAME "(" [expr ("," expr)*] ")" | path
    path    := NAME ("." NAME | "[" expr "]")*

Names are the event's fields (``tool``, ``input.command``, ``cwd``...), ``env.NAME`` and
``time.hour`` and friends (see ``ROOTS``). The right side of ``matches`` (a Python regular
expression, searched) and ``glob`` must be a string literal: it is checked here, when the
policy is compiled. Only the compiler parses; the hook evaluates the parsed trees
(condition.py), so this module stays off its path.
"""

from __future__ import annotations

from hookwise.policy.rules.glob_syntax import GlobError, compile_glob

TYPE_CHECKING = False
if TYPE_CHECKING:  # (typing only for mypy)
    from collections.abc import Mapping
    from typing import Any, TypeAlias

    Node: TypeAlias = tuple[Any, ...]

ROOTS: dict[str, str] = {
    "event": "canonical event name, e.g. 'tool.before'",
    "host": "'gemini', 'claude' or 'codex'",
    "host_event": "the host's event name, e.g. 'BeforeTool' or 'PreToolUse'",
    "tool": "canonical tool name, e.g. 'shell', 'write', 'edit'",
    "host_tool": "the host's tool name, e.g. 'run_shell_command' or 'Bash'",
    "input": "the tool arguments with normalised keys (file_path, command, ...)",
    "payload": "the host's payload as received",
    "cwd": "the event's working directory",
    "session": "the session id",
    "prompt": "the user's prompt (prompt events)",
    "response": "the agent's last answer (agent.stop events)",
    "command": "the shell command line (shell tools)",
    "unverifiable": "why parts of the command line cannot be known before they run "
    "(a list; empty when everything is known)",
    "files": "the paths the tool touches, relative to cwd",
    "mcp_server": "the MCP server name (MCP tools)",
    "mcp_tool": "the MCP tool name (MCP tools)",
    "stop_hook_active": "true while the host runs a hook-driven continuation",
    "env": "the environment of the hook process: env.CI",
    "time": "local time: time.hour, .minute, .weekday ('mon'..'sun'), .date, .year, ...",
}

FUNCTIONS: dict[str, tuple[int, int]] = {  # name -> (min args, max args)
    "len": (1, 1),
    "lower": (1, 1),
    "upper": (1, 1),
    "basename": (1, 1),
    "dirname": (1, 1),
    "exists": (1, 1),
    "int": (1, 1),
    "str": (1, 1),
    "any": (1, 1),
    "all": (1, 1),
}

OPERATORS = (
    "==",
    "!=",
    "<=",
    ">=",
    "<",
    ">",
    "in",
    "not in",
    "matches",
    "glob",
    "contains",
    "startswith",
    "endswith",
)
_WORD_OPS = frozenset(["in", "matches", "glob", "contains", "startswith", "endswith"])
_KEYWORDS = frozenset(["and", "or", "not", "true", "false", "null", *_WORD_OPS])
_ALIASES = {"&&": "and", "||": "or", "!": "not", "=": "==", "None": "null", "True": "true"}


class ConditionError(ValueError):
    """A condition that does not parse; ``offset`` indexes the condition text."""

    def __init__(self, message: str, offset: int) -> None:
        super().__init__(message)
        self.message = message
        self.offset = offset


def _suggest(name: str, options: list[str]) -> str:
    import difflib

    close = difflib.get_close_matches(name, options, n=1)
    return f"; did you mean {close[0]!r}?" if close else ""


# ----------------------------------------------------------------------------- lexer


def _lex(text: str) -> list[tuple[str, Any, int]]:
    tokens: list[tuple[str, Any, int]] = []
    i = 0
    n = len(text)
    while i < n:
        ch = text[i]
        if ch.isspace():
            i += 1
            continue
        if ch in "'\"":
            j = i + 1
            out: list[str] = []
            while j < n and text[j] != ch:
                if text[j] == "\\" and j + 1 < n:
                    esc = text[j + 1]
                    # quotes and backslashes are escaped; other backslashes stay (regexes)
                    out.append(esc if esc in "\\'\"" else text[j : j + 2])
                    j += 2
                    continue
                out.append(text[j])
                j += 1
            if j >= n:
                raise ConditionError("unclosed string", i)
            tokens.append(("str", "".join(out), i))
            i = j + 1
            continue
        if ch.isdigit() or (ch == "-" and i + 1 < n and text[i + 1].isdigit()):
            j = i + 1
            while j < n and (text[j].isdigit() or text[j] in "._"):
                j += 1
            raw = text[i:j].replace("_", "")
            try:
                number: int | float = float(raw) if "." in raw else int(raw)
            except ValueError:
                raise ConditionError(f"invalid number {text[i:j]!r}", i) from None
            tokens.append(("num", number, i))
            i = j
            continue
        if ch.isalpha() or ch == "_":
            j = i + 1
            while j < n and (text[j].isalnum() or text[j] == "_"):
                j += 1
            tokens.append(("name", text[i:j], i))
            i = j
            continue
        two = text[i : i + 2]
        if two in ("==", "!=", "<=", ">=", "&&", "||"):
            tokens.append(("sym", two, i))
            i += 2
            continue
        if ch in "<>()[],.":
            tokens.append(("sym", ch, i))
            i += 1
            continue
        if ch in "=!":
            raise ConditionError(f"{ch!r} is not an operator; did you mean {_ALIASES[ch]!r}?", i)
        raise ConditionError(f"unexpected character {ch!r}", i)
    tokens.append(("end", None, n))
    return tokens


# ---------------------------------------------------------------------------- parser


class _Parser:
    def __init__(self, text: str, roots: Mapping[str, str]) -> None:
        self.text = text
        self.tokens = _lex(text)
        self.pos = 0
        self.roots = roots

    def peek(self) -> tuple[str, Any, int]:
        return self.tokens[self.pos]

    def take(self) -> tuple[str, Any, int]:
        token = self.tokens[self.pos]
        self.pos += 1
        return token

    def at(self, kind: str, value: Any = None) -> bool:
        tk, tv, _ = self.peek()
        return tk == kind and (value is None or tv == value)

    def expect(self, kind: str, value: str) -> None:
        tk, tv, off = self.peek()
        if tk != kind or tv != value:
            found = "the end" if tk == "end" else repr(tv)
            raise ConditionError(f"expected {value!r}, found {found}", off)
        self.pos += 1

    def parse(self) -> Node:
        node = self.expr()
        tk, tv, off = self.peek()
        if tk != "end":
            hint = ""
            if tk == "sym" and tv in _ALIASES:
                hint = f"; did you mean {_ALIASES[tv]!r}?"
            raise ConditionError(f"unexpected {tv!r}{hint}", off)
        return node

    def expr(self) -> Node:
        node = self.and_()
        while self.at("name", "or"):
            self.take()
            node = ("or", node, self.and_())
        self._reject_alias()
        return node

    def and_(self) -> Node:
        node = self.not_()
        while self.at("name", "and"):
            self.take()
            node = ("and", node, self.not_())
        self._reject_alias()
        return node

    def _reject_alias(self) -> None:
        tk, tv, off = self.peek()
        if tk == "sym" and tv in ("&&", "||"):
            raise ConditionError(f"{tv!r} is not an operator; did you mean {_ALIASES[tv]!r}?", off)

    def not_(self) -> Node:
        if self.at("name", "not"):
            self.take()
            return ("not", self.not_())
        return self.compare()

    def compare(self) -> Node:
        left = self.value()
        tk, tv, off = self.peek()
        op: str | None = None
        if (tk == "sym" and tv in ("==", "!=", "<", "<=", ">", ">=")) or (
            tk == "name" and tv in _WORD_OPS
        ):
            op = tv
            self.take()
        elif tk == "name" and tv == "not" and self.tokens[self.pos + 1][:2] == ("name", "in"):
            op = "not in"
            self.pos += 2
        if op is None:
            return left
        right_off = self.peek()[2]
        right = self.value()
        if op in ("matches", "glob"):
            if right[0] != "lit" or not isinstance(right[1], str):
                raise ConditionError(
                    f"the right side of {op!r} must be a string literal", right_off
                )
            pattern = right[1]
            if op == "matches":
                import re

                try:
                    re.compile(pattern)
                except re.error as exc:
                    pos = right_off + 1 + (exc.pos or 0)
                    raise ConditionError(f"invalid regular expression: {exc.msg}", pos) from None
                return ("matches", left, pattern)
            try:
                return ("glob", left, compile_glob(pattern))
            except GlobError as exc:
                raise ConditionError(
                    f"invalid glob: {exc.message}", right_off + 1 + exc.offset
                ) from None
        del off
        return ("cmp", op, left, right)

    def value(self) -> Node:
        tk, tv, off = self.take()
        if tk in {"str", "num"}:
            return ("lit", tv)
        if tk == "sym" and tv == "(":
            node = self.expr()
            self.expect("sym", ")")
            return node
        if tk == "sym" and tv == "[":
            items: list[Node] = []
            if not self.at("sym", "]"):
                items.append(self.expr())
                while self.at("sym", ","):
                    self.take()
                    items.append(self.expr())
            self.expect("sym", "]")
            return ("list", tuple(items))
        if tk == "name":
            if tv in ("true", "false"):
                return ("lit", tv == "true")
            if tv == "null":
                return ("lit", None)
            if tv in _KEYWORDS:
                raise ConditionError(f"expected a value, found the keyword {tv!r}", off)
            if self.at("sym", "("):
                return self.call(tv, off)
            return self.path(tv, off)
        if tk == "end":
            raise ConditionError("the condition ends where a value is expected", off)
        hint = f"; did you mean {_ALIASES[tv]!r}?" if tv in _ALIASES else ""
        raise ConditionError(f"expected a value, found {tv!r}{hint}", off)

    def call(self, name: str, off: int) -> Node:
        if name not in FUNCTIONS:
            raise ConditionError(f"unknown function {name!r}{_suggest(name, list(FUNCTIONS))}", off)
        self.take()
        args: list[Node] = []
        if not self.at("sym", ")"):
            args.append(self.expr())
            while self.at("sym", ","):
                self.take()
                args.append(self.expr())
        self.expect("sym", ")")
        low, high = FUNCTIONS[name]
        if not low <= len(args) <= high:
            raise ConditionError(f"{name}() takes {low} argument(s), got {len(args)}", off)
        return ("call", name, tuple(args))

    def path(self, root: str, off: int) -> Node:
        if root not in self.roots:
            raise ConditionError(
                f"unknown name {root!r}{_suggest(root, list(self.roots))}"
                f" (names: {', '.join(self.roots)})",
                off,
            )
        steps: list[Node] = []
        while True:
            if self.at("sym", "."):
                self.take()
                tk, tv, key_off = self.take()
                if tk != "name":
                    raise ConditionError("expected a field name after '.'", key_off)
                steps.append(("lit", tv))
            elif self.at("sym", "["):
                self.take()
                steps.append(self.expr())
                self.expect("sym", "]")
            else:
                break
        if root == "time" and steps and steps[0][0] == "lit" and steps[0][1] not in TIME_FIELDS:
            name = str(steps[0][1])
            raise ConditionError(
                f"unknown time field {name!r}{_suggest(name, list(TIME_FIELDS))}", off
            )
        return ("path", root, tuple(steps))


def parse_condition(text: str, roots: Mapping[str, str] = ROOTS) -> Node:
    """Parse a condition; raises ConditionError with the offending offset."""
    if not isinstance(text, str):
        raise ConditionError("a condition must be a string", 0)
    if not text.strip():
        raise ConditionError("an empty condition", 0)
    try:
        return _Parser(text, roots).parse()
    except RecursionError:
        raise ConditionError("the condition nests too deeply", 0) from None


# the fields of the ``time`` root (condition.time_view makes them)
TIME_FIELDS = (
    "year",
    "month",
    "day",
    "hour",
    "minute",
    "second",
    "weekday",
    "weekday_num",
    "date",
    "clock",
    "epoch",
)
