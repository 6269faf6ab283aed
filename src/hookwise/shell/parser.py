"""Shell-aware splitting of a command line into the simple commands it runs.

``git add . && git push -f origin main`` is two commands, and ``-f`` is a flag of the
second, not a substring of ``feature-fix``. The splitter follows POSIX shell / bash syntax
closely enough for policy matching:

- words are tokenised with quotes (``'...'``, ``"..."``, ``$'...'``), backslash escapes
  and line continuations;
- commands are separated by ``&&``, ``||``, ``;``, ``&``, ``|``, ``|&``, newlines and
  ``(``/``)``;
- redirections (``> f``, ``2>>f``, ``&> f``, ``< f``, heredocs) are taken out of the
  arguments; their file targets are kept (a command that writes ``> .env`` writes .env);
- command substitutions (``$(...)``, backticks, ``<(...)``), ``bash -c``/``sh -c``
  scripts and ``eval`` arguments are parsed as commands of their own;
- leading assignments (``FOO=1 cmd``), shell keywords (``if``, ``then``, ``!``...) and
  wrappers (``sudo``, ``env``, ``command``, ``exec``, ``nohup``, ``time``, ``nice``,
  ``timeout``, ``xargs``, ``stdbuf``, ``doas``) are skipped, so ``sudo rm -rf /`` runs
  ``rm``.

It never raises: malformed input (an unclosed quote, say) is split as far as it goes and
the result says it is incomplete. Standard library only, no :mod:`re` (hot path).

What only some commands need is in modules imported for those alone:
:mod:`~hookwise.shell.scripts` (the script a shell runs: ``-c``, stdin, a file),
:mod:`~hookwise.shell.ansi_c` (``$'...'``), :mod:`~hookwise.shell.xargs_input`,
:mod:`~hookwise.shell.quote` (argv back to a command line) and the modules that
:mod:`~hookwise.shell.programs` names for what a program runs.
"""

from __future__ import annotations

from hookwise.shell import accounting, programs

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

MAX_DEPTH = 8
MAX_COMMANDS = 2000
# words, brace expansions and nested pieces one line may cost before it is answered
# unverifiable (a short line of brace expansions is millions of words: the hook must
# answer well within a host's timeout)
MAX_WORK = 50_000
MAX_EXPANSION_NESTING = 64  # ${...} and $((...)) inside one another
# characters of a line read at all: reading is linear in the line, but a 1.8 MB line of
# substitutions still took a hook its whole 7 s deadline (red team s30 run #6); a longer
# line is unverifiable unread (an agent's longest real lines, heredocs, are far shorter)
MAX_LINE = 128 * 1024
# Every bound below answers "unverifiable" (or "does not parse") when it is hit, never
# "nothing found": what lies past a bound is what an attacker puts there.
MAX_WRAPPERS = 32  # rounds of keywords, assignments and wrappers in front of one command
MAX_NAMED = 32  # files a one-liner's literals name, kept as written by it
MAX_COPIES_READ = 16  # readings of copies made on the line, for one command

_BREAK = frozenset(" \t\n;&|()<>")
_OPS = ("&&", "||", ";;&", ";;", ";&", "|&", "&", ";", "|", "(", ")")
_REDIRS = ("&>>", "&>", "<<<", "<<-", "<<", "<>", "<&", ">>", ">|", ">&", "<", ">")
_KEYWORDS = frozenset(
    ["if", "then", "else", "elif", "fi", "do", "done", "while", "until", "!", "{", "}"]
)
_COMPOUND = frozenset(["for", "case", "select", "esac", "function"])


class Command:
    """One simple command: its words after wrappers, redirect targets, and source text."""

    __slots__ = (
        "argv",
        "assigned",
        "chdir",
        "choices",
        "computed_writes",
        "depth",
        "dynamic",
        "env",
        "globs",
        "group",
        "kept",
        "options",
        "origin",
        "piped_from",
        "program",
        "quoted_program",
        "redirects",
        "shapes",
        "stdin",
        "text",
        "unknown_args",
        "unknowns",
        "unverifiable",
        "walked",
        "writes",
    )

    def __init__(
        self,
        argv: list[str],
        dynamic: list[bool],
        redirects: list[str],
        text: str,
        depth: int,
        *,
        writes: list[str] | None = None,
        stdin: list[str] | None = None,
    ) -> None:
        self.argv = argv
        # the basename of the program run, '' for an empty command; an attribute, not a
        # property: the matcher reads it for every rule and command (argv is never changed)
        # (a versioned or triplet name is its family's: programs.program_name)
        self.program = programs.program_name(argv[0].rsplit("/", 1)[-1]) if argv else ""
        self.dynamic = dynamic  # per word: contains an expansion ($x, $(...), `...`)
        self.redirects = redirects  # every file redirect target (read or written)
        self.text = text
        self.depth = depth
        self.writes = writes if writes is not None else []  # targets of >, >>, &>, <>...
        # those of them the line computes when it runs (> "$(rev <<< ...)", > "$d/x" after
        # d=$(...)): any path at all (variables.made_on_line)
        self.computed_writes: list[str] = []
        self.stdin = stdin if stdin is not None else []  # here-document bodies, here-strings
        # why what runs cannot be known before it runs ($a, $(printf rm), a piped script)
        self.unverifiable: str | None = None
        self.unknown_args = False  # the words, not only the program, are unknown
        self.options: tuple[set[str], list[str]] | None = None  # programs.flags_of, lazily
        self.origin = ""  # what a derived command stands for ("find -delete", "python -c")
        self.piped_from: Command | None = None  # the command whose stdout is this one's stdin
        self.chdir: str | None = None  # where a wrapper runs it (env -C DIR, sudo -D DIR)
        self.group: tuple[int, ...] = ()  # the subshells it runs in (Script.groups)
        self.assigned: list[str] = []  # variables set for it (X=1 cmd, env X=1, export X=1)
        self.env: dict[str, str] = {}  # their values, as written
        self.quoted_program = False  # the program's word had quotes (no glob, no alias)
        self.globs: frozenset[int] = frozenset()  # words that are patterns bash expands
        # per word known only when it runs: what it can be (variables.shape), for the
        # matcher (a word that could be a rule's flag or argument); None: every word known
        self.shapes: dict[int, tuple[tuple[str, ...], ...]] | None = None
        # per such word that is a loop's ``"$f"``: the names and patterns it can be
        # (variables.choice_words), for the paths the command names; None: none
        self.choices: dict[int, tuple[tuple[str, bool], ...]] | None = None
        # what runs that hookwise cannot account for, as found (accounting.account turns
        # them into the verdict)
        self.unknowns: list[str] = []
        # find's words when it runs this command on what it finds (`find . -type f -exec
        # cat {} +`): the start points are trees it reads, as find's tests select
        self.walked: list[str] | None = None
        # a copy's, move's or link's sources read as `cat` (written.read_copies): that copy
        # and the names they are put under, as it spells them (written.kept_names)
        self.kept: tuple[Command, tuple[str, ...]] | None = None

    @property
    def unknown_program(self) -> bool:
        return self.unverifiable is not None and bool(self.dynamic) and self.dynamic[0]

    def __repr__(self) -> str:
        return f"Command({self.argv!r}, redirects={self.redirects!r})"

    def variant(self, values: dict[int, tuple[str, bool]]) -> Command:
        """This command with some of its loop's words given one value each (index ->
        (value, is a pattern)): what one turn of the loop runs (engine._choices_match)."""
        made = object.__new__(Command)
        for name in Command.__slots__:
            setattr(made, name, getattr(self, name))
        made.argv = list(self.argv)
        made.dynamic = list(self.dynamic)
        shapes = dict(self.shapes or {})
        globs = set(self.globs)
        for at, (value, pattern) in values.items():
            made.argv[at] = value
            made.dynamic[at] = False
            shapes.pop(at, None)
            if pattern:
                globs.add(at)
        made.shapes = shapes or None
        made.globs = frozenset(globs)
        made.choices = None
        made.options = None
        return made


class Script:
    """The result of splitting: every command found, and whether the input parsed fully."""

    __slots__ = (
        "aliases",
        "anchor",
        "certain",
        "commands",
        "complete",
        "concurrent",
        "copies",
        "deferred",
        "deleted",
        "disk_code",
        "elsewhere",
        "end",
        "first_written",
        "git_aliases",
        "git_settings",
        "git_unresolved",
        "globopts",
        "globs_named",
        "group_count",
        "groups",
        "home",
        "loaded",
        "overall",
        "positional",
        "problems",
        "rebound",
        "scope",
        "scopes",
        "sourced",
        "vars",
        "work",
        "written",
    )

    def __init__(self) -> None:
        self.commands: list[Command] = []
        self.complete = True
        self.problems: list[str] = []
        self.git_aliases: dict[str, str] = {}  # defined earlier on the line
        self.git_settings: dict[str, str] = {}  # git config KEY VALUE earlier on the line
        # git commands whose subcommand is none of git's own: an alias in a configuration
        # file, read where the event's directory is known (git_aliases.resolve_aliases)
        self.git_unresolved: list[tuple[Command, int]] = []
        # where a ``cd`` earlier on the line went, when it left the working directory
        # (``cd ../remote.git && git reset``: a repository that is not the project's)
        self.elsewhere: str | None = None
        self.deleted: list[str] = []  # what rm, rmdir, unlink removed earlier on the line
        # ``written`` as read in text order, kept when the line is read again with every
        # content unknown (run_order.written_anywhere): the text each write adds, whenever
        # it runs (what a start-up file is given: policy/trust/startup_lines.py)
        self.first_written: dict[str, str | None] | None = None
        # script files on the disk a shell or `source` runs (the project's code, not read
        # here), for a look where the event's directory is known: a FIFO there gives what
        # its writer says when it runs (canonical.Event.script)
        self.disk_code: list[tuple[Command, str]] = []
        self.aliases: dict[str, str] = {}  # shell aliases defined earlier on the line
        # why later names may not mean what they say (hash -p, set -H...: accounting.rebinds)
        self.rebound: str | None = None
        self.globopts: frozenset[str] = frozenset()  # shopt -s nocaseglob... on the line
        # glob options something on the line may set, wherever it stands (split_command)
        self.globs_named: frozenset[str] = frozenset()
        # files written earlier on the line: their content when known here (echo ... >
        # x.sh), None when not (base64 -d > x.sh): running one is then unverifiable
        self.written: dict[str, str | None] = {}
        # whether anything on the line runs beside the rest (``&``, a pipe, a coprocess, a
        # process substitution, a FIFO) or later than its text (a trap, a function body, a
        # loop's later iteration, PROMPT_COMMAND): then run order is not text order
        # (run_order.py)
        self.concurrent = False
        # files copied (cp, mv, ln, install) earlier on the line from a file not written on
        # it, to (the original, the program): a later command on the copy (written.py)
        self.copies: dict[str, tuple[str, str]] = {}
        self.loaded: set[str] = set()  # written code files already read as run
        # files sourced earlier on the line (source .env): printing the values they defined
        # is reading them (commands.env_files.prints_values)
        self.sourced: list[str] = []
        # why the line as a whole cannot be accounted for (an expansion past its budget)
        self.overall: list[str] = []
        self.work = 0  # units of work done (words, expansions), against MAX_WORK
        # where the parser is, for the values known there (variables.py): the shell
        # (scope) whose text is read, the offset that stands for a nested piece (None:
        # each word's own), whether the command being added runs for sure, its end
        self.vars: Any = None  # variables.Vars, once the line assigns a variable
        self.home: str | None = None  # the environment's HOME (split_command)
        self.scope = 0
        self.scopes: dict[tuple[int, int, str], int] = {}
        self.anchor: int | None = None
        self.certain = False
        self.deferred = False  # the command is in a function body (its $1... are its args)
        self.end = 0
        # the subshells (``( ... )``, a pipeline's parts) the command being added runs in,
        # innermost last, by number: a ``cd`` there ends with them (canonical.command_dirs)
        self.groups: list[int] = []
        self.group_count = 0
        self.positional: list[str] | None = None

    @property
    def unverifiable(self) -> list[str]:
        found = [c.unverifiable for c in self.commands if c.unverifiable is not None]
        return found + self.overall

    def budget_left(self) -> int:
        return MAX_WORK - self.work

    def past_budget(self, what: str) -> None:
        _past_budget(self, what)

    def scope_of(self, parent: int, anchor: int, text: str) -> int:
        """The id of the shell that runs ``text`` from ``anchor`` of shell ``parent`` (the
        same on both passes of split_command)."""
        key = (parent, anchor, text)
        found = self.scopes.get(key)
        if found is None:
            found = self.scopes[key] = len(self.scopes) + 1
        return found

    def recall(self, path: str) -> str | None:
        """What ``path`` holds when it was written earlier on the line (None: not known)."""
        return self.written.get(_file_key(path))

    def was_written(self, path: str) -> bool:
        """Whether ``path`` was written earlier on the line (its content known or not)."""
        return _file_key(path) in self.written


class _Word:
    __slots__ = (
        "array",
        "dynamic",
        "end",
        "expanded",
        "glob",
        "marks",
        "parts",
        "quoted",
        "start",
        "value",
    )

    def __init__(
        self,
        value: str,
        dynamic: bool,
        quoted: bool,
        start: int,
        end: int,
        *,
        parts: list[str] | None = None,
        marks: tuple[tuple[int, int], ...] = (),
    ) -> None:
        self.value = value
        self.dynamic = dynamic
        self.quoted = quoted
        self.start = start
        self.end = end
        # a word with expansions: its pieces, and (piece index, 1 unquoted | 2 quoted) of
        # each expansion among them (variables.py resolves them and gives their shape)
        self.parts = parts
        self.marks = marks
        self.array: list[_Word] | None = None  # a=(x y): the elements
        self.expanded = False  # the result of an expansion: never an assignment or keyword
        self.glob = False  # an unquoted * ? or [: bash expands it against the disk


def _assigns_here(value: list[str]) -> bool:
    """Whether the word read so far is an assignment's name and value (``x=~/a:~b``)."""
    name, eq, _ = "".join(value).partition("=")
    return bool(eq) and name.rstrip("+").isidentifier()


def split_command(text: str, home: str | None = None) -> Script:
    """Split a command line into its simple commands (never raises). ``home``: the
    environment's HOME, the value of ``$HOME`` wherever the line never sets it."""
    if isinstance(text, str) and len(text) > MAX_LINE:
        script = Script()
        script.complete = False
        script.problems.append(f"the command is longer than {MAX_LINE // 1024} KiB: not read")
        return script
    script = _split(text, frozenset(), home)
    if _may_set_globignore(script, text if isinstance(text, str) else ""):
        # GLOBIGNORE set at all (read, printf -v, ${GLOBIGNORE:=x}) turns dotglob on (s30 E)
        script.globs_named |= {"dotglob"}
    if script.globs_named:
        # a glob option set anywhere on the line (a function's shopt, bash -O, BASHOPTS):
        # it may be in force at any pattern, so every pattern is read under it (s29 E)
        script = _split(text, script.globs_named, home)
    return script


def _may_set_globignore(script: Script, text: str) -> bool:
    """Whether the line may set GLOBIGNORE, by any form of assignment: one recorded for
    it, a word that names it (``declare -n g=GLOBIGNORE``, ``(( GLOBIGNORE = 1 ))``,
    ``printf -v``), or a name the line computes (red team s31 P)."""
    found = script.vars
    if found is not None and (found.computed or any(r[1] == "GLOBIGNORE" for r in found.records)):
        return True
    if "GLOBIGNORE" in text:  # (the name as text, wherever it stands: n=GLOBIGNORE)
        return True
    words = [w for c in script.commands for w in c.argv if "$((" in w or "$[" in w]
    if not words:
        return False
    from hookwise.shell.assigns import computed_target  # (cold: arithmetic on the line)

    return any(computed_target(word) for word in words)


def _fresh(options: frozenset[str], home: str | None = None) -> Script:
    script = Script()
    script.globopts = options
    script.home = home
    return script


def _split(text: str, options: frozenset[str], home: str | None = None) -> Script:
    """The line's commands, its patterns read under glob ``options`` from its start."""
    script = _fresh(options, home)
    if not isinstance(text, str):
        script.complete = False
        script.problems.append("the command is not a string")
        return script
    if "\x00" in text:
        # bash never sees past a NUL (a C string), a script file drops it: either way the
        # words differ from the text, so what would run is not what is read here
        script.complete = False
        script.problems.append("the command contains a NUL character")
        text = text.replace("\x00", "")
    try:
        _parse(text, 0, script)
        found = script.vars
        homed = bool(home) and "HOME" in text  # $HOME is known: the environment's
        # $(dirname src/app.py): a name printed from a literal (variables.printed_name)
        printed = "$(dirname " in text or "$(basename " in text
        if found is None and ("IFS" in text or homed or printed):  # ${IFS}: set at start
            from hookwise.shell.variables import Vars

            found = script.vars = Vars()
            found.home = home
        if printed and found is not None:
            from hookwise.shell.variables import printed_name_line

            found.printers = printed_name_line(text)
            printed = found.printers
        expands = "$" in text or "`" in text or "~" in text  # (~ reads HOME, PWD...)
        if found is not None and (found.records or "IFS" in text or homed or printed) and expands:
            # the line assigns what it also expands: read it again with the values known
            # at each place (variables.py)
            found.build()
            again = _fresh(options, home)
            again.vars = found
            _parse(text, 0, again)
            again.complete = again.complete and script.complete
            again.problems = list(dict.fromkeys(script.problems + again.problems))
            script = again
        if "<(" in text or ">(" in text:  # a process substitution runs beside its command
            script.concurrent = True
        if script.concurrent and _may_name_again(text, script):
            from hookwise.shell.commands.run_order import written_anywhere

            script = written_anywhere(text, script, _parse, lambda: _fresh(options, home))
    except RecursionError:
        script.complete = False
        script.problems.append("the command nests too deeply")
    return script


# what can make a word of the line name a file no word spells out (run_order.py)
_NAMING = frozenset("$`*?[{~\\")


def _may_name_again(text: str, script: Script) -> bool:
    """Whether a concurrent line's files written (or copied) may be named by another of
    its words, which only then can be read as run before their write (run_order.py): a
    name of one spelled once in the text, with nothing on the line that expands, names it
    only where it is written (``npm test | tee log.txt`` is read once)."""
    names = [*script.written, *script.copies]
    if not names:
        return False
    if not _NAMING.isdisjoint(text):
        return True
    return any(text.count(name.rsplit("/", 1)[-1]) != 1 for name in names)


def _find_closing(text: str, start: int, opener: str, closer: str) -> int:
    """Index of the ``closer`` balancing the ``opener`` just before ``start``; -1 if none."""
    depth = 1
    i = start
    n = len(text)
    while i < n:
        ch = text[i]
        if ch == "\\":
            i += 2
            continue
        if ch == "'":
            end = text.find("'", i + 1)
            if end < 0:
                return -1
            i = end + 1
            continue
        if ch in {'"', "`"} or text.startswith("$(", i):
            # a command substitution's ) and } are its own (bash parses it as commands)
            i = _skip_quoted(text, i)
            if i < 0:
                return -1
            continue
        if ch in "<>" and text.startswith("(", i + 1):
            end = _comsub_end(text, i + 2)
            if end < 0:
                return -1
            i = end + 1
            continue
        if ch == opener:
            depth += 1
        elif ch == closer:
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return -1


def _assigns_array(value: list[str]) -> bool:
    """Whether the word so far is ``name=`` or ``name+=`` (``a=(x y)`` follows)."""
    text = "".join(value)
    if not text.endswith("="):
        return False
    name = text[:-1].removesuffix("+")
    return name.isidentifier() or (name.endswith("]") and name.split("[", 1)[0].isidentifier())


def _fd_name_end(text: str, start: int) -> int:
    """The end of ``{NAME}`` or ``{NAME[WORD]}`` at ``start`` when a redirect follows it
    (``{fd}>f``, ``{COPROC[1]}>&-``: the variable holds the descriptor), else -1."""
    close = text.find("}", start)
    if close < 0 or close + 1 >= len(text) or text[close + 1] not in "<>":
        return -1
    if text.startswith(("<(", ">("), close + 1):
        return -1
    name, bracket, subscript = text[start + 1 : close].partition("[")
    if not name.isidentifier() or not name.isascii():
        return -1
    index = subscript[:-1].replace("_", "a")
    if bracket and (not subscript.endswith("]") or (index and not index.isalnum())):
        return -1
    return close + 1


def _find_backtick(text: str, start: int) -> int:
    i = start
    n = len(text)
    while i < n:
        if text[i] == "\\":
            i += 2
            continue
        if text[i] == "`":
            return i
        i += 1
    return -1


def _heredoc_body(
    text: str, i: int, delimiter: str, strip_tabs: bool, quoted: bool
) -> tuple[str, int, bool]:
    """The here-document body from ``i``: (body, where the text goes on, delimiter found).

    Bash reads an unquoted here-document's lines with line continuations joined first, so
    ``E\\<newline>OF`` is the delimiter ``EOF`` (and ``<<-`` strips the tabs that start the
    joined line, not those after the join); a quoted one's lines are taken as they are."""
    body: list[str] = []
    n = len(text)
    while i < n:
        end = text.find("\n", i)
        line = text[i:] if end < 0 else text[i:end]
        i = n if end < 0 else end + 1
        if not quoted:
            while end >= 0 and _continued(line):
                end = text.find("\n", i)
                line = line[:-1] + (text[i:] if end < 0 else text[i:end])
                i = n if end < 0 else end + 1
        if strip_tabs:
            line = line.lstrip("\t")
        if line == delimiter:
            return "".join(body), i, True
        body.append(line + "\n")
    return "".join(body), n, False


def _continued(line: str) -> bool:
    """Whether a line ends in a backslash that escapes its newline (an odd run of them)."""
    run = len(line) - len(line.rstrip("\\"))
    return run % 2 == 1


_COMSUB_BREAK = frozenset(" \t\n;&|()<>")
_CASE_ENDS = frozenset([";;&", ";;", ";&"])


def _comsub_end(text: str, start: int, *, commands: bool = True) -> int:
    """Index of the ``)`` closing the ``$(``, ``<(`` or ``>(`` whose body starts at
    ``start``; -1 if none.

    Bash 5.2 parses that body as commands before it looks for the end, so what hides a
    ``)`` from bash hides it here too: a comment (``# )``), a case pattern (``x)``), a
    here-document body, quotes and nested expansions. Reading less than that let
    ``$(echo # )'`` end early and take the command after it for quoted data.
    ``commands=False`` reads an array's ``(...)``: words and comments, no keywords."""
    n = len(text)
    depth = 0
    # open case commands: [depth where it opened, state]; state 0 subject, 1 ``in``,
    # 2 patterns (2.5: a pattern's first word, where ``(`` is optional), 3 a clause's body
    cases: list[list[float]] = []
    heredocs: list[tuple[str, bool, bool]] = []
    pending = ""  # "<<" or "<<-" waiting for its delimiter word
    command = True  # the next word stands where a command's name does
    i = start
    while i < n:
        ch = text[i]
        if ch == "\\" and text.startswith("\n", i + 1):
            i += 2
            continue
        if ch in " \t":
            i += 1
            continue
        if ch == "\n":
            i += 1
            command = True
            while heredocs:
                delimiter, strip_tabs, quoted = heredocs.pop(0)
                _body, i, found = _heredoc_body(text, i, delimiter, strip_tabs, quoted)
                if not found:
                    return -1
            continue
        if ch == "#":
            end = text.find("\n", i)
            if end < 0:
                return -1
            i = end
            continue
        if ch == "(":
            if text.startswith("((", i):
                close = _find_closing(text, i + 2, "(", ")")
                if close > 0 and text.startswith(")", close + 1):  # ((arithmetic))
                    i = close + 2
                    command = False
                    continue
            if cases and cases[-1][1] == 2.5 and cases[-1][0] == depth:
                cases[-1][1] = 2  # case x in (x) ...: the optional ( of a pattern
            else:
                depth += 1
            i += 1
            command = True
            continue
        if ch == ")":
            if cases and cases[-1][0] == depth and cases[-1][1] >= 2 and cases[-1][1] < 3:
                cases[-1][1] = 3  # the end of a pattern: its clause's commands follow
                command = True
                i += 1
                continue
            if depth == 0:
                return i
            depth -= 1
            i += 1
            command = False
            continue
        if ch in ";&|<>":
            if ch in "<>" and text.startswith("(", i + 1):
                end = _comsub_end(text, i + 2)
                if end < 0:
                    return -1
                i = end + 1
                command = False
                continue
            redirect = next((r for r in _REDIRS if text.startswith(r, i)), "")
            if redirect:  # its target is a word, not a command's name
                if commands and redirect in ("<<", "<<-"):
                    pending = redirect
                i += len(redirect)
                continue
            op = next(o for o in _OPS if text.startswith(o, i))
            i += len(op)
            if cases and cases[-1][0] == depth:
                if op in _CASE_ENDS and cases[-1][1] == 3:
                    cases[-1][1] = 2.5  # ;; and the next pattern
                    continue
                if op == "|" and 2 <= cases[-1][1] < 3:
                    continue  # x|y) : one pattern list
            command = True
            continue
        # a word: up to the next unquoted break
        word_start = i
        quoted = False
        while i < n and text[i] not in _COMSUB_BREAK:
            c = text[i]
            if c == "\\":
                i += 2
                quoted = True
                continue
            if c == "'":
                end = text.find("'", i + 1)
                if end < 0:
                    return -1
                i = end + 1
                quoted = True
                continue
            if c in {'"', "`", "$"}:
                i = _skip_quoted(text, i)
                if i < 0:
                    return -1
                quoted = quoted or c != "$"
                continue
            if c in "?*+@!" and text.startswith("(", i + 1):
                end = _find_closing(text, i + 2, "(", ")")  # an extglob group
                if end < 0:
                    return -1
                i = end + 1
                continue
            i += 1
        i = min(i, n)
        word = text[word_start:i]
        if pending:
            heredocs.append((_unquoted(word), pending == "<<-", quoted))
            pending = ""
            continue
        if not commands:
            continue
        state = cases[-1][1] if cases else -1
        if state == 0:
            cases[-1][1] = 1
        elif state == 1 and word == "in":
            cases[-1][1] = 2.5
        elif state in (2, 2.5) and word == "esac" and not quoted:
            cases.pop()
            command = False
        elif state in (2, 2.5):
            cases[-1][1] = 2
        elif command and not quoted and word == "case":
            cases.append([depth, 0])
        elif command and not quoted and word == "esac" and state == 3:
            cases.pop()
            command = False
        elif command and not quoted and word in _KEYWORDS:
            pass  # if, then, do, {, !: a command's name still follows
        else:
            command = False
    return -1


def _skip_quoted(text: str, i: int) -> int:
    """Past the ``"..."``, backtick or ``$`` expansion at ``i`` (-1: it does not end)."""
    n = len(text)
    ch = text[i]
    if ch == "`":
        end = _find_backtick(text, i + 1)
        return -1 if end < 0 else end + 1
    if ch == '"':
        i += 1
        while i < n and text[i] != '"':
            if text[i] == "\\":
                i += 2
            elif text[i] in "$`":
                i = _skip_quoted(text, i)
                if i < 0:
                    return -1
            else:
                i += 1
        return -1 if i >= n else i + 1
    # $
    if text.startswith("$(", i):
        end = _dollar_paren_end(text, i)
    elif text.startswith("${", i):
        end = _find_closing(text, i + 2, "{", "}")
    elif text.startswith("$[", i):
        end = _find_closing(text, i + 2, "[", "]")
    elif text.startswith("$'", i):
        j = i + 2
        while j < n and text[j] != "'":
            j += 2 if text[j] == "\\" else 1
        end = j if j < n else -1
    else:
        return i + 1
    return -1 if end < 0 else end + 1


def _dollar_paren_end(text: str, i: int) -> int:
    """The ``)`` ending the ``$(`` at ``i``: ``$((...))`` that closes as arithmetic is
    arithmetic (its ``<<`` a shift), anything else a command substitution (as bash 5.2)."""
    if text.startswith("$((", i):
        end = _find_closing(text, i + 3, "(", ")")
        if end > 0 and text.startswith(")", end + 1):
            return end + 1
    return _comsub_end(text, i + 2)


def _unquoted(word: str) -> str:
    """A here-document delimiter word without its quotes (as bash compares it)."""
    out: list[str] = []
    i = 0
    while i < len(word):
        c = word[i]
        if c == "\\" and i + 1 < len(word):
            out.append(word[i + 1])
            i += 2
        elif c in "'\"":
            end = word.find(c, i + 1)
            end = len(word) if end < 0 else end
            out.append(word[i + 1 : end])
            i = end + 1
        elif c == "$" and word.startswith(("$'", '$"'), i):
            i += 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


# $-expansions kept verbatim: (opener, closer, name, holds commands). ``$((`` is read as
# bash reads it: a ``$(`` first, arithmetic only if what it holds is (variables.is_arithmetic)
_EXPANSIONS = (
    ("$(", ")", "command substitution", True),
    ("${", "}", "${...}", False),
    ("$[", "]", "arithmetic expansion", False),
)


class _Scanner:
    """Tokens of one (sub)script: words, operators, redirections."""

    def __init__(self, text: str, depth: int, script: Script) -> None:
        self.text = text
        self.depth = depth
        self.script = script
        self.nested: list[tuple[str, int]] = []  # (text, offset where it was found)
        self.heredocs: list[tuple[str, bool, int, bool]] = []
        self.bodies: dict[int, str] = {}  # delimiter word start -> here-document body
        self.level = 0  # how deep in ${...} / $((...)) bodies this scanner reads

    def incomplete(self, why: str) -> None:
        self.script.complete = False
        if why not in self.script.problems:
            self.script.problems.append(why)

    def tokens(self) -> list[tuple[str, object, int, int]]:
        text = self.text
        n = len(text)
        out: list[tuple[str, object, int, int]] = []
        heredoc = ""  # a "<<" waiting for its delimiter word
        # where bash accepts an assignment (a command's first words): there ``a[...]`` is
        # one word, its subscript arithmetic (``a[1<<E]=1``: a shift, no here-document)
        assign_ok = True
        i = 0
        while i < n:
            ch = text[i]
            if ch in " \t":
                i += 1
                continue
            if ch == "\\" and i + 1 < n and text[i + 1] == "\n":
                i += 2
                continue
            if ch == "#":
                end = text.find("\n", i)
                i = n if end < 0 else end
                continue
            if ch == "\n":
                out.append(("op", "\n", i, i + 1))
                i = self._skip_heredocs(i + 1)
                assign_ok = True
                continue
            if text.startswith("((", i):
                arithmetic = self._arithmetic_command(i, out)
                if arithmetic:
                    i = arithmetic
                    assign_ok = False
                    continue
            if ch.isdigit():
                j = i
                while j < n and text[j].isdigit():
                    j += 1
                if j < n and text[j] in "<>" and not text.startswith(("<(", ">("), j):
                    op = next(r for r in _REDIRS if text.startswith(r, j))
                    out.append(("redir", op, i, j + len(op)))
                    i = j + len(op)
                    continue
            if ch == "{" and (j := _fd_name_end(text, i)) > 0:
                # {fd}>out.log, exec {COPROC[1]}>&-: a redirect whose descriptor a variable
                # holds (a plain subscript only: bash expands one with $ or `)
                op = next(r for r in _REDIRS if text.startswith(r, j))
                out.append(("redir", op, i, j + len(op)))
                i = j + len(op)
                continue
            if ch in "<>" and i + 1 < n and text[i + 1] == "(":
                end = _comsub_end(text, i + 2)
                if end < 0:
                    self.incomplete("unclosed process substitution")
                    end = n
                self.nested.append((text[i + 2 : end], i))
                out.append(("word", _Word(text[i : end + 1], True, False, i, end + 1), i, end + 1))
                i = end + 1
                continue
            op_found = False
            for op in _REDIRS:
                if text.startswith(op, i):
                    out.append(("redir", op, i, i + len(op)))
                    i += len(op)
                    op_found = True
                    if op in ("<<", "<<-"):
                        heredoc = op
                    break
            if op_found:
                continue
            for op in _OPS:
                if text.startswith(op, i):
                    out.append(("op", op, i, i + len(op)))
                    i += len(op)
                    op_found = True
                    assign_ok = True
                    break
            if op_found:
                continue
            target = bool(out) and out[-1][0] == "redir"
            word, i = self._word(i, assign_ok and not target and not heredoc)
            out.append(("word", word, word.start, word.end))
            if not target:
                assign_ok = assign_ok and (_is_assignment(word, subscript=True) or (
                    not word.quoted and word.value in _KEYWORDS))  # fmt: skip
            if heredoc:
                # any quoting of the delimiter ('EOF', "EOF", \EOF, E"O"F) makes the body data
                raw = text[word.start : word.end]
                quoted = word.quoted or "\\" in raw
                self.heredocs.append((word.value, heredoc == "<<-", word.start, quoted))
                heredoc = ""
        return out

    def _arithmetic_command(self, i: int, out: list[tuple[str, object, int, int]]) -> int:
        """``((expr))`` at ``i``: bash's arithmetic command, the same as ``let "expr"``, and
        so read here (its ``<<`` is a shift, never a here-document; a ``$(cmd)`` in it
        runs). Bash takes ``((`` for arithmetic when the parenthesis it opens closes right
        before a second ``)`` (parse.y, parse_arith_cmd); otherwise (``((cmd) )``) it is a
        subshell in a subshell: 0, and the caller reads two ``(``."""
        text = self.text
        end = _find_closing(text, i + 2, "(", ")")
        if end < 0 or not text.startswith(")", end + 1):
            return 0
        inner = text[i + 2 : end]
        self._body_expansions(inner, i)
        dynamic = "$" in inner or "`" in inner
        out.append(("word", _Word("let", False, False, i, i + 2), i, i + 2))
        out.append(("word", _Word(inner, dynamic, True, i + 2, end), i + 2, end))
        return end + 2

    def _skip_heredocs(self, i: int) -> int:
        text = self.text
        while self.heredocs:
            delimiter, strip_tabs, key, quoted = self.heredocs.pop(0)
            body, i, found = _heredoc_body(text, i, delimiter, strip_tabs, quoted)
            self.bodies[key] = body
            if not found:
                self.incomplete("unterminated heredoc")
                self.heredocs.clear()
                return len(text)
            if not quoted:  # an unquoted delimiter: $(...) and `...` in the body run
                self._body_expansions(self.bodies[key], key)
        return i

    def _body_expansions(self, body: str, at: int) -> None:
        """The command substitutions in text that is expanded but not split into words
        (a here-document body, the inside of ``$((...))`` or ``${x:-...}``); ``at``: where
        the text is, for the values known there (variables.py)."""
        if self.level >= MAX_EXPANSION_NESTING:  # ${x:-${x:-...}}: each level rescans
            self.incomplete("the command nests too deeply")
            return
        sub = _Scanner(body, self.depth, self.script)
        sub.level = self.level + 1
        sink: list[str] = []
        i = 0
        while i < len(body):
            ch = body[i]
            if ch == "\\":
                i += 2
                continue
            if ch in "$`":
                i = sub._expansion(i, sink)
                continue
            i += 1
        self.nested.extend((nested, at) for nested, _offset in sub.nested)

    def _word(self, i: int, assign_ok: bool = False) -> tuple[_Word, int]:
        text = self.text
        n = len(text)
        start = i
        value: list[str] = []
        marks: list[tuple[int, int]] = []
        dynamic = False
        quoted = False
        globbed = False
        while i < n:
            ch = text[i]
            if ch == "~" and (i == start or (text[i - 1] in "=:" and _assigns_here(value))):
                piece, end = self._tilde(i)
                if piece:
                    marks.append((len(value), 2))  # (never split, never a pattern)
                    value.append(piece)
                    dynamic = True
                    i = end
                    continue
            if ch == "[" and assign_ok and not quoted and "".join(value).isidentifier():
                end = _find_closing(text, i + 1, "[", "]")
                if end > 0 and any(c in _BREAK for c in text[i + 1 : end]):
                    # name[sub]: bash reads the subscript whole (parse.y, P_ARRAYSUB)
                    self._body_expansions(text[i + 1 : end], i)
                    dynamic = dynamic or "$" in text[i:end] or "`" in text[i:end]
                    value.append(text[i : end + 1])
                    i = end + 1
                    continue
            if ch in "<>" and value and text.startswith("(", i + 1):
                # a<(cmd)b, NAME=<(cmd): a process substitution inside a word is part of
                # it (bash gives /dev/fd/N there too: red team s32 N)
                end = _comsub_end(text, i + 2)
                if end < 0:
                    self.incomplete("unclosed process substitution")
                    end = n - 1
                self.nested.append((text[i + 2 : end], i))
                marks.append((len(value), 2))
                value.append(text[i : end + 1])
                dynamic = True
                i = end + 1
                continue
            if ch in _BREAK:
                if ch == "(" and not quoted and _assigns_array(value):
                    return self._array(start, i, value)
                if ch == "(" and value and value[-1][-1:] in ("?", "*", "+", "@", "!"):
                    # ?(..) *(..) +(..) @(..) !(..): an extglob group, part of the pattern
                    # (after shopt -s extglob on an earlier line; else bash refuses the line)
                    end = _find_closing(text, i + 1, "(", ")")
                    if end > 0:
                        value.append(text[i : end + 1])
                        globbed = True
                        i = end + 1
                        continue
                break
            if ch == "\\":
                if i + 1 < n:
                    if text[i + 1] != "\n":
                        value.append(text[i + 1])
                    i += 2
                else:
                    i += 1
                continue
            if ch == "'":
                quoted = True
                end = text.find("'", i + 1)
                if end < 0:
                    self.incomplete("unclosed single quote")
                    end = n
                value.append(text[i + 1 : end])
                i = end + 1
                continue
            if ch == "$" and i + 1 < n and text[i + 1] == "'":
                quoted = True
                j = i + 2
                while j < n and text[j] != "'":
                    j += 2 if text[j] == "\\" else 1
                if j >= n:
                    self.incomplete("unclosed $'...' quote")
                    j = n
                from hookwise.shell.ansi_c import ansi_c

                value.append(ansi_c(text[i + 2 : j]))
                i = j + 1
                continue
            if ch == '"' or (ch == "$" and i + 1 < n and text[i + 1] == '"'):
                quoted = True  # $"..." is a translated "...": the same words
                i, dyn = self._double_quoted(i + (2 if ch == "$" else 1), value, marks)
                dynamic = dynamic or dyn
                continue
            if ch in {"$", "`"}:
                at = len(value)
                i = self._expansion(i, value)
                if len(value) > at and value[at] != "$":
                    marks.append((at, 1))
                    dynamic = True
                continue
            if ch in "*?[":
                globbed = True
            value.append(ch)
            i += 1
        if dynamic:
            made = _Word("".join(value), True, quoted, start, i, parts=value, marks=tuple(marks))
            # $HOME/.aws/*, "$d"/c*: a pattern bash expands too, after the values (s30 D)
            made.glob = globbed
            return made, i
        word = _Word("".join(value), dynamic, quoted, start, i)
        word.glob = globbed
        return word, i

    def _tilde(self, i: int) -> tuple[str, int]:
        """A tilde prefix read as the variable bash takes it from, where the line can set
        that variable (red team s27 C): ``~+`` is $PWD, ``~-`` $OLDPWD, ``~N`` an entry of
        the directory stack (pushd), and ``~`` $HOME on a line that names HOME. ("" and
        ``i``: a prefix left as it is, ``~user``, or one with a quote in it.)"""
        text = self.text
        end = i + 1
        while end < len(text) and text[end] not in _BREAK and text[end] not in "/:":
            if text[end] in "'\"\\$`":
                return "", i
            end += 1
        prefix = text[i + 1 : end]
        if prefix in ("+", "-"):
            return ("$PWD" if prefix == "+" else "$OLDPWD"), end
        if prefix.lstrip("+-").isdigit():
            # ~N and ~+N count from the stack's top, the current directory (~0 is $PWD);
            # ~-N from its bottom: ${DIRSTACK[-N-1]} (red team s32 C)
            number = int(prefix.lstrip("+-"))
            if prefix[0] == "-":
                return "${DIRSTACK[-" + str(number + 1) + "]}", end
            return ("$PWD" if number == 0 else "${DIRSTACK[" + str(number) + "]}"), end
        if not prefix and "HOME" in text:
            return "$HOME", end
        return "", i

    def _array(self, start: int, i: int, value: list[str]) -> tuple[_Word, int]:
        """``a=(x "y z" $(cmd))``: one assignment word holding its elements."""
        from hookwise.shell.assigns import array_word

        close = _comsub_end(self.text, i + 1, commands=False)
        word, end = array_word(
            self, start, i, value, end=close, scanner_type=_Scanner, word_type=_Word
        )
        return word, end

    def _double_quoted(
        self, i: int, value: list[str], marks: list[tuple[int, int]]
    ) -> tuple[int, bool]:
        text = self.text
        n = len(text)
        dynamic = False
        while i < n:
            ch = text[i]
            if ch == '"':
                return i + 1, dynamic
            if ch == "\\" and i + 1 < n:
                nxt = text[i + 1]
                if nxt in '$`"\\':
                    value.append(nxt)
                elif nxt != "\n":
                    value.append(ch + nxt)
                i += 2
                continue
            if ch in {"$", "`"}:
                at = len(value)
                i = self._expansion(i, value)
                if len(value) > at and value[at] != "$":
                    marks.append((at, 2))
                    dynamic = True
                continue
            value.append(ch)
            i += 1
        self.incomplete("unclosed double quote")
        return n, dynamic

    def _expansion(self, i: int, value: list[str]) -> int:
        """A ``$...`` or backtick expansion at ``i``: kept verbatim, nested commands noted."""
        text = self.text
        n = len(text)
        if text[i] == "`":
            end = _find_backtick(text, i + 1)
            if end < 0:
                self.incomplete("unclosed backtick")
                end = n
            self.nested.append((text[i + 1 : end].replace("\\`", "`"), i))
            value.append(_working_dir(text[i + 1 : end]) or text[i : end + 1])
            return end + 1
        for opener, closer, what, runs in _EXPANSIONS:
            if text.startswith(opener, i):
                nested = runs
                start = i + len(opener)
                if opener == "$(":
                    end = _dollar_paren_end(text, i)
                else:
                    end = _find_closing(text, start, opener[-1], closer)
                if end < 0:
                    self.incomplete(f"unclosed {what}")
                    end = n
                if nested and text.startswith("((", i + 1):
                    from hookwise.shell.variables import is_arithmetic

                    nested = not is_arithmetic(text[i : end + 1])
                if nested:  # $(cmd), and $((cmd) ) that is no arithmetic: bash runs it
                    self.nested.append((text[start:end], i))
                else:  # $(( 1 + $(cmd) )), ${x:-$(cmd)}: what is inside still runs
                    self._body_expansions(text[start:end], i)
                    if opener == "${":
                        from hookwise.shell.variables import default_assignment

                        default_assignment(text[start:end], self.script)
                pwd = _working_dir(text[start:end]) if opener == "$(" else None
                value.append(pwd or text[i : end + 1])
                return min(end + 1, n)
        j = i + 1
        if j < n and (text[j].isalnum() or text[j] == "_"):
            while j < n and (text[j].isalnum() or text[j] == "_"):
                j += 1
        elif j < n and text[j] in "@*#?-$!":
            j += 1
        value.append(text[i:j])
        return j


def _working_dir(body: str) -> str | None:
    """``$PWD`` for a command substitution that only prints the working directory
    (``$(pwd)``, `` `pwd -P` ``): its value is the command's directory, read as ``$PWD``
    is (red team s32 A: ``$(pwd)/../home/.netrc`` is ``~/.netrc``; with ``-P`` a link on
    the way is the rules' to follow). None for anything else."""
    words = body.split()
    if words[:1] in (["builtin"], ["command"]):
        words = words[1:]
    if words[:1] != ["pwd"] or any(w not in ("-L", "-P", "--") for w in words[1:]):
        return None
    return "$PWD"


# variables that decide where a later ``cd`` goes (canonical.command_dirs): an assignment
# of one is a command of its own, however it is made (NAME=v, for NAME in ...)
_CD_VARIABLES = frozenset(["CDPATH", "HOME"])

_SPECIAL_BUILTINS = frozenset(
    [":", ".", "source", "eval", "exec", "export", "readonly", "set", "shift", "trap",
     "unset", "return", "break", "continue", "exit", "times", "declare", "typeset", "local"]
)  # fmt: skip
_OPENERS = frozenset(["if", "while", "until", "for", "select", "{", "case"])
_CLOSERS = frozenset(["fi", "done", "}", "esac"])
_LOOPS = frozenset(["while", "until", "for", "select"])


def _header_ends(words: list[_Word], payload: _Word) -> bool:
    """Whether ``payload`` (an unquoted ``do`` or ``{``) ends a ``for``/``select`` header
    that has no ``in`` list: ``for NAME do``, ``for ((i=0;;)) do`` (read as ``let EXPR``).
    After ``in`` the list runs to a separator: a ``do`` there is one of its words."""
    if payload.quoted or payload.value not in ("do", "{") or not words:
        return False
    head = words[0]
    if head.quoted or head.value not in ("for", "select"):
        return False
    if len(words) == 2:
        return True
    return len(words) == 3 and words[1].value == "let" and words[2].quoted


def _parse(text: str, depth: int, script: Script) -> None:
    if depth > MAX_DEPTH:
        script.complete = False
        script.problems.append(f"more than {MAX_DEPTH} levels of nested commands")
        return
    while "$\\\n" in text:  # bash joins a line continuation first: $\<newline>( is $(
        text = text.replace("$\\\n", "$")
    scanner = _Scanner(text, depth, script)
    tokens = scanner.tokens()
    mark = len(script.groups)
    words: list[_Word] = []
    redirects: list[str] = []
    writes: list[str] = []
    stdin: list[str] = []
    reads: list[str] = []  # files redirected in (< f): read by the shell into the command
    computed: list[str] = []  # written targets the line computes when it runs
    first = last = -1
    pending_redir: str | None = None
    previous: Command | None = None  # the command before a pipe into the next one
    piped = False
    # where a command stands, for the values it makes known (variables.py): inside a
    # compound command, a function body, a case, after && or ||, in a pipeline or in
    # the background, an assignment may not happen, or not in this shell
    nest = cases = 0
    bodies: list[int] = []  # the nesting where each function body being read started
    leading = True  # every word of the command so far is a keyword
    prev_op: str | None = None
    skip_next = False
    # between ``in`` (or ``;;``) and ``)`` of a case: patterns, words matched and not run
    # (a substitution in one still runs: the scanner parses those on their own)
    pattern = False

    def finish(op: str | None) -> None:
        nonlocal first, last, previous
        added: Command | None = None
        element = 0
        if words or redirects or stdin:
            script.certain = (
                script.anchor is None
                and nest == 0
                and cases == 0
                and not bodies
                # (after ``cmd &`` the next command runs in this shell, for sure)
                and prev_op in (None, ";", "\n", "&")
                and op not in ("|", "|&", "&")
                and not piped
            )
            script.end = last if script.anchor is None else script.anchor
            script.deferred = bool(bodies)
            if op in ("|", "|&") or piped:  # a pipeline's part runs in a subshell of its own
                script.group_count += 1
                script.groups.append(script.group_count)
                element = len(script.groups)
            added = _add_command(
                text[first:last],
                words,
                redirects,
                depth,
                script,
                writes=writes,
                stdin=stdin,
                piped_from=previous if piped else None,
                source=text,
                computed=computed,
            )
        if added is not None or not piped:
            previous = added
        for source in reads:  # `< file` is read, whoever gets it (while read ...; done < f)
            _inner_argv(["cat", source], depth, script, text[first:last], "input redirection")
        if element:
            del script.groups[element - 1 :]
        words.clear()
        redirects.clear()
        writes.clear()
        stdin.clear()
        reads.clear()
        computed.clear()
        first = last = -1

    for index, (kind, payload, start, end) in enumerate(tokens):
        if skip_next:
            skip_next = False
            continue
        if pattern and kind == "op" and payload in ("|", "(", "\n", ";"):
            continue
        if pattern and kind == "op" and payload == ")":
            pattern = False  # the header (case WORD in) ends here as before
        elif (
            pattern
            and kind != "op"
            and not (isinstance(payload, _Word) and not payload.quoted and payload.value == "esac")
        ):
            continue
        elif pattern:
            pattern = False  # ;; esac
        if kind == "op":
            if pending_redir is not None:
                scanner.incomplete(f"redirection {pending_redir!r} without a target")
                pending_redir = None
            if (
                payload == "("
                and len(words) == 1
                and not redirects
                and index + 1 < len(tokens)
                and tokens[index + 1][:2] == ("op", ")")
            ):
                words.clear()  # NAME () { body; }: a definition, the body runs when called
                first = last = -1
                bodies.append(nest)
                script.concurrent = True  # (when called: after what the text puts later)
                skip_next = True
                continue
            finish(str(payload))
            if payload in _CONCURRENT:
                script.concurrent = True
            if cases == 0 and payload == "(":
                nest += 1
                script.group_count += 1
                script.groups.append(script.group_count)
            elif cases == 0 and payload == ")":
                nest = max(nest - 1, 0)
                if script.groups:
                    script.groups.pop()
                while bodies and nest <= bodies[-1]:
                    bodies.pop()
            piped = payload in ("|", "|&")
            pattern = cases > 0 and payload in (";;", ";&", ";;&")
            prev_op = ";" if payload in (";;", ";&", ";;&") else str(payload)
            leading = True
            continue
        if first < 0:
            first = start
        last = end
        if kind == "redir":
            if pending_redir is not None:
                scanner.incomplete(f"redirection {pending_redir!r} without a target")
            pending_redir = str(payload)
            continue
        assert isinstance(payload, _Word)
        if pending_redir is not None:
            op = pending_redir
            pending_redir = None
            target = payload.value
            known = not payload.dynamic
            if payload.marks and script.vars is not None and script.vars.table is not None:
                from hookwise.shell.variables import resolve

                # > "$x", > ~/p after HOME=: the value the line gave it (one field only)
                fields = resolve([payload], script, _Word)
                if len(fields) == 1:
                    target = fields[0].value
                    known = not fields[0].dynamic
            if op in ("<<", "<<-"):
                stdin.append(scanner.bodies.get(payload.start, ""))  # data, not a file
            elif op == "<<<":
                stdin.append(target + "\n")
            elif op in (">&", "<&") and (target.isdigit() or target == "-"):
                pass  # fd duplication
            else:
                redirects.append(target)
                if op not in ("<", "<&"):
                    writes.append(target)
                    if not known:
                        from hookwise.shell.variables import made_on_line, shapes

                        if made_on_line((shapes([payload], script) or {}).get(0)):
                            computed.append(target)
                elif not target.startswith(("/dev/", "<(", ">(")):
                    reads.append(target)
            continue
        if _header_ends(words, payload):
            # for NAME do, for ((...)) { : the header ends with no separator, and what
            # follows is the body (red team s31 A: its first command was taken as the
            # loop's words, and never read)
            finish(";")
            prev_op = ";"
            leading = True
            first, last = start, end
        if leading and not payload.quoted:
            value = payload.value
            if value in _OPENERS:
                nest += 1
                # a loop's later iteration runs after what its body writes (run_order.py)
                script.concurrent = script.concurrent or value in _LOOPS
                cases += value == "case"
            elif value in _CLOSERS:
                nest = max(nest - 1, 0)
                if value == "esac":
                    cases = max(cases - 1, 0)
                while bodies and nest <= bodies[-1]:
                    bodies.pop()
            elif value == "function":
                bodies.append(nest)
                script.concurrent = True
            elif value not in _KEYWORDS:
                leading = False
        else:
            leading = False
        if (
            not payload.quoted
            and payload.value == "in"
            and len(words) == 2
            and not words[0].quoted
            and words[0].value == "case"
        ):
            pattern = True
        words.append(payload)
    if pending_redir is not None:
        scanner.incomplete(f"redirection {pending_redir!r} without a target")
    finish(None)
    del script.groups[mark:]  # (an unclosed ``(`` ends with the text)
    saved = script.anchor
    for nested, at in scanner.nested:
        if len(script.commands) >= MAX_COMMANDS:  # (a substitution past it runs too)
            script.complete = False
            if "too many commands" not in script.problems:
                script.problems.append("too many commands")
            break
        # a command substitution runs where it stands, in a subshell: the values known
        # there are those of its place on the line
        script.anchor = saved if saved is not None else at
        script.group_count += 1  # (a subshell of its own: its cd ends with it)
        script.groups.append(script.group_count)
        _parse(nested, depth + 1, script)
        del script.groups[mark:]
    script.anchor = saved


def _parse_shell(
    text: str, depth: int, script: Script, positional: list[str] | None = None
) -> None:
    """Parse the script another shell runs (``bash -c``, a script file, stdin): its own
    variables, and ``positional`` its ``$0 $1...`` (``sh -c 'rm $1' _ x``)."""
    saved = (script.scope, script.anchor, script.positional)
    script.scope = script.scope_of(saved[0], saved[1] if saved[1] is not None else script.end, text)
    script.anchor = None
    script.positional = None
    if positional:
        end, script.end = script.end, -1
        _record(script, "0", positional[0], True)
        _record(script, "@", positional[1:], True)
        script.end = end
    try:
        _parse(text, depth, script)
    finally:
        script.scope, script.anchor, script.positional = saved


class _Prefix:
    """What the words in front of a command said about it (``env -C DIR``, ``xargs -I {}``,
    ``LD_PRELOAD=...``), collected while they are stripped."""

    __slots__ = ("assigned", "chdir", "env", "files", "unknowns", "xargs")

    def __init__(self) -> None:
        self.files: list[tuple[str, Any]] = []  # files a wrapper reads or writes (xargs -a F)
        self.assigned: list[str] = []
        self.env: dict[str, str] = {}  # the values of those assignments, when known
        self.chdir: str | None = None
        self.unknowns: list[str] = []
        self.xargs: list[str] | None = None  # xargs' own words, when xargs runs the command


# the programs that read one of their options from a variable (option_variables.py)
_OPTION_VARIABLE_PROGRAMS = frozenset(["flask", "uv"])


def _variable_options(
    words: list[_Word], at: int, name: str, script: Script, prefix: _Prefix
) -> list[_Word]:
    """``words`` with the options the command's variables stand for on its line (set for
    it, or exported earlier on the line: commands/option_variables.py)."""
    from hookwise.shell.commands.option_variables import insertions

    env: dict[str, str] = {}
    for earlier in script.commands:  # export X=v; declare -x X=v (assigns.py keeps them)
        if earlier.program in _ASSIGNERS:
            env.update(earlier.env)
    env.update(prefix.env)
    program = words[at]
    found = insertions(name, [w.value for w in words[at:]], env)
    for index, values in found:
        made = [_Word(v, "$" in v or "`" in v, program.quoted, program.start, program.end)
                for v in values]  # fmt: skip
        words = [*words[: at + index], *made, *words[at + index :]]
    return words


def _strip_prefix(
    words: list[_Word], script: Script, depth: int, prefix: _Prefix, certain: bool
) -> list[_Word]:
    """Drop keywords, assignments and wrappers in front of the real command; a wrapper that
    runs a shell string (``su -c``, ``flock -c``, ``watch``, ``env -S``) has it parsed.
    Assignments with no command after them set the shell's variables (variables.py)."""
    i = 0
    n = len(words)
    for _ in range(MAX_WRAPPERS):
        while i < n and not words[i].quoted and words[i].value in _KEYWORDS:
            i += 1
        first = i
        while i < n and _is_assignment(words[i]):
            i += 1
        bare = i >= n  # x=1 alone: a shell variable; x=1 cmd: cmd's environment
        # (but a special builtin or a function keeps it: x=1 : ... may set x)
        kept = bare or words[i].value in _SPECIAL_BUILTINS or words[i].dynamic
        for word in words[first:i]:
            _assignment(word, script, depth, prefix)
            if kept:
                from hookwise.shell.variables import record_word

                record_word(word, script, certain and bare)
            if not word.dynamic:
                _value_code(word.value.partition("=")[2], depth, script)
        if i < n and not words[i].quoted and words[i].value == "coproc":
            script.concurrent = True  # it runs beside what follows it
            i += 1  # coproc CMD, or coproc NAME { CMD; }
            if i + 1 < n and words[i + 1].value == "{":
                i += 2
            continue
        if i >= n:
            return []
        name = words[i].value.rsplit("/", 1)[-1]
        if not words[i].dynamic and name in _OPTION_VARIABLE_PROGRAMS:
            words = _variable_options(words, i, name, script, prefix)
            n = len(words)
        # quoting a keyword makes it a plain word, but 'sudo' and "env" still run sudo
        # and env (only an alias is not expanded): wrappers are found quoted too
        if not words[i].dynamic and name in programs.RUNNER_NAMES:
            from hookwise.shell.wrappers import strip_runner

            values = [w.value for w in words[i:]]
            if name == "dotenv":
                from hookwise.shell.commands.env_files import dotenv_prints

                if dotenv_prints(values) is not None:
                    return words[i:]  # dotenv list / get KEY: a command of its own
            ran = strip_runner(name, values)
            if ran is not None or name == "pipenv":  # (pipenv shell: a shell with them)
                from hookwise.shell.commands.env_loaders import runner_env

                # honcho run CMD, dotenv run CMD: CMD runs as after `source .env`
                loaded = runner_env(name, values, len(values) if ran is None else ran[0])
                script.sourced += loaded[: max(8 - len(script.sourced), 0)]
            if ran is None:
                return words[i:]
            if ran[1] is not None:
                _parse_shell(ran[1], depth + 1, script)
                return words[i : i + 1]
            i += ran[0]
            continue
        if words[i].dynamic or name not in programs.WRAPPER_NAMES:
            return words[i:]
        from hookwise.shell.wrappers import strip_wrapper, wrapper_chdir

        values = [w.value for w in words[i:]]
        found = strip_wrapper(name, values)
        if found is None:  # (prlimit --pid P, strace -p P: its words are the command's own)
            from hookwise.shell.wrappers import ACTOR_WRAPPERS

            own = name == "prlimit" or name in ACTOR_WRAPPERS
            return words[i:] if own else words[i : i + 1]
        offset, string = found
        if script.sourced and name in ("strace", "ltrace"):  # strace -v: execve's environment
            from hookwise.shell.commands.env_files import prints_values

            if prints_values(name, values[:offset], [False] * offset):
                for path in script.sourced:
                    origin = f"{name} prints values that sourcing {path} defined"
                    _inner_argv(["cat", path], depth, script, " ".join(values), origin)
        if name in _WRAPPER_FILES:
            from hookwise.shell.wrappers import wrapper_files

            prefix.files += wrapper_files(name, values if string is not None else values[:offset])
        if string is not None:
            _parse_shell(string, depth + 1, script)
            return words[i : i + 1]
        chdir = wrapper_chdir(name, values[:offset])
        if chdir is not None:
            prefix.chdir = chdir
        if name == "env":
            for given in values[1:offset]:
                if "=" in given and not given.startswith("-"):
                    _assignment(_Word(given, False, True, 0, 0), script, depth, prefix)
        if name == "xargs":
            prefix.xargs = values[:offset]
        if name == "env" and offset >= len(values):
            return words[i:]  # env with no command prints the environment: a command itself
        if offset >= len(values) and programs.listed(name, programs.SHELL_STARTERS):
            return words[i:]  # unshare, chroot /: no command starts the user's shell
        i += offset
    if i < n and _prefix_word(words[i]):  # (bash strips them all: env x33 git push -f)
        script.overall.append(
            f"more than {MAX_WRAPPERS} wrappers, keywords or assignments in front of one "
            "command; hookwise stops there and cannot tell what runs"
        )
    return words[i:]


def _arithmetic_word(word: _Word) -> bool:
    """Whether ``word`` stands for the ``((`` of an arithmetic command (_arithmetic_command:
    the name ``let`` over the two characters), not a word ``let`` the line spells."""
    return word.value == "let" and not word.quoted and word.end - word.start == 2


def _prefix_word(word: _Word) -> bool:
    """Whether ``_strip_prefix`` would strip ``word`` in another round."""
    if _is_assignment(word):
        return True
    if word.quoted and word.value in _KEYWORDS:
        return False
    name = word.value.rsplit("/", 1)[-1]
    return (
        word.value in _KEYWORDS
        or word.value == "coproc"
        or (not word.dynamic and (name in programs.RUNNER_NAMES or name in programs.WRAPPER_NAMES))
    )


def _assignment(word: _Word, script: Script, depth: int, prefix: _Prefix) -> None:
    """``PROMPT_COMMAND='...'``, ``GIT_SSH_COMMAND=...``: the value is a command that runs
    later; the rest (``LD_PRELOAD=lib``, ``NODE_OPTIONS=--require x``) is read by
    accounting.py from the command's environment."""
    name, _, value = word.value.partition("=")
    name = name.rstrip("+")
    prefix.assigned.append(name)
    if value and (name in programs.COMMAND_VARIABLES or name.startswith("BASH_FUNC_")):
        script.concurrent = True  # it runs later than its text (run_order.py)
    if name.startswith("BASH_FUNC_") and "{" in value:  # an exported function: bash runs
        _parse(value[value.index("{") :], depth + 1, script)  # its body when it is called
        return
    if value and (
        programs.listed(name, programs.JAVA_OPTION_VARIABLES)
        or programs.listed(name.upper(), programs.FILE_VARIABLES)
    ):
        from hookwise.shell.commands.env_files import named_files

        for path in named_files(name, value):  # MAGIC=F file x prints F's lines
            _inner_argv(["cat", path], depth, script, word.value, f"{name} names a file read")
    if script.sourced and (word.dynamic or "[" in name):  # (a[X]=1: the subscript is arithmetic)
        from hookwise.shell.commands.env_files import assignment_shows

        if assignment_shows(name, value):  # LC_ALL=$X: bash's warning shows the value
            for path in script.sourced:
                origin = f"bash may print the value assigned to {name} after sourcing {path}"
                _inner_argv(["cat", path], depth, script, word.value, origin)
    if name in programs.HISTORY_FILE_VARIABLES:
        _history_file(script, depth, word.value, None if word.dynamic else value)
    if word.dynamic:
        prefix.env[name] = value  # kept as written: accounting knows it is not plain
        if name in programs.CODE_VARIABLES:
            prefix.unknowns.append(f"{name} is set to {value!r}, code known only when it runs")
        return
    prefix.env[name] = value
    if not value:
        return

    if script.rebound is None and "BASH_" in value:  # a nameref made to BASH_ALIASES
        script.rebound = accounting.rebinds_by_value(value)
    if name in programs.COMMAND_VARIABLES or (
        name.startswith("GIT_CONFIG_VALUE_") and value.startswith("!")
    ):
        _parse(value.removeprefix("!"), depth + 1, script)


def _record(script: Script, name: str, value: str | list[str] | None, certain: bool) -> None:
    """An assignment on the line, for the values known later (variables.py)."""
    from hookwise.shell.variables import record

    record(script, name, value, certain)
    if value is None and name in programs.HISTORY_FILE_VARIABLES:  # read HISTFILE, printf -v
        _history_file(script, 0, name, None)


def _history_to_histfile(argv: list[str]) -> bool:
    """``history -w``/``-a`` with no file: it writes where HISTFILE says when it runs (a
    nameref, ``read``, an inherited value: what the line set it to is not all it can be)."""
    flags = [w for w in argv[1:] if w.startswith("-") and w != "--"]
    operands = [w for w in argv[1:] if not w.startswith("-")]
    return not operands and any(set(f[1:]) & set("wa") for f in flags)


def _has_nameref(script: Script) -> bool:
    """Whether the line so far declares a nameref (``declare -n``, ``typeset -n``, ``local
    -n``): through one, an assignment sets a variable whose name the line does not spell.
    Without one, HISTFILE is what the line set it to (judged where it is set) or what the
    shell inherited, so ``export PROMPT_COMMAND='history -a'`` writes no new place."""
    return any(
        c.program in ("declare", "typeset", "local")
        and any(w[:1] == "-" and w[1:2] != "-" and "n" in w[1:] for w in c.argv[1:])
        for c in script.commands
    )


def _history_file(script: Script, depth: int, text: str, value: str | None) -> None:
    """HISTFILE set on the line: bash writes its history there (``history -w``/``-a``, and
    at the exit of a shell with history on), lines the line itself chose (``history -s``):
    a write of that file whose content is known only when it runs (red team s35 C). A
    value known only when it runs is a write of any file."""
    if value == "":
        return  # (HISTFILE= : bash writes no history)
    written = Command([], [], [value] if value else [], text, depth + 1, writes=[])
    if value is None:
        written.computed_writes.append("$HISTFILE")
    else:
        written.writes.append(value)
        script.written[_file_key(value)] = None
    script.commands.append(written)


def _is_assignment(word: _Word, subscript: bool = False) -> bool:
    """``name=``/``name+=`` (with ``subscript``, ``name[...]=`` too)."""
    if word.expanded:
        return False
    name, eq, _ = word.value.partition("=")
    name = name.removesuffix("+")
    if subscript and name.endswith("]"):
        name = name.split("[", 1)[0]
    return bool(eq) and name.isidentifier() and not word.value.startswith("=")


def _brace_word(depth: int, script: Script) -> Any:
    """Reads one result of a brace expansion as a word again (braces.expand_words)."""

    def word(text: str) -> _Word:
        return _Scanner(text, depth, script)._word(0)[0]

    return word


def _past_budget(script: Script, what: str) -> None:
    why = (
        f"{what} expands to more than {MAX_WORK} words; hookwise stops there and "
        "cannot tell what would run"
    )
    if why not in script.overall:
        script.overall.append(why)


def _names_trees(command: Command) -> bool:
    """Whether a copy, move or link may put a whole directory under another name: a
    recursive copy, any move or link (its source may be a directory)."""
    program = command.program
    if program not in _NAMERS:
        return False
    return program in ("ln", "mv") or programs.reads_tree(program, command.argv)


def _carry_unknowns(command: Command, reading: Command) -> None:
    """A copy's reading (``cat SRC``) keeps what its source words are: ``cp "$f" x`` in
    ``for f in .env`` reads ``$f``, known only when it runs (with the shape the line
    gives it), not a file named ``$f``; ``cp .e* x`` reads the pattern's files."""
    own = _unknown_words(command)
    if not own:
        return
    shapes = dict(reading.shapes or {})
    globs = set(reading.globs)
    choices = dict(reading.choices or {})
    for index, word in enumerate(reading.argv[1:], start=1):
        at = own.get(word)
        if at is None:
            continue
        if command.dynamic[at]:
            reading.dynamic[index] = True
            shape = (command.shapes or {}).get(at)
            if shape is not None:
                shapes[index] = shape
            if command.choices is not None and at in command.choices:
                choices[index] = command.choices[at]
        if at in command.globs:
            globs.add(index)
    reading.shapes = shapes or None
    reading.globs = frozenset(globs)
    reading.choices = choices or None


def _unknown_words(command: Command) -> dict[str, int]:
    """The words of ``command`` known only when it runs, or patterns: word -> index."""
    return {
        w: i for i, w in enumerate(command.argv) if i and (command.dynamic[i] or i in command.globs)
    }


def _static(values: list[str]) -> list[_Word]:
    """Words a handler found (find -exec, a one-liner's list): known, but for the
    placeholders of what it cannot know (programs.UNKNOWN_WORDS)."""
    return [_Word(v, v in programs.UNKNOWN_WORDS, True, 0, 0) for v in values]


def _add_command(
    text: str,
    raw: list[_Word],
    redirects: list[str],
    depth: int,
    script: Script,
    *,
    writes: list[str],
    stdin: list[str],
    piped_from: Command | None = None,
    source: str = "",
    computed: list[str] | None = None,
    like: Command | None = None,
) -> Command | None:
    if len(script.commands) >= MAX_COMMANDS:
        script.complete = False
        if "too many commands" not in script.problems:
            script.problems.append("too many commands")
        return None
    certain = script.certain
    script.certain = False  # what this command runs in turn is not certain
    script.work += len(raw) + 1
    if script.work > MAX_WORK:
        _past_budget(script, "the line")
        return None
    if raw and not raw[0].quoted and raw[0].value == "function":
        raw = raw[2:]  # function NAME [()] { body: the body's first command follows
        if raw and raw[0].value == "()":
            raw = raw[1:]
    prefix = _Prefix()
    if raw[:1] and raw[0].value == "for" and len(raw) > 2 and _arithmetic_word(raw[1]):
        raw = raw[1:3]  # for ((i = X; ...)): its header is arithmetic, as ((...)) is
    if raw and not raw[0].quoted and raw[0].value in _COMPOUND:
        if raw[0].value in ("for", "select") and len(raw) > 1:
            _record(script, raw[1].value, None, False)  # the loop sets it to each value
            from hookwise.shell.variables import loop_hint

            loop_hint(script, raw[1].value, [(w.value, w.dynamic) for w in raw[3:]])
            if script.vars is not None and raw[2:3] and raw[2].value == "in":
                from hookwise.shell.variables import loop_choices, resolve

                # (second pass: for f in "${files[@]}" walks the array's known values)
                looped = raw[3:]
                if script.vars.table is not None:
                    looped = resolve(looped, script, _Word)
                loop_choices(script, raw[1].value, looped)
            elif script.vars is not None and len(raw) == 2:  # for f do: "$@" (set --)
                from hookwise.shell.variables import positional_choices

                anchor = script.anchor if script.anchor is not None else raw[0].start
                positional_choices(script, raw[1].value, anchor)
            # the loop assigns its name as NAME=VALUE does: a variable bash reads itself
            # (CDPATH, HOME: where a later cd goes) is set by it (red team s32 D)
            listed = []
            for word in raw[3:] if raw[2:3] and raw[2].value == "in" else []:
                if not word.quoted and word.value in (";", "do", "\n"):
                    break
                listed.append(word.value)
            prefix.assigned.append(raw[1].value)
            prefix.env[raw[1].value] = " ".join(listed)
        words: list[_Word] = []
    else:
        if source and any("{" in source[w.start : w.end] for w in raw if 0 <= w.start < w.end):
            from hookwise.shell.braces import expand_words

            raw = expand_words(raw, script, source, _brace_word(depth, script))
        if script.vars is not None and script.vars.table is not None:
            from hookwise.shell.variables import resolve

            raw = resolve(raw, script, _Word)
        words = _strip_prefix(raw, script, depth, prefix, certain)
    if words and not words[0].quoted and words[0].value in script.aliases:
        # an alias defined earlier on the line: bash reads its text in place of the name
        from hookwise.shell.quote import join

        definition = script.aliases.pop(words[0].value)  # popped: no endless recursion
        rest = join([w.value for w in words[1:]])
        _parse(definition + " " + rest, depth + 1, script)
        script.aliases[words[0].value] = definition
        words = words[:1]
    if prefix.xargs is not None:
        from hookwise.shell.xargs_input import xargs_operands

        fed = [*stdin, *_redirected_input(redirects, writes, script)]
        words = xargs_operands(words, prefix.xargs, piped_from, fed, _Word, printed=static_output)
    if words and not words[0].dynamic:
        same = programs.same_as(words[0].value.rsplit("/", 1)[-1])
        if same is not None:  # /usr/lib/git-core/git-push -f: git push -f
            name = words[0]
            standing = [_Word(v, False, name.quoted, name.start, name.end) for v in same]
            words = [*standing, *words[1:]]
    if len(words) > 1 and not words[0].dynamic:
        found = programs.invocation_alias([w.value for w in words], script.elsewhere)
        if found is not None and not any(w.dynamic for w in words[: found[1]]):
            # python3 -u /usr/lib/python3.11/timeit.py: python3 -u -m timeit; python3 -m
            # dotenv list: dotenv list (read again as written: the tool may be a wrapper)
            name = words[0]
            standing = [_Word(v, False, name.quoted, name.start, name.end) for v in found[0]]
            words = _strip_prefix([*standing, *words[found[1] :]], script, depth, prefix, certain)
    if "GLOBIGNORE" in prefix.assigned:  # set, it turns dotglob on (bash(1))
        script.globopts |= {"dotglob"}
    if (
        not words
        and not redirects
        and not stdin
        and not accounting.loads_code(prefix.env)
        and not _CD_VARIABLES.intersection(prefix.assigned)  # (canonical.command_dirs)
    ):
        return None
    command = Command(
        [w.value for w in words],
        [w.dynamic for w in words],
        list(redirects),
        text,
        depth,
        writes=list(writes),
        stdin=list(stdin),
    )
    command.piped_from = piped_from
    command.group = tuple(script.groups)
    if prefix.xargs is not None and command.program != "rm":
        from hookwise.shell.xargs_input import find_walk

        # find ~ -type f | xargs cat: what find walks, hidden names and depth (s29 B)
        command.walked = find_walk(piped_from)
    command.computed_writes = list(computed or ())
    command.chdir = prefix.chdir
    command.assigned = prefix.assigned
    command.env = prefix.env
    command.unknowns = prefix.unknowns
    if prefix.files:  # (what xargs -a F reads, what script F writes)
        _interpreter(command, prefix.files, depth, script)
    command.quoted_program = bool(words) and words[0].quoted
    if any(w.glob for w in words):
        command.globs = frozenset(i for i, w in enumerate(words) if w.glob)
        if script.globopts:
            _glob_options(command, script.globopts)
    if any(command.dynamic):
        from hookwise.shell.variables import shapes

        command.shapes = shapes(words, script)
        if script.vars is not None and script.vars.choices:
            _loop_choices(command, words, script)
    if like is not None:  # (before its own readings are made: a move's move, in a loop)
        _carry_unknowns(like, command)
    if command.globs:
        _framed_globs(command, script.globopts)
    if command.program == "curl" and any("{" in w or "[" in w for w in command.argv[1:]):
        _curl_urls(command)
    script.commands.append(command)
    if words and words[0].dynamic:
        command.unknown_args = not words[0].quoted or "IFS" in words[0].value
    else:
        first = len(script.commands)
        _run_inner(command, depth, script, piped_from, certain)
        if len(script.commands) > first:  # find -execdir, parallel --wd, tmux new -c DIR
            from hookwise.shell.wrappers import runs_in

            where = runs_in(command.program, command.argv)
            for inner in script.commands[first:] if where is not None else ():
                inner.chdir = inner.chdir if inner.chdir is not None else where
    if command.argv and (script.copies or command.program in _NAMERS):
        # (before this command's own copies are remembered)
        from hookwise.shell.written import read_copies

        readings = read_copies(command, script)
        if len(readings) > MAX_COPIES_READ:
            command.unknowns.append(
                f"{command.argv[0]} reads more than {MAX_COPIES_READ} copies made on the line"
            )
        for argv, origin, kept in readings[:MAX_COPIES_READ]:
            if argv[0] != command.argv[0] and _EXPANDS.intersection(argv[0]):
                # cp "$(which rm)" del; ./del: a copy of a program known only when it runs
                command.dynamic[0] = True
                command.unknowns.append(f"{command.argv[0]} {origin}, known only when it runs")
                continue
            reading = _inner_argv(argv, depth, script, command.text, origin, like=command)
            if reading is not None and argv[0] == "cat" and _names_trees(command):
                # ln -s ~/.aws k, cp -r ~/.aws/. k, mv d k: every file under the source is
                # then read by the new name (k/*: red team s29 F), as find walks it
                reading.walked = ["find", *argv[1:]]
            if reading is not None and kept is not None:
                reading.kept = (command, kept)
    if script.copies and command.writes:
        _redirected_through_links(command, depth, script)
    readers_from = len(script.commands)  # (git -C DIR: its readings run in DIR, below)
    if command.program in programs.SUBCOMMAND_READERS:
        # git diff --no-index A B, git show HEAD:.env, docker cp F c:/x print or send F
        argv = command.argv
        if _git_stages(argv) and (
            _unignored(script) or programs.outside(programs.git_names_from(argv, command.env) or "")
        ):
            # rm .gitignore; git add -A: ignored files, as -f adds; so in a tree outside the
            # project (git -C ../home add -A), whose ignore files are not the project's
            argv = [*argv, "--force"]
        named = programs.read_operands(command.program, argv)
        if named:
            reader = ["cat"]
            if argv[:1] == ["git"] and "--no-index" in argv and "diff" in argv:
                reader = ["diff", "-r"]  # git diff --no-index ../e .: two trees, every file
            reading = _inner_argv(
                [*reader, *named], depth, script, command.text, "its subcommand reads", like=command
            )
            if reading is not None and _git_stages(argv) and _git_forced(argv):
                # git add -f .aws: every file under it goes into the index, which `git grep
                # --cached` or `git show :F` print later (red team s31 O), as find walks it
                reading.walked = ["find", *named]
    if command.program in programs.DATA_INCLUDERS and (command.stdin or command.piped_from):
        # echo '#include ".env"' | cpp: the data it is fed names a file it reads
        data = "".join(command.stdin)
        if command.piped_from is not None:
            data += static_output(command.piped_from) or ""
        from hookwise.shell.commands.includes import included_files

        named = included_files(command.program, data)
        if named:
            _inner_argv(["cat", *named], depth, script, command.text, "its data includes them")
    if command.program in programs.DATA_INCLUDERS and script.written:
        from hookwise.shell.commands.includes import written_includes

        named = written_includes(command, script)  # printf '#include ...' > x.c; cpp x.c
        if named:
            _inner_argv(["cat", *named], depth, script, command.text, "its files include them")
    if command.program in programs.TREE_SEARCHERS and programs.searches_cwd(
        command.program, command.argv
    ):  # grep -r s3cr3t: it searches `.`, as grep -r s3cr3t . does
        searched = [*command.argv, "."]
        if command.program == "git":  # git grep --no-index X: a recursive grep of .
            searched = ["grep", "-r", "-e", "", "."]
        _inner_argv(searched, depth, script, command.text, "searches .")
    if command.program == "git" and len(script.commands) > readers_from:
        _git_readings_in(command, script.commands[readers_from:])
    if (
        programs.ENV_FILE_OPTION in command.text
        or command.program in programs.ENV_FILE_SPELLED
        or "env" in command.text.lower()
    ):  # docker run --env-file .env, node -r dotenv/config: loaded as its environment, as
        # `source .env` loads it
        from hookwise.shell.commands.env_files import code_prints_env, env_files

        loads = env_files(command.program, command.argv)
        # node --env-file=.env -e CODE, deno eval --env-file CODE: an interpreter's code
        # from the line runs as after `source .env` (env_loaders.py's rule)
        given = programs.interpreter_code(command.program, command.argv) is not None or bool(
            command.stdin or command.piped_from is not None
        )  # (its code on the line: inline or on stdin, not a script on disk)
        printing = code_prints_env(command.program, command.argv) or (
            bool(loads) and given and _leaks_sourced(command, 0, script)
        )
        for loaded in loads:
            _made_env_file(command, loaded)
            _inner_argv(["source", loaded], depth, script, command.text, "loads it (--env-file)")
            if printing:  # node --env-file=.env -e 'console.log(process.env.X)'
                origin = f"{command.program} prints values {loaded} defined"
                _inner_argv(["cat", loaded], depth, script, command.text, origin)
    program, argv = command.program, command.argv
    if (
        program in programs.TREE_SEARCHERS
        and (
            ("--" in argv and "grep" in argv)  # git grep ... -- PATHSPEC
            or any(w.startswith(("--include", "-g", "--glob", "--iglob")) for w in argv[1:])
        )
    ):
        from hookwise.shell.commands.includes import search_selection

        selected = search_selection(program, argv)
        if selected:
            origin = "searches the files its patterns select"
            _inner_argv(["cat", *selected], depth, script, command.text, origin, globs=True)
    if command.program in programs.NAME_READERS or any(
        w.startswith(programs.NAME_INPUT_OPTIONS) for w in command.argv[1:]
    ):
        _names_input(command, depth, script)
    if command.program in ("cd", "pushd") and len(command.argv) == 2 and not any(command.dynamic):
        target = command.argv[1]
        if programs.outside(target):
            script.elsewhere = target
        elif script.elsewhere is not None and target not in ("-", "."):
            script.elsewhere = f"{script.elsewhere}/{target}"
    if command.program in ("rm", "rmdir", "unlink") and len(command.argv) > 1:
        # rm d/f; rmdir d: the line deletes a directory and what is under it, one command
        # at a time: rm -r of it (commands.tree_deletes reads one command's operands)
        gone = [w for w in command.argv[1:] if not w.startswith("-")]
        trees = [p for p in gone if any(q.startswith(p.rstrip("/") + "/") for q in script.deleted)]
        recursive = "-r" in programs.flags_of(command.program, command.argv)[0]
        if trees and not recursive:
            origin = "deleted with what the line deleted under it earlier"
            _inner_argv(["rm", "-r", "-f", "--", *trees], depth, script, command.text, origin)
        script.deleted += gone
        # rm ../remote.git/refs/heads/main: the branch is gone there, and a plain push then
        # makes it anew without the commits it held: a forced update of it (red team s27 M)
        for repo in dict.fromkeys(_ref_store(_file_key(w), script) for w in gone):
            if repo is not None:
                origin = f"a ref removed by hand in {repo}, not the working repository"
                _inner_argv(["git", "push", "--force", repo], depth, script, command.text, origin)
    if (
        command.program == "history" and _history_to_histfile(command.argv) and _has_nameref(script)
    ):  # (declare -n r=HISTFILE; r=F: the file is known only when it runs)
        _history_file(script, depth, command.text, None)
    _remember_written(command, script, depth)
    if script.rebound is not None:
        command.unknowns.append(script.rebound)
    else:
        script.rebound = accounting.rebinds(command)
    if command.program in ("cd", "pushd", "popd") and ("~" in source or "PWD" in source):
        from hookwise.shell.variables import moved  # (cold: only where they are read)

        moved(script)
    if command.program == "shopt":
        script.globopts |= accounting.glob_options(command)
    script.globs_named |= accounting.glob_settings(command)
    replayed = accounting.replays(command)
    if replayed is not None:
        command.unknowns.append(replayed)
    if command.program in _FIFO_MAKERS:
        script.concurrent = True  # a FIFO's reader runs when its writer does
    accounting.account(command, script)
    return command


_EXPANDS = frozenset("$`")
# operators after which the next command runs beside the one before (not after it), and
# the programs that make a FIFO (its reader waits for a writer anywhere on the line)
_CONCURRENT = frozenset(["&", "|", "|&"])
_FIFO_MAKERS = frozenset(["mkfifo", "mknod"])
# wrappers whose words name files they read or write (wrappers.WRAPPER_FILES)
_WRAPPER_FILES = frozenset(["xargs", "script", "time", "strace", "ltrace", "valgrind"])


def _redirected_input(redirects: list[str], writes: list[str], script: Script) -> list[str]:
    """What a ``<`` redirect feeds a command (xargs' words): a process substitution's
    output, a file written earlier on the line (its content when known), and a file on
    disk, whose content counts as made when it runs (``$?``, an expansion): the hook does
    not read it, since what xargs reads is the working copy when it runs, which the agent
    may have written a call earlier, committed or not (docs/policy.md)."""
    fed: list[str] = []
    for target in redirects:
        if target in writes or target == "/dev/null":
            continue
        if target.startswith("<("):
            fed.append("$" + target[1:])
        elif script.was_written(target):
            content = script.recall(target)
            fed.append("$?" if content is None else content)
        else:
            fed.append("$?")
    return fed


def _curl_urls(command: Command) -> None:
    """The URLs curl's globbing makes of its words, added as operands (curl_globs.py); a
    word past the bound adds a word known only when it runs."""
    from hookwise.shell.commands.curl_globs import expand, globoff

    if globoff(command.argv):
        return
    extra: list[str] = []
    unknown = False
    for word in command.argv[1:]:
        if "{" not in word and "[" not in word:
            continue
        urls = expand(word)
        if urls is None:
            unknown = True
        else:
            extra += [u for u in urls if u != word]
    if (
        (extra or unknown)
        and any(  # -o '#1.html': a name made of a glob's text
            w[k + 1 : k + 2].isdigit()
            for w in command.argv[1:]
            for k in range(len(w))
            if w[k] == "#"
        )
    ):
        command.unknowns.append("curl names a file it writes from its URL glob (#N)")
    command.argv += extra
    command.dynamic += [False] * len(extra)
    if unknown:
        command.shapes = {**(command.shapes or {}), len(command.argv): (("S",), ("*",))}
        command.argv.append(programs.COMPUTED)
        command.dynamic.append(True)


def _loop_choices(command: Command, words: list[_Word], script: Script) -> None:
    """The names and patterns a loop's ``"$f"`` among the operands can be, as bash
    matches the patterns under the line's glob options; a pattern it matches otherwise
    than the matcher reads (glob_frame.differs) or an extglob leaves the word unknown."""
    from hookwise.shell.commands.glob_frame import differs
    from hookwise.shell.variables import choice_words

    for index, word in enumerate(words[1:], start=1):
        found = choice_words(word, script) if word.dynamic else None
        if found is None:
            continue
        matched: list[tuple[str, bool]] = []
        for value, pattern in found:
            read = accounting.as_matched(value, script.globopts) if pattern else value
            if read is None or (pattern and differs(read, script.globopts)):
                break
            matched.append((read, pattern))
        else:
            command.choices = {**(command.choices or {}), index: tuple(matched)}


def _framed_globs(command: Command, options: frozenset[str]) -> None:
    """Patterns bash expands otherwise than the matcher reads them become words known only
    when it runs, within their literal frame (glob_frame.py)."""
    from hookwise.shell.commands.glob_frame import differs, frame

    for index in sorted(command.globs):
        word = command.argv[index]
        if index == 0 or not differs(word, options):
            continue
        command.dynamic[index] = True
        command.shapes = {**(command.shapes or {}), index: frame(word)}
        # (it stays a pattern too: what the matcher reads of it, under the line's glob
        # options, still holds: `shopt -s dotglob; cat ~/*/cred*` reaches ~/.aws/credentials)


def _glob_options(command: Command, options: frozenset[str]) -> None:
    """The command's patterns as bash matches them under the line's glob options."""
    for index in sorted(command.globs):
        if index == 0:
            continue  # a pattern as the program: unknown already (accounting._globbed)
        matched = accounting.as_matched(command.argv[index], options)
        if matched is None:
            command.unknowns.append(
                f"{command.argv[index]!r} is an extglob pattern, which bash expands when it runs"
            )
        else:
            command.argv[index] = matched


def _names_input(command: Command, depth: int, script: Script) -> None:
    """A program that reads the files its input (or a list file) names: a lister's
    selection, the names a static printf or here-string gives, a file written on the line;
    else names known only when it runs (red team s27 I: ``printf .env | cpio -o``)."""
    from hookwise.shell.xargs_input import name_input, tracked_names

    source = name_input(command)
    if source is None or (source == "-" and tracked_names(command.piped_from)):
        return  # (git ls-files | tar -T -: the repository's tracked files)
    origin = "reads the files named on its input"
    selected = None
    if source == "-" and command.piped_from is not None:
        from hookwise.shell.xargs_input import listed

        selected = listed(command.piped_from)
    if selected:
        _inner_argv(["cat", *selected], depth, script, command.text, origin, globs=True)
        return
    texts: list[str] | None = None
    if source == "-":
        from hookwise.shell.assigns import input_texts

        texts = input_texts(command, script, _api()) or None
        if (
            texts is not None
            and command.piped_from is not None
            and len(texts) == len(command.stdin)
        ):
            texts = None  # (what the pipe gives is not known: only a here-string is)
    elif not source.startswith(("<(", ">(")) and script.was_written(source):
        recalled = script.recall(source)
        texts = [recalled] if recalled is not None else None
    elif not script.was_written(source) and not source.startswith("<("):
        return  # a list file on disk: the project's own data
    if texts is None:
        _inner_argv(["cat", programs.COMPUTED], depth, script, command.text,
                    origin + " (known only when it runs)")  # fmt: skip
        return
    names = [n for t in texts for n in t.replace("\0", "\n").split("\n") if n.strip()]
    if names:
        _inner_argv(["cat", *names[:64]], depth, script, command.text, origin)


def _made_env_file(command: Command, loaded: str) -> None:
    """An environment file named by a value the line makes when it runs
    (``--env-file="$(echo .)env"``): it may be any file, whatever its name fails to match
    now, so what the command loads is unknown (red team s33 B)."""
    if command.shapes is None:
        return  # (every word known: variables stays cold)
    from hookwise.shell.variables import made_word

    if made_word(command, loaded):
        why = f"{command.program} loads an environment file named when it runs (`{loaded}`)"
        command.unknowns.append(why)


def _inner_argv(
    argv: list[str],
    depth: int,
    script: Script,
    text: str,
    origin: str = "",
    *,
    globs: bool = False,
    inherits: Command | None = None,
    like: Command | None = None,
) -> Command | None:
    """``argv`` as a command of its own (returned; None: past the depth bound);
    ``globs``: its words are patterns (a lister's selection), not literal names;
    ``inherits``: the command whose stdin it reads (a program run from an unknown
    program's operands reads that program's input); ``like``: the command whose words
    these are, so one it knows only when it runs (or a pattern) stays so (_carry_unknowns)."""
    if depth + 1 > MAX_DEPTH:
        script.complete = False
        script.problems.append(f"more than {MAX_DEPTH} levels of nested commands")
        return None
    words = _static(argv)
    if globs:
        for word in words[1:]:
            word.quoted = False
            word.glob = any(c in word.value for c in "*?[")
    if like is not None:
        own = _unknown_words(like)
        for word in words[1:]:
            at = own.get(word.value)
            if at is not None and like.dynamic[at]:
                word.dynamic = True
            elif at is not None:
                word.quoted = False
                word.glob = True
    stdin = list(inherits.stdin) if inherits is not None else []
    piped = inherits.piped_from if inherits is not None else None
    added = _add_command(
        text, words, [], depth + 1, script, writes=[], stdin=stdin, piped_from=piped, like=like
    )
    if added is not None:
        added.origin = origin
    return added


# builtins that assign variables (assigns.py reads them)
_ASSIGNERS = frozenset(["export", "declare", "typeset", "local", "readonly"])


def _leaks_sourced(command: Command, at: int, script: Script) -> bool:
    """Whether ``command`` (from ``argv[at]``: the command it runs, for a program that runs
    one) may print or send a value an environment file loaded before it defined
    (env_files.leaks_values)."""
    from hookwise.shell.commands.env_files import leaks_values

    program = command.program if at == 0 else command.argv[at].rsplit("/", 1)[-1]
    fed = bool(command.stdin) or command.piped_from is not None
    traced = accounting.traced(script.commands)
    given = [*command.env.values(), *command.stdin, *command.redirects]
    valued = any("$" in w or "`" in w for w in given)
    name = programs.family(program)
    line_code = (
        at == 0 and name is not None and accounting.reads_code(command, script, name, outputs=False)
    )
    inputs = tuple(r for r in command.redirects if r not in command.writes)
    return leaks_values(
        program, command.argv[at:], command.dynamic[at:], fed=fed, valued=valued,
        traced=traced, line_code=line_code, cwd=script.elsewhere, inputs=inputs,
        extglob="extglob" in script.globs_named | script.globopts,
    )  # fmt: skip


def _self_loaded(command: Command, depth: int, script: Script) -> None:
    """A program that loads the project's environment file by itself (env_loaders.py):
    what it prints of it, or runs with it from the line, is a read of the file; code it
    reads from a stdin the line does not give is unverifiable."""
    from hookwise.shell.commands.env_loaders import self_loaded

    fed = bool(command.stdin) or command.piped_from is not None
    found = self_loaded(command.program, command.argv, fed)
    if found is None:
        return
    name = " ".join(command.argv[:2])
    if found.how == "typed" and not fed:
        command.unknowns.append(
            f"{name} runs code typed in later with {', '.join(found.files)} loaded, known "
            "only when it runs"
        )
        return
    if found.how == "judge" and not _leaks_sourced(command, found.at, script):
        return
    for path in found.files:
        origin = f"{name} loads {path} by itself, and prints or runs what the line gives with it"
        _inner_argv(["cat", path], depth, script, command.text, origin)


def _run_inner(
    command: Command, depth: int, script: Script, piped_from: Command | None, certain: bool
) -> None:
    """Parse what ``command`` runs in turn: shell scripts, eval, find -exec, remote
    commands, git aliases, interpreter code (accounting.code_items); note what it assigns."""
    program = command.program
    argv = command.argv
    # (only after a `source` on the line; not the read of the file it stands for)
    if (
        script.sourced
        and not (argv[:1] == ["cat"] and argv[1:] in ([p] for p in script.sourced))
        and _leaks_sourced(command, 0, script)
    ):
        for path in script.sourced:
            origin = f"{program} prints values that sourcing {path} defined"
            _inner_argv(["cat", path], depth, script, command.text, origin)
    if program in programs.ENV_SELF_LOADERS and (program != "docker" or argv[1:2] == ["compose"]):
        _self_loaded(command, depth, script)  # bun -e, docker compose config, flask shell
    if program == "make-first-existing-target" and "--" in argv:
        # Debian's make wrapper: TARGETS -- MAKEARGS runs make MAKEARGS TARGET (red team
        # s27 T); every target is read as one make may be given
        at = argv.index("--")
        made = ["make", *argv[at + 1 :], *argv[1:at]]
        _inner_argv(made, depth, script, command.text, "make-first-existing-target runs make")
    if program in ("tar", "gtar", "bsdtar") and any(
        len(w) > 9 and "--recursive-unlink".startswith(w) for w in argv[1:]
    ):  # an entry's directory removes the tree there first (red team s27 N)
        from hookwise.shell.commands.option_words import option_values

        where = ([*option_values(argv, ("-C",), ("--directory", "--cd"))] or ["."])[-1]
        origin = "tar --recursive-unlink removes the trees its archive names"
        _inner_argv(["rm", "-r", "-f", "--", f"{where.rstrip('/')}/{programs.COMPUTED}"],
                    depth, script, command.text, origin)  # fmt: skip
    if (
        script.written
        and argv[1:]
        and any(v is None and programs.library_file(k) for k, v in script.written.items())
    ):
        from hookwise.shell.written import loads_library

        library = loads_library(command, script)
        if library is not None:  # java -agentpath:$PWD/e.so, ld.so --preload ./e.so
            command.unknowns.append(
                f"{argv[0]} loads {library}, written on the line from code hookwise does not read"
            )
    if program in programs.DATA_FILE_RUNNERS and script.written:  # gio launch x.desktop
        _data_file_run(command, depth, script)
    if "-XX:On" in command.text:  # java -XX:OnOutOfMemoryError='rm -rf ..' (red team s28 M)
        for line in programs.jvm_commands(argv):
            _parse(line, depth + 1, script)
    if program == "java" and script.written:  # javac X.java written on the line; java X
        from hookwise.shell.written import java_class

        compiled = java_class(argv, script)
        if compiled is not None:
            command.unknowns.append(
                f"it runs {compiled}, compiled on the line from code hookwise does not read"
            )
    if program == "dotenv" and len(argv) > 1:  # dotenv list, dotenv -f F get KEY
        from hookwise.shell.commands.env_files import dotenv_prints

        shown = dotenv_prints(argv)
        if shown is not None:
            _made_env_file(command, shown)
            _inner_argv(["cat", shown], depth, script, command.text, "dotenv prints its values")
    if argv and _file_key(argv[0]) in script.written:  # echo 'cmd' > x.sh; ./x.sh
        from hookwise.shell.written import run_written

        run_written(command, argv[0], depth, script, api=_api())
        return
    if (
        script.written
        and programs.listed(program, programs.CODE_RUNNERS)
        and any(programs.may_load(program, k, v) for k, v in script.written.items())
    ):  # > test_x.py && pytest
        from hookwise.shell.commands.build_files import written_loads

        loaded = written_loads(program, script.written)
        if loaded:
            _interpreter(command, loaded, depth, script)
    elif (
        len(argv) > 1
        and script.written
        and programs.reads_operands(program)
        and any(k.rsplit("/", 1)[-1] in command.text for k in script.written)
    ):  # > l.py && pygmentize -x -l l.py:L: a word names a file the line wrote
        from hookwise.shell.commands.build_files import named_loads

        loaded = named_loads(program, argv, script.written)
        if loaded:
            _interpreter(command, loaded, depth, script)
    if program in programs.SHELLS:
        from hookwise.shell.scripts import shell_runs

        shell_runs(
            command,
            depth,
            script,
            piped_from,
            parse=_parse_shell,
            printed=static_output,
            parsed=_parsed,
        )
        return
    if programs.listed(program, programs.SHELL_STARTERS) and (
        command.stdin or piped_from is not None or command.redirects
    ):
        from hookwise.shell.wrappers import starts_shell

        if starts_shell(program, argv):  # unshare <<< CMD, su root <<< CMD: $SHELL reads it
            from hookwise.shell.scripts import stdin_script

            stdin_script(
                command, depth, script, piped_from, parse=_parse_shell, printed=static_output
            )
            return
    if program in ("source", ".") and len(argv) > 1 and "/" not in argv[0]:
        # (`dir/.` is a path bash runs, never the builtin)
        from hookwise.shell.scripts import script_file

        _wildcard(script)  # the file may set any variable
        if not command.dynamic[1] and len(script.sourced) < 8:
            script.sourced.append(argv[1])
        if accounting.traced(script.commands):  # set -x; . ./.env: bash prints each line
            origin = f"bash traces the lines of {argv[1]} it runs (set -x / -v)"
            _inner_argv(["cat", argv[1]], depth, script, command.text, origin)
        script_file(
            command,
            argv[1],
            depth,
            script,
            piped_from,
            parse=_parse_shell,
            printed=static_output,
            parsed=_parsed,
        )
        return
    if program in ("at", "batch") and "-f" not in argv:  # at reads the commands on stdin
        from hookwise.shell.scripts import stdin_script

        stdin_script(command, depth, script, piped_from, parse=_parse_shell, printed=static_output)
        return
    if program == "alias":
        for word in argv[1:]:
            name, eq, value = word.partition("=")
            if eq and name and not name.startswith("-"):
                script.aliases[name] = value
                _parse(value, depth + 1, script)  # what the alias will run
        return
    if program == "trap" and len(argv) > 2:
        args = argv[2:] if argv[1] == "--" else argv[1:]
        if len(args) > 1 and args[0] not in ("-", "") and not args[0].startswith("-"):
            _parse(args[0], depth + 1, script)  # runs on the signal (EXIT: always)
            script.concurrent = True  # after whatever the line does before the signal
        return
    if program in _ASSIGNERS or program in _SETTERS:
        from hookwise.shell.assigns import assigns

        assigns(command, depth, script, certain, _api())
        return
    if program in ("[[", "test", "["):  # [[ -v 'a[$(cmd)]' ]]: the subscript is evaluated
        for word in argv[1:]:
            if "[" in word and ("$(" in word or "`" in word):
                _data_code(word, depth, script)
    if program == "eval" and len(argv) > 1:
        if any(command.dynamic[1:]):
            command.unknowns.append("eval of an expansion: the script is known only when it runs")
            _wildcard(script)
        _parse(" ".join(argv[1:]), depth + 1, script)
        return
    if program == "find":
        from hookwise.shell.find_exec import find_inner

        for inner_argv in find_inner(argv):
            origin = "find -delete" if inner_argv[:3] == ["rm", "-r", "-f"] else "find -exec"
            first = len(script.commands)
            _inner_argv(inner_argv, depth, script, command.text, origin)
            reader = origin == "find -exec" and inner_argv[0].rsplit("/", 1)[-1] != "rm"
            if reader and "{}" in argv and len(script.commands) > first:
                script.commands[first].walked = argv  # (red team s28 G; rm: find_inner's)
        for index, word in enumerate(argv[:-1]):
            if word in ("-fprint", "-fprint0", "-fprintf", "-fls"):  # find writes FILE
                target = argv[index + 1]
                command.writes.append(target)
                command.redirects.append(target)
        return
    if program in programs.REMOTE:
        from hookwise.shell.remote_exec import remote_inner

        remote_argv, remote = remote_inner(program, argv)
        if remote_argv:
            _inner_argv(remote_argv, depth, script, command.text)
        if remote:
            _parse(remote, depth + 1, script)
        if program != "ssh" and not remote_argv and not remote:
            # (kubectl create --from-file=F: what it reads here, as any program's options)
            for kind, value in programs.runs(program, argv, command.stdin):
                if kind == "read":
                    _inner_argv(["cat", value], depth, script, command.text, f"{program} reads")
            return
        if program != "ssh":
            return
    if program == "git":
        _git(command, depth, script)
    found = programs.runs(program, argv, command.stdin)
    if program == "git" and (
        script.git_settings
        or command.env
        or "-c" in argv
        or any(kind == "include" for kind, _value in found)
    ):
        from hookwise.shell.git_config import from_line

        found = from_line(command, found, script, programs.git_subcommand(argv))
    elif program in _PACKAGE_RUNNERS and script.was_written("package.json"):
        from hookwise.shell.written import package_scripts

        found = found + package_scripts(script)
    if programs.family(program) is not None:
        found = found + accounting.code_items(command, script, static_output, _parsed)
    if found:
        _interpreter(command, found, depth, script)
    # x86_64 rm -rf d, ld.so /usr/bin/awk CODE: an unknown program may run its operands
    if len(argv) > 1 and programs.reads_operands(program):
        for word in argv[1:]:
            if word[:1] != "-":
                from hookwise.shell.commands.operands import operand_commands

                operand_commands(command, depth, script, _inner_argv)
                break


_SETTERS = frozenset(
    ["read", "mapfile", "readarray", "printf", "getopts", "unset", "let", "set", "shift"]
)


def _wildcard(script: Script) -> None:
    """Something on the line may assign any variable of this shell (eval, source)."""
    if script.vars is None:
        from hookwise.shell.variables import Vars

        script.vars = Vars()
        script.vars.home = script.home
    script.vars.wildcard.add(script.scope)


def _value_code(value: str, depth: int, script: Script) -> None:
    """A value that holds shell code (``x='a[$(cmd)]'``): bash runs it where the value is
    evaluated (an arithmetic subscript, ``${x@P}``, PS4 under ``set -x``), so its command
    substitutions count as run."""
    if "$(" in value or "`" in value:
        _data_code(value, depth, script)


def _data_code(text: str, depth: int, script: Script) -> None:
    scanner = _Scanner(text, depth, script)
    scanner._body_expansions(text, script.anchor if script.anchor is not None else script.end)
    saved = script.anchor
    for nested, at in scanner.nested:
        script.anchor = saved if saved is not None else at
        _parse(nested, depth + 1, script)
    script.anchor = saved


# tee's options that change nothing of what it writes (append, ignore interrupts)
_TEE_KEEPS = frozenset(["-a", "--append", "-i", "--ignore-interrupts"])


def static_output(command: Command) -> str | None:
    """What a command prints when that is known here: ``echo``/``printf`` of literal words
    (as bash's builtins format them), ``cat`` of its here-document; None otherwise."""
    source = command.program
    if source in ("echo", "printf") and not any(command.dynamic[1:]):
        args = command.argv[1:]
        if not any("\\" in w or "%" in w for w in args) and source == "echo":
            words = [w for w in args if w not in ("-e", "-n", "-E")]
            return " ".join(words)
        from hookwise.shell.printf_format import echo_output, printf_output

        return printf_output(args) if source == "printf" else echo_output(args)
    if command.stdin and (
        (source == "cat" and command.argv[1:] in ([], ["-"]))
        or (
            source == "tee"
            and not any(w.startswith("-") and w not in _TEE_KEEPS for w in command.argv[1:])
        )
    ):
        return "".join(command.stdin)
    return None


def _unignored(script: Script) -> bool:
    """Whether the line removed, moved or wrote a ``.gitignore`` earlier: what it ignored
    (the secrets) is then added by ``git add -A`` as by ``git add -f``."""

    def ignores(path: str) -> bool:
        return path.rstrip("/").rsplit("/", 1)[-1] == ".gitignore"

    if any(ignores(p) for p in [*script.deleted, *(s for s, _k in script.copies.values())]):
        return True
    for key, content in script.written.items():
        if not ignores(key):
            continue
        # echo dist >> .gitignore only adds ignores; > empties it, ! un-ignores
        appended = all(">>" in c.text for c in script.commands if any(ignores(w) for w in c.writes))
        if content is None or "!" in content or not appended:
            return True
    return False


def _redirected_through_links(command: Command, depth: int, script: Script) -> None:
    """``ln -s ~/.config cfg; printf x > cfg/hookwise/policy.yaml``: the shell opens a
    redirection's target through the link the line made before it, so the file written is
    the link's (written.through_link, the one reading the writers' link targets get too);
    each such target is a write of its own, judged by every check a redirect meets (red
    team s35 F5: ``>``, ``>>``, ``>|``, ``<>``, ``&>``, ``exec 3>``)."""
    from hookwise.shell.written import through_link  # (cold: only after a link or copy)

    for target in command.writes:
        linked = through_link(_file_key(target), script)
        if linked is None:
            continue
        through = Command([], [], [linked], command.text, depth + 1, writes=[linked])
        through.origin = f"redirects output to {target} through a link the line makes"
        through.chdir = command.chdir
        script.commands.append(through)


def _file_key(path: str) -> str:
    while path.startswith("./"):
        path = path[2:]
    return path


def _parsed(text: str, depth: int) -> list[Command]:
    """The commands of ``text`` parsed on their own (a process substitution's)."""
    inner = Script()
    _parse(text, depth, inner)
    return inner.commands


# programs that write a file named in their arguments (written.py reads which), and the
# directories of git hooks (a hook written runs on the next git command)
_WRITERS = frozenset(
    ["cp", "mv", "install", "ln", "curl", "wget", "dd", "base64", "openssl", "gpg", "unzip",
     "xxd", "sed", "perl", "ruby", "sort", "uniq", "split", "csplit", "gcc", "cc", "c++", "g++",
     "clang", "clang++", "tcc", "rustc", "gfortran", "javac"]
)  # fmt: skip
_HOOK_DIRS = ("/.git/hooks/", ".git/hooks/", "/.husky/", ".husky/")


def _remember_written(command: Command, script: Script, depth: int) -> None:
    """Files the command writes: their content when known here (``echo 'rm -rf /' >
    x.sh``, ``cat > x.sh <<EOF``, ``tee x.sh <<EOF``), else None (``base64 -d > x.sh``): a
    program that runs one later on the line runs that content (CC#46991, agentguard#862).
    Other writers (``cp``, ``curl -o``, ``sed -i``...) and git hooks: written.py."""
    targets: list[tuple[str, str | None]] = []
    program = command.program
    if command.writes or program == "tee":
        body = static_output(command)
        targets = [(target, body) for target in command.writes]
        if program == "tee":
            targets += [(w, body) for w in command.argv[1:] if not w.startswith("-")]
    if program in _WRITERS and len(command.argv) > 1:
        from hookwise.shell.written import written_by

        targets += written_by(command, script)
    if programs.family(program) is not None and any(
        "'" in w or '"' in w
        for w in command.argv[1:]  # (cold only for code with literals)
    ):
        from hookwise.shell.code_commands import named_files

        named = named_files(command.argv[1:])
        if len(named) > MAX_NAMED:  # (the rest would pass for files already on disk)
            command.unknowns.append(f"its code names more than {MAX_NAMED} files it may write")
        for name in named[:MAX_NAMED]:  # what its code may write
            if not script.was_written(name):
                targets.append((name, None))
    stores = [_ref_store(_file_key(t), script) for t, _ in targets]
    if script.copies:  # ln -s ../remote.git/refs/heads/main r && ... > r (red team s29 M)
        from hookwise.shell.written import through_link

        linked = [through_link(_file_key(t), script) for t, _ in targets]
        stores += [_ref_store(_file_key(k), script) for k in linked if k is not None]
    if program in _WRITERS and any(w.startswith(("-i", "--in-place")) for w in command.argv[1:]):
        # sed -i s/.../ ../remote.git/refs/heads/main: a ref file edited in place
        stores += [_ref_store(_file_key(w), script) for w in command.argv[2:] if w[:1] != "-"]
    if program in _COPIES and len(command.argv) > 2:
        stores.append(_copied_refs(command.argv, script))
    for repo in dict.fromkeys(r for r in stores if r is not None):
        origin = f"a ref written by hand in {repo}, not the working repository, is a force push"
        _inner_argv(["git", "push", "--force", repo], depth, script, command.text, origin)
    for target, content in targets:
        key = _file_key(target)
        earlier = script.written.get(key, "")
        if content is None or earlier is None:
            script.written[key] = None  # (> or >>: what was there may stay)
        else:
            script.written[key] = earlier + content + ("" if content.endswith("\n") else "\n")
        if any(marker in "/" + key for marker in _HOOK_DIRS) or _in_hooks_path(key, script):
            from hookwise.shell.written import hook_written

            hook_written(command, target, content, depth, script, api=_api())


def _in_hooks_path(key: str, script: Script) -> bool:
    """Whether ``key`` is in the hooks directory ``git config core.hooksPath D`` set
    earlier on the line (red team s29 K): git runs what the line writes there."""
    hooks = script.git_settings.get("core.hookspath")
    if not hooks:
        return False
    return key.startswith(_file_key(hooks).rstrip("/") + "/")


_COPIES = frozenset(["cp", "mv", "install", "ln", "rsync"])
# (written.NAMERS, kept equal by a test: the parser's hot path does not import written.py)
_NAMERS = frozenset(["cp", "install", "mv", "ln", "link"])


def _copied_refs(argv: list[str], script: Script) -> str | None:
    """A copy into another repository's refs (``cp .git/refs/heads/main
    ../remote.git/refs/heads/main``), or of this one's refs or whole ``.git`` into a
    directory outside (``cp -r .git/. ../remote.git/``, ``cp -r .git/refs ../x.git/``)."""
    operands = [w for w in argv[1:] if not w.startswith("-")]
    valued = ("-t", "--target-directory")
    target = next((argv[k + 1] for k in range(len(argv) - 1) if argv[k] in valued),
                  operands[-1] if operands else "")  # fmt: skip
    repo = _ref_store(_file_key(target), script)
    if repo is not None:
        return repo
    into = (
        target.endswith("/")
        or any(w in valued for w in argv)
        or any(w[:1] == "-" and w[1:2] != "-" and set("raR") & set(w) for w in argv[1:])
    )  # (a directory copied, or a file put into a directory)
    if not into or not programs.outside(target):
        return None
    for source in (_file_key(w) for w in operands if w != target):
        if source in (".git", ".git/.", ".git/refs/."):
            return target.rstrip("/") or target
        inner = source.removeprefix(".git/")
        if inner != source and _ref_store(f"{target.rstrip('/')}/{inner}/", script) is not None:
            return target.rstrip("/") or target
    return None


# git subcommands that remove or overwrite files of the working tree they run in
_GIT_TREE_CHANGERS = frozenset(
    ["rm", "clean", "sparse-checkout", "checkout", "restore", "switch", "reset", "stash",
     "read-tree", "checkout-index", "mv", "apply", "am", "merge", "pull", "rebase",
     "cherry-pick", "revert", "worktree", "submodule"]
)  # fmt: skip


def _git_stages(argv: list[str]) -> bool:
    """Whether ``argv`` is ``git add``/``git stage``: its operands may be directories."""
    if argv[:1] != ["git"]:
        return False
    at = programs.git_subcommand(argv)
    return at > 0 and argv[at] in ("add", "stage")


def _git_forced(argv: list[str]) -> bool:
    """``-f``/``--force`` (also in a cluster, ``-Af``): git adds ignored files too."""
    return any(
        w == "--force" or (w[:1] == "-" and w[1:2] != "-" and "f" in w[1:]) for w in argv[1:]
    )


def _git_readings_in(command: Command, readings: list[Command]) -> None:
    """``git -C DIR diff --no-index /dev/null .netrc``, ``git -C .. show :home/.netrc``:
    the files git reads are named from DIR (red team s31 O), or from the working tree it
    is given (``GIT_WORK_TREE=../home git add -f .netrc``, s32 L): its readings run there."""
    where = programs.git_names_from(command.argv, command.env)
    if where is None:
        return
    if command.chdir is not None and where[:1] not in ("/", "~"):
        where = f"{command.chdir}/{where}"
    for reading in readings:
        if reading.chdir is None:
            reading.chdir = where
        elif reading.chdir[:1] not in ("/", "~"):
            reading.chdir = f"{where}/{reading.chdir}"


def _git_tree_elsewhere(
    options: list[str], env: dict[str, str], script: Script, command: Command
) -> str | None:
    """The working tree outside the working directory a git command runs in, as written
    (``-C D``, ``--work-tree[=]D``, ``GIT_WORK_TREE``, a ``cd`` there on the line), or None."""
    tree = env.get("GIT_WORK_TREE")
    if tree is None and command.chdir is None:
        tree = script.elsewhere
    for index, word in enumerate(options):
        following = options[index + 1] if index + 1 < len(options) else ""
        if word == "-C" and following:
            tree = following if tree is None or following[:1] == "/" else f"{tree}/{following}"
        elif word == "--work-tree" and following:
            tree = following
        elif word.startswith("--work-tree="):
            tree = word.split("=", 1)[1]
    return tree if tree and programs.outside(tree) else None


def _ref_store(key: str, script: Script) -> str | None:
    """The repository whose refs a written file is (``../remote.git/refs/heads/main``,
    ``packed-refs``), when it is not the working one: writing it moves that repository's
    branch as a forced push would (red team s24, finding 5)."""
    path = key if script.elsewhere is None or key.startswith("/") else f"{script.elsewhere}/{key}"
    head, sep, _ = path.partition("refs/")
    if not sep or (head and not head.endswith("/")):
        head, sep, _ = path.rpartition("packed-refs")
        if not sep or (head and not head.endswith("/")):
            return None
    repo = head.rstrip("/") or "."
    return repo if programs.outside(repo) else None


_PACKAGE_RUNNERS = frozenset(["npm", "yarn", "pnpm", "bun", "npx", "pnpx", "bunx", "corepack"])


def _git(command: Command, depth: int, script: Script) -> None:
    argv = command.argv
    aliases = script.git_aliases
    env = command.env
    if "GIT_DIR" not in env and script.elsewhere is not None and command.chdir is None:
        env = {**env, "GIT_DIR": script.elsewhere}  # cd ../remote.git && git reset ...
    # what it does to refs elsewhere, to a remote's pushes, to aliases: only with one of
    # these words (cheap: `git status`, `git push origin main` load nothing more)
    refs = (
        not _GIT_REF_WORDS.isdisjoint(argv)
        or "GIT_DIR" in env
        or any(w.startswith("--git-dir") for w in argv)
    )
    if refs:
        from hookwise.shell.commands.git_refs import git_alias_definitions

        aliases.update(git_alias_definitions(argv))
    if "config" in argv:  # git config remote.origin.push +...: read by a later push
        from hookwise.shell.git_config import remember_setting

        hooks = script.git_settings.get("core.hookspath")
        remember_setting(argv, script, programs.git_subcommand(argv))
        if script.git_settings.get("core.hookspath") != hooks:  # hooks written before it
            from hookwise.shell.written import hook_written

            for key in [k for k in script.written if _in_hooks_path(k, script)]:
                hook_written(command, key, script.written[key], depth, script, api=_api())
    at = programs.git_subcommand(argv)
    if at > 0 and argv[at] == "send-pack":  # push's plumbing: --force and +refspecs alike
        origin = "git send-pack pushes as git push does"
        rest = [w for w in argv[at + 1 :] if w != "--stdin"]
        if "--stdin" in argv[at + 1 :]:  # the refspecs are its input's lines (s27 M)
            from hookwise.shell.assigns import input_texts

            texts = input_texts(command, script, _api())
            fed = [w for t in texts for w in t.split()] if texts else [programs.COMPUTED]
            rest += fed
        _inner_argv(["git", "push", *rest], depth, script, command.text, origin)
        return
    if refs:
        from hookwise.shell.commands.git_refs import git_force_configured, git_forced_elsewhere

        forced = git_forced_elsewhere(argv, env)
        if forced is not None:
            origin = f"a ref update forced in {forced}, not the working repository, is a force push"
            _inner_argv(["git", "push", "--force", forced], depth, script, command.text, origin)
        mirrored = git_force_configured(argv)
        if mirrored is not None:
            origin = f"the remote {mirrored} is set so that every push to it forces"
            _inner_argv(["git", "push", "--force", mirrored], depth, script, command.text, origin)
    if any(w[:1] == "+" or "/+" in w or "=+" in w for w in argv[2:]):
        from hookwise.shell.commands.plus_refs import plus_names

        for name in plus_names(argv):  # git checkout -b +main: pushed by name, it forces
            origin = f"the branch {name!r} pushed by its name is a force push"
            _inner_argv(["git", "push", "origin", name], depth, script, command.text, origin)
    if at > 0 and argv[at] in ("clone", "init") and (script.deleted or script.copies):
        # mv ../remote.git ../old.git && git clone --bare . ../remote.git: the repository
        # the line took away is made anew with this one's history: a forced push to it
        target = _file_key(([w for w in argv[at + 1 :] if w[:1] != "-"] or [""])[-1].rstrip("/"))
        gone = {_file_key(p.rstrip("/")) for p in script.deleted}
        gone |= {_file_key(src.rstrip("/")) for src, kind in script.copies.values() if kind == "mv"}
        if target in gone and programs.outside(target):
            origin = f"{target}, taken away on the line, made anew: a force push to it"
            _inner_argv(["git", "push", "--force", target], depth, script, command.text, origin)
    if at > 0 and argv[at] in _GIT_TREE_CHANGERS:
        tree = _git_tree_elsewhere(argv[:at], env, script, command)
        if tree is not None:  # git -C ../victim rm -r .: a delete there (red team s29 N)
            origin = f"git {argv[at]} changes the files of {tree}, outside the working directory"
            _inner_argv(["rm", "-r", "-f", "--", tree], depth, script, command.text, origin)
    if at < 0:
        return
    if argv[at] not in aliases:
        if argv[at] not in programs.GIT_COMMANDS and not command.dynamic[at]:
            script.git_unresolved.append((command, at))
        return
    definition = aliases[argv[at]]
    rest = argv[at + 1 :]
    if definition.startswith("!"):
        _parse(definition[1:] + " " + " ".join(rest), depth + 1, script)
    else:
        _inner_argv(["git", *definition.split(), *rest], depth, script, command.text)


def _data_file_run(command: Command, depth: int, script: Script) -> None:
    """The command lines a file written earlier on the line makes a program run
    (programs.DATA_FILE_RUNNERS: a desktop entry's Exec= run by gio launch)."""
    found = programs.data_file_run(command.program, command.argv)
    if found is None:
        return
    from hookwise.shell.tool_scripts import tool_items

    paths, language = found
    for path in paths:
        if not script.was_written(path):
            continue
        content = script.recall(path)
        if content is None:
            why = f"it runs what {path}, written earlier on the line, names ({language})"
            command.unknowns.append(f"{command.program}: {why}")
        else:
            _interpreter(command, tool_items(language, content), depth, script)


# the words without which a git command sets no alias, forces no ref elsewhere and
# configures no forced push (commands.git_refs)
_GIT_REF_WORDS = frozenset(["-c", "-C", "config", "remote"])


def _interpreter(
    command: Command, found: list[tuple[str, Any]], depth: int, script: Script
) -> None:
    """Commands found in a program's code or options (code_commands, programs.runs)."""
    for kind, value in found:
        if kind == "script":
            _parse(value, depth + 1, script)
        elif kind == "argv":
            _inner_argv(value, depth, script, command.text)
        elif kind == "write":
            script.commands.append(
                Command([], [], [value], command.text, depth + 1, writes=[value])
            )
            from hookwise.shell.written import COMPILERS

            if command.program not in COMPILERS:  # (a compiler's: written.py, by its source)
                script.written[_file_key(value)] = None  # content made when it runs
        elif kind == "read":
            _inner_argv(["cat", value], depth, script, command.text, f"{command.program} reads")
        elif kind == "tree":  # every file under it (a server's root, an archive's sources)
            origin = f"{command.program} reads every file under {value}"
            reading = _inner_argv(["cat", value], depth, script, command.text, origin)
            if reading is not None:
                reading.walked = ["find", value]
        else:
            prefixed = str(value).startswith(command.program + " ")
            command.unknowns.append(value if prefixed else f"{command.program}: {value}")


_APIS: list[Any] = []


def _api() -> Any:
    """What the cold modules that read a command (assigns, written) call back into: the
    parser itself, which they may not import (no import cycles, not even lazy ones). Made
    on their first use: a class costs each hook call that defines it about 70 k
    instructions, and most commands need none of them."""
    if not _APIS:

        class _Api:
            parse = staticmethod(_parse)
            parse_shell = staticmethod(_parse_shell)
            record = staticmethod(_record)
            wildcard = staticmethod(_wildcard)
            data_code = staticmethod(_data_code)
            value_code = staticmethod(_value_code)
            static_output = staticmethod(static_output)
            parsed = staticmethod(_parsed)
            interpreter = staticmethod(_interpreter)
            assignment = staticmethod(_assignment)
            word_type = _Word
            scanner_type = _Scanner
            prefix_type = _Prefix

        _APIS.append(_Api())
    return _APIS[0]
