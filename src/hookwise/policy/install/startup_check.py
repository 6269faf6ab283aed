"""doctor: the shell start-up files a host's own hook shell reads, and their lines that run.

A host runs every hook command through a shell (the protocol table's ``HostInfo.shell``:
Gemini CLI ``bash -c``, the others ``/bin/sh -c``). bash reads the file ``BASH_ENV`` names
before the command, and Debian's bash (SSH_SOURCE_BASHRC) reads ``~/.bashrc`` for ``bash -c``
when it was started over ssh (SSH_CLIENT set) and SHLVL is unset. One line there that exits
when the command names hookwise made every later hook exit 0 (red team s35 #2: real Gemini
CLI 3/3, real Codex over ssh). Self-protection asks before a write of these files and
``hookwise run`` makes them read-only (policy/trust/hook_code.startup_files) and sets SHLVL
for the agent; this check names each line that would run in a hook's own shell, so a person
can see one already there. A line after the usual non-interactive guard (``case $- in *i*)
;; *) return;; esac``, ``[ -z "$PS1" ] && return``) is not reached by a ``bash -c``.
"""

from __future__ import annotations

import os
import re

from hookwise.protocol.hosts import HOSTS

# the lines that end a start-up file for a shell that is not interactive (one line, or
# the first line of a `case $- in` whose `*)` branch returns)
_GUARD = re.compile(
    r"""\s*(?:\[\[?\s*(?:-z\s+"?\$\{?PS1[^]]*|"?\$-"?\s*!=\s*\*i\*)\s*\]\]?\s*&&\s*return\b"""
    r"""|case\s+"?\$-"?\s+in\b.*\*\)\s*return\b)"""
)
_CASE = re.compile(r"""\s*case\s+"?\$-"?\s+in\s*$""")
MAX_LINES = 5  # lines named per file (the rest counted)


def hook_shell_files(env: dict[str, str]) -> list[tuple[str, str, list[str]]]:
    """(path, when the hook shell reads it, the host titles whose hook shell it is) for
    each existing start-up file a host's hook shell may read."""
    found: dict[str, tuple[str, list[str]]] = {}
    home = env.get("HOME") or os.path.expanduser("~")
    for host in HOSTS.values():
        if os.path.basename(host.shell[0]) != "bash":
            continue  # (sh: dash reads ENV only when interactive; bash as sh none)
        places = [(os.path.join(home, ".bashrc"), "when the host runs over ssh with SHLVL unset")]
        named = env.get("BASH_ENV") or ""
        if named:
            where = os.path.abspath(os.path.expanduser(named))
            places.append((where, "BASH_ENV: before every hook"))
        for path, when in places:
            if os.path.isfile(path):
                found.setdefault(path, (when, []))[1].append(host.title)
    return [(path, when, titles) for path, (when, titles) in found.items()]


def running_lines(path: str) -> list[tuple[int, str]]:
    """(line number, text) of each line of ``path`` a non-interactive shell runs: neither
    blank nor a comment, up to the non-interactive guard."""
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            lines = handle.read(1 << 20).splitlines()
    except OSError:
        return []
    out: list[tuple[int, str]] = []
    for index, line in enumerate(lines):
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        if _GUARD.match(text):
            break
        if _CASE.match(text) and _case_returns(lines[index + 1 : index + 6]):
            break
        out.append((index + 1, text))
    return out


def _case_returns(body: list[str]) -> bool:
    """Whether a ``case $- in`` spread over lines sends every non-interactive shell back:
    ``*i*) ;;`` then ``*) return;;`` before ``esac``."""
    joined = " ".join(line.strip() for line in body)
    return re.match(r"\*i\*\)\s*;;\s*\*\)\s*return\b", joined) is not None


def startup_checks(env: dict[str, str]) -> list[tuple[str, str]]:
    """(status, detail): a warning per start-up file a hook shell reads that runs a line."""
    out: list[tuple[str, str]] = []
    for path, when, titles in hook_shell_files(env):
        lines = running_lines(path)
        if not lines:
            continue
        named = "; ".join(f"{path}:{number}: {text}" for number, text in lines[:MAX_LINES])
        more = f" (and {len(lines) - MAX_LINES} more)" if len(lines) > MAX_LINES else ""
        out.append((
            "warn",
            f"{named}{more}: runs in the shell {', '.join(titles)} start(s) every hook with "
            f"({when}), before hookwise: a line there can end that shell or change what the "
            "hook runs (an `exit` when the command names hookwise lets every tool call run). "
            "Keep such lines below the non-interactive guard (`case $- in *i*) ;; *) "
            "return;; esac`) or out of the file; `hookwise run` sets SHLVL for the agent",
        ))  # fmt: skip
    return out
