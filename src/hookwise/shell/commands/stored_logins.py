"""A login stored for every host is sent to whichever host a command names (red team s27
O): a ``default`` entry of ``~/.netrc`` (or ``$NETRC``) is what wget, pip, git over http,
curl ``-n``, python's requests... answer a 401 with, for any host that has no ``machine``
entry of its own. A command naming a URL of such a host sends the file's secret to it:
that is a read of the netrc file, judged by the rules on it (the secrets pack's
``~/.netrc``). A ``machine`` entry sent to its own host is the login's intended use, not a
read (the secrets pack's docs say so), unless that host is this machine: any process may
listen on the port the URL names (red team s28 R). Read at decision time, as the programs read it.

Cold: loaded only for a command line holding ``://``. Standard library only."""

from __future__ import annotations

import posixpath as os

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


# hosts that are this machine: a login stored for one is sent to whatever listens on the
# port the URL names, and any process may listen there (the agent's own: red team s28 R)
_LOOPBACK = ("127.", "localhost", "::1", "0.0.0.0", "[::1]", "ip6-localhost")


def loopback(host: str) -> bool:
    """Whether ``host`` names this machine (127.0.0.0/8, localhost, ::1, 0.0.0.0)."""
    return host.startswith(_LOOPBACK) or host.endswith(".localhost")


def default_logins(script: Script, env: dict[str, str]) -> None:
    """Add a read of the netrc file to each command that names a URL of a host its
    ``default`` login would be sent to, or of this machine with a login stored for it
    (netrc's entries match the host, not the port; git's credential store, for git);
    unverifiable where the file cannot be read."""
    for command in list(script.commands):
        found = hosts(command.argv[1:])
        if not found:
            continue
        merged = {**env, **command.env}
        home = merged.get("HOME") or ""
        paths = [merged.get("NETRC") or "", f"{home}/.netrc" if home else ""]
        for path in dict.fromkeys(p for p in paths if p and os.lexists(p)):
            if not _netrc_unused(command):
                _judge(script, command, found, path)
        local = [h for h in found if loopback(h)]
        if local and command.program == "git" and home:
            config = merged.get("XDG_CONFIG_HOME") or f"{home}/.config"
            for path in (f"{home}/.git-credentials", f"{config}/git/credentials"):
                if os.lexists(path):
                    _judge_store(script, command, local, path)


def _netrc_unused(command: Command) -> bool:
    """curl reads no netrc file unless told to (-n, --netrc, --netrc-optional,
    --netrc-file): the one client known here not to (any short cluster with an n counts)."""
    if command.program != "curl":
        return False
    return not any(
        w.startswith("--netrc") or (w[:1] == "-" and w[1:2] != "-" and "n" in w)
        for w in command.argv[1:]
    )


def _read(command: Command, path: str) -> str | None:
    """The file's text (its first MAX_BYTES), or None: unverifiable, said on ``command``."""
    from hookwise.shell.commands.disk_files import read_head

    try:
        data = read_head(path, MAX_BYTES + 1)  # (a FIFO there is not opened)
    except OSError:
        why = f"it may send the login of {path}, which hookwise cannot read"
        command.unverifiable = command.unverifiable or why
        return None
    return data[:MAX_BYTES].decode("utf-8", "replace")


def _reads(script: Script, command: Command, path: str, origin: str) -> None:
    """A read of ``path`` for ``command`` (the rules on the file judge it)."""
    from hookwise.shell.parser import split_command
    from hookwise.shell.quote import join

    for inner in split_command(join(["cat", path])).commands:
        inner.depth = command.depth + 1
        inner.origin = origin
        script.commands.append(inner)


def _judge_store(script: Script, command: Command, local: list[str], path: str) -> None:
    """git's credential store (``https://user:pass@host``, a line each): an entry for a
    host of this machine that a git command names is sent to whatever listens there."""
    text = _read(command, path)
    if text is None:
        return
    stored = set(hosts([line.strip() for line in text.splitlines()]))
    sent = [h for h in local if h in stored]
    if sent:
        origin = (
            f"{command.argv[0]} sends the login {path} stores for {sent[0]}, a host of this "
            "machine where any process may listen"
        )
        _reads(script, command, path, origin)


def _judge(script: Script, command: Command, found: list[str], path: str) -> None:
    text = _read(command, path)
    if text is None:
        return
    machines, default = netrc_entries(text)
    foreign = [h for h in found if h not in machines] if default else []
    local = [h for h in found if loopback(h) and (h in machines or default)]
    if foreign:
        origin = (
            f"{command.argv[0]} sends the default login of {path} to {foreign[0]}, "
            "a host it was not stored for"
        )
    elif local:
        origin = (
            f"{command.argv[0]} sends the login of {path} for {local[0]} to a port of this "
            "machine, where any process may listen (netrc matches the host, not the port)"
        )
    else:
        return
    _reads(script, command, path, origin)
