"""A git subcommand that is none of git's own commands runs what an alias says, and the
alias lives in configuration files an earlier call may have written (``git config
alias.sync 'push -f'``, then ``git sync origin main``: red team s27 P). Read at decision
time, as git reads them: the system file, the user's (``$XDG_CONFIG_HOME/git/config``,
``~/.gitconfig``, or ``GIT_CONFIG_GLOBAL``), the repository's (``config`` and
``config.worktree`` of the git directory found from where the command runs), the files
they include (every ``include``/``includeIf`` path, whatever its condition: reading one
too many is the safe side), then ``GIT_CONFIG_COUNT``/``GIT_CONFIG_KEY_n`` of the
environment. Every definition found is read as what runs (the last one wins in git; the
others cost nothing to read too). A file that exists and cannot be read, or an include
chain past its budget, makes the command unverifiable. Aliases defined on the line
(``-c alias.x=...``, ``git config alias.x`` earlier) are the parser's (commands.git_refs).

Cold: loaded only for a git command whose subcommand is not one of git's
(programs.GIT_COMMANDS). Standard library only."""

from __future__ import annotations

import posixpath as os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from hookwise.shell.parser import Command, Script

MAX_FILES = 32  # configuration files read for one lookup (includes count)
MAX_BYTES = 1 << 20  # a configuration file larger than this is not read: unverifiable
MAX_CHAIN = 8  # aliases of aliases followed (git stops a loop itself)


class UnreadableError(Exception):
    """A configuration file git would read that hookwise cannot."""


def resolve_aliases(
    script: Script,
    cwd: str,
    env: dict[str, str],
    chain: int = 0,
    dirs: dict[int, str | None] | None = None,
) -> None:
    """Add to ``script`` what each git command with a subcommand not git's own runs as an
    alias (``script.git_unresolved``); unverifiable where its configuration is unreadable.
    ``dirs``: where each command runs (by ``id``), after the line's ``cd``s."""
    from hookwise.shell.parser import split_command
    from hookwise.shell.quote import join

    pending, script.git_unresolved = script.git_unresolved, []
    for command, at in pending:
        name = command.argv[at]
        here = dirs.get(id(command), cwd) if dirs is not None else cwd
        if here is None:
            why = f"git {name} may be an alias of a repository known only when it runs"
            command.unverifiable = command.unverifiable or why
            continue
        try:
            found = alias_values(name.lower(), command, at, here, env)
        except UnreadableError as error:
            why = f"git {name} may be an alias in {error}, which hookwise cannot read"
            command.unverifiable = command.unverifiable or why
            continue
        rest = join(list(command.argv[at + 1 :]))
        for value, where in found:
            if chain >= MAX_CHAIN:
                command.unverifiable = command.unverifiable or (
                    f"git {name} is an alias of an alias more than {MAX_CHAIN} deep"
                )
                break
            # a `!` alias runs in the shell at the work tree (after git's -C); any other is
            # git again with the same options before the subcommand (-C, --git-dir, -c)
            shell = value.startswith("!")
            before = join(list(command.argv[:at]))
            text = f"{value[1:]} {rest}" if shell else f"{before} {value} {rest}"
            runs_in = work_dir(command, at, here, {**env, **command.env}) if shell else here
            inner = split_command(text)
            if inner.git_unresolved:
                resolve_aliases(inner, runs_in, env, chain + 1)
            origin = f"git {name} is the alias {value!r} ({where})"
            for found_command in inner.commands:
                found_command.depth += command.depth + 1
                found_command.origin = found_command.origin or origin
                # (added at the end of the line: where it runs is said outright)
                found_command.chdir = os.join(runs_in, found_command.chdir or ".")
                script.commands.append(found_command)
            if not inner.complete:
                script.complete = False
                script.problems += inner.problems


def alias_values(
    name: str, command: Command, at: int, cwd: str, env: dict[str, str]
) -> list[tuple[str, str]]:
    """(value, file) of every definition of ``alias.NAME`` git could use for ``command``."""
    merged = {**env, **command.env}
    found = [
        (value, path)
        for section, key, value, path in config_entries(command, at, cwd, env)
        if section.split(".", 1)[0] == "alias" and key == name
    ]
    count = merged.get("GIT_CONFIG_COUNT", "")
    for index in range(int(count) if count.isdigit() else 0):
        key = merged.get(f"GIT_CONFIG_KEY_{index}", "")
        if key.lower() == f"alias.{name}":
            found.append((merged.get(f"GIT_CONFIG_VALUE_{index}", ""), "GIT_CONFIG_COUNT"))
    if "alias." in merged.get("GIT_CONFIG_PARAMETERS", "").lower():
        raise UnreadableError("GIT_CONFIG_PARAMETERS")
    return found


def config_entries(
    command: Command, at: int, cwd: str, env: dict[str, str], *, repository_only: bool = False
) -> list[tuple[str, str, str, str]]:
    """(section, key, value, file) of the configuration files git reads for ``command``
    (the system's, the user's, the repository's, and what they include), in git's order.
    Raises UnreadableError for one that exists and cannot be read."""
    merged = {**env, **command.env}
    home = merged.get("HOME") or ""
    files: list[str] = []
    if not repository_only and not merged.get("GIT_CONFIG_NOSYSTEM"):
        files.append(merged.get("GIT_CONFIG_SYSTEM") or "/etc/gitconfig")
    if repository_only:
        pass
    elif "GIT_CONFIG_GLOBAL" in merged:
        files.append(merged["GIT_CONFIG_GLOBAL"])
    else:
        xdg = merged.get("XDG_CONFIG_HOME") or (home and f"{home}/.config")
        files += [f"{xdg}/git/config" if xdg else "", f"{home}/.gitconfig" if home else ""]
    git_dir = repository_dir(command, at, cwd, env)
    if git_dir:
        files += [f"{_common_dir(git_dir)}/config", f"{git_dir}/config.worktree"]
    found: list[tuple[str, str, str, str]] = []
    budget = [MAX_FILES]
    for path in files:
        if path:
            _read(path, home, found, budget)
    return found


def repository_dir(command: Command, at: int, cwd: str, env: dict[str, str]) -> str | None:
    """The git directory ``command`` works on (``GIT_DIR``, or found from where it runs)."""
    merged = {**env, **command.env}
    where = work_dir(command, at, cwd, merged)
    git_dir = merged.get("GIT_DIR") or _git_dir(where)
    return os.join(where, git_dir) if git_dir else None


def work_dir(command: Command, at: int, cwd: str, env: dict[str, str]) -> str:
    """The directory git runs in: ``cwd`` (where the command runs, after the line's ``cd``
    and a wrapper's ``env -C``: canonical.command_dirs), then each ``-C DIR`` before the
    subcommand."""
    here = cwd or "/"
    argv = command.argv
    for index in range(1, at):
        if argv[index] == "-C" and index + 1 < at:
            here = os.join(here, argv[index + 1].replace("~", env.get("HOME", "~"), 1))
    return here


def _git_dir(start: str) -> str | None:
    """The git directory of the repository holding ``start`` (a ``.git`` directory, or
    the one a ``.git`` file names), or None outside any."""
    here = os.normpath(start)
    while True:
        dot = os.join(here, ".git")
        if os.isdir(dot):
            return dot
        if os.isfile(dot):
            line = _text(dot).strip()
            if line.startswith("gitdir:"):
                return os.join(here, line[7:].strip())
        if here == "/" or not here:
            return None
        here = os.dirname(here)


def _common_dir(git_dir: str) -> str:
    """A linked worktree's git directory names the main one in ``commondir``."""
    path = os.join(git_dir, "commondir")
    if not os.isfile(path):
        return git_dir
    return os.normpath(os.join(git_dir, _text(path).strip()))


def _text(path: str) -> str:
    from hookwise.shell.commands.disk_files import read_head

    try:
        data = read_head(path, MAX_BYTES + 1)  # (a FIFO, socket or device: unreadable)
    except FileNotFoundError:
        return ""
    except OSError as error:
        raise UnreadableError(path) from error
    if len(data) > MAX_BYTES:
        raise UnreadableError(path)
    return data.decode("utf-8", "surrogateescape")


def _read(path: str, home: str, found: list[tuple[str, str, str, str]], budget: list[int]) -> None:
    """The entries of ``path`` and of the files it includes, in order."""
    if budget[0] <= 0:
        raise UnreadableError(f"{path} (more than {MAX_FILES} included files)")
    budget[0] -= 1
    if os.isdir(path):
        raise UnreadableError(path)
    for section, key, value in entries(_text(path)):
        found.append((section, key, value, path))
        if section.split(".", 1)[0] in ("include", "includeif") and key == "path" and value:
            included = home + value[1:] if value.startswith("~/") else value
            if not included.startswith("/"):
                included = os.join(os.dirname(path), included)
            _read(included, home, found, budget)


def entries(text: str) -> list[tuple[str, str, str]]:
    """(section, key, value) of a git configuration file, lower-cased section and key,
    values unquoted as git does (``"..."``, ``\\"``, ``\\n``, a trailing ``\\`` joins the
    next line, ``#``/``;`` outside quotes start a comment)."""
    out: list[tuple[str, str, str]] = []
    section = ""
    lines = text.splitlines()
    index = 0
    while index < len(lines):
        line = lines[index].strip()
        index += 1
        if line.startswith("["):
            close = line.find("]")
            if close < 0:
                continue
            head = line[1:close].strip()
            name, _, sub = head.partition(" ")
            section = name.lower() + ("." + sub.strip().strip('"') if sub else "")
            line = line[close + 1 :].strip()
        if not line or line[0] in "#;":
            continue
        key, eq, raw = line.partition("=")
        if not eq:
            out.append((section, key.strip().lower(), "true"))
            continue
        while raw.rstrip().endswith("\\") and not raw.rstrip().endswith("\\\\"):
            raw = raw.rstrip()[:-1] + (lines[index] if index < len(lines) else "")
            index += 1
        out.append((section, key.strip().lower(), _value(raw)))
    return out


_ESCAPES = {"n": "\n", "t": "\t", "b": "\b", "\\": "\\", '"': '"'}


def _value(raw: str) -> str:
    out: list[str] = []
    quoted = False
    chars = iter(raw.strip())
    for char in chars:
        if char == '"':
            quoted = not quoted
        elif char == "\\":
            out.append(_ESCAPES.get(next(chars, ""), ""))
        elif char in "#;" and not quoted:
            break
        else:
            out.append(char)
    return "".join(out).strip()
