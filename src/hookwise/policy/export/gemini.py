"""Gemini CLI's policy engine (0.61.0): ``[[rule]]`` tables in a TOML file under
``~/.gemini/policies`` (the user tier; the workspace tier is disabled in this version).

Facts of its matcher (bundle: buildArgsPatterns, PolicyEngine.check/checkShellCommand):
a shell rule's regex is searched in the stable JSON of the arguments, keys sorted and each
top-level pair between NUL characters, ``"command":"`` put before ``commandRegex``; a
compound command is split and each part checked alone. ``commandPrefix`` also matches
after a JSON-escaped quote (``--force"x"``, which bash reads as ``--forcex``), so the
export writes ``commandRegex`` that ends the prefix only at a space, a tab (``\\t``) or
the end of the command. ``deny`` beats everything in non-interactive mode too;
``ask_user`` is a deny there. MCP server names with ``_`` are split wrongly by Gemini.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from hookwise.policy.export.model import (
    Analysis,
    Intent,
    McpTool,
    Native,
    PathGlob,
    Prefix,
    WholeTool,
    header,
)
from hookwise.protocol.hosts import HOSTS, mcp_call_name

HOST = "gemini"  # the host whose permission rules this module writes
TARGET = "~/.gemini/policies/hookwise.toml"
# a file hookwise owns whole (``install --native``), per scope: relative to the host's config
# directory (protocol.hosts.config_path) for "user"
FILES = {"user": ".gemini/policies/hookwise.toml"}
# 0..999 inside the user tier. At the top: Gemini's own "Allow always" saves its rule in the
# same tier at 950 (``auto-saved.toml``), and the highest priority that matches decides, so a
# deny at 900 let such an allow through (observed, tests/e2e/test_gemini_policy_tier_live.py);
# only a rule written at 999 by hand ties with it now, and doctor reports that one.
PRIORITY = {"deny": 999, "ask": 998}
_DECISION = {"deny": "deny", "ask": "ask_user"}
# after the prefix: a space, an escaped tab, or the end of the command string
_WORD_END = r'(?: |\\t|"\x00)'
_SERVER = re.compile(r"[A-Za-z0-9-]+")
# JavaScript's syntax characters: escaped, they are valid with or without the `u` flag
_SYNTAX = re.compile(r"[\\^$.|?*+()\[\]{}/]")


def command_regex(words: tuple[str, ...]) -> str:
    """The commandRegex for a prefix: its JSON text, escaped, then a word end."""
    encoded = json.dumps(" ".join(words), ensure_ascii=False)[1:-1]
    return _SYNTAX.sub(r"\\\g<0>", encoded) + _WORD_END


def entries(intent: Intent, analysis: Analysis) -> tuple[list[str], str | None]:
    """The TOML ``[[rule]]`` tables for one intent (one line of fields each), or why none."""
    decision = _DECISION[analysis.decision]
    tail = f"decision = {json.dumps(decision)}\npriority = {PRIORITY[analysis.decision]}"
    if analysis.decision == "deny" and analysis.reason:
        tail += f"\ndenyMessage = {json.dumps(analysis.reason, ensure_ascii=False)}"
    if isinstance(intent, Prefix):
        regex = command_regex(intent.words)
        return [f'toolName = "run_shell_command"\ncommandRegex = {json.dumps(regex)}\n{tail}'], None
    if isinstance(intent, WholeTool):
        names = [h for h, c in HOSTS["gemini"].tools.items() if c == intent.tool]
        if not names:
            return [], f"Gemini CLI has no tool `{intent.tool}`"
        return [f"toolName = {json.dumps(names)}\n{tail}"], None
    if isinstance(intent, McpTool):
        if not _SERVER.fullmatch(intent.server):
            return [], f"MCP server {intent.server!r}: Gemini CLI splits names with `_` wrongly"
        # toolName is required by Gemini's schema (a rule without it makes Gemini skip the
        # whole file, every other entry with it: observed); "*" with mcpName is the server's
        # every tool (``mcp_<server>_*``)
        tool = intent.tool if intent.tool is not None else "*"
        if intent.tool is not None:
            # Gemini calls the tool by the name it makes (mcp_call_name: sanitised, cut past
            # 63 characters), and its engine matches mcp_<mcpName>_<toolName> against that
            # name: the rule names what follows the prefix in it (s28 F11). A cut name may be
            # another tool's too (the same first and last 30 characters): stricter there.
            called = mcp_call_name(HOST, intent.server, intent.tool) or ""
            prefix = f"mcp_{intent.server}_"  # (formatMcpToolName)
            if not called.startswith(prefix):
                return [], (
                    f"Gemini CLI calls the tool {called!r} (its name made valid or cut to 63 "
                    "characters), which no rule naming the server matches"
                )
            tool = called[len(prefix) :]
        head = f"mcpName = {json.dumps(intent.server)}"
        head += f"\ntoolName = {json.dumps(tool)}"
        out = [f"{head}\n{tail}"]
        if intent.tool is None:  # its resources: built-in tools no mcpName rule reaches
            out += [
                f"toolName = {json.dumps(tool)}\nargsPattern = {json.dumps(pattern)}\n{tail}"
                for tool, pattern in _resource_patterns(intent.server)
            ]
        return out, None
    assert isinstance(intent, PathGlob)
    return [], (
        "Gemini CLI's rules see a path only as the model wrote it (relative or absolute, "
        "unresolved), so a path rule is left to the hook"
    )


def _resource_patterns(server: str) -> list[tuple[str, str]]:
    """The calls of Gemini's built-in resource tools on ``server`` (a name of
    ``[A-Za-z0-9-]``, nothing to escape), as argsPatterns on the arguments' stable JSON
    (each top-level pair between NULs): read_mcp_resource ``{uri: "SERVER:URI"}`` reads
    the server before the first colon (observed: an ``mcpName`` rule does not stop it,
    tests/e2e/fixtures/gemini-mcp-resource.jsonl), list_mcp_resources ``{serverName}``."""
    return [
        ("read_mcp_resource", f'\\x00"uri":"{server}:'),
        ("list_mcp_resources", f'\\x00"serverName":"{server}"\\x00'),
    ]


def gaps(analysis: Analysis) -> list[str]:
    """What Gemini's rules leave out of a rule whatever its intents."""
    if any(isinstance(i, McpTool) and i.tool is None for i in analysis.intents):
        return [
            "listing every server's resources (list_mcp_resources without serverName) "
            "names this server's resources too; the entries stop its tools, reading its "
            "resources and listing it by name"
        ]
    return []


def render(natives: list[Native]) -> str:
    out = [header("gemini", "#")]
    for native in natives:
        out.append(f"\n# {native.rule}\n[[rule]]\n{native.entry}\n")
    return "".join(out)


def preempting_rules(
    content: str, target: Path, env: Mapping[str, str], project: Path
) -> tuple[list[dict[str, Any]], list[str]]:
    """``doctor``: the rules of other policy files Gemini CLI ranks at or above this file's
    entries that can let through what they refuse (``gemini_engine``), and why Gemini would
    not hold this file's entries at all (not read from where it is, or skipped whole)."""
    from hookwise.config.gemini.paths import SettingsPaths
    from hookwise.config.gemini.settings import load_settings
    from hookwise.config.host_homes import gemini_home
    from hookwise.policy.export import gemini_engine as engine
    from hookwise.protocol.profiles import Profile

    home = Path(gemini_home(env))
    paths = SettingsPaths.from_environment(project, env=env, home=home)
    settings = load_settings(paths, profile=Profile.GEMINI_CLI, env=env).merged
    problems: list[str] = []
    dirs = engine.user_dirs(settings, home)
    real = os.path.realpath(target)
    if not any(real == os.path.realpath(d) or Path(real).parent == Path(os.path.realpath(d))
               for d in dirs):  # fmt: skip
        where = ", ".join(str(d) for d in dirs)
        problems.append(
            f"Gemini CLI reads its user policies from policyPaths ({where}), not from the "
            f"directory of {target}: none of its entries is enforced"
        )
    ours = engine.parse_rules(content, str(target), engine.USER_TIER)
    if isinstance(ours, str):
        problems.append(f"{target}: Gemini CLI skips the whole file ({ours})")
        return [], problems
    system = engine.system_policies()
    found = engine.preempting(ours, settings=settings, home=home, system=system, own=target)
    return found, problems
