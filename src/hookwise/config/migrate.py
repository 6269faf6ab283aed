"""Moving hooks between Gemini CLI, Claude Code and Codex settings.

What is converted, hook by hook:

* **Events**: Claude Code <-> Gemini CLI with Gemini CLI's own map (PreToolUse/BeforeTool,
  PostToolUse/AfterTool, UserPromptSubmit/BeforeAgent, Stop/AfterAgent, SessionStart,
  SessionEnd, PreCompact/PreCompress, Notification) and its reverse; Claude Code <-> Codex by
  name (Codex uses Claude Code's names). Gemini CLI <-> Codex goes through Claude Code's
  names. An event without a counterpart is reported, never dropped silently. (Gemini CLI's
  map also sends ``SubAgentStop`` to AfterAgent, a key that matches no Claude Code event;
  hookwise reports SubagentStop as unmappable: AfterAgent ends the main agent's turn.)
* **Tool names in matchers** (as ``\\bName\\b``, like Gemini CLI's migration): Bash /
  run_shell_command, Edit / replace, Write / write_file, Read / read_file, Glob / glob,
  Grep / grep_search (search_file_content too), LS / list_directory, WebFetch / web_fetch,
  WebSearch / google_web_search. Codex's ``apply_patch`` becomes Edit|Write (replace|
  write_file); Claude Code's Edit and Write stay as they are for Codex, whose matchers try
  them as aliases of apply_patch. A tool Codex does not have is reported. Claude Code's
  exact-name lists (``Edit, Write``) become regex alternations for the other two.
* **Commands**: ``$CLAUDE_PROJECT_DIR`` <-> ``$GEMINI_PROJECT_DIR``; for Codex, which sets no
  such variable and runs hooks in the session's directory, both become ``$PWD``. Claude
  Code's exec form (``args``) becomes one shell-quoted command line.
* **Timeouts**: Gemini CLI counts milliseconds, Claude Code and Codex seconds (Codex whole
  seconds, rounded up). 30 s is 30000 ms, never 30 ms (Gemini CLI's own migration copies the
  number, a known bug). Hooks without a timeout get a note where the default differs.

Only command hooks move; fields the target lacks are dropped with a note. The target file
keeps everything it had: converted hooks are appended, and a hook already there (same event,
matcher and command) is not added again, so running the migration twice changes nothing.
"""

from __future__ import annotations

import json
import math
import os
import re
import shlex
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from hookwise.config.atomic import write_text_atomic
from hookwise.config.claude.settings import UNSUPPORTED_EVENTS, ClaudePaths
from hookwise.config.codex.settings import (
    CodexPaths,
    parse_codex_config_text,
    parse_codex_hooks_json_text,
)
from hookwise.config.detect import Dialect
from hookwise.config.dialect_hooks import json_type, read_text_file
from hookwise.config.diff import unified_diff
from hookwise.config.hookwise_command import is_hookwise_command, portable_command, portable_host
from hookwise.config.jsonc import parse_json_text, parse_jsonc, strip_json_comments
from hookwise.protocol.claude import CLAUDE, EXACT_MATCHER_CHARS
from hookwise.protocol.codex import CODEX
from hookwise.protocol.dialect import Kind
from hookwise.protocol.gemini import DEFAULT_TIMEOUT_MS, EVENTS, HOOKS_CONFIG_FIELDS, MatcherKind
from hookwise.protocol.hosts import HOST_TITLES
from hookwise.protocol.jsvalue import JSON

__all__ = [
    "CLAUDE_TO_GEMINI_EVENTS",
    "CLAUDE_TO_GEMINI_TOOLS",
    "GEMINI_TO_CLAUDE_EVENTS",
    "GEMINI_TO_CLAUDE_TOOLS",
    "Converted",
    "Migration",
    "MigrationError",
    "convert_hooks",
    "map_event",
    "plan_migration",
    "target_path",
]


def _events_by_kind() -> dict[str, str]:
    """Claude Code event -> the Gemini CLI event of the same kind (the protocol tables'
    ``kind``); of several Claude events of one kind (Stop, SubagentStop) the first."""
    gemini: dict[Kind, str] = {}
    for spec in EVENTS.values():
        if spec.kind is not None:
            gemini.setdefault(spec.kind, spec.name)
    mapped: dict[str, str] = {}
    taken: set[Kind] = set()
    for name, event in CLAUDE.events.items():
        if event.kind in gemini and event.kind not in taken:
            taken.add(event.kind)
            mapped[name] = gemini[event.kind]
    return mapped


CLAUDE_TO_GEMINI_EVENTS: Final = _events_by_kind()
GEMINI_TO_CLAUDE_EVENTS: Final = {v: k for k, v in CLAUDE_TO_GEMINI_EVENTS.items()}

CLAUDE_TO_GEMINI_TOOLS: Final = {
    "Bash": "run_shell_command",
    "Edit": "replace",
    "Write": "write_file",
    "Read": "read_file",
    "Glob": "glob",
    "Grep": "grep_search",
    "LS": "list_directory",
    "WebFetch": "web_fetch",
    "WebSearch": "google_web_search",
}
GEMINI_TO_CLAUDE_TOOLS: Final = {
    **{v: k for k, v in CLAUDE_TO_GEMINI_TOOLS.items()},
    "search_file_content": "Grep",
}
# Claude Code tools Codex has (Edit and Write match apply_patch as aliases).
CODEX_TOOLS_FROM_CLAUDE: Final = frozenset({"Bash", "Edit", "Write"})
CODEX_ONLY_TOOLS: Final = {"apply_patch": ("Edit", "Write")}
# Claude Code tools a matcher may name (for "Codex has no such tool" notes).
CLAUDE_TOOLS: Final = frozenset(
    {*CLAUDE_TO_GEMINI_TOOLS, "NotebookEdit", "Agent", "Task", "TodoWrite", "PowerShell"}
)

_CLAUDE_ALL_EVENTS: Final = frozenset({*CLAUDE.events, *UNSUPPORTED_EVENTS})
_PROJECT_DIR_VARS: Final = {
    "claude": "CLAUDE_PROJECT_DIR",
    "gemini": "GEMINI_PROJECT_DIR",
    "codex": "PWD",
}
_VARS_SET: Final[dict[str, tuple[str, ...]]] = {
    "gemini": (
        "GEMINI_PROJECT_DIR",
        "GEMINI_CWD",
        "GEMINI_SESSION_ID",
        "GEMINI_PLANS_DIR",
        "CLAUDE_PROJECT_DIR",
    ),
    "claude": ("CLAUDE_",),  # CLAUDE_PROJECT_DIR, CLAUDE_PLUGIN_*, CLAUDE_ENV_FILE, CLAUDE_CODE_*
    "codex": (),
}
_VAR_RE: Final = re.compile(r"\$\{?((?:CLAUDE|GEMINI)_[A-Za-z0-9_]*)")


class MigrationError(Exception):
    """The target file cannot take the migrated hooks (it is malformed)."""


# --------------------------------------------------------------------------- events


def _host(dialect: str) -> str:
    return HOST_TITLES.get(dialect, dialect)


def map_event(event: str, source: Dialect, target: Dialect) -> str | None:
    """The target's name for ``event``, or None when the target has no such event."""
    if source == "gemini":
        claude: str | None = GEMINI_TO_CLAUDE_EVENTS.get(event)
    elif source == "codex":
        claude = event if event in CODEX.events else None
    else:
        claude = event if event in _CLAUDE_ALL_EVENTS else None
    if claude is None:
        return None
    if target == "gemini":
        return CLAUDE_TO_GEMINI_EVENTS.get(claude)
    if target == "codex":
        return claude if claude in CODEX.events else None
    return claude


def _known_event(event: str, dialect: Dialect) -> bool:
    if dialect == "gemini":
        return event in EVENTS
    if dialect == "codex":
        return event in CODEX.events
    return event in _CLAUDE_ALL_EVENTS


def _matcher_kind(event: str, dialect: Dialect) -> str:
    """ "tool", "value" (an exact lifecycle value) or "ignored", for an event of a dialect."""
    if dialect == "gemini":
        kind = EVENTS[event].matcher
        if kind is MatcherKind.TOOL_REGEX:
            return "tool"
        return "value" if kind is MatcherKind.EXACT else "ignored"
    spec = CODEX if dialect == "codex" else CLAUDE
    found = spec.events.get(event)
    if found is None or found.matcher_field is None:
        return "ignored"
    return "tool" if found.matcher_field == "tool_name" else "value"


def _default_timeout_s(event: str, dialect: Dialect) -> float:
    if dialect == "gemini":
        return DEFAULT_TIMEOUT_MS / 1000.0
    spec = CODEX if dialect == "codex" else CLAUDE
    found = spec.events.get(event)
    return found.default_timeout_s if found is not None else 600.0


# --------------------------------------------------------------------------- matchers


def _tool_map(source: Dialect, target: Dialect) -> dict[str, tuple[str, ...]]:
    """Source tool name -> target names (several when one tool is two on the other side)."""
    to_claude: dict[str, tuple[str, ...]]
    if source == "gemini":
        to_claude = {k: (v,) for k, v in GEMINI_TO_CLAUDE_TOOLS.items()}
    elif source == "codex":
        to_claude = {**{t: (t,) for t in CODEX_TOOLS_FROM_CLAUDE}, **CODEX_ONLY_TOOLS}
    else:
        to_claude = {t: (t,) for t in CLAUDE_TOOLS}
    result: dict[str, tuple[str, ...]] = {}
    for name, claude_names in to_claude.items():
        if target == "gemini":
            names = tuple(CLAUDE_TO_GEMINI_TOOLS.get(c, c) for c in claude_names)
        else:
            names = claude_names
        if names != (name,):
            result[name] = names
    return result


def _is_name_list(matcher: str) -> bool:
    return re.fullmatch(r"\s*[\w-]+(?:\s*[|,]\s*[\w-]+)*\s*", matcher) is not None


def convert_matcher(
    matcher: str, source: Dialect, target: Dialect, path: str, notes: list[str]
) -> str:
    """Tool names inside a tool matcher, in the target's names."""
    text = matcher
    if source == "claude" and all(ch in EXACT_MATCHER_CHARS for ch in text) and "," in text:
        text = "|".join(part.strip() for part in re.split(r"[|,]", text) if part.strip())
    mapping = _tool_map(source, target)
    simple = _is_name_list(text)
    if mapping:
        pattern = re.compile(r"\b(" + "|".join(sorted(mapping, key=len, reverse=True)) + r")\b")

        def replace(match: re.Match[str]) -> str:
            names = mapping[match.group(1)]
            joined = "|".join(names)
            return joined if simple or len(names) == 1 else f"(?:{joined})"

        text = pattern.sub(replace, text)
    if target == "codex":
        missing = sorted(
            name
            for name in CLAUDE_TOOLS - CODEX_TOOLS_FROM_CLAUDE
            if re.search(rf"\b{name}\b", text)
        )
        if missing:
            notes.append(
                f"{path}/matcher: Codex has no {', '.join(missing)} tool; the hook will not fire "
                "for it"
            )
    return text


# --------------------------------------------------------------------------- commands


def _quote_arg(arg: str) -> str:
    """Shell-quote one exec-form argument; ``$VAR``/``${VAR}`` placeholders stay expandable."""
    parts = re.split(r"(\$\{[A-Za-z_][A-Za-z0-9_]*\}|\$[A-Za-z_][A-Za-z0-9_]*)", arg)
    out = "".join(
        f'"{part}"' if part.startswith("$") else shlex.quote(part) for part in parts if part
    )
    return out or "''"


def _convert_command(
    command: str, source: Dialect, target: Dialect, path: str, notes: list[str]
) -> str:
    old = _PROJECT_DIR_VARS[source]
    new = _PROJECT_DIR_VARS[target]
    if source != "codex":
        pattern = re.compile(r"\$(\{)?" + old + r"\b(?(1)\})")
        if target == "codex" and pattern.search(command):
            notes.append(
                f"{path}/command: ${old} became $PWD: Codex sets no project-directory variable "
                "and runs hooks in the session's directory"
            )
        command = pattern.sub(lambda m: "${" + new + "}" if m.group(1) else "$" + new, command)
    allowed = _VARS_SET[target]
    unknown = sorted({name for name in _VAR_RE.findall(command) if not name.startswith(allowed)})
    if unknown:
        notes.append(
            f"{path}/command: uses ${', $'.join(unknown)}, which {_host(target)} does not set"
        )
    return command


_PLATFORM_FLAGS: Final = ("--platform", "--host", "--dialect")


def _retarget_hookwise(command: str, target: Dialect) -> str | None:
    """hookwise's own hook command answering as ``target``; None when not hookwise's.

    Copied verbatim it would keep ``--platform <source>`` and answer the target host in the
    source's protocol (Gemini CLI would fail closed on every tool call).
    """
    if not is_hookwise_command(command):
        return None
    if portable_host(command) is not None:
        return portable_command(target)
    try:
        argv = shlex.split(command)
    except ValueError:
        return None
    # the portable form carries its script as argv[2]: only look at the arguments after it
    start = 4 if len(argv) > 3 and argv[1] == "-c" else 1
    out = list(argv)
    found = False
    for index in range(start, len(out)):
        arg = out[index]
        if arg in _PLATFORM_FLAGS and index + 1 < len(out):
            out[index + 1] = target
            found = True
        elif arg.split("=", 1)[0] in _PLATFORM_FLAGS and "=" in arg:
            out[index] = f"{arg.split('=', 1)[0]}={target}"
            found = True
    if not found:
        out.extend(["--platform", target])
    return shlex.join(out)


# --------------------------------------------------------------------------- timeouts


def _convert_timeout(
    value: JSON, source: Dialect, target: Dialect, path: str, notes: list[str]
) -> int | float | None:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        notes.append(
            f"{path}/timeout: {json.dumps(value)} is not a number; dropped (the "
            f"{_host(target)} default applies)"
        )
        return None
    if value <= 0:
        notes.append(f"{path}/timeout: {value} is not positive; dropped")
        return None
    ms = float(value) if source == "gemini" else float(value) * 1000.0
    if target == "gemini":
        return max(1, round(ms))
    seconds = ms / 1000.0
    if target == "codex":
        whole = max(1, math.ceil(seconds))
        if whole != seconds:
            notes.append(
                f"{path}/timeout: Codex counts whole seconds: {seconds:g} s became {whole}"
            )
        return whole
    return int(seconds) if seconds.is_integer() else round(seconds, 3)


# --------------------------------------------------------------------------- hooks


@dataclass
class Converted:
    """Hooks in the target's shape, and what the conversion could not carry over."""

    hooks: dict[str, list[dict[str, JSON]]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    unmapped: list[str] = field(default_factory=list)
    count: int = 0
    default_changes: dict[tuple[float, float], int] = field(default_factory=dict)
    """(source default s, target default s) -> hooks without a timeout that change default."""

    def default_notes(self, source: Dialect, target: Dialect) -> list[str]:
        return [
            f"{n} hook(s) set no timeout: the default is {a:g} s in {_host(source)} and {b:g} s "
            f"in {_host(target)} (add a timeout to keep {a:g} s)"
            for (a, b), n in sorted(self.default_changes.items())
        ]


@dataclass(frozen=True)
class _Job:
    source: Dialect
    target: Dialect
    out: Converted


_KEPT_FIELDS: Final[dict[tuple[str, str], tuple[str, ...]]] = {
    ("claude", "codex"): ("statusMessage", "async"),
    ("codex", "claude"): ("statusMessage", "async"),
}


def _convert_handler(
    handler: JSON, event: str, target_event: str, path: str, job: _Job
) -> dict[str, JSON] | None:
    source, target, out = job.source, job.target, job.out
    if not isinstance(handler, dict):
        out.unmapped.append(f"{path}: not a hook object ({json_type(handler)}); not migrated")
        return None
    kind = handler.get("type")
    if kind != "command":
        out.unmapped.append(
            f"{path}: {kind!s} hooks cannot be migrated ({_host(target)} runs command hooks "
            "only here); not migrated"
        )
        return None
    command = handler.get("command")
    if not isinstance(command, str) or not command.strip():
        out.unmapped.append(f"{path}: a command hook without a command; not migrated")
        return None
    args = handler.get("args")
    if source == "claude" and isinstance(args, list) and args:
        command = " ".join([command, *(_quote_arg(str(a)) for a in args)])
        out.notes.append(f"{path}/args: exec form turned into one shell command line")
    own = _retarget_hookwise(command, target)
    if own is not None:
        command = own
        out.notes.append(
            f"{path}/command: hookwise's own hook now runs with --platform {target} (it "
            f"answered as {_host(source)}); `hookwise install {target}` registers it with "
            f"the events your policy uses"
        )
    converted: dict[str, JSON] = {
        "type": "command",
        "command": _convert_command(command, source, target, path, out.notes),
    }
    if "timeout" in handler:
        timeout = _convert_timeout(handler["timeout"], source, target, path, out.notes)
        if timeout is not None:
            converted["timeout"] = timeout
    else:
        before = _default_timeout_s(event, source)
        after = _default_timeout_s(target_event, target)
        if before != after:
            key = (before, after)
            out.default_changes[key] = out.default_changes.get(key, 0) + 1
    kept = _KEPT_FIELDS.get((source, target), ())
    for name in kept:
        if name in handler:
            converted[name] = handler[name]
    handled = {"type", "command", "timeout", "source", *kept}
    if source == "claude":
        handled.add("args")
    dropped = [name for name in handler if name not in handled]
    if "if" in dropped:
        out.notes.append(
            f"{path}/if: {json.dumps(handler['if'])} has no {_host(target)} equivalent: the hook "
            "now runs for every call its matcher matches"
        )
        dropped.remove("if")
    if handler.get("async") is True and "async" not in kept:
        out.notes.append(
            f"{path}/async: {_host(target)} runs hooks synchronously: this hook now waits and "
            "its answer counts"
        )
        dropped.remove("async")
    if dropped:
        out.notes.append(f"{path}: dropped {', '.join(dropped)} (no {_host(target)} equivalent)")
    return converted


def convert_hooks(
    hooks: JSON, source: Dialect, target: Dialect, *, origin: str = "hooks"
) -> Converted:
    """Convert a ``hooks`` object of ``source`` into ``target``'s events, matchers and units."""
    out = Converted()
    job = _Job(source, target, out)
    if not isinstance(hooks, dict):
        if hooks is not None:
            out.unmapped.append(f"{origin}#/hooks: not an object ({json_type(hooks)})")
        return out
    for event, groups in hooks.items():
        where = f"{origin}#/hooks/{event}"
        if source == "gemini" and event in HOOKS_CONFIG_FIELDS:
            continue
        target_event = map_event(event, source, target)
        if target_event is None:
            why = (
                f"no {_host(target)} event corresponds"
                if _known_event(event, source)
                else f"not a {_host(source)} event"
            )
            count = len(groups) if isinstance(groups, list) else 0
            out.unmapped.append(f"{where}: {event} ({count} group(s)): {why}; not migrated")
            continue
        if not isinstance(groups, list):
            out.unmapped.append(f"{where}: not an array of matcher groups; not migrated")
            continue
        for g, group in enumerate(groups):
            group_path = f"{where}/{g}"
            if not isinstance(group, dict) or not isinstance(group.get("hooks"), list):
                out.unmapped.append(f"{group_path}: a matcher group needs a 'hooks' array")
                continue
            matchers = _convert_group_matcher(
                group.get("matcher"), event, target_event, group_path, job
            )
            handlers: list[JSON] = []
            for h, handler in enumerate(group["hooks"]):
                converted = _convert_handler(
                    handler, event, target_event, f"{group_path}/hooks/{h}", job
                )
                if converted is not None:
                    handlers.append(converted)
            if not handlers:
                continue
            for matcher in matchers:
                new_group: dict[str, JSON] = {"hooks": [dict(h) for h in handlers]}
                if matcher is not None:
                    new_group = {"matcher": matcher, **new_group}
                out.hooks.setdefault(target_event, []).append(new_group)
            out.count += len(handlers)
    return out


def _split_values(matcher: str) -> list[str]:
    return [part.strip() for part in re.split(r"[|,]", matcher) if part.strip()]


def _convert_group_matcher(
    matcher: JSON, event: str, target_event: str, path: str, job: _Job
) -> list[str | None]:
    """The group's matcher for the target; several when a list must become one per group."""
    source, target, out = job.source, job.target, job.out
    if matcher is None:
        return [None]
    if not isinstance(matcher, str):
        out.notes.append(f"{path}/matcher: not a string ({json_type(matcher)}); dropped")
        return [None]
    trivial = matcher.strip() in ("", "*")
    source_kind = _matcher_kind(event, source)
    target_kind = _matcher_kind(target_event, target)
    if target_kind == "ignored":
        if not trivial and source_kind != "ignored":
            out.notes.append(
                f"{path}/matcher: {_host(target)} ignores matchers on {target_event}: the hook "
                f"now runs for every {target_event} ({matcher!r} dropped)"
            )
        return [None]
    if source_kind == "ignored":
        return [None]
    if trivial:
        return [matcher]
    if target_kind == "tool":
        return [convert_matcher(matcher, source, target, path, out.notes)]
    # A lifecycle value (source, reason, trigger): Gemini CLI compares it exactly, so a list
    # becomes one group per value; Claude Code and Codex take "a|b" lists.
    listed = _is_name_list(matcher) and (source != "gemini" or "|" not in matcher)
    if target == "gemini":
        if listed:
            return list(dict.fromkeys(_split_values(matcher)))
        out.notes.append(
            f"{path}/matcher: {matcher!r} is a regular expression, but Gemini CLI compares "
            f"{target_event} matchers exactly; kept as written"
        )
        return [matcher]
    if listed and source == "claude":
        return ["|".join(_split_values(matcher))]
    return [matcher]


# --------------------------------------------------------------------------- files


def _gemini_home(home: str | os.PathLike[str] | None, env: Mapping[str, str]) -> Path:
    if home is not None:
        return Path(os.path.abspath(home))
    return Path(os.path.abspath(env.get("GEMINI_CLI_HOME") or os.path.expanduser("~")))


def source_paths(
    dialect: Dialect,
    project_dir: str | os.PathLike[str],
    *,
    scope: str = "project",
    home: str | os.PathLike[str] | None = None,
    env: Mapping[str, str] | None = None,
) -> list[Path]:
    """The files hooks are read from for ``dialect`` in ``scope`` ("project" or "user")."""
    environ = os.environ if env is None else env
    project = Path(os.path.abspath(project_dir))
    if dialect == "gemini":
        base = project if scope == "project" else _gemini_home(home, environ)
        return [base / ".gemini" / "settings.json"]
    if dialect == "claude":
        if scope == "project":
            return [
                project / ".claude" / "settings.json",
                project / ".claude" / "settings.local.json",
            ]
        claude = ClaudePaths.from_environment(project, home=home, env=environ)
        return [claude.user_settings]
    if scope == "project":
        return [project / ".codex" / "hooks.json", project / ".codex" / "config.toml"]
    codex = CodexPaths.from_environment(project, home=home, env=environ)
    return [codex.codex_home / "hooks.json", codex.user_config]


def target_path(
    dialect: Dialect,
    project_dir: str | os.PathLike[str],
    *,
    scope: str = "project",
    home: str | os.PathLike[str] | None = None,
    env: Mapping[str, str] | None = None,
) -> Path:
    """The file migrated hooks are written to: settings.json, or Codex's hooks.json."""
    return source_paths(dialect, project_dir, scope=scope, home=home, env=env)[0]


def _read_source(path: Path, warnings: list[str]) -> JSON:
    """The ``hooks`` value of one source file (None when absent or unusable)."""
    text = read_text_file(path, "settings", warnings)
    if text is None:
        return None
    if path.suffix == ".toml":
        config, problems = parse_codex_config_text(text, str(path))
        warnings.extend(problems)
        hooks = config.get("hooks") if config is not None else None
        if not isinstance(hooks, dict):
            return None
        return {k: v for k, v in hooks.items() if k != "state"}
    if path.name == "hooks.json":
        hooks, problems = parse_codex_hooks_json_text(text, str(path))
        warnings.extend(problems)
        return hooks
    value, problem = parse_jsonc(text) if ".gemini" in path.parts else parse_json_text(text)
    if problem is not None:
        warnings.append(problem.describe(str(path)) + "; not read")
        return None
    return value.get("hooks") if isinstance(value, dict) else None


# --------------------------------------------------------------------------- the plan


@dataclass
class Migration:
    """A migration worked out in memory: the target's text before and after, and the report."""

    source: Dialect
    target: Dialect
    scope: str
    sources: list[Path]
    target_path: Path
    before: str | None
    after: str | None
    added: int = 0
    duplicates: int = 0
    found: int = 0
    notes: list[str] = field(default_factory=list)
    unmapped: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    error: str | None = None

    @property
    def changed(self) -> bool:
        return self.error is None and self.after is not None and self.after != self.before

    def diff(self) -> str:
        """A unified diff of the target file (empty when nothing changes)."""
        if not self.changed:
            return ""
        assert self.after is not None
        name = str(self.target_path)
        return unified_diff(
            self.before,
            self.after,
            fromfile=f"a{name}" if self.before is not None else "/dev/null",
            tofile=f"b{name}",
        )

    def write(self) -> bool:
        """Write the target file; False when there was nothing to write."""
        if self.error is not None:
            raise MigrationError(self.error)
        if not self.changed:
            return False
        assert self.after is not None
        self.target_path.parent.mkdir(parents=True, exist_ok=True)
        write_text_atomic(self.target_path, self.after)
        self.before = self.after
        return True

    def to_json(self) -> dict[str, JSON]:
        return {
            "from": self.source,
            "to": self.target,
            "scope": self.scope,
            "sources": [str(p) for p in self.sources],
            "target": str(self.target_path),
            "found": self.found,
            "added": self.added,
            "duplicates": self.duplicates,
            "changed": self.changed,
            "diff": self.diff(),
            "notes": self.notes,
            "unmapped": self.unmapped,
            "warnings": self.warnings,
            "error": self.error,
        }


def _duplicate_key(event: str, group: Mapping[str, JSON], handler: Mapping[str, JSON]) -> str:
    matcher = group.get("matcher")
    text = matcher.strip() if isinstance(matcher, str) else ""
    if text == "*":
        text = ""
    elif _is_name_list(text):  # "Edit, Write", "Write|Edit" and "Edit|Write" are one matcher
        text = "|".join(sorted(set(_split_values(text))))
    return json.dumps([event, text, handler.get("command")])


def _merge(document: dict[str, JSON], converted: Converted, where: str) -> tuple[int, int]:
    """Append the converted hooks to ``document["hooks"]``; (added, already there)."""
    hooks = document.setdefault("hooks", {})
    if not isinstance(hooks, dict):
        raise MigrationError(f"{where}#/hooks: not an object ({json_type(hooks)}); not changed")
    seen: set[str] = set()
    for event, groups in hooks.items():
        for group in groups if isinstance(groups, list) else []:
            handlers = group.get("hooks") if isinstance(group, dict) else None
            for handler in handlers if isinstance(handlers, list) else []:
                if isinstance(handler, dict):
                    seen.add(_duplicate_key(event, group, handler))
    added = duplicates = 0
    for event, new_groups in converted.hooks.items():
        for group in new_groups:
            fresh: list[JSON] = []
            for handler in group["hooks"]:
                assert isinstance(handler, dict)
                key = _duplicate_key(event, group, handler)
                if key in seen:
                    duplicates += 1
                    continue
                seen.add(key)
                fresh.append(handler)
            if not fresh:
                continue
            existing = hooks.setdefault(event, [])
            if not isinstance(existing, list):
                raise MigrationError(
                    f"{where}#/hooks/{event}: not an array ({json_type(existing)}); not changed"
                )
            existing.append({**group, "hooks": fresh})
            added += len(fresh)
    return added, duplicates


def plan_migration(
    source: Dialect,
    target: Dialect,
    project_dir: str | os.PathLike[str] = ".",
    *,
    scope: str = "project",
    home: str | os.PathLike[str] | None = None,
    env: Mapping[str, str] | None = None,
) -> Migration:
    """Work out what migrating ``source``'s hooks into ``target``'s file would do.

    Nothing is written: call ``Migration.write()``. Bad source files become warnings;
    a target file that cannot be merged into sets ``error``.
    """
    if source == target:
        raise ValueError("--from and --to name the same agent")
    if scope not in ("project", "user"):
        raise ValueError(f"scope must be 'project' or 'user', got {scope!r}")
    warnings: list[str] = []
    paths = source_paths(source, project_dir, scope=scope, home=home, env=env)
    destination = target_path(target, project_dir, scope=scope, home=home, env=env)
    converted = Converted()
    read: list[Path] = []
    for path in paths:
        hooks = _read_source(path, warnings)
        if path.exists():
            read.append(path)
        part = convert_hooks(hooks, source, target, origin=str(path))
        for event, groups in part.hooks.items():
            converted.hooks.setdefault(event, []).extend(groups)
        converted.notes.extend(part.notes)
        converted.unmapped.extend(part.unmapped)
        converted.count += part.count
        for key, n in part.default_changes.items():
            converted.default_changes[key] = converted.default_changes.get(key, 0) + n
    migration = Migration(
        source=source,
        target=target,
        scope=scope,
        sources=read,
        target_path=destination,
        before=None,
        after=None,
        found=converted.count,
        notes=[*converted.notes, *converted.default_notes(source, target)],
        unmapped=converted.unmapped,
        warnings=warnings,
    )
    before = read_text_file(destination, "settings", warnings)
    migration.before = before
    document: dict[str, JSON] = {}
    if before is not None and before.strip():
        value, problem = parse_jsonc(before) if target == "gemini" else parse_json_text(before)
        if problem is not None:
            migration.error = problem.describe(str(destination)) + "; not changed"
            return migration
        if not isinstance(value, dict):
            migration.error = f"{destination}: not a JSON object ({json_type(value)}); not changed"
            return migration
        document = value
    try:
        migration.added, migration.duplicates = _merge(document, converted, str(destination))
    except MigrationError as exc:
        migration.error = str(exc)
        return migration
    if migration.added:
        migration.after = json.dumps(document, indent=2, ensure_ascii=False) + "\n"
        if target == "codex":
            migration.notes.append(
                "Codex runs new hooks only once they are trusted (/hooks in Codex), and project "
                "hooks only in a trusted project"
            )
        if before is not None and strip_json_comments(before) != before:
            migration.notes.append(
                f"{destination}: its comments are not kept when the file is rewritten"
            )
    else:
        migration.after = before
    return migration
