"""Moving hooks between the hosts' settings: every host whose registry row ``supports``
``migrate`` (Gemini CLI, Claude Code, Codex, GitHub Copilot CLI, Qwen Code, Factory Droid).

Every fact comes from the host registry and the protocol tables (``migrate_hosts``); what is
converted, hook by hook:

* **Events**, through Claude Code's names: Gemini CLI's by kind (PreToolUse/BeforeTool,
  PostToolUse/AfterTool, UserPromptSubmit/BeforeAgent, Stop/AfterAgent, SessionStart,
  SessionEnd, PreCompact/PreCompress, Notification), Copilot's through its ``CLAUDE_EVENTS``
  (``PreToolUse`` stays PascalCase: its payload is Claude's), Codex's, Qwen's and Droid's by
  name. An event without a counterpart is reported, never dropped silently. (Gemini CLI's
  map also sends ``SubAgentStop`` to AfterAgent, a key that matches no Claude Code event;
  hookwise reports SubagentStop as unmappable: AfterAgent ends the main agent's turn.)
* **Tool names in matchers** (as ``\\bName\\b``, like Gemini CLI's migration): through the
  rows' canonical tools (Bash / run_shell_command / Execute, Edit / replace, Write /
  write_file / Create...): the target's first tool of the kind. A tool's aliases stand for it
  (Codex's ``apply_patch`` becomes Edit|Write, and Claude's Edit and Write stay as they are
  for Codex, whose matchers try them as aliases). A tool the target has none of is reported.
  Claude Code's exact-name lists (``Edit, Write``) become regex alternations. A flat layout
  (Copilot) has no matchers: a matcher is dropped with a note.
* **Commands**: the source's project-directory variable becomes the target's
  (``$CLAUDE_PROJECT_DIR`` <-> ``$GEMINI_PROJECT_DIR``...; ``$PWD`` for Codex, which sets
  none and runs hooks in the session's directory); another host's variable the target does
  not set is noted. Claude Code's exec form (``args``) becomes one shell-quoted command line.
* **Timeouts**, in the rows' units: Gemini CLI and Qwen Code count milliseconds, the others
  seconds (Codex whole seconds, rounded up). 30 s is 30000 ms, never 30 ms (Gemini CLI's own
  migration copies the number, a known bug). Hooks without a timeout get a note where the
  default differs. Handler keys are the rows' (``bash``/``timeoutSec`` for Copilot).

Only command hooks move; fields the target lacks are dropped with a note. The target file
keeps everything it had: converted hooks are appended, and a hook already there (same event,
matcher and command) is not added again, so running the migration twice changes nothing.
Where the host reads every file of a directory (Copilot), migrated hooks go to
``migrated.json`` there (``hookwise.json`` is install's own file).
"""

from __future__ import annotations

import glob
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
from hookwise.config.codex.settings import parse_codex_config_text
from hookwise.config.detect import Dialect
from hookwise.config.dialect_hooks import json_type, read_text_file
from hookwise.config.diff import unified_diff
from hookwise.config.hookwise_command import is_hookwise_command, portable_command, portable_host
from hookwise.config.jsonc import parse_json_text, parse_jsonc, strip_json_comments
from hookwise.config.migrate_hosts import MigrateHost, migrate_host
from hookwise.protocol.hosts import HOSTS, row_config_path, row_user_path
from hookwise.protocol.jsvalue import JSON

__all__ = [
    "Converted",
    "Migration",
    "MigrationError",
    "convert_hooks",
    "map_event",
    "plan_migration",
    "target_path",
]

# A flat layout's file (GitHub Copilot CLI's, Cursor's): ``{"version": 1, "hooks": ...}``.
FLAT_FILE_VERSION: Final = 1
# What a migrated hook file is called where the host reads every file of a directory (a
# file of the user's, beside hookwise's own: install owns ``hookwise.json`` there).
MIGRATED_FILE: Final = "migrated.json"
_VAR_RE: Final = re.compile(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)")


class MigrationError(Exception):
    """The target file cannot take the migrated hooks (it is malformed)."""


# --------------------------------------------------------------------------- events


def _host(dialect: str) -> MigrateHost:
    return migrate_host(dialect)


def map_event(event: str, source: Dialect, target: Dialect) -> str | None:
    """The target's name for ``event``, or None when the target has no such event."""
    claude = _host(source).to_claude.get(event)
    if claude is None:
        return None
    return _host(target).from_claude.get(claude)


def _known_event(event: str, dialect: Dialect) -> bool:
    return event in _host(dialect).events


def _matcher_kind(event: str, dialect: Dialect) -> str:
    """ "tool", "value", "exact" (a lifecycle value compared exactly) or "ignored"."""
    return _host(dialect).matcher_kinds.get(event, "ignored")


def _default_timeout_s(event: str, dialect: Dialect) -> float:
    return _host(dialect).default_timeout_s.get(event, 600.0)


# --------------------------------------------------------------------------- matchers


def _claude_names(name: str, host: MigrateHost) -> tuple[str, ...]:
    """The tools a source tool name stands for: its aliases (Claude's names: Codex's
    apply_patch answers to Edit and Write), else itself."""
    return host.tool_aliases.get(name, (name,))


def _tool_map(source: Dialect, target: Dialect) -> tuple[dict[str, tuple[str, ...]], list[str]]:
    """Source tool name -> target names (several when one tool is two on the other side),
    through the rows' canonical tools; and the source's tools the target has none of."""
    src, dst = _host(source), _host(target)
    claude = migrate_host("claude")
    aliases = {a for names in dst.tool_aliases.values() for a in names}
    result: dict[str, tuple[str, ...]] = {}
    missing: list[str] = []
    for name in src.tools:
        names: list[str] = []
        for each in _claude_names(name, src):
            kind = src.tools.get(each) or claude.tools.get(each)
            if each in dst.tools or each in aliases:  # the target knows it by that name
                names.append(each)
                continue
            found = dst.tool_for(kind) if kind else None
            if found is None and kind:  # Claude's name for it, where the target takes that
                found = next((c for c in claude.tools if claude.tools[c] == kind), None)
                found = found if found in aliases else None
            if found is None:
                missing.append(name)
                break
            names.append(found)
        else:
            unique = tuple(dict.fromkeys(names))
            if unique != (name,):
                result[name] = unique
    return result, missing


def _is_name_list(matcher: str) -> bool:
    return re.fullmatch(r"\s*[\w-]+(?:\s*[|,]\s*[\w-]+)*\s*", matcher) is not None


def convert_matcher(
    matcher: str, source: Dialect, target: Dialect, path: str, notes: list[str]
) -> str:
    """Tool names inside a tool matcher, in the target's names."""
    text = matcher
    exact = _host(source).exact_matcher_chars
    if exact is not None and all(ch in exact for ch in text) and "," in text:
        text = "|".join(part.strip() for part in re.split(r"[|,]", text) if part.strip())
    mapping, missing = _tool_map(source, target)
    simple = _is_name_list(text)
    absent = sorted(name for name in missing if re.search(rf"\b{re.escape(name)}\b", text))
    if mapping:
        pattern = re.compile(r"\b(" + "|".join(sorted(mapping, key=len, reverse=True)) + r")\b")

        def replace(match: re.Match[str]) -> str:
            names = mapping[match.group(1)]
            joined = "|".join(names)
            return joined if simple or len(names) == 1 else f"(?:{joined})"

        text = pattern.sub(replace, text)
    if absent:
        notes.append(
            f"{path}/matcher: {_host(target).title} has no {', '.join(absent)} tool; the hook "
            "will not fire for it"
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


def _host_variables() -> tuple[MigrateHost, ...]:
    return tuple(migrate_host(name) for name in HOSTS)


def _convert_command(
    command: str, source: Dialect, target: Dialect, path: str, notes: list[str]
) -> str:
    src, dst = _host(source), _host(target)
    if src.project_env:
        old, new = src.project_env[0], dst.project_var
        pattern = re.compile(r"\$(\{)?" + old + r"\b(?(1)\})")
        if not dst.project_env and pattern.search(command):
            notes.append(
                f"{path}/command: ${old} became ${new}: {dst.title} sets no project-directory "
                "variable and runs hooks in the session's directory"
            )
        command = pattern.sub(lambda m: "${" + new + "}" if m.group(1) else "$" + new, command)
    hosts = _host_variables()
    unknown = sorted(
        {
            name
            for name in _VAR_RE.findall(command)
            if any(h.sets(name) for h in hosts) and not dst.sets(name)
        }
    )
    if unknown:
        notes.append(f"{path}/command: uses ${', $'.join(unknown)}, which {dst.title} does not set")
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
    src, dst = _host(source), _host(target)
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        notes.append(
            f"{path}/timeout: {json.dumps(value)} is not a number; dropped (the "
            f"{dst.title} default applies)"
        )
        return None
    if value <= 0:
        notes.append(f"{path}/timeout: {value} is not positive; dropped")
        return None
    ms = float(value) if src.info.timeout_unit == "ms" else float(value) * 1000.0
    if dst.info.timeout_unit == "ms":
        return max(1, round(ms))
    seconds = ms / 1000.0
    if dst.whole_seconds:
        whole = max(1, math.ceil(seconds))
        if whole != seconds:
            notes.append(
                f"{path}/timeout: {dst.title} counts whole seconds: {seconds:g} s became {whole}"
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
            f"{n} hook(s) set no timeout: the default is {a:g} s in {_host(source).title} and "
            f"{b:g} s in {_host(target).title} (add a timeout to keep {a:g} s)"
            for (a, b), n in sorted(self.default_changes.items())
        ]


@dataclass(frozen=True)
class _Job:
    source: Dialect
    target: Dialect
    out: Converted


def _convert_handler(
    handler: JSON, event: str, target_event: str, path: str, job: _Job
) -> dict[str, JSON] | None:
    source, target, out = job.source, job.target, job.out
    src, dst = _host(source), _host(target)
    title = dst.title
    if not isinstance(handler, dict):
        out.unmapped.append(f"{path}: not a hook object ({json_type(handler)}); not migrated")
        return None
    kind = handler.get("type")
    if kind != "command":
        out.unmapped.append(
            f"{path}: {kind!s} hooks cannot be migrated ({title} runs command hooks "
            "only here); not migrated"
        )
        return None
    command_key, timeout_key, _ = src.info.handler
    command = handler.get(command_key)
    if not isinstance(command, str) or not command.strip():
        out.unmapped.append(f"{path}: a command hook without a command; not migrated")
        return None
    args = handler.get("args")
    exec_form = "args" in src.handler_fields
    if exec_form and isinstance(args, list) and args:
        command = " ".join([command, *(_quote_arg(str(a)) for a in args)])
        out.notes.append(f"{path}/args: exec form turned into one shell command line")
    own = _retarget_hookwise(command, target)
    if own is not None:
        command = own
        out.notes.append(
            f"{path}/command: hookwise's own hook now runs with --platform {target} (it "
            f"answered as {src.title}); `hookwise install {target}` registers it with "
            f"the events your policy uses"
        )
    new_command, new_timeout, _ = dst.info.handler
    converted: dict[str, JSON] = {
        "type": "command",
        new_command: _convert_command(command, source, target, path, out.notes),
    }
    if timeout_key in handler:
        timeout = _convert_timeout(handler[timeout_key], source, target, path, out.notes)
        if timeout is not None:
            converted[new_timeout] = timeout
    else:
        before = _default_timeout_s(event, source)
        after = _default_timeout_s(target_event, target)
        if before != after:
            key = (before, after)
            out.default_changes[key] = out.default_changes.get(key, 0) + 1
    kept = [name for name in src.handler_fields if name in dst.handler_fields and name != "args"]
    for name in kept:
        if name in handler:
            converted[name] = handler[name]
    handled = {"type", command_key, timeout_key, "source", *kept}
    if exec_form:
        handled.add("args")
    dropped = [name for name in handler if name not in handled]
    if "if" in dropped:
        out.notes.append(
            f"{path}/if: {json.dumps(handler['if'])} has no {title} equivalent: the hook "
            "now runs for every call its matcher matches"
        )
        dropped.remove("if")
    if handler.get("async") is True and "async" not in kept:
        out.notes.append(
            f"{path}/async: {title} runs hooks synchronously: this hook now waits and "
            "its answer counts"
        )
        dropped.remove("async")
    if dropped:
        out.notes.append(f"{path}: dropped {', '.join(dropped)} (no {title} equivalent)")
    return converted


def _as_groups(hooks: dict[str, JSON], host: MigrateHost) -> dict[str, JSON]:
    """A flat layout's ``event -> [handler]`` as one match-all group per event."""
    if host.info.hooks_layout != "flat":
        return hooks
    return {
        event: [{"hooks": handlers}] if isinstance(handlers, list) else handlers
        for event, handlers in hooks.items()
    }


def convert_hooks(
    hooks: JSON, source: Dialect, target: Dialect, *, origin: str = "hooks"
) -> Converted:
    """Convert a ``hooks`` object of ``source`` (in its own layout and handler keys) into
    ``target``'s events, matchers, units and handler keys, as matcher groups (a flat
    target's file is written without them: ``plan_migration``)."""
    out = Converted()
    job = _Job(source, target, out)
    src, dst = _host(source), _host(target)
    if not isinstance(hooks, dict):
        if hooks is not None:
            out.unmapped.append(f"{origin}#/hooks: not an object ({json_type(hooks)})")
        return out
    for event, groups in _as_groups(hooks, src).items():
        where = f"{origin}#/hooks/{event}"
        if event in src.hooks_config_fields:
            continue
        target_event = map_event(event, source, target)
        if target_event is None:
            why = (
                f"no {dst.title} event corresponds"
                if _known_event(event, source)
                else f"not a {src.title} event"
            )
            count = len(groups) if isinstance(groups, list) else 0
            out.unmapped.append(f"{where}: {event} ({count} group(s)): {why}; not migrated")
            continue
        if not isinstance(groups, list):
            out.unmapped.append(f"{where}: not an array of matcher groups; not migrated")
            continue
        claude = src.to_claude.get(event, event)
        if dst.field_aliases and target_event != claude:
            fields = ", ".join(sorted(dst.field_aliases)[:4])
            out.notes.append(
                f"{where}: {dst.title} sends {target_event} hooks its own payload fields "
                f"({fields}...), not Claude Code's snake_case ones: check what the command reads"
            )
        elif (
            src.field_aliases
            and event != claude
            and not (dst.field_aliases and target_event == event)
        ):
            fields = ", ".join(sorted(src.field_aliases)[:4])
            out.notes.append(
                f"{where}: this hook read {src.title}'s own payload fields ({fields}...); "
                f"{dst.title} sends Claude Code's snake_case ones: check what the command reads"
            )
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
                f"{path}/matcher: {_host(target).title} ignores matchers on {target_event}: the "
                f"hook now runs for every {target_event} ({matcher!r} dropped)"
            )
        return [None]
    if source_kind == "ignored":
        return [None]
    if trivial:
        return [matcher]
    if target_kind == "tool":
        return [convert_matcher(matcher, source, target, path, out.notes)]
    # A lifecycle value (source, reason, trigger): where the target compares it exactly
    # (Gemini CLI), a list becomes one group per value; the others take "a|b" lists.
    listed = _is_name_list(matcher) and (source_kind != "exact" or "|" not in matcher)
    if target_kind == "exact":
        if listed:
            return list(dict.fromkeys(_split_values(matcher)))
        out.notes.append(
            f"{path}/matcher: {matcher!r} is a regular expression, but {_host(target).title} "
            f"compares {target_event} matchers exactly; kept as written"
        )
        return [matcher]
    if listed and _host(source).exact_matcher_chars is not None:
        return ["|".join(_split_values(matcher))]
    return [matcher]


# --------------------------------------------------------------------------- files


def _environment(
    host: MigrateHost, home: str | os.PathLike[str] | None, env: Mapping[str, str] | None
) -> dict[str, str]:
    """The environment the host's user files are found in: ``home`` (when given) is HOME and
    wins over the variable that moves the host's directory."""
    environ = dict(os.environ if env is None else env)
    if home is not None:
        environ["HOME"] = os.path.abspath(home)
        variable = host.info.config_dir[0]
        if variable:
            environ.pop(variable, None)
    return environ


def source_paths(
    dialect: Dialect,
    project_dir: str | os.PathLike[str],
    *,
    scope: str = "project",
    home: str | os.PathLike[str] | None = None,
    env: Mapping[str, str] | None = None,
) -> list[Path]:
    """The files hooks are read from for ``dialect`` in ``scope`` ("project" or "user"): the
    registry row's files, or every file its ``hook_globs`` pattern matches."""
    info = _host(dialect).info
    environ = _environment(_host(dialect), home, env)
    project = Path(os.path.abspath(project_dir))
    pattern = info.hook_globs.get(scope)
    if pattern is not None:
        base = project if scope == "project" else Path(row_config_path(info, environ))
        return sorted(Path(p) for p in glob.glob(str(base / pattern)) if os.path.isfile(p))
    if scope == "project":
        return [project / name for name in info.project_files]
    return [Path(row_user_path(info, name, environ)) for name in info.user_files]


def target_path(
    dialect: Dialect,
    project_dir: str | os.PathLike[str],
    *,
    scope: str = "project",
    home: str | os.PathLike[str] | None = None,
    env: Mapping[str, str] | None = None,
) -> Path:
    """The file migrated hooks are written to: the first of the row's files (settings.json,
    Codex's hooks.json), or ``migrated.json`` where the host reads a directory of files."""
    info = _host(dialect).info
    pattern = info.hook_globs.get(scope)
    if pattern is not None:
        environ = _environment(_host(dialect), home, env)
        project = Path(os.path.abspath(project_dir))
        base = project if scope == "project" else Path(row_config_path(info, environ))
        return base / os.path.dirname(pattern) / MIGRATED_FILE
    return source_paths(dialect, project_dir, scope=scope, home=home, env=env)[0]


def _read_source(path: Path, host: MigrateHost, warnings: list[str]) -> JSON:
    """The hooks object of one source file (None when absent or unusable): its ``hooks``,
    or the file itself where the host reads event keys at the top (Droid)."""
    text = read_text_file(path, "settings", warnings)
    if text is None:
        return None
    if path.suffix == ".toml":  # Codex's config.toml: [hooks], without its trust state
        config, problems = parse_codex_config_text(text, str(path))
        warnings.extend(problems)
        hooks = config.get("hooks") if config is not None else None
        if not isinstance(hooks, dict):
            return None
        return {k: v for k, v in hooks.items() if k != "state"}
    value, problem = parse_jsonc(text) if host.info.jsonc else parse_json_text(text)
    if problem is not None:
        warnings.append(problem.describe(str(path)) + "; not read")
        return None
    if not isinstance(value, dict):
        warnings.append(f"{path}: must hold a JSON object, got {json_type(value)}; not read")
        return None
    hooks = value if host.info.hooks_layout == "top" else value.get("hooks")
    if hooks is not None and not isinstance(hooks, dict):
        warnings.append(f"{path}#/hooks: must be an object, got {json_type(hooks)}; not read")
        return None
    return hooks


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


def _duplicate_key(
    event: str, group: Mapping[str, JSON], handler: Mapping[str, JSON], command_key: str
) -> str:
    matcher = group.get("matcher")
    text = matcher.strip() if isinstance(matcher, str) else ""
    if text == "*":
        text = ""
    elif _is_name_list(text):  # "Edit, Write", "Write|Edit" and "Edit|Write" are one matcher
        text = "|".join(sorted(set(_split_values(text))))
    return json.dumps([event, text, handler.get(command_key)])


def _hooks_of(document: dict[str, JSON], host: MigrateHost, where: str) -> dict[str, JSON]:
    """The object the target's hooks go in: the file itself where the host reads event keys
    at the top (Droid), else its ``hooks`` (a new flat-layout file gets its ``version``)."""
    if host.info.hooks_layout == "top":
        return document
    if not document and host.info.hooks_layout == "flat":
        document["version"] = FLAT_FILE_VERSION
    hooks = document.setdefault("hooks", {})
    if not isinstance(hooks, dict):
        raise MigrationError(f"{where}#/hooks: not an object ({json_type(hooks)}); not changed")
    return hooks


def _merge(
    document: dict[str, JSON], converted: Converted, host: MigrateHost, where: str
) -> tuple[int, int]:
    """Append the converted hooks to the target document; (added, already there)."""
    hooks = _hooks_of(document, host, where)
    command_key = host.info.handler[0]
    flat = host.info.hooks_layout == "flat"
    seen: set[str] = set()
    for event, groups in (_as_groups(hooks, host) if flat else hooks).items():
        for group in groups if isinstance(groups, list) else []:
            handlers = group.get("hooks") if isinstance(group, dict) else None
            for handler in handlers if isinstance(handlers, list) else []:
                if isinstance(handler, dict):
                    seen.add(_duplicate_key(event, group, handler, command_key))
    added = duplicates = 0
    for event, new_groups in converted.hooks.items():
        for group in new_groups:
            fresh: list[JSON] = []
            for handler in group["hooks"]:
                assert isinstance(handler, dict)
                key = _duplicate_key(event, group, handler, command_key)
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
            existing.extend(fresh) if flat else existing.append({**group, "hooks": fresh})
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
    for name in (source, target):
        if "migrate" not in _host(name).info.supports:
            raise ValueError(f"hookwise cannot migrate the hooks of {_host(name).title}")
    src, dst = _host(source), _host(target)
    warnings: list[str] = []
    paths = source_paths(source, project_dir, scope=scope, home=home, env=env)
    destination = target_path(target, project_dir, scope=scope, home=home, env=env)
    converted = Converted()
    read: list[Path] = []
    for path in paths:
        hooks = _read_source(path, src, warnings)
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
        value, problem = parse_jsonc(before) if dst.info.jsonc else parse_json_text(before)
        if problem is not None:
            migration.error = problem.describe(str(destination)) + "; not changed"
            return migration
        if not isinstance(value, dict):
            migration.error = f"{destination}: not a JSON object ({json_type(value)}); not changed"
            return migration
        document = value
    try:
        migration.added, migration.duplicates = _merge(document, converted, dst, str(destination))
    except MigrationError as exc:
        migration.error = str(exc)
        return migration
    if migration.added:
        migration.after = json.dumps(document, indent=2, ensure_ascii=False) + "\n"
        if dst.info.trust:  # when the target runs what was written (its row)
            migration.notes.append(f"{dst.title}: {dst.info.trust}")
        if before is not None and strip_json_comments(before) != before:
            migration.notes.append(
                f"{destination}: its comments are not kept when the file is rewritten"
            )
    else:
        migration.after = before
    return migration
