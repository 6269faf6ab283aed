"""A compiled policy rule, host-neutral: the command prefixes, whole tools, paths and MCP
tools that say part or all of it, and what nothing a host writes can say.

Sound by construction, for every host: an intent only ever names calls the rule's own
matchers hold for (a prefix carries the rule's program, arguments and flags; a path
glob is one of the rule's globs, never widened), and a rule with a condition a host
rule cannot carry (``when``, ``fields``, excluded paths, a command limited to some
files...) gives no intent at all, because an entry without that condition would deny
calls the rule lets through. The engine is the judge: it denies whenever a deny rule's
matchers hold (engine.evaluate), so a narrower entry never denies what the policy allows.
"""

from __future__ import annotations

import re
from itertools import product
from typing import Any

from hookwise.policy.export.model import (
    Analysis,
    Intent,
    McpTool,
    PathGlob,
    PathKind,
    Prefix,
    WholeTool,
)
from hookwise.shell.programs import OPTIONS, canonical_flag

# the matchers a host's own rule can stand for (narrowed by the host's exporter)
_EXPRESSIBLE = frozenset(("tool", "command", "files", "mcp", "host"))
# a word that means itself to bash and to every host's prefix matcher: no quoting,
# expansion, comment, assignment or redirection
_PLAIN_WORD = re.compile(r"[A-Za-z0-9_@%+,.:/-][A-Za-z0-9_@%+,.:/=-]*")
_PLAIN_LITERAL = re.compile(r"[A-Za-z0-9_@%+,.:/ =-]+")
_MAX_PREFIXES = 24  # spellings of one command pattern before the rest is left to the hook
SPELLINGS_GAP = (
    "only the spellings above, at the start of a command, are enforced: other option "
    "orders, clustered flags (-rf), a path to the program, wrappers (sudo, env, bash -c) "
    "and commands inside other programs are left to the hook"
)


def glob_text(glob: Any) -> str | None:
    """A compiled glob (globs.py) written back with ``*``, ``**`` and ``?`` only; None
    when it has alternatives, character classes or characters a host reads as syntax."""
    if isinstance(glob, str):  # the cache's form of a one-literal glob
        return glob if _PLAIN_LITERAL.fullmatch(glob) else None
    if len(glob) != 1:
        return None
    out: list[str] = []
    for token in glob[0]:
        kind = token[0]
        if kind == "L":
            if not _PLAIN_LITERAL.fullmatch(str(token[1])):
                return None
            out.append(str(token[1]))
        elif kind in ("*", "**", "**/", "?"):
            out.append(kind)
        else:
            return None
    return "".join(out)


def _literal(glob: Any) -> str | None:
    text = glob_text(glob)
    return None if text is None or any(c in text for c in "*?") else text


def applies_to(rule: dict[str, Any], host: str, pre_tool_event: str) -> bool:
    """Whether the rule is evaluated before a tool runs on ``host`` at all."""
    on = rule.get("on", {})
    if "tool.before" not in on:
        return False
    hosts = on["tool.before"]
    if hosts is not None and f"{host}:{pre_tool_event}" not in hosts:
        return False
    only = rule["m"].get("host")
    return only is None or host in only


def spellings(program: str, flag: str) -> list[str]:
    """Every spelling of ``flag`` the matcher reads as the same option of ``program``
    (programs.OPTIONS), the rule's own first; each is checked with canonical_flag."""
    canonical = canonical_flag(program, flag)
    out = [flag]
    for group in OPTIONS.get(program, ((), (), frozenset()))[0]:
        if canonical in group:
            out += [s for s in group if s not in out and canonical_flag(program, s) == canonical]
    return [s for s in out if _PLAIN_WORD.fullmatch(s)]


def _spec_prefixes(spec: dict[str, Any]) -> tuple[list[Prefix], str | None]:
    """The prefixes one command pattern names, or why it names none."""
    shown = spec.get("pattern") or spec.get("source") or "{...}"
    for key in ("regex", "line_regex", "writes"):
        if spec.get(key):
            return [], f"command {shown}: its `{key}` has no counterpart in a prefix"
    programs = spec.get("programs")
    if not programs:
        return [], f"command {shown}: a program given by a glob has no prefix"
    args: list[str] = []
    for glob in spec.get("args", []):
        text = _literal(glob)
        if text is None or not _PLAIN_WORD.fullmatch(text) or text.startswith("-"):
            return [], f"command {shown}: an argument given by a glob has no prefix"
        args.append(text)
    out: list[Prefix] = []
    for program in programs:
        if not _PLAIN_WORD.fullmatch(program) or "=" in program:
            return [], f"command {shown}: program {program!r} needs quoting"
        required = [spellings(program, f) for f in spec.get("flags", [])]
        if any(not s for s in required):
            return [], f"command {shown}: a flag needs quoting"
        alternatives: list[list[str]] = [[]]
        if spec.get("any_flags"):
            alternatives = [[s] for f in spec["any_flags"] for s in spellings(program, f)]
        for choice in product(*required):
            for extra in alternatives:
                words = (program, *args, *choice, *extra)
                if len(set(words[len(args) + 1 :])) == len(words) - len(args) - 1:
                    out.append(Prefix(words))
    unique = list(dict.fromkeys(out))
    if len(unique) > _MAX_PREFIXES:
        return unique[:_MAX_PREFIXES], f"command {shown}: more spellings than exported"
    return unique, None


def _tools(m: dict[str, Any]) -> tuple[frozenset[str] | None, str | None]:
    spec = m.get("tool")
    if spec is None:
        return None, None
    if spec.get("globs"):
        return None, "tool given by a glob"
    return frozenset(spec["names"]), None


def _mcp_name(name: str) -> McpTool | None:
    parts = name.split("__")
    if len(parts) != 3 or parts[0] != "mcp" or not all(parts[1:]):
        return None
    return McpTool(parts[1], parts[2])


def _path_intents(
    spec: dict[str, Any], tools: frozenset[str] | None
) -> tuple[list[Intent], list[str]]:
    intents: list[Intent] = []
    gaps: list[str] = []
    if spec.get("exclude"):
        # a host's path rule has no exceptions: the glob without them denies excluded paths
        return [], ["its files matcher excludes paths, and a host's path rule has no exceptions"]
    if spec.get("outside") is not None:
        return [], ["`outside_workspace` has no counterpart in a host's path rule"]
    for entry in spec.get("globs", []):
        compiled, slashy, absolute = entry
        text = glob_text(compiled)
        if text is None:
            gaps.append("a files glob with alternatives or character classes")
            continue
        kind: PathKind = "absolute" if absolute else ("relative" if slashy else "name")
        intents.append(PathGlob(kind, text, tools))
    for ext in spec.get("extensions", []):
        if _PLAIN_LITERAL.fullmatch(ext) and " " not in ext:
            intents.append(PathGlob("name", "*" + ext, tools))
        else:
            gaps.append(f"extension {ext!r} needs quoting")
    return intents, gaps


def analyse(rule: dict[str, Any]) -> Analysis:
    """What of one enabled, enforced deny or ask rule a host's own entries can say."""
    out = Analysis(
        rule["id"], rule["action"], str(rule.get("reason") or rule.get("description") or "")
    )
    m = rule["m"]
    blocked = sorted(k for k in m if k not in _EXPRESSIBLE)
    if "when" in rule or blocked:
        what = ", ".join([*(f"`{k}`" for k in blocked), *(["`when`"] if "when" in rule else [])])
        out.gaps.append(
            f"it holds only under {what}, which no host rule carries; an entry without it "
            "would deny calls the policy lets through"
        )
        return out
    tools, why = _tools(m)
    if why is not None:
        out.gaps.append(why)
        return out
    command, files, mcp = m.get("command"), m.get("files"), m.get("mcp")
    if command is not None:
        if files is not None or mcp is not None:
            out.gaps.append(
                "its commands count only with the files (or MCP tool) it names, which a "
                "command prefix cannot say"
            )
            return out
        if tools is not None and "shell" not in tools:
            return out  # a command matcher on tools without commands never holds
        for spec in command:
            prefixes, gap = _spec_prefixes(spec)
            out.intents += prefixes
            if gap:
                out.gaps.append(gap)
        if out.intents:
            out.gaps.append(SPELLINGS_GAP)
        return out
    if files is not None:
        if mcp is not None:
            out.gaps.append("files of an MCP tool have no host counterpart")
            return out
        intents, gaps = _path_intents(files, tools)
        out.intents += intents
        out.gaps += gaps
        return out
    if mcp is not None:
        if tools is not None:
            out.gaps.append("an MCP matcher with a tool matcher has no host counterpart")
            return out
        for server_glob in mcp.get("server") or []:
            server = _literal(server_glob)
            if server is None or " " in server:
                out.gaps.append("an MCP server given by a glob")
                continue
            names = mcp.get("tool")
            if not names:
                out.intents.append(McpTool(server, None))
                continue
            for tool_glob in names:
                text = glob_text(tool_glob)
                if text == "*":
                    out.intents.append(McpTool(server, None))
                elif text is not None and "*" not in text and "?" not in text and " " not in text:
                    out.intents.append(McpTool(server, text))
                else:
                    out.gaps.append(f"MCP tools of {server} given by a glob")
        if not mcp.get("server"):
            out.gaps.append("an MCP matcher without a server")
        return out
    for name in sorted(tools or ()):
        found = _mcp_name(name)
        out.intents.append(found if found is not None else WholeTool(name))
    return out
