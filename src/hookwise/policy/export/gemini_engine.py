"""Gemini CLI 0.61.0's policy engine as far as ``doctor`` needs it: which files it reads in
which tier, each rule's effective priority, and which rule of another file can decide a call
before hookwise's exported deny or ask does.

Facts, from the CLI's bundle (chunk ``createPolicyEngineConfig``, ``loadPoliciesFromToml``,
``PolicyEngine``): the directories are read as tiers, admin 5 (``/etc/gemini-cli/policies``
and ``adminPolicyPaths``, the latter ignored when the system directory holds a ``.toml``),
user 4 (``policyPaths`` of the settings when given, *instead of* ``~/.gemini/policies``),
workspace 3 (disabled in 0.61.0) and the defaults 1; each directory's regular ``*.toml``
files (a symbolic link is skipped: ``Dirent.isFile``). A rule's priority is ``tier +
priority/1000``; the rules are sorted by it, highest first (a stable sort: at equal priority
the order the files were read decides, and ``readdir`` promises no order), and the first rule
that matches the call decides it. Gemini's own "Allow always" writes ``auto-saved.toml`` in the
user directory at priority 950. A file that fails to parse or validate is skipped whole.
"""

from __future__ import annotations

import json
import os
import re
import sys
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ADMIN_TIER, USER_TIER = 5, 4
SYSTEM_POLICIES = {
    "darwin": "/Library/Application Support/GeminiCli/policies",
    "win32": "C:\\ProgramData\\gemini-cli\\policies",
}
LINUX_SYSTEM_POLICIES = "/etc/gemini-cli/policies"
MCP_PREFIX = "mcp_"
ALIASES = {"search_file_content": "grep_search"}  # TOOL_LEGACY_ALIASES
MAX_POLICY_BYTES = 1 << 20


def system_policies(platform: str | None = None) -> Path:
    """``Storage.getSystemPoliciesDir()``: fixed per platform (no variable moves it)."""
    return Path(SYSTEM_POLICIES.get(platform or sys.platform, LINUX_SYSTEM_POLICIES))


@dataclass(frozen=True)
class Rule:
    """One ``[[rule]]`` as the engine holds it (one per tool name and args pattern)."""

    file: str
    index: int  # the rule's place in its file, from 1
    tool: str  # the effective tool name (``mcp_<server>_<tool>`` with ``mcpName``)
    server: str | None
    decision: str
    priority: float
    prefix: str | None  # commandPrefix
    regex: str | None  # argsPattern, or ``"command":"`` + commandRegex
    modes: tuple[str, ...]


def _tool_name(server: str | None, tool: str) -> str:
    """``formatMcpToolName``: the name a rule with ``mcpName`` matches."""
    if server is None:
        return tool
    if server == "*":
        return f"{MCP_PREFIX}*" if tool == "*" else f"{MCP_PREFIX}*_{tool}"
    return f"{MCP_PREFIX}{server}_*" if tool == "*" else f"{MCP_PREFIX}{server}_{tool}"


def parse_rules(text: str, file: str, tier: int) -> list[Rule] | str:
    """The rules of one policy file, or why Gemini skips the whole file."""
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        return f"not TOML ({exc})"
    rules: list[Rule] = []
    raw = doc.get("rule", [])
    if not isinstance(raw, list):
        return "`rule` is not an array of tables"
    for index, item in enumerate(raw, 1):
        problem = _invalid(item)
        if problem:
            return f"rule #{index}: {problem}"
        server = item.get("mcpName")
        tools = item["toolName"] if isinstance(item["toolName"], list) else [item["toolName"]]
        prefixes = item.get("commandPrefix")
        prefixes = [prefixes] if isinstance(prefixes, str) else prefixes
        regex = item.get("argsPattern")
        if "commandRegex" in item:
            regex = '"command":"' + item["commandRegex"]
        modes = tuple(item.get("modes", []))
        for prefix in prefixes or [None]:
            for tool in tools:
                rules.append(
                    Rule(
                        file,
                        index,
                        _tool_name(server, tool),
                        server,
                        item["decision"],
                        tier + item["priority"] / 1000,
                        prefix,
                        None if prefix is not None else regex,
                        modes,
                    )
                )
    return rules


def _invalid(item: Any) -> str | None:
    """What ``PolicyRuleSchema`` refuses (the fields this module reads)."""
    if not isinstance(item, dict):
        return "not a table"
    tools = item.get("toolName")
    names = tools if isinstance(tools, list) else [tools]
    if not names or not all(isinstance(n, str) and n for n in names):
        return "toolName (a string or a list of strings) is required"
    if item.get("decision") not in ("allow", "deny", "ask_user"):
        return "decision must be allow, deny or ask_user"
    priority = item.get("priority")
    if isinstance(priority, bool) or not isinstance(priority, int) or not 0 <= priority <= 999:
        return "priority must be an integer from 0 to 999"
    prefix = item.get("commandPrefix")
    if prefix is not None and not (
        isinstance(prefix, str)
        or (isinstance(prefix, list) and all(isinstance(p, str) for p in prefix))
    ):
        return "commandPrefix must be a string or a list of strings"
    for key in ("mcpName", "argsPattern", "commandRegex"):
        if key in item and not isinstance(item[key], str):
            return f"{key} must be a string"
    if item.get("mcpName") == "":
        return "mcpName must not be empty"
    return None


def tier_files(settings: Mapping[str, Any], home: Path, system: Path) -> list[tuple[Path, int]]:
    """Every policy file Gemini reads above the workspace tier, with its tier, in the order
    it reads them (``getPolicyDirectories``)."""
    admin: list[Path] = [system]
    if not _has_toml(system):
        admin += [Path(p) for p in _paths(settings.get("adminPolicyPaths"))]
    user = [Path(p) for p in _paths(settings.get("policyPaths"))] or [home / ".gemini" / "policies"]
    found: list[tuple[Path, int]] = []
    for tier, places in ((ADMIN_TIER, admin), (USER_TIER, user)):
        for place in places:
            found += [(f, tier) for f in _policy_files(place)]
    return found


def user_dirs(settings: Mapping[str, Any], home: Path) -> list[Path]:
    """Where the user tier is read from: ``policyPaths`` replaces ``~/.gemini/policies``."""
    return [Path(p) for p in _paths(settings.get("policyPaths"))] or [home / ".gemini" / "policies"]


def _paths(value: Any) -> list[str]:
    if not isinstance(value, list):
        return []
    return [os.path.abspath(os.path.expanduser(v)) for v in value if isinstance(v, str) and v]


def _has_toml(place: Path) -> bool:
    try:
        return any(n.endswith(".toml") for n in os.listdir(place))
    except OSError:
        return False


def _policy_files(place: Path) -> list[Path]:
    """A directory's regular ``*.toml`` files (links skipped), or the file itself."""
    try:
        if place.is_dir():
            with os.scandir(place) as entries:
                return sorted(
                    Path(e.path)
                    for e in entries
                    if e.name.endswith(".toml") and e.is_file(follow_symlinks=False)
                )
        if place.is_file() and place.name.endswith(".toml"):
            return [place]
    except OSError:
        return []
    return []


# --------------------------------------------------------------------------- overlap


def _stable_args(command: str) -> str:
    """``stableStringify`` of a shell call's arguments: keys sorted, each top-level pair
    between NUL characters."""
    return "{\x00" + '"command":' + json.dumps(command, ensure_ascii=False) + "\x00}"


def _canonical(name: str) -> str:
    """A tool's current name (``getToolAliases``: a rule may name a tool by its old one)."""
    return ALIASES.get(name, name)


def _wildcard(pattern: str) -> bool:
    """The patterns ``matchesWildcard`` expands; any other name with ``*`` is literal."""
    return pattern in ("*", f"{MCP_PREFIX}*") or (
        pattern.startswith(MCP_PREFIX) and pattern.endswith("_*")
    )


def _matches(pattern: str, name: str) -> bool:
    if pattern == "*":
        return True
    if pattern == f"{MCP_PREFIX}*":
        return name.startswith(MCP_PREFIX)
    if _wildcard(pattern):  # mcp_<server>_*
        return name.startswith(pattern[:-1])
    return _canonical(pattern) == _canonical(name)


def _names_overlap(a: str, b: str) -> bool:
    """Whether one tool call can match both tool names."""
    if not _wildcard(a):
        return _matches(b, a)
    if not _wildcard(b):
        return _matches(a, b)
    return a.startswith(b[:-1]) or b.startswith(a[:-1])  # both end in "*"


def _prefix_regex(prefix: str) -> str:
    """``buildArgsPatterns`` for a ``commandPrefix``."""
    encoded = json.dumps(prefix, ensure_ascii=False)[:-1]
    escaped = re.sub(
        r'[-\[\]{}()*+?.,\\^$|#\s"]', lambda m: "\\" + m.group(0), f'"command":{encoded}'
    )
    return escaped + r'(?:[\s"]|\\")'


def _samples(ours: Rule) -> list[str]:
    """Commands hookwise's shell entry refuses, to try another rule's pattern on."""
    if ours.regex is None or not ours.regex.startswith('"command":"'):
        return []
    words = _words(ours.regex[len('"command":"') :])
    return [words, f"{words} x", f"{words} -f ./x"] if words else []


def _words(regex: str) -> str:
    """The literal command prefix of an exported ``commandRegex`` (``export.gemini``)."""
    out, at = [], 0
    while at < len(regex):
        char = regex[at]
        if char == "\\" and at + 1 < len(regex):
            out.append(regex[at + 1])
            at += 2
        elif char == "(":
            break
        else:
            out.append(char)
            at += 1
    try:
        text: str = json.loads('"' + "".join(out) + '"')
    except ValueError:
        return ""
    return text


def can_preempt(other: Rule, ours: Rule) -> bool:
    """Whether ``other`` can decide a call ``ours`` refuses before ours is reached: it
    allows or asks, it ranks at least as high (equal: the read order decides), and some call
    ``ours`` matches matches it too. A pattern is tried on commands ours refuses; a pattern
    that matches none of them is taken not to overlap (a regex's reach is not computed)."""
    from hookwise.protocol.jsregex import compile_js_regex, js_regex_test

    if other.decision == "deny" or other.priority < ours.priority:
        return False
    if ours.decision == "ask_user" and other.decision == "ask_user":
        return False
    if not _names_overlap(other.tool, ours.tool):
        return False
    if other.server not in (None, "*") and ours.server not in (None, "*", other.server):
        return False
    if other.prefix is None and other.regex is None:
        return True  # the whole tool
    samples = _samples(ours)
    if not samples:  # ours is a whole tool or server: any call of it
        return True
    source = _prefix_regex(other.prefix) if other.prefix is not None else other.regex or ""
    pattern = compile_js_regex(source)
    if pattern is None:
        return False  # Gemini drops a rule whose regex does not compile
    return any(js_regex_test(pattern, _stable_args(s)) for s in samples)


def preempting(
    ours: list[Rule], *, settings: Mapping[str, Any], home: Path, system: Path, own: Path
) -> list[dict[str, Any]]:
    """Every rule of another file in the admin and user tiers that can decide a call before
    one of ``ours`` (the file ``own``): one item a rule, naming the entry it pre-empts."""
    found: list[dict[str, Any]] = []
    own_real = os.path.realpath(own)
    for path, tier in tier_files(settings, home, system):
        if os.path.realpath(path) == own_real:
            continue
        try:
            with open(path, "rb") as handle:
                text = handle.read(MAX_POLICY_BYTES + 1).decode("utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        rules = parse_rules(text, str(path), tier)
        if isinstance(rules, str):
            continue  # Gemini skips the whole file too
        for rule in rules:
            hit = next((o for o in ours if can_preempt(rule, o)), None)
            if hit is not None:
                found.append(
                    {
                        "file": str(path),
                        "rule": rule.index,
                        "tool": rule.tool,
                        "decision": rule.decision,
                        "priority": round(rule.priority, 3),
                        "tier": "admin" if tier == ADMIN_TIER else "user",
                        "over": hit.tool + (f" {_words(hit.regex[11:])!r}" if hit.regex else ""),
                        "equal": rule.priority == hit.priority,
                        "modes": list(rule.modes),
                    }
                )
    return found
