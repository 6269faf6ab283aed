"""Facts of JavaScript and PowerShell, for which hookwise has no parser: line patterns.

Patterns are only used where no parser exists; each one names an API, not a spelling of a
command line. Shell commands given to ``child_process`` are found with the policy's
interpreter table (``code_commands.code_commands``) and go to the shell analyser.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Final

from hookwise.scan import catalog
from hookwise.shell.code_commands import code_commands

if TYPE_CHECKING:
    from hookwise.scan.analysis.runnable_analyser import RunnableAnalyser

__all__ = ["analyse_node", "analyse_powershell"]

_JS_NET: Final = re.compile(
    r"\bfetch\s*\(|\bhttps?\.(?:get|request)\s*\(|require\(\s*['\"](?:node:)?https?['\"]\s*\)|"
    r"from\s+['\"](?:node:)?https?['\"]|\baxios\b|\bnet\.connect\s*\(|new\s+WebSocket\s*\(|"
    r"XMLHttpRequest|\bundici\b|\bgot\s*\("
)
_JS_SEND: Final = re.compile(
    r"method\s*:\s*['\"](?:POST|PUT)['\"]|\.write\s*\(|axios\.post|\bbody\s*:"
)
_JS_EXEC: Final = re.compile(
    r"\beval\s*\(|new\s+Function\s*\(|\bvm\.run\w*\s*\(|\bFunction\s*\(\s*[a-z]"
)
_JS_DECODE: Final = re.compile(r"Buffer\.from\([^)]*['\"]base64['\"]|\batob\s*\(")
_JS_WRITE: Final = re.compile(
    r"\b(?:writeFileSync|appendFileSync|writeFile|appendFile|createWriteStream)\s*\("
)
_JS_ENV: Final = re.compile(
    r"process\.env(?:\.([A-Z_][A-Z0-9_]*)|\[\s*['\"]([A-Z_][A-Z0-9_]*)['\"]\s*\])"
)
_JS_ENV_DUMP: Final = re.compile(
    # (Object.keys gives the names only: a hook listing which variables are set reads none)
    r"JSON\.stringify\(\s*process\.env\s*[,)]|Object\.(?:entries|values)\(\s*process\.env\s*\)"
    r"|\{\s*\.\.\.process\.env\s*\}"
)
_JS_HOME: Final = re.compile(
    r"homedir\(\)|process\.env\.(?:HOME|USERPROFILE)\b|process\.env\[['\"]HOME"
)
_JS_HOME_JOIN: Final = re.compile(
    r"(?:path\.)?(?:join|resolve)\(\s*(?:os\.|require\(['\"](?:node:)?os['\"]\)\.)?homedir\(\)"
    r"\s*,((?:\s*(?:'[^'\n]*'|\"[^\"\n]*\"|`[^`\n]*`)\s*,?)+)\)"
)
_JS_STRING: Final = re.compile(r"(['\"`])((?:\\.|(?!\1).)*)\1")

_PS_NET: Final = re.compile(
    r"(?i)\b(iwr|irm|invoke-webrequest|invoke-restmethod|downloadstring|downloadfile|"
    r"net\.webclient|start-bitstransfer)\b"
)
_PS_EXEC: Final = re.compile(r"(?i)\b(iex|invoke-expression)\b|\[scriptblock\]::create")
_PS_ENCODED: Final = re.compile(r"(?i)(?:^|\s)-e(?:nc(?:odedcommand)?|c)?\s+[A-Za-z0-9+/=]{16,}")
_PS_DECODE: Final = re.compile(r"(?i)frombase64string")


def _line(text: str, offset: int, base: int, located: bool) -> int:
    return base + text.count("\n", 0, offset) if located else base


def analyse_node(an: RunnableAnalyser, code: str, file: str, line: int, *, located: bool) -> None:
    sink = an.sink
    net = _JS_NET.search(code)
    if net:
        at = _line(code, net.start(), line, located)
        sink.add("fetch", "reaches the network", file, at, net.group(0))
        send = _JS_SEND.search(code)
        if send:
            sink.add("send", "sends data over the network", file, at, send.group(0))
    decode = _JS_DECODE.search(code)
    for match in _JS_EXEC.finditer(code):
        at = _line(code, match.start(), line, located)
        if net:
            sink.add(
                "download-exec",
                "evaluates code in a script that downloads",
                file,
                at,
                match.group(0),
            )
        elif decode:
            sink.add("decode-exec", "evaluates decoded data", file, at, match.group(0))
        else:
            sink.add("unverifiable", "evaluates computed code", file, at, match.group(0))
    for match in _JS_ENV.finditer(code):
        name = match.group(1) or match.group(2)
        if name in catalog.CREDENTIAL_ENV:
            sink.add(
                "cred-env",
                f"reads process.env.{name}",
                file,
                _line(code, match.start(), line, located),
                match.group(0),
            )
    dump = _JS_ENV_DUMP.search(code)
    if dump:
        sink.add(
            "env-dump",
            "serialises process.env",
            file,
            _line(code, dump.start(), line, located),
            dump.group(0),
        )
    writes = bool(_JS_WRITE.search(code))
    # homedir() + "/.ssh/id_rsa", path.join(process.env.HOME, ".aws", ...): home-relative
    homed = bool(_JS_HOME.search(code))
    found: list[tuple[int, str, list[str]]] = []
    for match in _JS_STRING.finditer(code):
        value = match.group(2)
        words = catalog.mentioned_paths(value)
        if homed and value.lstrip("/").startswith("."):  # (in place of the bare "/.npmrc")
            words = [
                "~/" + value.lstrip("/"),
                *(w for w in words if w.lstrip("/") != value.lstrip("/")),
            ]
        found.append((match.start(), value, words))
    for match in _JS_HOME_JOIN.finditer(code):  # path.join(os.homedir(), ".aws", "credentials")
        parts = [m.group(2) for m in _JS_STRING.finditer(match.group(1))]
        if parts:
            joined = "~/" + "/".join(p.strip("/") for p in parts)
            found.append((match.start(), match.group(0), [joined]))
    for start, value, words in found:
        at = _line(code, start, line, located)
        for word in words:
            form = catalog.home_form(word, an.home)
            if catalog.credential_path(form, an.home):
                sink.add("cred-file", f"names {form}", file, at, value[:120])
            elif writes and catalog.profile_path(form, an.home):
                sink.add("profile-write", f"writes {form}", file, at, value[:120])
            elif writes and catalog.agent_settings_path(form, an.home):
                sink.add("agent-settings-write", f"writes {form}", file, at, value[:120])
    for kind, value in code_commands(code):
        if kind == "script":
            an.shell(str(value), file, line, located=False)
        elif kind == "argv" and isinstance(value, list):
            import shlex

            an.shell(shlex.join(str(v) for v in value), file, line, located=False)


def analyse_powershell(
    an: RunnableAnalyser, text: str, file: str, line: int, *, located: bool
) -> None:
    if not text:
        return
    sink = an.sink
    net = _PS_NET.search(text)
    run = _PS_EXEC.search(text)
    encoded = _PS_ENCODED.search(text)
    if (encoded and re.search(r"(?i)\b(powershell|pwsh)(\.exe)?\b", text)) or (
        encoded and not located and text.lstrip().startswith("-")
    ):
        sink.add(
            "decode-exec",
            "PowerShell runs a base64-encoded command",
            file,
            _line(text, encoded.start(), line, located),
            encoded.group(0).strip()[:80],
        )
    if net:
        sink.add(
            "fetch",
            "PowerShell reaches the network",
            file,
            _line(text, net.start(), line, located),
            net.group(0),
        )
    if run and net:
        sink.add(
            "download-exec",
            "PowerShell runs what it downloads (iex + iwr)",
            file,
            _line(text, run.start(), line, located),
            text[:160],
        )
    elif run and _PS_DECODE.search(text):
        sink.add(
            "decode-exec",
            "PowerShell runs decoded data",
            file,
            _line(text, run.start(), line, located),
            text[:160],
        )
