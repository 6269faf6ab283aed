"""The host registry: every agent hookwise speaks to, and where each fact about it lives.

One row per host: its name (the word used in code, CLI flags and docs), its title, the
settings files that hold its hooks (in a project and in the user's home), the unit of a
hook's ``timeout``, its pre-tool event and shell tool, how a hook can tell that a person
watches the session (``attended``, see below), and the protocol module holding its event
table (events with kind, order, matcher field, input fields, decision pattern and default
timeout), reached through ``event_names`` and ``table``.

The order of ``HOST_NAMES`` is the tie-break order of detection and of listings. The
``hookwise hook`` path reads this module, so it imports nothing at run time: no typing,
no dataclasses (each costs that path milliseconds).
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any, Final, Literal

    from hookwise.protocol.dialect import DialectSpec

    Host = Literal[
        "gemini",
        "claude",
        "codex",
        "copilot",
        "qwen",
        "opencode",
        "kilo",
        "droid",
        "cline",
        "cursor",
        "crush",
        "windsurf",
        "kiro",
        "augment",
    ]
    """The hosts' names, for type checks and request schemas (the same as HOST_NAMES)."""

HOST_NAMES: Final[tuple[Host, ...]] = (
    "gemini",
    "claude",
    "codex",
    "copilot",
    "qwen",
    "opencode",
    "kilo",
    "droid",
    "cline",
    "cursor",
    "crush",
    "windsurf",
    "kiro",
    "augment",
)

# ``attended``: how a hook can tell an interactive session (a person can answer the host's
# own prompt) from a headless one (``claude -p``, ``gemini -p``, ``codex exec``), observed
# with Claude Code 2.1.330, Codex 0.169.0 and Gemini CLI 0.61.0:
#
# - ("env", NAME, VALUE): the host gives its hooks NAME=VALUE in an attended session.
#   Claude Code sets CLAUDE_CODE_SESSION_ATTENDED=1 interactively and 0 under ``-p`` (and
#   CLAUDE_CODE_ENTRYPOINT=cli / sdk-cli); the payload is the same in both modes.
# - ("process", PROGRAM, FLAGS): nothing in the payload or the environment says it, so the
#   hook looks at its nearest ancestor process whose command line names PROGRAM: attended
#   when that process has a terminal on stdin and none of FLAGS (Gemini CLI runs
#   non-interactively with ``-p``/``--prompt`` or without a terminal; it gives hooks only
#   GEMINI_SESSION_ID, GEMINI_PROJECT_DIR, GEMINI_CWD, GEMINI_PLANS_DIR). Linux (/proc) only;
#   elsewhere the session counts as headless.
# - None: the host cannot show a prompt for a hook's ``ask`` on its pre-tool event at all
#   (Codex: ``ask`` there is ignored, and the payload and environment are the same in
#   ``codex exec`` and in the TUI).
#
# ``env_files``: the dotenv files a host loads into its own environment at start, which its
# hooks inherit: (user files, relative to the home as ``user_files``; project files, looked
# for in the start directory and each parent, the first found loaded; whether a file's
# values override the environment). Codex (codex-rs/arg0 load_dotenv): $CODEX_HOME/.env,
# overriding, keys starting with CODEX_ skipped. Gemini CLI (settings.ts findEnvFile and
# loadEnvironment, 0.61.0): from its cwd up, ``.gemini/.env`` then ``.env`` in each
# directory, then ``~/.gemini/.env``, ``~/.env``; only in a trusted workspace; the first file
# found, setting only variables that are unset.
#
# ``extension_env_files``: globs (relative to the home, as ``user_files``) of an extension's
# settings file, merged last into the environment of that extension's hooks and MCP
# servers. Gemini CLI: ``~/.gemini/extensions/<name>/.env`` (EXTENSION_SETTINGS_FILENAME,
# config/extensions/variables.ts; merged into each command hook's env, extension-manager.ts).


class HostInfo:
    """One host's row: every fact hookwise needs about a host that is not an event's."""

    __slots__ = (
        "attended",
        "code_files",
        "commands",
        "config_dir",
        "detect",
        "env_files",
        "extension_env_files",
        "failure",
        "handler",
        "hook_approval",
        "hook_globs",
        "hooks_layout",
        "install_files",
        "install_steps",
        "jsonc",
        "mcp_fields",
        "mcp_names",
        "module",
        "name",
        "native_rules",
        "pre_tool_event",
        "project_files",
        "project_trust",
        "registrations",
        "settings_loader",
        "shell",
        "shell_tool",
        "supports",
        "table_name",
        "timeout_unit",
        "title",
        "tools",
        "trust",
        "user_files",
        "verified",
    )

    def __init__(  # noqa: PLR0917 - one row of the table, in column order
        self,
        name: Host,
        title: str,
        project_files: tuple[str, ...],
        user_files: tuple[str, ...],
        timeout_unit: Literal["ms", "s"],
        pre_tool_event: str,
        shell_tool: str,
        module: str,
        table_name: str | None = None,
        attended: tuple[str, ...] | None = None,
        *,
        tools: dict[str, str],
        config_dir: tuple[str | None, str, str],
        install_files: dict[str, str],
        failure: dict[str, str],
        detect: tuple[tuple[str, str, str], ...] = (),
        hooks_layout: Literal["groups", "flat", "top", "script", "plugin"] = "groups",
        handler: tuple[str, str, tuple[tuple[str, str | bool], ...]] = ("command", "timeout", ()),
        jsonc: bool = False,
        supports: frozenset[str] = frozenset(),
        trust: str = "",
        hook_globs: dict[str, str] | None = None,
        project_trust: tuple[tuple[str, str], ...] | None = None,
        install_steps: tuple[str, ...] = ("trust_note", "failure_note"),
        env_files: tuple[tuple[str, ...], tuple[str, ...], bool] = ((), (), False),
        extension_env_files: tuple[str, ...] = (),
        verified: str = "observed",
        native_rules: str = "",
        code_files: dict[str, tuple[str, ...]] | None = None,
        shell: tuple[str, ...] = ("/bin/sh", "-c"),
        hook_approval: str = "",
        settings_loader: str = "",
        mcp_names: tuple[str, str, str, int, str, str] | None = None,
        mcp_fields: dict[str, tuple[str | None, str, str, str]] | None = None,
        commands: tuple[str, ...] = (),
        registrations: tuple[tuple[str, ...], ...] = (),
    ) -> None:
        self.name = name
        self.title = title
        # the programs a person starts the host with, as PATH finds them (its name unless
        # told): what runs its hooks, so a file put before it on PATH, or a change of its
        # install, switches every hook off (policy/trust/hook_code.py, red team s33 #5)
        self.commands = commands or (name,)
        # the subcommands of those programs that write the host's hook, MCP server or
        # extension registrations (``claude mcp add``, ``gemini extensions link``), each
        # as its words: a guard-file write done by a program, judged by self-protection as
        # a direct write of those files is (red team s35 MCP F7; read from each CLI's own
        # --help: Claude Code 2.1.330, Gemini CLI 0.61.0, Codex 0.169.0, Qwen Code)
        self.registrations = registrations
        self.project_files = project_files  # relative to the project: files holding hooks
        self.user_files = user_files  # relative to the home directory
        self.timeout_unit = timeout_unit  # the unit of a hook's ``timeout``
        self.pre_tool_event = pre_tool_event
        self.shell_tool = shell_tool
        self.module = module  # the protocol module with its event table and EVENT_NAMES
        self.table_name = table_name  # its DialectSpec there, for hosts read per run
        self.attended = attended  # how a hook tells an interactive session (see above)
        # the host's tool names -> hookwise's canonical tools (MCP and unknown keep theirs)
        self.tools = tools
        # (variable that moves it, its default place under HOME, its place under the
        # variable's directory: "" when the variable names it, "opencode" under
        # $XDG_CONFIG_HOME; $GEMINI_CLI_HOME names HOME itself, where Gemini's default is "")
        self.config_dir = config_dir
        # scope -> the file ``hookwise install`` writes: "project" relative to the project,
        # "user" relative to config_dir
        self.install_files = install_files
        # what the host does with the tool when a pre-tool hook "crash"es (exit 1) or hits
        # its "timeout": "runs" (fails open) or "blocked" (fails closed), as observed;
        # "waits": there is no timeout; "note": what else install and doctor say
        self.failure = failure
        # what tells this host's payload from another's with the same event name, tried in
        # order (adapters.detect_platform): ("fields", "A B", EXCEPT): the payload has every
        # field named, unless its event is EXCEPT; ("env", NAME, ""), ("env_prefix", P, "");
        # ("unnamed", FIELD, ""): a payload that names no event but has FIELD is this host's
        self.detect = detect
        # "groups": event -> [{matcher, hooks: [handler]}] under "hooks"; "top": the same
        # with the event keys at the file's top level (Droid); "flat": event -> [handler]
        # in a file of hookwise's own; "script": an executable hook file of hookwise's own
        # named after the event (Cline); "plugin": no hooks settings, hookwise's JavaScript
        # plugin file holds the handler (policy/install/plugin_files.py)
        self.hooks_layout = hooks_layout
        # (command key, timeout key, fixed keys) of one command handler
        self.handler = handler
        self.jsonc = jsonc  # the settings file takes comments
        # what hookwise does for the host: "hook" (answers it), "install", "runtime"
        # (HookSystem/fire/simulate), "scan", "coverage" (reads its session records),
        # "migrate", "run" (started under `hookwise run`)
        self.supports = supports
        self.trust = trust  # when the host runs project hooks at all (install and doctor say it)
        # scope -> a glob of every file holding hooks, where the host reads a directory
        # (project: relative to the project, user: to config_dir); else the files above
        self.hook_globs = hook_globs or {}
        # None: project hooks run without any trust step (as far as hookwise reads them);
        # else they run only in a trusted folder, and these (VARIABLE, VALUE) trust it
        self.project_trust = project_trust
        # what ``hookwise install`` does beside writing the hooks (install/plan.py's steps):
        # "hook_trust" (record the hooks' trusted hashes, Codex), "folder_trust_note" and
        # "ask_note" (Gemini's folder trust and ask handling, checked against its settings),
        # "trust_note" and "failure_note" (say when the host runs project hooks, and what a
        # failing or slow hook does, where hookwise has no checker of the host's own),
        # "plugin_loading_note" (what the host waits for before it loads any plugin, and the
        # switches that stop it: plugin_files.loading_notes), "in_place" (a "flat" layout
        # in a file that is not hookwise's own: its entries are edited in place, every other
        # byte kept: Crush's crush.json, Kiro's agent file), "sh_script" (the command must
        # be a .sh file: install writes one beside the settings and registers its path)
        self.install_steps = install_steps
        self.env_files = env_files  # dotenv files loaded at start, exported to hooks (above)
        self.extension_env_files = extension_env_files  # (above; globs relative to HOME)
        # scope -> paths whose files make the host load code, hooks or permission rules of
        # their own beside its hook files (Gemini CLI's extensions and policies, Claude
        # Code's plugins and the hooks in the front matter of its agents, skills and
        # commands, Codex's exec-policy rules, OpenCode's and Kilo's settings files, whose
        # ``plugin`` key names npm packages and file:// paths and ``mcp`` key servers):
        # "project" relative to the project, "user" relative to config_dir; "dir/" is the
        # directory whole, a file is made neutral when missing. ``hookwise run`` makes them
        # read-only: adding one is a guard decision, as adding a hook is (an extension's
        # BeforeTool hook rewrites the tool_input hookwise checked); scan reads the files.
        self.code_files = code_files or {}
        # "observed": its table was checked on the real CLI offline; "reference": built from
        # its published reference only (no CLI runs here), which docs and doctor say
        self.verified = verified
        # why its own permission system holds none of the policy (`policy export`), for a
        # host without an exporter (policy/export/build.EXPORTERS); "" for one with
        self.native_rules = native_rules
        # the argv a hook command is run with, the command appended (doctor's self-test
        # runs the registered command the same way)
        self.shell = shell
        # what the host's approval of a project hook is keyed on, where that is not the code
        # the hook runs: a script the command names can change with no new prompt (scan's
        # trust-by-command-line, GC#27901); "" where hookwise knows no such approval
        self.hook_approval = hook_approval
        # the package of config/ that reads the host's settings as the host does, where it
        # has one of its own (its switches, trust stores, layers: doctor, `hooks list|trust`
        # read through it); "": its hooks are plain files read through this row
        # (config/host_hooks.py, config/script_hooks.py)
        self.settings_loader = settings_loader
        # how the host names an MCP tool to the model, its permission engine and its hooks'
        # ``tool_name``: (prefix, put before "<server><separator><tool>" unless that starts
        # with it already; the separator; the characters it keeps; the length past which it
        # changes the name (0: never); "silent" where a character outside those it keeps
        # is made "_" with no mark, "marked" where any change (such a character, or the
        # length) gives the name the mark instead, "first" where the name is read at its
        # first separator only and what the host changes is not recorded, "encoded" where
        # such a character is changed otherwise than hookwise makes names (GitHub Copilot
        # CLI: "-", a non-ASCII name IDNA-encoded) and a name past the length cut to it,
        # both with no mark (a rule naming a server or tool with such a character, and a
        # name as long as the bound, leave the rules on MCP calls unverifiable); the mark: "..."
        # (the first 30 and the last 30 characters around it), "hex:N" or "base36:N" ("_"
        # and N such characters at its end, a hash of the name as it was)). None: not
        # recorded, so a tool outside ``tools`` may be an MCP tool whose server and tool
        # cannot be told. :func:`mcp_call_name`; the hook reads a name so
        # (policy/canonical.mcp_name_readings), and a name with the mark, or a character the
        # host may have changed, leaves each rule on the server or tool that could hold
        # unverifiable (policy/rules/mcp_unsure.py)
        self.mcp_names = mcp_names
        # where a hook payload names an MCP call's server, tool and arguments other than in
        # the tool's name: host tool or event -> (server key, None where the payload names no
        # server; tool key; arguments key; "json" where the arguments are a JSON text,
        # "object" where they are an object) (policy/adapters: Cline, Cursor, Windsurf)
        self.mcp_fields = mcp_fields or {}


_ALL: Final = frozenset(("hook", "install", "runtime", "scan", "coverage", "migrate", "run"))

HOSTS: Final[dict[Host, HostInfo]] = {
    "gemini": HostInfo(
        "gemini",
        "Gemini CLI",
        (".gemini/settings.json",),
        (".gemini/settings.json",),
        "ms",
        "BeforeTool",
        "run_shell_command",
        "hookwise.protocol.gemini",
        registrations=(
            ("mcp", "add"),
            ("mcp", "remove"),
            ("mcp", "enable"),
            ("mcp", "disable"),
            ("extensions", "install"),
            ("extensions", "uninstall"),
            ("extensions", "link"),
            ("extensions", "update"),
            ("extensions", "enable"),
            ("extensions", "disable"),
        ),
        attended=("process", "gemini", "-p", "--prompt"),
        tools={
            "run_shell_command": "shell",
            "write_file": "write",
            "replace": "edit",
            "read_file": "read",
            "read_many_files": "read",
            "glob": "glob",
            "grep_search": "grep",  # its name since 0.5 (the first is what migrate writes)
            "search_file_content": "grep",
            "list_directory": "ls",
            "web_fetch": "web_fetch",
            "google_web_search": "web_search",
            "save_memory": "memory",
            "write_todos": "todo",
            "activate_skill": "skill",
            # 0.61 (bundle: AGENT_TOOL_NAME = "invoke_agent", `agent_name` and a prompt):
            # starts a subagent (red team s26 F9: `tool: task` did not hold)
            "invoke_agent": "task",
            # 0.61 (bundle's tool schemas): list_mcp_resources {serverName?} names its
            # server; read_mcp_resource {uri: "SERVER:URI"} too, before the first colon
            # (policy/canonical.mcp_resource_call)
            "list_mcp_resources": "mcp_resource",
            "read_mcp_resource": "mcp_resource",
        },
        config_dir=("GEMINI_CLI_HOME", "", ""),
        # (extension-enablement.json is inside: config/gemini/extensions.py)
        # (policies/: the policy engine's user tier, where install --native writes; any file
        # there is a rule that can approve a tool call)
        code_files={"user": (".gemini/extensions/", ".gemini/policies/")},
        install_files={"project": ".gemini/settings.json", "user": ".gemini/settings.json"},
        failure={"crash": "runs", "timeout": "runs"},
        detect=(("fields", "timestamp", ""), ("env", "GEMINI_SESSION_ID", "")),
        handler=("command", "timeout", (("name", "hookwise"),)),
        jsonc=True,
        supports=_ALL,
        settings_loader="hookwise.config.gemini",
        # 0.61.0 generateValidName (bundle chunk-JDPZ4CE3.js): "mcp_" before server + "_" +
        # tool unless it starts so, every character outside [a-zA-Z0-9_.:-] made "_", a name
        # over 63 characters cut to its first 30 + "..." + its last 30 (observed: red team
        # s28 F11); its policy engine compares a rule's mcp_<mcpName>_<toolName> with it
        mcp_names=("mcp_", "_", "a-zA-Z0-9_.:-", 63, "silent", "..."),
        install_steps=("folder_trust_note", "ask_note"),
        trust="project and user settings hooks run only in a trusted folder; headless mode "
        "exits 55 in an untrusted one",
        env_files=((".gemini/.env", ".env"), (".gemini/.env", ".env"), False),
        extension_env_files=(".gemini/extensions/*/.env",),
        shell=("bash", "-c"),
        hook_approval="name and command",
    ),
    "claude": HostInfo(
        "claude",
        "Claude Code",
        (".claude/settings.json", ".claude/settings.local.json"),
        (".claude/settings.json",),
        "s",
        "PreToolUse",
        "Bash",
        "hookwise.protocol.claude",
        "CLAUDE",
        registrations=(
            ("mcp", "add"),
            ("mcp", "add-json"),
            ("mcp", "add-from-claude-desktop"),
            ("mcp", "remove"),
            ("mcp", "reset-project-choices"),
            ("plugin", "install"),
            ("plugin", "i"),
            ("plugin", "uninstall"),
            ("plugin", "remove"),
            ("plugin", "enable"),
            ("plugin", "disable"),
            ("plugin", "update"),
            ("plugin", "restore-set-aside"),
            ("plugin", "marketplace", "add"),
            ("plugin", "marketplace", "remove"),
            ("plugin", "marketplace", "rm"),
            ("plugin", "marketplace", "update"),
        ),
        attended=("env", "CLAUDE_CODE_SESSION_ATTENDED", "1"),
        tools={
            "Bash": "shell",
            "Write": "write",
            "Edit": "edit",
            "MultiEdit": "edit",
            "Read": "read",
            "Glob": "glob",
            "Grep": "grep",
            "LS": "ls",
            "WebFetch": "web_fetch",
            "WebSearch": "web_search",
            "Task": "task",
            "Agent": "task",
            # 2.1.330: runs a JS workflow whose agent() calls start subagents (red team s25 F11)
            "Workflow": "task",
            "TodoWrite": "todo",
            "NotebookEdit": "notebook_edit",
            "NotebookRead": "read",
            "Skill": "skill",
            # 2.1.330: a shell script "in the same shell environment as Bash", in the
            # background (red team s25 F1: it had no decision while Bash was denied)
            "Monitor": "shell",
            # 2.1.330: Windows' shell tool (its input's `command`, as Bash's); Claude's own
            # rules pair Bash(x) with PowerShell(x) (red team s26 F6: no decision for it).
            # Its line is PowerShell, read here as a POSIX shell line
            "PowerShell": "shell",
            "ReadMcpResourceTool": "mcp_resource",
            "ListMcpResourcesTool": "mcp_resource",
        },
        # mcp__<server>__<tool>, read at its first "__" as its permission rules read it
        # ("first"); which characters it changes is not recorded here
        mcp_names=("mcp__", "__", "", 0, "first", ""),
        config_dir=("CLAUDE_CONFIG_DIR", ".claude", ""),
        code_files={
            "project": (".claude/agents/", ".claude/skills/", ".claude/commands/"),
            "user": ("agents/", "skills/", "commands/", "plugins/"),
        },
        install_files={"project": ".claude/settings.json", "user": "settings.json"},
        failure={"crash": "runs", "timeout": "runs"},
        supports=_ALL,
        settings_loader="hookwise.config.claude",
        install_steps=(),
        trust="hooks run in an untrusted workspace too; its project permissions do not",
    ),
    "codex": HostInfo(
        "codex",
        "Codex",
        (".codex/hooks.json", ".codex/config.toml"),
        (".codex/hooks.json", ".codex/config.toml"),
        "s",
        "PreToolUse",
        "Bash",
        "hookwise.protocol.codex",
        "CODEX",
        registrations=(("mcp", "add"), ("mcp", "remove")),
        tools={
            "Bash": "shell",
            "shell": "shell",
            "local_shell": "shell",
            "exec_command": "shell",
            "apply_patch": "edit",
            "update_plan": "todo",
            "view_image": "read",
            "web_search": "web_search",
        },
        # as Claude Code's (its hooks' tool_name for an MCP tool: mcp__<server>__<tool>)
        mcp_names=("mcp__", "__", "", 0, "first", ""),
        config_dir=("CODEX_HOME", ".codex", ""),
        install_files={"project": ".codex/hooks.json", "user": "hooks.json"},
        # rules/: its exec-policy rules (install --native writes there); any file is a rule
        # that can approve a command
        code_files={"user": ("rules/",)},
        failure={"crash": "runs", "timeout": "runs"},
        detect=(
            ("fields", "turn_id", ""),
            ("fields", "model", "SessionStart"),
            ("env_prefix", "CODEX_", ""),
        ),
        supports=_ALL,
        settings_loader="hookwise.config.codex",
        install_steps=("hook_trust",),
        trust="hooks run only once their hash is trusted, and project .codex/ loads only in a "
        "trusted project",
        env_files=((".codex/.env",), (), True),
    ),
    "copilot": HostInfo(
        "copilot",
        "GitHub Copilot CLI",
        (".github/hooks/hookwise.json",),
        (".copilot/hooks/hookwise.json",),
        "s",
        # install registers the PascalCase event: its payload names itself and Claude's
        # answers are obeyed (protocol/copilot.py); permissionRequest is camelCase only
        "PreToolUse",
        "Bash",
        "hookwise.protocol.copilot",
        "COPILOT",
        tools={
            "Bash": "shell",
            "bash": "shell",
            "powershell": "shell",
            "view": "read",
            "create": "write",
            "edit": "edit",
            "glob": "glob",
            "grep": "grep",
            "web_fetch": "web_fetch",
            "task": "task",
        },
        # 1.0.102 (its Rust runtime, prebuilds/linux-x64/runtime.node: "MCP tool name ...
        # exceeds ... character limit, truncated to"; observed offline with servers of other
        # names): server + "-" + tool, each character of the server's or the tool's name
        # outside [a-zA-Z0-9_-] made "-" ("a..b" a--b), a non-ASCII name IDNA-encoded ("é"
        # xn--9ca), the name cut to 64 with no mark; both hook keys' tool name for server
        # fs's write_file is fs-write_file (tests/e2e/test_host_mcp_names_live.py)
        mcp_names=("", "-", "a-zA-Z0-9_-", 64, "encoded", ""),
        config_dir=("COPILOT_HOME", ".copilot", ""),
        install_files={"project": ".github/hooks/hookwise.json", "user": "hooks/hookwise.json"},
        failure={"crash": "blocked", "timeout": "runs"},
        detect=(("unnamed", "sessionId", ""), ("env", "COPILOT_CLI", "")),
        hooks_layout="flat",
        handler=("bash", "timeoutSec", ()),
        supports=frozenset(("hook", "install", "runtime", "scan", "coverage", "migrate")),
        hook_globs={"project": ".github/hooks/*.json", "user": "hooks/*.json"},
        project_trust=(("COPILOT_ALLOW_ALL", "true"),),
        trust="repository hooks (.github/hooks) run only in a trusted folder (--trust-folder, "
        "COPILOT_ALLOW_ALL=true, or trusted when Copilot asked); elsewhere they silently do "
        "not run and the tool runs; user hooks (~/.copilot/hooks) run in every folder",
    ),
    "qwen": HostInfo(
        "qwen",
        "Qwen Code",
        (".qwen/settings.json",),
        (".qwen/settings.json",),
        "ms",
        "PreToolUse",
        "run_shell_command",
        "hookwise.protocol.qwen",
        "QWEN",
        registrations=(
            ("mcp", "add"),
            ("mcp", "remove"),
            ("mcp", "approve"),
            ("extensions", "install"),
            ("extensions", "uninstall"),
            ("extensions", "link"),
            ("extensions", "update"),
            ("extensions", "enable"),
            ("extensions", "disable"),
        ),
        tools={
            "run_shell_command": "shell",
            # a command run in the background (its export rule reaches it: export/qwen.py;
            # red team s25 F1b)
            "monitor": "shell",
            "write_file": "write",
            "edit": "edit",
            "replace": "edit",
            "read_file": "read",
            "read_many_files": "read",
            "grep_search": "grep",
            "glob": "glob",
            "list_directory": "ls",
            "web_fetch": "web_fetch",
            "web_search": "web_search",
            "save_memory": "memory",
            "todo_write": "todo",
            "task": "task",
            "skill": "skill",
        },
        config_dir=(None, ".qwen", ""),
        install_files={"project": ".qwen/settings.json", "user": "settings.json"},
        failure={"crash": "runs", "timeout": "runs"},
        detect=(
            ("fields", "timestamp permission_mode", ""),
            ("env", "QWEN_CODE_SESSION_ID", ""),
        ),
        handler=("command", "timeout", (("name", "hookwise"),)),
        jsonc=True,
        # 0.24.4 (bundle: DiscoveredMCPTool's name is generateValidName("mcp__" + server +
        # "__" + tool), normalizeToolNameForProvider: kept when it is at most 63 characters
        # of [A-Za-z0-9_-] starting with a letter, else every other character made "_", cut
        # to 55 and "_" + a 7-character base-36 FNV-1a hash of the name added; the
        # PreToolUse payload's tool_name is that name, coreToolScheduler)
        mcp_names=("mcp__", "__", "A-Za-z0-9_-", 63, "marked", "base36:7"),
        supports=frozenset(("hook", "install", "runtime", "scan", "coverage", "migrate")),
        trust="project hooks load unless folder trust is on (security.folderTrust.enabled) "
        "and the folder is not trusted; then no hook runs and headless runs get no shell tool",
    ),
    "opencode": HostInfo(
        "opencode",
        "OpenCode",
        # no hooks settings: the plugin directories of its config directories hold what it
        # runs on its own (protocol/opencode.py: PLUGIN_DIRS, and the settings' ``plugin``)
        (".opencode/plugins", ".opencode/plugin"),
        (".config/opencode/plugins", ".config/opencode/plugin"),
        "ms",  # the timeout hookwise's plugin bounds its hook with (the host has none)
        "tool.execute.before",
        "bash",
        "hookwise.protocol.opencode",
        "OPENCODE",
        # Observed in the tool list `opencode run` offers the model: bash, read, write, edit,
        # glob, grep, task, webfetch, todowrite, skill. From OpenCode's reference (offered for
        # some models only): apply_patch, multiedit, list, websearch, codesearch. MCP tools
        # arrive as mcp__server__tool (the plugin renames them).
        tools={
            "bash": "shell",
            "read": "read",
            "write": "write",
            "edit": "edit",
            "multiedit": "edit",
            "apply_patch": "edit",
            "glob": "glob",
            "grep": "grep",
            "list": "ls",
            "task": "task",
            "webfetch": "web_fetch",
            "websearch": "web_search",
            "codesearch": "web_search",
            "todowrite": "todo",
            "skill": "skill",
        },
        # its MCP client names a tool sanitize(server) + "_" + sanitize(tool), every
        # character outside [a-zA-Z0-9_-] made "_" (protocol/js_plugin.MCP_NAME_UNSAFE);
        # hookwise's plugin sends mcp__<server>__<tool> where a configured server's name
        # fits, and the host's own name where none does
        mcp_names=("", "_", "a-zA-Z0-9_-", 0, "silent", ""),
        config_dir=("XDG_CONFIG_HOME", ".config/opencode", "opencode"),
        install_files={
            "project": ".opencode/plugins/hookwise.js",
            "user": "plugins/hookwise.js",
        },
        # what hookwise's plugin does (the host waits for a plugin with no timeout of its
        # own, and a throw blocks the tool: observed); tests/e2e/plugin-hosts/matrix.json
        failure={"crash": "blocked", "timeout": "blocked"},
        hooks_layout="plugin",
        install_steps=("trust_note", "failure_note", "plugin_loading_note"),
        handler=("command", "timeout_ms", ()),
        supports=frozenset(("hook", "install", "scan", "coverage")),
        code_files={
            "project": (
                "opencode.json",
                "opencode.jsonc",
                ".opencode/opencode.json",
                ".opencode/opencode.jsonc",
            ),
            "user": ("config.json", "opencode.json", "opencode.jsonc"),
        },
        # (each scope's files in the order OpenCode merges them, a later one winning;
        # observed with 1.18.33, `opencode debug config`: config/opencode/mcp_layers.py)
        trust="no folder trust: project plugins (.opencode/plugins, from the working directory "
        "up to the worktree root) load in every folder, unless OPENCODE_PURE or "
        "OPENCODE_DISABLE_PROJECT_CONFIG is set",
        native_rules="its own rules are the `permission` settings of opencode.json, which were "
        "not run against the real CLI here; hookwise's plugin (install) enforces the policy",
    ),
    "kilo": HostInfo(
        "kilo",
        "Kilo Code",
        (".kilo/plugins", ".kilo/plugin", ".kilocode/plugins", ".kilocode/plugin"),
        (".config/kilo/plugins", ".config/kilo/plugin"),
        "ms",
        "tool.execute.before",
        "bash",
        "hookwise.protocol.kilo",
        "KILO",
        # Observed in the tool list `kilo run` offers the model. background_process starts a
        # command (its ``command`` argument) that keeps running: a shell. board_*, cron_*,
        # *_wakeup, goal, link_pr, kilo_local_recall keep their names.
        tools={
            "bash": "shell",
            "background_process": "shell",
            "read": "read",
            "write": "write",
            "edit": "edit",
            "glob": "glob",
            "grep": "grep",
            "task": "task",
            "webfetch": "web_fetch",
            "todowrite": "todo",
            "skill": "skill",
        },
        # its MCP client names a tool sanitize(server) + "_" + sanitize(tool), every
        # character outside [a-zA-Z0-9_-] made "_" (protocol/js_plugin.MCP_NAME_UNSAFE);
        # hookwise's plugin sends mcp__<server>__<tool> where a configured server's name
        # fits, and the host's own name where none does
        mcp_names=("", "_", "a-zA-Z0-9_-", 0, "silent", ""),
        config_dir=("XDG_CONFIG_HOME", ".config/kilo", "kilo"),
        install_files={"project": ".kilo/plugins/hookwise.js", "user": "plugins/hookwise.js"},
        failure={"crash": "blocked", "timeout": "blocked"},
        hooks_layout="plugin",
        install_steps=("trust_note", "failure_note", "plugin_loading_note"),
        handler=("command", "timeout_ms", ()),
        supports=frozenset(("hook", "install", "scan", "coverage")),
        # (Kilo reads OpenCode's file names too: its bundled code)
        code_files={
            "project": (
                "kilo.json",
                "kilo.jsonc",
                ".kilo/kilo.json",
                ".kilo/kilo.jsonc",
                "opencode.json",
                "opencode.jsonc",
            ),
            "user": ("kilo.json", "kilo.jsonc", "opencode.json", "opencode.jsonc", "config.json"),
        },
        trust="no folder trust: project plugins (.kilo/plugins, legacy .kilocode/plugins) load "
        "in every folder, unless KILO_PURE or KILO_DISABLE_PROJECT_CONFIG is set",
        native_rules="its own rules are OpenCode's `permission` settings, which were not run "
        "against the real CLI here; hookwise's plugin (install) enforces the policy",
    ),
    "droid": HostInfo(
        "droid",
        "Factory Droid",
        (".factory/hooks.json", ".factory/hooks/hooks.json"),  # (the second: legacy, still read)
        (".factory/hooks.json",),
        "s",
        "PreToolUse",
        "Execute",
        "hookwise.protocol.droid",
        "DROID",
        tools={
            "Execute": "shell",
            "Read": "read",
            "Create": "write",
            "Edit": "edit",
            "MultiEdit": "edit",
            "ApplyPatch": "edit",
            "LS": "ls",
            "Grep": "grep",
            "Glob": "glob",
            "FetchUrl": "web_fetch",
            "WebSearch": "web_search",
            "Task": "task",
            "TodoWrite": "todo",
        },
        # 0.225.2 (bundle of its binary: the MCP tool's LLM id is server + "___" + tool with
        # every character outside [a-zA-Z0-9_-] made "_", and past 64 characters cut to 55
        # and "_" + the first 8 hex digits of its SHA-256 added; two tools of one server
        # that come out the same get that tail too); the hook's tool_name for server fs's
        # write_file is fs___write_file (observed: tests/e2e/test_host_mcp_names_live.py)
        mcp_names=("", "___", "a-zA-Z0-9_-", 64, "silent", "hex:8"),
        config_dir=(None, ".factory", ""),
        install_files={"project": ".factory/hooks.json", "user": "hooks.json"},
        failure={
            "crash": "runs",
            "timeout": "runs",
            "note": "Droid's ask does not block (hookwise answers it with ask_fallback), and "
            "an allow runs the call even in read-only droid exec (sent only for an allow rule)",
        },
        detect=(("env", "FACTORY_PROJECT_DIR", ""), ("env", "DROID_PROJECT_DIR", "")),
        hooks_layout="top",
        supports=frozenset(("hook", "install", "runtime", "scan", "coverage", "migrate")),
        trust="project hooks (.factory/hooks.json) run without a trust step; an organisation's "
        "Hooks Policy can make Droid ignore every hook it does not manage",
        native_rules="only its hooks were run on the real CLI (0.225.2); no permission list of its "
        "own was checked, so none is written",
    ),
    "cline": HostInfo(
        "cline",
        "Cline",
        # every file in these directories named after an event is a hook (protocol/cline.py
        # HOOK_DIRS: config/script_hooks.py finds them as Cline does)
        (".clinerules/hooks/*", ".cline/hooks/*"),
        (".cline/hooks/*", "Documents/Cline/Hooks/*"),
        "s",
        "PreToolUse",
        "run_commands",
        "hookwise.protocol.cline",
        "CLINE",
        tools={
            "run_commands": "shell",
            "execute_command": "shell",
            "read_files": "read",
            "read_file": "read",
            "editor": "edit",
            "write_to_file": "write",
            "replace_in_file": "edit",
            "search_codebase": "grep",
            "search_files": "grep",
            "list_files": "ls",
            "fetch_web_content": "web_fetch",
            "web_fetch": "web_fetch",
            "use_mcp_tool": "mcp",
        },
        # the 3.0.65 CLI (bundle of its Bun binary: the MCP tools' nameTransform) names a
        # tool server + "__" + tool, kept when no run of characters outside [a-zA-Z0-9_-] is
        # in it and it is at most 64 long, else each such run made "_", cut to 55 and "_" +
        # the first 8 hex digits of the name's SHA-1 added; that name is tool_call.name
        # (observed: tests/e2e/test_host_mcp_names_live.py)
        mcp_names=("", "__", "a-zA-Z0-9_-", 64, "marked", "hex:8"),
        # the editor extension's use_mcp_tool (docs.cline.bot tool reference; not a tool of
        # the 3.0.65 CLI): the server and the tool by name, the arguments a JSON text
        mcp_fields={"use_mcp_tool": ("server_name", "tool_name", "arguments", "json")},
        config_dir=("CLINE_DIR", ".cline", ""),
        install_files={"project": ".clinerules/hooks/PreToolUse", "user": "hooks/PreToolUse"},
        failure={
            "crash": "runs",
            # after 120 s (protocol/cline.py; observed: a 125 s hook was killed, the tool ran)
            "timeout": "runs",
            "note": "Cline blocks a call only on a cancel, and a cancel aborts the whole run "
            "(the call does not run and the model is not asked again), so every deny, ask and "
            "failure "
            "ends the session; the hook file install writes prints the cancel itself when "
            "hookwise cannot run",
        },
        detect=(("unnamed", "hookName", ""), ("env", "CLINE_BUILD_ENV", "")),
        hooks_layout="script",
        supports=frozenset(("hook", "install", "runtime", "scan", "coverage")),
        hook_globs={"project": ".clinerules/hooks/*", "user": "hooks/*"},
        trust="hook files run without a trust step, in every folder; a tool hook is waited for "
        "up to 120 s, then killed and the tool run",
        native_rules="only its hooks were run on the real CLI (3.0.65); no permission list of its "
        "own was checked, so none is written",
    ),
    "cursor": HostInfo(
        "cursor",
        "Cursor",
        (".cursor/hooks.json",),
        (".cursor/hooks.json",),
        "s",
        "preToolUse",
        "Shell",
        "hookwise.protocol.reference.cursor",
        "CURSOR",
        tools={
            "Shell": "shell",
            "Read": "read",
            "Write": "write",
            "Edit": "edit",
            "Delete": "write",
            "Grep": "grep",
            "Glob": "glob",
            "LS": "ls",
            "WebFetch": "web_fetch",
            "WebSearch": "web_search",
            "Task": "task",
            "MCP": "mcp",
        },
        # beforeMCPExecution names the tool and its server's url or command, never the
        # server's name; tool_input is a JSON text (cursor.com/docs/hooks); how preToolUse
        # names an MCP tool is not in the reference (mcp_names: not recorded)
        mcp_fields={"beforeMCPExecution": (None, "tool_name", "tool_input", "json")},
        config_dir=(None, ".cursor", ""),
        install_files={"project": ".cursor/hooks.json", "user": "hooks.json"},
        failure={"crash": "runs", "timeout": "runs"},
        detect=(("fields", "conversation_id generation_id", ""), ("fields", "cursor_version", "")),
        hooks_layout="flat",
        handler=("command", "timeout", (("failClosed", True),)),
        supports=frozenset(("hook", "install", "scan")),
        trust="hooks in .cursor/hooks.json and ~/.cursor/hooks.json run without a trust step; "
        "Claude Code's .claude/settings*.json hooks run too when Third-party skills is on "
        "(published reference; no Cursor CLI runs here)",
        verified="reference",
        native_rules="known from its published reference only: no permission rules of its own "
        "were run on a real CLI here, so none are written",
        commands=("cursor-agent",),
    ),
    "crush": HostInfo(
        "crush",
        "Crush",
        ("crush.json", ".crush.json"),
        (".config/crush/crush.json",),
        "s",
        "PreToolUse",
        "bash",
        "hookwise.protocol.reference.crush",
        "CRUSH",
        tools={
            "bash": "shell",
            "view": "read",
            "write": "write",
            "edit": "edit",
            "multiedit": "edit",
            "glob": "glob",
            "grep": "grep",
            "ls": "ls",
            "fetch": "web_fetch",
            "download": "web_fetch",
            "agent": "task",
        },
        config_dir=("CRUSH_GLOBAL_CONFIG", ".config/crush", ""),
        install_files={"project": "crush.json", "user": "crush.json"},
        failure={"crash": "runs", "timeout": "runs"},
        detect=(("env", "CRUSH_PROJECT_DIR", ""), ("env_prefix", "CRUSH_HOOK", "")),
        hooks_layout="flat",
        install_steps=("trust_note", "failure_note", "in_place"),
        supports=frozenset(("hook", "install", "scan")),
        trust="(published reference; Crush cannot be installed here: its npm package downloads "
        "its binary at install time)",
        verified="reference",
        native_rules="known from its published reference only: no permission rules of its own "
        "were run on a real CLI here, so none are written",
    ),
    "windsurf": HostInfo(
        "windsurf",
        "Windsurf",
        (".windsurf/hooks.json",),
        (".codeium/windsurf/hooks.json",),
        "s",
        "pre_run_command",
        "run_command",
        "hookwise.protocol.reference.windsurf",
        "WINDSURF",
        tools={
            "run_command": "shell",
            "read_code": "read",
            "write_code": "edit",
            "mcp_tool_use": "mcp",
        },
        # pre_mcp_tool_use's tool_info (docs.windsurf.com/windsurf/cascade/hooks)
        mcp_fields={
            "mcp_tool_use": ("mcp_server_name", "mcp_tool_name", "mcp_tool_arguments", "object")
        },
        config_dir=(None, ".codeium/windsurf", ""),
        install_files={"project": ".windsurf/hooks.json", "user": "hooks.json"},
        failure={"crash": "runs", "timeout": "runs"},
        detect=(("unnamed", "agent_action_name", ""),),
        hooks_layout="flat",
        handler=("command", "timeout", (("show_output", True),)),
        supports=frozenset(("hook", "install", "scan")),
        trust="system, user and workspace hooks.json all run, system first (published "
        "reference; Windsurf is an IDE, nothing runs here)",
        verified="reference",
        native_rules="known from its published reference only: no permission rules of its own "
        "were run on a real CLI here, so none are written",
    ),
    "kiro": HostInfo(
        "kiro",
        "Kiro CLI",
        # hooks live in agent files, each {"hooks": {event: [handler]}}
        (".kiro/agents/*.json",),
        (".kiro/agents/*.json",),
        "ms",
        "preToolUse",
        "execute_bash",
        "hookwise.protocol.reference.kiro",
        "KIRO",
        tools={
            "execute_bash": "shell",
            "execute_cmd": "shell",
            "fs_read": "read",
            "fs_write": "write",
            "web_fetch": "web_fetch",
            "web_search": "web_search",
            "use_subagent": "task",
            "todo_list": "todo",
        },
        config_dir=(None, ".kiro", ""),
        # the agent file a peer's installer edits (git-ai-project/git-ai#1302); Kiro's
        # built-in kiro_default takes no hooks, so this agent must be the one in use
        install_files={"project": ".kiro/agents/default.json", "user": "agents/default.json"},
        failure={"crash": "runs", "timeout": "runs"},
        detect=(("env_prefix", "KIRO_", ""),),
        hooks_layout="flat",
        handler=("command", "timeout_ms", ()),
        install_steps=("trust_note", "failure_note", "in_place"),
        supports=frozenset(("hook", "install", "scan")),
        hook_globs={"project": ".kiro/agents/*.json", "user": "agents/*.json"},
        trust="hooks belong to an agent configuration (.kiro/agents/*.json): they run only for "
        "that agent; install edits the agent `default` (.kiro/agents/default.json), so start "
        "Kiro with `--agent default` or set it with `kiro-cli settings chat.defaultAgent "
        "default` (the built-in kiro_default runs no hooks); an agent file without `tools` "
        "gives the agent none, so a default.json install made holds only hooks until you add "
        "them (published reference; no Kiro CLI runs here)",
        verified="reference",
        native_rules="known from its published reference only: no permission rules of its own "
        "were run on a real CLI here, so none are written",
        commands=("kiro-cli",),
    ),
    "augment": HostInfo(
        "augment",
        "Augment (Auggie)",
        (".augment/settings.json", ".augment/settings.local.json"),
        (".augment/settings.json",),
        "ms",  # "timeout: in milliseconds (default: 60000ms)" (docs.augmentcode.com/cli/hooks)
        "PreToolUse",
        "launch-process",
        "hookwise.protocol.reference.augment",
        "AUGMENT",
        tools={
            "launch-process": "shell",
            "view": "read",
            "save-file": "write",
            "str-replace-editor": "edit",
            "remove-files": "write",
            "web-fetch": "web_fetch",
            "web-search": "web_search",
            "codebase-retrieval": "grep",
        },
        config_dir=(None, ".augment", ""),
        # a project's entry goes to settings.local.json ("personal project overrides, not
        # committed to source control", read for hooks by the CLI: docs.augmentcode.com/cli/
        # hooks): its command is the absolute path of a .sh file, which would be wrong on
        # every other machine if it went into the shared .augment/settings.json; the
        # reference gives no variable or relative form for the command
        install_files={"project": ".augment/settings.local.json", "user": "settings.json"},
        failure={"crash": "runs", "timeout": "runs"},
        detect=(("env_prefix", "AUGMENT_", ""),),
        install_steps=("trust_note", "failure_note", "sh_script"),
        supports=frozenset(("hook", "install", "scan")),
        trust="/etc/augment/settings.json (system, immutable) comes first; a hook command must "
        "be a .sh file (published reference; Auggie cannot be pointed at a local model here)",
        verified="reference",
        native_rules="known from its published reference only: no permission rules of its own "
        "were run on a real CLI here, so none are written",
        commands=("auggie",),
    ),
}

HOST_TITLES: Final[dict[str, str]] = {name: info.title for name, info in HOSTS.items()}


def hosts_with(feature: str) -> tuple[Host, ...]:
    """The hosts hookwise supports ``feature`` for (a word of ``HostInfo.supports``), in
    registry order: what each command offers is read here, never listed by name."""
    return tuple(name for name, info in HOSTS.items() if feature in info.supports)


def host(name: str) -> HostInfo:
    """The row of ``name``, or ValueError naming the hosts."""
    for info in HOSTS.values():
        if info.name == name:
            return info
    raise ValueError(f"unknown host {name!r}; expected one of: {', '.join(HOST_NAMES)}")


def config_path(name: str, env: Mapping[str, str]) -> str:
    """The directory the host keeps its user settings in, for ``env`` (``row_config_path``)."""
    return row_config_path(host(name), env)


def user_path(name: str, relative: str, env: Mapping[str, str]) -> str:
    """One of the host's ``user_files`` where it reads it for ``env`` (``row_user_path``)."""
    return row_user_path(host(name), relative, env)


def row_config_path(info: HostInfo, env: Mapping[str, str]) -> str:
    """A row's directory for ``env`` (its ``config_dir``): ``$CLAUDE_CONFIG_DIR``,
    ``$XDG_CONFIG_HOME/opencode``, else under HOME."""
    import os

    variable, default, under = info.config_dir
    explicit = env.get(variable) if variable else None
    if explicit:
        base = os.path.abspath(explicit)
        return os.path.join(base, under) if under else base
    home = env.get("HOME") or os.path.expanduser("~")
    return os.path.join(home, default) if default else home


def config_file(name: str, relative: str, env: Mapping[str, str]) -> str:
    """``relative``, a path under the host's config directory, where the host keeps it for
    ``env``: a variable of the host's own may name a part of that directory instead (the
    protocol module's ``MOVED_PATHS``, most specific first, read through its ``path_env``
    where it has one: Cline's ``CLINE_DATA_DIR``, ``CLINE_SESSION_DATA_DIR``, sandbox)."""
    import importlib
    import os

    module = importlib.import_module(host(name).module)
    moved: tuple[tuple[str, str], ...] = getattr(module, "MOVED_PATHS", ())
    if moved:
        reader = getattr(module, "path_env", None)
        values: Mapping[str, str] = reader(env) if reader is not None else env
        parts = relative.split("/")
        for path, variable in moved:
            prefix = path.split("/")
            if parts[: len(prefix)] == prefix and values.get(variable):
                return os.path.join(os.path.abspath(values[variable]), *parts[len(prefix) :])
    return os.path.join(config_path(name, env), relative)


def home_file(name: str, relative: str, env: Mapping[str, str]) -> str:
    """A file the host keeps in HOME beside its config directory, or in the directory its
    variable names when that is set (Claude Code's ``.claude.json``: ``~/.claude.json``,
    ``$CLAUDE_CONFIG_DIR/.claude.json``); ``MCP_FILES`` names it ``~/<relative>``."""
    import os

    variable = host(name).config_dir[0]
    explicit = env.get(variable) if variable else None
    if explicit:
        return os.path.join(os.path.abspath(explicit), relative)
    return os.path.join(env.get("HOME") or os.path.expanduser("~"), relative)


def row_user_path(info: HostInfo, relative: str, env: Mapping[str, str]) -> str:
    """One of a row's ``user_files`` (relative to HOME) where the host reads it for ``env``:
    under its directory when that moved (``$CODEX_HOME/hooks.json``); a file outside that
    directory stays under HOME."""
    import os

    default = info.config_dir[1]
    if default and relative.startswith(default + "/"):
        return os.path.join(row_config_path(info, env), relative[len(default) + 1 :])
    if not default:  # the row's directory is HOME itself, or what its variable names
        return os.path.join(row_config_path(info, env), relative)
    return os.path.join(env.get("HOME") or os.path.expanduser("~"), relative)


def event_names(name: str) -> tuple[str, ...]:
    """The host's hook events in the host's own order (loads its table)."""
    import importlib

    names: tuple[str, ...] = importlib.import_module(host(name).module).EVENT_NAMES
    return names


def table(name: str) -> DialectSpec:
    """The event table of a host whose answers are read per run (Claude Code, Codex)."""
    import importlib

    info = host(name)
    if info.table_name is None:
        raise ValueError(f"{name} has no dialect table; its events are in {info.module}")
    spec: DialectSpec = getattr(importlib.import_module(info.module), info.table_name)
    return spec


def claude_events(name: str) -> tuple[dict[str, tuple[str, ...]], dict[str, str]] | None:
    """The host's events for each of Claude Code's and its field names for Claude's (the
    protocol module's ``CLAUDE_EVENTS`` and ``FIELD_ALIASES``); None: it uses Claude's."""
    import importlib

    module = importlib.import_module(host(name).module)
    events = getattr(module, "CLAUDE_EVENTS", None)
    if events is None:
        return None
    return events, dict(getattr(module, "FIELD_ALIASES", {}))


def mcp_call_name(name: str, server: str, tool: str) -> str | None:
    """The name host ``name`` gives MCP tool ``tool`` of ``server`` (its row's
    ``mcp_names``): what its permission rules must name to match a call of it; None when
    the row does not say."""
    import re

    found = host(name).mcp_names
    if found is None:
        return None
    prefix, separator, keeps, limit, changed, mark = found
    called = f"{server}{separator}{tool}"
    if not called.startswith(prefix):
        called = prefix + called
    kept = re.sub(f"[^{keeps}]", "_", called)
    if changed == "encoded" and (kept != called or (limit and len(kept) > limit)):
        return None  # changed otherwise than made here
    if (limit and len(kept) > limit) or (changed == "marked" and kept != called):
        if mark != "...":
            return None  # a hash of the name: not made here
        kept = kept[:30] + "..." + kept[-30:]
    return kept


def mcp_files(name: str) -> dict[str, tuple[tuple[str, str], ...]]:
    """scope -> (file, key of its servers) where the host reads MCP servers, for hosts whose
    protocol module lists them (``MCP_FILES``); the others have loaders of their own."""
    import importlib

    files: dict[str, tuple[tuple[str, str], ...]] = getattr(
        importlib.import_module(host(name).module), "MCP_FILES", {}
    )
    return files


def project_settings_at_start(name: str) -> bool:
    """Whether the host reads its project settings in its start directory only
    (``PROJECT_SETTINGS_AT_START`` of its protocol module), not from the repository root."""
    import importlib

    return bool(
        getattr(importlib.import_module(host(name).module), "PROJECT_SETTINGS_AT_START", False)
    )


def mcp_files_above(name: str) -> tuple[tuple[str, str], ...]:
    """(file, key of its servers) the host also reads in every directory above the one it
    is started in (``MCP_FILES_ABOVE`` of its protocol module: Claude Code's ``.mcp.json``)."""
    import importlib

    files: tuple[tuple[str, str], ...] = getattr(
        importlib.import_module(host(name).module), "MCP_FILES_ABOVE", ()
    )
    return files


def mcp_system_files(name: str) -> tuple[tuple[str, str, str], ...]:
    """(settings scope, key of its servers, words naming it) of the machine's files the
    host reads MCP servers from for every user (``MCP_SYSTEM_FILES`` of its protocol
    module: Gemini CLI's system defaults and system settings); their paths are
    ``host_homes.system_files``."""
    import importlib

    files: tuple[tuple[str, str, str], ...] = getattr(
        importlib.import_module(host(name).module), "MCP_SYSTEM_FILES", ()
    )
    return files


def mcp_server_command(name: str) -> tuple[str, str, str] | None:
    """(section, key, server name) of a settings value holding a command line the host
    starts as an MCP server outside its servers table (``MCP_SERVER_COMMAND`` of its
    protocol module: Gemini CLI's and Qwen Code's ``mcp.serverCommand``), else None."""
    import importlib

    found: tuple[str, str, str] | None = getattr(
        importlib.import_module(host(name).module), "MCP_SERVER_COMMAND", None
    )
    return found


def mcp_shadowing(name: str) -> tuple[str, str] | None:
    """(scope, key path with ``*`` for the project) of the host's MCP entries that replace
    the project's entry of their name (``MCP_SHADOWING`` of its protocol module: Claude
    Code's local scope), else None."""
    import importlib

    found: tuple[str, str] | None = getattr(
        importlib.import_module(host(name).module), "MCP_SHADOWING", None
    )
    return found


def mcp_unstarted(name: str) -> tuple[tuple[str, str, str, str], ...]:
    """(user file, table of named sections, key of servers in each, the file a section's
    servers belong in, ``{name}`` its name) where the host's settings can hold MCP servers
    it never starts (``MCP_UNSTARTED`` of its protocol module: Codex's legacy
    ``[profiles.NAME.mcp_servers]``)."""
    import importlib

    found: tuple[tuple[str, str, str, str], ...] = getattr(
        importlib.import_module(host(name).module), "MCP_UNSTARTED", ()
    )
    return found


def mcp_stdio_types(name: str) -> tuple[str, ...]:
    """The values of an MCP server entry's ``type`` the host runs as a stdio command
    (``MCP_STDIO_TYPES`` of its protocol module; ``stdio`` where it lists none): any other
    ``type`` makes it connect to a URL (mcp_proxy.transport)."""
    import importlib

    types: tuple[str, ...] = getattr(
        importlib.import_module(host(name).module), "MCP_STDIO_TYPES", ("stdio",)
    )
    return types


def common_input(name: str, event: str) -> tuple[str, ...]:
    """The fields every payload of ``event`` carries besides its own (the protocol module's
    ``EVENT_COMMON_INPUT`` where they differ by event, else its table's ``common_input``
    less the module's ``COMMON_LEFT_OUT`` for the event; Gemini CLI's ``BASE_FIELDS``)."""
    import importlib

    info = host(name)
    module = importlib.import_module(info.module)
    per_event = getattr(module, "EVENT_COMMON_INPUT", None)
    if per_event is not None and event in per_event:
        return tuple(per_event[event])
    if info.table_name is None:
        return tuple(f.name for f in module.BASE_FIELDS)
    fields: tuple[str, ...] = getattr(module, info.table_name).common_input
    left_out = getattr(module, "COMMON_LEFT_OUT", {}).get(event, ())
    return tuple(f for f in fields if f not in left_out)


def session_only(name: str) -> tuple[str, ...]:
    """The common fields the host sends only when the session has them (its table's
    ``session_input``; none for a host without a table)."""
    if host(name).table_name is None:
        return ()
    return table(name).session_input


def project_env(name: str) -> tuple[str, ...]:
    """The variables naming the project directory that the host gives its hooks (the
    protocol module's ``PROJECT_ENV``; empty when it has none)."""
    import importlib

    names: tuple[str, ...] = getattr(importlib.import_module(host(name).module), "PROJECT_ENV", ())
    return names


def own_hook_env(name: str) -> tuple[str, ...]:
    """The variables the host itself sets for its hooks after its start: the protocol
    module's ``PROJECT_ENV`` and ``HOOK_ENV`` (an entry ending in "_" is a prefix)."""
    import importlib

    module = importlib.import_module(host(name).module)
    return (*getattr(module, "PROJECT_ENV", ()), *getattr(module, "HOOK_ENV", ()))


def cwd_env(name: str) -> tuple[str, ...]:
    """The variables naming the hook's working directory that the host gives its hooks (the
    protocol module's ``CWD_ENV``; empty when it has none)."""
    import importlib

    names: tuple[str, ...] = getattr(importlib.import_module(host(name).module), "CWD_ENV", ())
    return names


def input_fields(name: str, event: str) -> tuple[str, ...]:
    """The fields of ``event``'s payload besides the common ones (``common_input``), from
    the host's event table."""
    import importlib

    info = host(name)
    module = importlib.import_module(info.module)
    if info.table_name is None:
        return tuple(f.name for f in module.EVENTS[event].input_fields)
    fields: tuple[str, ...] = getattr(module, info.table_name).events[event].input_fields
    return fields


def tool_response_text(name: str) -> tuple[str, ...]:
    """The keys of the object a host sends as ``tool_response`` for a tool's plain result,
    each holding its text (the protocol module's ``TOOL_RESPONSE_TEXT``: Gemini CLI's
    ``llmContent`` and ``returnDisplay``); empty where the result is sent as it is."""
    import importlib

    keys: tuple[str, ...] = getattr(
        importlib.import_module(host(name).module), "TOOL_RESPONSE_TEXT", ()
    )
    return keys


def matcher_field(name: str, event: str) -> str | None:
    """The stdin field a definition's ``matcher`` is compared with on ``event`` (None: the
    matcher is ignored there), from the host's event table."""
    import importlib

    info = host(name)
    module = importlib.import_module(info.module)
    events = getattr(module, info.table_name).events if info.table_name else module.EVENTS
    field: str | None = events[event].matcher_field
    return field


def elicitation_events(name: str) -> dict[str, str]:
    """The host's events whose hooks answer an MCP server's question (elicitation) for the
    user ("question") or change the user's answer before the server gets it ("answer"):
    Claude Code's Elicitation and ElicitationResult. Such a hook can accept for the user,
    so it decides what an ``ask`` of ``hookwise mcp wrap`` asks. Empty for a host without
    them."""
    info = host(name)
    if info.table_name is None:
        return {}
    from hookwise.protocol.dialect import Kind

    roles = {Kind.ELICITATION: "question", Kind.ELICITATION_RESULT: "answer"}
    return {e.name: roles[e.kind] for e in table(name).events.values() if e.kind in roles}


def __getattr__(name: str) -> Any:
    """``Host`` at run time (request schemas need the Literal), built on first use."""
    if name == "Host":
        from typing import Literal

        return Literal[HOST_NAMES]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


_REGISTRARS: dict[str, tuple[str, tuple[tuple[str, ...], ...]]] = {}


def registration_commands() -> dict[str, tuple[str, tuple[tuple[str, ...], ...]]]:
    """program -> (its host's title, the subcommands that write the host's hook, MCP
    server or extension registrations: ``HostInfo.registrations``), for every host whose
    row lists some."""
    if not _REGISTRARS:
        for info in HOSTS.values():
            for program in info.commands if info.registrations else ():
                _REGISTRARS[program] = (info.title, info.registrations)
    return _REGISTRARS
