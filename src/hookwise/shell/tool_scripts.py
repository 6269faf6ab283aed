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


def _ed(text: str) -> Items:
    """ed/ex: ``!cmd``, ``w !cmd``, ``r !cmd``, ``e !cmd``; vim's ``:call system(...)``."""
    out: Items = []
    for given in _lines(text):
        line = given.lstrip(":").strip()
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


def _sqlite(text: str) -> Items:
    out: Items = []
    for line in _lines(text):
        match = re.match(r"^\.(shell|system)\s+(.*)$", line)
        if match is not None:
            out.append(("script", match.group(2)))
            continue
        match = re.match(
            r"^\.(once|output|import|read|excel)\s+['\"]?\|(.*?)['\"]?(?:\s+\w+)?$", line
        )
        if match is not None:
            out.append(("script", match.group(2)))
            continue
        if re.match(r"^\.(load|www|excel|edit)\b", line) or re.search(
            r"\b(?:load_extension|edit|writefile)\s*\(", line, re.I
        ):
            out.append(("unverifiable", f"sqlite runs code or writes files with `{line[:40]}`"))
        # readfile('.env'): the file's bytes come back as a value (printed); a name built
        # at run time (readfile('.e'||'nv')) could be any file
        for match in re.finditer(r"\breadfile\s*\(\s*([^)]*)\)", line, re.I):
            argument = match.group(1).strip()
            literal = re.fullmatch(r"'([^']*)'", argument)
            out.append(("read", literal.group(1) if literal else COMPUTED))
        if re.match(r"^\.(read|import)\s+['\"]?([^|'\"\s][^'\"\s]*)", line):
            out.append(("read", re.split(r"\s+", line, maxsplit=2)[1].strip("'\"")))
    return out


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


def _gdb(text: str) -> Items:
    out: Items = []
    for line in _lines(text):
        match = re.match(r"^(?:shell|!)\s*(.*)$", line)
        if match is not None:
            out.append(("script", match.group(1)))
            continue
        match = re.match(r"^(?:platform\s+shell|pipe|\|)\s*(.*)$", line)
        if match is not None:
            out.append(("script", match.group(1).split("|", 1)[-1]))
            continue
        if re.match(
            r"^(?:python|py|pi|python-interactive|guile|gu|script|source|command\s+"
            r"script|define|call|eval|print\s+\(?\s*system|p\s+system)\b",
            line,
        ):
            out.append(("unverifiable", f"the debugger command `{line[:40]}` runs code"))
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
    "foreign": ([], r"."),
}


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
    if language == "pwsh":
        out.append(("script", text))  # external programs run by name, as in a shell
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
