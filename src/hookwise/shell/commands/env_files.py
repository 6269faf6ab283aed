"""Environment files a command loads (``docker run --env-file .env``, ``node
--env-file=.env``) and commands that print the values such a file, or a ``source``
earlier on the line, defined. Imported by the parser only for a command that names an
environment file option, or after a ``source``. Standard library only."""

from __future__ import annotations

import re
from itertools import pairwise

from hookwise.shell.programs import (
    AWKS,
    ENV_FILE_OPTION,
    ENV_FILE_SPELLED,
    canonical_flag,
    interpreter_code,
)

# node's own second spelling (node 20.19, 22.9): the file loaded when it is there
_IF_EXISTS = ENV_FILE_OPTION + "-if-exists"


# an interpreter's options that load a module before its code (node -r, --require,
# --import; ruby -rMOD; perl -MMOD): a module that loads an environment file reads .env
_PRELOADS = ("-r", "--require", "--import", "--loader", "--experimental-loader", "-M")


def preloaded_env(argv: list[str]) -> bool:
    """Whether an option preloads a module that loads an environment file itself (``node
    -r dotenv/config``, ``ruby -rdotenv/load``): it reads ``.env`` (red team s31 I)."""
    import re

    from hookwise.shell.code_commands import ENV_LOADING

    for at, word in enumerate(argv[1:], start=1):
        option, equals, value = word.partition("=")
        if option in _PRELOADS:
            module = value if equals else (argv[at + 1] if at + 1 < len(argv) else "")
        elif word[:2] in ("-r", "-M") and len(word) > 2:
            module = word[2:]
        else:
            continue
        if re.search(ENV_LOADING, module):
            return True
    return False


def env_files(program: str, argv: list[str]) -> list[str]:
    """The environment files a command loads (``--env-file F``, ``--env-file=F``, and
    the program's own spelling: ``foreman start -e F``; ``.env`` for a preloaded module
    that loads it: preloaded_env)."""
    spelled = program in ENV_FILE_SPELLED
    found: list[str] = [".env"] if preloaded_env(argv) else []
    for at, word in enumerate(argv[1:], start=1):
        name, equals, value = word.partition("=")
        if spelled and word.startswith("-"):
            if canonical_flag(program, name) == ENV_FILE_OPTION:
                name = ENV_FILE_OPTION
            elif (
                word[1:2] == "e"
                and len(word) > 2
                and canonical_flag(program, "-e") == ENV_FILE_OPTION
            ):
                found.append(word[2:])  # -e.env
                continue
        if name not in (ENV_FILE_OPTION, _IF_EXISTS):
            continue
        if equals:
            found.append(value)
        elif program == "deno":  # deno's value is optional (=F only): bare, it is .env
            found.append(".env")
        elif at + 1 < len(argv):
            found.append(argv[at + 1])
    if spelled and not found:
        found.append(".env")  # foreman's and honcho's -e: .env when none is given
    return found


def _names_environment(words: list[str], cwd: str | None = None, extglob: bool = False) -> bool:
    """Whether a word may name a process's environment (commands/proc_environ.py): a
    cheap look for a slash first, the module only then."""
    if not any("/" in w for w in words) and cwd is None:
        return False
    from hookwise.shell.commands.proc_environ import names_environment

    return any(names_environment(w, cwd, extglob) for w in words)


# Programs that print variables' values: after ``source .env`` on the line, printing what it
# defined is reading it (sourcing stays free: the values used, not shown, are not a read).
_VALUE_ECHOES = frozenset(["echo", "printf"])
_VALUE_DUMPERS = frozenset(["printenv", "env", "set", "declare", "typeset", "export", "compgen"])


def prints_values(program: str, argv: list[str], dynamic: list[bool], fed: bool = False) -> bool:
    """Whether the command shows variables' values: ``echo "$X"``, ``printf %s "$X"`` (an
    expansion among its words), ``printenv [X]``, ``env``/``set``/``export``/``declare``
    alone or with ``-p``, ``compgen -v``, and code given on the line in a language whose
    reads of the environment hookwise does not follow (``fed``: the command's stdin is
    the line's too: a here-string, a pipe)."""
    if unread_env_code(program, argv, fed):
        return True
    if program in _VALUE_ECHOES:
        return any(dynamic[1:])
    if _names_environment(argv[1:]):
        return True  # cat /proc/self/envi*: a process's own environment (proc_environ.py)
    if program in _ENV_PRINTERS:
        return _shows_env(program, argv)
    if program not in _VALUE_DUMPERS:
        return code_prints_env(program, argv)  # perl -e 'print %ENV', awk ENVIRON[...]
    if program == "printenv":
        return True
    if program == "env":  # env with a program is a wrapper, unwrapped before this
        return all(w.startswith("-") or "=" in w for w in argv[1:])
    if program == "compgen":
        return "-v" in argv or "-e" in argv
    if program == "set":  # (set -a, set +a: options; set alone lists the variables)
        return len(argv) == 1
    # declare -p NAME: that variable and its value; declare -x, export -p: with no names,
    # each variable and its value (-f, -F: functions, not values)
    options = [w for w in argv[1:] if w[:1] in "-+"]
    if any("f" in w.lower() for w in options):
        return False
    if any(w[:1] == "-" and "p" in w[1:] for w in options):
        return True
    return len(options) == len(argv) - 1


# After a ``source`` on the line, what accounts for all it does with the values the file
# defined (red team s29 H): the shell's builtins and the programs below run no code, print
# no variable, and read none that a value could turn into output. Anything else may show a
# value: error messages echo their words (``cd "$X"``: "cd: s3cr3t: No such file",
# ``kill``, ``exit``, ``hash``, ``type``), names made from a value are listed later
# (``mkdir "x/$X"; find x``), an assignment passes a value to a name something reads
# (``LC_ALL``: bash's own warning; ``TZ``, ``TIME_STYLE``), and a program gets the
# environment the file may export (``make --eval '$(info $(X))'``, ``php``, ``sqlite3``,
# ``vim``, ``git commit -m "$X"; git log``).
_QUIET = frozenset([":", "true", "false", "set", "shopt", "unset", "source", ".", "cd",
                    "pushd", "popd", "echo", "printf", "umask", "return", "exit", "wait",
                    "compgen", "test", "[", "[[", "export", "declare", "typeset", "local",
                    "readonly", "cat", "wc", "head", "tail", "grep", "sort", "uniq", "cut",
                    "tr", "ls", "mkdir", "touch", "cp", "mv", "rm", "rmdir", "ln", "chmod",
                    "diff", "cmp", "basename", "dirname", "realpath", "readlink", "stat",
                    "pwd", "sleep", "tee", "less", "more"])  # fmt: skip
# those that stay quiet with a value among their words: tests of strings and files
_TESTS = frozenset([":", "true", "false", "test", "[", "[["])
# test's operators that never print an operand (integer comparisons print "s3cr3t: integer
# expression expected"; an operator test does not know prints "s3cr3t: unary operator")
_TEST_UNARY = frozenset(["-n", "-z", "-e", "-f", "-d", "-r", "-w", "-x", "-s", "-L",
                         "-h", "-b", "-c", "-p", "-S", "-g", "-u", "-k", "-O", "-G", "-N",
                         "-v"])  # fmt: skip
_TEST_BINARY = frozenset(["=", "==", "!=", "<", ">", "-nt", "-ot", "-ef"])


def leaks_values(
    program: str,
    argv: list[str],
    dynamic: list[bool],
    *,
    fed: bool,
    valued: bool,
    traced: bool,
    line_code: bool,
    cwd: str | None = None,
    inputs: tuple[str, ...] = (),
    extglob: bool = False,
) -> bool:
    """Whether a command after ``source F`` on the line may print or send a value F
    defined: prints_values's printers, and all but what accounts for it (_QUIET): what
    hookwise cannot account for is a read of F. ``valued``: a value reaches it other than
    through its words (an assignment for it, a redirect target, a here-string);
    ``traced``: bash traces what it runs (``set -x``, ``bash -x``: every command's
    expanded words and ``PS4``); ``line_code``: it runs code given on the line
    (accounting.reads_code); ``cwd``: where the line moved to (``cd /proc``), ``inputs``:
    the files it reads by redirect (``< /proc/self/environ``); ``extglob``: the line may
    turn extglob on.

    Any other program is the project's code run as it is on disk (``npm run dev``,
    ``./manage.py migrate``, ``jest``): running it with the file's values is why the file
    is sourced, and what it prints is the project's doing, as everywhere else. It leaks
    only when the line hands it a value (its words, its input) or code."""
    if traced or valued or prints_values(program, argv, dynamic, fed):
        return True
    if _names_environment([*argv[1:], *inputs], cwd, extglob):
        return True  # cd /proc; cat self/envir?n, cat < /dev/fd/../environ
    if any(_ERROR_EXPANSION.search(w) for w, d in zip(argv, dynamic, strict=False) if d):
        return True  # : ${NOPE:?$X}: bash's error message is the word (red team s30 H)
    if program == "let":  # let EXPR, (( EXPR )): quiet when it only assigns and compares
        return not all(_quiet_arithmetic(w) for w in argv[1:])
    if program not in _QUIET:
        handed = fed or line_code or any(dynamic[1:])
        return handed or not _project_code(program, argv)
    if not any(dynamic[1:]):
        return _arithmetic_names(program, argv[1:])  # [[ X -eq 1 ]], declare -i n=X
    if program not in _TESTS:
        return True
    shown = zip(argv[1:], dynamic[1:], strict=False)
    if any(d and not _PLAIN_VALUE.fullmatch(w) for w, d in shown):
        return True  # : $(( $X + )), ${a[$X-]}, ${X:0:$X-}: bash's error prints the value
    return program not in (":", "true", "false") and not _quiet_test(argv[1:], dynamic[1:])


# ${NAME?WORD}, ${NAME:?WORD}: unset, bash prints WORD (expanded) and stops
_ERROR_EXPANSION = re.compile(r"\$\{[#!]?[A-Za-z_0-9@*]+(?:\[[^]]*\])?:?\?")
# a value that is only references to variables (named, positional, special) and literal
# text (``"$a/${b}x"``, ``"$1"``): no arithmetic, subscript, substring, indirection or
# operator expansion, whose errors print the value (red team s30 H, s31 R)
_PLAIN_VALUE = re.compile(
    r"""(?:\$(?:[A-Za-z_]\w*|[0-9#?@*$!-])|\$\{(?:[A-Za-z_]\w*|[0-9]+|[#?@*$!-])\}|[^$`\\])*"""
)
# an integer bash reads as itself, whatever the variables hold
_INTEGER = re.compile(r"[+-]?[0-9]+")
# [[ ]]'s operators that evaluate both operands as arithmetic (a name: its value, again
# as arithmetic, printed in the error when it is not a number)
_ARITHMETIC_TESTS = frozenset(["-eq", "-ne", "-lt", "-le", "-gt", "-ge"])


# in an arithmetic expression: a length (``${#X}``, ``$#``: a number whatever X holds), a
# number in any of bash's bases (``10``, ``0x1f``, ``16#ff``), a name
_LENGTH = re.compile(r"\$\{#[A-Za-z_]\w*\}|\$#")
_NUMBER = re.compile(r"[0-9][\w#@]*")
_NAME = re.compile(r"[A-Za-z_]\w*")
# a name a plain ``=`` assigns (not ``==``, not ``+=``: those read it)
_PLAIN_TARGET = re.compile(r"\s*=(?!=)")


def _quiet_arithmetic(expression: str) -> bool:
    """Whether bash evaluates ``expression`` (``let``, ``(( ))``) printing no value a file
    sourced before it defined: no expansion but lengths, numbers, and names that are only
    assigned, lower-case ones (assignment_shows). A name it reads is evaluated as
    arithmetic in turn, and a value that is no number is printed in the error ("s3cr3t-:
    syntax error"); an expansion is printed the same way (red team s31 R)."""
    text = _LENGTH.sub("0", expression)
    if "$" in text or "`" in text:
        return False
    at = 0
    while at < len(text):
        number = _NUMBER.match(text, at)
        if number is not None:
            at = number.end()
            continue
        name = _NAME.match(text, at)
        if name is None:
            at += 1
            continue
        if not _PLAIN_TARGET.match(text, name.end()) or assignment_shows(name.group(), ""):
            return False
        at = name.end()
    return True


def _arithmetic_names(program: str, words: list[str]) -> bool:
    """Whether a command with no expansion still has bash evaluate a name as arithmetic
    (after a source, the name may be the file's, and a value that is no number is printed
    in the error: "s3cr3t-x: syntax error"): ``[[ X -eq 1 ]]``, ``test -v 'a[X]'`` (a
    subscript is arithmetic), ``declare -i n=X``, ``declare 'a[X]=1'``."""
    if program == "[[" and any(
        w in _ARITHMETIC_TESTS and not (_INTEGER.fullmatch(a) and _INTEGER.fullmatch(b))
        for a, w, b in zip(words, words[1:], words[2:], strict=False)
    ):
        return True
    if program in _TESTS:
        return any(_named_subscript(o) for w, o in pairwise(words) if w == "-v")
    if program not in ("declare", "typeset", "local", "export", "readonly"):
        return False
    integer = any(w[:1] in "-+" and "i" in w[1:] for w in words)
    for word in words:
        name, equals, value = word.partition("=")
        if _named_subscript(name) or (integer and equals and not _INTEGER.fullmatch(value)):
            return True
    return False


def _named_subscript(word: str) -> bool:
    """Whether ``word`` holds an array subscript that is not a plain integer (``a[X]``,
    ``a[$X-]``): bash evaluates it as arithmetic."""
    at = word.find("[")
    return at >= 0 and not _INTEGER.fullmatch(word[at + 1 : word.rfind("]")])


# bash's own variables with lowercase names (bash(1), Shell Variables)
_BASH_LOWER = frozenset(["histchars", "auto_resume"])


def assignment_shows(name: str, value: str) -> bool:
    """Whether bash may print a value a bare assignment gives ``name`` after a ``source``:
    its special variables check what they are given (``LC_ALL=$X``: "setlocale: LC_ALL:
    cannot change locale (s3cr3t)", ``BASH_XTRACEFD=$X``), and so may any upper-case
    name hookwise does not know; arithmetic and indirection print a bad operand. A
    script's own lower-case variable set from plain references prints nothing."""
    if _named_subscript(name):  # a[X]=1: the subscript is arithmetic (a bad X is printed)
        return True
    name = name.partition("[")[0]
    if not name.islower() or name in _BASH_LOWER:
        return True
    return _PLAIN_VALUE.fullmatch(value) is None


# a word that names a script file rather than an option's value or a module
_SCRIPT_SUFFIXES = (".py", ".js", ".mjs", ".cjs", ".ts", ".rb", ".pl", ".php", ".lua", ".sh")


def _project_code(program: str, argv: list[str]) -> bool:
    """Whether ``program`` runs the project's code as it is on disk: a runner of
    programs.CODE_RUNNERS, an interpreter with a script (its code on the line is
    ``line_code``), a shell given a script file and nothing else (``bash deploy.sh``),
    or a program inside the project (``./manage.py``, ``bin/dev``). Anything else
    (``curl``, ``date``, ``git``) is a program whose use of the values hookwise does not
    read."""
    from hookwise.shell.programs import CODE_RUNNERS, SHELLS, family, listed, outside

    if listed(program, CODE_RUNNERS):
        return True
    if family(program) is not None:  # the script it runs: one in the project, or a module
        script = next((w for w in argv[1:] if not w.startswith("-")), "")
        return not (("/" in script or script.endswith(_SCRIPT_SUFFIXES)) and outside(script))
    if program in SHELLS and program != "busybox":
        # (bash -x, -c, -s, a script on stdin are not the script's own; busybox runs an applet)
        return len(argv) > 1 and not argv[1].startswith(("-", "+")) and argv[1] != "/dev/stdin"
    path = argv[0] if argv else ""
    return "/" in path and not outside(path)


def _quiet_test(words: list[str], dynamic: list[bool]) -> bool:
    """Whether ``test``/``[``/``[[`` with these words prints none of them: one operand, a
    unary test of files or strings, or a string comparison."""
    if words and words[-1] in ("]", "]]"):
        words, dynamic = words[:-1], dynamic[:-1]
    if words[:1] == ["!"]:
        words, dynamic = words[1:], dynamic[1:]
    if len(words) == 1:
        return True
    if len(words) == 2:  # (-v a[$X-]: the subscript is arithmetic)
        return not dynamic[0] and words[0] in _TEST_UNARY and not _named_subscript(words[1])
    if len(words) == 3:
        return not dynamic[1] and words[1] in _TEST_BINARY
    return False


# Programs that print the environment they run with (red team s27 E): after ``set -a; .
# .env``, the values the file defined. program -> the word that makes it print: a flag
# ("-v": a letter of an option cluster), a BSD-style letter ("e" of ``ps eww``), or a
# word its arguments hold ("environment" of ``gdb -ex 'show environment'``); "" always.
_ENV_PRINTERS = {
    "envsubst": "", "jq": "env", "gojq": "env", "jaq": "env", "yq": "env", "xq": "env",
    "tomlq": "env", "jql": "env", "php": "-i",
    "make": "-p", "gmake": "-p", "cmake": "environment", "strace": "-v", "ltrace": "-e",
    "gdb": "environment", "tmux": "show-environment", "screen": "env", "ps": "e",
    "procs": "env", "htop": "", "top": "", "npm": "env", "pnpm": "env", "yarn": "env",
    "php-cgi": "-i",
    "bun": "env",
}  # fmt: skip


# the long spelling of an _ENV_PRINTERS flag (a unique prefix of it: getopt_long takes one)
_LONG_SPELLINGS = {"make": "--print-data-base", "gmake": "--print-data-base",
                   "php": "--info", "php-cgi": "--info"}  # fmt: skip


def _shows_env(program: str, argv: list[str]) -> bool:
    """Whether ``program`` prints its environment with these arguments (_ENV_PRINTERS)."""
    word = _ENV_PRINTERS[program]
    if not word:
        return True
    if word.startswith("-"):  # a flag, alone or in a cluster (-pf), or its long spelling
        letter = word[1]
        long = _LONG_SPELLINGS.get(program, "")
        return any(
            w == word
            or (w[:1] == "-" and w[1:2] != "-" and letter in w[1:].split("=")[0])
            or (long and len(w.split("=")[0]) > 4 and long.startswith(w.split("=")[0]))
            for w in argv[1:]
        )
    if len(word) == 1:  # ps: a BSD option cluster (no dash) with the letter
        return any(w[:1] != "-" and w.isalpha() and word in w for w in argv[1:])
    return any(word in w or word.upper() in w for w in argv[1:])


# the languages whose reads of the environment code_prints_env looks for (_ENV_READS), the
# shell's own (a piped shell script is parsed as one), and the database clients', which
# reach it only through the shell commands their readers parse (sqlite's .shell, mysql's
# \!; psql's \getenv is looked for: unread_env_code)
_ENV_FOLLOWED = frozenset(["python", "perl", "ruby", "node", "php", "awk", "sh", "sqlite",
                           "mysql", "psql"])  # fmt: skip


def unread_env_code(program: str, argv: list[str], fed: bool) -> bool:
    """Whether a program runs code given on the line (an inline option, or stdin the line
    feeds it) in a language whose reads of the environment hookwise does not follow:
    after ``set -a; . ./.env``, ``tclsh <<< 'puts $env(X)'`` prints the file's values
    (red team s28 H). Code on disk is the project's, as everywhere else."""
    from hookwise.shell.code_readers import READERS
    from hookwise.shell.programs import family

    name = family(program)
    reader = READERS.get(name) if name is not None else None
    if reader is None:
        return False
    if reader.language in _ENV_FOLLOWED:
        return reader.language == "psql" and (fed or any("getenv" in w for w in argv[1:]))
    if fed and (reader.stdin or reader.stdin_too):
        return True
    return any(w.split("=", 1)[0] in reader.inline for w in argv[1:])


# what an interpreter's code reads the environment with
_ENV_READS = ("process.env", "environ", "ENVIRON", "getenv", "$ENV{", "%ENV", "ENV[",
              "ENV.", "Deno.env", "System.getenv", "os.Getenv", "Bun.env", "import.meta.env",
              '["env"]', "['env']", "env()")  # fmt: skip


def code_prints_env(program: str, argv: list[str]) -> bool:
    """Whether an interpreter one-liner reads the environment (``node -e
    'console.log(process.env.X)'``): with an environment file loaded, that is the file's
    values printed, as ``source .env; echo $X`` prints them."""
    code = interpreter_code(program, argv)
    if code is None and program in AWKS:  # awk's program: its first operand (or -e)
        operands = _awk_operands(argv)
        code = operands[0] if operands else None
    return code is not None and any(marker in code for marker in _ENV_READS)


def _awk_operands(argv: list[str]) -> list[str]:
    """awk's operands past its options (-v X=Y, -F S, -f F take a value)."""
    found: list[str] = []
    words = iter(argv[1:])
    for word in words:
        if word in ("-v", "-F", "-f", "--assign", "--field-separator", "--file"):
            next(words, None)
        elif word == "--":
            found += list(words)
        elif not word.startswith("-") or word == "-":
            found.append(word)
    return found


def named_files(name: str, value: str) -> list[str]:
    """The files a variable of programs.FILE_VARIABLES or JAVA_OPTION_VARIABLES names (its
    value; java's ``@F``, ``-XX:VMOptionsFile=F``, ``-XX:Flags=F``)."""
    from hookwise.shell.programs import JAVA_OPTION_VARIABLES, listed

    for home in ("$HOME/", "${HOME}/"):  # (kept as written: the home is the rules' ~)
        value = value.replace(home, "~/")
    if not listed(name, JAVA_OPTION_VARIABLES):
        return [value]
    found: list[str] = []
    for word in value.split():
        if word.startswith("@") and len(word) > 1:
            found.append(word[1:])
        elif word.startswith(("-XX:VMOptionsFile=", "-XX:Flags=")):
            found.append(word.partition("=")[2])
    return found


# dotenv's (python-dotenv's CLI) subcommands that print the file's values
_DOTENV_PRINTS = frozenset(["list", "get"])


def dotenv_file(argv: list[str]) -> str:
    """The file ``dotenv`` loads: ``-f F``/``--file F``/``--file=F``, else ``.env``."""
    words = iter(argv[1:])
    for word in words:
        if word in ("-f", "--file"):
            return next(words, ".env") or ".env"
        if word.startswith("--file="):
            return word.partition("=")[2] or ".env"
        if not word.startswith("-"):
            break
    return ".env"


def dotenv_prints(argv: list[str]) -> str | None:
    """The file ``dotenv list``/``dotenv get KEY`` prints values of, or None."""
    words = iter(argv[1:])
    for word in words:
        if word in ("-f", "--file", "-e", "--export", "-q", "--quote"):
            next(words, None)
        elif not word.startswith("-"):
            return dotenv_file(argv) if word in _DOTENV_PRINTS else None
    return None
