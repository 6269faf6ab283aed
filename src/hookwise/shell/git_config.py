"""git configuration whose value runs a command (``git -c core.pager=CMD``, ``git config
alias.x "!CMD"``, ``core.hooksPath``, ``protocol.ext.allow``), from options, the
environment (``GIT_CONFIG_KEY_0``...) or a configuration file written on the line; and the
subcommand options whose value is a command (``rebase --exec``, ``fetch --upload-pack``,
``difftool -x``, ``grep -O``, ``bisect run``, ``submodule foreach``).

Cold: needed only for a git command that sets configuration or has such a subcommand;
``git status`` and ``git commit`` never load it. Standard library only.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

# git configuration whose value is a command line git runs (the ``!`` of an alias or a
# credential helper is dropped); ``*`` stands for one name part (pager.log, filter.x.clean)
GIT_COMMAND_KEYS = (
    "core.sshcommand",
    "core.pager",
    "core.editor",
    "core.askpass",
    "core.fsmonitor",
    "core.gitproxy",
    "sequence.editor",
    "diff.external",
    "pager.*",
    "credential.helper",
    "credential.*.helper",
    "gpg.program",
    "gpg.*.program",
    "uploadpack.packobjectshook",
    "filter.*.clean",
    "filter.*.smudge",
    "filter.*.process",
    "diff.*.textconv",
    "diff.*.command",
    "merge.*.driver",
    "mergetool.*.cmd",
    "difftool.*.cmd",
    "interactive.difffilter",
    "web.browser",
    "browser.*.cmd",
    "sendemail.sendmailcmd",
    "ssh.variant",
)


def _git_command_key(key: str) -> bool:
    parts = key.lower().split(".")
    for pattern in GIT_COMMAND_KEYS:
        wanted = pattern.split(".")
        if len(wanted) == len(parts) and all(
            w in ("*", p) for w, p in zip(wanted, parts, strict=True)
        ):
            return True
    return False


def git_value(key: str, value: str) -> list[tuple[str, Any]]:
    """What one configuration value runs: a command line, an alias ``!CMD``, an include
    (read by the caller when the file is known), a hooks path (unverifiable)."""
    low = key.lower()
    if low == "core.hookspath" and value not in ("", "/dev/null"):
        return [("unverifiable", f"git runs hooks from {value}, known only when it runs")]
    if low == "init.templatedir" and value:  # init/clone copy its hooks/, which then run
        return [("unverifiable", f"git copies the hooks of {value} into the repository it makes")]
    if low.startswith("alias.") and value.startswith("!"):
        return [("script", value[1:])]
    if (low.startswith("include.") or low.startswith("includeif.")) and low.endswith(".path"):
        return [("include", value)]
    if low in _MESSAGE_FILES and value:  # its text goes into the commit message (an editor)
        return [("read", value)]
    if low in _WRITTEN_FILES and value and _names_file(value):  # every later git appends
        return [("write", value)]
    if low.startswith("remote.") and low.endswith((".uploadpack", ".receivepack")):
        return [("script", value)]
    if low == "protocol.ext.allow" and value != "never":
        return [("unverifiable", "git may run an ext:: transport command")]
    if value in ("true", "false", ""):
        return []
    if _git_command_key(key) or _reads_as_command(low, value):
        return [("script", value.removeprefix("!"))]
    return []


# keys naming a file git reads into what it shows or records (commit -c commit.template=F
# puts F in the message an editor or a later git log prints), as commit -t F does
_MESSAGE_FILES = frozenset(["commit.template"])
# keys naming a file git itself writes or appends to (trace2's targets at every later git
# command, the cookie jar it saves; red team s33 E): a setting of one is a write of it
_WRITTEN_FILES = frozenset(
    ["trace2.eventtarget", "trace2.normaltarget", "trace2.perftarget", "http.cookiefile"]
)


def _names_file(value: str) -> bool:
    """Whether a trace2 target's value is a path (not ``true``/``1``..``9``, a socket)."""
    return not (value.lower() in ("true", "false", "yes", "no", "on", "off") or
                value.isdigit() or value.startswith("af_unix:"))  # fmt: skip


# how git names a key whose value it runs (trailer.*.command, man.*.cmd,
# gpg.ssh.defaultKeyCommand, credential helpers, merge drivers...), across its commands
_COMMAND_WORDS = ("cmd", "command", "program", "helper", "driver", "hook", "editor", "pager",
                  "proxy", "askpass", "textconv", "sendmail", "shell")  # fmt: skip
_SHELL_SIGNS = frozenset(";|&$`\n")


def _reads_as_command(low: str, value: str) -> bool:
    """A key git does not list here, whose name says it is run or whose value is a command
    line (shell operators, ``!CMD``): read as the command line git runs, not as data; a
    value hookwise cannot account for is then unverifiable like any other line."""
    last = low.rsplit(".", 1)[-1]
    if any(word in last for word in _COMMAND_WORDS):
        return True
    return value.startswith("!") or bool(_SHELL_SIGNS.intersection(value))


# ---------------------------------------------------------------- subcommand options

# git subcommands with an option whose value is a command, and those options (long
# spellings; git takes an unambiguous prefix of a long option, as getopt does)
_NONE: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
_EXEC_OPTIONS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "rebase": (("-x",), ("--exec",)),
    "fetch": _NONE,
    "pull": _NONE,
    "clone": (("-u",), ()),
    "ls-remote": _NONE,
    "archive": _NONE,
    "push": _NONE,
    "difftool": (("-x",), ("--extcmd",)),
    "grep": (("-O",), ("--open-files-in-pager",)),
    "send-email": ((), ("--sendmail-cmd", "--smtp-server", "--to-cmd", "--cc-cmd")),
    "filter-branch": (
        (),
        (
            "--env-filter",
            "--tree-filter",
            "--index-filter",
            "--parent-filter",
            "--msg-filter",
            "--commit-filter",
            "--tag-name-filter",
        ),
    ),
    "instaweb": (("-d",), ("--httpd", "--browser")),
}
_PACK_OPTIONS = ("--upload-pack", "--receive-pack", "--exec")
EXEC_SUBCOMMANDS = frozenset([*_EXEC_OPTIONS, "bisect", "submodule", "mergetool", "config"])


def _long(word: str, wanted: tuple[str, ...]) -> tuple[str, str] | None:
    """(option, value) when ``word`` is one of ``wanted`` or an unambiguous prefix of it
    (``--ex=CMD`` is ``--exec=CMD``), with its value attached (``=``) or ''."""
    if not word.startswith("--"):
        return None
    name, eq, value = word.partition("=")
    matches = [o for o in wanted if o == name or (len(name) > 3 and o.startswith(name))]
    if len(matches) == 1:
        return matches[0], value if eq else ""
    return None


def exec_options(sub: str, args: list[str]) -> list[tuple[str, Any]]:
    """What ``git SUB ARGS`` runs from its options: ``rebase --exec CMD``, ``bisect run
    CMD``, ``submodule foreach CMD``, ``fetch --upload-pack=CMD``, ``difftool -x CMD``,
    ``grep -O CMD``, ``send-email --sendmail-cmd``... ("script"/"argv" items)."""
    out: list[tuple[str, Any]] = []
    if sub == "bisect" and args[:1] == ["run"] and len(args) > 1:
        return [("argv", args[1:])]
    if sub == "submodule":
        rest = [w for w in args if w not in ("--quiet", "-q", "--recursive")]
        if rest[:1] == ["foreach"] and len(rest) > 1:
            return [("script", " ".join(rest[1:]))]
        return []
    if sub == "mergetool":
        return []
    if sub in ("clone", "init", "submodule"):  # git clone -c core.fsmonitor=CMD: set, then run
        for index, word in enumerate(args):
            value = None
            if word in ("-c", "--config") and index + 1 < len(args):
                value = args[index + 1]
            elif word.startswith("--config="):
                value = word[len("--config=") :]
            if value is not None:
                key, _, setting = value.partition("=")
                out += git_value(key, setting)
            if word.startswith("--template"):
                out.append(("unverifiable", "git copies hooks from a template directory"))
    shorts, longs = _EXEC_OPTIONS.get(sub, _NONE)
    # the program git runs on the other side (fetch, clone, fetch-pack, send-pack,
    # archive...): whichever subcommand takes it, its value is a command (red team s32 L)
    longs = tuple(dict.fromkeys(longs + _PACK_OPTIONS))  # (rebase has its own --exec)
    i = 0
    while i < len(args):
        word = args[i]
        following = args[i + 1] if i + 1 < len(args) else None
        found = _long(word, longs)
        if found is not None:
            value = found[1]
            if not value and "=" not in word and following is not None:
                value = following
                i += 1
            if value:
                out.append(("script", value))
        else:
            for short in shorts:
                if word == short and following is not None:
                    out.append(("script", following))
                    i += 1
                elif word.startswith(short) and len(word) > 2 and not word.startswith("--"):
                    out.append(("script", word[2:]))
        i += 1
    return out


# ------------------------------------------------------------- configuration files


def config_items(text: str) -> list[tuple[str, Any]]:
    """What a git configuration file's values run (``[core] pager = CMD``, an alias
    ``!CMD``, a hooks path); an include of another file is unverifiable here."""
    out: list[tuple[str, Any]] = []
    section = ""
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line[0] in "#;":
            continue
        if line.startswith("[") and "]" in line:
            head = line[1 : line.index("]")].strip()
            name, _, sub = head.partition(" ")
            section = name.lower() + ("." + sub.strip().strip('"') if sub else "")
            rest = line[line.index("]") + 1 :].strip()
            if not rest:
                continue
            line = rest
        key, eq, value = line.partition("=")
        key = key.strip()
        value = value.strip().strip('"') if eq else "true"
        full = f"{section}.{key}"
        if key.lower() == "path" and section.split(".", 1)[0].lower() in ("include", "includeif"):
            out.append(("unverifiable", f"git includes the configuration file {value}"))
            continue
        out += git_value(full, value)
    return out


def env_items(env: dict[str, str]) -> list[tuple[str, Any]]:
    """Configuration git takes from the environment: ``GIT_CONFIG_COUNT`` with
    ``GIT_CONFIG_KEY_n``/``GIT_CONFIG_VALUE_n``, and ``GIT_CONFIG_PARAMETERS``."""
    out: list[tuple[str, Any]] = []
    for name, key in env.items():
        if name.startswith("GIT_CONFIG_KEY_"):
            value = env.get("GIT_CONFIG_VALUE_" + name[len("GIT_CONFIG_KEY_") :], "")
            out += git_value(key, value)
    parameters = env.get("GIT_CONFIG_PARAMETERS", "")
    if parameters:
        import shlex

        try:
            words = shlex.split(parameters.replace("'='", "="))
        except ValueError:
            return [*out, ("unverifiable", "GIT_CONFIG_PARAMETERS is not readable here")]
        for word in words:
            key, _, value = word.partition("=")
            out += git_value(key, value)
    return out


# ------------------------------------------------------- configuration from the line


def from_line(
    command: Any, found: list[tuple[str, Any]], script: Any, at: int
) -> list[tuple[str, Any]]:
    """git's configuration beyond its options: files it includes, and what the
    environment sets (``GIT_CONFIG_KEY_0``, ``GIT_CONFIG_GLOBAL=x.cfg``)."""
    out = [item for item in found if item[0] != "include"]
    includes = [value for kind, value in found if kind == "include"]
    # `git config include.path F` sets it: its effect is later git's (`-c` is this one's)
    setting = 0 <= at < len(command.argv) and command.argv[at] == "config"
    # an include `git config` set earlier on the line: this git reads that file too
    later = [v for k, v in script.git_settings.items() if _is_include(k) and v not in includes]
    includes += later
    keyed = set(includes)  # (include.path values; GIT_CONFIG_GLOBAL=F below is a whole file)
    out += push_config(command, script, at)
    env = command.env
    if any(name.startswith("GIT_CONFIG") for name in env):
        out += env_items(env)
        includes += [
            env[n] for n in ("GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "GIT_CONFIG") if n in env
        ]
        for kind, value in env_items(env):
            if kind == "include":
                includes.append(value)
        out = [item for item in out if item[0] != "include"]
    for path in includes:
        key = path
        for head in ("$PWD/", "${PWD}/", "../"):
            key = key.removeprefix(head)
        if script.was_written(key):
            content = script.recall(key)
            if content is None:
                out.append(
                    (
                        "unverifiable",
                        f"git reads {path}, written on the line with content known only "
                        "when it runs",
                    )
                )
            else:
                out += config_items(content)
        elif "$" in path or "`" in path:
            out.append(
                (
                    "unverifiable",
                    f"git reads the configuration file {path}, known only when it runs",
                )
            )
        elif path in keyed and path != "/dev/null" and (script.written or not setting):
            out.append(("unverifiable", _unread_include(path, script)))
    return out


def _is_include(key: str) -> bool:
    return key.startswith(("include.", "includeif.")) and key.endswith(".path")


def _unread_include(path: str, script: Any) -> str:
    """Why an include set on the line is a configuration hookwise cannot read (red team
    s35 K): git reads ``path`` relative to the file that includes it (``--global
    include.path inc`` is ``~/inc``), so a file the line writes under another spelling
    (``../home/inc``) may be it; and a file on disk is one the guard did not read. Keys
    that run code (an alias ``!CMD``, ``core.fsmonitor``) may be in it."""
    written = next(iter(script.written), "")
    if written:
        return (
            f"git includes the configuration file {path}, which may be {written} the line "
            "writes (its keys may run commands)"
        )
    return f"git includes the configuration file {path}, which hookwise did not read"


def push_config(command: Any, script: Any, at: int) -> list[tuple[str, Any]]:
    """``git push`` with a ``+`` refspec (or mirroring) set in configuration (``-c
    remote.origin.push=+main``, ``git config`` earlier on the line, the environment) is a
    force push: it stands as ``git push --force`` (or ``--mirror``) too."""
    argv = command.argv  # (at: where git's subcommand is, programs.git_subcommand)
    if at < 0 or argv[at] != "push":
        return []
    settings = dict(script.git_settings)
    for index, word in enumerate(argv[1:at], start=1):
        if word == "-c" and index + 1 < at:
            key, _, value = argv[index + 1].partition("=")
            settings[key.lower()] = value
    env = command.env
    for name, key in env.items():
        if name.startswith("GIT_CONFIG_KEY_"):
            settings[key.lower()] = env.get("GIT_CONFIG_VALUE_" + name[15:], "")
    extra: list[str] = []
    for key, value in settings.items():
        if key.startswith("remote.") and key.endswith(".push") and value.startswith("+"):
            extra.append("--force")
        elif key.startswith("remote.") and key.endswith(".mirror") and value in ("true", "1", ""):
            extra.append("--mirror")
    extra = [flag for flag in dict.fromkeys(extra) if flag not in argv]
    if not extra:
        return []
    return [("argv", ["git", "push", *extra, *argv[at + 1 :]])]


# git config's options that take a value (``-f .git/config``: the file written)
_CONFIG_VALUED = frozenset(["-f", "--file", "--blob", "--type", "--default", "--comment",
                            "--value"])  # fmt: skip


def config_operands(words: list[str]) -> list[str]:
    """The words after ``git config`` that are no option nor an option's value: ``git
    config -f .git/config alias.st '!sh'`` sets ``alias.st`` (red team s30 N: the file
    written by path was taken for the key). Whichever file it names, the setting is
    remembered: the repository's own config is one of them."""
    found: list[str] = []
    skip = False
    for word in words:
        if skip:
            skip = False
        elif word in _CONFIG_VALUED:
            skip = True
        elif word == "--":
            continue
        elif not word.startswith("-"):
            found.append(word)
    return found


def remember_setting(argv: list[str], script: Any, at: int) -> None:
    """``git config KEY VALUE`` earlier on the line: what a later git command reads."""
    if at < 0 or argv[at] != "config":
        return
    rest = config_operands(argv[at + 1 :])
    if rest and rest[0] in ("set", "add"):
        rest = rest[1:]
    if len(rest) >= 2:
        script.git_settings[rest[0].lower()] = " ".join(rest[1:])
