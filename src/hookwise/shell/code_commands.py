"""Literal shell commands and file operations in interpreter code (``python -c``,
``perl -e``, ``node -e``, ``awk``, a vim ``-c`` command...), found with regular
expressions.

Cold: needed only when an interpreter one-liner runs; it is the only policy module on
the hook's path that imports :mod:`re` (inside the functions, on first use).
"""

from __future__ import annotations

from hookwise.shell.programs import COMPUTED

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

_STRING = r"""(?:'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)")"""
_STRING_NC = r"""(?:'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")"""  # (no groups)
# perl's qx with any delimiter: a bracket pair, or the same mark at both ends (``qx{..}``,
# ``qx(cat ../home/.netrc)``, ``qx!..!``: red team s33 L; a ``/`` inside a pair is text)
_QX = (
    r"\bqx\s*(?:\(([^)]*)\)|\{([^}]*)\}|\[([^\]]*)\]|<([^>]*)>|"
    + "|".join(rf"\{mark}((?:[^\{mark}\\]|\\.)*)\{mark}" for mark in "!\"#$%&'*+,-./:;=?@\\^_`|~")
    + ")"
)
# (pattern, what it becomes): "sh" -> the string is a shell command; "argv" -> a list of
# string literals is an argv; otherwise a command template with {0} the path
_CALLS: list[tuple[str, str]] = [
    (
        r"\b(?:os\.system|os\.popen|commands\.getoutput|subprocess\.getoutput|"
        r"subprocess\.getstatusoutput)\(\s*" + _STRING,
        "sh",
    ),
    (r"\bsubprocess\.\w+\(\s*" + _STRING + r"[^)]*shell\s*=\s*True", "sh"),
    (r"\bsubprocess\.\w+\(\s*\[([^\]]*)\]", "argv"),
    (r"\bos\.exec\w*\(\s*" + _STRING + r"\s*,\s*\[([^\]]*)\]", "argv2"),
    # perl/ruby/php's list form: system("rm", "-rf", $x) runs the argv, no shell
    (r"\b(?:system|exec)\s*\(?\s*(" + _STRING_NC + r"\s*,[^;)]*)", "argv"),
    (r"\b(?:system|exec|shell_exec|passthru|popen|proc_open)\s*\(\s*" + _STRING, "sh"),
    (
        r"\b(?:execSync|exec|execFileSync|spawnSync|spawn|execFile)\(\s*"
        + _STRING
        + r"\s*,\s*\[([^\]]*)\]",
        "argv2",
    ),
    (r"\b(?:execSync|exec)\(\s*" + _STRING, "sh"),
    (r"`([^`]+)`", "sh1"),
    (r"\b(?:system|exec)\s*\(?\s*qq?\s*[({\[<]([^)}\]>]*)[)}\]>]", "sh1"),
    (_QX, "sh1"),
    (r"%x\(([^)]+)\)", "sh1"),
    (r"\bshutil\.rmtree\(\s*" + _STRING, "rm -r -f {0}"),
    (
        r"\b(?:os\.remove|os\.unlink|\.unlinkSync|File\.delete|unlink)\(\s*" + _STRING,
        "rm -f {0}",
    ),
    (r"\bos\.rmdir\(\s*" + _STRING, "rmdir {0}"),
    (
        r"\.(?:rmSync|rm|rmdirSync)\(\s*" + _STRING + r"[^)]*recursive\s*:\s*true",
        "rm -r -f {0}",
    ),
    (
        r"\b(?:FileUtils\.rm_rf|FileUtils\.rm_r|FileUtils\.remove_dir|rmtree|remove_tree)\(\s*"
        + _STRING,
        "rm -r -f {0}",
    ),
    (r"\bPath\(\s*" + _STRING + r"\s*\)\.unlink\(", "rm -f {0}"),
    (r"\bopen\(\s*" + _STRING + r"\s*,\s*['\"][wax+]", "write {0}"),
    (r"(?:\.writeFileSync|\.appendFileSync|\bFile\.write)\(\s*" + _STRING, "write {0}"),
    # perl's open for writing: 3 arguments (open F, ">", "x") or the mode in the path
    (
        r"\bopen\s*\(?\s*(?:my\s+)?[$\w]+\s*,\s*['\"](?:\+?>>?|\+<)['\"]\s*,\s*" + _STRING,
        "write {0}",
    ),
    (r"\bopen\s*\(?\s*(?:my\s+)?[$\w]+\s*,\s*['\"]\+?>>?\s*([^'\"]+)['\"]", "write {0}"),
    # a copy or move to a named file (php's copy/rename, python's shutil.copy/move)
    (
        r"\b(?:copy|copyfile|copy2|rename|move)\(\s*" + _STRING_NC + r"\s*,\s*" + _STRING,
        "write {0}",
    ),
    (r"\bfile_put_contents\(\s*" + _STRING, "write {0}"),
    # php's fopen of a plain file for writing, two arguments (a wrapper's ``scheme://``
    # may run a command or write elsewhere: expect://, php://filter/resource=F)
    (
        r"\bfopen\(\s*(?:'((?:(?!://)[^'\\])+)'|\"((?:(?!://)[^\"\\${])+)\")\s*,\s*"
        r"['\"][wxac]\+?[bt]?['\"]\s*\)",
        "write {0}",
    ),
    (r"\|\s*\"(?:sh|bash|zsh|dash)\"", "pipe-shell"),
    (r"\bdo shell script\s+" + _STRING, "sh"),  # osascript (dcg#398)
    # a command computed at run time: os.system(cmd), execSync(cmd), perl system($cmd)
    (
        r"\b(?:os\.system|os\.popen|subprocess\.\w+|execSync|spawnSync|execFileSync|"
        r"shell_exec|passthru|proc_open)\(\s*(?=[A-Za-z_$@(])(?!shell\b)",
        "computed",
    ),
    (r"\bsystem\s*\(?\s*[$@][A-Za-z_{]", "computed"),
    # a command literal joined to more (os.system("cat .e" "nv"), "rm " + d, "x" % y):
    # the command is built when it runs
    (
        r"\b(?:os\.system|os\.popen|subprocess\.\w+|execSync|spawnSync|execFileSync|exec|"
        r"shell_exec|passthru|proc_open|popen|system)\s*\(\s*" + _STRING_NC + r"\s*(?=[^\s),])",
        "computed",
    ),
]
# awk only: output redirected to a file, a command string read or computed
_AWK_CALLS: list[tuple[str, str]] = [
    (r"\bprintf?\b[^;}|>]*>>?\s*" + _STRING, "write {0}"),
    (_STRING + r"\s*\|\s*getline", "sh"),
    (r"\bprintf?\b[^;}|]*\|\s*" + _STRING, "sh"),
    (r"\bsystem\s*\(\s*(?=[A-Za-z_$(])", "computed"),
    # a target that is an expression (print > (".hook" "wise/p"), print > ENVIRON["HOME"]
    # "/x", print > "a" b): built when it runs
    (r"\bprintf?\b[^;}|>]*>>?\s*(?=\(|ENVIRON\b)", "computed"),
    (r"\bprintf?\b[^;}|>]*(?:>>?|\|)\s*" + _STRING_NC + r"\s*(?=[\w\"'$(])", "computed"),
    (r"\bprintf?\b[^;}|]*\|\s*(?=[A-Za-z_(])", "computed"),
    (r"\b[A-Za-z_]\w*\s*\|\s*getline", "computed"),
]
_COMPILED_AWK: list[tuple[Any, str]] = []
_COMPILED: list[tuple[Any, str]] = []


# code that reads a file, and code that names the home directory (Path.home(), HOME...)
_READING = (
    r"\bopen\s*\(|read_text|read_bytes|readFile|\bread\s*\(|File\.read|slurp|readlines|"
    r"copyfile|\bcopy\w*\s*\(|\bcat\b|createReadStream|IO\.read|file_get_contents|\bload\s*\(|"
    # perl's open without parentheses (open F, ".env"), awk's getline < FILE, a file read
    # into a shell-like word (ruby's File.foreach, tcl's open, php's file())
    r"\bopen\s+[\w$]|\bgetline\b|\bforeach\s*\(|\bfile\s*\(|\breadfile\s*\(|"
    # php's readers named for what they do with the file (red team s33 L): any call whose
    # name ends in ``file`` (highlight_file, parse_ini_file), show_source and
    # php_strip_whitespace
    r"\w*file\s*\(|\b(?:show_source|php_strip_whitespace)\s*\(|"
    # the files awk and perl's <> read are their ARGV: code that sets it names them
    # (awk 'BEGIN{ARGV[1]=".env";ARGC=2}{print}', perl -e '@ARGV=(".env"); print <>')
    r"\bARGV\s*\[[^]]*\]\s*=|@ARGV\s*=|(?:push|unshift)\s*\(?\s*@ARGV"
)
# code that loads an environment file itself: python-dotenv's load_dotenv()/
# dotenv_values(), node's require("dotenv").config() and process.loadEnvFile(), Ruby's and
# PHP's Dotenv, environs' and django-environ's read_env(), python-decouple, pydantic's
# env_file; with no file named, each reads ``.env`` (red team s31 I)
ENV_LOADING = r"(?i:dotenv|load_?env_?file|read_?env\b|env_?file|\bdecouple\b)"
_HOME = (
    r"Path\.home\s*\(|expanduser|\bHOME\b|homedir\s*\(|Dir\.home|\$ENV\{HOME\}|"
    r"os\.homedir|getpwuid|USERPROFILE"
)
# code that names the cwd (a path built from it is relative to the project)
_CWD = r"\bPWD\b|\bgetcwd\b|\bcwd\s*\(|\bDir\s*\.\s*pwd\b|\bcurdir\b"
# what perl, php and ruby put into a double-quoted string: a variable (with its keys or
# indexes), ${...}, {$...}, #{...}
_INTERPOLATION = r"\$\{[^}]*\}|\{\$[^}]*\}|#\{[^}]*\}|[$@][\w:]+(?:\{[^}]*\}|\[[^\]]*\]|->\w+)*"


def _interpolated_pieces(code: str, language: str) -> tuple[list[str], bool]:
    """The literal pieces of the interpolated double-quoted strings of perl, php or ruby
    code (``"$ENV{HOME}/.netrc"``: ``/.netrc``), and whether it has any."""
    import re

    if language not in _INTERPOLATING:
        return [], False
    pieces: list[str] = []
    for match in re.finditer(_STRING, code):
        text = match.group(2)
        if text is None or not re.search(_INTERPOLATING[language], text):
            continue
        pieces += [p for p in re.split(_INTERPOLATION, text) if p and ("/" in p or _path_like(p))]
    return pieces, bool(pieces)


# code that lists a directory: a file it reads may be any name the listing gives
# (glob.glob('.e*'), os.listdir(), Path.iterdir(), fs.readdirSync, Dir[...], perl's glob)
_LISTING = (
    r"\bglob\.i?glob\s*\(|\bos\.(?:listdir|scandir|walk|fwalk)\b|\.(?:iterdir|r?glob)\s*\(|"
    r"\breaddir(?:Sync)?\b|\bopendir(?:Sync)?\b|\bglobSync\b|\bDir\s*(?:\[|\.\s*(?:glob|"
    r"entries|children|each_child|foreach))|\bFind\.find\b|File::Find|\bglob\s*\(|<\s*\*|"
    r"\bscandir\s*\(|DirectoryIterator|\blfs\.dir\b"
)
MAX_READS = 48
_NOT_PATHS = frozenset(["HOME", "utf8", "utf-8", "r", "rb", "w", "wb", "os", "fs", "path"])


def _reads(code: str, language: str = "") -> list[tuple[str, Any]]:
    """Files the code reads where their names are in it: a literal absolute or ``~`` path,
    and a path built from the home directory and literals (``Path.home()/'.ssh'/'id_rsa'``,
    ``os.path.join(os.environ['HOME'], '.aws', 'credentials')``): ("read", path)."""
    import re

    loads_env = re.search(ENV_LOADING, code) is not None
    home = re.search(_HOME, code) is not None
    cwd = re.search(_CWD, code) is not None
    # code naming the home directory or the cwd builds a path from it whatever call then
    # reads it (php's parse_ini_file(getenv("HOME")."/.aws/credentials"): red team s32 J)
    if not loads_env and not home and not cwd and not re.search(_READING, code):
        return []
    literals = [w for w in _literals(code) if w and "\n" not in w and " " not in w]
    out: list[tuple[str, Any]] = [("read", w) for w in literals if _path_like(w)]
    pieces, interpolated = _interpolated_pieces(code, language)
    if interpolated:  # perl's "$ENV{HOME}/.netrc", "$dir/x": a path the code makes
        out.append(("read", COMPUTED))
        literals += [w for w in pieces if w and "\n" not in w and " " not in w]
    if loads_env:
        out.append(("read", ".env"))  # the file such a loader reads when none is named
    # `".e" + "nv"`, perl's `".e"."nv"`, awk's and Python's `".e" "nv"`: literals joined
    # are a name as much as one literal is
    for match in re.finditer(rf"{_STRING_NC}(?:\s*(?:\+|\.\.?)?\s*{_STRING_NC})+", code):
        joined = "".join(_literals(match.group(0)))
        if _path_like(joined):
            out.append(("read", joined))
    for match in re.finditer(_JOINED, code):  # os.path.join(".", ".env"), path.join(...)
        joined = "/".join(_literals(match.group(0)[match.group(0).index("(") :]))
        if _path_like(joined):
            out.append(("read", joined))
    if _computed_read(code, language) or _computed_argv(code) or re.search(_LISTING, code):
        out.append(("read", COMPUTED))
    for base, named in (("~/", home), ("", cwd)):  # ($ENV{PWD}/../home/.netrc: cwd's)
        if not named:
            continue
        parts = [w.strip("/") for w in literals if w.strip("/") and w not in _NOT_PATHS]
        parts = [p[2:] if p.startswith("~/") else p for p in parts if p != "~"]
        for i in range(len(parts)):
            for j in range(i + 1, min(i + 3, len(parts)) + 1):
                out.append(("read", base + "/".join(parts[i:j])))
    if len(out) > MAX_READS:  # (the path past the bound is the one that matters)
        return [*out[:MAX_READS], ("unverifiable", "the code names too many paths it may read")]
    return out


def _path_like(word: str) -> bool:
    """A literal that can name a file a reading call opens: an absolute or ``~`` path, or
    a relative name with a dot or a slash (``.env``, ``conf/app.ini``); not an encoding,
    a mode or a format string."""
    if word.startswith(("/", "~/")):
        return len(word) > 2
    return (
        ("." in word or "/" in word)
        and word.lower() not in _NOT_PATHS
        and not word.startswith(("-", "%", "{", "http:", "https:"))
        and not _NOT_A_NAME.intersection(word)
        and "%" not in word
        and "{" not in word
        and len(word) < 256
    )


# a reading call: its path must be accounted for (a literal, literals joined, an operand
# of the line, stdin), whatever builds it otherwise (a variable, ENV, input(), bytes(...),
# a loop over a listing: red team s31)
_READ_OPEN = (
    r"(?:(?<![\w.])open|\bio\.open|\bcodecs\.open|\bopenSync|\breadFileSync|\breadFile|"
    r"createReadStream|\bPath|File\.(?:read|open|foreach|readlines|binread)|"
    r"IO\.(?:read|readlines|foreach|binread)|file_get_contents|\bfopen|\breadfile|\bslurp|"
    r"\bhighlight_file|\bshow_source|\bphp_strip_whitespace|\bparse_ini_file)"
    r"\s*\("
)
# what such a path may be: literals (joined by + or .), a line operand (sys.argv[1],
# process.argv[2], ARGV[0], $ARGV[0]), stdin or the program's own file; then other
# arguments (a mode, an encoding)
_ACCOUNTED = (
    rf"\s*(?:{_STRING_NC}(?:\s*[+.]\s*{_STRING_NC})*|"
    rf"(?:os\.)?path\.join\(\s*{_STRING_NC}(?:\s*,\s*{_STRING_NC})*\s*\)|"
    r"sys\.argv\s*\[\s*-?\d+\s*\]|"
    r"process\.argv\s*\[\s*\d+\s*\]|\$?ARGV\s*\[\s*\d+\s*\]|sys\.stdin(?:\.fileno\(\))?|"
    r"0|__file__|)\s*(?:,.*)?"
)
# a method reading a path object (p.read_text()): the object is accounted for only as a
# call just before it (Path('x').read_text(), checked as _READ_OPEN)
_READ_METHOD = r"(?<=[\w\]])\s*\.\s*(?:read_text|read_bytes|open|readlines)\s*\("
# perl's open: FH, then a mode and a path or one of them (open F, "<", $f)
_PERL_OPEN = r"\bopen\s*\(?\s*(?:my\s+)?[$\w]+\s*,((?:[^;)]|\)(?!\s*(?:;|$|or\b)))*)"
# awk's getline from a file: its name is the expression after <
_AWK_GETLINE = r"\bgetline\b[^<;}\n]*<\s*([^;})\n]+)"


_JOINED = rf"\bpath\.join\(\s*{_STRING_NC}(?:\s*,\s*{_STRING_NC})*\s*\)"


def _computed_read(code: str, language: str = "") -> bool:
    """Whether a reading call's path is not accounted for here (``open(f)`` of a loop's
    name, ``open(os.environ['F'])``, ``open(".e" + x)``): the file is unknown, so a rule
    that protects files cannot tell it from one of its own (engine: unverifiable for that
    rule). Literals joined are read as the name they make (_reads)."""
    import re

    perl = language == "perl"
    for match in re.finditer(_READ_OPEN, code):
        if perl and match.group(0).startswith("open"):
            continue  # (perl's open takes a filehandle first: _PERL_OPEN)
        depth, end = 1, match.end()
        while end < len(code) and depth:
            depth += {"(": 1, ")": -1}.get(code[end], 0)
            end += 1
        if not re.fullmatch(_ACCOUNTED, code[match.end() : end - 1], re.S):
            return True
    for match in re.finditer(_READ_METHOD, code):
        if code[: match.start()].rstrip()[-1:] != ")":
            return True  # p.read_text() of a name: a path made when it runs
    for match in re.finditer(_PERL_OPEN, code) if perl or not language else ():
        parts = [p.strip() for p in match.group(1).split(",") if p.strip()]
        if not parts or not all(re.fullmatch(_ACCOUNTED, p, re.S) for p in parts):
            return True
    for match in re.finditer(_AWK_GETLINE, code):
        if not re.fullmatch(_ACCOUNTED, match.group(1).strip(), re.S):
            return True
    return False


_SETS_ARGV = r"(?:\bARGV\s*\[[^]]*\]\s*=|@ARGV\s*=|(?:push|unshift)\s*\(?\s*@ARGV\s*,?)"


def _computed_argv(code: str) -> bool:
    """Whether awk's or perl's ARGV is set to a value built when it runs (``ARGV[1]=f
    "nv"``): the files ``<>`` and awk's main loop read are then unknown here."""
    import re

    for match in re.finditer(_SETS_ARGV + r"\s*([^;}\n]*)", code):
        rest = re.sub(_STRING, "", match.group(1))
        if re.search(r"[\w$@]", rest):
            return True
    return False


def _computed_element(text: str) -> bool:
    """Whether a list literal holds something other than string literals."""
    import re

    rest = re.sub(_STRING, "", text)
    return bool(rest.replace(",", "").strip())


def _literals(text: str) -> list[str]:
    import re

    # (finditer: findall gives "" for the alternative that did not match, so a
    # double-quoted literal read as the empty single-quoted one)
    return [
        (m.group(1) if m.group(1) is not None else m.group(2))
        .encode()
        .decode("unicode_escape", "replace")
        for m in re.finditer(_STRING, text)
    ]


_NOT_A_NAME = frozenset(" \t\n()")


# a literal read and nothing else: the only argument of a call that reads (or with a
# reading mode or an encoding): `open('package.json')`, `require('./package.json')`,
# `readFileSync('x', 'utf8')`, `os.path.exists('x')`; or `Path('x').read_text()`
_READ_CALL = (
    r"(?:(?<![\w.])open|\bio\.open|\bcodecs\.open|\brequire|\breadFileSync|\bexistsSync|"
    r"\bos\.path\.(?:exists|isfile|isdir|getsize))\(\s*$"
)
_READ_ARGS = r"""^\s*(?:,\s*(?:['"](?:r|rb|rt|utf-?8)['"]|encoding\s*=\s*['"][\w-]+['"])\s*)?\)"""
_PATH_READ = r"^\s*\)\s*\.\s*(?:read_text|read_bytes|exists|is_file)\s*\("


def _only_read(code: str, literal: str) -> bool:
    """Whether every place the code names ``literal`` is a call that only reads it."""
    import re

    seen = False
    for match in re.finditer(_STRING, code):
        value = match.group(1) if match.group(1) is not None else match.group(2)
        if value != literal:
            continue
        seen = True
        before, after = code[: match.start()], code[match.end() :]
        if re.search(_READ_CALL, before) and re.match(_READ_ARGS, after):
            continue
        if not (re.search(r"\bPath\(\s*$", before) and re.match(_PATH_READ, after)):
            return False
    return seen


def named_files(words: list[str]) -> list[str]:
    """Files a one-liner names in its string literals (``open(F, ">x.sh")``, ``fs.
    writeFileSync('x.sh', ...)``): the code may write them, with content known only when
    it runs, whatever API it uses; not a file it names only to read (``json.load(open(
    'package.json'))``), which a later ``npm test`` would otherwise take as rewritten."""
    found: list[str] = []
    for word in words:
        if "'" not in word and '"' not in word:
            continue
        for literal in _literals(word):
            name = literal.lstrip("+<>|& ")
            if not ("." in name or "/" in name) or _NOT_A_NAME.intersection(name):
                continue
            if name == literal and _only_read(word, literal):
                continue
            found.append(name)
    return found  # (the parser bounds them: MAX_NAMED)


def _compiled() -> None:
    import re

    if not _COMPILED:
        _COMPILED.extend((re.compile(p, re.S), kind) for p, kind in _CALLS)
        _COMPILED_AWK.extend((re.compile(p, re.S), kind) for p, kind in _AWK_CALLS)


def literal_spans(code: str, awk: bool = False) -> tuple[str, list[tuple[int, int]]]:
    """The code as :func:`code_commands` reads it, and where the calls it reads stand
    (code_residue blanks them out before it looks for what is left)."""
    _compiled()
    code = _constants(code)
    spans = [
        match.span()
        for pattern, kind in _COMPILED + (_COMPILED_AWK if awk else [])
        if kind not in ("computed", "pipe-shell")
        for match in pattern.finditer(code)
    ]
    return code, spans


def _constants(code: str) -> str:
    """``p = 'x.py'`` ... ``open(p, 'w')``: a name assigned one string literal (once) reads
    as that literal in a call's first argument, so the literal call is read."""
    import re

    found: dict[str, str] = {}
    for match in re.finditer(r"(?m)^[ \t]*(\w+)\s*=\s*(" + _STRING + r")\s*;?[ \t]*$", code):
        name = match.group(1)
        found[name] = match.group(2) if name not in found else ""
    for name, literal in found.items():
        if literal:
            pattern = re.compile(r"(\(\s*)" + re.escape(name) + r"(?=\s*[,)])")
            code = pattern.sub(r"\g<1>" + literal.replace("\\", "\\\\"), code)
    return code


# what a language puts into a command string before the shell sees it: perl and php
# variables ("rm $f", `cat $_`, "@a"), ruby's #{...}, in double quotes and backticks
_INTERPOLATING = {"perl": r"[$@][\w{:]", "php": r"\$[\w{]", "ruby": r"#\{|#[$@]\w"}


def _interpolated(match: Any, group: int, language: str) -> bool:
    """Whether the command string of ``match`` (its ``group``) is interpolated by the
    language: then the shell runs words the code made, not the text here."""
    import re

    marker = _INTERPOLATING.get(language)
    if marker is None or not re.search(marker, match.group(group)):
        return False
    return bool(match.string[match.start(group) - 1 : match.start(group)] != "'")


def _moved(code: str, language: str) -> list[tuple[str, Any]]:
    """Paths the code builds as objects (pathlib's ``/``, ``Path(a, b)``: path_objects)
    and a change of directory (``chdir`` in python, node, perl, php, ruby: red team s32
    J), after which every relative path it uses is under a directory not followed here."""
    import re

    out: list[tuple[str, Any]] = []
    if language == "python" and "Path" in code:
        from hookwise.shell.code_paths.path_objects import path_items

        out += path_items(code, re.search(_READING, code) is not None)
    if "chdir" in code and re.search(r"\bf?chdir\b", code):
        why = "the code changes its directory (chdir), so the paths it uses after it are"
        out.append(("unverifiable", f"{why} relative to a directory hookwise does not follow"))
    return out


def _in_cwd(code: str, found: list[tuple[str, Any]]) -> list[tuple[str, Any]]:
    """The commands found, run where a process call's ``cwd=`` (python) or ``cwd:`` (node)
    puts them (red team s33 L: ``subprocess.run(["cat", ".netrc"], cwd="../home")``): one
    literal directory is a ``cd`` before each; any other is a directory not followed."""
    import re

    from hookwise.shell.quote import join  # (shlex would load os on the hot path)

    if "cwd" not in code:
        return found
    places = [m for m in re.finditer(r"\bcwd\s*[=:]\s*", code) if not _compared(code, m.end())]
    if not places:
        return found
    named = {
        _string_value(literal)
        for literal in (re.match(_STRING, code[m.end() :]) for m in places)
        if literal is not None
    }
    if len(named) != 1 or len(places) != sum(
        re.match(_STRING, code[m.end() :]) is not None for m in places
    ):
        why = "the code runs a command in a directory (cwd) made when it runs, or in several"
        return [*found, ("unverifiable", why)]
    where = join([named.pop()])
    out: list[tuple[str, Any]] = []
    for kind, value in found:
        if kind == "script":
            out.append(("script", f"cd {where} && {value}"))
        elif kind == "argv":
            out.append(("script", f"cd {where} && {join(value)}"))
        else:
            out.append((kind, value))
    return out


def _compared(code: str, at: int) -> bool:
    """Whether ``cwd=`` at ``at`` is ``cwd==`` (a comparison, not a keyword)."""
    return code[at - 1 : at] == "=" and code[at : at + 1] == "="


def _string_value(literal: Any) -> str:
    return str(literal.group(1) if literal.group(1) is not None else literal.group(2))


def code_commands(code: str, awk: bool = False, language: str = "") -> list[tuple[str, Any]]:
    """Literal shell commands and file operations in interpreter code:
    ("script", text) | ("argv", [...]) | ("write", path) | ("unverifiable", why)."""
    _compiled()
    code = _constants(code)
    out: list[tuple[str, Any]] = []
    seen: set[str] = set()
    for pattern, kind in _COMPILED + (_COMPILED_AWK if awk else []):
        for match in pattern.finditer(code):
            groups = [g for g in match.groups()]
            first = next((g for g in groups if g is not None), None)
            if kind == "pipe-shell":
                out.append(("unverifiable", "the code pipes its output to a shell"))
            elif kind == "computed":
                out.append(("unverifiable", "the code runs a command computed when it runs"))
            elif kind in ("sh", "sh1"):
                if first is not None and _interpolated(match, groups.index(first) + 1, language):
                    out.append(
                        (
                            "unverifiable",
                            f"the code puts its own values in a command ({first[:60]})",
                        )
                    )
                elif first is not None:
                    out.append(("script", first.encode().decode("unicode_escape", "replace")))
            elif kind == "argv":
                words = _literals(groups[0] or "")
                if words and _computed_element(groups[0] or ""):
                    words.append(COMPUTED)  # ['rm', '-rf', path]: a word known when it runs
                if words:
                    out.append(("argv", words))
            elif kind == "argv2":
                program = first or ""
                words = _literals(groups[-1] or "")
                if words and words[0].rsplit("/", 1)[-1] == program.rsplit("/", 1)[-1]:
                    words = words[1:]
                out.append(("argv", [program, *words]))
            elif first is not None:
                if kind.startswith("write"):
                    out.append(("write", first))
                else:
                    out.append(("argv", [*kind.format(first).split(" ")[:-1], first]))
    out = _in_cwd(code, out)
    out += _reads(code, language)
    out += _moved(code, language)
    unique: list[tuple[str, Any]] = []
    for item in out:
        key = repr(item)
        if key not in seen:
            seen.add(key)
            unique.append(item)
    return unique
