"""A login stored for every host is sent to whichever host a command names (red team s27
O): a ``default`` entry of ``~/.netrc`` (or ``$NETRC``) is what wget, pip, git over http,
curl ``-n``, python's requests... answer a 401 with, for any host that has no ``machine``
entry of its own. A command naming a URL of such a host sends the file's secret to it:
that is a read of the netrc file, judged by the rules on it (the secrets pack's
``~/.netrc``). A ``machine`` entry sent to its own host is the login's intended use, not a
read (the secrets pack's docs say so). Read at decision time, as the programs read it.

Cold: loaded only for a command line holding ``://``. Standard library only."""

from __future__ import annotations

from hookwise.policy import os_lite as os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from hookwise.shell.parser import Command, Script

MAX_BYTES = 1 << 20
_SCHEMES = ("http://", "https://", "ftp://", "ftps://")


def hosts(words: list[str]) -> list[str]:
    """The hosts of the http(s)/ftp(s) URLs among ``words`` (an option's ``=URL`` too)."""
    out: list[str] = []
    for word in words:
        lowered = word.lower()
        at = min((i for i in (lowered.find(s) for s in _SCHEMES) if i >= 0), default=-1)
        if at < 0:
            continue
        rest = word[at:].split("://", 1)[1]
        authority = rest.split("/", 1)[0].split("?", 1)[0].split("#", 1)[0]
        host = authority.rpartition("@")[2]
        host = host[1:].split("]", 1)[0] if host.startswith("[") else host.split(":", 1)[0]
        if host:
            out.append(host.lower())
    return out


def netrc_entries(text: str) -> tuple[set[str], bool]:
    """The ``machine`` names of a netrc file and whether it has a ``default`` entry."""
    machines: set[str] = set()
    default = False
    lines = text.splitlines()
    index = 0
    tokens: list[str] = []
    while index < len(lines):
        line = lines[index]
        index += 1
        words = line.split()
        if words[:1] == ["macdef"]:  # a macro runs to the next empty line
            while index < len(lines) and lines[index].strip():
                index += 1
            continue
        if line.lstrip().startswith("#"):
            continue
        tokens += words
    for position, token in enumerate(tokens):
        if token == "machine" and position + 1 < len(tokens):
            machines.add(tokens[position + 1].lower())
        elif token == "default":
            default = True
    return machines, default


def default_logins(script: Script, env: dict[str, str]) -> None:
    """Add a read of the netrc file to each command that names a URL of a host its
    ``default`` login would be sent to; unverifiable where the file cannot be read."""
    for command in list(script.commands):
        found = hosts(command.argv[1:])
        if not found:
            continue
        merged = {**env, **command.env}
        home = merged.get("HOME") or ""
        paths = [merged.get("NETRC") or "", f"{home}/.netrc" if home else ""]
        for path in dict.fromkeys(p for p in paths if p and os.lexists(p)):
            _judge(script, command, found, path)


def _judge(script: Script, command: Command, found: list[str], path: str) -> None:
    from hookwise.shell.parser import split_command
    from hookwise.shell.quote import join

    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_BYTES + 1)
    except OSError:
        why = f"it may send the login of {path}, which hookwise cannot read"
        command.unverifiable = command.unverifiable or why
        return
    machines, default = netrc_entries(data[:MAX_BYTES].decode("utf-8", "replace"))
    foreign = [h for h in found if h not in machines]
    if not default or not foreign:
        return
    origin = (
        f"{command.argv[0]} sends the default login of {path} to {foreign[0]}, "
        "a host it was not stored for"
    )
    for inner in split_command(join(["cat", path])).commands:
        inner.depth = command.depth + 1
        inner.origin = origin
        script.commands.append(inner)
