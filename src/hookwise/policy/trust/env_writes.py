"""Writes into a plain ``.env`` whose content the guard cannot read: unverifiable.

Gemini CLI loads a project's ``.env`` (when there is no ``.gemini/.env``) and exports it to
every hook; ``HOOKWISE_POLICY`` there switches the project's rules off, ``BASH_ENV`` runs a
script in the shell that starts the hook. The file is the project's own (``cp .env.example
.env`` is everyday), so it is not guarded whole: what a call puts into it is read instead
(protect.py's literal check). A literal check passes what the command computes (red team s26
#9: ``base64 -d >> .env``, ``cp /tmp/e .env``, ``sed -i ... .env``), so here:

- content the parser knows (``echo``/``printf`` of literal words, a here-document, a ``tee``
  fed either) is left to the literal check;
- a copy (``cp``, ``install``, ``mv``, ``rsync``, ``scp``) of a file on disk is judged by
  that file's content now (a file that is not there, when nothing on the line can make it,
  makes the copy fail); a file written earlier on the line (or not there yet), one
  that is not a regular file, or a symlink made to it (``ln``: what it leads to can change
  later) cannot be read;
- anything else (``base64 -d``, ``sed -i``, ``dd``, ``curl -o``, an interpreter's ``open``)
  is known only when it runs: unverifiable (``settings.unverifiable``).
"""

from __future__ import annotations

from hookwise.policy import os_lite as os
from hookwise.policy.canonical import resolve_path

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from hookwise.shell.parser import Script

ENV_NAME = ".env"  # the project file Gemini CLI loads (its row's env_files in protocol/hosts.py)
_MAX_READ = 1 << 20
_COPIERS = frozenset(["cp", "install", "mv", "rsync", "scp"])


def _plain_env(path: str) -> bool:
    return path.rstrip("/").rsplit("/", 1)[-1] == ENV_NAME


def _key(word: str) -> str:
    while word.startswith("./"):
        word = word[2:]
    return word


# commands that create no file (without a redirect): `[ -f .env ] || cp .env.example .env`
# (cat only prints: what a copy reads is a `cat` of its sources, shell/written.py)
_INERT = frozenset(["[", "[[", "test", "true", "false", ":", "echo", "printf", "cat", *_COPIERS])


def _may_create(script: Script) -> bool:
    """Whether a command of the line could create a file a copy then reads (a program run
    first: ``python3 gen.py && cp /tmp/made .env``)."""
    return any(cmd.program not in _INERT or cmd.writes for cmd in script.commands)


def _env_target(key: str, source: str, cwd: str, home: str) -> bool:
    """Whether ``ln [-s] SOURCE KEY`` links a plain ``.env`` to a plain ``.env`` of the
    same work tree (``ln -s ../.env .env`` in a subdirectory): read as a symbolic link's
    target (from KEY's directory) and as a hard link's (from here), each a regular file
    of one link, named ``.env`` through no symbolic link. Changing it later is then a
    write into a ``.env``, which this check judges as it judges KEY (session 29)."""
    from hookwise.policy.rules.git_ignored import work_tree

    if not _plain_env(source):
        return False
    here = resolve_path(key, cwd, home).absolute
    if here is None:
        return False
    top = work_tree(cwd) or os.path.normpath(cwd)
    for base in (os.path.dirname(here), cwd):
        target = resolve_path(source, base, home).absolute
        if target is None or os.path.realpath(target) != target or not _plain_env(target):
            return False
        if not target.startswith(top.rstrip("/") + "/"):
            return False
        try:
            st = os.lstat(target)
        except OSError:
            return False
        if not os.S_ISREG(st.st_mode) or st.st_nlink != 1:
            return False
    return True


def _read(path: str) -> bytes:
    """A regular file's bytes, through symlinks (as ``cp`` reads it), never blocking: a FIFO,
    a device or a directory is an OSError (what it gives is known only when it runs)."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    try:
        if not os.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(f"{path}: not a regular file")
        data = os.read(fd, _MAX_READ + 1)
    finally:
        os.close(fd)
    if len(data) > _MAX_READ:
        raise OSError(f"{path}: larger than {_MAX_READ} bytes")
    return data


def check(
    script: Script,
    dirs: list[str | None],
    cwd: str,
    home: str,
    sets_variable: Callable[[str, str], bool],
) -> tuple[str, str, str] | None:
    """("deny" or "unverifiable", the file, how) for the first write into a plain ``.env``
    that puts there a variable that decides what a hook runs (``sets_variable(text,
    target)``), or whose content cannot be read here; None when there is none. ``dirs``:
    where each command runs (canonical.command_dirs), ``cwd`` the line's own directory."""
    known: set[str] = set()
    for cmd in script.commands:
        if cmd.program != "tee" or not (cmd.stdin or cmd.piped_from is not None):
            continue
        from hookwise.shell.parser import static_output  # (loaded: the script came from it)

        fed = cmd.stdin or (cmd.piped_from is not None and static_output(cmd.piped_from))
        if fed is not None and fed is not False:  # (its text: protect's literal check)
            known.update(_key(w) for w in cmd.argv[1:] if not w.startswith("-"))
    for key, content in script.written.items():
        if content is None and _plain_env(key) and key not in known:
            return "unverifiable", key, f"writes into {key} what is known only when it runs"
    moved = any(d != cwd for d in dirs)
    for key, (source, program) in script.copies.items():
        if not _plain_env(key):
            continue
        parent = key.rpartition("/")[0]
        if script.copies.get(parent) == (source, program):
            # (`ln .env notes.txt` is also recorded as notes.txt/.env, for a directory)
            where = resolve_path(parent, cwd, home).absolute
            if where is None or not os.isdir(where):
                continue
        if program == "ln" and not (not moved and _env_target(key, source, cwd, home)):
            return (
                "unverifiable",
                key,
                (f"links {key} to {source}, which can be changed later without writing {key}"),
            )
        if program not in _COPIERS:
            continue
        if script.was_written(source):
            text = script.recall(source)
            if text is None:
                return (
                    "unverifiable",
                    key,
                    (
                        f"copies into {key} {source}, written on the line with what is known only "
                        "when it runs"
                    ),
                )
        else:
            if moved and not source.startswith(("/", "~")):
                return "unverifiable", key, f"copies {source} into {key} after a `cd`"
            path = resolve_path(source, cwd, home).absolute
            if path is not None and not os.path.lexists(path) and not _may_create(script):
                continue  # (nothing on the line can make it: the copy fails, writes nothing)
            try:
                text = _read(path or source).decode("utf-8", "replace")
            except (OSError, ValueError):
                return "unverifiable", key, f"copies into {key} {source}, which cannot be read"
        if sets_variable(text, key):
            return (
                "deny",
                key,
                (
                    f"copies into {key} {source}, which sets a variable that decides what a "
                    "hook runs"
                ),
            )
    return None
