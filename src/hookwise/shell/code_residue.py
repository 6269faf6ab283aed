"""What interpreter code does that the one-liner reader cannot account for.

code_commands reads the literal calls it knows (``os.system('...')``,
``subprocess.run([...])``, ``shutil.rmtree('x')``, ``execSync('...')``). Everything else
that can run a program, change a file or run code made at run time is a way around
it: reflection (``getattr(__import__('os'), 'system')``), aliased imports (``import os as
o``, ``from os import system``), spawn families (``os.spawnlp``, ``pty.spawn``), a list
with a computed element, perl's list ``exec {'rm'} ...``, node's ESM imports and dynamic
``import()``, ``eval``. Here: the first such use left once the known literal calls and
string contents are blanked out. A one-liner with one is unverifiable.

The lists name capabilities (running, deleting, writing, loading code), not spellings:
harmless code (``print(sys.version)``, ``json.load(sys.stdin)``, ``s/a/b/g``) has none.
Cold: imported with code_commands. Uses :mod:`re`.
"""

from __future__ import annotations

import re

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

_STRING = r"""'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`(?:[^`\\]|\\.)*`"""
_PY_DANGEROUS = (
    "os|posix|nt|subprocess|shutil|pty|ctypes|cffi|importlib|builtins|__builtin__|runpy|"
    "multiprocessing|asyncio|_posixsubprocess|pickle|marshal|code|pdb|sys|signal|webbrowser"
)
_PY_OS_CALLS = (
    "system|popen|exec\\w*|spawn\\w*|posix_spawn\\w*|fork\\w*|remove|unlink|rmdir|removedirs|"
    "rename|renames|replace|truncate|ftruncate|chmod|lchmod|chown|lchown|kill|killpg|symlink|"
    "link|mkfifo|mknod|putenv|startfile|chroot|setuid|setgid|write|open|fdopen|dup2|"
    "add_dll_directory"
)
# (pattern, what it is), searched in code with strings blanked
_BLANKED: dict[str, list[tuple[str, str]]] = {
    "python": [
        (r"\b(?:os|posix|nt)\s*\.\s*(?:" + _PY_OS_CALLS + r")\b", "an os call"),
        (r"\bsubprocess\s*\.", "a subprocess call"),
        (
            r"\bshutil\s*\.\s*(?:rmtree|move|chown|make_archive|unpack_archive)\b",
            "a shutil call",
        ),
        (
            r"\b(?:pty|ctypes|cffi|_posixsubprocess|runpy|multiprocessing|webbrowser)\b",
            "a module that runs programs or code",
        ),
        (r"\bimportlib\b(?!\.metadata\b)|__import__", "an import computed when it runs"),
        (
            r"\b(?:getattr|setattr|delattr|globals|vars|locals|eval|exec|execfile|compile|"
            r"breakpoint)\s*\(",
            "reflection or code made when it runs",
        ),
        (
            r"__(?:builtins|builtin|dict|class|subclasses|globals|code|loader|spec|reduce)__",
            "reflection",
        ),
        (r"\bsys\s*\.\s*(?:modules|settrace|setprofile|addaudithook)\b", "reflection"),
        (r"\b(?:pickle|marshal|dill|shelve)\s*\.\s*loads?\b", "code loaded from data"),
        (
            r"\bcode\s*\.\s*(?:interact|InteractiveConsole|InteractiveInterpreter)\b",
            "an interpreter",
        ),
        (r"\bcreate_subprocess_\w+", "a subprocess call"),
        (
            r"\bfrom\s+(?:" + _PY_DANGEROUS + r")(?:\.\w+)?\s+import\s+(?!(?:path|environ|"
            r"getcwd|getenv|sep|linesep|name|cpu_count|listdir|walk|stdout|stderr|stdin|argv|"
            r"exit|version|version_info|platform|executable|maxsize)\b[\s,]*(?:$|;|\n|\)))",
            "a name imported from a module that runs programs (it can be called by any name)",
        ),
        (
            r"\bimport\s+[\w., ]*?\b(?:" + _PY_DANGEROUS + r")\s+as\b",
            "a module imported under another name",
        ),
        (
            r"\.\s*(?:unlink|rmdir|symlink_to|hardlink_to|chmod|lchmod)\s*\(",
            "a file removed or changed at a path computed when it runs",
        ),
    ],
    "perl": [
        (
            r"\b(?:system|exec|fork|kill|unlink|rmdir|rename|symlink|link|truncate|syscall|"
            r"readpipe|chroot|qx|chown|chmod)\b",
            "a call that runs programs or changes files",
        ),
        (r"\beval\s*[^\s{]|\beval\s*$", "code made when it runs (eval of a string)"),
        (r"\bdo\s*[\$(]", "code loaded from a file (do)"),
        (r"\brequire\s*[\$(]", "code loaded from a computed file (require)"),
        (
            r"\b(?:File::Path|File::Copy|rmtree|remove_tree|IPC::\w+|Open[23]|POSIX::\w+)\b",
            "a module that runs programs or changes files",
        ),
        (r"&\s*\{|->\s*\$|\bcan\s*\(|\*\{", "a call through a computed name"),
        (r"\$SIG\s*\{|\bUNIVERSAL::", "code run through a hook"),
    ],
    "ruby": [
        (
            r"\b(?:system|exec|spawn|fork|syscall|eval|instance_eval|class_eval|module_eval|"
            r"instance_exec|send|public_send|__send__|const_get|binding|load|trap|at_exit)\b",
            "a call that runs programs or code",
        ),
        (
            r"\b(?:IO\s*\.\s*popen|Open3|Process\s*\.\s*(?:spawn|exec|kill|fork|daemon)|"
            r"Kernel\s*\.|PTY\s*\.|ObjectSpace|Marshal\s*\.\s*load|FileUtils|Pathname)\b",
            "a module that runs programs or changes files",
        ),
        (
            r"\b(?:File|Dir)\s*\.\s*(?:delete|unlink|rename|write|chmod|chown|symlink|link|"
            r"truncate|rmdir)\b",
            "a file changed",
        ),
        (r"\.\s*method\s*\(|\bmethod\s*\(\s*:", "a call through a computed name"),
    ],
    "node": [
        (r"\bchild_process\b", "a child_process call"),
        (
            r"\b(?:execSync|execFileSync|spawnSync|execFile|spawn|fork|execa|shelljs)\b",
            "a process call",
        ),
        (r"\brequire\s*\(\s*(?!['\"`])", "a module required by a computed name"),
        (r"\bimport\s*\(", "a module imported when it runs"),
        (r"\b(?:eval|Function)\s*\(|\bnew\s+Function\b", "code made when it runs"),
        (
            r"\bprocess\s*\.\s*(?:binding|_linkedBinding|dlopen|mainModule|kill)\b",
            "a low-level process call",
        ),
        (
            r"\b(?:vm|worker_threads|cluster|inspector|module)\s*\.\s*\w+|"
            r"\bModule\s*\._load\b",
            "code run in another context",
        ),
        (
            r"\bDeno\s*\.\s*(?:run|Command|remove|writeTextFile|writeFile|rename|chmod|symlink)\b|"
            r"\bBun\s*\.\s*(?:spawn|spawnSync|write|\$)",
            "a runtime call that runs programs",
        ),
        (r"(?:^|[^\w.])\$\s*`", "a shell template ($`...`)"),
        (
            r"\.\s*(?:rm|rmSync|rmdir|rmdirSync|unlink|unlinkSync|rename|renameSync|chmod|"
            r"chmodSync|symlink|symlinkSync|truncate|truncateSync|remove|removeSync|emptyDir|"
            r"writeFileSync|writeFile|appendFileSync|appendFile|createWriteStream|copyFileSync|"
            r"copyFile|cpSync|linkSync|link|outputFileSync|outputFile|writeJsonSync)\s*\(",
            "a file removed or changed at a path computed when it runs",
        ),
        (r"\[\s*['\"`][^\]]*\+", "a member named by a computed string"),
    ],
    "php": [
        (
            r"\b(?:system|exec|shell_exec|passthru|popen|proc_open|pcntl_exec|pcntl_fork|eval|"
            r"assert|create_function|call_user_func\w*|unlink|rmdir|rename|file_put_contents|"
            r"fopen|symlink|chmod|include|require|include_once|require_once|putenv|dl|"
            r"preg_replace_callback|array_map|usort|mail)\b",
            "a call that runs programs or code",
        ),
        (r"\$\w+\s*\(", "a function called by a computed name"),
    ],
    "awk": [
        (r"\bsystem\s*\(", "a command run by system()"),
        (r"\|\s*getline|\bprintf?\b[^;}\n(]*\|", "a command run through a pipe"),
    ],
}
# searched in the code as written (the strings matter)
_RAW: dict[str, list[tuple[str, str]]] = {
    "perl": [
        (r"\bopen\s*\(?[^;]*?['\"][^'\"]*\|", "a command run through open with a pipe"),
        (r"\bopen\s*\(?[^;]*?,\s*['\"]\s*[|-]\s*\|?", "a command run through open"),
        (
            r"\bs(?P<d>[^\w\s])(?:(?!(?P=d)).)*(?P=d)(?:(?!(?P=d)).)*(?P=d)[a-z]*e",
            "a substitution evaluated as code (s///e)",
        ),
        (r"`", "a command in backticks"),
    ],
    "ruby": [(r"`|%x", "a command in backticks")],
    "php": [(r"`", "a command in backticks")],
}
_COMPILED: dict[str, list[tuple[Any, str]]] = {}
_NAMES = r"\{\s*\w+(?:\s*,\s*\w+)*\s*,?\s*\}"  # {a, b}: no `as`, no `a: b`
_NODE_IMPORTS = (
    r"(?:(?:const|let|var)\s*"
    + _NAMES
    + r"\s*=\s*require\(\s*['\"](?:node:)?child_process['\"]\s*\)"
    r"|import\s*" + _NAMES + r"\s*from\s*['\"](?:node:)?child_process['\"])"
)


def _blank(code: str, spans: list[tuple[int, int]]) -> str:
    """The code with the known literal calls and every string's content replaced."""
    chars = list(code)
    for start, end in spans:
        for index in range(start, end):
            if chars[index] != "\n":
                chars[index] = " "
    blanked = "".join(chars)
    return re.sub(
        _STRING, lambda m: m.group(0)[0] + " " * (len(m.group(0)) - 2) + m.group(0)[-1], blanked
    )


def residue(language: str, code: str) -> str | None:
    """The first thing ``code`` does that the literal reader cannot account for, as a
    reason (None: nothing)."""
    from hookwise.shell.code_commands import literal_spans

    if language not in _COMPILED:
        _COMPILED[language] = [
            (re.compile(p, re.M), what) for p, what in _BLANKED.get(language, [])
        ] + [(re.compile(p, re.M | re.S), "raw:" + what) for p, what in _RAW.get(language, [])]
    code, spans = literal_spans(code, awk=language == "awk")
    if language == "node":  # const {execSync} = require('child_process'): the calls by that
        # same name are read as the literal calls they are (a renamed one is not)
        spans += [m.span() for m in re.finditer(_NODE_IMPORTS, code)]
    blanked = None
    residual_raw = None
    for pattern, label in _COMPILED[language]:
        what = label.removeprefix("raw:")
        if label.startswith("raw:"):
            if residual_raw is None:
                residual_raw = _blank_spans_only(code, spans)
            found = pattern.search(residual_raw)
        else:
            if blanked is None:
                blanked = _blank(code, spans)
            found = pattern.search(blanked)
        if found is not None:
            shown = found.group(0).strip()[:40]
            return f"the {language} code has {what} (`{shown}`), which hookwise cannot read"
    if language == "node":
        why = node_shell(code)
        if why is None:  # a code maker as a value, or a call on a module it cannot see into
            from hookwise.shell.code_paths.node_calls import unaccounted

            blanked = blanked if blanked is not None else _blank(code, spans)
            found = _NODE_VALUES.search(blanked)
            why = (
                f"`{found.group(0)}`, a way to run code made when it runs"
                if found is not None
                else unaccounted(code, blanked, _NODE_PURE)
            )
        if why is not None:
            return f"the node code has {why}, which hookwise cannot read"
    if language == "python":
        why = python_calls(blanked if blanked is not None else _blank(code, spans))
        if why is not None:
            return f"the python code has {why}, which hookwise cannot account for"
    return None


def _blank_spans_only(code: str, spans: list[tuple[int, int]]) -> str:
    chars = list(code)
    for start, end in spans:
        for index in range(start, end):
            chars[index] = " "
    return "".join(chars)


# ------------------------------------------------------------ Python calls, accounted for
#
# The patterns above name what runs programs; this reads every call on an imported name:
# a call the reader does not know to be harmless, given arguments, is one it cannot account
# for (``tempfile.TemporaryDirectory._rmtree("../victim")``: the stdlib has private
# helpers that delete, and a project's module can do anything with the words it is given).
# Without arguments (``torch.cuda.is_available()``, ``django.get_version()``) a call only
# asks the code on disk about itself. A private name, or a module bound or passed under
# another name, is never accounted for.

# modules every attribute of which is harmless (data, text, numbers, time, the interpreter)
_PY_PURE = frozenset(
    ["json", "math", "cmath", "re", "datetime", "time", "random", "string", "textwrap",
     "collections", "itertools", "functools", "operator", "hashlib", "hmac", "base64",
     "binascii", "uuid", "statistics", "decimal", "fractions", "pprint", "platform", "locale",
     "unicodedata", "struct", "typing", "dataclasses", "enum", "calendar", "secrets",
     "ipaddress", "html", "difflib", "heapq", "bisect", "array", "copy", "keyword", "ast",
     "tomllib", "sysconfig", "urllib.parse", "shlex", "fnmatch", "glob", "sys", "os.path",
     "posixpath", "zlib", "csv", "getpass", "socket.gethostname", "textwrap", "colorsys",
     "numbers", "abc", "contextlib", "warnings", "traceback", "argparse", "optparse"]
)  # fmt: skip
# harmless attributes of modules that also hold harmful ones
_PY_HARMLESS = frozenset(
    ["os.getcwd", "os.getenv", "os.listdir", "os.scandir", "os.walk", "os.stat", "os.lstat",
     "os.cpu_count", "os.getpid", "os.getppid", "os.getuid", "os.geteuid", "os.getgid",
     "os.uname", "os.get_terminal_size", "os.makedirs", "os.mkdir", "os.fspath",
     "os.fsencode", "os.fsdecode", "os.access", "os.isatty", "os.urandom", "os.getlogin",
     "os.environ.get", "os.environ.copy", "os.environ.items", "os.environ.keys",
     "os.environ.values", "os.sched_getaffinity", "tempfile.mkdtemp", "tempfile.mkstemp",
     "tempfile.gettempdir", "tempfile.NamedTemporaryFile", "tempfile.TemporaryDirectory",
     "tempfile.TemporaryFile", "shutil.which", "shutil.disk_usage",
     "shutil.get_terminal_size", "pathlib.Path", "pathlib.PurePath", "pathlib.PosixPath",
     "pathlib.PurePosixPath", "pathlib.Path.home", "pathlib.Path.cwd", "yaml.safe_load",
     "yaml.safe_load_all", "yaml.safe_dump", "yaml.dump", "toml.load", "toml.loads",
     "toml.dumps", "tomli.load", "tomli.loads", "importlib.metadata.version",
     "urllib.request.urlopen", "socket.gethostname", "io.StringIO", "io.BytesIO"]
)  # fmt: skip
# calls the literal reader reads as the cp they are when every argument is a literal
_PY_LITERAL_COPIES = frozenset(
    ["shutil.copy", "shutil.copy2", "shutil.copyfile", "shutil.copytree", "shutil.copymode"]
)
_PY_IMPORT = re.compile(
    r"(?:^|[;\n]|:)\s*import\s+([\w.]+(?:\s+as\s+\w+)?(?:\s*,\s*[\w.]+(?:\s+as\s+\w+)?)*)"
)
_PY_FROM = re.compile(r"(?:^|[;\n]|:)\s*from\s+([\w.]+)\s+import\s+\(?([\w\s,]+)\)?")
_PY_ASSIGN = re.compile(r"(?:^|[;\n])\s*(\w+)\s*=(?!=)\s*(\w+)")


def _harmless(path: str) -> bool:
    if path in _PY_HARMLESS:
        return True
    parts = path.split(".")
    return any(".".join(parts[:i]) in _PY_PURE for i in range(1, len(parts) + 1))


def _bound_names(code: str) -> dict[str, str]:
    """Names the code binds to modules or their attributes: ``import a.b`` binds ``a``,
    ``import a.b as x`` ``x`` (to ``a.b``), ``from m import n as k`` ``k`` (to ``m.n``)."""
    bound: dict[str, str] = {}
    for match in _PY_IMPORT.finditer(code):
        for item in match.group(1).split(","):
            name, _, alias = (w.strip() for w in item.strip().partition(" as "))
            if alias:
                bound[alias] = name
            elif name:
                bound[name.split(".")[0]] = name.split(".")[0]
    for match in _PY_FROM.finditer(code):
        for item in match.group(2).split(","):
            words = item.split()
            if words and words[0] != "*":
                bound[words[-1]] = f"{match.group(1)}.{words[0]}"
    return bound


def _closing(code: str, at: int) -> int:
    """The index after the ``)`` closing the ``(`` at ``at`` (strings are blanked)."""
    depth = 0
    for index in range(at, len(code)):
        if code[index] in "([{":
            depth += 1
        elif code[index] in ")]}":
            depth -= 1
            if depth == 0:
                return index + 1
    return len(code)


def fed_residue(code: str) -> str | None:
    """Why python code given its standard input on the line may run that input as code
    (None: it may not): a call the reader does not know to be harmless, even without
    arguments (``pdb.set_trace()``, sympy's ``init_session()``, ``code.interact()``: a
    console reads its stdin as code: red team s32 G), or a name imported with ``*`` from a
    module that is not (it may be any of them)."""
    from hookwise.shell.code_commands import literal_spans

    code, spans = literal_spans(code)
    blanked = _blank(code, spans)
    for match in _PY_STAR.finditer(blanked):
        if not _harmless(match.group(1)):
            return f"every name of `{match.group(1)}` (imported with *)"
    return python_calls(blanked, fed=True)


_PY_STAR = re.compile(r"(?:^|[;\n]|:)\s*from\s+([\w.]+)\s+import\s+\*")


def python_calls(code: str, fed: bool = False) -> str | None:
    """Why a call on an imported name is not accounted for (None: every one is), in code
    whose strings and known literal calls are blanked; ``fed``: the code's standard input
    is given on the line, so a call without arguments is not accounted for either. A
    debugger or console module (programs.PY_SHELLS: pdb, IPython, ptpython...) reads code
    from its standard input whatever the call."""
    from hookwise.shell.programs import PY_SHELLS

    bound = _bound_names(code)
    if not bound:
        return None
    for name, target in bound.items():
        top = target.split(".", 1)[0]
        if (
            top in PY_SHELLS
            and top != "asyncio"
            and re.search(rf"(?<![\w.]){re.escape(name)}\b\s*[.(]", code)
        ):
            return f"a console (`{target}`), which runs code read from its standard input"
    statements = {m.start(1) for m in re.finditer(r"(?:import|from)\s+([\w.]+)", code)}
    for name, target in list(bound.items()):
        # `s = shutil`, `r = os.remove`: the module (or a name of it) under another name
        for match in _PY_ASSIGN.finditer(code):
            if match.group(2) == name and not _harmless(target):
                bound[match.group(1)] = target
    names = "|".join(re.escape(n) for n in sorted(bound, key=len, reverse=True))
    for match in re.finditer(rf"(?<![\w.])({names})\b", code):
        before = code[: match.start()][-12:]
        if match.start() in statements or re.search(r"(?:import|as)\s+$|,\s*$", before):
            continue
        if re.match(r"\s*=(?!=)", code[match.end() :]):
            continue  # the name assigned (`d = tempfile.TemporaryDirectory()`)
        root = bound[match.group(1)].split(".")
        path = list(root)
        at = match.end()
        called = False
        while True:
            step = re.match(r"\s*\.\s*(\w+)", code[at:])
            if step is not None:
                path.append(step.group(1))
                at += step.end()
                continue
            if re.match(r"\s*\(", code[at:]):
                start = code.index("(", at)
                end = _closing(code, start)
                dotted = ".".join(path)
                shown = ".".join([match.group(1), *path[len(root) :]])
                if any(part.startswith("_") and not part.endswith("__") for part in path):
                    return f"a private name (`{shown}`)"
                arguments = code[start + 1 : end - 1]
                if dotted in _PY_LITERAL_COPIES and _literal_arguments(arguments):
                    pass
                elif not _harmless(dotted) and (arguments.strip() or fed):
                    return f"a call it does not know to be harmless (`{shown}(...)`)"
                path.append("()")
                called = True
                at = end
                continue
            break
        if not called and path == root and not _harmless(".".join(root)):
            following = code[at : at + 2].lstrip()[:1]
            before = code[: match.start()].rstrip()[-1:]
            if following not in ("", ";", "\n", ")") or (before and before in "(,="):
                return f"`{match.group(1)}`, a name of `{'.'.join(root)}` used under another name"
        if any(p.startswith("_") and not p.endswith("__") for p in path):
            return f"a private name (`{'.'.join(path)}`)"
    return None


def _literal_arguments(arguments: str) -> bool:
    """Whether blanked call arguments are string literals (and True/False/None keywords)."""
    rest = re.sub(r"'\s*'|\"\s*\"", "", arguments)
    return re.fullmatch(r"[\s,]*(?:\w+\s*=\s*(?:True|False|None)[\s,]*)*", rest) is not None


# ------------------------------------------------------------ node code given its stdin
#
# As python's fed_residue: node (deno, bun) code whose standard input is given on the
# line may run that input as code (red team s33 G: ``repl.start()``,
# ``vm.runInThisContext(readFileSync(0))``, readline's lines handed to ``eval``). What it
# cannot account for is unverifiable: a module that is not known to neither run code nor
# load it (any npm package too: lodash's ``template`` compiles its text), a code maker
# used as a value (``on("line", eval)``, ``x.constructor``), or a name reached by
# reflection. A console module (repl) reads code from its stdin whatever is on the line.

# node's modules none of whose functions run code or load it, whatever they are given
# (the writes of fs are the residue's, above)
_NODE_PURE = frozenset(
    ["assert", "assert/strict", "buffer", "console", "crypto", "events", "fs", "fs/promises",
     "os", "path", "path/posix", "path/win32", "perf_hooks", "process", "querystring",
     "readline", "readline/promises", "stream", "stream/promises", "string_decoder",
     "timers", "timers/promises", "tty", "url", "util", "zlib"]
)  # fmt: skip
# modules that read code from their standard input whatever they are called with
NODE_SHELLS = frozenset(["repl"])
_NODE_LOADED = re.compile(
    r"""(?:\brequire|\bgetBuiltinModule|\bimport)\s*\(\s*(['"`])([^'"`]*)\1"""
    r"""|\bimport\s+(?:[\w$*{}\s,]+?\s+from\s+)?(['"])([^'"]*)\3"""
)
_NODE_VALUES = re.compile(
    r"(?<![\w$])(?:eval|Function|AsyncFunction|GeneratorFunction|constructor|globalThis|"
    r"global|Reflect|Proxy|WebAssembly|module|require\s*\.\s*(?!resolve\b)\w+)(?![\w$])"
)


def _node_module(name: str) -> str:
    return name.removeprefix("node:")


def node_shell(code: str) -> str | None:
    """The console module ``code`` loads (None: none): it runs what its stdin gives."""
    for match in _NODE_LOADED.finditer(code):
        name = _node_module(match.group(2) if match.group(2) is not None else match.group(4))
        if name in NODE_SHELLS:
            return f"a console (`{name}`), which runs code read from its standard input"
    return None


def node_fed_residue(code: str) -> str | None:
    """Why node code given its standard input on the line may run that input as code
    (None: it may not)."""
    from hookwise.shell.code_commands import literal_spans

    code, spans = literal_spans(code)
    for match in _NODE_LOADED.finditer(code):
        name = _node_module(match.group(2) if match.group(2) is not None else match.group(4))
        if name not in _NODE_PURE:
            return f"a module it does not know to run no code (`{name}`)"
    blanked = _blank(code, spans)
    found = _NODE_VALUES.search(blanked)
    if found is not None:
        return f"`{found.group(0)}`, a way to run code made when it runs"
    found = re.search(r"[\w$)\]]\s*\[[^\]]*\]\s*\(", blanked)
    if found is not None:
        return f"a call through a computed name (`{found.group(0).strip()}`)"
    return None
