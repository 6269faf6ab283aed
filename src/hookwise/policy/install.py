"""``hookwise install`` / ``uninstall``: register ``hookwise hook`` in a host's settings file.

The policy decides what is registered: every host event its enabled rules can be raised by
(the canonical mapping of ``hosts.py`` read backwards), plus the host's pre-tool event
always, so that a policy that later breaks still fails closed on tool calls. Tool events get
the match-all matcher ``"*"`` (all three hosts read it so); timeouts are written in the
host's unit (Gemini CLI milliseconds, Claude Code and Codex seconds).

Settings files are edited as text: only hookwise's own entries (recognised by their command,
see :func:`is_hookwise_command`) are added or removed, and every other byte stays where it
was, comments of Gemini's JSONC included. Installing twice changes nothing; uninstalling
after installing gives back the original bytes (except that an empty ``hooks`` object or
event list that existed before is removed with hookwise's last entry: the file cannot say
whether it was there first). A file that does not parse is refused, naming the file, line
and column, and nothing is written.

Codex runs a non-managed hook only when its definition's hash is trusted
(``[hooks.state."<key>"] trusted_hash`` in ``$CODEX_HOME/config.toml``, what Codex's
``/hooks`` writes; see ``config/codex_settings.py``). Installing is the user's approval of
exactly those hooks, so install writes their trust too (``trust=False`` leaves it out), and
uninstall removes the trust entries it matches. Project trust (``[projects."<dir>"]``) is a
decision about the whole project and is only reported.

:func:`edit_hooks` and :func:`edit_codex_trust` are pure (text in, text out); the
``plan_*`` functions read the files and the policy; :func:`write_plan` writes atomically.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import re
import shlex
import sys
import tomllib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from hookwise.config.atomic import write_text_atomic
from hookwise.config.jsonc import JsonDocument, JsonEditError, JsonNode
from hookwise.policy import canonical
from hookwise.policy.scopes import launcher_path
from hookwise.protocol.hosts import HOST_NAMES
from hookwise.protocol.hosts import host as host_info

HOSTS: Final = HOST_NAMES
SCOPES: Final = ("project", "user")
MATCH_ALL: Final = "*"
GEMINI_HOOK_NAME: Final = "hookwise"
BASE_TIMEOUT_S: Final = 10
"""Enough for a cold ``hookwise hook`` that also rebuilds the policy cache, with margin."""
MAX_TIMEOUT_S: Final = 600

# Events whose matcher is compared with the tool name (the others get no matcher).
TOOL_MATCHER_EVENTS: Final = {
    "gemini": frozenset({"BeforeTool", "AfterTool"}),
    "claude": frozenset({"PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionRequest"}),
    "codex": frozenset({"PreToolUse", "PostToolUse", "PermissionRequest"}),
}


class InstallError(Exception):
    """Nothing was written: a settings file is broken or cannot be changed safely."""


# --------------------------------------------------------------------------- the command


def hook_argv(host: str, *, console: bool = False) -> list[str]:
    """The argv of a direct hook command for this machine: the fast launcher, or
    ``hookwise hook`` with ``console``. Both name paths of this machine only."""
    if console:
        return [str(Path(sys.executable).parent / "hookwise"), "hook", "--platform", host]
    from hookwise.policy import run_hook

    launcher = str(Path(run_hook.__file__).resolve())
    return [sys.executable, "-I", "-S", launcher, "--platform", host]


# The portable command (what install writes): it works on every machine of a team, since
# settings files are committed. It runs this user's launcher (the fast path, written by
# install), else `hookwise` from PATH; when neither runs (not installed, a deleted
# virtualenv: exit 126/127, or killed) it exits 2, which blocks on every host, instead of
# the 127 every host would take as a non-blocking error and run the tool.
NOT_INSTALLED: Final = (
    "hookwise is not installed on this machine: install it (pipx install hookwise) "
    "or remove this hook from the agent settings"
)
PORTABLE_SCRIPT: Final = (
    'h="${XDG_DATA_HOME:-$HOME/.local/share}/hookwise/hook"; '
    'if [ -x "$h" ] && IFS= read -r l < "$h"; then p=${l#??}; p=${p%% *}; '
    'if [ -x "$p" ]; then exec "$h" "$@"; fi; fi; '
    "if command -v hookwise >/dev/null 2>&1; then "
    'hookwise hook "$@"; s=$?; [ "$s" -lt 126 ] && exit "$s"; fi; '
    f"echo '{NOT_INSTALLED}' >&2; exit 2"
)
# (the launcher runs by exec, no fork, only when its interpreter is there; a launcher
# that cannot import hookwise exits 2 itself)


def portable_argv(host: str) -> list[str]:
    return ["sh", "-c", PORTABLE_SCRIPT, "hookwise", "--platform", host]


def hook_command(host: str, *, console: bool = False, direct: bool = False) -> str:
    """The command line for the host's shell: portable unless ``console``/``direct``."""
    if console or direct:
        return shlex.join(hook_argv(host, console=console))
    return shlex.join(portable_argv(host))


def launcher_text() -> str:
    """The per-user fast launcher: this interpreter without its site step (-I -S)."""
    from hookwise.policy import run_hook

    script = str(Path(run_hook.__file__).resolve())
    shebang = f"#!{sys.executable} -IS"
    broken = (
        "hookwise: cannot start (reinstall hookwise, or remove this hook from the agent settings):"
    )
    if len(shebang) < 127 and " " not in sys.executable:
        root = str(Path(script).parent.parent.parent)
        return (
            f"{shebang}\n"
            "# Written by `hookwise install`: the fast path of the portable hook command on\n"
            "# this machine. `hookwise install` rewrites it; deleting it falls back to\n"
            "# `hookwise` on PATH.\n"
            "import sys\n"
            f"sys.path[0] = {root!r}\n"
            "try:\n"
            "    from hookwise.policy.run_hook import launch\n"
            "except Exception as exc:  # a half-removed install must block, not exit 1\n"
            f"    sys.stderr.write(f{broken + ' {exc}'!r} + '\\n')\n"
            "    sys.exit(2)\n"
            "launch()\n"
        )
    python = shlex.quote(sys.executable)
    return (
        "#!/bin/sh\n"
        "# Written by `hookwise install`: the fast path of the portable hook command.\n"
        f"[ -x {python} ] || {{ echo {shlex.quote(broken)} >&2; exit 2; }}\n"
        f'exec {python} -I -S {shlex.quote(script)} "$@"\n'
    )


def is_portable_command(command: object) -> bool:
    if not isinstance(command, str):
        return False
    try:
        argv = shlex.split(command)
    except ValueError:
        return False
    return (
        len(argv) >= 4
        and argv[0].rsplit("/", 1)[-1] == "sh"
        and argv[1] == "-c"
        and 'hookwise hook "$@"' in argv[2]
        and argv[3] == "hookwise"
    )


def machine_paths(command: object) -> list[str]:
    """Absolute paths a hookwise command needs on this machine (empty: portable)."""
    if not isinstance(command, str) or is_portable_command(command):
        return []
    try:
        argv = shlex.split(command)
    except ValueError:
        return []
    return [a for a in argv[:4] if a.startswith("/")]


_RUN_HOOK_TAIL: Final = re.compile(r"(^|[/\\])hookwise[/\\]policy[/\\]run_hook\.py$")
_CONSOLE: Final = re.compile(r"(^|[/\\])hookwise(\.exe)?$")


def is_hookwise_command(command: object) -> bool:
    """Whether a hook command runs ``hookwise hook`` (any interpreter, path or options).

    Recognised: the portable ``sh -c`` command, ``<python> [-flags]
    .../hookwise/policy/run_hook.py ...``, ``[path/]hookwise hook ...`` and ``<python> -m
    hookwise hook ...``.
    """
    if not isinstance(command, str):
        return False
    if is_portable_command(command):
        return True
    try:
        argv = shlex.split(command)
    except ValueError:
        return False
    if not argv:
        return False
    if _CONSOLE.search(argv[0]):
        return argv[1:2] == ["hook"]
    for index, arg in enumerate(argv[1:], start=1):
        if _RUN_HOOK_TAIL.search(arg):
            return all(a.startswith("-") for a in argv[1:index])
        if arg == "-m":
            return argv[index + 1 : index + 3] == ["hookwise", "hook"]
        if not arg.startswith("-"):
            return False
    return False


# --------------------------------------------------------------------------- the policy


def host_events_for(
    tables: Mapping[str, Any], host: str, canon: str, on: list[str] | None
) -> list[str]:
    """Host events that raise ``canon`` (restricted to ``on``'s ``host:event`` names).

    A conditional mapping (Gemini AfterTool -> tool.failure, Codex PostToolUse with a failed
    response -> tool.failure) counts only where no event of the host raises ``canon`` itself.
    """
    events = tables[host]["events"]

    def allowed(name: str) -> bool:
        return on is None or f"{host}:{name}" in on

    direct = [n for n, spec in events.items() if canon in spec["canonical"] and allowed(n)]
    if direct or any(canon in spec["canonical"] for spec in events.values()):
        return direct
    conditional: list[str] = []
    for name, spec in events.items():
        if not allowed(name):
            continue
        if host == "gemini":
            extra = canonical.GEMINI_CONDITIONAL.get(name, ())
        else:
            extra = (canonical.TOOL_FAILURE,) if list(spec["canonical"]) == ["tool.after"] else ()
        if canon in extra:
            conditional.append(name)
    return conditional


def policy_events(compiled: Mapping[str, Any], host: str) -> list[str]:
    """The host events to register for a compiled policy, in the host table's order."""
    tables = compiled["hosts"]
    wanted = {host_info(host).pre_tool_event}
    for rule in compiled["rules"]:
        if not rule.get("enabled", True):
            continue
        hosts = rule.get("m", {}).get("host")
        if hosts and host not in hosts:
            continue
        for canon, on in rule["on"].items():
            wanted.update(host_events_for(tables, host, canon, on))
    return [name for name in tables[host]["events"] if name in wanted]


def timeout_seconds(compiled: Mapping[str, Any]) -> int:
    """The hook's timeout: the base plus every validator's own (they run one after another),
    plus the approval relay's ``wait`` and margin: a host that kills a hook lets the tool
    run (real-cli-findings 9), so the hook must always answer first."""
    from hookwise.policy.relay import MARGIN_S

    default = compiled["settings"].get("validator_timeout", 10)
    total = 0.0
    for rule in compiled["rules"]:
        if rule.get("enabled", True) and rule.get("action") == "validate" and "validator" in rule:
            total += float(rule["validator"].get("timeout", default))
    seconds = min(MAX_TIMEOUT_S, BASE_TIMEOUT_S + math.ceil(total))
    relay = compiled["settings"].get("approvals")
    if relay:
        seconds += math.ceil(float(relay.get("wait", 0))) + MARGIN_S
    return seconds


@dataclass(frozen=True)
class Registration:
    """One hook to register: event, matcher (None: no matcher key) and handler."""

    event: str
    matcher: str | None
    handler: dict[str, Any]

    def group(self) -> dict[str, Any]:
        if self.matcher is None:
            return {"hooks": [dict(self.handler)]}
        return {"matcher": self.matcher, "hooks": [dict(self.handler)]}


def registrations(host: str, events: list[str], command: str, seconds: int) -> list[Registration]:
    """The handlers for ``events``, timeouts in the host's unit."""
    from hookwise.protocol.hosts import host as host_info

    timeout = seconds * 1000 if host_info(host).timeout_unit == "ms" else seconds
    out: list[Registration] = []
    for event in events:
        matcher = MATCH_ALL if event in TOOL_MATCHER_EVENTS[host] else None
        handler: dict[str, Any]
        if host == "gemini":
            handler = {
                "name": GEMINI_HOOK_NAME,
                "type": "command",
                "command": command,
                "timeout": timeout,
            }
        else:
            handler = {"type": "command", "command": command, "timeout": timeout}
        out.append(Registration(event, matcher, handler))
    return out


# --------------------------------------------------------------------------- where


def _home(env: Mapping[str, str]) -> Path:
    return Path(env.get("HOME") or os.path.expanduser("~"))


def codex_home(env: Mapping[str, str]) -> Path:
    explicit = env.get("CODEX_HOME")
    return Path(os.path.abspath(explicit)) if explicit else _home(env) / ".codex"


def claude_config_dir(env: Mapping[str, str]) -> Path:
    explicit = env.get("CLAUDE_CONFIG_DIR")
    return Path(os.path.abspath(explicit)) if explicit else _home(env) / ".claude"


def gemini_home(env: Mapping[str, str]) -> Path:
    explicit = env.get("GEMINI_CLI_HOME")
    return Path(os.path.abspath(explicit)) if explicit else _home(env)


def settings_path(host: str, scope: str, project: Path, env: Mapping[str, str]) -> Path:
    """The file hookwise registers in, for ``host`` and ``scope``."""
    if host not in HOSTS:
        raise ValueError(f"unknown host {host!r}; expected one of: {', '.join(HOSTS)}")
    if scope not in SCOPES:
        raise ValueError(f"unknown scope {scope!r}; expected one of: {', '.join(SCOPES)}")
    project = Path(os.path.abspath(project))
    if host == "gemini":
        base = project if scope == "project" else gemini_home(env)
        return base / ".gemini" / "settings.json"
    if host == "claude":
        if scope == "project":
            return project / ".claude" / "settings.json"
        return claude_config_dir(env) / "settings.json"
    if scope == "project":
        return project / ".codex" / "hooks.json"
    return codex_home(env) / "hooks.json"


# --------------------------------------------------------------------------- JSON text


# --------------------------------------------------------------------------- hooks edits


@dataclass(frozen=True)
class FoundHook:
    """A hookwise handler in a settings file (indexes as written)."""

    event: str
    group: int
    handler: int
    matcher: Any
    config: dict[str, Any]
    alone: bool
    """The only handler of its group (its group is hookwise's own)."""
    group_config: dict[str, Any]


def _a_json_type(value: Any) -> str:
    from hookwise.config.dialect_hooks import json_type

    return json_type(value)


def _hooks_node(doc: JsonDocument) -> JsonNode | None:
    found = doc.root.member("hooks")
    if found is None:
        return None
    node = found[1]
    if node.kind != "object":
        raise InstallError(
            f'{doc.where(node)}: "hooks" must be an object (event -> matcher groups), got '
            f"{_a_json_type(doc.value_of(node))}; fix it first (nothing written)"
        )
    return node


def find_hookwise(doc: JsonDocument) -> list[FoundHook]:
    """Every hookwise handler of the document, in file order."""
    hooks = _hooks_node(doc)
    if hooks is None:
        return []
    found: list[FoundHook] = []
    for index, (event, _) in enumerate(hooks.keys):
        if hooks.member(event) != (index, hooks.children[index]):
            continue  # an earlier duplicate: JSON.parse keeps only the last
        groups = doc.value_of(hooks.children[index])
        if not isinstance(groups, list):
            continue
        for g, group in enumerate(groups):
            if not isinstance(group, dict) or not isinstance(group.get("hooks"), list):
                continue
            handlers = group["hooks"]
            for h, handler in enumerate(handlers):
                if isinstance(handler, dict) and is_hookwise_command(handler.get("command")):
                    found.append(
                        FoundHook(
                            event,
                            g,
                            h,
                            group.get("matcher"),
                            handler,
                            len(handlers) == 1,
                            group,
                        )
                    )
    return found


def _remove_found(doc: JsonDocument, hook: FoundHook) -> None:
    """Remove one handler: its whole group when it is alone there, then empty containers."""
    hooks = _hooks_node(doc)
    assert hooks is not None
    member = hooks.member(hook.event)
    assert member is not None
    groups = member[1]
    if not hook.alone:
        inner = groups.children[hook.group].member("hooks")
        assert inner is not None
        doc.remove(inner[1], hook.handler)
        return
    doc.remove(groups, hook.group)
    hooks = _hooks_node(doc)
    assert hooks is not None
    member = hooks.member(hook.event)
    assert member is not None
    if member[1].children:
        return
    doc.remove(hooks, member[0])
    hooks = _hooks_node(doc)
    assert hooks is not None
    if not hooks.children:
        root_member = doc.root.member("hooks")
        assert root_member is not None
        doc.remove(doc.root, root_member[0])


def _add(doc: JsonDocument, registration: Registration) -> None:
    hooks = _hooks_node(doc)
    if hooks is None:
        doc.append(doc.root, {registration.event: [registration.group()]}, key="hooks")
        return
    member = hooks.member(registration.event)
    if member is None:
        doc.append(hooks, [registration.group()], key=registration.event)
        return
    groups = member[1]
    if groups.kind != "array":
        raise InstallError(
            f'{doc.where(groups)}: "hooks.{registration.event}" must be an array of matcher '
            f"groups, got {_a_json_type(doc.value_of(groups))}; fix it first (nothing written)"
        )
    doc.append(groups, registration.group())


def _is_current(found: list[FoundHook], registration: Registration) -> bool:
    if len(found) != 1:
        return False
    hook = found[0]
    return hook.alone and hook.group_config == registration.group()


@dataclass
class HooksEdit:
    """What one settings file's ``hooks`` become."""

    before: str | None
    after: str | None
    added: list[Registration] = field(default_factory=list)
    removed: list[FoundHook] = field(default_factory=list)
    kept: list[Registration] = field(default_factory=list)
    hookwise: list[FoundHook] = field(default_factory=list)
    """hookwise's handlers in ``after``, with their indexes there."""

    @property
    def changed(self) -> bool:
        return self.before != self.after


def edit_hooks(
    text: str | None, origin: str, desired: list[Registration], *, jsonc: bool
) -> HooksEdit:
    """Make hookwise's entries in a settings text exactly ``desired`` (uninstall: ``[]``).

    Other entries are untouched; a hookwise entry that is already as desired stays in place.
    A text that cannot be edited in place is an InstallError (nothing is written).
    """
    try:
        return _edit_hooks(text, origin, desired, jsonc=jsonc)
    except JsonEditError as exc:
        raise InstallError(str(exc)) from None


def _edit_hooks(
    text: str | None, origin: str, desired: list[Registration], *, jsonc: bool
) -> HooksEdit:
    if text is None or not text.strip():
        if not desired:
            return HooksEdit(text, text)
        hooks: dict[str, Any] = {}
        for registration in desired:
            hooks.setdefault(registration.event, []).append(registration.group())
        created = json.dumps({"hooks": hooks}, indent=2, ensure_ascii=False) + "\n"
        doc = JsonDocument(created, origin, jsonc=jsonc)
        return HooksEdit(text, created, added=list(desired), hookwise=find_hookwise(doc))
    doc = JsonDocument(text, origin, jsonc=jsonc)
    existing = find_hookwise(doc)
    wanted = {r.event: r for r in desired}
    keep: list[Registration] = []
    drop: list[FoundHook] = []
    for event in dict.fromkeys(h.event for h in existing):
        mine = [h for h in existing if h.event == event]
        current = wanted.get(event)
        if current is not None and _is_current(mine, current):
            keep.append(current)
        else:
            drop.extend(mine)
    for hook in reversed(drop):  # from the end: earlier indexes stay valid
        _remove_found(doc, hook)
    add = [r for r in desired if r not in keep]
    for registration in add:
        _add(doc, registration)
    return HooksEdit(
        text,
        doc.rendered(),
        added=add,
        removed=drop,
        kept=keep,
        hookwise=find_hookwise(doc),
    )


# --------------------------------------------------------------------------- Codex trust


def codex_trust_entries(hooks_json: Path, found: list[FoundHook]) -> dict[str, str]:
    """``[hooks.state]`` key -> trusted hash, for hookwise's handlers in a hooks.json."""
    from hookwise.config.codex_settings import codex_hook_hash, event_label

    return {
        f"{hooks_json}:{event_label(h.event)}:{h.group}:{h.handler}": codex_hook_hash(
            h.event, h.matcher, h.config
        )
        for h in found
    }


_HEADER: Final = re.compile(r"^[ \t]*\[(?!\[)(?P<key>[^\n]*?)\][ \t]*(#[^\n]*)?$", re.MULTILINE)


def toml_string(text: str) -> str:
    """``text`` as a TOML basic string: JSON's escapes except that control characters
    (DEL included, which JSON leaves raw) are ``\\uXXXX`` and other characters stay as
    they are (JSON's surrogate pairs for astral characters are not TOML)."""
    out = ['"']
    for char in text:
        if char in ('"', "\\"):
            out.append("\\" + char)
        elif ord(char) < 0x20 or ord(char) == 0x7F:
            out.append(f"\\u{ord(char):04x}")
        else:
            out.append(char)
    out.append('"')
    return "".join(out)


def _toml_error(text: str, origin: str) -> str | None:
    from hookwise.config.codex_settings import parse_codex_config_text

    parsed, problems = parse_codex_config_text(text, origin)
    if parsed is None:
        return problems[0].replace("; the file is ignored", "")
    return None


def _header_path(inner: str) -> list[str] | None:
    """The key path of a ``[table]`` header (``hooks.state."k"`` -> [hooks, state, k])."""
    try:
        parsed: Any = tomllib.loads(f"{inner} = 0")
    except tomllib.TOMLDecodeError:
        return None
    path: list[str] = []
    while isinstance(parsed, dict) and len(parsed) == 1:
        key, parsed = next(iter(parsed.items()))
        path.append(key)
    return path if parsed == 0 else None


@dataclass(frozen=True)
class _Section:
    start: int  # the header line's start
    body: int  # just after the header line
    end: int  # the next header's line start, or the end of the text


def _sections(text: str) -> Iterator[tuple[list[str] | None, _Section]]:
    headers = list(_HEADER.finditer(text))
    for index, match in enumerate(headers):
        end = headers[index + 1].start() if index + 1 < len(headers) else len(text)
        newline = text.find("\n", match.end())
        body = len(text) if newline < 0 else newline + 1
        yield _header_path(match.group("key").strip()), _Section(match.start(), body, end)


_HASH_LINE: Final = re.compile(r"^[ \t]*trusted_hash[ \t]*=[^\n]*(\n|$)", re.MULTILINE)
_BLANK_OR_COMMENT: Final = re.compile(r"^[ \t]*(#[^\n]*)?$")


def _set_line(text: str, table: list[str], pattern: re.Pattern[str], line: str) -> str:
    """``text`` with ``line`` in the ``[table]`` section: replacing what ``pattern``
    finds there, else first in it; a new section at the end when there is none."""
    for path, section in _sections(text):
        if path != table:
            continue
        body = text[section.body : section.end]
        match = pattern.search(body)
        body = body[: match.start()] + line + body[match.end() :] if match else line + body
        return text[: section.body] + body + text[section.end :]
    if text and not text.endswith("\n"):
        text += "\n"
    return text + ("\n" if text else "") + _table_header(table) + line


def _table_header(table: list[str]) -> str:
    """``[hooks.state."<key>"]``: bare words stay bare, the last part is always quoted."""
    parts = [*table[:-1], toml_string(table[-1])]
    return f"[{'.'.join(parts)}]\n"


def _hooks_state(text: str) -> dict[str, Any]:
    parsed = tomllib.loads(text)
    hooks = parsed.get("hooks")
    state = hooks.get("state") if isinstance(hooks, dict) else None
    return state if isinstance(state, dict) else {}


def edit_codex_trust(
    text: str | None, origin: str, add: Mapping[str, str], remove: Mapping[str, str]
) -> str | None:
    """``config.toml`` with ``add``'s trusted hashes set and ``remove``'s entries dropped.

    An entry is removed only while it still holds the hash given (hookwise's hook). The
    result is parsed back and checked; a layout this cannot edit safely (inline tables,
    dotted keys) raises InstallError with the lines to add by hand.
    """
    original = text or ""
    if original:
        problem = _toml_error(original, origin)
        if problem is not None:
            raise InstallError(f"{problem}; fix it first (nothing written)")
    state = _hooks_state(original) if original else {}
    updated = original
    for key, digest in remove.items():
        entry = state.get(key)
        if not isinstance(entry, dict) or entry.get("trusted_hash") != digest or key in add:
            continue
        for path, section in _sections(updated):
            if path != ["hooks", "state", key]:
                continue
            body = updated[section.body : section.end]
            rest = _HASH_LINE.sub("", body, count=1)
            if all(_BLANK_OR_COMMENT.match(line) for line in rest.splitlines()):
                start = section.start
                if updated[:start].endswith("\n\n"):
                    start -= 1
                updated = updated[:start] + updated[section.end :]
            else:
                updated = updated[: section.body] + rest + updated[section.end :]
            break
    for key, digest in add.items():
        entry = state.get(key)
        if isinstance(entry, dict) and entry.get("trusted_hash") == digest:
            continue
        line = f"trusted_hash = {json.dumps(digest)}\n"
        updated = _set_line(updated, ["hooks", "state", key], _HASH_LINE, line)
    expected = {
        key: value
        for key, value in _state_hashes(state).items()
        if key in add or remove.get(key) != value
    }
    expected |= dict(add)
    problem = _toml_error(updated, origin)
    if problem is not None or _state_hashes(_hooks_state(updated)) != expected:
        lines = "\n".join(
            f"[hooks.state.{toml_string(k)}]\ntrusted_hash = {json.dumps(v)}"
            for k, v in add.items()
        )
        raise InstallError(
            f"{origin}: cannot record the Codex hook trust safely in this file's layout; add "
            f"this by hand (or approve the hooks in Codex's /hooks):\n{lines}"
        )
    return updated if updated or text is not None else None


_LEVEL_LINE: Final = re.compile(r"^[ \t]*trust_level[ \t]*=[^\n]*(\n|$)", re.MULTILINE)


def edit_codex_project_trust(text: str | None, origin: str, directory: Path) -> str:
    """``config.toml`` with ``[projects."<directory>"] trust_level = "trusted"``, the rest
    of the file kept as it is; what Codex's own trust prompt records.

    The result is parsed back and checked; a layout this cannot edit safely (inline
    tables, dotted keys) raises InstallError with the lines to add by hand.
    """
    original = text or ""
    if original:
        problem = _toml_error(original, origin)
        if problem is not None:
            raise InstallError(f"{problem}; fix it first (nothing written)")
    key = str(directory)
    line = 'trust_level = "trusted"\n'
    updated = _set_line(original, ["projects", key], _LEVEL_LINE, line)
    problem = _toml_error(updated, origin)
    projects = tomllib.loads(updated).get("projects") if problem is None else None
    entry = projects.get(key) if isinstance(projects, dict) else None
    if not isinstance(entry, dict) or entry.get("trust_level") != "trusted":
        raise InstallError(
            f"{origin}: cannot record the project trust safely in this file's layout; add "
            f"this by hand (or answer Codex's trust prompt):\n[projects.{toml_string(key)}]\n"
            'trust_level = "trusted"'
        )
    return updated


def _state_hashes(state: Mapping[str, Any]) -> dict[str, Any]:
    return {
        key: entry.get("trusted_hash")
        for key, entry in state.items()
        if isinstance(entry, dict) and "trusted_hash" in entry
    }


# --------------------------------------------------------------------------- plans


@dataclass
class FileChange:
    path: Path
    before: str | None
    after: str | None
    mode: int | None = None  # set on the written file (the launcher is executable)
    deleted: bool = False
    """Uninstall left the file empty: it is removed rather than left as ``{}`` debris."""

    @property
    def changed(self) -> bool:
        return self.before != self.after or (self.deleted and self.before is not None)

    def diff(self) -> str:
        import difflib

        lines = difflib.unified_diff(
            (self.before or "").splitlines(keepends=True),
            (self.after or "").splitlines(keepends=True),
            fromfile=str(self.path) if self.before is not None else "/dev/null",
            tofile=str(self.path),
        )
        return "".join(line if line.endswith("\n") else line + "\n" for line in lines)


@dataclass
class InstallPlan:
    """What install or uninstall will write, and what to tell the user."""

    host: str
    scope: str
    settings: Path
    command: str | None
    edit: HooksEdit
    changes: list[FileChange] = field(default_factory=list)
    """In writing order (Codex: the trust before the hooks it trusts)."""
    notes: list[str] = field(default_factory=list)
    trusted: list[str] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return any(change.changed for change in self.changes)


def _read(path: Path) -> str | None:
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None
    except IsADirectoryError:
        raise InstallError(f"{path}: is a directory, not a settings file") from None
    except OSError as exc:
        raise InstallError(f"{path}: cannot read: {exc.strerror or exc}") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InstallError(f"{path}: not UTF-8 text (byte {exc.start}); nothing written") from None


def compile_policy(project: Path, env: Mapping[str, str]) -> dict[str, Any]:
    """The merged policy as the hook will see it from ``project``."""
    from hookwise.policy.cache import load_policy

    try:
        return load_policy(str(project), dict(env), use_cache=False).policy
    except OSError as exc:
        raise InstallError(f"cannot read the policy: {exc}") from None


def plan_install(
    host: str,
    scope: str,
    project: Path,
    env: Mapping[str, str],
    *,
    compiled: Mapping[str, Any] | None = None,
    command: str | None = None,
    timeout: int | None = None,
    trust: bool = True,
) -> InstallPlan:
    """The edits that register hookwise for ``host`` in ``scope`` (nothing is written)."""
    project = Path(os.path.abspath(project))
    policy = compiled if compiled is not None else compile_policy(project, env)
    events = policy_events(policy, host)
    seconds = timeout if timeout is not None else timeout_seconds(policy)
    command = command or hook_command(host)
    desired = registrations(host, events, command, seconds)
    path = settings_path(host, scope, project, env)
    edit = edit_hooks(_read(path), str(path), desired, jsonc=host == "gemini")
    plan = InstallPlan(host, scope, path, command, edit)
    errors = policy.get("errors") or []
    if errors:
        first = errors[0]
        plan.notes.append(
            f"the policy has {len(errors)} error(s) (first: {first['file']}:{first['line']}:"
            f"{first['column']}: {first['message']}); until they are fixed hookwise denies "
            "tool calls"
        )
    if host == "codex":
        _plan_codex(plan, project, env, trust=trust, uninstall=False)
    else:
        plan.changes.append(FileChange(path, edit.before, edit.after))
    if host == "gemini":
        _note_gemini_trust(plan, project, env)
    if is_portable_command(command):
        launcher = Path(launcher_path(dict(env)))
        plan.changes.append(FileChange(launcher, _read(launcher), launcher_text(), mode=0o755))
    return plan


def _note_gemini_trust(plan: InstallPlan, project: Path, env: Mapping[str, str]) -> None:
    """Gemini CLI registers no settings hook in an untrusted folder (user hooks included):
    say so now, as for Codex, rather than let `doctor` find it later."""
    from hookwise.config.settings import SettingsPaths, load_settings
    from hookwise.protocol.profiles import Profile

    try:
        paths = SettingsPaths.from_environment(project, env=dict(env), home=gemini_home(env))
        trust = load_settings(paths, profile=Profile.GEMINI_CLI, env=dict(env)).trust
    except Exception:  # the settings are checked (and reported) by the edit itself
        return
    if not trust.trusted:
        plan.notes.append(
            f"Gemini CLI runs no settings hook in {project}: the folder is not trusted "
            f"({trust.detail}); until then these hooks do not run"
        )


def plan_uninstall(
    host: str,
    scope: str,
    project: Path,
    env: Mapping[str, str],
) -> InstallPlan:
    """The edits that remove hookwise's entries for ``host`` in ``scope``."""
    project = Path(os.path.abspath(project))
    path = settings_path(host, scope, project, env)
    edit = edit_hooks(_read(path), str(path), [], jsonc=host == "gemini")
    plan = InstallPlan(host, scope, path, None, edit)
    if host == "codex":
        _plan_codex(plan, project, env, trust=True, uninstall=True)
    else:
        plan.changes.append(FileChange(path, edit.before, edit.after))
    if edit.removed:
        for change in plan.changes:
            if _is_empty(change.path, change.after):
                change.deleted = True
                change.after = ""
    return plan


def _is_empty(path: Path, text: str | None) -> bool:
    """Whether an uninstalled file holds nothing: ``{}`` (JSON) or only blanks (TOML)."""
    if text is None:
        return False
    if path.suffix == ".toml":
        return not text.strip()
    try:
        return bool(json.loads(text) == {})
    except ValueError:
        return False


def _plan_codex(
    plan: InstallPlan,
    project: Path,
    env: Mapping[str, str],
    *,
    trust: bool,
    uninstall: bool,
) -> None:
    edit = plan.edit
    config = codex_home(env) / "config.toml"
    before = _read(config)
    old = {}
    if edit.before is not None and edit.before.strip():
        old = codex_trust_entries(
            plan.settings, find_hookwise(JsonDocument(edit.before, str(plan.settings), jsonc=False))
        )
    new = codex_trust_entries(plan.settings, edit.hookwise) if trust and not uninstall else {}
    after = edit_codex_trust(before, str(config), new, old)
    plan.trusted = sorted(new)
    plan.changes.append(FileChange(config, before, after))
    plan.changes.append(FileChange(plan.settings, edit.before, edit.after))
    if uninstall:
        return
    if not trust:
        plan.notes.append(
            "Codex runs these hooks only once they are trusted: approve them in Codex's /hooks"
        )
    if plan.scope == "project":
        level, directory = codex_project_trust(project, after, env)
        if level != "trusted":
            plan.notes.append(
                f"Codex loads {project}/.codex only in a trusted project: run `hookwise hooks "
                "trust --host codex --folder`, answer Codex's trust prompt, or add "
                f'[projects.{toml_string(str(directory))}] trust_level = "trusted" to {config}; '
                "until then these hooks do not run"
            )


def codex_project_trust(
    project: Path, config_text: str | None, env: Mapping[str, str]
) -> tuple[str | None, Path]:
    """The ``trust_level`` Codex applies to ``project``'s layer, and the directory to trust.

    As Codex 0.169 decides (codex_settings.py): the project directory's own entry, else the
    project root's (the nearest ancestor holding ``.git``).
    """
    from hookwise.config.codex_settings import CodexPaths
    from hookwise.config.dialect_hooks import same_path

    root = CodexPaths.from_environment(project, codex_home=codex_home(env), env=env).project_root()
    try:
        parsed = tomllib.loads(config_text or "")
    except tomllib.TOMLDecodeError:
        parsed = {}
    projects = parsed.get("projects")

    def level_of(directory: Path) -> str | None:
        if not isinstance(projects, dict):
            return None
        for key, entry in projects.items():
            if same_path(key, directory) and isinstance(entry, dict):
                value = entry.get("trust_level")
                return value if isinstance(value, str) else None
        return None

    level = level_of(project)
    if level is None and project != root:
        level = level_of(root)
    return level, root


# --------------------------------------------------------------------------- writing


def write_plan(plan: InstallPlan) -> list[Path]:
    """Write the plan's changed files in order; the paths written."""
    written: list[Path] = []
    for change in plan.changes:
        if not change.changed or change.after is None:
            continue
        try:
            if change.deleted:
                change.path.unlink(missing_ok=True)
                with contextlib.suppress(OSError):  # the .gemini/ install created, if empty
                    change.path.parent.rmdir()
                written.append(change.path)
                continue
            write_text_atomic(change.path, change.after, follow_symlinks=True)
            if change.mode is not None:
                os.chmod(change.path, change.mode)
        except OSError as exc:
            raise InstallError(f"{change.path}: cannot write: {exc.strerror or exc}") from None
        written.append(change.path)
    return written


__all__ = [
    "HOSTS",
    "SCOPES",
    "FileChange",
    "FoundHook",
    "HooksEdit",
    "InstallError",
    "InstallPlan",
    "Registration",
    "codex_trust_entries",
    "compile_policy",
    "edit_codex_trust",
    "edit_hooks",
    "find_hookwise",
    "hook_argv",
    "hook_command",
    "host_events_for",
    "is_hookwise_command",
    "is_portable_command",
    "launcher_text",
    "machine_paths",
    "plan_install",
    "plan_uninstall",
    "policy_events",
    "portable_argv",
    "registrations",
    "settings_path",
    "timeout_seconds",
    "write_plan",
]
