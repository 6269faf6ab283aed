"""What scripts of tools with a command language run: ed and ex commands (``!cmd``),
SQL clients' meta commands (sqlite3 ``.shell``, psql ``\\!``, mysql ``system``), debugger
commands (gdb ``shell``, lldb ``platform shell``), crontab lines, and the languages
hookwise does not read in detail (Tcl, Lua, R, Julia, m4, dc, PowerShell, AppleScript,
Emacs Lisp): their literal shell commands are read, and a capability to run programs,
change files or load code beyond them makes the script unverifiable.

Cold: imported by code_readers for those languages only. Uses :mod:`re`.
"""

from __future__ import annotations

import re

from hookwise.shell.programs import COMPUTED

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    Items = list[tuple[str, Any]]

_STRING = r"""'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)\""""


def _lines(text: str) -> list[str]:
    return [line.strip() for line in text.replace("\r", "\n").split("\n") if line.strip()]


# Vim script functions that only compute (strings, lists, the buffer being edited): a call
# of any other function in an expression (``call delete("../victim", "rf")``, ``rename()``,
# ``writefile()``, ``system()``, one added tomorrow) is what hookwise cannot account for
_VIM_PURE = frozenset(
    ["abs", "add", "and", "append", "char2nr", "col", "copy", "count", "cursor", "deepcopy",
     "empty", "escape", "exists", "extend", "filter", "get", "getline", "getpos", "has",
     "has_key", "index", "indent", "insert", "join", "keys", "len", "line", "map", "match",
     "matchend", "matchstr", "max", "min", "nr2char", "or", "printf", "range", "repeat",
     "reverse", "search", "setline", "setpos", "sort", "split", "str2nr", "strchars",
     "strftime", "string", "strlen", "strpart", "strtrans", "submatch", "substitute",
     "tolower", "toupper", "tr", "trim", "type", "uniq", "values", "items", "xor", "float2nr",
     "round", "localtime", "getreg", "setreg", "virtcol", "winnr", "bufnr", "bufname",
     "fnameescape", "shellescape", "json_encode", "json_decode"]
)  # fmt: skip
# Ex commands whose arguments are expressions (``:call f()``, ``:let x = f()``), and the
# ``\=`` of a substitution's replacement
_VIM_EXPRESSION = re.compile(
    r"^(?:sil(?:ent)?!?\s+)?(?:call?|let|echo(?:m|msg|n|err)?|if|elseif|while|for|retu(?:rn)?|"
    r"ev(?:al)?|unl(?:et)?|const?)\b|\\="
)


def _vim_calls(line: str) -> str | None:
    """The first function an expression line calls that is not known to only compute."""
    if _VIM_EXPRESSION.search(line) is None:
        return None
    bare = re.sub(_STRING, '""', line)  # a name in a string is no call
    for match in re.finditer(r"(?<![\w#:.])([A-Za-z_][\w#:.]*)\s*\(", bare):
        name = match.group(1)
        if name.lower() not in _VIM_PURE and name not in ("if", "while", "for", "return"):
            return name
    return None


# Ex commands whose ``!`` right after the name forces them (quit without saving, reload):
# no shell runs (``w !cmd``, ``r!cmd``, ``%!cmd`` do run one)
_FORCED = re.compile(
    r"[%\d.,$]*\s*(?:q|qa|qall|quit|quita|quitall|wq|wqa|wqall|x|xa|xall|xit|exi|exit|e|edit"
    r"|bd|bdelete|bw|bwipeout|up|update|wa|wall|n|next|prev|previous)!\s*"
)


# Ex commands that read a file into a buffer (whose lines ``%p`` or ``w /dev/stdout`` then
# print): :r, :e, :sp..., by every abbreviation vim accepts
_EX_READS = ("r", "re", "rea", "read", "e", "ed", "edi", "edit", "sp", "spl", "spli",
             "split", "vs", "vsp", "vspl", "vspli", "vsplit", "new", "vne", "vnew", "tabe",
             "tabed", "tabedi", "tabedit", "tabnew", "vie", "view", "sv", "sview", "bad",
             "badd", "arga", "argadd", "pe", "ped", "pedi", "pedit", "fin", "find")  # fmt: skip


def ex_reads(text: str) -> Items:
    """("read", FILE) for each Ex command of ``text`` (``|``-separated) that reads one."""
    found: Items = []
    for part in text.split("|"):
        words = part.strip().lstrip(":").split(None, 1)
        if len(words) == 2 and words[0].rstrip("!") in _EX_READS:
            name = words[1].strip()
            if name and not name.startswith(("!", "+")):
                found.append(("read", name))
    return found


# vim options whose value is a program, a shell or an expression vim runs later (``set
# makeprg=rm\ -rf\ d`` then ``make``, ``shell=/bin/cat shellcmdflag=`` then ``!F``,
# ``equalprg`` then ``=``): setting one from the line makes what runs unknown here
_PROGRAM_OPTION = re.compile(
    r"^(?:se|set|setl|setlocal|setg|setglobal)!?\s.*?\b(?:\w*prg|shell\w*|sh|shcf|sp|srr|"
    r"\w*expr|\w*func|charconvert|ccv|mp|gp|ep|fp|kp|csprg|de|pex|fex|inex|inde|fde|ofu|cfu|"
    r"tfu|tsrfu)\s*[+^-]?=|^let\s+&"
)


def _ed(text: str) -> Items:
    """ed/ex: ``!cmd``, ``w !cmd``, ``r !cmd``, ``e !cmd``; vim's ``:call system(...)``, and
    any function call in an expression hookwise does not know to only compute."""
    out: Items = []
    for given in _lines(text):
        line = given.lstrip(":").strip()
        out += ex_reads(line)  # :r .env|%p prints it
        if _PROGRAM_OPTION.search(line):  # set makeprg=rm\ -rf\ d | make
            out.append(("unverifiable", f"the editor command `{line[:40]}` sets what runs"))
            continue
        called = _vim_calls(line)
        if called is not None:
            out.append(("unverifiable", f"the editor command `{line[:40]}` calls {called}()"))
        for found in re.finditer(r"\bdelete\s*\(\s*(?:" + _STRING + r")\s*(?:,\s*(?:" + _STRING
                                 + r"))?\s*\)", line):  # fmt: skip
            path = found.group(1) if found.group(1) is not None else found.group(2)
            flags = found.group(3) or found.group(4) or ""
            rm = ["rm", "-r", "-f"] if "rf" in flags else ["rmdir"] if "d" in flags else ["rm"]
            out.append(("argv", [*rm, "--", path]))  # vim's delete(): rm -rf, rmdir or rm
        if _FORCED.fullmatch(line):
            continue  # q!, wq!, x!, e!: the ! forces; nothing runs
        match = re.match(
            r"^[\d.,$%'a-z;+\-\s]*(?:(?:w|r|e|W|silent!?|exe(?:cute)?)\s*)?!(.*)$", line
        )
        if match is not None:
            command = match.group(1).strip()
            out.append(("script", command) if command else ("unverifiable", "ed runs `!`"))
            continue
        if re.search(
            r"\b(?:system|systemlist|job_start|term_start|libcall\w*|luaeval|py3eval|pyeval|"
            r"rubyeval|perleval)\s*\(|^(?:py3?|pyx?|python3?|lua|perl|ruby|tcl|exe|execute|"
            r"so|source|term|terminal)\b",
            line,
        ):
            out.append(("unverifiable", f"the editor command `{line[:40]}` runs code"))
    return out


# sqlite3's dot-commands, as its shell matches them: a prefix of a command's name may be
# that command (`.sh`, `.she`, `.sys`, `.o |CMD`: red team s31 S; which one a short prefix
# picks depends on the build), checked against every name that runs a command, pipes into
# one, loads code or reads a file
_SQLITE_RUN = ("shell", "system")
_SQLITE_PIPE = ("once", "output", "import", "read", "excel")
_SQLITE_CODE = ("load", "www", "excel", "edit")
_SQLITE_READ = ("read", "import")
# dot-commands whose last word is a file sqlite writes (`.once F`, `.backup [DB] F`), and
# SQL that writes a file it names (VACUUM INTO 'F', ATTACH 'F' creates it)
_SQLITE_WRITE = ("once", "output", "save", "backup", "open")
_SQLITE_SQL_WRITE = re.compile(
    r"\b(?:vacuum\b(?:\s+\w+)?\s+into|attach\b(?:\s+database)?)\s+([^\s;]+)", re.I
)


def _dot_is(name: str, commands: tuple[str, ...]) -> bool:
    """Whether a dot-command's name, as written, may be one of ``commands`` to sqlite3."""
    return any(c.startswith(name) for c in commands)


def _sqlite(text: str) -> Items:
    out: Items = []
    where = ""  # the directory `.cd` moved to (red team s32 O): later names are under it
    for line in _lines(text):
        found = len(out)
        dot = re.match(r"^\.(\S+)\s*(.*)$", line)
        if dot is None:
            name, rest = "", ""
        else:
            name, rest = dot.group(1), dot.group(2)
        if name and _dot_is(name, _SQLITE_RUN):
            out.append(("script", rest) if rest else ("unverifiable", f"sqlite `{line[:40]}`"))
            continue
        pipe = re.match(r"""^(?:-\S+\s+)*['"]?\|(.*?)['"]?(?:\s+\w+)?$""", rest)
        if name and pipe is not None and _dot_is(name, _SQLITE_PIPE):
            out.append(("script", pipe.group(1)))
            continue
        if (name and _dot_is(name, _SQLITE_CODE)) or re.search(
            r"\b(?:load_extension|edit|writefile)\s*\(", line, re.I
        ):
            out.append(("unverifiable", f"sqlite runs code or writes files with `{line[:40]}`"))
        # readfile('.env'): the file's bytes come back as a value (printed); a name built
        # at run time (readfile('.e'||'nv')) could be any file
        for match in re.finditer(r"\breadfile\s*\(\s*([^)]*)\)", line, re.I):
            argument = match.group(1).strip()
            literal = re.fullmatch(r"'([^']*)'", argument)
            out.append(("read", literal.group(1) if literal else COMPUTED))
        if name and _dot_is(name, _SQLITE_WRITE) and pipe is None:
            words = [w for w in rest.split() if not w.startswith("-")]
            if words:
                out.append(("write", words[-1].strip("'\"")))
        for match in _SQLITE_SQL_WRITE.finditer(line):
            literal = re.fullmatch(r"'([^']*)'", match.group(1))
            if literal is None:
                out.append(("unverifiable", f"sqlite writes a file it computes: `{line[:40]}`"))
            else:
                out.append(("write", literal.group(1)))
        source = _sqlite_source(rest) if name and _dot_is(name, _SQLITE_READ) else ""
        if source and source[:1] != "|":
            out.append(("read", source))
        if where:
            out[found:] = [
                (k, _under(where, v) if k in ("read", "write") else v) for k, v in out[found:]
            ]
        if name and _dot_is(name, ("cd",)):
            target = rest.strip().strip("'\"")
            where = COMPUTED if not target else _under(where, target) if where else target
    return out


# .import's options that take a value (sqlite 3.32+: --skip N, --schema S)
_SQLITE_VALUED = ("--skip", "--schema")


def _sqlite_source(rest: str) -> str:
    """The file a ``.read``/``.import`` line names, past ``.import``'s options
    (``.import --csv -v ../home/.netrc t``: red team s33 K); '' when none is named."""
    words = [w.strip("'\"") for w in rest.split()]
    at = 0
    while at < len(words) and words[at].startswith("-") and len(words[at]) > 1:
        at += 2 if words[at] in _SQLITE_VALUED else 1
    return words[at] if at < len(words) else ""


def _under(directory: str, path: str) -> str:
    """``path`` as seen from the cwd after a change to ``directory``."""
    if COMPUTED in (directory, path):
        return COMPUTED
    return path if path.startswith("/") else f"{directory.rstrip('/')}/{path}"


def _psql(text: str) -> Items:
    out: Items = []
    for match in re.finditer(r"\\!\s*([^\n\\]*)", text):
        out.append(
            ("script", match.group(1).strip())
            if match.group(1).strip()
            else ("unverifiable", "psql starts a shell (\\!)")
        )
    for match in re.finditer(r"\\(?:o|g|w|gx|out)\s*\|\s*([^\n\\]*)", text):
        out.append(("script", match.group(1).strip()))
    for match in re.finditer(r"\bprogram\s+" + _STRING, text, re.I):
        out.append(("script", match.group(1) if match.group(1) is not None else match.group(2)))
    if re.search(r"\\(?:i|ir|include|include_relative)\b|\blo_import\b|\bpg_read_file\b", text):
        out.append(("unverifiable", "psql runs SQL from a file or reads server files"))
    return out


def _mysql(text: str) -> Items:
    out: Items = []
    for match in re.finditer(r"(?:^|[;\n])\s*(?:system|\\!)\s+([^;\n]*)", text, re.I):
        out.append(("script", match.group(1).strip()))
    if re.search(r"(?:^|[;\n])\s*(?:source|\\\.)\s", text, re.I):
        out.append(("unverifiable", "mysql runs SQL from a file (source)"))
    return out


# gdb commands that only inspect or step the program on disk, as typed (gdb takes any
# unambiguous prefix and user aliases, so a word not listed here is not read as harmless:
# ``she`` is shell, ``alias zz = shell`` makes ``zz`` one)
_GDB_INSPECT = frozenset(
    ["bt", "backtrace", "where", "info", "i", "list", "l", "frame", "f", "up", "down", "quit",
     "q", "exit", "show", "help", "h", "disassemble", "x", "break", "b", "br", "tbreak",
     "hbreak", "watch", "rwatch", "awatch", "delete", "d", "disable", "enable", "continue",
     "c", "next", "n", "step", "s", "stepi", "si", "nexti", "ni", "finish", "fin", "until",
     "advance", "kill", "k", "detach", "thread", "p", "print", "ptype", "whatis", "display",
     "undisplay", "echo", "file", "core", "core-file", "attach", "symbol-file", "directory",
     "dir", "pwd", "handle", "sharedlibrary", "inferior", "tui", "layout", "focus", "refresh",
     "starti"]
)  # fmt: skip
# gdb commands whose arguments bash runs (startup-with-shell): ``run $(cmd)``, ``run > F``
_GDB_SHELL_ARGS = frozenset(["run", "r", "start", "starti"])
# settings that run a program, write a file or load code
_GDB_RUNS_SETTINGS = frozenset(
    ["logging", "exec-wrapper", "startup-with-shell", "auto-load", "history", "python",
     "guile", "extension-language", "debuginfod", "remote", "sysroot", "solib-search-path",
     "script-extension", "trace-commands", "exec-file-mismatch", "inferior-tty", "shell"]
)  # fmt: skip
_GDB_APPLY = re.compile(r"^(?:thread\s+apply|frame\s+apply|taas|faas|tfaas)\s+(?:all\s+|[\d\s-]+)?")


def _gdb(text: str) -> Items:
    """gdb commands: ``shell``/``!``/``pipe`` run a shell command; ``run``'s arguments are
    a shell's; a command hookwise does not know only inspects (any other word may be an
    abbreviation or an alias of one that runs code) makes the script unverifiable."""
    out: Items = []
    program = "true"  # what `run` starts: the program a `file` command chose, if any
    for given in _lines(text):
        line = given
        apply = _GDB_APPLY.match(line)
        if apply is not None:  # thread apply all CMD: CMD, once per thread
            line = line[apply.end() :].strip() or "bt"
        match = re.match(r"^(?:!|pipe\b|\|)\s*(.*)$", line) or re.match(
            r"^(?:sh|she|shel|shell|platform\s+shell)(?:\s+(.*)|$)", line
        )
        if match is not None:
            command = match.group(1) or ""
            if line.startswith(("pipe", "|")):
                command = command.split("|", 1)[-1].strip()
            out.append(
                ("script", command) if command.strip() else ("unverifiable", "gdb runs a shell")
            )
            continue
        word, _, rest = line.partition(" ")
        word = word.split("/", 1)[0]  # x/4x, p/x: a format after the command
        if word in ("file", "exec-file", "fil", "exec") and rest.strip():
            program = rest.split()[0]  # file /bin/rm, then run -rf d: rm runs with them
            continue
        if word in _GDB_SHELL_ARGS or (word == "set" and rest.split()[:1] == ["args"]):
            args = rest.split(None, 1)[1] if word == "set" and " " in rest.strip() else rest
            if word == "set" and rest.strip() == "args":
                args = ""
            if args.strip() or program != "true":  # the shell gdb starts it with
                out.append(("script", f"{program} {args}"))
            continue
        if word == "set" and rest.split()[:1] and rest.split()[0] in _GDB_RUNS_SETTINGS:
            out.append(("unverifiable", f"the debugger command `{line[:40]}` runs code"))
            continue
        if word == "set" and "(" not in rest:
            continue  # set pagination off, set var x = 1
        if word not in _GDB_INSPECT or re.search(r"[A-Za-z_$][\w$]*\s*\(", rest):
            # an abbreviation or alias (she, zz), or an expression calling a function
            out.append(("unverifiable", f"the debugger command `{line[:40]}` may run code"))
    return out


def _cron(text: str) -> Items:
    out: Items = []
    for line in _lines(text):
        if line.startswith("#") or re.match(r"^\w+\s*=", line):
            continue
        fields = line.split(None, 1 if line.startswith("@") else 5)
        if len(fields) == (2 if line.startswith("@") else 6):
            out.append(("script", fields[-1].split("%", 1)[0]))
    return out


def _dc(text: str) -> Items:
    return [("script", match.group(1)) for match in re.finditer(r"!([^\n]*)", text)]


# (literal command calls: pattern with the command in a string, capabilities beyond them)
_GENERIC: dict[str, tuple[list[str], str]] = {
    "tcl": (
        [r"(?m)^\s*exec\s+([^\n;\]]+)"],
        r"\b(?:exec|open\s+\"?\||file\s+(?:delete|rename|copy|link|attributes)|eval|source|"
        r"uplevel|interp|spawn|load|subst|socket|system)\b",
    ),
    "lua": (
        [r"\bos\.execute\s*\(?\s*" + _STRING, r"\bio\.popen\s*\(\s*" + _STRING],
        r"\b(?:os\.(?:execute|remove|rename|exit)|io\.(?:popen|open)|load|loadstring|dofile|"
        r"loadfile|require|package\.loadlib|debug\.)\b",
    ),
    "r": (
        [r"\bsystem2?\s*\(\s*" + _STRING, r"\bshell\s*\(\s*" + _STRING],
        r"\b(?:system2?|shell|pipe|unlink|file\.remove|file\.rename|eval|parse|source|"
        r"do\.call|get|match\.fun|Sys\.setenv|dyn\.load|processx|sys::)\s*\(",
    ),
    "julia": (
        [r"\brun\s*\(\s*`([^`]*)`"],
        r"\b(?:run|pipeline|read|rm|mv|cp|ccall|eval|include|Meta\.parse|open)\s*\(|`",
    ),
    "m4": (
        [r"\be?syscmd\s*\(\s*`?([^')]*)'?\s*\)"],
        r"\b(?:e?syscmd|include|sinclude)\b",
    ),
    "pwsh": (
        [],
        r"(?i)\b(?:Remove-Item|rm|rmdir|del|erase|ri|rd|Invoke-Expression|iex|Invoke-Command|"
        r"icm|Start-Process|saps|start|Invoke-Item|ii|Set-Content|sc|Out-File|Add-Content|ac|"
        r"Move-Item|mv|mi|Copy-Item|cp|cpi|Clear-Content|New-Item|ni|Add-Type|Invoke-WebRequest|"
        r"iwr|Invoke-RestMethod|irm|Set-ItemProperty|Rename-Item)\b|\[(?:System\.)?IO\.|&\s*[\(\$'\"]|"
        r"\.\s*(?:Delete|Kill|Start)\s*\(",
    ),
    "osascript": (
        [r"\bdo shell script\s+" + _STRING],
        r"\b(?:do shell script|doShellScript|run script|do script|load script|"
        r"delete|move|duplicate)\b",
    ),
    "emacs": (
        [r"\((?:shell-command|async-shell-command)\s+" + _STRING],
        r"\b(?:shell-command|async-shell-command|call-process|start-process|make-process|"
        r"process-file|start-file-process|delete-file|delete-directory|rename-file|"
        r"write-region|eval|load|require|copy-file|make-symbolic-link)\b",
    ),
    "cmake": (
        [r"\bexecute_process\s*\(\s*COMMAND\s+([^)\n]+)"],
        r"\b(?:execute_process|exec_program|file\s*\(\s*(?:REMOVE|REMOVE_RECURSE|WRITE|APPEND|"
        r"RENAME|COPY|INSTALL|CHMOD|CREATE_LINK|DOWNLOAD)|include|add_custom_command|"
        r"add_custom_target|cmake_language)\b",
    ),
    "lldb": ([], r"."),
    "pic": ([], r"\b(?:sh|copy|command)\b"),
    # a desktop entry: Exec= (TryExec= is looked up) runs a command line, its field codes
    # (%f, %u...) the files given; D-Bus activation runs what the bus names
    "desktop": (
        [r"(?m)^[ \t]*Exec[ \t]*=[ \t]*(.*)$"],
        r"(?m)^[ \t]*DBusActivatable[ \t]*=[ \t]*true",
    ),
    "foreign": ([], r"."),
    # ninja: a rule's command runs in sh; include/subninja load more of it
    "ninja": ([r"(?m)^[ \t]+command[ \t]*=[ \t]*(.+)$"], r"(?m)^\s*(?:include|subninja)\b"),
    # roff: .sy and .pso run a shell command (groff -U); .open/.opena/.write write files,
    # .mso loads a macro file, .pi pipes the output to a command (.cf/.trf copy a file to
    # the output: a read of it, below; .so is programs.DATA_INCLUDERS')
    "roff": (
        [r"(?m)^[.'][ \t]*(?:sy|pso)[ \t]+(.+)$"],
        r"(?m)^[.'][ \t]*(?:open|opena|write|writec|writem|close|mso|pi|nx|rd|"
        r"pso|sy|ds\s+\S+\s+\\\*\[|soquiet|msoquiet)\b|\\X|\\!",
    ),
}


# tcl's open: a file name (a braced or quoted word, or a bare one), then an access mode;
# a mode that writes (w, a, r+, {WRONLY CREAT}, RDWR...) makes it a write
_TCL_OPEN = re.compile(
    r"""\bopen\s+(\{[^}]*\}|"(?:[^"\\]|\\.)*"|[^\s\];]+)(?:\s+(\{[^}]*\}|\S+))?"""
)
_TCL_WRITES = re.compile(r"[wa+]|WRONLY|RDWR|CREAT|APPEND|TRUNC")
# a command word tcl makes when it runs: a variable, an expansion (``{*}``) or a word with
# a command substitution or a backslash escape in it (``[string map {X x} eXec] rm``,
# ``e\x78ec``: red team s33 M); which command that is cannot be read here
_TCL_MADE_COMMAND = re.compile(r"""(?:^|[\[;{]|\n)\s*(?:\$|\{\*\}|"?[^\s;\[\]{}"]*[\[\\])""")


def _tcl_files(text: str) -> Items:
    """The files tcl code opens (red team s32 K: ``puts [read [open .env]]``, ``open
    ../home/.config/hookwise/trust.json w``): a literal name is read or written; a name
    with a substitution in it (``$env(HOME)/.netrc``, ``[join ...]``) is known only when
    it runs; ``cd`` moves every relative name after it."""
    out: Items = []
    for match in _TCL_OPEN.finditer(text):
        word, mode = match.group(1), (match.group(2) or "").strip('{}"]')
        if word.startswith("{"):
            name = word[1:-1]
        else:
            name = word.strip('"')
            if "$" in name or "[" in name or "\\" in name:
                name = COMPUTED
        if name.startswith("|"):
            continue  # (a pipe: the capability check reads it as unverifiable)
        writes = bool(mode) and not mode.startswith(("-", "$", "[")) and _TCL_WRITES.search(mode)
        if writes and name == COMPUTED:
            out.append(
                (
                    "unverifiable",
                    "the tcl code opens a file for writing by a name made when it runs",
                )
            )
        else:
            out.append(("write" if writes else "read", name))
    if re.search(r"(?:^|[\[;{]|\n)\s*(?:cd|rename)\b", text) or _TCL_MADE_COMMAND.search(text):
        why = "the tcl code changes its directory, renames a command or calls one by a name"
        why += " made when it runs"
        out.append(("unverifiable", why))
    return out


def _generic(language: str, text: str) -> Items:
    literal, capability = _GENERIC[language]
    out: Items = []
    remainder = text
    for pattern in literal:
        for match in re.finditer(pattern, text):
            found = next((g for g in match.groups() if g is not None), None)
            if found is not None:
                out.append(("script", found))
            remainder = remainder.replace(match.group(0), " ")
    if language == "lldb":
        for line in _lines(text):
            shell = re.match(r"^(?:platform\s+shell|shell)\s+(.*)$", line)
            if shell is not None:
                out.append(("script", shell.group(1)))
                remainder = remainder.replace(line, " ")
            elif re.match(
                r"^(?:script|command\s+script|command\s+source|process\s+launch|run|"
                r"r)\b",
                line,
            ):
                out.append(("unverifiable", f"the debugger command `{line[:40]}` runs code"))
        return out
    if language == "roff":  # .cf F, .trf F: F copied to the output
        for found in re.finditer(r"(?m)^[.'][ \t]*(?:cf|trf)[ \t]+(\S+)", text):
            out.append(("argv", ["cat", "--", found.group(1)]))
    if language == "pic":  # sh X command X (or sh { command }), copy "F"
        for found in re.finditer(r"\bsh[ \t]*(\S)", text):
            close = "}" if found.group(1) == "{" else found.group(1)
            end = text.find(close, found.end())
            out.append(("script", text[found.end() : end if end >= 0 else len(text)]))
        for found in re.finditer(r'\bcopy[ \t]+"([^"]*)"', text):
            out.append(("argv", ["cat", "--", found.group(1)]))
        remainder = re.sub(r'(?s)\b(?:sh[ \t]*(\S).*?(?:\1|}|$)|copy[ \t]+"[^"]*")', " ", text)
    if language == "pwsh":
        out.append(("script", text))  # external programs run by name, as in a shell
    if language == "tcl":
        out += _tcl_files(text)
    found = re.search(capability, remainder) if remainder.strip() else None
    if found is not None:
        shown = found.group(0).strip()[:40] or remainder.strip()[:40]
        out.append(
            ("unverifiable", f"the {language} code uses `{shown}`, which hookwise cannot read")
        )
    return out


# ssh_config keywords whose value is a command run on this machine
_SSH_COMMANDS = ("proxycommand", "localcommand", "knownhostscommand", "remotecommand")


def _ssh_config(text: str) -> Items:
    """ssh configuration (``-o`` options, a ``-F`` file): ``ProxyCommand``,
    ``LocalCommand``, ``KnownHostsCommand``, ``Match exec``."""
    out: Items = []
    for line in _lines(text):
        key, _, value = line.replace("=", " ", 1).partition(" ")
        key, value = key.lower(), value.strip().strip('"')
        if key in _SSH_COMMANDS and value.lower() != "none":
            out.append(("script", value))
        elif key == "match" and "exec" in value.lower():
            found = re.search(r"exec\s+(\"[^\"]*\"|\S+)", value, re.I)
            if found is not None:
                out.append(("script", found.group(1).strip('"')))
        elif key in ("include", "pkcs11provider", "securitykeyprovider"):
            out.append(("unverifiable", f"ssh loads {value} ({key})"))
    return out


_READERS = {
    "ssh_config": _ssh_config,
    "ed": _ed,
    "ex": _ed,
    "sqlite": _sqlite,
    "psql": _psql,
    "mysql": _mysql,
    "gdb": _gdb,
    "cron": _cron,
    "dc": _dc,
}


def tool_items(language: str, text: str) -> Items:
    """What a script in one of these languages runs, as code_readers.language_items."""
    reader = _READERS.get(language)
    if reader is not None:
        return reader(text)
    if language in _GENERIC:
        return _generic(language, text)
    return [("unverifiable", f"hookwise does not read {language} code")]
