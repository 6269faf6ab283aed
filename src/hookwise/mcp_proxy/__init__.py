"""``hookwise mcp wrap``: a stdio MCP proxy that puts every ``tools/call`` through the policy.

Hooks guard only what a host hands them; an MCP server's tools are called whatever the host
does with its hooks. The proxy sits on the server's stdio instead (docs/mcp.md):
``framing`` reads the wire, ``decide`` asks the policy (the framework Gate's engine, audit
and ``ask_fallback``), ``elicit`` asks the user through the client, ``server`` owns the
server's process, and ``proxy`` moves the messages between them.
"""

from __future__ import annotations

import os
import re
import shutil
import sys
from collections.abc import Mapping

from hookwise.protocol import guard_env

WRAP = ("mcp", "wrap")  # the proxy's subcommand, as server entries name it
# how an entry starts this interpreter: -I, so neither the host's cwd (the project, where
# the agent writes: ./hookwise/__main__.py) nor PYTHON* variables of the entry's env decide
# what `-m hookwise` imports
ISOLATED = "-I"
_PY_FLAGS = frozenset(["-I", "-P", "-E", "-s", "-S", "-B", "-u"])


def _after_program(words: list[str]) -> list[str] | None:
    """The words after a program that looks like hookwise (``hookwise``, ``python [-I] -m
    hookwise``), else None."""
    if words[:1] and words[0].rsplit("/", 1)[-1] == "hookwise":
        return words[1:]
    if words and _python(words[0]):
        at = 1
        while at < len(words) and words[at] in _PY_FLAGS:
            at += 1
        if words[at : at + 2] == ["-m", "hookwise"]:
            return words[at + 2 :]
    return None


def _proxy_options(argv: tuple[str, ...] | list[str]) -> list[str] | None:
    """The proxy's own options of a server command that starts the proxy itself
    (``hookwise mcp wrap ...`` or ``python -m hookwise mcp wrap ...``), else None. Only
    the program and its first words count: ``node server.js --label hookwise mcp wrap``
    or ``sh -c '...' hookwise mcp wrap`` runs something else."""
    rest = _after_program(list(argv))
    if rest is None or tuple(rest[:2]) != WRAP:
        return None
    options = rest[2:]
    return options[: options.index("--")] if "--" in options else options


def _python(program: str) -> bool:
    name = program.rsplit("/", 1)[-1]
    return name == "python" or (name.startswith("python") and name[6:].replace(".", "").isdigit())


def wrapped(argv: tuple[str, ...] | list[str]) -> bool:
    """Whether a server command has the proxy's shape (what uninstall unwraps); whether
    that proxy is this hookwise is :func:`guarded`."""
    return _proxy_options(argv) is not None


def this_script() -> str:
    """This install's ``hookwise`` script, links resolved (pipx's ~/.local/bin/hookwise is
    a link to it)."""
    return os.path.realpath(os.path.join(os.path.dirname(sys.executable), "hookwise"))


# why a bare ``hookwise`` in an entry is not this hookwise's guard
BARE = (
    "a bare 'hookwise' is looked up on the PATH the host runs with, which a project's "
    "settings can set (Claude Code applies a settings file's env.PATH to its own process): "
    "the repository's 'hookwise' would start the server without the proxy"
)


def entry_program(env: Mapping[str, str]) -> list[str]:
    """How an entry starts this hookwise: this interpreter by its absolute path with
    ``-I -m hookwise``, always. A bare ``hookwise`` is found on the PATH the host runs with,
    and a project's settings can set that PATH (red team s27 F6): portability of the entry
    is not worth the guard."""
    del env  # (the PATH is no longer asked: no PATH is safe)
    return isolated_program()


def user_site() -> bool:
    """Whether the ``hookwise`` script's Python (this interpreter, started without ``-I``)
    reads the user's site-packages: ``$HOME/.local/lib/pythonX.Y/site-packages`` and its
    ``*.pth`` lines run before hookwise, and the HOME is whatever the host hands the entry
    (an entry's ``env``, Claude Code's settings ``env``). Every Python but a virtualenv
    without system site-packages does (pip install into a system, pyenv or Homebrew
    Python). Read from ``pyvenv.cfg`` as site.py reads it, not from ``site.ENABLE_USER_SITE``,
    which this process's own ``-I``/``-s`` turns off."""
    if sys.prefix == sys.base_prefix:
        return True
    try:
        with open(os.path.join(sys.prefix, "pyvenv.cfg"), encoding="utf-8") as f:
            lines = f.read().splitlines()
    except OSError:
        return True  # no venv file to say so: as a plain Python
    for line in lines:
        key, eq, value = line.partition("=")
        if eq and key.strip().lower() == "include-system-site-packages":
            return value.strip().lower() == "true"
    return False


def isolated_program() -> list[str]:
    """This interpreter by its absolute path, ``-I -m hookwise``: found without PATH."""
    return [sys.executable, ISOLATED, "-m", "hookwise"]


# variables that load code into any program before its first line runs (the proxy too:
# protocol/guard_env.LOADERS, the one table):
# an entry setting one is not guarded whatever it starts, and cannot be made so by wrapping
# options of `mcp wrap` that decide nothing about the policy or the audit log: an entry
# written by someone else may carry these; every other option is install's to write
_HARMLESS = frozenset(["--timeout", "--max-message"])
_VALUED = frozenset(["--pin", "--name", *_HARMLESS])


def server_name(key: str) -> str:
    """The name a host's settings key gives a server's tools, as Claude Code names them
    (``mcp__<name>__<tool>``: every character outside ``[A-Za-z0-9_-]`` made ``_``,
    nothing else changed), so ``mcp:`` rules written as the hook sees the server apply
    through the proxy too."""
    return re.sub(r"[^A-Za-z0-9_-]", "_", key) or "server"


def loader_env(entry_env: object) -> list[str]:
    """The variables of an entry's ``env`` that load code into the program it starts."""
    if not isinstance(entry_env, Mapping):
        return []
    return sorted(str(k) for k in entry_env if guard_env.listed(str(k), guard_env.LOADERS))


# variables that move where an interpreter started without -I looks for code before its
# script's first line: PYTHON* (PYTHONPATH, PYTHONHOME, PYTHONUSERBASE...), the home its
# user site is under (HOME; APPDATA/USERPROFILE on Windows), macOS's venv launcher, and
# XDG_* (read by no Python today; kept out as the brief of s26 F3 asks, costing nothing:
# such an entry is wrapped with -I)
_INTERPRETER_PREFIXES = ("PYTHON", "XDG_")
_INTERPRETER = frozenset(["HOME", "APPDATA", "USERPROFILE", "__PYVENV_LAUNCHER__"])


def python_env(entry_env: object) -> list[str]:
    """The variables of an entry's ``env`` that the ``hookwise`` script's interpreter (no
    ``-I``) reads before hookwise runs: ``PYTHONPATH=.evil`` imports a repository's
    ``hookwise`` package instead, ``HOME=<repo>/fakehome`` runs the ``*.pth`` lines of
    its ``.local/lib/pythonX.Y/site-packages`` (red team s26 F3)."""
    if not isinstance(entry_env, Mapping):
        return []
    return sorted(
        str(k)
        for k in entry_env
        if str(k).startswith(_INTERPRETER_PREFIXES) or str(k) in _INTERPRETER
    )


# an entry's members that make a host connect to a URL instead of running its command:
# Gemini CLI 0.61.0's createTransport takes httpUrl, then url, before command (a `type`
# only chooses between them); Claude Code 2.1.330 takes `type` http, sse or ws with `url`
# and ignores command (tests/policy/install/fixtures/mcp_transport.json, recorded from
# `claude mcp list` and `gemini mcp list`). Qwen Code reads httpUrl and url as Gemini does;
# Windsurf's remote servers are serverUrl; `tcp` was Gemini's websocket transport.
URL_KEYS = ("url", "httpUrl", "serverUrl", "tcp")
TRANSPORT_KEYS = ("type", "transport", "transportType")


def transport(entry: Mapping[str, object], stdio_types: tuple[str, ...] = ("stdio",)) -> str | None:
    """Why a host may not run a server entry's ``command`` at all (None: it runs it): a
    URL member (any value: the hosts differ on which they honour) or a transport ``type``
    other than the host's names for stdio (``stdio_types``, its protocol table). Such an
    entry is no guarded server whatever its command says: the host talks to the URL."""
    urls = [key for key in URL_KEYS if key in entry]
    if urls:
        return (
            f"it also has {', '.join(urls)}: the host connects to that URL rather than "
            "running its command"
        )
    for key in TRANSPORT_KEYS:
        if key in entry and entry[key] not in stdio_types:
            return (
                f"its {key} is {entry[key]!r}, not stdio: the host does not run its command "
                "as a stdio server"
            )
    return None


def foreign_options(
    argv: tuple[str, ...] | list[str], env: Mapping[str, str], key: str | None = None
) -> str | None:
    """Why a wrapped entry's proxy options are not the ones install writes for this user
    (None: they are). The options are the entry's own words, written by whoever wrote the
    settings file: ``--pin HOOKWISE_USER_POLICY=...`` or ``--pin HOOKWISE_AUDIT=0`` turn
    the user's policy or audit off, another ``--name`` dodges the ``mcp:`` rules for the
    server (``key``: its name in the settings). Only ``--timeout`` and ``--max-message``
    may differ."""
    from hookwise.mcp_proxy import config_env

    options = _proxy_options(argv)
    if options is None:
        return None
    pins: list[str] = []
    name: str | None = None
    pinned_flag = False
    at = 0
    while at < len(options):
        word = options[at]
        option, eq, inline = word.partition("=")
        if word == "--pinned":
            pinned_flag = True
            at += 1
            continue
        if option not in _VALUED:
            return f"its proxy option {word!r} is not one install writes"
        if eq:
            value, at = inline, at + 1
        elif at + 1 < len(options):
            value, at = options[at + 1], at + 2
        else:
            return f"its proxy option {word!r} has no value"
        if option == "--pin":
            pins.append(value)
        elif option == "--name":
            name = value
    expected = config_env.pins_for(env)[2::2]
    if pins and sorted(pins) != sorted(expected):
        theirs = ", ".join(pins)
        mine = ", ".join(expected) or "none"
        return (
            f"its --pin values ({theirs}) are not this user's ({mine}): they decide which "
            "policy and audit log the proxy uses"
        )
    if pinned_flag and expected and not pins:
        return f"it is --pinned without this user's --pin values ({', '.join(expected)})"
    if key is not None and name != server_name(key):
        return (
            f"its --name {name!r} is not the name the host gives server {key!r} "
            f"({server_name(key)!r}): mcp: rules written for it would not apply"
        )
    return None


def impostor(
    argv: tuple[str, ...] | list[str],
    env: Mapping[str, str],
    entry_env: object = None,
    key: str | None = None,
    *,
    require_pinned: bool = True,
) -> str | None:
    """Why a command with the proxy's shape does not start this hookwise, guarding with
    the user's own configuration (None: it does).

    A repository's ``.mcp.json`` can name ``./hookwise`` (a script that runs the server
    alone), and ``python -m hookwise`` without ``-I`` imports ``./hookwise/`` from the
    project the host starts it in: neither is the guard, whatever its words say. A bare
    ``hookwise`` is looked up on the PATH the host gives it: the entry's own ``env``
    (``entry_env``) setting PATH decides what runs, and a ``PYTHON*`` or loader variable
    there what the program imports or loads. The proxy's options must be the ones
    install writes (:func:`foreign_options`; ``key``: the server's name in the settings),
    and ``--pinned`` (``require_pinned``; install rewrites an unpinned entry of this
    hookwise in place rather than wrapping it again)."""
    words = list(argv)
    program = words[0] if words else ""
    if "/" not in program and isinstance(entry_env, Mapping) and "PATH" in entry_env:
        return f"its env sets PATH, which decides what {program!r} runs"
    loaders = loader_env(entry_env)
    if loaders:
        return f"its env sets {', '.join(loaders)}, which loads code into the proxy itself"
    foreign = foreign_options(words, env, key)
    if foreign is not None:
        return foreign
    if program.rsplit("/", 1)[-1] == "hookwise":
        if python_env(entry_env):
            return (
                f"its env sets {', '.join(python_env(entry_env))}, which the {program!r} "
                "script's Python reads before hookwise runs (it can import another hookwise, "
                "or run the .pth lines of a user site under that HOME)"
            )
        if "/" in program and not os.path.isabs(program):
            return f"{program!r} is resolved against the host's working directory"
        found = program if "/" in program else shutil.which(program, path=env.get("PATH"))
        if found is None or os.path.realpath(found) != this_script():
            return f"{program!r} is not this hookwise ({this_script()})"
        if user_site():
            return (
                f"{program!r} is a script whose Python reads the user site-packages of the "
                "HOME the host gives it (a project's settings can set HOME): hookwise is "
                f"started as {sys.executable} {ISOLATED} -m hookwise on this machine"
            )
        if "/" not in program:
            return BARE
        return _unpinned(words) if require_pinned else None
    flags = words[1 : words.index("-m")] if "-m" in words else []
    if os.path.dirname(program) != os.path.dirname(sys.executable):
        return f"{program!r} is not this hookwise's interpreter ({sys.executable})"
    if ISOLATED not in flags:
        return f"{program} -m hookwise without {ISOLATED} imports a ./hookwise of its cwd"
    return _unpinned(words) if require_pinned else None


def _unpinned(argv: list[str]) -> str | None:
    """Why a proxy that is this hookwise still takes its policy from the entry's side."""
    if pinned(argv):
        return None
    return (
        "its proxy is not --pinned: it takes HOOKWISE_*, XDG_*_HOME and HOME from the "
        "environment the host starts it with, which a project's files reach (Claude Code's "
        "settings env, Gemini CLI's .env)"
    )


def guarded(argv: tuple[str, ...] | list[str], env: Mapping[str, str] | None = None) -> bool:
    """Whether a server command runs through this hookwise's proxy (what install, doctor
    and scan count as guarded)."""
    return wrapped(argv) and impostor(argv, os.environ if env is None else env) is None


def pinned(argv: tuple[str, ...] | list[str]) -> bool:
    """Whether a wrapped server's proxy ignores the configuration variables of its
    environment (``--pinned``, config_env)."""
    options = _proxy_options(argv)
    return options is not None and "--pinned" in options
