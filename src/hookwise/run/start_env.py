"""Variables that load code into the agent itself: ``hookwise run`` refuses to start it
with one (red team s35 #1).

A line an earlier session put into ``~/.bashrc`` (``export NODE_OPTIONS="--require
/tmp/x.js"``) is in the environment of the shell the person starts ``hookwise run`` from,
and the session handed it to the agent: the Gemini CLI's node loaded the script before its
first line, and the script ran every hook as /bin/true. Nothing a hook does can undo code
loaded into its host. So an environment that carries such a variable is refused, naming
it; the person unsets it, or, having set it on purpose, gives it on the agent's own
command line (``hookwise run -- env NODE_OPTIONS=... gemini``), where it is visible.

:data:`CODE_LOADING` is the one table (variable -> how its value is judged). What a
shell command line sets for the programs it runs is judged by the hook instead
(shell/programs.ENV_LOADERS). Standard library only; read once at a session's start.
"""

from __future__ import annotations

import os

# how a value is judged: "always" (any value loads code), "node" (node's options: those
# that load a module or open a debugger), "options" (an interpreter's options where a
# module option loads one: -M, -m, -r, -I), "java" (agents and the boot class path),
# "writable" (files or directories code is loaded from, refused where this user, so the
# agent, can write)
CODE_LOADING: dict[str, str] = {
    "LD_PRELOAD": "always",
    "LD_AUDIT": "always",
    "DYLD_INSERT_LIBRARIES": "always",
    "GCONV_PATH": "always",
    "BASH_ENV": "always",
    "ENV": "always",
    "NODE_OPTIONS": "node",
    "PERL5OPT": "options",
    "RUBYOPT": "options",
    "JAVA_TOOL_OPTIONS": "java",
    "JDK_JAVA_OPTIONS": "java",
    "_JAVA_OPTIONS": "java",
    "PYTHONSTARTUP": "writable",
    "PYTHONPATH": "writable",
    "PYTHONHOME": "writable",
    "PYTHONUSERBASE": "writable",
    "NODE_PATH": "writable",
    "PERL5LIB": "writable",
    "PERLLIB": "writable",
    "RUBYLIB": "writable",
    "LD_LIBRARY_PATH": "writable",
}
# node's options that load code before the program (or let another process drive it)
NODE_CODE_OPTIONS = frozenset(
    ["--require", "-r", "--import", "--loader", "--experimental-loader", "--inspect",
     "--inspect-brk", "--inspect-port", "--inspect-wait", "--eval", "-e", "--print", "-p"]
)  # fmt: skip
# perl's and ruby's options that load a module or add a place modules are found
_MODULE_OPTIONS = ("-M", "-m", "-r", "-I", "-d")
_JAVA_CODE = ("-javaagent", "-agentpath", "-agentlib", "-Xbootclasspath", "-Xrun")
# where root's session keeps every file read-only anyway (run/guarded_paths.ROOT_PROGRAMS)
_READ_ONLY_FOR_ROOT = ("/usr/", "/bin/", "/sbin/", "/lib/", "/lib64/", "/etc/")


def code_loading(env: dict[str, str]) -> list[str]:
    """One line per variable of ``env`` that loads code into the agent: what
    ``hookwise run`` refuses to start with (empty: none)."""
    out: list[str] = []
    for name, kind in CODE_LOADING.items():
        value = env.get(name)
        if not value:
            continue
        why = _JUDGES[kind](value)
        if why is not None:
            out.append(
                f"{name}={value} {why}: an agent started with it runs code no hook can see "
                f"(a shell start-up file may have set it). Unset it (`env -u {name} hookwise "
                f"run ...`), or, if you set it on purpose, give it on the agent's command line "
                f"(`hookwise run -- env {name}=... COMMAND`)"
            )
    return out


def _always(value: str) -> str | None:
    return "loads code into every program it is set for"


def _node(value: str) -> str | None:
    words = value.split()
    for index, word in enumerate(words):
        flag = word.split("=", 1)[0]
        if flag in NODE_CODE_OPTIONS or word.startswith("data:"):
            target = word if "=" in word else " ".join(words[index : index + 2])
            return f"makes node load code ({target})"
    return None


def _options(value: str) -> str | None:
    for word in value.split():
        if word.startswith(_MODULE_OPTIONS):
            return f"makes the interpreter load a module ({word})"
    return None


def _java(value: str) -> str | None:
    for word in value.split():
        if word.startswith(_JAVA_CODE):
            return f"makes the JVM load code ({word.split('=', 1)[0]})"
    return None


def _writable(value: str) -> str | None:
    for entry in value.split(os.pathsep):
        path = os.path.abspath(entry or ".")
        if os.geteuid() == 0 and (path + "/").startswith(_READ_ONLY_FOR_ROOT):
            continue  # (read-only inside root's session)
        if _can_write(path):
            return f"loads code from {path}, which the agent can write"
    return None


def _can_write(path: str) -> bool:
    """Whether this user can change ``path``, or create it (guarded_paths.creatable)."""
    from hookwise.run.guarded_paths import creatable  # (loaded by every start already)

    return os.access(path, os.W_OK) if os.path.lexists(path) else creatable(path)


_JUDGES = {
    "always": _always,
    "node": _node,
    "options": _options,
    "java": _java,
    "writable": _writable,
}
