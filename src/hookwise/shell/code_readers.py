"""Where a program with a script language takes its code, and what that code runs.

For each family (``python``, ``perl``, ``node``, ``awk``, ``sed``, ``ed``/``ex``,
``sqlite3``, ``psql``, ``gdb``, ``make``, ``tclsh``...): code given inline (``-c``,
``-e``), a script operand, or stdin when there is neither. Code is read where it is known
here: inline, a here-document, ``echo ... |``, a file written earlier on the line, a
process substitution of a static ``echo``. Code read at run time (a pipe from ``curl`` or
``base64 -d``, ``/dev/stdin`` of a pipe, a file written with content known only when it
runs, a URL) is unverifiable. A script file already on disk is the project's code: not
read, not unverifiable (accounting.py says why).

The code, once known, goes to the reader of its language: the shell parser, the
one-liner reader (code_commands, with what it cannot account for from code_residue),
sed_script, ed/ex, SQL clients' meta commands, debugger commands, makefile recipes.

Cold: imported for a program of :data:`programs.CODE_READERS` only. Standard library.
"""

from __future__ import annotations

import re

from hookwise.shell.programs import IPYTHON_SHELLS, family
from hookwise.shell.programs import PY_SHELLS as _PY_SHELLS
from hookwise.shell.py_entry import python_entry

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    Items = list[tuple[str, Any]]

STDIN_FILES = frozenset(["-", "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"])


class Reader:
    """How one family takes its code: ``inline`` options (their value is code), options
    taking a value, options whose value is a script file, whether the first operand is
    the script, whether stdin is code when no script is given, and the language.

    Code also comes in beside the script (red team s24, finding 3): ``modules``, options
    whose value is a module loaded first (``perl -M'X;CODE'`` is ``use X;CODE;``, ``node
    --import data:...``), and ``stdin_too``, the flags after which stdin is code as well
    as ``-c``/``-e``/the script (``python -i``, ``node -i``, ``perl -d``; ``*``: always,
    as gdb and sqlite3 read commands after ``-ex``/``-cmd``; ``!F``: not with flag F)."""

    __slots__ = (
        "attached",
        "files",
        "inline",
        "language",
        "modules",
        "operand",
        "stdin",
        "stdin_too",
        "values",
    )

    def __init__(
        self,
        language: str,
        /,
        inline: tuple[str, ...] = (),
        values: tuple[str, ...] = (),
        files: tuple[str, ...] = (),
        *,
        operand: bool = True,
        stdin: bool = True,
        attached: str = "",
        modules: tuple[str, ...] = (),
        stdin_too: tuple[str, ...] = (),
    ) -> None:
        self.attached = attached  # short options whose value is the rest of the word
        self.modules = modules
        self.stdin_too = stdin_too
        self.language = language
        self.inline = inline
        self.values = frozenset(values)
        self.files = files
        self.operand = operand
        self.stdin = stdin


_PY_VALUES = ("-W", "-X", "-Q")
_NODE_MODULES = ("-r", "--require", "--import", "--loader", "--experimental-loader")
READERS: dict[str, Reader] = {
    "python": Reader("python", ("-c",), _PY_VALUES, attached="WXQm", stdin_too=("-i",)),
    "pypy": Reader("python", ("-c",), _PY_VALUES, attached="WXQm", stdin_too=("-i",)),
    "perl": Reader(
        "perl",
        ("-e", "-E"),
        ("-I", "-x"),
        attached="IMmxil0CdDF",
        modules=("-M", "-m"),
        stdin_too=("-d",),
    ),
    "ruby": Reader(
        "ruby", ("-e",), ("-I", "-r", "-C", "-E", "-F"), attached="IrCEFxKT", modules=("-r",)
    ),
    "irb": Reader("ruby", (), ("-I", "-r"), operand=True),
    "node": Reader(
        "node",
        ("-e", "--eval", "-p", "--print"),
        (
            "-r",
            "--require",
            "--import",
            "--loader",
            "--experimental-loader",
            "-C",
            "--conditions",
            "--input-type",
            "--env-file",
        ),
        modules=_NODE_MODULES,
        stdin_too=("-i", "--interactive"),
    ),
    "bun": Reader(
        "node",
        ("-e", "--eval", "-p", "--print"),
        ("-r", "--preload", "--cwd"),
        modules=("-r", "--preload"),
    ),
    "deno": Reader("node", (), ()),
    "php": Reader("php", ("-r", "-B", "-R", "-E"), ("-d", "-c", "-z"), ("-f",), stdin_too=("-a",)),
    "lua": Reader("lua", ("-e",), ("-l",), modules=("-l",), stdin_too=("-i",)),
    "luajit": Reader("lua", ("-e",), ("-l", "-j", "-O"), modules=("-l",), stdin_too=("-i",)),
    "Rscript": Reader("r", ("-e",), ()),
    "R": Reader("r", ("-e",), (), ("-f", "--file"), operand=False),
    "julia": Reader("julia", ("-e", "-E", "--eval", "--print"), ("-t", "-p", "-J")),
    "tclsh": Reader("tcl"),
    "wish": Reader("tcl"),
    "jimsh": Reader("tcl"),
    "expect": Reader("tcl", ("-c",), (), ("-f",)),
    "awk": Reader(
        "awk", ("-e", "--source"), ("-F", "-v", "--assign", "--field-separator"), ("-f", "--file")
    ),
    "ed": Reader("ed", (), ("-p",), operand=False),
    "red": Reader("ed", (), ("-p",), operand=False),
    "ex": Reader("ex", (), ("-c", "--cmd", "-u", "-i", "-T", "-w", "-W"), ("-S",), operand=False),
    "sqlite3": Reader(
        "sqlite",
        ("-cmd",),
        ("-separator", "-newline", "-nullvalue"),
        ("-init",),
        operand=False,
        stdin_too=("*",),
    ),
    "duckdb": Reader("sqlite", ("-cmd", "-c", "-s"), (), ("-init", "-f"), operand=False),
    "psql": Reader(
        "psql",
        ("-c", "--command"),
        (
            "-d",
            "--dbname",
            "-h",
            "--host",
            "-p",
            "--port",
            "-U",
            "--username",
            "-v",
            "--set",
            "--variable",
            "-P",
            "--pset",
            "-o",
            "--output",
            "-L",
            "-F",
            "-R",
        ),
        ("-f", "--file"),
        operand=False,
    ),
    "mysql": Reader(
        "mysql",
        ("-e", "--execute"),
        (
            "-u",
            "--user",
            "-h",
            "--host",
            "-P",
            "--port",
            "-D",
            "--database",
            "-S",
            "--socket",
            "--default-character-set",
        ),
        (),
        operand=False,
    ),
    "gdb": Reader(
        "gdb",
        ("-ex", "--ex", "-eval-command", "--eval-command", "-iex"),
        (
            "-p",
            "--pid",
            "-cd",
            "--cd",
            "-d",
            "--directory",
            "-s",
            "--symbols",
            "-e",
            "--exec",
            "-c",
            "--core",
        ),
        ("-x", "--command", "-ix"),
        operand=False,
        stdin_too=("*", "!-batch", "!--batch"),
    ),
    "lldb": Reader(
        "lldb",
        ("-o", "--one-line", "-O", "-k", "--one-line-on-crash"),
        ("-p", "--attach-pid", "-n", "--attach-name", "-c", "--core"),
        ("-s", "--source", "-S"),
        operand=False,
    ),
    "make": Reader(
        "make",
        (),
        (
            "-C",
            "--directory",
            "-I",
            "--include-dir",
            "-j",
            "--jobs",
            "-l",
            "--load-average",
            "-o",
            "-W",
            "--what-if",
        ),
        ("-f", "--file", "--makefile"),
        operand=False,
        stdin=False,
    ),
    "cmake": Reader(
        "cmake",
        (),
        ("-S", "-B", "-G", "-T", "-A", "-C", "-D", "-U"),
        ("-P",),
        operand=False,
        stdin=False,
    ),
    "m4": Reader("m4", (), ("-D", "-U", "-I", "-l", "-o")),
    "dc": Reader("dc", ("-e", "--expression"), (), ("-f", "--file")),
    "pwsh": Reader(
        "pwsh",
        ("-c", "-Command", "-command", "--command"),
        ("-ExecutionPolicy", "-WorkingDirectory", "-wd"),
        ("-f", "-File", "-file"),
        operand=False,
    ),
    "osascript": Reader("osascript", ("-e",), ("-l", "-s")),
    "emacs": Reader(
        "emacs",
        ("--eval", "-eval", "--execute"),
        (),
        ("-l", "--load", "--script", "-script"),
        operand=False,
        stdin=False,
    ),
    "crontab": Reader("cron", (), ("-u",)),
    "xonsh": Reader("foreign", ("-c",), ()),
    "nu": Reader("foreign", ("-c", "--commands"), ()),
    "elvish": Reader("foreign", ("-c",), ()),
    "sed": Reader("sed", (), (), ("-f", "--file"), operand=False, stdin=False),
    "ssh": Reader(
        "ssh_config",
        ("-o",),
        (
            "-b",
            "-c",
            "-D",
            "-E",
            "-e",
            "-I",
            "-i",
            "-J",
            "-L",
            "-l",
            "-m",
            "-O",
            "-p",
            "-Q",
            "-R",
            "-S",
            "-W",
            "-w",
            "-B",
        ),
        ("-F",),
        operand=False,
        stdin=False,
    ),
    "scp": Reader(
        "ssh_config",
        ("-o",),
        ("-c", "-i", "-J", "-l", "-P", "-S", "-D", "-X"),
        ("-F",),
        operand=False,
        stdin=False,
    ),
    "sftp": Reader(
        "ssh_config",
        ("-o",),
        ("-B", "-b", "-c", "-D", "-i", "-J", "-l", "-P", "-R", "-S", "-s", "-X"),
        ("-F",),
        operand=False,
        stdin=False,
    ),
    # programs that run code or commands from their data (red team s25): a build file, a
    # test or a document given on the line is read; hookwise reads no Java, LLVM IR or
    # JShell, so code of theirs given on the line is unverifiable (on disk: the project's)
    "ninja": Reader(
        "ninja",
        (),
        ("-C", "-j", "-k", "-l", "-d", "-t", "-w"),
        ("-f",),
        operand=False,
        stdin=False,
    ),
    "prove": Reader(
        "perl", (), ("-I", "-j", "-e", "--exec", "-r", "-M", "-P"), operand=True, stdin=False
    ),
    "jshell": Reader(
        "java",
        (),
        (
            "-R",
            "-J",
            "--class-path",
            "--module-path",
            "--add-modules",
            "--startup",
            "--feedback",
            "-C",
        ),
    ),
    "java": Reader(
        "java",
        (),
        (
            "-cp",
            "-classpath",
            "--class-path",
            "-p",
            "--module-path",
            "--add-modules",
            "-m",
            "--module",
            "-jar",
            "--source",
        ),
        stdin=False,
    ),
    "lli": Reader("llvm", (), ("-load", "-entry-function", "-extra-module", "-extra-object")),
    "groff": Reader(
        "roff",
        (),
        (
            "-m",
            "-M",
            "-T",
            "-I",
            "-F",
            "-d",
            "-f",
            "-n",
            "-o",
            "-r",
            "-w",
            "-W",
            "-K",
            "-D",
            "-L",
            "-P",
        ),
    ),
    # pic's `sh X command X` runs a command (gpic -U), `copy "F"` reads F (red team s28 L)
    "pic": Reader("pic", (), ("-T",)),
    # python's debugger: -c commands (a statement it does not know as a command is run
    # as Python, `!` forces it), then its commands on stdin; the operand is the script
    "pdb": Reader("python", ("-c", "--command"), (), stdin_too=("*",)),
    # sympy's console: IPython's (or python's) shell on its stdin, no script operand
    "isympy": Reader(
        "python",
        (),
        ("-c", "--console", "-p", "--pretty", "-t", "--types", "-o", "--order"),
        operand=False,
    ),
    "parallel": Reader("sh"),
    "sem": Reader("sh"),
}
for _alias, _name in (
    ("nodejs", "node"),
    ("gawk", "awk"),
    ("mawk", "awk"),
    ("nawk", "awk"),
    ("busybox-awk", "awk"),
    ("vi", "ex"),
    ("vim", "ex"),
    ("nvim", "ex"),
    ("view", "ex"),
    ("gvim", "ex"),
    ("rvim", "ex"),
    ("mariadb", "mysql"),
    ("gmake", "make"),
    ("powershell", "pwsh"),
    ("gsed", "sed"),
):
    READERS[_alias] = READERS[_name]

# python -m MODULE that runs code from its operands: timeit's statements (and -s setup),
# doctest's examples in the files it is given
_PY_CODE_MODULES = frozenset(["timeit", "doctest"])
# standard library modules known to do nothing with their operands but read them as data,
# serve files, or make environments: every other one of the standard library is a tool
# whose handling of its operands the reader does not know (pickle unpickles code,
# cProfile/profile/trace run a script, pydoc imports a file, webbrowser runs $BROWSER):
# `python -m` of it is unverifiable. A module outside the standard library is the
# project's or an installed package's code on disk (python -m pytest, -m mypkg.cli).
PY_HARMLESS_MODULES = frozenset(
    ["http.server", "json.tool", "venv", "ensurepip", "unittest", "compileall", "py_compile",
     "site", "sysconfig", "platform", "calendar", "base64", "uuid", "tokenize", "ast", "dis",
     "tabnanny", "pyclbr", "mimetypes", "quopri", "filecmp", "pickletools", "locale", "this",
     "random", "sqlite3.dump"]
)  # fmt: skip


def unread_module(module: str) -> bool:
    """Whether ``python -m module`` runs a standard library tool the reader does not know."""
    import sys

    top = module.split(".", 1)[0]
    return (
        top in sys.stdlib_module_names
        and module not in PY_HARMLESS_MODULES
        and module not in _PY_CODE_MODULES
        and module not in PY_ARCHIVE_MODULES
        and top not in _PY_SHELLS
    )


# python -m zipfile/tarfile: the archive tools of the standard library, whose command
# lines are small and fixed: the mode option (list, test, extract, create), then operands;
# an option taking a value; an extraction's write is DATA_WRITERS' (programs.py)
_PY_ARCHIVE_MODES = {"-l": "l", "--list": "l", "-t": "t", "--test": "t", "-e": "e",
                     "--extract": "e", "-c": "c", "--create": "c"}  # fmt: skip
_PY_ARCHIVE_VALUED = frozenset(["--filter", "--metadata-encoding"])
PY_ARCHIVE_MODULES = frozenset(["zipfile", "tarfile"])


def _served(args: list[str]) -> str:
    """The directory ``python -m http.server`` serves: ``-d``/``--directory`` (an unique
    prefix of it too), else the working directory."""
    for k, word in enumerate(args):
        name, eq, value = word.partition("=")
        if word == "-d" or (len(name) > 4 and "--directory".startswith(name)):
            return value if eq else (args[k + 1] if k + 1 < len(args) else ".")
        if word.startswith("-d") and len(word) > 2:
            return word[2:]
    return "."


def py_archive_module(module: str, args: list[str]) -> Items:
    """What ``python -m zipfile``/``tarfile`` reads and writes: a listing, test or
    extraction reads the archive; a creation writes its first operand from the files it
    reads. An option the tool's command line does not have is unverifiable."""
    mode = ""
    operands: list[str] = []
    k = 0
    while k < len(args):
        word = args[k]
        name = word.partition("=")[0]
        if word in _PY_ARCHIVE_MODES and not mode:
            mode = _PY_ARCHIVE_MODES[word]
        elif name in _PY_ARCHIVE_VALUED:
            k += 0 if "=" in word else 1
        elif word in ("-v", "--verbose", "-h", "--help"):
            pass
        elif word.startswith("-") and word != "-":
            why = f"python -m {module} {word}: an option hookwise does not read"
            return [("unverifiable", why)]
        else:
            operands.append(word)
        k += 1
    if mode == "c":  # (a directory among the sources: every file under it)
        return [("write", operands[0])] * bool(operands) + [("tree", f) for f in operands[1:]]
    return [("read", operands[0])] if mode and operands else []


def _py_code_module(
    module: str,
    args: list[str],
    command: Any,
    script: Any,
    readers: tuple[Callable[[Any], str | None], Callable[[str, int], list[Any]]],
) -> Items:
    """What ``python -m timeit`` or ``python -m doctest`` runs from ``args`` (``readers``:
    the parser's printed and parsed, as for :func:`read`)."""
    out: Items = []
    if module == "timeit":
        code: list[str] = []
        k = 0
        while k < len(args):
            word = args[k]
            if word in ("-s", "--setup"):
                code += args[k + 1 : k + 2]
                k += 2
            elif word.startswith("--setup="):
                code.append(word.partition("=")[2])
                k += 1
            elif word in ("-n", "-r", "-u", "--number", "--repeat", "--unit"):
                k += 2
            elif word.startswith("-") and word != "-":
                k += 1
            else:
                code.append(word)
                k += 1
        return [item for text in code for item in language_items("python", text)]
    for source in (w for w in args if not w.startswith("-")):
        known, where = _file_code(source, command, script, *readers)
        if known is not None:  # the examples: >>> and ... lines are Python
            examples = [line.lstrip()[4:] for line in known.splitlines()
                        if line.lstrip().startswith((">>> ", "... "))]  # fmt: skip
            out += language_items("python", "\n".join(examples) or known)
        elif where:
            why = f"doctest runs examples from {where}, known only when it runs"
            out.append(("unverifiable", why))
    return out


# standard library tools that run a script or module as python would, with their own
# options first: module -> (options taking a value, options writing their value's file,
# options after which the operand is a module, options that only report: nothing runs)
_PY_SCRIPT_RUNNERS: dict[str, tuple[frozenset[str], frozenset[str], frozenset[str]]] = {
    **dict.fromkeys(
        ["cProfile", "profile"],
        (frozenset(["-o", "--outfile", "-s", "--sort"]), frozenset(["-o", "--outfile"]),
         frozenset(["-m"])),
    ),
    # pdb's -m MOD runs MOD as python -m would (red team s32 G: -m dotenv list)
    "pdb": (frozenset(["-c", "--command"]), frozenset(), frozenset(["-m"])),
    "trace": (
        frozenset(["-f", "--file", "-C", "--coverdir", "--ignore-module", "--ignore-dir"]),
        frozenset(["-f", "--file", "-C", "--coverdir"]),
        frozenset(["--module"]),
    ),
}  # fmt: skip
_TRACE_FLAGS = frozenset(["-c", "--count", "-t", "--trace", "-l", "--listfuncs", "-T",
                          "--trackcalls", "-m", "--missing", "-s", "--summary", "-R",
                          "--no-report", "-g", "--timing"])  # fmt: skip


def _py_script_runner(module: str, args: list[str], program: str) -> Items | None:
    """What ``python -m cProfile|profile|trace [OPTIONS] SCRIPT ARGS`` runs: ``python
    SCRIPT ARGS`` (or ``python -m MOD ARGS``), read as that command is, and the files its
    options write. None: an option it does not know (the caller finds it unverifiable)."""
    valued, writers, as_module = _PY_SCRIPT_RUNNERS[module]
    out: Items = []
    k = 0
    while k < len(args):
        word = args[k]
        name, eq, value = word.partition("=")
        if name in valued and name.startswith("--") and eq:
            out += [("write", value)] if name in writers else []
            k += 1
        elif word in valued:
            out += [("write", args[k + 1])] if word in writers and k + 1 < len(args) else []
            k += 2
        elif word in as_module and k + 1 < len(args):
            return [*out, ("argv", [program, "-m", *args[k + 1 :]])]
        elif module == "trace" and word in _TRACE_FLAGS:
            k += 1
        elif word.startswith("-"):
            return None
        else:
            return [*out, ("argv", [program, *args[k:]])]
    return out


# programs whose output piped into a database client is SQL from data on disk
_DUMPERS = frozenset(
    [
        "cat",
        "zcat",
        "gzcat",
        "bzcat",
        "xzcat",
        "zstdcat",
        "gunzip",
        "pg_dump",
        "pg_dumpall",
        "mysqldump",
        "mariadb-dump",
        "sqlite3",
    ]
)
_DATABASES = frozenset(["sqlite", "psql", "mysql"])
_FILE_LANGUAGES = {
    ".py": "python",
    ".pth": "python",
    ".pl": "perl",
    ".pm": "perl",
    ".rb": "ruby",
    ".js": "node",
    ".mjs": "node",
    ".cjs": "node",
    ".ts": "node",
    ".php": "php",
    ".lua": "lua",
    ".awk": "awk",
    ".tcl": "tcl",
    ".r": "r",
    ".jl": "julia",
    ".mk": "make",
    ".sed": "sed",
}
_MAKEFILES = frozenset(["Makefile", "makefile", "GNUmakefile"])


def _awk_assigned(argv: list[str]) -> list[str]:
    """The values awk's variables get on the line: ``-v X=V``, ``-vX=V``, ``--assign
    X=V`` and operands ``X=V`` (assigned before the file after them is read)."""
    import re

    found: list[str] = []
    words = iter(argv[1:])
    for word in words:
        given = word
        if word in ("-v", "--assign"):
            given = next(words, "")
        elif word.startswith(("-v", "--assign=")) and "=" in word:
            given = word[2:] if word.startswith("-v") else word.partition("=")[2]
        elif word in ("-F", "-f", "--field-separator", "--file"):
            next(words, None)
            continue
        if re.match(r"^[A-Za-z_]\w*=(?!=)", given):  # (not awk code: NR==1{...})
            value = given.partition("=")[2]
            if value:
                found.append(value)
    return found


def _scan(argv: list[str], reader: Reader) -> tuple[list[str], list[str], str | None, int]:
    """(inline code, script files named by options, the script operand, its index)."""
    code: list[str] = []
    files: list[str] = []
    inline = reader.inline
    i = 1
    while i < len(argv):
        word = argv[i]
        following = argv[i + 1] if i + 1 < len(argv) else None
        if word == "--":
            operand = following if reader.operand else None
            return code, files, operand, i + 1
        if word == "-":
            return code, files, "-", i
        option, eq, value = word.partition("=")
        if word in inline or (eq and option in inline and option.startswith("--")):
            if eq and option.startswith("--"):
                code.append(value)
                i += 1
                continue
            if following is not None:
                code.append(following)
            i += 2
            continue
        if word in reader.files or (eq and option in reader.files):
            if eq:
                files.append(value)
                i += 1
                continue
            if following is not None:
                files.append(following)
            i += 2
            continue
        if word in reader.values:
            i += 2
            continue
        if word.startswith("-") and len(word) > 1:
            short = next((f for f in inline if len(f) == 2 and word.startswith(f)), None)
            letters = {f[1] for f in inline if len(f) == 2}
            if short is not None and not word.startswith("--") and set(word[1:]) <= letters:
                if following is not None:  # node -pe CODE: -p and -e, the code after them
                    code.append(following)
                i += 2
                continue
            if short is not None and not word.startswith("--"):
                code.append(word[2:])  # python -c'print(1)', perl -e'...'
            elif (
                not word.startswith("--")
                and len(word) > 2
                and word[1:].isalpha()
                and not any(letter in reader.attached for letter in word[1:-1])
                and any(len(f) == 2 and word.endswith(f[1]) for f in inline)
                and following is not None
            ):
                code.append(following)  # python -Ic CODE, perl -ne CODE
                i += 2
                continue
            i += 1
            continue
        return code, files, (word if reader.operand else None), i
    return code, files, None, i


# the one word of an interpreter's query of itself: it prints and exits, reading no code
_SELF_QUERIES = frozenset(["--version", "-V", "--help", "-h", "-version", "-help"])


def asks_about_itself(argv: list[str]) -> bool:
    """Whether the command is only ``PROGRAM --version`` (``-V``, ``--help``, ``-h``):
    ``ipython --version`` prints its version and exits, reading no code from its stdin."""
    return len(argv) == 2 and argv[1] in _SELF_QUERIES


def read(
    command: Any,
    script: Any,
    printed: Callable[[Any], str | None],
    parsed: Callable[[str, int], list[Any]],
) -> Items:
    """What ``command`` (a program of a code-reader family) runs from its code."""
    name = family(command.program) or ""
    reader = READERS.get(name)
    if reader is None or asks_about_itself(command.argv):
        return []
    argv = command.argv
    program = command.program
    language = reader.language
    out: Items = []
    if language == "ex":  # -c, --cmd, +cmd: Ex commands
        commands = [argv[k + 1] for k in range(1, len(argv) - 1) if argv[k] in ("-c", "--cmd")]
        commands += [w[1:] for w in argv[1:] if w.startswith("+")]
        if commands:  # (a `!` in one is option_commands': the shell command it runs)
            from hookwise.shell.code_commands import code_commands

            out += language_items("ex", "\n".join(c for c in commands if "!" not in c))
            for text in commands:  # call system("rm -rf x"): its literal commands
                out += code_commands(text)
    if name in ("vi", "vim", "nvim", "view", "gvim", "rvim") and not _ex_mode(argv):
        return out  # its stdin is text to edit
    if name == "deno":
        return _deno(command, script, printed)
    if name in ("parallel", "sem"):
        return _parallel(command, script, printed, parsed)
    ipython = program in IPYTHON_SHELLS
    if ipython:  # IPython's options: --c is -c; --Class.trait=V sets its config
        argv = _ipython_argv(argv)
        config = next((w for w in argv[1:] if w.startswith("--") and "." in w.split("=")[0]), "")
        if config:
            why = f"{program} {config}: an IPython setting, which may hold code or load files"
            out.append(("unverifiable", why))
    code, files, operand, at = _scan(argv, reader)
    entry = python_entry(argv) if name in ("python", "pypy") else None
    if entry is not None and entry.kind in ("module", "script") and "i" in entry.flags:
        # python -i: once the module or script ends, its standard input is code
        why = f"{program} -i runs code read from its standard input after {entry.value}"
        return [*out, ("unverifiable", why)]
    if entry is not None and entry.kind == "module":  # after python's options (-Im, -mX)
        module, rest = entry.value, entry.rest
        if module in _PY_CODE_MODULES:
            found = _py_code_module(module, rest, command, script, (printed, parsed))
            return found + _pending(script, language, program)
        if module in PY_ARCHIVE_MODULES:
            return py_archive_module(module, rest)
        if module == "pydoc" and not any(w in ("-p", "-b", "-n") for w in rest):
            # pydoc NAME imports NAME (the project's or an installed module, as python -m
            # NAME would: red team s31 friction); -w writes NAME.html here; -p/-b serve
            names = [w for w in rest if not w.startswith("-")]
            written = [("write", f"{n.rsplit('/', 1)[-1].removesuffix('.py')}.html") for n in names]
            return (written if "-w" in rest else []) + _pending(script, language, program)
        if module in _PY_SCRIPT_RUNNERS:  # python -m cProfile -o F src/app.py: it runs that
            runs = _py_script_runner(module, rest, program)
            if runs is not None and module not in _PY_SHELLS:
                return runs
            out += runs or []  # pdb -m MOD: MOD runs, and pdb's -c and stdin are code
        if module == "http.server":  # it serves every file under its directory
            return [("tree", _served(rest))]
        if module == "venv":  # --clear DIR: its rm -r (red team s32 H)
            from hookwise.shell.commands.tool_options import cleared

            return cleared(module, rest) + _pending(script, language, program)
        if unread_module(module):
            why = f"python -m {module} runs a standard library tool whose handling of its"
            return [("unverifiable", f"{why} operands and input hookwise does not read")]
        if module.split(".")[0] not in _PY_SHELLS:
            return _pending(script, language, program)
        # pdb -c CMD: debugger commands (Python too)
        code = [rest[k + 1] for k in range(len(rest) - 1) if rest[k] in ("-c", "--command")]
        operand = None
    if name == "cmake" and "-E" in argv:
        return _cmake(argv)
    if name in ("awk", "gawk", "mawk", "nawk", "busybox-awk") and not code and not files:
        code = [operand] if operand is not None else []
        operand = None
    if name in ("awk", "gawk", "mawk", "nawk", "busybox-awk") and any(
        "getline" in text for text in code
    ):  # awk -v f=.env '...getline l < f': a value may name the file getline reads
        out += [("read", value) for value in _awk_assigned(argv)]
    if language == "sqlite" and at < len(argv):
        code = code + [w for w in argv[at + 1 :] if not w.startswith("-")]  # db SQL...
    if language == "sqlite" and len(code) > 1:  # one session: `.cd D` moves the later ones
        code = ["\n".join(code)]
    if name == "gdb" and "--args" in argv:
        at_args = argv.index("--args")
        if at_args + 1 < len(argv):
            out.append(("argv", argv[at_args + 1 :]))
    if name == "make":  # make X:=$(shell ...): a variable given on the line is make code
        code = code + [w for w in argv[1:] if "=" in w and not w.startswith("-")]
    if name == "gdb" and len(code) > 1:  # -ex 'file /bin/rm' -ex 'run -rf d': one script
        code = ["\n".join(code)]
    if ipython:  # IPython's own syntax beside Python's
        code, escapes = _ipython_escapes(code)
        out += escapes
    for text in code:
        out += language_items(language, text)
    out += _fed_items(command, language, program, code)
    sources = list(files)
    if operand is not None:
        sources.append(operand)
    if name == "make" and not files:
        sources += [m for m in _MAKEFILES if script.was_written(m)]
    if name == "make" and any(source in STDIN_FILES for source in sources):
        # make -f - (-f /dev/stdin): a makefile's ways to run code are many (load, include,
        # .RECIPEPREFIX, guile...): one fed on the line is not judged by its spelling alone
        # (what its text is read to run is judged too: a deny stays a deny)
        why = "make reads a makefile from its standard input"
        out.append(("unverifiable", f"{why}: the code it runs is not the project's"))
    if name == "ninja" and not files:
        sources += [m for m in script.written if m.rsplit("/", 1)[-1] == "build.ninja"]
    if name == "cmake":  # cmake -S DIR, cmake DIR: the CMakeLists.txt there, *.cmake it includes
        sources += [
            m for m in script.written if m.rsplit("/", 1)[-1] == "CMakeLists.txt" or
            m.endswith(".cmake")
        ]  # fmt: skip
    for source in sources:
        known, where = _file_code(source, command, script, printed, parsed)
        if known is not None and ipython and source.endswith(".ipy"):  # IPython's language
            kept, escapes = _ipython_escapes([known])
            out += escapes
            known = kept[0]
        if known is not None:
            out += language_items(language, known)
        elif where:
            out.append(
                ("unverifiable", f"{program} runs code from {where}, known only when it runs")
            )
    stdin_code = (
        not code
        and not files
        and (operand is None or operand in STDIN_FILES)
        and (reader.stdin or (operand in STDIN_FILES))
    )
    if name in ("ed", "red", "ex") or (language == "ex" and _ex_mode(argv)):
        stdin_code = True
    if reader.stdin_too and not stdin_code:
        # sqlite3 DB SQL runs the SQL and reads no stdin
        sql = language == "sqlite" and any(not w.startswith("-") for w in argv[at + 1 :])
        stdin_code = not sql and _flag_given(argv, at, reader, reader.stdin_too)
    if reader.modules:
        out += _module_items(
            argv, at, reader, command=command, script=script, printed=printed, parsed=parsed
        )
    if stdin_code:
        known, where = _stdin_code(command, script, printed, parsed, language)
        if where == TYPED_LATER and (code or files or language in _DATABASES or language == "ex"):
            where = ""  # its code is given, or its stdin is data (ex, SQL): not a REPL
        if known is not None and ipython:  # ipython <<< '!rm -rf d' (red team s31 G)
            kept, escapes = _ipython_escapes([known], lines_are_cells=True)
            out += escapes
            known = kept[0]
        if known is not None:
            out += language_items(language, known)
        elif where:
            out.append(
                ("unverifiable", f"{program} runs code read from {where}, known only when it runs")
            )
    if name == "make":  # make -C D: its makefiles and recipes are read and run in D
        from hookwise.shell.option_commands import in_directory, make_directory

        out = in_directory(out, make_directory(argv))
    return out + _pending(script, language, program)


def _fed(command: Any) -> bool:
    """Whether the line gives ``command`` its standard input (a here-document or string,
    a pipe, a redirect that is no write)."""
    return bool(
        command.stdin
        or command.piped_from is not None
        or any(r not in command.writes for r in command.redirects)
    )


def _fed_items(command: Any, language: str, program: str, code: list[str]) -> Items:
    """python -c CODE <<< INPUT, node -e CODE <<< INPUT: may CODE run its input (red team
    s32 G, s33 G)? If it may, the input's effect is unverifiable."""
    if language not in ("python", "node") or not _fed(command):
        return []
    from hookwise.shell.code_residue import fed_residue, node_fed_residue

    judge = fed_residue if language == "python" else node_fed_residue
    for text in code:
        fed = judge(text)
        if fed is not None:
            why = f"{program} is given its standard input, and its code has {fed}"
            return [("unverifiable", f"{why}, which may run that input as code")]
    return []


def _ipython_argv(argv: list[str]) -> list[str]:
    """IPython's command line with its one-letter aliases as python spells them: traitlets
    takes ``--c CODE``, ``--c=CODE`` and ``-c CODE`` alike (``--m``, ``--i`` too)."""
    out = argv[:1]
    for word in argv[1:]:
        name, eq, value = word.partition("=")
        if len(name) == 3 and name.startswith("--") and name[2].isalpha():
            out += [name[1:], value] if eq else [name[1:]]
        else:
            out.append(word)
    return out


_IPY_SHELL = re.compile(r"\s*(?:[A-Za-z_]\w*\s*=\s*)?!!?(.*)")
_IPY_MAGIC = re.compile(r"\s*(?:[A-Za-z_]\w*\s*=\s*)?%")  # %magic, x = %sx CMD
# IPython's own split of an input line (IPython.core.splitinput.line_split): leading
# space, an escape, the first name (ifun), the rest
_IPY_LINE = re.compile(r"(\s*)([,;/%]|!!?|\?\??)?\s*(%{0,2}[\w.*]*)(.*)", re.S)


def _ipython_line(line: str, one_line_cell: bool) -> Items | None:
    """What IPython does with ``line`` beyond Python (None: it runs it as Python).

    IPython reads its own language (red team s32 F): ``!CMD`` runs a shell command, ``%``
    a magic, ``,f a b``/``;f a b``/``/f a`` call ``f`` with the words as strings, and in a
    cell of one line (IPython's prefilter runs only on those) a first name that is not a
    keyword, a builtin or a dotted name may be a magic or one of its shell aliases run
    without ``%`` (``rm -rf d``, ``cat ~/.netrc``, ``sx CMD``, ``cd``): in a one-line cell
    such a name is bound nowhere else, so it is either a NameError or that command."""
    import builtins
    import keyword

    shell = _IPY_SHELL.fullmatch(line)
    if shell is not None:
        return [("script", shell.group(1))]
    if _IPY_MAGIC.match(line):
        return [("unverifiable", f"IPython runs the magic {line.strip()!r}")]
    split = _IPY_LINE.fullmatch(line)
    if split is None or not line.strip():
        return None
    escape, name, rest = split.group(2), split.group(3), split.group(4).lstrip()
    if escape in (",", ";", "/"):
        why = (
            f"IPython calls {name or 'a function'} with the words after it ({line.strip()[:60]!r})"
        )
        return [("unverifiable", why)]
    if "get_ipython" in line:
        return [
            ("unverifiable", "the code uses IPython's shell object, which runs magics and commands")
        ]
    if (
        one_line_cell
        and name
        and "." not in name
        and not keyword.iskeyword(name)
        and not hasattr(builtins, name)
        and rest[:1] not in ("=", ",")
    ):
        why = f"IPython may run {name!r} as a magic or a shell alias ({line.strip()[:60]!r})"
        return [("unverifiable", why)]
    return None


def _ipython_escapes(code: list[str], lines_are_cells: bool = False) -> tuple[list[str], Items]:
    """IPython code without what IPython runs beyond Python (_ipython_line): shell
    escapes are read as the commands they are (red team s30 B), the rest is unverifiable.
    ``lines_are_cells``: the code is typed in, each line a cell (its standard input)."""
    kept: list[str] = []
    out: Items = []
    for text in code:
        lines = []
        cell = [line for line in text.splitlines() if line.strip()]
        for line in text.splitlines():
            found = _ipython_line(line, lines_are_cells or len(cell) == 1)
            if found is None:
                lines.append(line)
            else:
                out += found
        kept.append("\n".join(lines))
    return kept, out


def _flag_given(argv: list[str], at: int, reader: Reader, flags: tuple[str, ...]) -> bool:
    """Whether one of ``flags`` is among the options before ``at``, alone or in a cluster
    of short options (``python -im this``, ``perl -de 0``); ``*``: unless a ``!`` flag is."""
    takes = set(reader.attached) | {o[1] for o in (*reader.inline, *reader.values) if len(o) == 2}
    given: set[str] = set()
    for word in argv[1:at]:
        given.add(word.split("=", 1)[0])
        if word[:1] == "-" and word[1:2] not in ("-", ""):
            for letter in word[1:]:
                given.add("-" + letter)
                if letter in takes:
                    break
    if "*" in flags:
        return not any(f[1:] in given for f in flags if f.startswith("!"))
    return any(f in given for f in flags)


# perl -MMod / -MMod=a,b / -M-Mod: a module on disk (the arguments after = are data, in
# q\0...\0); anything else (-M'Mod;CODE') puts code after ``use``
_PERL_MODULE = r"-?[A-Za-z_][\w:]*(?:=.*)?"


def _module_items(
    argv: list[str],
    at: int,
    reader: Reader,
    *,
    command: Any,
    script: Any,
    printed: Callable[[Any], str | None],
    parsed: Callable[[str, int], list[Any]],
) -> Items:
    """What the modules named by ``reader.modules`` run before the code: code written in
    the option (perl's ``-M'X;CODE'``, a ``data:`` URL), a file written on the line, a URL
    (unverifiable); a module on disk is the project's code, not read."""
    import re

    out: Items = []
    language, program = reader.language, command.program
    for index, word in enumerate(argv[1:at], start=1):
        value = None
        for option in reader.modules:
            if word == option and index + 1 < len(argv):
                value = argv[index + 1]
            elif option.startswith("--") and word.startswith(option + "="):
                value = word[len(option) + 1 :]
            elif len(option) == 2 and word.startswith(option) and len(word) > 2:
                value = word[2:]
            if value is not None:
                break
        if value is None:
            continue
        if language == "perl":
            if not re.fullmatch(_PERL_MODULE, value, re.S):
                out += language_items("perl", f"use {value};")
            continue
        if value.startswith("data:"):
            code = _data_url(value)
            if code is None:
                out.append(("unverifiable", f"{program} loads a data: URL hookwise cannot decode"))
            else:
                out += language_items(language, code)
            continue
        known, where = _file_code(value, command, script, printed, parsed)
        if known is not None:
            out += language_items(language, known)
        elif where:  # a URL, a file the line writes at run time, a pipe
            out.append(("unverifiable", f"{program} loads {where[:60]}, known only when it runs"))
    return out


def _data_url(url: str) -> str | None:
    """The text of a ``data:`` URL (percent-encoded or base64), None if it is not one."""
    import base64
    import binascii
    from urllib.parse import unquote

    head, comma, body = url[5:].partition(",")
    if not comma:
        return None
    if head.endswith(";base64"):
        try:
            return base64.b64decode(unquote(body), validate=False).decode("utf-8", "replace")
        except (binascii.Error, ValueError):
            return None
    return unquote(body)


_PARALLEL_VALUES = frozenset(
    [
        "-j",
        "--jobs",
        "-P",
        "--max-procs",
        "-S",
        "--sshlogin",
        "--slf",
        "-a",
        "--arg-file",
        "-d",
        "--delimiter",
        "-E",
        "--eof",
        "-I",
        "--colsep",
        "-C",
        "-n",
        "--max-args",
        "-N",
        "--max-replace-args",
        "-L",
        "--max-lines",
        "--results",
        "--res",
        "--joblog",
        "--tmpdir",
        "--workdir",
        "--wd",
        "--env",
        "--timeout",
        "--retries",
        "--memfree",
        "--load",
        "--tagstring",
        "--return",
        "--basefile",
        "--bf",
        "--transferfile",
        "--tf",
        "--id",
        "--semaphorename",
        "--fg",
        "--shebang-wrap",
        "--block",
        "--block-size",
        "--recstart",
        "--recend",
        "--sshdelay",
        "--delay",
        "--termseq",
        "--nice",
        "--rpl",
        "--plus",
        "--limit",
        "--onall",
        "--nonall",
        "--ssh",
        "--filter",
    ]
)


MAX_INPUTS = 64  # parallel's inputs read as commands (past it: unverifiable)


def _parallel(
    command: Any,
    script: Any,
    printed: Callable[[Any], str | None],
    parsed: Callable[[str, int], list[Any]],
) -> Items:
    """GNU parallel (and sem): its command template runs through a shell with each input
    in place of ``{}``; with no template, each input is a command; inputs come after
    ``:::``, from ``::::`` files or stdin."""
    argv = command.argv
    i = 1
    while i < len(argv) and argv[i].startswith("-") and argv[i] not in (":::", "::::"):
        option = argv[i].split("=", 1)[0]
        i += 2 if (option in _PARALLEL_VALUES and "=" not in argv[i]) else 1
    rest = argv[i:]
    separator = next((k for k, w in enumerate(rest) if w in (":::", "::::", ":::+", "::::+")), None)
    template = rest[: separator if separator is not None else len(rest)]
    inputs: list[str] | None = None
    where = ""
    if separator is not None:
        if rest[separator].startswith("::::"):
            inputs, where = None, "the files it is given"
        else:
            inputs = [w for w in rest[separator + 1 :] if w not in (":::", ":::+")]
    else:
        text, where = _stdin_code(command, script, printed, parsed, "parallel")
        inputs = text.splitlines() if text is not None else None
        where = where or ("its input" if text is None and command.piped_from else "")
    if inputs is None and where:
        if template:  # each input is a line of its input: a value made when it runs
            shown = " ".join(template).replace("{}", "${PARALLEL_INPUT}")
            if "${PARALLEL_INPUT}" not in shown:
                shown += " ${PARALLEL_INPUT}"  # (no {}: the input goes last)
            return [("script", f"PARALLEL_INPUT=$(head -n 1); {shown}")]
        return [
            (
                "unverifiable",
                f"{command.program} runs commands read from {where}, known only when it runs",
            )
        ]
    out: Items = []
    shown = " ".join(template)
    if inputs and len(inputs) > MAX_INPUTS:
        out.append(("unverifiable", f"{command.program} runs more than {MAX_INPUTS} inputs"))
    for item in (inputs or [])[:MAX_INPUTS]:
        if not shown:
            out.append(("script", item))
        elif "{" in shown:
            out.append(("script", shown.replace("{}", item).replace("{.}", item)))
        else:
            out.append(("script", f"{shown} {item}"))
    if not inputs and shown:
        out.append(("script", shown))
    return out


# cmake -E commands that delete, and those that run the command after their own words
_CMAKE_REMOVES = {"rm": [], "remove": ["-f"], "remove_directory": ["-r", "-f"]}
_CMAKE_RUNS: dict[str, int | None] = {"env": None, "time": 0, "chdir": 1}
# cmake -E commands that neither run nor delete anything (cmake -E --help, CMake 3.2x)
_CMAKE_SAFE = frozenset(
    [
        "capabilities", "compare_files", "copy", "copy_directory",
        "copy_directory_if_different", "copy_if_different", "create_symlink",
        "create_hardlink", "echo", "echo_append", "environment", "make_directory", "md5sum",
        "sha1sum", "sha224sum", "sha256sum", "sha384sum", "sha512sum", "sleep", "tar",
        "touch", "touch_nocreate", "true", "false", "rename", "server", "help", "--help",
    ]
)  # fmt: skip


def _cmake(argv: list[str]) -> Items:
    """``cmake -E rm -rf x`` is rm; ``cmake -E env|time|chdir ... CMD`` runs CMD; any other
    tool mode command it does not list is unverifiable."""
    at = argv.index("-E") + 1
    if at >= len(argv):
        return []
    sub, rest = argv[at], argv[at + 1 :]
    if sub in _CMAKE_REMOVES:
        return [("argv", ["rm", *_CMAKE_REMOVES[sub], *rest])]
    if sub in _CMAKE_RUNS:
        skip = _CMAKE_RUNS[sub]
        if skip is None:  # env [--unset=X] [X=1]... CMD
            while rest and (rest[0].startswith("--") or "=" in rest[0]):
                rest = rest[1:]
        elif sub == "chdir" and len(rest) > 1:  # runs CMD in DIR
            from hookwise.shell.quote import join

            return [("script", f"cd {join([rest[0]])} && {join(list(rest[1:]))}")]
        else:
            rest = rest[skip:]
        return [("argv", rest)] if rest else []
    if sub == "cat":  # prints its files, as cat does
        return [("argv", ["cat", *rest])]
    if sub in _CMAKE_SAFE:
        return []
    return [("unverifiable", f"cmake -E {sub} is a tool mode command hookwise does not read")]


def _ex_mode(argv: list[str]) -> bool:
    """vim -e / -es / -E: commands on stdin (``vim -`` reads text to edit instead)."""
    if argv[0].rsplit("/", 1)[-1] == "ex":
        return True
    return any(
        w.startswith("-") and not w.startswith("--") and ("e" in w[1:] or "E" in w[1:])
        for w in argv[1:]
    )


def _deno(command: Any, script: Any, printed: Callable[[Any], str | None]) -> Items:
    argv = command.argv
    sub = next((w for w in argv[1:] if not w.startswith("-")), "")
    rest = argv[argv.index(sub) + 1 :] if sub else []
    if sub == "eval" and rest:
        code = next((w for w in rest if not w.startswith("-")), "")
        return language_items("node", code) + _fed_items(command, "node", "deno", [code])
    if sub == "run" and rest:
        target = next((w for w in rest if not w.startswith("-")), "")
        if target.startswith(("http://", "https://", "npm:", "jsr:", "data:")):
            return [("unverifiable", f"deno runs code from {target}, known only when it runs")]
    return []


def _file_code(
    source: str,
    command: Any,
    script: Any,
    printed: Callable[[Any], str | None],
    parsed: Callable[[str, int], list[Any]],
) -> tuple[str | None, str]:
    """(code, "") known here; (None, where) read at run time; (None, "") on disk."""
    if source in STDIN_FILES:
        return _stdin_code(command, script, printed, parsed, "")
    if source.startswith("<(") and source.endswith(")"):
        inner = parsed(source[2:-1], command.depth + 1)
        body = printed(inner[0]) if len(inner) == 1 else None
        if body is not None:
            return body, ""
        return None, f"the output of `{source[2:-1][:60]}`"
    if source.startswith(("http://", "https://", "ftp://", "data:")):
        return None, source
    if script.was_written(source):
        content = script.recall(source)
        if content is None:
            return None, f"{source}, written earlier on the line"
        return content, ""
    return None, ""


TYPED_LATER = "its standard input, which this line does not give (typed in later)"


def _stdin_code(
    command: Any,
    script: Any,
    printed: Callable[[Any], str | None],
    parsed: Callable[[str, int], list[Any]],
    language: str,
) -> tuple[str | None, str]:
    """The code on ``command``'s stdin: a here-document, what a static command pipes in,
    a file redirected in (written on the line: its content; on disk: not read)."""
    if command.stdin:
        return "".join(command.stdin), ""
    piped = command.piped_from
    if piped is not None:
        text = printed(piped)
        if text is not None:
            return text, ""
        if language in _DATABASES and piped.program in _DUMPERS and not any(piped.dynamic):
            return None, ""  # a dump (or a file on disk) loaded into a database
        return None, f"the output of `{piped.program}`"
    for source in command.redirects:
        if source in command.writes:
            continue
        return _file_code(source, command, script, printed, parsed)
    # Nothing on the line feeds it: the code comes from whatever holds its stdin, typed in
    # after this check (Codex's write_stdin into an exec_command tty, Copilot's write_bash:
    # red team s25 F17, no hook fires for those), or nothing at all.
    return None, TYPED_LATER


def _pending(script: Any, language: str, program: str) -> Items:
    """Code files written earlier on the line in this language (``sitecustomize.py``, a
    module ``NODE_OPTIONS`` requires, a Makefile): a program of the language that runs
    after them may load them."""
    out: Items = []
    for path in _pending_paths(script, language):
        content = script.recall(path)
        if content is None:
            out.append(
                (
                    "unverifiable",
                    f"{program} may load {path}, written earlier on the line with "
                    "content known only when it runs",
                )
            )
        else:
            out += language_items(language, content)
    return out


def _pending_paths(script: Any, language: str) -> list[str]:
    """Code files in ``language`` written earlier on the line and not yet read as run
    (a program of the language that runs after them may load them); each once."""
    found = [p for p in script.written if p not in script.loaded and code_language(p) == language]
    script.loaded.update(found)
    return found


def code_language(path: str) -> str | None:
    """The language of a code file by its name (``x.py``, ``Makefile``...)."""
    name = path.rsplit("/", 1)[-1]
    if name in _MAKEFILES:
        return "make"
    dot = name.rfind(".")
    return _FILE_LANGUAGES.get(name[dot:].lower()) if dot > 0 else None


def code_suffix(path: str) -> str | None:
    """The language of a file by its suffix (``x.py``: python), or None."""
    at = path.rfind(".")
    return _FILE_LANGUAGES.get(path[at:].lower()) if at > path.rfind("/") else None


def suffix_language(content: str, path: str) -> Items | None:
    """A written file loaded as code by its suffix (``test_x.py`` by pytest): what its
    code runs, read in its language; None for a suffix hookwise reads no language of."""
    language = code_suffix(path)
    if language is None:
        return None
    return language_items(language, content)


def file_items(content: str, path: str) -> Items | None:
    """A written file run as a program (``./x``): by its ``#!`` line; None: a shell."""
    if content.startswith("#!"):
        line = content.split("\n", 1)[0][2:].split()
        if line and line[0].rsplit("/", 1)[-1] == "env" and len(line) > 1:
            line = [w for w in line[1:] if not w.startswith("-")]
        program = line[0].rsplit("/", 1)[-1] if line else "sh"
        name = family(program)
        if name is not None and name in READERS:
            return language_items(READERS[name].language, content.split("\n", 1)[-1])
        from hookwise.shell.programs import SHELLS

        if program not in SHELLS:
            return [("unverifiable", f"{path} runs with {program}, which hookwise does not read")]
    return None


def env_loads(command: Any, script: Any) -> str | None:
    """Why the command's environment makes it load code or config the guard did not read
    (None: it does not). Which variables, and how each is judged: programs.ENV_LOADERS."""
    from hookwise.shell.programs import ENV_LOADERS, NPM_CONFIG

    env: dict[str, str] = command.env
    for name, value in env.items():
        if name[:11].lower() == NPM_CONFIG:
            why = _npm_config(name, value, command)
            if why is not None:
                return why
        if name.startswith(("CARGO", "RUST")):  # cargo's settings (red team s33 I)
            from hookwise.shell.commands.cargo_config import env_why

            why = env_why(name, value, command)
            if why is not None:
                return why
        kind = ENV_LOADERS.get(name)
        if kind is None:
            continue
        if kind == "always":
            return f"{name}={value} makes it load code that is known only when it runs"
        why = _ENV_JUDGES[kind](name, value, command, script)
        if why is not None:
            return why
    return None


def _npm_config(name: str, value: str, command: Any) -> str | None:
    """npm reads ``npm_config_X`` (any case) as its option ``--X`` (red team s31 H:
    ``npm_config_call=CMD npm exec``): what the command runs with that option on its
    line, beside what it runs without, is what the variable makes it run."""
    from hookwise.shell.programs import NPX, runs

    program, argv = command.program, command.argv
    if program not in NPX:  # export npm_config_call=CMD: for the npm that runs later
        program, argv = "npm", ["npm", "exec"]
    option = "--" + name[11:].lower().replace("_", "-")
    if runs(program, [program, f"{option}={value}", *argv[1:]], []) != runs(program, argv, []):
        return f"{name}={value} gives {program} the option {option}, which runs a command"
    return None


def _computed(value: str) -> bool:
    return "$(" in value or "`" in value or "<(" in value


# option words that load no code, by variable (anything else in the value is unverifiable)
_HARMLESS_OPTIONS = {
    "PERL5OPT": r"-[wWXtTU]|-[Mm]-?[A-Za-z_][\w:]*|-C\w*",
    "RUBYOPT": r"-[wvW][0-2:]?\w*|-r[\w/.-]+|-E[\w:-]+|-K\w|--(?:en|dis)able[=-][\w,-]+"
    r"|--(?:jit|yjit|rjit)[\w=-]*|-U",
    "JAVA": r"-X(?:mx|ms|ss|mn)\w+|-XX:[+-]?(?!On)\w+(?:=[\w.%/:-]*)?|-D[\w.-]+(?:=[^$`;|&]*)?"
    r"|-ea|-da|-esa|-server|-client|-Xshare:\w+|-Djava\.awt\.headless=true",
}


def _options(name: str, value: str, command: Any, script: Any) -> str | None:
    if name == "NODE_OPTIONS":
        for word in value.replace("=", " ").split():
            if word.startswith("data:") or word in ("--eval", "-e", "--print", "-p"):
                return f"NODE_OPTIONS={value} holds code"
        return None
    if name == "ENV":
        if command.program in ("sh", "dash", "ash", "ksh", "mksh", "posh"):
            return f"ENV={value} makes the shell load code that is known only when it runs"
        return None
    if name == "MAKEFLAGS":  # make's own words: read as they are on its command line
        import shlex

        from hookwise.shell.option_commands import make_words_run
        from hookwise.shell.programs import ENV_LOADERS, SHELLS

        try:
            words = shlex.split(value)
        except ValueError:
            words = value.split()
        made = make_words_run(words, SHELLS, ENV_LOADERS)
        if "eval" in value or "-E" in value or _computed(value) or made:
            return f"MAKEFLAGS={value} makes make run code from it"
        return None
    if name == "ZIPOPT":  # zip's options from the environment: -TT/--unzip-command run one
        if value and ("-T" in value or "--unzip" in value or _computed(value)):
            return f"ZIPOPT={value} makes zip run a command from it"
        return None
    if name == "TAR_OPTIONS":
        import shlex

        from hookwise.shell.option_commands import tar_runs

        try:
            words = shlex.split(value)
        except ValueError:
            words = value.split()
        if value and (tar_runs(["tar", *words]) or "-I" in value or "-F" in value):
            return f"TAR_OPTIONS={value} makes tar run commands from it"
        return None
    import re

    pattern = _HARMLESS_OPTIONS.get(name, _HARMLESS_OPTIONS["JAVA"])
    if _computed(value) or not all(re.fullmatch(pattern, w) for w in value.split()):
        return f"{name}={value} gives the program options that load or run code"
    return None


def _path(name: str, value: str, command: Any, script: Any) -> str | None:
    """Code on disk in these directories is the project's own; a file the line writes
    (a ``sitecustomize.py``, a module, a library) is not, nor a directory computed when it
    runs."""
    if _computed(value):
        return f"{name}={value} names where code is loaded from, known only when it runs"
    for key in script.written:
        if key.endswith(_CODE_SUFFIXES) or "." not in key.rsplit("/", 1)[-1]:
            return f"{name}={value} loads code from where {key} was written on the line"
    return None


# files a loader path finds code in (a module, a library, a .pth line python runs)
_CODE_SUFFIXES = (".py", ".pth", ".pm", ".pl", ".rb", ".js", ".mjs", ".cjs", ".node", ".so",
                  ".dylib", ".json")  # fmt: skip


# git configuration keys that neither run commands nor change what a push or fetch does
_HARMLESS_GIT_KEYS = ("safe.directory", "user.", "init.defaultbranch", "advice.", "color.",
                      "core.autocrlf", "core.quotepath", "core.longpaths", "i18n.",
                      "commit.gpgsign", "tag.gpgsign", "gc.auto", "maintenance.auto")  # fmt: skip


def _git_env(name: str, value: str, command: Any, script: Any) -> str | None:
    if name in ("GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "GIT_CONFIG"):
        if value == "/dev/null":
            return None
        return f"{name}={value} makes git read a config file the guard did not read"
    if name == "GIT_CONFIG_COUNT":
        keys = [v for k, v in command.env.items() if k.startswith("GIT_CONFIG_KEY_")]
    else:  # GIT_CONFIG_PARAMETERS: 'key=value' 'key2=value2'
        import shlex

        try:
            keys = [w.split("=", 1)[0] for w in shlex.split(value)]
        except ValueError:
            keys = [value]
    for key in keys:
        if _computed(key) or not key.lower().startswith(_HARMLESS_GIT_KEYS):
            return f"{name} sets git's {key}, which may run commands or change what git does"
    return None


_HOME_SPELLINGS = frozenset(["$HOME", "${HOME}", "~", '"$HOME"'])
# Programs that read config or rc files they find through HOME (and XDG_CONFIG_HOME...):
# with those changed on the line, what the config says is not what the guard read. A
# shell reads its rc files when interactive or a login shell (zsh always reads .zshenv).
HOME_READERS = frozenset(
    ["git", "ssh", "scp", "sftp", "rsync", "npm", "npx", "yarn", "pnpm", "pip", "pip3",
     "curl", "wget", "zsh", "psql", "mysql", "gpg", "hg", "svn", "gdb", "vim", "vi", "nvim",
     "python", "python3", "perl", "ruby", "node", "less"]
)  # fmt: skip


def _home(name: str, value: str, command: Any, script: Any) -> str | None:
    """A changed home is harmless unless the program reads its config or rc files there."""
    from hookwise.shell.programs import SHELLS

    program = command.program
    reads = program in HOME_READERS or family(program) in HOME_READERS
    if not reads and program in SHELLS:  # rc files: an interactive or login shell
        reads = any(
            w in ("-i", "-l", "--login", "--interactive")
            or (w[:1] == "-" and w[1:2] != "-" and ("i" in w or "l" in w))
            for w in command.argv[1:]
        )
    if not reads or value in _HOME_SPELLINGS or value.startswith(("$HOME/", "~/")):
        return None
    # An absolute place elsewhere (HOME=/tmp/x npm install: a clean home) passes: a config
    # written there on the line is caught as written (accounting.config_written). One in
    # the project (HOME=$PWD, XDG_CONFIG_HOME=c), or computed, holds what the agent wrote.
    if (value.startswith("/") and not _computed(value)) or value.strip('"').startswith(
        "$(mktemp -d"
    ):
        return None  # (a new temporary directory holds no config)
    return f"{name}={value} makes {program} read config or rc files the guard did not read"


def _shell(name: str, value: str, command: Any, script: Any) -> str | None:
    """Programs run their command strings as ``$SHELL -c STRING`` (flock -c, script -c,
    gdb's shell, vim's ``:!``): hookwise reads STRING as shell, so SHELL naming another
    interpreter (``SHELL=/usr/bin/python3``) runs code it did not read."""
    from hookwise.shell.programs import SHELLS

    if not _computed(value) and value.rsplit("/", 1)[-1] in SHELLS:
        return None
    return f"SHELL={value} makes command strings run by a program other than a shell"


def _config(name: str, value: str, command: Any, script: Any) -> str | None:
    """A file of settings the program reads besides its command line: what it says is
    known only when it runs (none: empty, or /dev/null)."""
    if value in ("", "/dev/null"):
        return None
    return f"{name}={value} makes it read settings from a file the guard did not read"


def _app(name: str, value: str, command: Any, script: Any) -> str | None:
    """An application string that calls a function (``FLASK_APP='m:f(x)'``): Python
    code the tool runs, read when it is on the line (commands/tool_options.py)."""
    if "(" not in value:
        return None
    return f"{name}={value[:60]} makes {command.program} call a function it names"


def _cleared(name: str, value: str, command: Any, script: Any) -> str | None:
    """``CARGO_TARGET_DIR=D cargo clean``: the variable names the directory deleted."""
    if command.program != "cargo" or "clean" not in command.argv:
        return None
    return f"{name}={value[:60]} names the directory `cargo clean` deletes"


_ENV_JUDGES: dict[str, Callable[[str, str, Any, Any], str | None]] = {
    "app": _app,
    "cleared": _cleared,
    "config": _config,
    "options": _options,
    "path": _path,
    "git": _git_env,
    "home": _home,
    "shell": _shell,
}


# ----------------------------------------------------------------------------- readers


_IMPORTS = re.compile(r"\b(?:from\s+([A-Za-z_]\w*)|import\s+([^;\n)]+))")


def _tool_imports(text: str) -> Items:
    """Python code importing a known tool's package (``from dotenv.cli import cli;
    cli()``: red team s31 F) runs that tool's CLI on whatever arguments the code gives
    it (``sys.argv``, a list): what it does is known only when it runs."""
    from hookwise.shell.programs import module_tool

    for match in _IMPORTS.finditer(text):
        names = [match.group(1)] if match.group(1) else match.group(2).split(",")
        for name in (n.strip().split(".", 1)[0].split(" ", 1)[0] for n in names):
            tool = module_tool("python", name)
            if tool is not None:
                why = f"python code imports {name}, whose CLI ({tool}) it may run"
                return [("unverifiable", f"{why} with arguments known only when it runs")]
    return []


def language_items(language: str, text: str) -> Items:
    """What code in ``language`` runs, and what of it hookwise cannot account for."""
    if language == "sh":
        return [("script", text)]
    if language in ("python", "perl", "ruby", "node", "php", "awk"):
        from hookwise.shell.code_commands import code_commands
        from hookwise.shell.code_residue import residue

        found = code_commands(text, awk=language == "awk", language=language)
        why = residue(language, text)
        if why is not None:
            found.append(("unverifiable", why))
        if language in ("python", "perl", "ruby", "node"):
            from hookwise.shell.code_paths.library_logins import login_reads

            found += login_reads(text, language)
        if language == "python":
            found += _tool_imports(text)
        return found
    if language == "sed":
        from hookwise.shell.sed_script import sed_commands

        return sed_commands(text)
    if language == "make":
        from hookwise.shell.option_commands import makefile_items

        return makefile_items(text)
    from hookwise.shell.tool_scripts import tool_items

    return tool_items(language, text)
