"""Other readings of an MCP tool call's arguments, decided as well as the call as given.

A server may read an argument otherwise than the rules do: it trims the blanks around a
path (``".env "`` is ``.env`` after ``strip()``/``trim()``: red team s27 F8), decodes a JSON
text given for a list or object parameter (the Python MCP SDK: ``"[\\".env\\"]"`` for a
``list[str]``; Claude Desktop sends lists so), and a tool the tables do not map may take a
bare file name under a path key (``target: authorized_keys``). Neither the proxy nor the
hook can know which the server does, so each reading is decided too and the stricter verdict
wins. One set for ``hookwise mcp wrap`` (mcp_proxy/decide.py, integrations/gate.py) and the
hook's MCP tools under any host's naming (adapters/base.py): the same call gets the same
decision through either (issue 28, session 31). A path through a symbolic link is the
rules' own reading (``canonical.resolved``). Standard library only: the hook loads it for an
MCP tool.
"""

from __future__ import annotations

from hookwise.policy import fastjson
from hookwise.policy.arg_roles import role, text_key
from hookwise.policy.canonical import MOVE_PATH_KEYS, SHELL, tool_paths
from hookwise.policy.uri_paths import trimmed

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

__all__ = ["anchored", "bare_names", "json_decoded", "path_keys", "readings", "trimmed_paths"]

_PATH_ROLES = ("file", "directory", "paths", "move")


def path_keys(tool: str, args: Mapping[str, Any], moves: bool) -> list[str]:
    """The keys of ``args`` canonical ``tool`` takes a path (or a list of them) under."""
    out = []
    for key in args:
        found = role(str(key), tool)
        if found not in _PATH_ROLES or (found == "move" and not moves):
            continue
        if found == "move" and key not in MOVE_PATH_KEYS:
            continue
        out.append(str(key))
    return out


def anchor(value: Any, cwd: str, home: str) -> Any:
    """A path argument (or a list of them) absolute: literal text, as no server expands
    ``$VAR`` or a backtick, ``..`` normalised, a leading ``~`` with the policy's home (the
    first reading of ``canonical.tool_paths``); an empty name is left as it is."""
    if isinstance(value, list):
        return [anchor(v, cwd, home) for v in value]
    if not isinstance(value, str) or not value:
        return value
    found = tool_paths(value, cwd, home)[0].absolute
    return value if found is None else found


def anchored(
    tool: str, args: Mapping[str, Any], cwd: str, home: str, *, moves: bool = False
) -> dict[str, Any]:
    """``args`` with every path argument of ``tool`` absolute, others kept: what the MCP
    proxy passes on (mcp_proxy/paths.py), so a bare name under a path key (``file:
    [docs]``) is a path there, decided as one."""
    out = dict(args)
    for key in path_keys(tool, args, moves):
        if tool == SHELL and role(key, tool) != "directory":
            continue
        out[key] = anchor(args[key], cwd, home)
    return out


def trimmed_paths(tool: str, args: Mapping[str, Any], moves: bool) -> dict[str, Any] | None:
    """``args`` with the blanks around each path argument dropped, as a server forgiving
    them reads it, or None when no path argument has any."""
    out = dict(args)
    changed = False
    for key in path_keys(tool, args, moves):
        value = args[key]
        cut = (
            [trimmed(v) if isinstance(v, str) else v for v in value]
            if isinstance(value, list)
            else (trimmed(value) if isinstance(value, str) else value)
        )
        if cut != value:
            out[key] = cut
            changed = True
    return out if changed else None


def json_decoded(args: Mapping[str, Any]) -> dict[str, Any] | None:
    """``args`` with each string that is a JSON array or object decoded, as the Python MCP
    SDK decodes one given for a parameter not typed ``str``, or None when there is none.
    Text to write, compare or run (``content``, ``oldText``, ``command``: ``text_key``) is
    a ``str`` parameter: ``write_file tasks.json`` with JSON content is a write, not JSON
    arguments holding a command."""
    out = dict(args)
    changed = False
    for key, value in args.items():
        if text_key(str(key)):
            continue
        if isinstance(value, str) and value.lstrip(" \t\r\n")[:1] in ("[", "{"):
            try:
                out[key] = fastjson.loads(value)
            except (ValueError, RecursionError):
                continue
            changed = True
    return out if changed else None


def bare_names(tool: str, args: Mapping[str, Any]) -> list[str]:
    """The bare words under the path keys of a tool the tables do not map (``target:
    authorized_keys``, ``to: id_rsa``, ``files: [id_rsa]``): no ``/`` or dot says they are
    paths, nor that they are not (a deploy stage, a mail name), so they are decided as
    file names too (the proxy passes them on made absolute: paths.py)."""
    out: list[str] = []
    for key, value in args.items():
        if role(str(key), tool) not in ("file", "directory", "move", "paths"):
            continue
        for item in value if isinstance(value, list) else [value]:  # (a list of names too)
            if isinstance(item, str) and item and not any(c in item for c in " @\n/\\"):
                out.append(item)
    return out


def readings(
    tool: str,
    args: Mapping[str, Any],
    *,
    mapped: bool,
    moves: bool = False,
    where: tuple[str, str] | None = None,
) -> list[dict[str, Any]]:
    """The other readings of a call of ``tool`` (canonical when ``mapped``, else the tool's
    own name) to decide on too, in the call's own keys: its paths trimmed, its JSON texts
    decoded (and that reading's paths trimmed), and an unmapped tool's bare names in any
    of them as ``file_paths``; with ``where`` (cwd, home), also its paths :func:`anchored`
    as the proxy passes them on (the proxy gives its readings the call so anchored)."""
    out: list[dict[str, Any]] = []
    bases = [args]
    if where is not None:
        found = anchored(tool, args, where[0], where[1], moves=moves)
        if found != args:
            out.append(found)
            bases.append(found)
    for base in bases:
        decoded = json_decoded(base)
        again = trimmed_paths(tool, decoded, moves) if decoded is not None else None
        for other in (trimmed_paths(tool, base, moves), decoded, again):
            if other is not None and other not in out:
                out.append(other)
    if not mapped:  # each reading's bare names (``"authorized_keys "`` once trimmed)
        for source in (args, *out):
            names = bare_names(tool, source)
            if names and {"file_paths": names} not in out:
                out.append({"file_paths": names})
    return out
