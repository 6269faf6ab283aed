"""``hookwise install --mcp`` / ``uninstall --mcp``: a host's MCP server entries run through
``hookwise mcp wrap``, and back.

Where each host reads its servers is its registry row (``MCP_FILES`` of its protocol
module). Only the ``command`` and ``args`` values of a stdio server move; everything else in
the file keeps its bytes. What they were is kept in hookwise's state directory, so that
uninstall puts back the very text (an ``args`` the entry did not have is removed again):
install then uninstall leaves the file as it was. An entry changed since (by hand, or
wrapped by something else) is unwrapped from its arguments instead, and said so. Remote
servers (``url``) are reported: the proxy cannot wrap them (docs/mcp.md).
"""

from __future__ import annotations

import contextlib
import json
import os
import shlex
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from hookwise.config.atomic import write_text_atomic
from hookwise.config.host_homes import config_dir, config_file, system_files
from hookwise.config.jsonc import JsonDocument, JsonEditError, JsonNode, parse_jsonc
from hookwise.config.mcp_servers import server_command
from hookwise.config.start_dirs import above, repository_root, walk
from hookwise.config.toml_spans import TomlSpans, pair_span, sibling_after
from hookwise.mcp_proxy import (
    BARE,
    WRAP,
    config_env,
    entry_program,
    impostor,
    isolated_program,
    loader_env,
    pinned,
    python_env,
    server_name,
    transport,
    wrapped,
)
from hookwise.policy.install.errors import InstallError
from hookwise.protocol.hosts import (
    HOST_TITLES,
    home_file,
    mcp_files,
    mcp_files_above,
    mcp_shadowing,
    mcp_stdio_types,
    mcp_unstarted,
)
from hookwise.protocol.hosts import host as host_info


@dataclass
class ServerChange:
    file: Path
    name: str
    # wrapped | unwrapped | already | not-wrapped | remote | skipped |
    # impostor (the proxy's shape, another program: wrapped again) |
    # unpinned (this hookwise's proxy without --pinned: rewritten in place, pinned) |
    # replacing (a setting outside the servers table starts a server of this name, and it
    # replaces the table's entry: Gemini's mcp.serverCommand; not rewritten, said so)
    action: str
    detail: str = ""
    # the member path of its servers table, where that is not the file's one table
    # (``["projects", "/p", "mcpServers"]`` in ~/.claude.json)
    table: tuple[str, ...] = ()


@dataclass
class McpPlan:
    changes: list[ServerChange] = field(default_factory=list)
    files: dict[Path, tuple[str, str]] = field(default_factory=dict)  # path -> (before, after)
    state: dict[str, Any] = field(default_factory=dict)
    state_path: Path | None = None
    looked: int = 0  # project scope: the directories holding one of the host's files
    unlooked: str = ""  # project scope: where the walk did not look (start_dirs.Walk)

    @property
    def changed(self) -> bool:
        return any(before != after for before, after in self.files.values())

    def left_unwrapped(self) -> list[ServerChange]:
        """The stdio servers install leaves outside the proxy (``LEFT_UNWRAPPED``): each
        makes install fail (``EXIT_CHECK_FAILED``), in text and JSON alike."""
        return [c for c in self.changes if c.action in LEFT_UNWRAPPED]


# the actions of a server that install --mcp leaves starting without the proxy: one it may
# not or cannot rewrite (skipped), one a setting outside the servers table starts instead
# of the table's entry (replacing)
LEFT_UNWRAPPED: Final = ("skipped", "replacing")


def wrap_command(env: Mapping[str, str]) -> list[str]:
    """How an entry starts the proxy (``mcp_proxy.entry_program``: this very hookwise)."""
    return entry_program(env)


def proxy_name(name: str) -> str:
    """The server's key as ``--name`` takes it: the name the host's hooks see
    (``mcp_proxy.server_name``)."""
    return server_name(name)


def _wrapped_argv(prefix: list[str], name: str, argv: list[str], pins: list[str]) -> list[str]:
    return [*prefix, *WRAP, *pins, "--name", proxy_name(name), "--", *argv]


def _unwrapped_argv(argv: list[str]) -> list[str] | None:
    """The server's own command of a wrapped entry (after ``--``), or None."""
    try:
        at = argv.index("--", argv.index(WRAP[1]))
    except ValueError:
        return None
    rest = argv[at + 1 :]
    return rest or None


def _state_path(env: Mapping[str, str]) -> Path:
    base = env.get("XDG_STATE_HOME") or os.path.join(
        env.get("HOME") or os.path.expanduser("~"), ".local", "state"
    )
    return Path(base) / "hookwise" / "mcp-install.json"


def _load_state(path: Path) -> dict[str, Any]:
    try:
        value = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as exc:
        raise InstallError(
            f"{path}: cannot read hookwise's record of wrapped servers: {exc}"
        ) from None
    return value if isinstance(value, dict) else {}


def plan_mcp(
    host: str, scope: str, project: Path, env: Mapping[str, str], *, install: bool
) -> McpPlan:
    """Every MCP server entry of ``host``'s ``scope`` files, wrapped (or unwrapped). The
    project scope is every directory of the repository the host may be started in
    (``config.start_dirs``), plus, reported and never written, the files the host reads
    above the repository (Claude Code's ``.mcp.json`` up to ``/``)."""
    files = mcp_files(host).get(scope)
    if not files:
        raise InstallError(
            f"{host} has no {scope} MCP settings hookwise can edit; docs/mcp.md lists where "
            "each host keeps its servers and which install --mcp rewrites"
        )
    state_path = _state_path(env)
    plan = McpPlan(state=_load_state(state_path), state_path=state_path)
    prefix = wrap_command(env)
    pins = config_env.pins_for(env)
    stdio = mcp_stdio_types(host)
    root: Path | None = None
    if scope == "project":
        found = walk(repository_root(Path(project)), [relative for relative, _ in files])
        root, bases, plan.unlooked = found.root, found.dirs, found.not_looked()
        plan.looked = len(found.dirs)
    else:
        bases = [config_dir(host, env)]
    for base in bases:
        first: Mapping[str, Any] = {}
        for relative, key in files:
            for path in _places(host, scope, base, relative, env):
                _check_link(path, root)
                # a file listed twice (two keys of ~/.claude.json): edited on from before
                before, text = plan.files.get(path) or (None, _text(path))
                if text is None:
                    continue
                records = plan.state.setdefault(str(path), {})
                edit = _Edit(plan, path, key, prefix, records, install, pins, env, stdio,
                             first if "*" in relative else {}, host)  # fmt: skip
                after = edit.toml(text) if path.suffix == ".toml" else edit.json(text)
                if not first and path.suffix == ".toml":
                    with contextlib.suppress(tomllib.TOMLDecodeError):
                        found_servers = tomllib.loads(text).get(key)
                        first = found_servers if isinstance(found_servers, dict) else {}
                plan.files[path] = (text if before is None else before, after)
                if not records:
                    plan.state.pop(str(path), None)
    title = HOST_TITLES.get(host, host)
    if root is not None and install:
        for relative, key in mcp_files_above(host):
            for path in above(root, relative):
                why = (f"{path} is above the project, and {title} starts its servers in every "
                       f"directory below it{_owner(path)}; install --mcp edits the project's "
                       "files only: move the entry into the projects that use it (install "
                       "--mcp wraps it there), or remove it")  # fmt: skip
                _report_only(plan, host, path, why, key=key, prefix=prefix, pins=pins,
                             env=env, stdio=stdio)  # fmt: skip
    for path, label, key in system_files(host, env):
        if scope == "user" and _may_write(path):  # wrapped (unwrapped) as the user's own
            edit_args = (prefix, install, pins, env, stdio)
            _plan_file(plan, host, path, key, edit_args)
        elif install:
            if scope == "user":
                how = (f"this user may not write it{_owner(path)}: run `hookwise install "
                       f"{host} --mcp --scope user` as its owner, or move the entry into your "
                       "own settings (install --mcp wraps it there)")  # fmt: skip
            else:
                how = "install --mcp --scope user wraps it where hookwise may write it"
            why = (f"{path} is {title}'s {label} file: its servers start in every session of "
                   f"every user of this machine; {how}")  # fmt: skip
            _report_only(plan, host, path, why, key=key, prefix=prefix, pins=pins, env=env,
                         stdio=stdio)  # fmt: skip
    return plan


def _may_write(path: Path) -> bool:
    """Whether this user may replace ``path`` as ``write_text_atomic`` does (the file and
    its directory writable)."""
    return os.access(path, os.W_OK) and os.access(path.parent, os.W_OK | os.X_OK)


def _plan_file(
    plan: McpPlan,
    host: str,
    path: Path,
    key: str,
    edit_args: tuple[list[str], bool, list[str], Mapping[str, str], tuple[str, ...]],
) -> None:
    """One JSON file outside the project's and the user's own, edited like them."""
    text = _text(path)
    if text is None:
        return
    prefix, install, pins, env, stdio = edit_args
    records = plan.state.setdefault(str(path), {})
    edit = _Edit(plan, path, key, prefix, records, install, pins, env, stdio, {}, host)
    plan.files[path] = (text, edit.json(text))
    if not records:
        plan.state.pop(str(path), None)


def _text(path: Path) -> str | None:
    """The file's text with its own line ends (``read_text`` made CRLF LF: uninstall
    then did not give the bytes back, red team s35 F8)."""
    try:
        return path.read_bytes().decode("utf-8")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        raise InstallError(f"{path}: cannot read it: {exc}") from None


def _report_only(
    plan: McpPlan,
    host: str,
    path: Path,
    why: str,
    *,
    key: str,
    prefix: list[str],
    pins: list[str],
    env: Mapping[str, str],
    stdio: tuple[str, ...],
) -> None:
    """A file the host reads that install does not write (one above the repository, red
    team s28 F7; a system file this run may not edit, s29): what would be wrapped in it is
    reported ``skipped``, saying ``why``."""
    try:
        text = _text(path)
    except InstallError as exc:
        plan.changes.append(ServerChange(path, "*", "skipped", str(exc)))
        return
    if text is None:
        return
    seen = McpPlan()
    edit = _Edit(seen, path, key, prefix, {}, True, pins, env, stdio, {}, host)
    try:
        edit.json(text)
    except InstallError as exc:
        plan.changes.append(ServerChange(path, "*", "skipped", str(exc)))
        return
    for change in seen.changes:
        if change.action in ("already", "remote", "replacing", "skipped"):
            plan.changes.append(change)
            continue
        plan.changes.append(ServerChange(path, change.name, "skipped", why))


def _owner(path: Path) -> str:
    """Words naming the other user who owns ``path`` ("" when it is this user's)."""
    try:
        uid = path.stat().st_uid
    except OSError:
        return ""
    return "" if uid == os.getuid() else f" (owned by another user, uid {uid})"


def _places(host: str, scope: str, base: Path, relative: str, env: Mapping[str, str]) -> list[Path]:
    """The files of one ``MCP_FILES`` entry: a ``*`` in its name is every file it matches
    (Codex's profile files, each a ``--profile`` the host may be run with: s27 F13); ``~/``
    is a file in HOME beside the host's directory (``hosts.home_file``)."""
    if relative.startswith("~/"):
        return [Path(home_file(host, relative[2:], env))]
    if "*" not in relative:
        return [base / relative if scope == "project" else config_file(host, relative, env)]
    parent = base if scope == "project" else config_dir(host, env)
    where = parent / Path(relative).parent
    try:
        return sorted(p for p in where.glob(Path(relative).name) if not p.is_dir())
    except OSError:
        return []


def _check_link(path: Path, project: Path | None) -> None:
    """A settings file that is a symbolic link is edited where it points (the link stays
    a link), but a project's link must point inside the project: a repository can link
    its ``.gemini/settings.json`` to the user's, and install would then copy the user's
    servers (and their tokens) into the work tree, or edit the user's file from a repo."""
    if project is None or not path.is_symlink():
        return
    target = Path(os.path.realpath(path))
    root = Path(os.path.realpath(project))
    if target != root and root not in target.parents:
        raise InstallError(
            f"{path}: a symbolic link to {target}, outside the project {root}; hookwise "
            "edits a project's MCP settings only inside it (edit that file with "
            "--scope user if it is yours, or replace the link with a file)"
        )


def write_mcp(plan: McpPlan) -> list[Path]:
    """Write the changed files, then the record (install) or what is left of it."""
    written: list[Path] = []
    for path, (before, after) in plan.files.items():
        if before != after:  # through a link, as the host reads it (see _check_link)
            write_text_atomic(path, after, follow_symlinks=True)
            written.append(path)
    if plan.state_path is not None and written:
        plan.state_path.parent.mkdir(parents=True, exist_ok=True)
        write_text_atomic(plan.state_path, json.dumps(plan.state, indent=2) + "\n")
    return written


# --------------------------------------------------------------------------- JSON files


@dataclass
class _Edit:
    """One settings file's servers, wrapped or unwrapped."""

    plan: McpPlan
    path: Path
    key: str
    prefix: list[str]
    records: dict[str, Any]
    install: bool
    pins: list[str]
    env: Mapping[str, str]
    stdio_types: tuple[str, ...] = ("stdio",)
    # the servers of the file this one is merged over field by field (a Codex profile over
    # config.toml): an entry here without ``args`` takes that entry's
    under: Mapping[str, Any] = field(default_factory=dict)
    host: str = ""
    table: tuple[str, ...] = ()  # the servers table being edited, when not the top one

    def note(self, name: str, action: str, detail: str = "") -> None:
        self.plan.changes.append(ServerChange(self.path, name, action, detail, self.table))

    def json(self, text: str) -> str:
        return _json_edit(self, text)

    def toml(self, text: str) -> str:
        return _toml_edit(self, text)

    def program(self, entry_env: object) -> list[str]:
        """How this entry starts the proxy: by an absolute path when its own ``env`` sets
        the PATH a bare ``hookwise`` would be looked up on."""
        if "/" not in self.prefix[0] and (
            (isinstance(entry_env, Mapping) and "PATH" in entry_env) or python_env(entry_env)
        ):
            return isolated_program()  # -I: its PYTHON* variables do not reach the proxy
        return self.prefix

    def loads_code(self, name: str, entry_env: object) -> bool:
        """An entry whose ``env`` loads code into whatever it starts (``LD_PRELOAD``...):
        wrapping it would put that code into the proxy too; left as it is, and said so."""
        loaders = loader_env(entry_env)
        if loaders:
            self.note(
                name,
                "skipped",
                f"its env sets {', '.join(loaders)}, which would load code into the proxy "
                "too; remove it from the entry (or set it inside the server's own command)",
            )
        return bool(loaders)

    def not_stdio(self, name: str, entry: Mapping[str, object]) -> bool:
        """An entry the host may not run as a stdio command (a URL or a transport type
        beside it, s26 F2): wrapping its command guards nothing, and calling it wrapped
        would certify a server the host reaches over the network. Left, said so."""
        why = transport(entry, self.stdio_types)
        if why is not None:
            self.note(
                name,
                "skipped",
                f"{why}; the proxy guards stdio servers only: remove the URL and type if it "
                "is a stdio server, else it is a remote server, not covered (docs/mcp.md)",
            )
        return why is not None

    def server_argv(self, name: str, argv: list[str], entry_env: object) -> list[str] | None:
        """The command to wrap, None when the entry already runs this hookwise's proxy
        (said so). One of the proxy's shape that starts another program (``./hookwise``,
        ``python -m hookwise`` without ``-I``) is wrapped again; this hookwise's proxy
        without ``--pinned`` (it takes the policy from variables a project's settings
        reach) is rewritten in place, around the same server."""
        if not wrapped(argv):
            return argv
        why = impostor(argv, self.env, entry_env, name, require_pinned=False)
        inner = _unwrapped_argv(argv) if why == BARE else None
        if inner is not None:  # this hookwise by a bare name: rewritten by its absolute path
            self.note(name, "impostor", f"{why}; rewritten with this hookwise's absolute path")
            return inner
        if why is not None:
            self.note(name, "impostor", f"{why}; wrapped by this hookwise")
            return argv
        if not pinned(argv):
            inner = _unwrapped_argv(argv)
            if inner is not None:
                keys = config_env.overrides(entry_env)
                where = (
                    f"its env sets {', '.join(keys)}, which decide"
                    if keys
                    else "HOOKWISE_*/XDG_*_HOME/HOME of the environment the host starts it "
                    "with (a project's settings env or .env reach it) decide"
                )
                self.note(
                    name,
                    "unpinned",
                    f"{where} the proxy's policy and audit log: it is not --pinned; "
                    "rewritten --pinned",
                )
                return inner
            self.note(name, "impostor", "no server command after --; wrapped by this hookwise")
            return argv
        self.note(name, "already")
        return None


def _json_edit(edit: _Edit, text: str) -> str:
    path, key = edit.path, edit.key
    try:
        doc = JsonDocument(text, str(path), jsonc=True)
    except JsonEditError as exc:
        raise InstallError(str(exc)) from None
    if edit.install:
        _command_line_server(edit, doc.value_of(doc.root))
    for where in _server_tables(doc, key.split("/")):
        found = _at(doc, where)
        assert found is not None
        for name in [name for name, _ in found.keys]:
            entry = found.member(name)
            if entry is None or entry[1].kind != "object":
                continue
            edit.table = tuple(where) if len(where) > 1 else ()
            _json_entry(edit, doc, name, where)
            edit.table = ()
            found = _at(doc, where)  # (offsets moved)
            assert found is not None
    for table in [k for k, v in edit.records.items() if k.startswith("[") and v == {}]:
        del edit.records[table]  # a deeper table with nothing recorded (_records)
    return doc.rendered()


def _at(doc: JsonDocument, where: list[str]) -> JsonNode | None:
    """The object at the member path ``where`` (None: not there, or no object)."""
    node = doc.root
    for part in where:
        found = node.member(part) if node.kind == "object" else None
        if found is None:
            return None
        node = found[1]
    return node if node.kind == "object" else None


def _server_tables(doc: JsonDocument, key: list[str]) -> list[list[str]]:
    """The member paths of the servers tables ``key`` names (``projects/*/mcpServers``: a
    ``*`` is every member of the object there)."""
    paths: list[list[str]] = [[]]
    for part in key:
        out: list[list[str]] = []
        for where in paths:
            node = _at(doc, where)
            if node is None:
                continue
            names = [name for name, _ in node.keys] if part == "*" else [part]
            out += [[*where, name] for name in dict.fromkeys(names)]
        paths = out
    return [where for where in paths if _at(doc, where) is not None]


def _command_line_server(edit: _Edit, settings: object) -> None:
    """A server the file starts from a command line outside its servers table (Gemini
    CLI's and Qwen Code's ``mcp.serverCommand``, red team s27 F11): it replaces the table's
    entry of its name, so that entry wrapped guards nothing. Not rewritten (the host parses
    and expands the line itself); reported, with what to do."""
    found = server_command(edit.host, settings) if isinstance(settings, dict) else None
    if found is None:
        return
    name, key, entry = found
    line = shlex.join([entry["command"], *entry["args"]])
    edit.note(
        name,
        "replacing",
        f"{key} starts {line!r} as MCP server {name!r}, replacing any {edit.key}.{name}, and "
        f"install --mcp does not rewrite that setting: move the command into "
        f"{edit.key}.{name} (command and args) and run install --mcp again, or remove it",
    )


def _json_entry(edit: _Edit, doc: JsonDocument, name: str, where: list[str]) -> None:
    install = edit.install
    records = _records(edit, where)

    def node(member: str) -> tuple[JsonNode, tuple[int, JsonNode] | None]:
        servers = _at(doc, where)
        assert servers is not None
        entry = servers.member(name)
        assert entry is not None
        return entry[1], entry[1].member(member)

    value = doc.value_of(node("command")[0])
    command, args = value.get("command"), value.get("args", [])
    if not isinstance(command, str) or not command:
        if isinstance(value.get("url") or value.get("httpUrl") or value.get("serverUrl"), str):
            edit.note(name, "remote", "not covered by the proxy")
        return
    if not isinstance(args, list) or not all(isinstance(a, str) for a in args):
        edit.note(name, "skipped", "its args are not strings")
        return
    argv = [command, *args]
    if install:
        if edit.not_stdio(name, value) or edit.loads_code(name, value.get("env")):
            return
        server = edit.server_argv(name, argv, value.get("env"))
        if server is None:
            return
        new = _wrapped_argv(edit.program(value.get("env")), name, server, edit.pins)
        entry, command_node = node("command")
        assert command_node is not None
        _, args_node = node("args")
        records[name] = {
            "command": doc.text[command_node[1].start : command_node[1].end],
            "args": doc.text[args_node[1].start : args_node[1].end] if args_node else None,
            "wrapped": new,
        }
        doc.replace_value(command_node[1], json.dumps(new[0], ensure_ascii=False))
        entry, args_node = node("args")
        rest = json.dumps(new[1:], ensure_ascii=False)
        if args_node is None:
            doc.append(entry, new[1:], "args")
        else:
            doc.replace_value(args_node[1], rest)
        if server is argv:
            edit.note(name, "wrapped", " ".join(argv))
        return
    if not wrapped(argv):
        edit.note(name, "not-wrapped")
        return
    original = _unwrapped_argv(argv)
    if original is None:
        edit.note(name, "skipped", "no server command after --")
        return
    record = records.pop(name, None)
    exact = _restores(record, argv, original, toml=False)
    entry, command_node = node("command")
    assert command_node is not None
    command_text = record["command"] if exact else json.dumps(original[0], ensure_ascii=False)
    doc.replace_value(command_node[1], command_text)
    entry, args_node = node("args")
    if args_node is None:
        raise InstallError(f"{edit.path}: server {name!r} has no args to unwrap")
    if exact and record["args"] is None:
        doc.remove(entry, args_node[0])
    else:
        args_text = record["args"] if exact else json.dumps(original[1:], ensure_ascii=False)
        doc.replace_value(args_node[1], args_text)
    detail = "" if exact else "changed since install: its values restored, not its text"
    edit.note(name, "unwrapped", detail)


def _records(edit: _Edit, where: list[str]) -> dict[str, Any]:
    """The record of one servers table's entries: the file's own for its top-level table;
    one per table deeper in (``projects["/p"].mcpServers``: each project's names are its
    own), under its member path."""
    if len(where) == 1:
        return edit.records
    table: dict[str, Any] = edit.records.setdefault(json.dumps(where), {})
    return table


# --------------------------------------------------------------------------- Codex's TOML


def _toml_edit(edit: _Edit, text: str) -> str:
    path, key = edit.path, edit.key
    try:
        servers = tomllib.loads(text).get(key)
    except tomllib.TOMLDecodeError as exc:
        raise InstallError(
            f"{path}: not valid TOML ({exc}); fix it first (nothing written)"
        ) from None
    if not isinstance(servers, dict):
        return text
    for name, server in servers.items():
        if not isinstance(server, dict):
            continue
        if not isinstance(server.get("command"), str):
            if isinstance(server.get("url"), str):
                edit.note(name, "remote", "not covered by the proxy")
            elif edit.install and any(k in server for k in _MERGED_FIELDS):
                fields = ", ".join(k for k in _MERGED_FIELDS if k in server)
                edit.note(name, "skipped", f"it sets {fields} without a command: Codex merges "
                          "it field by field into the same server of an earlier layer (the "
                          "user's config.toml), whose command then runs these arguments, "
                          "not the proxy; give it its own command, or remove it")  # fmt: skip
            continue
        changed = _toml_entry(edit, text, name, server)
        if changed != text:
            _check_toml(edit, text, changed, name)
        text = changed
    return text


# the fields of a Codex server entry that decide what runs (red team s28 F8)
_MERGED_FIELDS = ("args", "env", "cwd")


def _argv_of(server: Any) -> list[Any]:
    if not isinstance(server, dict):
        return []
    args = server.get("args", [])
    return [server.get("command"), *(args if isinstance(args, list) else [args])]


def _check_toml(edit: _Edit, before: str, after: str, name: str) -> None:
    """The edit, parsed back, changed exactly this entry's command and args as meant: the
    spans come from a scanner (``config.toml_spans``), not from tomllib, so a form it
    misreads could put the value elsewhere (``install`` would report a server wrapped
    that is not) or cut it wrong (the file would no longer load). Refused, nothing written."""
    old = tomllib.loads(before)
    try:
        new = tomllib.loads(after)
    except tomllib.TOMLDecodeError as exc:
        new = {"unreadable": str(exc)}
    old_server, new_server = old[edit.key][name], new.get(edit.key, {}).get(name)
    old_argv, new_argv = _argv_of(old_server), _argv_of(new_server)
    if edit.install:
        # around the server it had, or (an unpinned proxy rewritten) around its server
        meant = wrapped(new_argv) and _unwrapped_argv(new_argv) in (
            old_argv,
            _unwrapped_argv(old_argv),
        )
    else:
        meant = new_argv == _unwrapped_argv(old_argv)
    rest_old = {**old, edit.key: {**old[edit.key], name: None}}
    rest_new = {**new, edit.key: {**new.get(edit.key, {}), name: None}}
    others_old = {k: v for k, v in (old_server or {}).items() if k not in ("command", "args")}
    others_new = {k: v for k, v in (new_server or {}).items() if k not in ("command", "args")}
    if not meant or rest_old != rest_new or others_old != others_new:
        raise InstallError(
            f"{edit.path}: cannot edit server {name!r} safely (its [{edit.key}.{name}] table "
            "or its command/args are written in a form hookwise does not edit by text, such "
            "as a multi-line string, or text elsewhere looks like them); nothing written: "
            "change its command by hand"
        )


def _toml_entry(edit: _Edit, text: str, name: str, server: dict[str, Any]) -> str:
    key, records, install = edit.key, edit.records, edit.install
    args = server.get("args", [])
    if not isinstance(args, list) or not all(isinstance(a, str) for a in args):
        edit.note(name, "skipped", "its args are not strings")
        return text
    argv = [server["command"], *args]
    found = TomlSpans(text)
    command = found.value((key, name, "command"))
    args_pair = found.value((key, name, "args"))
    if command is None or (args_pair is None and "args" in server):
        edit.note(name, "skipped", "its command or args could not be located in the text")
        return text
    below = edit.under.get(name)
    if install and "args" not in server and isinstance(below, dict) and "args" in below:
        edit.note(name, "skipped", "it sets command but takes args from the same server in "
                                   "the file it is merged over; give it its own args")  # fmt: skip
        return text
    spans = {"command": (command.value_start, command.value_end)}
    if args_pair is not None:
        spans["args"] = (args_pair.value_start, args_pair.value_end)
    if install:
        if edit.not_stdio(name, server) or edit.loads_code(name, server.get("env")):
            return text
        inner = edit.server_argv(name, argv, server.get("env"))
        if inner is None:
            return text
        new = _wrapped_argv(edit.program(server.get("env")), name, inner, edit.pins)
        records[name] = {
            "command": text[slice(*spans["command"])],
            "args": text[slice(*spans["args"])] if "args" in spans else None,
            "wrapped": new,
        }
        edits = [(spans["command"], json.dumps(new[0], ensure_ascii=False))]
        rest = json.dumps(new[1:], ensure_ascii=False)
        if "args" in spans:
            edits.append((spans["args"], rest))
        else:
            edits.append(sibling_after(text, command, "args", rest))
        if inner is argv:
            edit.note(name, "wrapped", " ".join(argv))
        return _apply(text, edits)
    if not wrapped(argv):
        edit.note(name, "not-wrapped")
        return text
    original = _unwrapped_argv(argv)
    if original is None or "args" not in spans:
        edit.note(name, "skipped", "no server command after --")
        return text
    record = records.pop(name, None)
    exact = _restores(record, argv, original, toml=True)
    edits = [
        (spans["command"], record["command"] if exact else json.dumps(original[0])),
    ]
    if exact and record["args"] is None:
        assert args_pair is not None
        edits.append((pair_span(text, args_pair), ""))
    else:
        edits.append((spans["args"], record["args"] if exact else json.dumps(original[1:])))
    detail = "" if exact else "changed since install: its values restored, not its text"
    edit.note(name, "unwrapped", detail)
    return _apply(text, edits)


def _restores(record: Any, argv: list[str], original: list[str], *, toml: bool) -> bool:
    """Whether install's record may be written back as text: it is the record of this very
    entry, and its text reads as exactly the server command the entry wraps. The record is
    a file the user's account can write, so its text alone must not reach the settings
    (``"sh", "args": ["-c", "..."], "env": {...}`` would splice in another entry)."""
    if not isinstance(record, dict) or record.get("wrapped") != argv:
        return False
    command, args = record.get("command"), record.get("args")
    if not isinstance(command, str) or not (args is None or isinstance(args, str)):
        return False
    try:
        if toml:
            doc = f"command = {command}\n" + (f"args = {args}\n" if args is not None else "")
            value: Any = tomllib.loads(doc)
            keys = {"command", "args"} if args is not None else {"command"}
            if not isinstance(value, dict) or set(value) != keys:
                return False
            restored = [value["command"], *value.get("args", [])]
        else:  # each text on its own one JSON value: nothing spliced around it
            parts = [parse_jsonc(command)] + ([parse_jsonc(args)] if args is not None else [])
            if any(problem is not None for _, problem in parts):
                return False
            rest = parts[1][0] if args is not None else []
            if not isinstance(rest, list):
                return False
            restored = [parts[0][0], *rest]
    except ValueError:
        return False
    return restored == original


def _apply(text: str, edits: list[tuple[tuple[int, int], str]]) -> str:
    for (start, end), value in sorted(edits, reverse=True):
        text = text[:start] + value + text[end:]
    return text


def _merges_layers(host: str) -> bool:
    """Whether ``host`` merges an MCP entry across its config layers (its protocol module's
    ``MERGES_MCP_LAYERS``)."""
    import importlib

    from hookwise.protocol.hosts import host as host_info

    module = importlib.import_module(host_info(host).module)
    return bool(getattr(module, "MERGES_MCP_LAYERS", False))


def _merged_problems(host: str, project: Path, env: Mapping[str, str]) -> dict[str, str]:
    """Servers whose entry the host merges across files into one that is not wrapped
    (Codex: ``codex_merged``); other hosts take an entry whole from one file."""
    if not _merges_layers(host):
        return {}
    from hookwise.policy.install.codex_merged import merged_problems

    return {m.name: m.why for m in merged_problems(project, config_dir(host, env))}


def mcp_checks(host: str, project: Path, env: Mapping[str, str]) -> list[tuple[str, str]]:
    """``doctor``: (status, detail) about ``host``'s MCP servers: those that do not run
    through the proxy (warn), those that do (ok), remote ones it cannot wrap (info). A
    server a setting of any scope replaces (``replacing``) is not reported behind the proxy."""
    out: list[tuple[str, str]] = []
    if not mcp_files(host):
        return _plugin_checks(host, project, env)
    plans: list[tuple[str, McpPlan]] = []
    for scope in mcp_files(host):
        try:
            plans.append((scope, plan_mcp(host, scope, project, env, install=True)))
        except InstallError as exc:
            out.append(("warn", f"cannot read the {scope} MCP servers: {exc}"))
    seen: set[tuple[Path, str]] = set()
    for _, plan in plans:  # a file every scope reads (a system file): reported once
        plan.changes = [c for c in plan.changes if (c.file, c.name) not in seen]
        seen.update((c.file, c.name) for c in plan.changes)
    out += _unstarted(host, env)
    replaced = {c.name for _, plan in plans for c in plan.changes if c.action == "replacing"}
    replaced |= _shadowing(host, project, plans)
    merged = _merged_problems(host, project, env)
    for name, why in merged.items():
        out.append(("warn", f"MCP server {name!r} is not behind the proxy: {why}"))
    for scope, plan in plans:
        if plan.unlooked:
            out.append(("info", f"{scope} MCP files looked for in every directory of the "
                                f"repository, {plan.unlooked}"))  # fmt: skip
        by: dict[str, list[str]] = {}
        for change in plan.changes:
            by.setdefault(change.action, []).append(f"{change.name!r} ({change.file})")
        if by.get("wrapped"):
            out.append(
                (
                    "warn",
                    f"{scope} MCP servers not run through `hookwise mcp wrap`: "
                    f"{', '.join(by['wrapped'])} (`hookwise install {host} --mcp"
                    f"{' --scope user' if scope == 'user' else ''}`)",
                )
            )
        for change in plan.changes:
            if change.action in ("unpinned", "impostor"):
                out.append(("warn", f"{scope} MCP server {change.name!r} ({change.file}): "
                                    f"{change.detail}"))  # fmt: skip
            elif change.action == "skipped":  # a stdio server neither wrapped nor wrappable
                out.append(("warn", f"{scope} MCP server {change.name!r} ({change.file}) is not "
                                    "run through `hookwise mcp wrap`, and install --mcp cannot "
                                    f"wrap it: {change.detail}"))  # fmt: skip
            elif change.action == "replacing":
                where = f"{scope} MCP server {change.name!r} ({change.file})"
                out.append(
                    ("warn", f"{where} is not run through `hookwise mcp wrap`: {change.detail}")
                )
            elif change.action == "already" and change.name in replaced:
                out.append(("warn", f"{scope} MCP server {change.name!r} ({change.file}) is "
                                    "wrapped, but a setting replaces it (see above/below): the "
                                    "host does not start this entry"))  # fmt: skip
        behind = [  # (a merged entry's warning is above)
            f"{c.name!r} ({c.file})"
            for c in plan.changes
            if c.action == "already" and c.name not in replaced and c.name not in merged
        ]
        if behind:
            out.append(("ok", f"{scope} MCP servers behind the proxy: {', '.join(behind)}"))
        if by.get("remote"):
            out.append(
                ("info", f"{scope} remote MCP servers (not covered): {', '.join(by['remote'])}")
            )
    return out


def _plugin_checks(host: str, project: Path, env: Mapping[str, str]) -> list[tuple[str, str]]:
    """``doctor`` for a host whose settings install --mcp does not edit but whose servers
    hookwise reads (OpenCode's, Kilo's ``mcp``): each server once, as the host merges its
    files (config.opencode.mcp_layers), from the file that gives its command."""
    if host_info(host).hooks_layout != "plugin":
        return []
    from hookwise.config.opencode.mcp_layers import plugin_servers

    servers, problems = plugin_servers(host, project, env)
    out: list[tuple[str, str]] = [("warn", f"cannot read the MCP servers: {p}") for p in problems]
    title = HOST_TITLES.get(host, host)
    unwrapped: list[str] = []
    behind: list[str] = []
    remote: list[str] = []
    for server in servers:
        shown = f"{server.name!r} ({server.file})"
        argv = server.argv()
        if server.entry.get("enabled") is False:
            continue
        if argv is None:
            if isinstance(server.entry.get("url"), str):
                remote.append(shown)
            continue
        if not wrapped(argv):
            unwrapped.append(shown)
            continue
        why = impostor(argv, env, server.entry.get("environment"), server.name)
        if why is not None:
            out.append(("warn", f"MCP server {shown} is not run through this hookwise's proxy: "
                                f"{why}"))  # fmt: skip
        else:
            behind.append(shown)
    if unwrapped:
        out.append(
            (
                "warn",
                f"MCP servers not run through `hookwise mcp wrap`: {', '.join(unwrapped)} "
                f"(install --mcp does not edit {title}'s settings: start each as `hookwise mcp "
                "wrap --pinned --name NAME -- <its command>`, docs/mcp.md)",
            )
        )
    if behind:
        out.append(("ok", f"MCP servers behind the proxy: {', '.join(behind)}"))
    if remote:
        out.append(("info", f"remote MCP servers (not covered): {', '.join(remote)}"))
    return out


def _unstarted(host: str, env: Mapping[str, str]) -> list[tuple[str, str]]:
    """``doctor``: servers the host's settings hold where it never starts them (Codex's
    legacy ``[profiles.NAME.mcp_servers]``): neither guarded nor run; said where they
    would be (red team s35 F5)."""
    out: list[tuple[str, str]] = []
    for relative, table, key, target in mcp_unstarted(host):
        path = config_file(host, relative, env)
        try:
            sections = tomllib.loads(path.read_text("utf-8")).get(table)
        except FileNotFoundError:
            continue
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
            out.append(("warn", f"cannot read {path}: {exc}"))
            continue
        for name, section in sections.items() if isinstance(sections, dict) else ():
            servers = section.get(key) if isinstance(section, dict) else None
            if isinstance(servers, dict) and servers:
                there = path.with_name(target.format(name=name))
                out.append(
                    (
                        "warn",
                        f"MCP servers {', '.join(map(repr, servers))} under [{table}.{name}] of "
                        f"{path} never start: {HOST_TITLES.get(host, host)} does not read "
                        f"servers there (docs/mcp.md); move them to [{key}] of {there} and "
                        f"run `hookwise install {host} --mcp --scope user`",
                    )
                )
    return out


def _shadowing(host: str, project: Path, plans: list[tuple[str, McpPlan]]) -> set[str]:
    """The project servers an entry of another scope replaces that does not run through the
    proxy (Claude Code's local scope over ``.mcp.json``: ``MCP_SHADOWING``): doctor must not
    call the project's wrapped entry guarded (red team s35 F7: ``claude mcp add fs`` by the
    agent put an unwrapped ``fs`` in front of the wrapped one, doctor said ok)."""
    found = mcp_shadowing(host)
    if found is None:
        return set()
    scope, key = found
    names = {str(project), os.path.realpath(project)}
    tables = {tuple(name if part == "*" else part for part in key.split("/")) for name in names}
    return {
        c.name
        for s, plan in plans
        if s == scope
        for c in plan.changes
        if c.table in tables and c.action != "already"
    }
