"""What a write puts into a shell's start-up file, judged line by line (red team s35 A, B).

A start-up file is code every later shell runs: the user's terminal, the shell that
starts the next agent, a hook's own ``bash -c`` where bash reads it. What hookwise cannot
read as harmless there is a guard change: unverifiable (ask), and denied where a line
names one of hookwise's own variables or one the guard's runners read (guard_env's
GUARD, PLACES and RUNNERS tables). Harmless, because it only extends what is on disk for
the user who types it and changes no program the guard or a hook runs:

- a variable set or exported that no program reads as code or a command
  (``export GOPATH=$HOME/go``, ``HISTSIZE=10000``), ``PATH`` extended with absolute
  directories and ``$PATH`` kept (``export PATH="$HOME/.local/bin:$PATH"``), a locale;
- an alias whose name is no program and whose value is one plain command of a program
  that exists (``alias ll='ls -la'``);
- ``source``/``.`` of a literal path the line does not write (``source ~/.cargo/env``,
  guarded by ``[ -f F ] &&``), and the output of an installed program run with literal
  words (``eval "$(direnv hook bash)"``, ``source <(kubectl completion bash)``);
- completions and shell options (``complete``, ``shopt``, ``set -o vi``, ``bind``
  without ``-x``).

A function definition, an alias over a program name, a trap, a prompt or command
variable (``PROMPT_COMMAND``, ``PS1`` with a substitution, ``EDITOR`` with arguments), an
export of a name that loads code (programs.ENV_LOADERS), and any line not of these forms
is not harmless. Cold: imported only when a write of a start-up file is judged.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil

from hookwise.protocol import guard_env

# bash's builtins and keywords: an alias or a function of one of these names changes
# what a later line means as surely as one over a program on PATH
BASH_NAMES = frozenset(
    [
        ".",
        ":",
        "[",
        "[[",
        "]]",
        "alias",
        "bg",
        "bind",
        "break",
        "builtin",
        "caller",
        "case",
        "cd",
        "command",
        "compgen",
        "complete",
        "compopt",
        "continue",
        "coproc",
        "declare",
        "dirs",
        "disown",
        "do",
        "done",
        "echo",
        "elif",
        "else",
        "enable",
        "esac",
        "eval",
        "exec",
        "exit",
        "export",
        "false",
        "fc",
        "fg",
        "fi",
        "for",
        "function",
        "getopts",
        "hash",
        "help",
        "history",
        "if",
        "in",
        "jobs",
        "kill",
        "let",
        "local",
        "logout",
        "mapfile",
        "popd",
        "printf",
        "pushd",
        "pwd",
        "read",
        "readarray",
        "readonly",
        "return",
        "select",
        "set",
        "shift",
        "shopt",
        "source",
        "suspend",
        "test",
        "then",
        "time",
        "times",
        "trap",
        "true",
        "type",
        "typeset",
        "ulimit",
        "umask",
        "unalias",
        "unset",
        "until",
        "wait",
        "while",
    ]
)
# what any guard table names (a "*" entry is a prefix)
_GUARD_TABLE = (*guard_env.GUARD, "HOOKWISE_*", *guard_env.PLACES, *guard_env.RUNNERS)
_NAME = r"[A-Za-z_][A-Za-z0-9_]*"
# every name a line may set: NAME=, NAME+=, export/declare/typeset/readonly/local NAME,
# fish's set -x NAME, csh's setenv NAME
_SETS = re.compile(
    rf"(?:^|[\s;&|(`{{])(?:({_NAME})\+?=|(?:export|declare|typeset|readonly|local|setenv)"
    rf"(?:\s+-\w+)*\s+({_NAME})|set\s+(?:-\w+\s+)*-\w*x\w*\s+(?:-\w+\s+)*({_NAME}))"
)
_LOCALE = re.compile(r"(?:C|POSIX|[a-z]{2,3}(?:_[A-Z]{2})?)(?:\.(?:UTF-8|utf8|UTF8))?")
# a value with no code in it: literal text and $NAME/${NAME} references only
_PLAIN_VALUE = re.compile(r"(?:[\w./:@%+,=~-]|\$\{?[A-Za-z_][A-Za-z0-9_]*\}?)*")
_PLAIN_WORD = re.compile(r"[\w./:@%+,=~-]+")
# (not umask or ulimit: a loosened mask or a limit the hook's interpreter cannot start
# under reaches the hook's own shell too)
_OPTIONS = frozenset(["complete", "shopt", "bind", "stty", "setopt"])


class Finding:
    """Why a start-up file's new text is not harmless: ``deny`` when it names a guard
    variable, else unverifiable; ``line`` is the line that says so."""

    __slots__ = ("deny", "line", "why")

    def __init__(self, deny: bool, line: str, why: str) -> None:
        self.deny, self.line, self.why = deny, line, why


def judge(text: str | None, env: dict[str, str], line: str, written: list[str]) -> Finding | None:
    """None when every line of ``text`` (what a write adds) is harmless; ``text`` None:
    what it adds is known only when it runs. ``line``: the whole command line (a history
    written from it, a name made when it runs: anything on it may land in the file);
    ``written``: the files the line writes (a file sourced from them is its code)."""
    if "HOOKWISE_" in line or (text is not None and "HOOKWISE_" in text):
        return Finding(True, "HOOKWISE_", "it names hookwise's own settings")
    if text is None:
        return Finding(False, "", "what it writes there is known only when it runs")
    for match in _SETS.finditer(text):
        name = next(g for g in match.groups() if g)
        if not guard_env.listed(name, _GUARD_TABLE):
            continue
        kind = _runner_kind(name, text, env)
        if kind == "deny":
            return Finding(True, name, f"it sets {name}, which moves the guard or what a hook runs")
        if kind:
            return Finding(False, name, kind)
    for raw in text.replace("\\\n", " ").splitlines():
        entry = raw.strip()
        if not entry or entry.startswith("#"):
            continue
        why = _why_not(entry, env, written)
        if why is not None:
            return Finding(False, entry, why)
    return None


def _runner_kind(name: str, text: str, env: dict[str, str]) -> str:
    """ "" when every assignment of the guard-table ``name`` in ``text`` is harmless (PATH
    kept and extended, :func:`_path_change`; a locale by name), "deny", or why it is
    unverifiable."""
    for found in re.finditer(rf"(?:^|[\s;&]){name}=(\S*)", text):
        value = found.group(1).strip("'\"")
        if name == "PATH":
            why = _path_change(value, env)
            if why:
                return why
        elif not (guard_env.listed(name, guard_env.LIBC) and _LOCALE.fullmatch(value)):
            return "deny"
    return "" if name == "PATH" or guard_env.listed(name, guard_env.LIBC) else "deny"


def _path_change(value: str, env: dict[str, str]) -> str:
    """ "" for ``$PATH`` kept and extended: after it anything absolute (what PATH finds now
    still wins), before it only a directory already on PATH (the guard watches it for a
    program that would shadow a hook's) or one this user cannot write. "deny" for a PATH
    that drops ``$PATH`` or adds a relative or empty entry (the working directory: a file
    there becomes a program); else why a program planted there would shadow one."""
    parts = value.split(":")
    kept = [i for i, p in enumerate(parts) if p in ("$PATH", "${PATH}")]
    if not kept:
        return "deny"
    home = env.get("HOME") or ""
    current = {os.path.normpath(p) for p in (env.get("PATH") or "").split(":") if p}
    for at, part in enumerate(parts):
        if at in kept:
            continue
        if not _PLAIN_VALUE.fullmatch(part) or not part.startswith(("/", "$", "~")):
            return "deny"
        if at > kept[0]:
            continue
        path = re.sub(r"^(?:~|\$HOME|\$\{HOME\})(?=/|$)", home, part)
        if "$" in path:
            return f"it puts {part} first on PATH, a directory known only when it runs"
        if os.path.normpath(path) not in current and _writable(path):
            return f"it puts {path} first on PATH: a program written there would run first"
    return ""


def _writable(path: str) -> bool:
    """Whether this user can make a file in ``path`` (or in what of it exists)."""
    while path and not os.path.exists(path):
        path = os.path.dirname(path)
    return bool(path) and os.access(path, os.W_OK)


def _words(entry: str) -> list[str] | None:
    try:
        return shlex.split(entry, comments=True)
    except ValueError:
        return None


def _why_not(entry: str, env: dict[str, str], written: list[str]) -> str | None:
    """Why one line is not harmless (None: it is)."""
    if re.search(rf"(?:^|[\s;&|]){_NAME}\s*\(\s*\)|(?:^|[\s;&|])function\s", entry):
        return "it defines a function, which runs in place of a command of that name"
    sourced = _sourced(entry, env, written)
    if sourced is not None:
        return sourced or None
    if any(c in entry for c in "`;|&<>(){}") or "$(" in entry:
        return "it runs more than one plain command"
    words = _words(entry)
    if not words:
        return "hookwise cannot read it"
    head = words[0]
    if head == "alias":
        return _alias(words[1:], env)
    if head in ("export", "readonly", "declare", "typeset") or "=" in head:
        return _assignments(words if "=" in head else words[1:])
    if head in _OPTIONS:
        if head == "bind" and any(w.startswith("-x") for w in words):
            return "bind -x runs a command on a key"
        if any("$" in w for w in words):
            return f"`{head}` is given a value known only when it runs"
        return None
    if head == "set" and all(_PLAIN_WORD.fullmatch(w) for w in words):
        flags = "".join(w.lstrip("-+") for w in words[1:] if w[:1] in "-+" and w[1:2] != "o")
        if set(flags) & set("xvTE") or any("trace" in w or "verbose" in w for w in words):
            return "`set` traces every later command or passes traps into functions"
        return None
    return f"`{head}` runs in every later shell"


def _assignments(words: list[str]) -> str | None:
    """``NAME=VALUE``s (or exported names): plain values of names no program runs."""
    from hookwise.shell.programs import COMMAND_VARIABLES, ENV_LOADERS

    for word in words:
        if word.startswith("-"):
            if set(word[1:]) & set("nf"):  # declare -n r=PATH: r sets PATH; -f: functions
                return f"`{word}` makes a name stand for another or for a function"
            continue
        name, equals, value = word.partition("=")
        name = name.rstrip("+")
        if not re.fullmatch(_NAME, name):
            return f"it sets {word!r}"
        if name in ENV_LOADERS or name.startswith(("PS", "BASH_FUNC_")) or name == "HISTFILE":
            return f"it sets {name}, which loads code or runs commands"
        if name in COMMAND_VARIABLES and not (_PLAIN_WORD.fullmatch(value) and shutil.which(value)):
            return f"it sets {name}, a command later programs run"
        if equals and not _PLAIN_VALUE.fullmatch(value):
            return f"the value of {name} is known only when it runs"
    return None


def _alias(words: list[str], env: dict[str, str]) -> str | None:
    for word in words:
        name, equals, value = word.partition("=")
        if not equals:
            continue  # (alias x: prints it)
        if _program(name, env):
            return f"it aliases {name}, a program or builtin: a later `{name}` runs {value!r}"
        inner = _words(value)
        if not inner or any(c in value for c in "`;|&<>(){}$\\") or not _program(inner[0], env):
            return f"the alias {name} runs {value!r}, not one plain command of a program"
    return None


def _program(name: str, env: dict[str, str]) -> bool:
    """Whether ``name`` is a builtin, keyword or program on PATH."""
    if name in BASH_NAMES:
        return True
    if "/" in name:
        return os.access(name, os.X_OK)
    return shutil.which(name, path=env.get("PATH") or os.defpath) is not None


def _sourced(entry: str, env: dict[str, str], written: list[str]) -> str | None:
    """Empty when ``entry`` sources a literal file on disk or an installed program's output
    (optionally after a ``[ -f F ] &&`` test); a reason when it sources something else;
    None when it sources nothing."""
    text = re.sub(r"^(?:\[\[?|test)\s[^;&|]*?\]?\]?\s*&&\s*", "", entry)
    found = re.fullmatch(r"(?:source|\.)\s+(.+?)\s*(?:\|\|\s*true)?", text)
    evaled = re.fullmatch(r"eval\s+\"\$\((.+)\)\"", text)
    if found is None and evaled is None:
        return None
    if evaled is not None:
        return _output_of(evaled.group(1), env)
    assert found is not None
    target = found.group(1)
    substituted = re.fullmatch(r"<\((.+)\)", target)
    if substituted is not None:
        return _output_of(substituted.group(1), env)
    words = _words(target)
    if not words or len(words) != 1 or not _PLAIN_VALUE.fullmatch(words[0]):
        return f"it sources {target!r}, known only when it runs"
    home = env.get("HOME") or ""
    path = re.sub(r"^(?:~|\$HOME|\$\{HOME\})(?=/)", home, words[0])
    if "$" in path or not path.startswith("/"):
        return f"it sources {target!r}, a file named by a value known only when it runs"
    if any(os.path.normpath(path) == w for w in written):
        return f"it sources {path}, which this line writes"
    return ""


def _output_of(command: str, env: dict[str, str]) -> str:
    """Empty for a tool's own shell set-up: a program (no builtin) given one of
    :data:`SETUP_VERBS` first, then only words (``direnv hook bash``, ``starship init
    bash``, ``kubectl completion bash``, ``brew shellenv``): what it prints is its code on
    disk, as when it is run. Anything else (``cat F``, ``rm -rf x``, ``env echo ...``) runs
    at every start or prints what the line chose."""
    words = _words(command)
    if (
        not words
        or len(words) < 2
        or words[1] not in SETUP_VERBS
        or any(not re.fullmatch(r"-{0,2}[A-Za-z0-9_][A-Za-z0-9_.-]*|-", w) for w in words[1:])
        or not re.fullmatch(r"[A-Za-z0-9_.+-]+|/[\w./+-]+", words[0])
        or words[0] in BASH_NAMES
    ):
        return f"it runs the output of `{command}` at every start"
    return ""


# the subcommands with which a tool prints its own shell set-up (a hook, completions, its
# environment): the one form of `eval "$(...)"` and `source <(...)` read as harmless
SETUP_VERBS = frozenset(["hook", "init", "completion", "completions", "shellenv", "activate"])
