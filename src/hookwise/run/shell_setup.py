"""The user's shell starts every agent under ``hookwise run``: one marked block in an rc file.

``hookwise install shell`` adds a function per agent CLI (``claude() { command hookwise run
-- claude "$@"; }``) to the rc file of the user's shell, inside marker lines;
``hookwise uninstall shell`` removes exactly those bytes, so the file is as it was
(including a final newline that was missing: the block says when it added one). Inside the
session ``hookwise run`` execs the real program from ``PATH``, not the function.

This is a convenience, not a guard: the rc file is the user's, and a shell started another
way runs the agent unconfined. ``settings.require_confinement`` is what enforces it.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from hookwise.config.atomic import write_atomic
from hookwise.protocol.hosts import hosts_with

BEGIN = "# >>> hookwise run >>>"
BEGIN_AFTER_NEWLINE = "# >>> hookwise run (a final newline was added before this line) >>>"
END = "# <<< hookwise run <<<"
NOTE = "# written by `hookwise install shell`; `hookwise uninstall shell` removes it"


class ShellSetupError(ValueError):
    """An rc file that cannot be used (named with what is wrong)."""


@dataclass(frozen=True)
class ShellChange:
    """What install or uninstall does to one rc file."""

    rc: Path
    before: bytes | None  # None: the file does not exist
    after: bytes | None  # None: the file is removed (it held only the block)

    @property
    def changed(self) -> bool:
        return self.before != self.after


def rc_file(env: dict[str, str]) -> Path:
    """The rc file of the user's login shell (``$SHELL``): bash, zsh or fish."""
    home = Path(env.get("HOME") or os.path.expanduser("~"))
    shell = Path(env.get("SHELL") or "/bin/bash").name
    if shell == "zsh":
        return Path(env.get("ZDOTDIR") or home) / ".zshrc"
    if shell == "fish":
        config = Path(env.get("XDG_CONFIG_HOME") or home / ".config")
        return config / "fish" / "conf.d" / "hookwise.fish"
    if shell in ("bash", "sh", "dash"):
        return home / ".bashrc"
    raise ShellSetupError(
        f"$SHELL is {env.get('SHELL')!r}: hookwise writes bash, zsh and fish functions; "
        "name the file with --rc"
    )


def block(rc: Path, agents: tuple[str, ...] = hosts_with("run"), *, after_newline: bool) -> bytes:
    """The marked block for ``rc`` (fish syntax for a ``.fish`` file)."""
    lines = [BEGIN_AFTER_NEWLINE if after_newline else BEGIN, NOTE]
    for agent in agents:
        if rc.suffix == ".fish":
            lines.append(f"function {agent}; command hookwise run -- {agent} $argv; end")
        else:
            lines.append(f'{agent}() {{ command hookwise run -- {agent} "$@"; }}')
    lines.append(END)
    text = "\n".join(lines) + "\n"
    return (("\n" if after_newline else "") + text).encode("utf-8")


def _read(rc: Path) -> bytes | None:
    try:
        if not rc.is_file() and rc.exists():
            raise ShellSetupError(f"{rc} is not a regular file")
        return rc.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise ShellSetupError(f"cannot read {rc}: {exc.strerror}") from None


def _find(data: bytes) -> tuple[int, int] | None:
    """Where the block lies in ``data`` (its added newline included), or None."""
    text = data.decode("utf-8", "surrogateescape")
    for begin, extra in ((BEGIN_AFTER_NEWLINE, 1), (BEGIN, 0)):
        start = text.find(begin + "\n")
        if start < 0 or (start and text[start - 1] != "\n"):
            continue
        end = text.find("\n" + END + "\n", start)
        if end < 0:
            raise ShellSetupError(f"the hookwise block has no closing line {END!r}")
        stop = end + len(END) + 2
        head = text[:start].encode("utf-8", "surrogateescape")
        return len(head) - extra, len(text[:stop].encode("utf-8", "surrogateescape"))
    return None


def plan_install(rc: Path, agents: tuple[str, ...] = hosts_with("run")) -> ShellChange:
    """The rc file with the block appended (unchanged when it is there already)."""
    before = _read(rc)
    if before is not None and _find(before) is not None:
        return ShellChange(rc, before, before)
    data = before or b""
    added = block(rc, agents, after_newline=bool(data) and not data.endswith(b"\n"))
    return ShellChange(rc, before, data + added)


def plan_uninstall(rc: Path) -> ShellChange:
    """The rc file without the block: byte for byte what it was before install."""
    before = _read(rc)
    if before is None:
        return ShellChange(rc, None, None)
    found = _find(before)
    if found is None:
        return ShellChange(rc, before, before)
    start, stop = found
    after = before[:start] + before[stop:]
    return ShellChange(rc, before, after or None)  # (it held only the block: removed)


def write(change: ShellChange) -> None:
    """Apply a planned change (the file's mode is kept, a symlinked rc file is followed)."""
    if not change.changed:
        return
    if change.after is None:
        change.rc.unlink(missing_ok=True)
        return
    write_atomic(change.rc, change.after, follow_symlinks=True)
