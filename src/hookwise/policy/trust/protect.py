"""Self-protection: the agent cannot change its own guardrails.

A tool call that writes, deletes, moves, truncates or changes the mode of a protected file
is denied before any rule is read. Protected are the policy files of every scope, the trust
store, the audit log, hookwise's cache and launcher, this user's ``hookwise run`` sessions
directories (``/run/user/<uid>/hookwise-run-<uid>``, ``/tmp/...``), the hook registrations
of the hosts (``.claude/settings*.json``, ``.gemini/settings.json``, ``.codex/hooks.json``,
``.codex/config.toml``, in any directory, and their user-scope twins, and Codex's profile
files ``$CODEX_HOME/NAME.config.toml``), the dotenv files a
host exports to its hooks (any ``.env``: content put into one, whatever the variable), the
hosts' native rule directories that ``install --native`` writes into
(``~/.gemini/policies/``, ``~/.codex/rules/``) and its records, plus every directory holding
one of them when the call deletes or moves a whole tree.

How a call is read:

- file tools (Write, Edit, apply_patch, an MCP tool with a path...) other than the read
  only ones: every path argument, resolved (symlinks followed), read whole (a move,
  delete or merging copy of a directory holding a guard: :meth:`Guard.reaches`, the
  reading the shell's ``mv`` and ``rm -r`` operands get too);
- shell commands, per simple command (after ``cd``): output redirections always; then by
  program: readers (``cat``, ``grep``, ``git diff``...) are let be; known writers
  (``rm``, ``mv``, ``cp``, ``ln``, ``tee``, ``truncate``, ``sed -i``, ``chmod``...) have
  their targets resolved, globs expanded against the disk; any other program is denied
  when one of its words or its here-document names a protected file, and the hookwise
  commands that change trust or registrations are denied outright.

Only the user or managed policy can turn it off (``settings.self_protection: false``).
Standard library only (hot path); :mod:`glob` is imported for a word with glob characters.
"""

from __future__ import annotations

from hookwise.policy import canonical
from hookwise.policy import os_lite as os  # os without its import cost
from hookwise.policy.canonical import UNKNOWN_DIR, command_dirs, kernel_path, resolve_path
from hookwise.policy.confinement import sessions_dirs
from hookwise.policy.trust.scopes import (
    config_home,
    launcher_path,
    snapshot_path,
    trust_store_path,
    user_policy_path,
)
from hookwise.protocol import guard_env

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from hookwise.policy.canonical import Event
    from hookwise.shell.parser import Command

RULE_ID = "hookwise:self-protection"
ENV_FILE = "/.env"
# Path endings that are hook registrations or policy files wherever they are.
SUFFIXES = (
    "/.claude/settings.json",
    "/.claude/settings.local.json",
    "/.gemini/settings.json",
    "/.codex/hooks.json",
    "/.codex/config.toml",
    # the hosts' MCP server files (protocol modules' MCP_FILES, kept equal by a test): an
    # agent that edits one can unwrap a server from `hookwise mcp wrap` for the next session
    "/.mcp.json",
    "/.claude.json",
    "/.qwen/settings.json",
    "/.github/mcp.json",
    "/.vscode/mcp.json",
    "/.factory/mcp.json",
    "/.copilot/mcp-config.json",
    "/cline_mcp_settings.json",
    "/crush.json",
    "/.crush.json",
    # the dotenv files of the hosts' own directories, loaded at start and exported to every
    # hook (the rows' `env_files` and `extension_env_files` in protocol/hosts.py, kept
    # equal by a test; `~/.env` and an extension's are in `obeyed_paths` and `protected`):
    # whatever variable a write sets there can redirect the next session's hooks (BASH_ENV
    # and SHELLOPTS run code in the shell that runs the registered command, LD_PRELOAD in
    # what it starts, PATH and XDG_DATA_HOME choose the launcher, and the list has no end),
    # so the file is a guardrail whatever the write holds. A project's plain `.env` (Gemini
    # CLI's too) is written by everyday tools (`cp .env.example .env`): what a call writes
    # into it is checked for the names it sets instead (_names_guard_variable; docs/policy.md
    # says what that leaves)
    "/.gemini/.env",
    "/.codex/.env",
)
POLICY_DIR = "/.hookwise"
# Codex's profile files, ``$CODEX_HOME/NAME.config.toml`` (``codex --profile NAME`` reads one
# over config.toml: MCP servers, disabled_tools, hooks): a guard file directly in CODEX_HOME,
# whatever NAME. protocol/codex.py's PROFILE_FILE_SUFFIX (a test keeps them equal; the hot
# path does not import the protocol modules).
CODEX_PROFILE_SUFFIX = ".config.toml"
# install --native's record beside each native rule file (install/native_record.py)
NATIVE_RECORD = ".hookwise-native.json"
# Substrings that name a protected file in a word, a script or a patch.
# (the user's policy named inside code: vim's expand("~/.config/hookwise/policy.yaml"))
# (".config/hookwise": the user's policy directory, named apart from its file: red team
# s27 A, `s=$HOME/.config/hookwise; ... > "$x"`)
MARKERS = (".hookwise", "hookwise/policy.yaml", ".config/hookwise",
           *(s[1:] for s in SUFFIXES if s != ENV_FILE))  # fmt: skip

READ_TOOLS = frozenset(
    ["read", "glob", "grep", "ls", "web_fetch", "web_search", "task", "todo", "skill", "memory"]
)
# Programs that only read their arguments (output redirections are checked for all).
READERS = frozenset(
    [
        "cat",
        "tac",
        "less",
        "more",
        "head",
        "tail",
        "grep",
        "egrep",
        "fgrep",
        "rg",
        "ag",
        "ack",
        "ls",
        "ll",
        "dir",
        "stat",
        "file",
        "wc",
        "diff",
        "cmp",
        "comm",
        "md5sum",
        "sha1sum",
        "sha224sum",
        "sha256sum",
        "sha384sum",
        "sha512sum",
        "b2sum",
        "cksum",
        "jq",
        "yq",
        "bat",
        "realpath",
        "readlink",
        "dirname",
        "basename",
        "tree",
        "du",
        "df",
        "echo",
        "printf",
        "test",
        "[",
        "[[",
        "true",
        "false",
        "pwd",
        "which",
        "type",
        "whereis",
        "cd",
        "pushd",
        "popd",
        "nl",
        "od",
        "xxd",
        "hexdump",
        "strings",
        "sort",  # (sort -o F: programs.WRITE_OPTIONS, a write of its own)
        "cut",
        "column",
        "fold",
        "fmt",
        "expand",
        "unexpand",
        "look",
        "join",
        "paste",
        "tr",
    ]
)
# Programs whose positional arguments are all changed (deleted, moved, rewritten).
WRITERS_ALL = frozenset(
    [
        "rm",
        "rmdir",
        "unlink",
        "shred",
        "mv",
        "trash",
        "trash-put",
        "truncate",
        "tee",
        "chmod",
        "chown",
        "chgrp",
        "chattr",
        "setfacl",
        "touch",
    ]
)
# Of these, a directory that holds protected files is protected as a whole.
TREE_WRITERS = frozenset(
    ["rm", "rmdir", "shred", "mv", "trash", "trash-put", "chmod", "chown", "chgrp", "setfacl"]
)
# Of these, the ones that put no content into a file (git: what a repository commits)
REMOVERS = frozenset(
    ["rm", "rmdir", "unlink", "shred", "trash", "trash-put", "truncate", "chmod", "chown",
     "chgrp", "setfacl", "git"]
)  # fmt: skip
# Programs that write their last positional argument (or -t DIR).
WRITERS_LAST = frozenset(["cp", "ln", "link", "install", "rsync", "scp"])
# Programs that change their files with an in-place flag.
IN_PLACE = {"sed": ("-i", "--in-place"), "perl": ("-i",), "ruby": ("-i",)}
# The hookwise commands that only read or print (command, or group -> its subcommands):
# any other is a change to the guard (it writes a policy and trusts it, as `policy init
# --force` did past a list of changes: red team s26; registrations, host settings, native
# rules, the audit log, tokens of the approval service, `hookwise run` sessions).
# Not here: what runs code a file names (red team s27 L): `simulate` (a scenario's hooks),
# `fire` (a project's hooks), `conformance` (case files' hooks), `mcp wrap` (its server).
HOOKWISE_READ_ONLY: dict[str, frozenset[str] | None] = {
    "coverage": None,
    "doctor": None,
    "explain": None,
    "logs": None,
    "rollout": frozenset(["show"]),
    "scan": None,
    "test": None,
    "turns": frozenset(["check"]),
    "policy": frozenset(["docs", "fuzz", "hook-command", "schema", "show", "validate"]),
    "hooks": frozenset(["list"]),
}
# ...of which these run code a file names (a policy's validators, a project's registered
# hook commands): read-only when told not to (the last word), or when none of the options
# that name another file or project is given (the first: () means always; the code is
# then the trusted scopes' own).
HOOKWISE_CODE_RUNNING: dict[str, tuple[tuple[str, ...], str]] = {
    "explain": (("--policy", "--project", "--cwd"), "--no-validators"),
    "doctor": (("--project",), "--no-self-test"),
    "test": ((), "--no-validators"),  # (a scenario file's own `policy:` runs)
}
# ...except with these: they write where they are told (checked as any program's operands)
# or, for --record-trust, the hosts' trust stores
HOOKWISE_WRITING_OPTIONS = (
    "-o", "--output", "--out", "--baseline", "--update-baseline", "--rollout"
)  # fmt: skip
HOOKWISE_TRUST_OPTIONS = ("--record-trust",)
# Variables that move or loosen hookwise for whatever the command starts (a nested agent
# CLI runs its hooks with them): set by the agent, they are a change to its guardrails;
# and those that move the hosts' own settings (their hook registrations) or hookwise's
# files and launcher, when set for an agent CLI or exported (protocol/guard_env.py)
GUARD_VARIABLES = frozenset(guard_env.GUARD)
HOST_VARIABLES = frozenset(guard_env.PLACES)
# Files a shell or a tool loads its environment from: writing a guard variable into one
# sets it for every later session.
ENV_FILES = frozenset(
    [".bashrc", ".bash_profile", ".bash_login", ".profile", ".zshrc", ".zshenv", ".zprofile",
     ".zlogin", ".envrc", ".env", "config.fish", "environment", ".pam_environment"]
)  # fmt: skip
AGENT_CLIS = frozenset(["claude", "codex", "gemini", "qwen", "opencode", "cursor-agent"])
GIT_WRITERS = frozenset(["rm", "mv", "checkout", "restore", "stash", "bundle", "merge-file"])
# git options that move the files it writes elsewhere (data_writes.git_worktree)
_GIT_ELSEWHERE = ("-C", "--work-tree", "--prefix")


def _home(env: dict[str, str]) -> str:
    return env.get("HOME") or os.path.expanduser("~")


def concrete_paths(env: dict[str, str], policy_files: list[str], cwd: str) -> list[str]:
    """The protected files and directories this call can name, absolute."""
    from hookwise.policy.audit import audit_path, state_dir
    from hookwise.policy.cache import cache_dir

    launcher = launcher_path(env)
    paths = [
        audit_path({}, env),
        cache_dir(env),
        launcher,
        snapshot_path(launcher),
        state_dir(env),  # the audit log, and install --mcp's record uninstall restores from
        *policy_files,
    ]
    # (abspath normalises; obeyed_paths and project_paths return theirs normalised)
    return [
        *obeyed_paths(env),
        *(os.path.abspath(p) for p in paths if p),
        *project_paths(cwd),
        # what decides whether a hook runs at all: hookwise's code, its interpreter, the
        # shells the hosts start hooks with, the hosts' code directories (red team s32 #1,
        # #2, #5; the list is hook_code's, shared with `hookwise run`)
        *code_reasons(env, cwd),
        # this user's sessions directories: the registered command reads a session's
        # launcher there (only a session's read-only bind, red team s28 F4; a root agent
        # could make one, `mount` naming the file is denied here)
        *sessions_dirs(os.getuid()),
    ]


_CODE_REASONS: dict[tuple[str, str, str], dict[str, str]] = {}


def code_reasons(env: dict[str, str], cwd: str | None) -> dict[str, str]:
    """hook_code's list for this environment: path -> why it decides the hook (with the
    project code directories of the hosts from ``cwd`` up to its repository)."""
    key = (env.get("PATH") or "", _home(env), cwd or "")
    found = _CODE_REASONS.get(key)
    if found is None:
        from hookwise.policy.trust.hook_code import hook_code, project_code_suffixes

        found = {}
        for path, why in hook_code(env, cwd):
            found.setdefault(path, why)
        suffixes = project_code_suffixes()
        for base in project_paths(cwd, ()):
            for suffix in suffixes:
                found.setdefault(base + suffix, "a host loads code or hooks from it (project)")
        _CODE_REASONS[key] = found
    return found


def program_paths(env: dict[str, str], cwd: str | None) -> frozenset[str]:
    """Of :func:`code_reasons`, the PATH programs as PATH finds them (hook_code)."""
    from hookwise.policy.trust.hook_code import path_programs, planted_programs

    found = [*path_programs(env, cwd), *planted_programs(env, cwd)]
    return frozenset(os.path.abspath(p) for p, _why in found)


def obeyed_paths(env: dict[str, str]) -> list[str]:
    """The protected files outside a project that are obeyed as soon as they appear (the
    user's and the machine's policy, the trust store, the hosts' user settings)."""
    from hookwise.policy.trust.scopes import managed_paths

    home = _home(env)
    claude = env.get("CLAUDE_CONFIG_DIR") or os.path.join(home, ".claude")
    codex = env.get("CODEX_HOME") or os.path.join(home, ".codex")
    gemini = env.get("GEMINI_CLI_HOME") or home
    paths = [path for path, _how in managed_paths(env)]
    paths += [
        user_policy_path(env),
        trust_store_path(env),
        os.path.join(config_home(env), "hookwise"),
        os.path.join(claude, "settings.json"),
        os.path.join(claude, "settings.local.json"),
        os.path.join(gemini, ".gemini", "settings.json"),
        os.path.join(codex, "hooks.json"),
        os.path.join(codex, "config.toml"),
        # the native rules install --native keeps (policy/export): every file of these
        # directories is the same tier, so a sibling file can outrank or undo hookwise's
        # (red team s25 F16: an allow of priority 999 in ~/.gemini/policies/aaa.toml)
        os.path.join(gemini, ".gemini", "policies"),
        os.path.join(codex, "rules"),
        os.path.join(codex, ".env"),  # (env files the hosts export to every hook)
        os.path.join(home, ".env"),
        os.path.join(gemini, ".gemini", ".env"),
    ]
    return [os.path.abspath(p) for p in paths if p]


_PROJECT_SUFFIXES = (*SUFFIXES, POLICY_DIR)


def project_paths(cwd: str | None, suffixes: tuple[str, ...] | None = None) -> list[str]:
    """The guard files a project may hold, from ``cwd`` up to its repository's root
    (``suffixes=()``: the directories themselves)."""
    endings = _PROJECT_SUFFIXES if suffixes is None else suffixes or ("",)
    paths: list[str] = []
    project = cwd or ""
    while project:
        # one abspath a level: the suffixes are normalised already ("/" + ".claude/...")
        base = os.path.abspath(project).rstrip("/")
        paths += [base + suffix for suffix in endings]
        parent = os.path.dirname(project)
        if parent == project or os.path.lexists(os.path.join(project, ".git")):
            break
        project = parent
    return paths


class Guard:
    """The protected paths of one call and the checks on them."""

    __slots__ = ("_concrete", "_inodes", "cwd", "env", "files", "home", "made")

    def __init__(self, env: dict[str, str], files: list[str], cwd: str) -> None:
        self.env = env
        self.files = files
        self.cwd = cwd
        self.home = env.get("HOME") or ""
        self._concrete: list[str] | None = None
        self._inodes: dict[tuple[int, int], str] | None = None
        # what the command line being checked creates, moves or links (kernel_path)
        self.made: tuple[str, ...] = ()

    def linked(self, path: str) -> str | None:
        """The protected file ``path`` is a hard link of (``ln .hookwise/policy.yaml x``
        then ``: > x`` truncates the policy under another name); None when none."""
        try:
            info = os.lstat(path)
        except (OSError, ValueError):  # ValueError: a NUL in the path
            return None
        if info.st_nlink < 2 or not os.path.isfile(path):
            return None
        if self._inodes is None:
            self._inodes = {}
            for item in self.concrete:
                for name in [item, *_entries(item)]:
                    try:
                        found = os.stat(name)
                    except (OSError, ValueError):
                        continue
                    self._inodes[(found.st_dev, found.st_ino)] = name
        return self._inodes.get((info.st_dev, info.st_ino))

    @property
    def concrete(self) -> list[str]:
        """Computed on the first path a call would change (most calls change none)."""
        if self._concrete is None:
            self._concrete = concrete_paths(self.env, self.files, self.cwd)
        return self._concrete

    def protected(self, path: str, tree: bool = False, written: bool = True) -> str | None:
        """What ``path`` (absolute, normalised) protects; None when nothing.

        ``tree``: the call removes or moves the whole directory, so a directory above a
        protected file counts too. ``written``: the call surely writes ``path``; a word
        given to a program that may only read it (``. ./.env``, ``--env-file .env``) does
        not make an env file a guardrail write (they are read every day).
        """
        for candidate in _spellings(path):
            if written:
                _process_file(candidate)
            lowered = candidate.lower()
            if (
                POLICY_DIR + "/" in lowered + "/"
                or lowered.endswith(NATIVE_RECORD)
                or (written and "/.gemini/extensions/" in lowered and lowered.endswith(ENV_FILE))
            ):
                return candidate
            if lowered.endswith(SUFFIXES) and (written or not lowered.endswith(ENV_FILE)):
                return candidate
            if self.codex_profile(candidate):
                return candidate
            unknown = candidate.startswith(UNKNOWN_DIR + "/")
            for item in self.concrete:
                if (candidate == item and (written or not item.endswith(ENV_FILE))) or (
                    candidate.startswith(item + "/")
                ):
                    return item
                if unknown and (item + "/").endswith(candidate[len(UNKNOWN_DIR) :] + "/"):
                    return item  # a file the line's own link may lead to
            if tree:
                above = candidate.rstrip("/") + "/"
                for item in self.concrete:
                    if (
                        item.startswith(above)
                        and not item.endswith(ENV_FILE)
                        and os.path.lexists(item)
                    ):
                        return item
        hit = self.linked(path)
        return hit if written or hit is None or not hit.endswith(ENV_FILE) else None

    def codex_profile(self, path: str) -> bool:
        """Whether ``path`` is a file of a Codex profile's shape directly in CODEX_HOME (as
        named or as CODEX_HOME resolves): one that exists or one written there next."""
        name = os.path.basename(path)
        if not name.lower().endswith(CODEX_PROFILE_SUFFIX) or name == CODEX_PROFILE_SUFFIX:
            return False
        home = self.env.get("CODEX_HOME") or os.path.join(_home(self.env), ".codex")
        parent = os.path.dirname(path)
        return parent in (os.path.abspath(home), os.path.realpath(home))

    def reaches(self, path: str, whole: bool, written: bool = True) -> str | None:
        """What a change of ``path`` reaches (None: nothing protected). ``whole``: the
        call may remove, move, rename or merge into ``path`` as a directory (``rm -r``,
        ``mv``'s operands, any path a non-shell tool that is no reader takes: its name does
        not say which it does), so a guard at or under it counts, and one obeyed as soon as
        it appears there (``~/.config/hookwise/policy.yaml``): a tree moved in or merged
        there brings its own (red team s28 F1-F3). One reading for shell and tool calls."""
        hit = self.protected(path, tree=whole, written=written)
        if hit is None and whole:
            # (into a directory that is there, a tree goes under its own name: `mv d
            # /usr/local/bin` makes /usr/local/bin/d, no new program)
            hit = self.holds(path, new_programs=not os.path.isdir(path))
        return hit

    def plants(
        self, source: str, destination: str, skips: Callable[[str], bool] | None = None
    ) -> tuple[str, bool] | None:
        """What a copy or move of ``source`` (absolute) to ``destination`` writes that is
        protected, and whether that is only unknown (True: the tree is past the bounded
        look, or unreadable in part); None: nothing. A directory brings every name under
        it: each is written at ``destination/<relative path>`` (a merge, or a new name) and
        at ``destination/<source's name>/<relative path>`` (into a directory that is
        there), so ``.mcp.json`` or ``.claude/settings.json`` staged elsewhere land as
        guards a host obeys (red team s29 F2). The counterpart of :meth:`reaches`, which
        sees guards already at the destination. One reading for shell and tool calls.
        ``skips``: the program's own options leave that relative path out (rsync's
        ``--exclude``: shell.exclusions.leaves_out)."""
        if not os.path.isdir(source) or os.path.islink(source):
            return None
        from hookwise.policy.rules.trees import look  # (cold: a directory copied or moved)

        top = source.rstrip("/") or "/"
        names, whole = look(top)
        into = destination.rstrip("/") or "/"
        nested = f"{into}/{os.path.basename(top)}"
        for path in names:
            inner = path[len(top) :]
            if skips is not None and skips(inner.lstrip("/")):
                continue
            for written in (into + inner, nested + inner):
                hit = self.protected(written)
                if hit is not None:
                    return hit, False
        return None if whole else (top, True)

    def _shadows(self, item: str) -> bool:
        """Whether a new ``item`` would be found before a real program of its name later
        on PATH (a name no PATH directory holds, root's ``/usr/bin/hookwise`` when hookwise
        is installed elsewhere, shadows nothing: `tar -xf f.tar -C /usr/bin fzf` is everyday)."""
        from hookwise.policy.trust.hook_code import path_directories

        where, name = os.path.split(item)
        directories = path_directories(self.env, self.cwd)
        later = directories[directories.index(where) + 1 :] if where in directories else []
        for directory in later:
            found = os.path.join(directory, name)
            if os.access(found, os.X_OK) and not os.path.isdir(found):
                return True
        return False

    def holds(self, directory: str, new_programs: bool = True) -> str | None:
        """The protected file a write of data-named files into ``directory`` may reach
        (``tar x`` there): one inside it that exists, or one obeyed as soon as it appears
        (``~/.config/hookwise/policy.yaml``); a new project policy is the repository's
        content, which trust pins. ``new_programs``: the data's top-level names land there
        (an archive; a tree moved onto a name that is no directory yet), so a new PATH
        program there that shadows a real one counts."""
        inside = directory.rstrip("/") + "/"
        obeyed = set(obeyed_paths(self.env))
        # (not the programs PATH finds, root's /usr/bin/bash: `tar -xf f.tar -C /usr/bin fzf`
        # is everyday; a named write of them is denied, an archive's names are its data)
        programs = program_paths(self.env, self.cwd)
        for item in self.concrete:
            if item in programs:
                # ...but a new one there, before the real one, is what PATH finds next
                # (`tar -xf x.tar -C ~/.local/bin`, its names unread: red team s33 D)
                new = new_programs and not os.path.lexists(item)
                if new and os.path.dirname(item) == directory.rstrip("/") and self._shadows(item):
                    return item
                continue
            near = item == directory or item.startswith(inside) or directory.startswith(item + "/")
            if near and (item in obeyed or os.path.lexists(item)):
                return item
        return None


def _process_file(path: str) -> None:
    """A write that acts on processes (a cgroup's control file, another process's /proc
    files, wherever they are mounted: red team s33 #2): unverifiable, naming the file."""
    from hookwise.policy.trust.process_files import acts_on_processes

    why = acts_on_processes(path)
    if why is not None:
        raise _ProcessFileError(path, why, unsure=True)


def _spellings(path: str) -> list[str]:
    """The path as named and as it resolves (symlinks followed, when it exists)."""
    out = [path]
    if os.path.lexists(path):
        real = os.path.realpath(path)
        if real != path:
            out.append(real)
    else:
        parent = os.path.dirname(path)
        if parent != path and os.path.lexists(parent):
            real = os.path.join(os.path.realpath(parent), os.path.basename(path))
            if real != path:
                out.append(real)
    return out


def _expand(word: str, cwd: str | None, home: str, made: tuple[str, ...] = ()) -> list[str]:
    """The absolute paths a word names; globs expanded against the disk, as bash does.
    A ``..`` after a link is read as the kernel opens it too (``kernel_path``: ``cp x
    l/../policy.yaml`` writes next to the link's target, red team s27 F15)."""
    ref = resolve_path(word, cwd or "", home) if cwd or word[:1] in "/~$" else None
    path = ref.absolute if ref is not None else None
    if path is None:
        return []
    if any(ch in word for ch in "*?["):
        import glob

        matches = glob.glob(path)
        return [os.path.normpath(m) for m in matches] or [path]
    text = word
    for start in ("~/", "$HOME/", "${HOME}/"):
        if word.startswith(start):
            text = home + word[len(start) - 1 :]
    if text[:1] in "~$":
        text = ""  # (resolve_path placed it: ~user)
    physical = kernel_path(text, cwd or "", made) if text else None
    return [path] if physical is None else [path, physical]


def _is_dir(word: str, cwd: str | None, home: str) -> bool:
    """Whether ``word`` names an existing directory (or says it is one: ``x/``)."""
    if word.endswith("/") or cwd is None:
        return True
    return any(os.path.isdir(path) for path in _expand(word, cwd, home))


def _env_file(path: str) -> bool:
    name = path.rstrip("/").rsplit("/", 1)[-1]
    return name in ENV_FILES or name.startswith(".env.")


# Names that decide what a hook runs, when a host or a shell exports them, as written into
# a .env (protocol/guard_env.py's table; a "*" entry is a prefix: guard_env.listed)
_HOOK_TABLE = (*guard_env.PLACES, *guard_env.RUNNERS, "HOOKWISE_*", "XDG_*")


def _names_guard_variable(text: str, target: str) -> bool:
    """Whether ``text`` written into the env file ``target`` sets a variable that moves
    hookwise (any start-up file), or one that decides what a hook runs (a ``.env``, which
    hosts export to their hooks; a ``PATH`` line in ``~/.bashrc`` is everyday). In a
    ``.env`` the names a dotenv parser could set are looked at (protocol/dotenv.keys):
    ``NODE_ENV=`` or ``CLASSPATH=`` in a copied ``.env.example`` set nothing that moves a
    hook (red team s29 friction: `cp .env.example .env` was denied)."""
    if target.rstrip("/").rsplit("/", 1)[-1] == ".env":
        import re

        from hookwise.protocol.dotenv import keys

        # (and any word followed by = or :, where a command's text holds the line)
        names = {*keys(text), *re.findall(r"([\w.-]+)\s*[=:]", text)}
        return any(guard_env.listed(name, _HOOK_TABLE) for name in names)
    return "HOOKWISE_" in text and any(name in text for name in GUARD_VARIABLES)


def _mentions_guard_variable(text: str) -> bool:
    """Whether a command's text holds such a name where it may become a key only when it
    runs: inside a longer word that is not a plain variable name
    (``\nBASH_ENV``, ``\101SH_ENV``: the escapes are printf's or echo -e's). A plain name
    (``NODE_ENV``, ``CLASSPATH``) is what it says, judged by :func:`_names_guard_variable`."""
    import re

    for match in re.finditer(r"[\w.-]+", text):
        word = match.group()
        if not any(name in word for name in _HOOK_NAMES):
            continue
        plain = re.fullmatch(r"[A-Z_][A-Z0-9_]*", word) is not None
        if not plain or text[match.start() - 1 : match.start()] == "\\":
            return True
    return False


_HOOK_NAMES = tuple(name.rstrip("*") for name in _HOOK_TABLE)


def _entries(directory: str) -> list[str]:
    """The paths in a protected directory (a few hundred at most); [] for anything else."""
    if not os.path.isdir(directory) or os.path.islink(directory):
        return []
    try:
        names = sorted(os.listdir(directory))[:256]
    except (OSError, ValueError):
        return []
    return [os.path.join(directory, name) for name in names]


def _links(argv: list[str]) -> bool:
    """Whether ``cp`` makes links, not copies (``-l``/``--link``, ``-s``/``--symbolic-link``,
    in a cluster too)."""
    for word in argv[1:]:
        if word == "--":
            return False
        if word in ("--link", "--symbolic-link") or (
            word[:1] == "-" and word[1:2] != "-" and set("ls") & set(word[1:])
        ):
            return True
    return False


def _has_marker(text: str) -> bool:
    lowered = text.lower()
    if any(marker in lowered for marker in MARKERS):
        return True
    if "%" in lowered:  # file://$PWD/%2ehookwise/policy%2eyaml: the reader decodes it
        from hookwise.policy.canonical import url_decoded

        decoded = url_decoded(lowered)
        if decoded is not None and any(marker in decoded.lower() for marker in MARKERS):
            return True
    if '"' not in lowered and "'" not in lowered:
        return False
    joined = _join_literals(lowered)
    return joined != lowered and any(marker in joined for marker in MARKERS)


# string literals joined in code (".hook"."wise/policy.yaml" in vim or perl, '.hook' +
# 'wise' in python or node): the name they make is the marker's
_JOINS = tuple(
    f"{close}{space}{op}{space}{open_}"
    for space in (" ", "")  # spaced joins first: `"_" + "."` is `"_."`
    for op in ("+", "..", ".")
    for close in "\"'"
    for open_ in "\"'"
)


def _join_literals(text: str) -> str:
    for join in _JOINS:
        if join in text:
            text = text.replace(join, "")
    return text


def _positionals(argv: list[str], skip: frozenset[int] | set[int] | None = None) -> list[str]:
    out: list[str] = []
    done = False
    for index, word in enumerate(argv[1:], start=1):
        if skip and index in skip:
            continue
        if not done and word == "--":
            done = True
            continue
        if not done and word.startswith("-") and len(word) > 1:
            continue
        out.append(word)
    return out


def _target_dir(argv: list[str]) -> str | None:
    for index, word in enumerate(argv):
        if word in ("-t", "--target-directory") and index + 1 < len(argv):
            return argv[index + 1]
        if word.startswith("--target-directory="):
            return word.split("=", 1)[1]
    return None


def _in_place(argv: list[str]) -> bool:
    """``-i``, ``-i.bak``, ``-Ei``, ``-pi``, ``--in-place``: the files are rewritten."""
    for word in argv[1:]:
        if word == "--":
            break
        if word.startswith("--in-place"):
            return True
        if word.startswith("-") and not word.startswith("--") and "i" in word[1:]:
            head = word[1 : word.index("i")]
            if not any(letter in head for letter in "efl"):  # -e/-f/-l take a value
                return True
    return False


def _hookwise_change(argv: list[str]) -> bool:
    """Whether a hookwise command line may change the guard: any command but the read-only
    ones (``--help`` and ``--version`` alone print)."""
    words = [w for w in argv[1:] if not w.startswith("-")]
    if any(w.partition("=")[0] in HOOKWISE_TRUST_OPTIONS for w in argv[1:]):
        return True
    if not words:
        return False
    if words[0] not in HOOKWISE_READ_ONLY:
        return True
    subcommands = HOOKWISE_READ_ONLY[words[0]]
    if subcommands is not None and len(words) > 1 and words[1] not in subcommands:
        return True
    if words[0] not in HOOKWISE_CODE_RUNNING:
        return False
    naming, stop = HOOKWISE_CODE_RUNNING[words[0]]
    options = {w.partition("=")[0] for w in argv[1:] if w.startswith("-")}
    return stop not in options and (not naming or bool(options.intersection(naming)))


_XXD_VALUES = frozenset(["-c", "-cols", "-g", "-groupsize", "-l", "-len", "-o", "-offset",
                         "-s", "-seek", "-n", "-name"])  # fmt: skip


def _xxd_output(argv: list[str]) -> list[str]:
    """The file ``xxd`` writes: its second operand ("-" is stdout)."""
    operands: list[str] = []
    skip = False
    for word in argv[1:]:
        if skip:
            skip = False
        elif word in _XXD_VALUES:
            skip = True
        elif word == "-" or not word.startswith("-"):
            operands.append(word)
    return [w for w in operands[1:2] if w != "-"]


def _program(argv: list[str]) -> tuple[str, list[str]]:
    """The program and its argv, seeing through ``python -m hookwise``."""
    name = argv[0].rsplit("/", 1)[-1]
    if name.startswith("python") and "-m" in argv:
        at = argv.index("-m")
        if at + 1 < len(argv) and argv[at + 1] == "hookwise":
            return "hookwise", argv[at + 1 :]
    return name, argv


class _FoundError(Exception):
    """A guarded file the call changes (``unsure``: what it writes there is known only when
    it runs: unverifiable, not denied). One class for both: each class costs every hook
    process its creation."""

    def __init__(self, path: str, how: str, *, unsure: bool = False) -> None:
        super().__init__(path)
        self.path = path
        self.how = how
        self.unsure = unsure


class _EnvUnsureError(_FoundError):
    """What the call writes into a plain ``.env`` is known only when it runs."""


class _ProcessFileError(_FoundError):
    """The call writes a file that acts on processes (``how`` says which and why)."""


def _may_write_data_named(name: str, argv: list[str]) -> bool:
    """Cheap: whether data_writes.py needs a look (``git status`` and ``tar czf`` do not).
    The catalog's programs (``programs.DATA_WRITERS``) and what runs them (``python -m
    zipfile``, ``cmake -E tar``, ``busybox tar``)."""
    from hookwise.shell.programs import DATA_WRITERS, GIT_DATA_WRITERS, git_subcommand

    if name == "git":
        at = git_subcommand(argv)
        return at > 0 and argv[at] in GIT_DATA_WRITERS
    if name in ("cp", "rsync", "scp"):
        return any(w[:1] == "-" and ("r" in w or "R" in w or "a" in w) for w in argv[1:])
    if name.startswith("python") or name == "cmake":
        return any(w in ("zipfile", "tarfile", "tar") for w in argv[1:4])
    if name in ("tar", "gtar", "bsdtar"):  # (x in the mode word, or in any option cluster)
        return any("x" in w or w.startswith("--ex") or w == "--get" for w in argv[1:3]) or any(
            w.startswith(("--ex", "--get")) or (w[:1] == "-" and w[1:2] != "-" and "x" in w)
            for w in argv
        )
    return name in DATA_WRITERS or name == "busybox"


def _mode_elsewhere(name: str, argv: list[str]) -> bool:
    """Whether no operand is the mode or owner: given as ``--reference=F``, or chmod's
    symbolic mode spelled as an option (``chmod -x F``: red team s33 C)."""
    if any(w.startswith("--reference") for w in argv[1:]):
        return True
    return name == "chmod" and any(
        w[:1] == "-" and w[1:2] != "-" and set(w[1:]) <= set("rwxXst,=+-ugoa") and
        set(w[1:]) & set("rwxXst") for w in argv[1:]
    )  # fmt: skip


# git subcommands that may put another commit's tree in place (policy/trust/tree_moves)
_TREE_MOVERS = frozenset(
    ["checkout", "switch", "reset", "rebase", "bisect", "revert", "merge", "pull", "cherry-pick",
     "stash"]
)  # fmt: skip


def _check_tree_move(argv: list[str], cwd: str, guard: Guard) -> None:
    """A tracked guard file that the commit git moves the work tree to lacks is deleted
    (red team s33 F): read with git's trees, else unverifiable."""
    from hookwise.shell.programs import git_subcommand

    at = git_subcommand(argv)
    if at < 0 or any(w in ("-C", "--work-tree", "--git-dir") for w in argv[1:at]):
        return  # (elsewhere: data_writes.git_worktree)
    from hookwise.policy.trust.tree_moves import incoming, lacks, target, tracked_guards

    found = target(argv[at], argv[at + 1 :])
    merged = incoming(argv[at], argv[at + 1 :]) if found is None else None
    if found is None and merged is None:
        return
    guards = [p for p in (*guard.files, *project_paths(cwd)) if os.path.isfile(p)]
    tracked = tracked_guards(cwd, guards) if guards else []
    if found is None:
        if merged is not None and tracked:
            _check_incoming(merged, tracked, cwd, pulled=argv[at] == "pull")
        return
    rev, what = found
    for path, relative in tracked:
        if rev is None:
            raise _FoundError(path, f"{what}: it may lack {relative}", unsure=True)
        if "$" in rev or "`" in rev or lacks(cwd, rev, relative):
            raise _FoundError(path, f"{what}, whose tree lacks {relative} (it would be deleted)")


def _check_incoming(
    merged: tuple[list[Any], str], tracked: list[tuple[str, str]], cwd: str, *, pulled: bool
) -> None:
    """A merge, pull, rebase, cherry-pick, revert or stash pop whose incoming side changed
    a tracked guard file since the common base changes it (tree_moves.incoming): denied;
    unverifiable where git cannot read that side, or where a fetch comes first (pull)."""
    from hookwise.policy.trust.tree_moves import absent, changed

    checks, what = merged
    relatives = [relative for _path, relative in tracked]
    for check in checks:
        found = changed(cwd, check, relatives)
        if found is False or (found is None and absent(cwd, check, fetches=pulled)):
            continue  # (nothing of the guard's changes; or git stops: no such commit)
        name = " ".join(check[1])
        first = tracked[0][0]
        if found is None:
            raise _FoundError(first, f"{what} {name}, which git cannot read here: it may "
                              f"change one of {', '.join(relatives)}", unsure=True)  # fmt: skip
        raise _FoundError(first, f"{what} {name}, which changes one of {', '.join(relatives)}",
                          unsure=pulled)  # fmt: skip


def _check_data_writes(argv: list[str], name: str, cwd: str | None, guard: Guard) -> None:
    """A write of files whose names come from data (an archive, a patch, a listing) into
    a directory holding protected files: unverifiable (data_writes.py)."""
    if not _may_write_data_named(name, argv):
        return
    from hookwise.policy.trust.data_writes import data_writes

    for directory, what in data_writes(argv):
        for path in _expand(directory, cwd, guard.home) or [directory]:
            hit = guard.holds(path) if path.startswith("/") else None
            if hit is None and not path.startswith("/") and _has_marker(path):
                hit = path
            if hit is not None:
                raise _FoundError(
                    hit,
                    f"{what} into {directory} (their names are known only when it runs)",
                    unsure=True,
                )


def _may_merge(argv: list[str], history: Any) -> bool:
    """Cheap: whether foreign_history.py needs a look (``git pull`` of the upstream, ``git
    status`` do not): a fetch or pull with a source, FETCH_HEAD, or a line that fetched."""
    if history is not None and history.fetched:
        return True
    if any("FETCH_HEAD" in w for w in argv):
        return True
    if "fetch" not in argv and "pull" not in argv:
        return False
    at = argv.index("fetch") if "fetch" in argv else argv.index("pull")
    return any(w[:1] != "-" for w in argv[at + 1 :])


def _check_foreign(history: Any, cmd: Command, cwd: str, guard: Guard) -> None:
    """Another repository's history merged into a tree where the guard has files: the
    files it writes are named by commits nobody read (red team s27 K): unverifiable."""
    found = history.check(cmd, cwd, guard.env)
    if found is None:
        return
    tree, what = found
    hit = guard.holds(os.path.normpath(tree))
    if hit is not None:
        raise _FoundError(hit, f"{what} (their names are known only when it runs)", unsure=True)


def _chosen_place(cmd: Command) -> None:
    """A relative write in a directory the line chose with a pattern or a computed word
    (``cd .hookwis?``, ``pushd .hook*``, ``cd $(printf ...)``): that directory may be one
    that holds a guardrail, so the write is unverifiable."""
    for target in cmd.writes:
        if target and target[0] not in "/~" and target != "/dev/null":
            how = f"it writes {target} in a directory a pattern or a computed word chose"
            raise _FoundError(target, how, unsure=True)


def _unresolved(word: str, cwd: str | None, home: str, marked: bool, how: str) -> None:
    """A target hookwise cannot place (``cd "$X"; rm policy.yaml``, ``rm $D/.hookwise``):
    denied when it, or the line it is on, names a protected file."""
    if word.startswith("/") and "$" not in word and "`" not in word:
        return
    if word.startswith("/"):  # /proc/$PPID/...: a pid the line computes
        _process_file(word)
    if cwd is not None and resolve_path(word, cwd, home).absolute is not None:
        return
    if marked or _has_marker(word):
        raise _FoundError(word, how + ", a place known only when it runs")


def _computed_word(cmd: Command, word: str) -> bool:
    """Whether ``word`` (a target, or an option's value: ``dd of=$(...)``) is one the line
    computes when it runs (variables.made_on_line)."""
    if cmd.shapes is None:
        return False  # (every word known: variables stays cold)
    from hookwise.shell.variables import made_word  # loaded with the parser

    return made_word(cmd, word)


def _computed_target(word: str, guard: Guard, how: str) -> None:
    """A write to a path the line computes when it runs (``> "$(rev <<< ...)"``, ``cp x
    "$f"`` after ``f=$(...)``, red team s28 C): it may be any file, since what the line
    computes may hold ``/`` and ``..`` whatever its literal part, so hookwise's own files
    are among them; unverifiable, naming the one a policy change would reach first."""
    obeyed = set(obeyed_paths(guard.env))
    there = [p for p in guard.concrete if os.path.lexists(p)]
    near = there or [p for p in guard.concrete if p in obeyed]
    raise _FoundError(near[0] if near else word, how + ", a path the line computes", unsure=True)


def _choices(cmd: Command, word: str) -> list[str]:
    """The words a loop's ``"$f.orig"`` stands for (Command.choices: each name or pattern
    of ``for f in *.txt``), else ``word`` itself."""
    for index, full in enumerate(cmd.argv):
        if full == word and cmd.choices is not None and index in cmd.choices:
            return [value for value, _pattern in cmd.choices[index]]
    return [word]


def _check_target(
    cmd: Command, name: str, word: str, *, cwd: str | None, guard: Guard,
    how: tuple[bool, bool, bool, bool],
) -> None:  # fmt: skip
    """One target of a writer (``how``: tree, fills, marked, picked; _check_command)."""
    tree, fills, marked, picked = how
    _unresolved(word, cwd, guard.home, marked, f"`{name}` changes {word}")
    if _computed_word(cmd, word):
        _computed_target(word, guard, f"`{name}` changes {word}")
    for path in _expand(word, cwd, guard.home, guard.made):
        # ln replaces the name it is given, never writes through it
        named = fills and (name != "ln" or path.endswith(ENV_FILE))
        hit = guard.reaches(path, tree, named)
        if hit:
            raise _FoundError(hit, f"`{name}` changes {word}")
    if picked and word[:1] not in ("/", "~", ""):  # (as _chosen_place's redirects)
        how_ = f"`{name}` changes {word} in a directory a pattern or a computed word chose"
        raise _FoundError(word, how_, unsure=True)


def _check_command(
    cmd: Command, cwd: str | None, guard: Guard, marked: bool = False, picked: bool = False
) -> None:
    """Raise when ``cmd`` changes a protected file (unsure: may change one). ``picked``:
    it runs in a directory the line chose with a pattern or a computed word (CDPATH)."""
    home = guard.home
    if cmd.assigned:
        program = cmd.program
        for name in cmd.assigned:
            if name in GUARD_VARIABLES or (
                name in HOST_VARIABLES
                and (program in AGENT_CLIS or program in ("export", "declare", "typeset"))
            ):
                raise _FoundError(
                    f"${name}", f"sets {name} (it moves or loosens the guardrails of what runs)"
                )
    for name, value in cmd.env.items():  # GIT_TRACE=FILE git status: git appends to FILE
        from hookwise.shell.programs import ENV_OUTPUT_FILES  # (loaded: cmd came from it)

        if name.startswith(ENV_OUTPUT_FILES) and value[:1] in "/~$.":
            _unresolved(value, cwd, home, marked, f"sets {name}={value}")
            for path in _expand(value, cwd, home, guard.made):
                hit = guard.protected(path)
                if hit:
                    raise _FoundError(hit, f"sets {name}, a file the program writes")
    written = [*cmd.writes, *(cmd.argv[1:] if cmd.program == "tee" else [])]
    for target in written:
        # (what tee writes is what is piped into it)
        source = cmd.piped_from.text if cmd.piped_from is not None else ""
        # (the words as the shell gives them too: BASH_E""NV=x is BASH_ENV=x)
        text = cmd.text + "\n" + " ".join(cmd.argv) + "".join(cmd.stdin) + source
        if _env_file(target) and _names_guard_variable(text, target):
            raise _FoundError(
                target, f"writes a variable that decides what a hook runs into {target}"
            )
        if target.rstrip("/").rsplit("/", 1)[-1] == ENV_FILE[1:] and _mentions_guard_variable(text):
            raise _EnvUnsureError(
                target,
                f"writes text naming a variable that decides what a hook runs into {target}, "
                "set there or not only when it runs",
                unsure=True,
            )
    # a command with no words is a file another one's option or script names (git log
    # --output=F, sed 'w F', script F)
    how = "redirects output to" if cmd.argv else "writes"
    for target in cmd.writes:
        _unresolved(target, cwd, home, marked, f"{how} {target}")
        for path in _expand(target, cwd, home, guard.made):
            hit = guard.protected(path)
            if hit:
                raise _FoundError(hit, f"{how} {target}")
    for target in cmd.computed_writes:
        _computed_target(target, guard, f"{how} {target}")
    if not cmd.argv:
        return
    name, argv = _program(cmd.argv)
    _check_data_writes(argv, name, cwd, guard)
    if name == "hookwise":
        if _hookwise_change(argv):
            raise _FoundError("hookwise's own settings", f"runs `{' '.join(argv[:3])}`")
        if not any(w.partition("=")[0] in HOOKWISE_WRITING_OPTIONS for w in argv[1:]):
            return  # (a read-only command: it reads the files it is given)
    if name == "xxd":  # xxd [-r] [options] [infile [outfile]]: it writes its second operand
        for word in _xxd_output(argv):
            for path in _expand(word, cwd, home, guard.made):
                hit = guard.protected(path)
                if hit:
                    raise _FoundError(hit, f"`xxd` writes {word}")
    if name in READERS:
        return
    from hookwise.shell.programs import XARGS_INPUT  # loaded already: cmd came from it

    if XARGS_INPUT in argv and cmd.piped_from is not None and name not in READERS:
        # ``ls .hookwise/* | xargs rm``: the operands are what the piped command names
        for word in cmd.piped_from.argv[1:]:
            if _has_marker(word):
                raise _FoundError(word, f"`xargs {name}` is given {word!r}")
    targets: list[str] | None = None
    # find -delete removes what its tests select, not its start points as a whole
    tree = name in TREE_WRITERS and cmd.origin != "find -delete"
    from hookwise.shell.programs import excluded_words  # loaded with the parser

    excluded = excluded_words(name, argv)
    positional = _positionals(argv, excluded)
    if name in WRITERS_ALL:
        targets = positional
        if name in ("chmod", "chown", "chgrp", "setfacl") and targets:
            if not _mode_elsewhere(name, argv):  # (the first operand is the mode, owner, ACL)
                targets = targets[1:]
            tree = any(w in ("-R", "--recursive") or (w[:1] == "-" and "R" in w) for w in argv)
    elif name in WRITERS_LAST:
        if name in ("ln", "link") or (name == "cp" and _links(argv)):
            # a link, hard or symbolic, is the file under a name the guard does not know:
            # a write through it later (or after the hook looked at the name: a link made
            # by a job in the background) changes the file (red team s27 P)
            for word in positional[:-1] if len(positional) > 1 else positional:
                _unresolved(word, cwd, home, marked, f"`{name}` links {word}")
                if _computed_word(cmd, word):  # "$(rev <<< ...)": any file (red team s29 C)
                    _computed_target(word, guard, f"`{name}` links {word}")
                for path in _expand(word, cwd, home, guard.made):
                    # (a link of an env file is a read; a write through it is its own)
                    hit = guard.protected(path, written=False)
                    if hit:
                        raise _FoundError(hit, f"`{name}` links {word} under another name")
        directory = _target_dir(argv)
        if directory is not None:
            targets = [directory] + [directory + "/" + p.rsplit("/", 1)[-1] for p in positional]
        elif len(positional) >= 2:
            last = positional[-1]
            into = [last + "/" + p.rsplit("/", 1)[-1] for p in positional[:-1]]
            if not _is_dir(last, cwd, home):  # (`cp .env /tmp/backup` writes no .env)
                into = [t for t in into if not t.endswith(ENV_FILE)]
            targets = [last, *into]
        else:
            targets = positional
    elif name in IN_PLACE and _in_place(argv):
        targets = positional
    elif name == "sed":
        # without -i, sed reads its files; only its script can name a file to write (w FILE)
        scripts = [w for i, w in enumerate(argv) if i > 0 and argv[i - 1] in ("-e", "--expression")]
        for word in scripts or positional[:1]:
            if _has_marker(word):
                raise _FoundError(word, "`sed` writes with its script")
        return
    elif name == "dd":
        targets = [w[3:] for w in argv[1:] if w.startswith("of=")]
    elif name == "git":
        sub = next((w for w in argv[1:] if not w.startswith("-")), "")
        targets = positional[1:] if sub in GIT_WRITERS else []
        tree = sub in ("rm", "mv")
        if sub in _TREE_MOVERS and cwd is not None:
            _check_tree_move(argv, cwd, guard)
        if sub == "config":  # git config -f F a.b c: F is the file it sets a value in
            targets = [
                v
                for i, w in enumerate(argv[1:], start=1)
                for v in (
                    [argv[i + 1]] if w in ("-f", "--file") and i + 1 < len(argv) else
                    [w[7:]] if w.startswith("--file=") else
                    [w[2:]] if w.startswith("-f") and len(w) > 2 and w[1] != "-" else []
                )
            ]  # fmt: skip
        if "GIT_WORK_TREE" in cmd.env or any(w.startswith(_GIT_ELSEWHERE) for w in argv):
            # git -C D / --work-tree=D / --prefix=D: the files are D's (cold: rare)
            from hookwise.policy.trust.data_writes import git_worktree

            targets, into, what = git_worktree(argv, cmd.env)
            for word in targets:  # (named: a write of that file, before the unsure)
                for path in _expand(word, cwd, home, guard.made):
                    hit = guard.protected(path, tree)
                    if hit:
                        raise _FoundError(hit, f"`git {sub}` changes {word}")
            for directory in into:
                for path in _expand(directory, cwd, home, guard.made):
                    if cwd is not None and path == os.path.normpath(cwd):
                        continue  # (git -C . pull: as `git pull` itself)
                    hit = guard.holds(path) or guard.protected(path)
                    if hit is not None:
                        raise _FoundError(hit, f"{what} into {directory}", unsure=True)
    elif name == "find":
        acts = {"-delete", "-exec", "-execdir", "-ok", "-okdir", "-fprint", "-fprintf", "-fls"}
        if not acts.intersection(argv):
            return
        _check_find(argv, cwd, guard)
        return  # what -exec runs is a command of its own, checked as one
    if name in _TREE_COPIERS and len(positional) >= 2:
        _shell_plants(name, argv, positional, cwd, guard)
    if targets is not None:
        for target in targets:
            # an env file removed, moved away or chmodded sets nothing for a host to export
            fills = name not in REMOVERS and not (name == "mv" and target != positional[-1])
            for word in _choices(cmd, target):
                state = (tree, fills, marked, picked)
                _check_target(cmd, name, word, cwd=cwd, guard=guard, how=state)
        if name != "find":
            return
    # any other program: a word or its input that names a protected file
    for index, word in enumerate(argv[1:], start=1):
        if index in excluded:
            continue
        if _has_marker(word):
            raise _FoundError(word, f"`{name}` is given {word!r}")
        if (
            "/" in word
            or word[:1] in ".~$"
            or (word[:1] != "-" and cwd and os.path.lexists(os.path.join(cwd, word)))
        ):
            for path in _expand(word, cwd, home, guard.made):
                hit = guard.protected(path, written=False)
                if hit:
                    raise _FoundError(hit, f"`{name}` is given {word}")
    for text in cmd.stdin:
        if _has_marker(text):
            raise _FoundError("a protected file", f"`{name}` reads a script that names one")


# programs that copy or move a directory with every name under it (Guard.plants)
_TREE_COPIERS = frozenset(["cp", "mv", "rsync"])


def _shell_plants(
    name: str, argv: list[str], positional: list[str], cwd: str | None, guard: Guard
) -> None:
    """``cp -r stage/. pkg``, ``mv stage pkg``: each source directory's names written
    under the destination (:meth:`Guard.plants`, as for a tool's copy or move)."""
    from hookwise.shell.exclusions import leaves_out  # (loaded: cmd came from the parser)

    directory = _target_dir(argv)
    target = directory if directory is not None else positional[-1]
    sources = positional if directory is not None else positional[:-1]
    for into in _expand(target, cwd, guard.home, guard.made)[:1]:
        for word in sources:
            for source in _expand(word, cwd, guard.home, guard.made):
                found = guard.plants(source, into, lambda inner: leaves_out(name, argv, inner))
                if found is not None:
                    how = f"`{name}` copies or moves the directory {word} to {target}"
                    if found[1]:
                        how += " (its tree is too large or unreadable to list)"
                    raise _FoundError(found[0], how, unsure=found[1])


def _check_find(argv: list[str], cwd: str | None, guard: Guard) -> None:
    """``find . -name policy.yaml -delete``: a protected file find's tests select under a
    start point (trust/find_selects.py, imported for such a find only)."""
    from hookwise.policy.trust.find_selects import find_changes, find_selects

    if not find_changes(argv, READERS):
        return
    items: list[str] = []
    for item in guard.concrete:
        items += [item, *_entries(item)]  # .hookwise/: its files too
    found = find_selects(argv, items, lambda start: _expand(start, cwd, guard.home, guard.made))
    if found is not None:
        raise _FoundError(*found)


# programs that make a name a link or another directory than it was (kernel_path's ``made``)
_RELINKERS = frozenset(["ln", "link", "mv", "cp", "rsync", "install", "rename"])


def _made(commands: list[Command], dirs: list[str | None], home: str) -> tuple[str, ...]:
    """The operands of the line's commands that may create, move or link a name, absolute."""
    out: list[str] = []
    for cmd, cwd in zip(commands, dirs, strict=True):
        if not cmd.argv or os.path.basename(cmd.argv[0]) not in _RELINKERS or cwd is None:
            continue
        for word in _positionals(cmd.argv):
            ref = resolve_path(word, cwd, home)
            if ref.absolute is not None:
                out.append(ref.absolute)
    return tuple(out)


def _whole_paths(ev: Event, guard: Guard) -> None:
    """A file tool's path names a file to write or a tree to move, delete, rename or merge
    into, and its name does not say which (``move_file``, ``delete_directory``, ``copy
    {source, destination}``): each path is read whole (:meth:`Guard.reaches`; a write of
    content into a directory fails anyway). A tool that writes (mapped to write or edit,
    as the MCP proxy maps an MCP tool by its own name) is denied there; a reader is let
    be; any other is unverifiable (red team s28 F1-F3)."""
    for ref in ev.paths:
        hit = guard.reaches(ref.absolute, True) if ref.absolute is not None else None
        if not hit:
            continue
        tool = ev.tool or ""
        if tool not in canonical.CANONICAL_TOOLS:  # (cold: a path above a guard)
            tool = canonical.default_tool(ev.host_tool or tool)
            if tool in READ_TOOLS:
                return
        how = f"{ev.host_tool} may move, delete or replace {ref.raw} as a whole"
        raise _FoundError(hit, how, unsure=tool not in canonical.CANONICAL_TOOLS)
    _tool_plants(ev, guard)


def _tool_plants(ev: Event, guard: Guard) -> None:
    """A tool copying or moving a directory (``copy {source, destination}``, a move tool's
    keys on any tool that is no reader) writes every name under it at the destination
    (:meth:`Guard.plants`)."""

    def absolute(key: str) -> str | None:
        value = ev.input.get(key)
        if not isinstance(value, str) or not value:
            return None
        return canonical.tool_paths(value, ev.cwd, guard.home)[0].absolute

    sources = [(k, absolute(k)) for k in canonical.MOVE_SOURCE_KEYS]
    targets = [
        (k, absolute(k)) for k in canonical.MOVE_PATH_KEYS if k not in canonical.MOVE_SOURCE_KEYS
    ]
    for key, source in sources:
        for _, target in targets:
            if source is None or target is None:
                continue
            found = guard.plants(source, target)
            if found is not None:
                how = f"{ev.host_tool} copies or moves the directory {ev.input[key]} to {target}"
                if found[1]:
                    how += " (its tree is too large or unreadable to list)"
                raise _FoundError(found[0], how, unsure=found[1])


def check(ev: Event, guard: Guard) -> str | None:
    """Why ``ev`` would change a protected file (None: it does not, or may: verdict)."""
    found = verdict(ev, guard)
    return found[1] if found is not None and found[0] == "deny" else None


def verdict(ev: Event, guard: Guard) -> tuple[str, str] | None:
    """("deny", why) when ``ev`` would change a protected file; ("unverifiable", why)
    when it writes files whose names are known only when it runs where they live."""
    try:
        if ev.tool == canonical.SHELL:
            script = ev.script
            if script is None:
                return None
            chosen: list[bool] = []
            dirs = command_dirs(
                script.commands, ev.shell_cwd, guard.home, chosen, ev.env.get("CDPATH")
            )
            # where a directory is unknown, a line naming a protected file is enough
            # (and where a target is: ``declare -n r=x; r=.hookwise/policy.yaml; > "$x"``)
            marked = _has_marker(ev.command or "")
            guard.made = _made(script.commands, dirs, guard.home)
            history: Any = None  # what the line fetched from outside its remotes
            for cmd, cwd, picked in zip(script.commands, dirs, chosen, strict=True):
                if cmd.argv and cmd.argv[0] in ("cd", "pushd") and not cmd.writes:
                    continue
                _check_command(cmd, cwd, guard, marked, picked)
                if cmd.program == "git" and cwd is not None and _may_merge(cmd.argv, history):
                    if history is None:
                        from hookwise.policy.trust.foreign_history import History

                        history = History()
                    _check_foreign(history, cmd, cwd, guard)
                if picked:  # cd .hookwis? && echo x > policy.yaml: the pattern's directory
                    _chosen_place(cmd)  # (after: a write known to hit a guard is denied)
            if any(  # a plain .env written (env_writes.py, cold)
                key.rstrip("/").rsplit("/", 1)[-1] == ENV_FILE[1:]
                for key in (*script.written, *script.copies)
            ):
                from hookwise.policy.trust import env_writes

                env = env_writes.check(
                    script, dirs, ev.shell_cwd, guard.home, _names_guard_variable
                )
                if env is not None:
                    error = _FoundError if env[0] == "deny" else _EnvUnsureError
                    raise error(env[1], env[2], unsure=env[0] != "deny")
            return None
        if ev.tool in READ_TOOLS or ev.tool is None:
            return None
        for ref in ev.paths:
            if ref.absolute is not None:
                hit = guard.protected(ref.absolute)
                if hit:
                    raise _FoundError(hit, f"{ev.host_tool} writes {ref.raw}")
            elif _has_marker(ref.raw):
                raise _FoundError(ref.raw, f"{ev.host_tool} writes {ref.raw}")
        for ref in ev.paths:  # through a link the session can change (swappable_link)
            if ref.shape is not None and ref.shape[0][0] == "K":
                hit = guard.protected(f"{UNKNOWN_DIR}{ref.shape[1][1]}")
                if hit:
                    how = (
                        f"{ev.host_tool} writes {ref.raw} through the link {ref.shape[0][1]}, "
                        "which this session can change before the file is opened"
                    )
                    raise _FoundError(hit, how, unsure=True)
        for ref in ev.paths:  # export HOOKWISE_ON_ERROR=allow into ~/.bashrc, .envrc
            if _env_file(ref.raw) and any(
                isinstance(v, str) and _names_guard_variable(v, ref.raw)
                for v in (ev.input.get("content"), ev.input.get("new_string"), ev.patch)
            ):
                raise _FoundError(
                    ref.raw, f"{ev.host_tool} writes a variable that decides what a hook runs"
                )
        patch = ev.patch
        if patch is not None and _has_marker(patch):
            raise _FoundError("a protected file", "the patch names one")
        if ev.tool != canonical.MCP_RESOURCE:  # (a resource read reads a file)
            _whole_paths(ev, guard)
    except _EnvUnsureError as unsure:
        return "unverifiable", (
            f"hookwise cannot verify this command: it {unsure.how}, and a host (Gemini CLI) "
            f"exports {unsure.path} to every hook, where a variable such as HOOKWISE_POLICY "
            "or BASH_ENV decides what the hook runs; write the lines out (echo, printf, a "
            "here-document), or copy a file that is already there"
        )
    except _ProcessFileError as process:
        return "unverifiable", (
            f"hookwise cannot verify this command: {process.how}. Write such a file from "
            "outside the agent, or name a process the line starts itself"
        )
    except _FoundError as found:
        if found.unsure:
            return "unverifiable", (
                f"hookwise cannot verify this command: {found.how}, and {found.path} is "
                "one of hookwise's own guardrails there (a policy file, the trust store or "
                "a host's hook settings); extract or copy elsewhere, or name the files"
            )
        what = code_reasons(guard.env, guard.cwd).get(found.path) or (
            "a policy file, the trust store, the audit log, a host's hook "
            "settings or an env file a host exports to its hooks"
        )
        return "deny", (
            f"hookwise protects its own guardrails: this call {found.how}, which would change "
            f"{found.path} ({what}). An agent cannot change "
            "them; a person can, outside the agent (or "
            "turn this off with settings.self_protection: false in the user policy)."
        )
    return None
