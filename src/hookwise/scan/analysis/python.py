"""Facts of Python code (a hook script or a ``python -c`` one-liner), read with :mod:`ast`.

Calls are resolved through the module's imports (``import urllib.request as u`` makes
``u.urlopen`` the network), values are followed through plain assignments (what came from
the network or a decoder stays so), paths are folded from literals (``os.path.expanduser(
"~/.bashrc")``, ``Path.home() / ".ssh"``), and shell commands given to ``os.system`` or
``subprocess`` go to the shell analyser. Code that does not parse is scanned as text.
"""

from __future__ import annotations

import ast
import re
from typing import TYPE_CHECKING, Final

from hookwise.scan import catalog

if TYPE_CHECKING:
    from hookwise.scan.analysis.runnable_analyser import RunnableAnalyser

__all__ = ["analyse_python"]

NET_PREFIXES: Final = (
    "urllib.request.urlopen",
    "urllib.request.urlretrieve",
    "urllib.request.build_opener",
    "urllib.urlopen",
    "urllib2.urlopen",
    "requests.",
    "httpx.",
    "http.client.",
    "socket.socket",
    "socket.create_connection",
    "aiohttp.",
    "urllib3.",
    "ftplib.",
    "smtplib.",
    "websocket.",
    "websockets.",
    "paramiko.",
)
SEND_NAMES: Final = ("post", "put", "patch", "send", "sendall", "request", "urlopen")
DECODERS: Final = (
    "base64.b64decode",
    "base64.decodebytes",
    "base64.standard_b64decode",
    "base64.urlsafe_b64decode",
    "base64.b32decode",
    "base64.b85decode",
    "base64.a85decode",
    "codecs.decode",
    "zlib.decompress",
    "gzip.decompress",
    "bz2.decompress",
    "lzma.decompress",
    "marshal.loads",
    "bytes.fromhex",
    "binascii.unhexlify",
    "binascii.a2b_base64",
    "pickle.loads",
)
EXECUTORS: Final = ("exec", "eval", "compile", "builtins.exec", "builtins.eval", "runpy.run_path")
SHELL_CALLS: Final = (
    "os.system",
    "os.popen",
    "subprocess.run",
    "subprocess.call",
    "subprocess.check_call",
    "subprocess.check_output",
    "subprocess.Popen",
    "subprocess.getoutput",
    "subprocess.getstatusoutput",
    "commands.getoutput",
)
_PATH_CALLS: Final = frozenset(
    [
        "os.path.expanduser",
        "os.path.abspath",
        "os.path.realpath",
        "os.path.normpath",
        "str",
        "os.fspath",
        "pathlib.Path",
        "Path",
        "pathlib.PurePath",
        "pathlib.PosixPath",
    ]
)
_PATH_METHODS: Final = frozenset(["expanduser", "resolve", "absolute", "joinpath"])
_TEXT_NET: Final = re.compile(
    r"\b(urlopen|requests\.(get|post)|http\.client|socket\.socket|httpx\.)"
)
_TEXT_EXEC: Final = re.compile(r"\b(exec|eval)\s*\(")
_TEXT_DECODE: Final = re.compile(r"\b(b64decode|decodebytes|fromhex|unhexlify|zlib\.decompress)\b")


class _Module:
    def __init__(self, tree: ast.AST) -> None:
        self.aliases: dict[str, str] = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    self.aliases[alias.asname or alias.name.split(".")[0]] = (
                        alias.name if alias.asname else alias.name.split(".")[0]
                    )
            elif isinstance(node, ast.ImportFrom) and node.module:
                for alias in node.names:
                    self.aliases[alias.asname or alias.name] = f"{node.module}.{alias.name}"
        self.taint: dict[str, set[str]] = {}

    def dotted(self, node: ast.AST) -> str:
        if isinstance(node, ast.Name):
            return self.aliases.get(node.id, node.id)
        if isinstance(node, ast.Attribute):
            base = self.dotted(node.value)
            return f"{base}.{node.attr}" if base else node.attr
        if isinstance(node, ast.Call):
            return self.dotted(node.func) + "()"
        return ""

    def kinds(self, node: ast.AST | None) -> set[str]:
        """What a value carries: ``net`` (from the network), ``decode`` (decoded data)."""
        found: set[str] = set()
        if node is None:
            return found
        for sub in ast.walk(node):
            if isinstance(sub, ast.Call):
                name = self.dotted(sub.func)
                if name.startswith(NET_PREFIXES):
                    found.add("net")
                if name.startswith(DECODERS) or name.endswith((".b64decode", ".decompress")):
                    found.add("decode")
            elif isinstance(sub, ast.Name) and sub.id in self.taint:
                found |= self.taint[sub.id]
        return found


def fold(node: ast.AST | None, module: _Module) -> str | None:
    """A path expression built from literals, with the home directory as ``~``."""
    if node is None:
        return None
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        parts = [
            fold(v.value if isinstance(v, ast.FormattedValue) else v, module) for v in node.values
        ]
        return "".join(p if p is not None else "*" for p in parts)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div | ast.Add):
        left, right = fold(node.left, module), fold(node.right, module)
        if left is None or right is None:
            return None
        return f"{left.rstrip('/')}/{right}" if isinstance(node.op, ast.Div) else left + right
    if isinstance(node, ast.Call):
        func = node.func
        name = module.dotted(func)
        args = [fold(a, module) for a in node.args]
        known = all(a is not None for a in args)
        if name.endswith("Path.home"):
            return "~"
        if name in _PATH_CALLS or name.endswith(".Path"):
            if not args:
                return "~" if name == "os.path.expanduser" else None
            return "/".join(a.rstrip("/") for a in args if a is not None) if known else None
        if name.endswith("os.path.join") and args and known:
            return "/".join(a.rstrip("/") for a in args if a is not None)
        if isinstance(func, ast.Attribute) and func.attr in _PATH_METHODS:
            base = fold(func.value, module)
            if base is None or not known:
                return None
            return "/".join([base.rstrip("/"), *(a for a in args if a is not None)])
        if name in ("os.getenv", "os.environ.get") and args and args[0] == "HOME":
            return "~"
        return None
    if isinstance(node, ast.Subscript) and module.dotted(node.value) == "os.environ":
        key = fold(node.slice, module)
        return "~" if key == "HOME" else None
    if isinstance(node, ast.Name) and node.id in module.taint:
        return None
    return None


def analyse_python(an: RunnableAnalyser, code: str, file: str, line: int, *, located: bool) -> None:
    base = line - 1 if located else 0
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        _as_text(an, code, file, line, located)
        return
    module = _Module(tree)
    paths: dict[str, str] = {}

    def where(node: ast.AST) -> int:
        return base + getattr(node, "lineno", 1) if located else line

    for _ in range(2):  # follow assignments (twice, for values used before a loop assigns)
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign):
                value = node.value
                kinds = module.kinds(value)
                folded = fold(value, module)
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for target in targets:
                    if isinstance(target, ast.Name):
                        if kinds:
                            module.taint.setdefault(target.id, set()).update(kinds)
                        if folded is not None:
                            paths[target.id] = folded
            elif isinstance(node, ast.With | ast.AsyncWith):
                for item in node.items:
                    kinds = module.kinds(item.context_expr)
                    if kinds and isinstance(item.optional_vars, ast.Name):
                        module.taint.setdefault(item.optional_vars.id, set()).update(kinds)

    def path_of(node: ast.AST | None) -> str | None:
        if isinstance(node, ast.Name) and node.id in paths:
            return paths[node.id]
        return fold(node, module)

    sink = an.sink
    segment = code.splitlines()
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            _literal(an, node.value, file, where(node))
            continue
        if isinstance(node, ast.Subscript) and module.dotted(node.value) == "os.environ":
            key = fold(node.slice, module)
            if key in catalog.CREDENTIAL_ENV:
                sink.add(
                    "cred-env", f"reads os.environ[{key!r}]", file, where(node), _src(segment, node)
                )
            continue
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if (
                    isinstance(target, ast.Subscript)
                    and module.dotted(target.value) == "os.environ"
                ):
                    key = fold(target.slice, module)
                    assigned = fold(node.value, module) or ""
                    if key in catalog.HIJACK_VARS and key not in ("PATH",):
                        if key == "NODE_OPTIONS" and not catalog.NODE_CODE_FLAGS.search(assigned):
                            continue
                        sink.add(
                            "env-export",
                            f"sets os.environ[{key!r}]",
                            file,
                            where(node),
                            _src(segment, node),
                        )
            continue
        if not isinstance(node, ast.Call):
            continue
        name = module.dotted(node.func)
        evidence = _src(segment, node)
        at = where(node)
        first = node.args[0] if node.args else None
        if name.startswith(NET_PREFIXES):
            sink.add("fetch", f"{name} reaches the network", file, at, evidence)
            if name.rsplit(".", 1)[-1] in SEND_NAMES and (
                len(node.args) > 1
                or any(k.arg in ("data", "json", "files", "body") for k in node.keywords)
            ):
                sink.add("send", f"{name} sends data", file, at, evidence)
            if any(
                module.dotted(a) == "os.environ" or "environ" in ast.dump(a)
                for a in [*node.args, *(k.value for k in node.keywords)]
            ):
                sink.add("env-dump", "sends os.environ", file, at, evidence)
        if name in EXECUTORS or name.endswith(".exec_module"):
            kinds = module.kinds(first)
            if "net" in kinds:
                sink.add(
                    "download-exec", f"{name}() runs code from the network", file, at, evidence
                )
            elif "decode" in kinds:
                sink.add("decode-exec", f"{name}() runs decoded data", file, at, evidence)
            elif (
                first is not None
                and not isinstance(first, ast.Constant)
                and name in ("exec", "eval")
            ):
                sink.add("unverifiable", f"{name}() of a computed value", file, at, evidence)
        if name in SHELL_CALLS or name.startswith("subprocess."):
            _shell_call(an, module, node, name, file=file, line=at, evidence=evidence)
        if (
            name in ("json.dumps", "str", "repr", "dict")
            and first is not None
            and module.dotted(first) == "os.environ"
        ):
            sink.add("env-dump", f"{name}(os.environ)", file, at, evidence)
        if name in ("os.getenv", "os.environ.get", "os.environ.__getitem__"):
            key = fold(first, module)
            if key in catalog.CREDENTIAL_ENV:
                sink.add("cred-env", f"reads {key}", file, at, evidence)
        if name in ("os.putenv",) and fold(first, module) in catalog.HIJACK_VARS:
            sink.add("env-export", f"os.putenv({fold(first, module)!r})", file, at, evidence)
        _file_call(an, module, node, name, path_of, file=file, line=at, evidence=evidence)


def _shell_call(
    an: RunnableAnalyser,
    module: _Module,
    node: ast.Call,
    name: str,
    *,
    file: str,
    line: int,
    evidence: str,
) -> None:
    first = node.args[0] if node.args else None
    if first is None:
        return
    if "net" in module.kinds(first):
        an.sink.add(
            "download-exec", f"{name}() runs a command from the network", file, line, evidence
        )
        return
    if "decode" in module.kinds(first):
        an.sink.add("decode-exec", f"{name}() runs a decoded command", file, line, evidence)
        return
    text = fold(first, module)
    if isinstance(first, ast.List | ast.Tuple):
        words = [fold(e, module) for e in first.elts]
        if all(w is not None for w in words):
            import shlex

            text = shlex.join(w for w in words if w is not None)
    if text:
        an.shell(text, file, line, located=False)


def _file_call(
    an: RunnableAnalyser,
    module: _Module,
    node: ast.Call,
    name: str,
    path_of: object,
    *,
    file: str,
    line: int,
    evidence: str,
) -> None:
    assert callable(path_of)
    first = node.args[0] if node.args else None
    mode = ""
    target: str | None = None
    if name in ("open", "io.open", "builtins.open", "os.open", "codecs.open"):
        target = path_of(first)
        mode_node = (
            node.args[1]
            if len(node.args) > 1
            else next((k.value for k in node.keywords if k.arg == "mode"), None)
        )
        mode = (
            mode_node.value
            if isinstance(mode_node, ast.Constant) and isinstance(mode_node.value, str)
            else "r"
        )
    elif isinstance(node.func, ast.Attribute) and node.func.attr in (
        "write_text",
        "write_bytes",
        "read_text",
        "read_bytes",
        "open",
    ):
        target = path_of(node.func.value)
        attr = node.func.attr
        if attr.startswith("write"):
            mode = "w"
        elif attr == "open":
            mode_node = node.args[0] if node.args else None
            mode = (
                mode_node.value
                if isinstance(mode_node, ast.Constant) and isinstance(mode_node.value, str)
                else "r"
            )
        else:
            mode = "r"
    elif (
        name.startswith(("shutil.copy", "shutil.move", "os.rename", "os.replace", "os.symlink"))
        and len(node.args) > 1
    ):
        target = path_of(node.args[1])
        mode = "w"
        source = path_of(first)
        if source and catalog.credential_path(source, an.home):
            an.sink.add("cred-file", f"copies {source}", file, line, evidence)
    if target is None:
        return
    form = catalog.home_form(target, an.home)
    if any(c in mode for c in "wax+"):
        if catalog.profile_path(form, an.home):
            an.sink.add("profile-write", f"writes {form}", file, line, evidence)
        elif catalog.persistence_path(form, an.home):
            an.sink.add("persistence", f"writes {form}", file, line, evidence)
        elif catalog.agent_settings_path(form, an.home):
            an.sink.add("agent-settings-write", f"writes {form}", file, line, evidence)
        elif "CLAUDE_ENV_FILE" in target:
            an.sink.add(
                "env-persist", "writes the session's environment file", file, line, evidence
            )
    elif catalog.credential_path(form, an.home):
        an.sink.add("cred-file", f"reads {form}", file, line, evidence)


def _literal(an: RunnableAnalyser, value: str, file: str, line: int) -> None:
    """Credential paths and hijacking exports named in a string literal."""
    if len(value) > 4096:
        value = value[:4096]
    for word in catalog.mentioned_paths(value):
        if catalog.credential_path(word, an.home):
            an.sink.add(
                "cred-file", f"names {catalog.home_form(word, an.home)}", file, line, value[:120]
            )
            break
    for name in catalog.HIJACK_VARS - {"PATH", "SHELL", "EDITOR", "VISUAL", "PAGER", "ENV"}:
        if f"export {name}=" in value or value.startswith(f"{name}="):
            an.sink.add("env-export", f"writes an export of {name}", file, line, value[:120])


def _src(lines: list[str], node: ast.AST) -> str:
    number = getattr(node, "lineno", 0)
    return lines[number - 1].strip() if 0 < number <= len(lines) else ""


def _as_text(an: RunnableAnalyser, code: str, file: str, line: int, located: bool) -> None:
    net = _TEXT_NET.search(code)
    runs = _TEXT_EXEC.search(code)
    if net:
        an.sink.add("fetch", "reaches the network (unparsed Python)", file, line, net.group(0))
    if runs and net:
        an.sink.add(
            "download-exec",
            "exec/eval with a network call (unparsed Python)",
            file,
            line,
            runs.group(0),
        )
    elif runs and _TEXT_DECODE.search(code):
        an.sink.add(
            "decode-exec", "exec/eval of decoded data (unparsed Python)", file, line, runs.group(0)
        )
    for number, text in enumerate(code.splitlines(), start=line if located else 1):
        _literal(an, text, file, number if located else line)
