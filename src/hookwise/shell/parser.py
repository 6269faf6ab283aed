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

from hookwise.shell import programs

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

MAX_DEPTH = 8
MAX_COMMANDS = 2000

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
        "depth",
        "dynamic",
        "options",
        "origin",
        "piped_from",
        "program",
        "redirects",
        "stdin",
        "text",
        "unknown_args",
        "unverifiable",
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
        self.program = argv[0].rsplit("/", 1)[-1] if argv else ""
        self.dynamic = dynamic  # per word: contains an expansion ($x, $(...), `...`)
        self.redirects = redirects  # every file redirect target (read or written)
        self.text = text
        self.depth = depth
        self.writes = writes if writes is not None else []  # targets of >, >>, &>, <>...
        self.stdin = stdin if stdin is not None else []  # here-document bodies, here-strings
        # why what runs cannot be known before it runs ($a, $(printf rm), a piped script)
        self.unverifiable: str | None = None
        self.unknown_args = False  # the words, not only the program, are unknown
        self.options: tuple[set[str], list[str]] | None = None  # programs.flags_of, lazily
        self.origin = ""  # what a derived command stands for ("find -delete", "python -c")
        self.piped_from: Command | None = None  # the command whose stdout is this one's stdin
        self.chdir: str | None = None  # where a wrapper runs it (env -C DIR, sudo -D DIR)
        self.assigned: list[str] = []  # variables set for it (X=1 cmd, env X=1, export X=1)

    @property
    def unknown_program(self) -> bool:
        return self.unverifiable is not None and bool(self.dynamic) and self.dynamic[0]

    def __repr__(self) -> str:
        return f"Command({self.argv!r}, redirects={self.redirects!r})"


class Script:
    """The result of splitting: every command found, and whether the input parsed fully."""

    __slots__ = ("aliases", "commands", "complete", "git_aliases", "problems", "written")

    def __init__(self) -> None:
        self.commands: list[Command] = []
        self.complete = True
        self.problems: list[str] = []
        self.git_aliases: dict[str, str] = {}  # defined earlier on the line
        self.aliases: dict[str, str] = {}  # shell aliases defined earlier on the line
        # files written earlier on the line with content known here (echo ... > x.sh)
        self.written: dict[str, str] = {}

    @property
    def unverifiable(self) -> list[str]:
        return [c.unverifiable for c in self.commands if c.unverifiable is not None]

    def recall(self, path: str) -> str | None:
        """What ``path`` holds when it was written earlier on the line (None: not known)."""
        return self.written.get(_file_key(path))


class _Word:
    __slots__ = ("dynamic", "end", "quoted", "start", "value")

    def __init__(self, value: str, dynamic: bool, quoted: bool, start: int, end: int) -> None:
        self.value = value
        self.dynamic = dynamic
        self.quoted = quoted
        self.start = start
        self.end = end


def split_command(text: str) -> Script:
    """Split a command line into its simple commands (never raises)."""
    script = Script()
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
    except RecursionError:
        script.complete = False
        script.problems.append("the command nests too deeply")
    return script


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
        if ch == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            if j >= n:
                return -1
            i = j + 1
            continue
        if ch == "`":
            end = _find_backtick(text, i + 1)
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


# $-expansions kept verbatim: (opener, closer, name, holds commands, extra closing chars)
_EXPANSIONS = (
    ("$((", ")", "arithmetic expansion", False, 1),
    ("$(", ")", "command substitution", True, 0),
    ("${", "}", "${...}", False, 0),
)


class _Scanner:
    """Tokens of one (sub)script: words, operators, redirections."""

    def __init__(self, text: str, depth: int, script: Script) -> None:
        self.text = text
        self.depth = depth
        self.script = script
        self.nested: list[str] = []
        self.heredocs: list[tuple[str, bool, int, bool]] = []
        self.bodies: dict[int, str] = {}  # delimiter word start -> here-document body

    def incomplete(self, why: str) -> None:
        self.script.complete = False
        if why not in self.script.problems:
            self.script.problems.append(why)

    def tokens(self) -> list[tuple[str, object, int, int]]:
        text = self.text
        n = len(text)
        out: list[tuple[str, object, int, int]] = []
        heredoc = ""  # a "<<" waiting for its delimiter word
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
                continue
            if ch.isdigit():
                j = i
                while j < n and text[j].isdigit():
                    j += 1
                if j < n and text[j] in "<>" and not text.startswith("<(", j):
                    op = next(r for r in _REDIRS if text.startswith(r, j))
                    out.append(("redir", op, i, j + len(op)))
                    i = j + len(op)
                    continue
            if ch in "<>" and i + 1 < n and text[i + 1] == "(":
                end = _find_closing(text, i + 2, "(", ")")
                if end < 0:
                    self.incomplete("unclosed process substitution")
                    end = n
                self.nested.append(text[i + 2 : end])
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
                    break
            if op_found:
                continue
            word, i = self._word(i)
            out.append(("word", word, word.start, word.end))
            if heredoc:
                self.heredocs.append((word.value, heredoc == "<<-", word.start, word.quoted))
                heredoc = ""
        return out

    def _skip_heredocs(self, i: int) -> int:
        text = self.text
        while self.heredocs:
            delimiter, strip_tabs, key, quoted = self.heredocs.pop(0)
            body: list[str] = []
            while True:
                if i >= len(text):
                    self.incomplete("unterminated heredoc")
                    self.heredocs.clear()
                    self.bodies[key] = "".join(body)
                    return len(text)
                end = text.find("\n", i)
                line = text[i:] if end < 0 else text[i:end]
                i = len(text) if end < 0 else end + 1
                if (line.lstrip("\t") if strip_tabs else line) == delimiter:
                    break
                body.append((line.lstrip("\t") if strip_tabs else line) + "\n")
            self.bodies[key] = "".join(body)
            if not quoted:  # an unquoted delimiter: $(...) and `...` in the body run
                self._body_expansions(self.bodies[key])
        return i

    def _body_expansions(self, body: str) -> None:
        sub = _Scanner(body, self.depth, self.script)
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
        self.nested.extend(sub.nested)

    def _word(self, i: int) -> tuple[_Word, int]:
        text = self.text
        n = len(text)
        start = i
        value: list[str] = []
        dynamic = False
        quoted = False
        while i < n:
            ch = text[i]
            if ch in _BREAK:
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
                i, dyn = self._double_quoted(i + (2 if ch == "$" else 1), value)
                dynamic = dynamic or dyn
                continue
            if ch in {"$", "`"}:
                i = self._expansion(i, value)
                dynamic = True
                continue
            value.append(ch)
            i += 1
        return _Word("".join(value), dynamic, quoted, start, i), i

    def _double_quoted(self, i: int, value: list[str]) -> tuple[int, bool]:
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
                i = self._expansion(i, value)
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
            self.nested.append(text[i + 1 : end].replace("\\`", "`"))
            value.append(text[i : end + 1])
            return end + 1
        for opener, closer, what, nested, tail in _EXPANSIONS:
            if text.startswith(opener, i):
                start = i + len(opener)
                end = _find_closing(text, start, opener[-1], closer)
                if end < 0:
                    self.incomplete(f"unclosed {what}")
                    end = n
                if nested:
                    self.nested.append(text[start:end])
                else:  # $(( 1 + $(cmd) )), ${x:-$(cmd)}: what is inside still runs
                    self._body_expansions(text[start:end])
                value.append(text[i : end + 1 + tail])
                return min(end + 1 + tail, n)
        j = i + 1
        if j < n and (text[j].isalnum() or text[j] == "_"):
            while j < n and (text[j].isalnum() or text[j] == "_"):
                j += 1
        elif j < n and text[j] in "@*#?-$!":
            j += 1
        value.append(text[i:j])
        return j


def _parse(text: str, depth: int, script: Script) -> None:
    if depth > MAX_DEPTH:
        script.complete = False
        script.problems.append(f"more than {MAX_DEPTH} levels of nested commands")
        return
    scanner = _Scanner(text, depth, script)
    tokens = scanner.tokens()
    words: list[_Word] = []
    redirects: list[str] = []
    writes: list[str] = []
    stdin: list[str] = []
    first = last = -1
    pending_redir: str | None = None
    previous: Command | None = None  # the command before a pipe into the next one
    piped = False

    def finish() -> None:
        nonlocal first, last, previous
        added: Command | None = None
        if words or redirects or stdin:
            added = _add_command(
                text[first:last],
                words,
                redirects,
                depth,
                script,
                writes=writes,
                stdin=stdin,
                piped_from=previous if piped else None,
            )
        if added is not None or not piped:
            previous = added
        words.clear()
        redirects.clear()
        writes.clear()
        stdin.clear()
        first = last = -1

    for kind, payload, start, end in tokens:
        if kind == "op":
            if pending_redir is not None:
                scanner.incomplete(f"redirection {pending_redir!r} without a target")
                pending_redir = None
            finish()
            piped = payload in ("|", "|&")
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
            continue
        words.append(payload)
    if pending_redir is not None:
        scanner.incomplete(f"redirection {pending_redir!r} without a target")
    finish()
    for nested in scanner.nested:
        if len(script.commands) >= MAX_COMMANDS:
            break
        _parse(nested, depth + 1, script)


class _Prefix:
    """What the words in front of a command said about it (``env -C DIR``, ``xargs -I {}``,
    ``LD_PRELOAD=...``), collected while they are stripped."""

    __slots__ = ("assigned", "chdir", "unverifiable", "xargs")

    def __init__(self) -> None:
        self.assigned: list[str] = []
        self.chdir: str | None = None
        self.unverifiable: str | None = None
        self.xargs: list[str] | None = None  # xargs' own words, when xargs runs the command


def _strip_prefix(words: list[_Word], script: Script, depth: int, prefix: _Prefix) -> list[_Word]:
    """Drop keywords, assignments and wrappers in front of the real command; a wrapper that
    runs a shell string (``su -c``, ``flock -c``, ``watch``, ``env -S``) has it parsed."""
    i = 0
    n = len(words)
    for _ in range(32):
        while i < n and not words[i].quoted and words[i].value in _KEYWORDS:
            i += 1
        while i < n and _is_assignment(words[i]):
            _assignment(words[i].value, script, depth, prefix)
            i += 1
        if i < n and not words[i].quoted and words[i].value == "coproc":
            i += 1  # coproc CMD, or coproc NAME { CMD; }
            if i + 1 < n and words[i + 1].value == "{":
                i += 2
            continue
        if i >= n:
            return []
        name = words[i].value.rsplit("/", 1)[-1]
        # quoting a keyword makes it a plain word, but 'sudo' and "env" still run sudo
        # and env (only an alias is not expanded): wrappers are found quoted too
        if words[i].dynamic or name not in programs.WRAPPER_NAMES:
            return words[i:]
        from hookwise.shell.wrappers import strip_wrapper, wrapper_chdir

        values = [w.value for w in words[i:]]
        found = strip_wrapper(name, values)
        if found is None:
            return words[i : i + 1]
        offset, string = found
        if string is not None:
            _parse(string, depth + 1, script)
            return words[i : i + 1]
        chdir = wrapper_chdir(name, values[:offset])
        if chdir is not None:
            prefix.chdir = chdir
        if name == "env":
            for word in values[1:offset]:
                if "=" in word and word.split("=", 1)[0].isidentifier():
                    _assignment(word, script, depth, prefix)
        if name == "xargs":
            prefix.xargs = values[:offset]
        i += offset
    return words[i:]


def _assignment(word: str, script: Script, depth: int, prefix: _Prefix) -> None:
    """``PROMPT_COMMAND='...'``, ``GIT_SSH_COMMAND=...``: the value is a command that runs
    later; ``LD_PRELOAD=lib``, ``BASH_ENV=file``: the program loads code from a file."""
    name, _, value = word.partition("=")
    prefix.assigned.append(name)
    if not value:
        return
    if name in programs.COMMAND_VARIABLES or (
        name.startswith("GIT_CONFIG_VALUE_") and value.startswith("!")
    ):
        _parse(value.removeprefix("!"), depth + 1, script)
    elif name in programs.LOADER_VARIABLES:
        prefix.unverifiable = f"{name}={value} makes it load code that is known only when it runs"


def _is_assignment(word: _Word) -> bool:
    name, eq, _ = word.value.partition("=")
    return bool(eq) and name.isidentifier() and not word.value.startswith("=")


def _brace_expand(words: list[_Word]) -> list[_Word]:
    """Bash's brace expansion of unquoted words: ``{rm,-rf,x}`` is ``rm -rf x``."""
    out: list[_Word] = []
    for word in words:
        value = word.value
        if word.quoted or word.dynamic or "{" not in value or "," not in value:
            out.append(word)
            continue
        open_at = value.find("{")
        close_at = value.find("}", open_at)
        inner = value[open_at + 1 : close_at] if close_at > open_at else ""
        if close_at < 0 or "," not in inner or "{" in inner:
            out.append(word)
            continue
        head, tail = value[:open_at], value[close_at + 1 :]
        parts = [
            _Word(head + part + tail, False, False, word.start, word.end)
            for part in inner.split(",")
        ]
        out.extend(_brace_expand(parts))
    return out


def _static(values: list[str]) -> list[_Word]:
    return [_Word(v, False, True, 0, 0) for v in values]


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
) -> Command | None:
    if len(script.commands) >= MAX_COMMANDS:
        script.complete = False
        if "too many commands" not in script.problems:
            script.problems.append("too many commands")
        return None
    if raw and not raw[0].quoted and raw[0].value == "function":
        raw = raw[2:]  # function NAME [()] { body: the body's first command follows
        if raw and raw[0].value == "()":
            raw = raw[1:]
    prefix = _Prefix()
    if raw and not raw[0].quoted and raw[0].value in _COMPOUND:
        words: list[_Word] = []
    else:
        words = _strip_prefix(_brace_expand(raw), script, depth, prefix)
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

        words = xargs_operands(words, prefix.xargs, piped_from, stdin, _Word)
    if not words and not redirects and not stdin:
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
    command.chdir = prefix.chdir
    command.assigned = prefix.assigned
    command.unverifiable = prefix.unverifiable
    script.commands.append(command)
    _remember_written(command, script)
    if words and words[0].dynamic:
        command.unverifiable = (
            f"the program is {words[0].value!r}, known only when the command runs"
        )
        command.unknown_args = not words[0].quoted or "IFS" in words[0].value
        return command
    _run_inner(command, depth, script, piped_from)
    return command


def _inner_argv(argv: list[str], depth: int, script: Script, text: str, origin: str = "") -> None:
    if depth + 1 > MAX_DEPTH:
        script.complete = False
        script.problems.append(f"more than {MAX_DEPTH} levels of nested commands")
        return
    added = _add_command(text, _static(argv), [], depth + 1, script, writes=[], stdin=[])
    if added is not None:
        added.origin = origin


def _run_inner(command: Command, depth: int, script: Script, piped_from: Command | None) -> None:
    """Parse what ``command`` runs in turn: shell scripts, eval, find -exec, remote
    commands, git aliases, interpreter one-liners."""
    program = command.program
    argv = command.argv
    written = script.recall(argv[0]) if argv else None
    if written is not None:  # echo 'cmd' > x.sh; chmod +x x.sh; ./x.sh
        _parse(written, depth + 1, script)
        return
    if program in programs.SHELLS:
        from hookwise.shell.scripts import shell_runs

        shell_runs(
            command,
            depth,
            script,
            piped_from,
            parse=_parse,
            printed=static_output,
            parsed=_parsed,
        )
        return
    if program in ("source", ".") and len(argv) > 1:
        from hookwise.shell.scripts import script_file

        script_file(
            command,
            argv[1],
            depth,
            script,
            piped_from,
            parse=_parse,
            printed=static_output,
            parsed=_parsed,
        )
        return
    if program in ("at", "batch") and "-f" not in argv:  # at reads the commands on stdin
        from hookwise.shell.scripts import stdin_script

        stdin_script(command, depth, script, piped_from, parse=_parse, printed=static_output)
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
        return
    if program in ("export", "declare", "typeset", "local", "readonly"):
        prefix = _Prefix()
        for word in argv[1:]:
            if "=" in word and word.split("=", 1)[0].isidentifier():
                _assignment(word, script, depth, prefix)
        command.unverifiable = command.unverifiable or prefix.unverifiable
        command.assigned += prefix.assigned
        return
    if program == "eval" and len(argv) > 1:
        if any(command.dynamic[1:]):
            command.unverifiable = "eval of an expansion: the script is known only when it runs"
        _parse(" ".join(argv[1:]), depth + 1, script)
        return
    if program == "parallel" and ":::" in argv:
        start = 1
        while start < len(argv) and argv[start].startswith("-"):
            start += 2 if argv[start] in ("-j", "--jobs", "-S", "--sshlogin") else 1
        template = argv[start : argv.index(":::")]
        if template:
            _inner_argv(template, depth, script, command.text)
        return
    if program == "find":
        from hookwise.shell.find_exec import find_inner

        for inner_argv in find_inner(argv):
            origin = "find -delete" if inner_argv[:3] == ["rm", "-r", "-f"] else "find -exec"
            _inner_argv(inner_argv, depth, script, command.text, origin)
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
        return
    if program == "git":
        _git(command, depth, script)
        _interpreter(command, programs.runs(program, argv, command.stdin), depth, script)
        return
    found = programs.runs(program, argv, command.stdin)
    if found:
        _interpreter(command, found, depth, script)
        return
    code = programs.interpreter_code(program, argv)
    if code is None and programs.interpreter(program) and ("-" in argv[1:] or len(argv) == 1):
        code = "".join(command.stdin) or None  # python - <<EOF
    if code is not None:
        from hookwise.shell.code_commands import code_commands

        found = code_commands(code, awk=program in programs.AWKS)
        _interpreter(command, found, depth, script)


def static_output(command: Command) -> str | None:
    """What a command prints when that is known here: ``echo``/``printf`` of literal words,
    ``cat`` of its here-document; None otherwise."""
    source = command.program
    if source in ("echo", "printf") and not any(command.dynamic[1:]):
        words = [w for w in command.argv[1:] if not (source == "echo" and w in ("-e", "-n"))]
        body = " ".join(words)
        if source == "printf" or "-e" in command.argv:
            body = body.replace("\\n", "\n").replace("\\t", "\t")
        return body
    if command.stdin and (
        (source == "cat" and command.argv[1:] in ([], ["-"]))
        or (source == "tee" and not any(w.startswith("-") for w in command.argv[1:]))
    ):
        return "".join(command.stdin)
    return None


def _file_key(path: str) -> str:
    while path.startswith("./"):
        path = path[2:]
    return path


def _parsed(text: str, depth: int) -> list[Command]:
    """The commands of ``text`` parsed on their own (a process substitution's)."""
    inner = Script()
    _parse(text, depth, inner)
    return inner.commands


def _remember_written(command: Command, script: Script) -> None:
    """``echo 'rm -rf /' > x.sh`` (or ``cat > x.sh <<EOF``, ``tee x.sh <<EOF``): the file's
    content, for a shell that runs it later on the line (CC#46991, agentguard#862)."""
    targets = list(command.writes)
    if command.program == "tee":
        targets += [w for w in command.argv[1:] if not w.startswith("-")]
    if not targets:
        return
    body = static_output(command)
    for target in targets:
        key = _file_key(target)
        if body is None:
            script.written.pop(key, None)  # content unknown here
        else:
            script.written[key] = script.written.get(key, "") + body + "\n"


def _git(command: Command, depth: int, script: Script) -> None:
    argv = command.argv
    aliases = script.git_aliases
    aliases.update(programs.git_alias_definitions(argv))
    at = programs.git_subcommand(argv)
    if at < 0 or argv[at] not in aliases:
        return
    definition = aliases[argv[at]]
    rest = argv[at + 1 :]
    if definition.startswith("!"):
        _parse(definition[1:] + " " + " ".join(rest), depth + 1, script)
    else:
        _inner_argv(["git", *definition.split(), *rest], depth, script, command.text)


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
        else:
            command.unverifiable = f"{command.program}: {value}"
            command.unknown_args = True
