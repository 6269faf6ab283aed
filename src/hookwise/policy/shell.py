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
"""

from __future__ import annotations

MAX_DEPTH = 8
MAX_COMMANDS = 2000

_BREAK = frozenset(" \t\n;&|()<>")
_OPS = ("&&", "||", ";;&", ";;", ";&", "|&", "&", ";", "|", "(", ")")
_REDIRS = ("&>>", "&>", "<<<", "<<-", "<<", "<>", "<&", ">>", ">|", ">&", "<", ">")
_KEYWORDS = frozenset(
    ["if", "then", "else", "elif", "fi", "do", "done", "while", "until", "!", "{", "}"]
)
_COMPOUND = frozenset(["for", "case", "select", "esac", "function"])
SHELLS = frozenset(["sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "busybox"])

# wrapper -> options that take a separate argument
_WRAPPERS: dict[str, frozenset[str]] = {
    "sudo": frozenset(["-u", "-g", "-h", "-p", "-C", "-D", "-r", "-t", "-U", "-T", "-c"]),
    "doas": frozenset(["-u", "-C"]),
    "env": frozenset(["-u", "-C", "-S", "--unset", "--chdir"]),
    "command": frozenset(),
    "builtin": frozenset(),
    "exec": frozenset(["-a"]),
    "nohup": frozenset(),
    "time": frozenset(["-f", "-o"]),
    "nice": frozenset(["-n"]),
    "ionice": frozenset(["-c", "-n", "-p"]),
    "stdbuf": frozenset(["-i", "-o", "-e"]),
    "timeout": frozenset(["-s", "-k", "--signal", "--kill-after"]),
    "xargs": frozenset(["-I", "-n", "-P", "-d", "-E", "-L", "-s", "-a", "-i", "-l", "-e"]),
}
# wrappers whose first positional argument is not the command (timeout's duration)
_WRAPPER_SKIP_POSITIONAL = {"timeout": 1}


class Command:
    """One simple command: its words after wrappers, redirect targets, and source text."""

    __slots__ = ("argv", "depth", "dynamic", "redirects", "stdin", "text", "writes")

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
        self.dynamic = dynamic  # per word: contains an expansion ($x, $(...), `...`)
        self.redirects = redirects  # every file redirect target (read or written)
        self.text = text
        self.depth = depth
        self.writes = writes if writes is not None else []  # targets of >, >>, &>, <>...
        self.stdin = stdin if stdin is not None else []  # here-document bodies, here-strings

    @property
    def program(self) -> str:
        """The basename of the program run, '' for an empty command."""
        if not self.argv:
            return ""
        return self.argv[0].rsplit("/", 1)[-1]

    def __repr__(self) -> str:
        return f"Command({self.argv!r}, redirects={self.redirects!r})"


class Script:
    """The result of splitting: every command found, and whether the input parsed fully."""

    __slots__ = ("commands", "complete", "problems")

    def __init__(self) -> None:
        self.commands: list[Command] = []
        self.complete = True
        self.problems: list[str] = []


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

_ANSI = {"n": "\n", "t": "\t", "r": "\r", "a": "\a", "b": "\b", "e": "\x1b", "f": "\f", "v": "\v"}


def _ansi_c(body: str) -> str:
    out: list[str] = []
    i = 0
    while i < len(body):
        ch = body[i]
        if ch == "\\" and i + 1 < len(body):
            nxt = body[i + 1]
            if nxt in _ANSI:
                out.append(_ANSI[nxt])
                i += 2
                continue
            if nxt == "x":
                digits = ""
                j = i + 2
                while j < len(body) and len(digits) < 2 and body[j] in "0123456789abcdefABCDEF":
                    digits += body[j]
                    j += 1
                if digits:
                    out.append(chr(int(digits, 16)))
                    i = j
                    continue
            out.append(nxt)
            i += 2
            continue
        out.append(ch)
        i += 1
    return "".join(out)


class _Scanner:
    """Tokens of one (sub)script: words, operators, redirections."""

    def __init__(self, text: str, depth: int, script: Script) -> None:
        self.text = text
        self.depth = depth
        self.script = script
        self.nested: list[str] = []
        self.heredocs: list[tuple[str, bool, int]] = []
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
                self.heredocs.append((word.value, heredoc == "<<-", word.start))
                heredoc = ""
        return out

    def _skip_heredocs(self, i: int) -> int:
        text = self.text
        while self.heredocs:
            delimiter, strip_tabs, key = self.heredocs.pop(0)
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
        return i

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
                value.append(_ansi_c(text[i + 2 : j]))
                i = j + 1
                continue
            if ch == '"':
                quoted = True
                i, dyn = self._double_quoted(i + 1, value)
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

    def finish() -> None:
        nonlocal first, last
        if words or redirects or stdin:
            _add_command(
                text[first:last], words, redirects, depth, script, writes=writes, stdin=stdin
            )
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


def _strip_prefix(words: list[_Word]) -> list[_Word]:
    """Drop keywords, assignments and wrappers in front of the real command."""
    i = 0
    n = len(words)
    for _ in range(32):
        while i < n and not words[i].quoted and words[i].value in _KEYWORDS:
            i += 1
        while i < n and _is_assignment(words[i]):
            i += 1
        if i >= n:
            return []
        name = words[i].value.rsplit("/", 1)[-1]
        if words[i].quoted or name not in _WRAPPERS:
            return words[i:]
        takes_arg = _WRAPPERS[name]
        skip_positional = _WRAPPER_SKIP_POSITIONAL.get(name, 0)
        i += 1
        while i < n:
            value = words[i].value
            if value == "--":
                i += 1
                break
            if value.startswith("-") and len(value) > 1:
                i += 2 if (value in takes_arg and "=" not in value) else 1
                continue
            if name == "env" and _is_assignment(words[i]):
                i += 1
                continue
            if skip_positional:
                skip_positional -= 1
                i += 1
                continue
            break
    return words[i:]


def _is_assignment(word: _Word) -> bool:
    name, eq, _ = word.value.partition("=")
    return bool(eq) and name.isidentifier() and not word.value.startswith("=")


def _add_command(
    text: str,
    raw: list[_Word],
    redirects: list[str],
    depth: int,
    script: Script,
    *,
    writes: list[str],
    stdin: list[str],
) -> None:
    if len(script.commands) >= MAX_COMMANDS:
        script.complete = False
        if "too many commands" not in script.problems:
            script.problems.append("too many commands")
        return
    if raw and not raw[0].quoted and raw[0].value in _COMPOUND:
        words: list[_Word] = []
    else:
        words = _strip_prefix(raw)
    if not words and not redirects and not stdin:
        return
    command = Command(
        [w.value for w in words],
        [w.dynamic for w in words],
        list(redirects),
        text,
        depth,
        writes=list(writes),
        stdin=list(stdin),
    )
    script.commands.append(command)
    program = command.program
    if program in SHELLS:
        inner = _shell_c_script(command.argv)
        if inner is not None:
            _parse(inner, depth + 1, script)
    elif program == "eval" and len(command.argv) > 1:
        _parse(" ".join(command.argv[1:]), depth + 1, script)


def _shell_c_script(argv: list[str]) -> str | None:
    """The script of ``bash -c SCRIPT`` (also ``-lc``, ``-ec``, ``busybox sh -c``)."""
    args = argv[1:]
    if argv and argv[0].rsplit("/", 1)[-1] == "busybox":
        if not args or args[0] not in SHELLS:
            return None
        args = args[1:]
    has_c = False
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "--":
            i += 1
            break
        if arg in ("-o", "+o", "-O", "+O", "--rcfile", "--init-file"):
            i += 2
            continue
        if arg.startswith("--"):
            i += 1
            continue
        if arg[:1] in "-+" and len(arg) > 1:
            if "c" in arg[1:]:
                has_c = True
            i += 1
            continue
        break
    if has_c and i < len(args):
        return args[i]
    return None
