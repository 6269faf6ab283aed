"""Values of shell variables assigned earlier on the line, and the words they make known.

``f=-rf; rm $f x`` runs ``rm -rf x``: a value assigned on the line is known, so the word is
read as bash reads it. A value is known only where bash is sure to have it: the line
assigns the name once (or always the same value), unconditionally (not inside ``if``,
a loop, a function, a pipeline, after ``&&``/``||``), before the word, in the same shell,
and nothing on the line can assign an arbitrary name (``eval``, ``source``, ``read
"$n"``). Anything else (``read f``, ``for f in``, ``printf -v``, ``declare -l``, a value
from the environment) stays unknown, and the matcher treats the word as one that could
be any flag or argument (policy/rules/engine.py).

The parser records assignments on a first pass and resolves words on a second, only for
a line that both assigns and expands (split_command). Cold: imported for such a line.
Standard library only.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, TypeAlias

    Value: TypeAlias = "str | list[str] | None"

# bash sets IFS itself at start (it never takes it from the environment)
DEFAULT_IFS = " \t\n"
# names a shell sets to a path (never a flag, never split on spaces in practice)
_PATH_NAMES = frozenset(["HOME", "PWD", "OLDPWD", "TMPDIR"])
_DIGIT_NAMES = frozenset(["?", "$", "!", "#", "RANDOM", "LINENO", "SECONDS", "PPID", "UID"])
# names bash itself sets from what the line does (``: .env; cat "$_"``, ``[[ x =~ re ]]``,
# a function's name, ``read``, ``getopts``, ``pushd``): the line chose their values, so
# they are never the environment's (red team s27 B); BASH_* are all bash's own
_LINE_SET = frozenset(
    ["_", "FUNCNAME", "PIPESTATUS", "REPLY", "MAPFILE", "OPTARG", "OPTIND", "DIRSTACK",
     "COPROC", "GROUPS", "HISTCMD", "READLINE_LINE", "COMP_WORDS", "COMP_LINE"]
)  # fmt: skip


def line_set(name: str) -> bool:
    """Whether bash sets ``name`` itself from the line's own commands."""
    return name in _LINE_SET or name.startswith("BASH")


def is_arithmetic(piece: str) -> bool:
    """Whether ``$((...))`` / ``$[...]`` as written is arithmetic. Bash reads ``$(`` up to
    its matching ``)`` first and calls the text arithmetic only when it is ``(...)`` whose
    inside balances its own parentheses (subst.c, chk_arithsub); anything else, such as
    ``$((cat .env) )`` or ``$((a); b)``, is a command substitution of a subshell, and runs."""
    if piece.startswith("$["):
        return True
    if not piece.startswith("$((") or not piece.endswith("))"):
        return False
    inner = piece[3:-2]
    count = i = 0
    while i < len(inner):
        ch = inner[i]
        if ch == "(":
            count += 1
        elif ch == ")":
            count -= 1
            if count < 0:
                return False
        elif ch == "\\":
            i += 1
        elif ch in "'\"":
            end = inner.find(ch, i + 1)
            while ch == '"' and end > 0 and inner[end - 1] == "\\":
                end = inner.find(ch, end + 1)
            if end < 0:
                return False
            i = end
        i += 1
    return count == 0


class Vars:
    """Assignments recorded on the first pass; the table of known values on the second."""

    __slots__ = (
        "_unknown", "choices", "computed", "hints", "home", "patterns", "printers",
        "records", "referenced", "table", "wildcard",
    )  # fmt: skip

    def __init__(self) -> None:
        # (scope, name, value or None for unknown, certain, end anchor)
        self.records: list[tuple[int, str, Value, bool, int]] = []
        self.wildcard: set[int] = set()  # scopes where any name may be assigned
        # a name the line itself computes is assigned (declare -n r=$x, read "$n", let
        # "$n=1"): it may be any variable, bash's own among them (GLOBIGNORE)
        self.computed = False
        self.referenced = False  # a word expanded a variable
        self.table: dict[tuple[int, str], tuple[Value, int]] | None = None
        self._unknown: set[tuple[int, str]] = set()
        # what an unknown value assigned on the line is (value_shape): x=$(mktemp) a path
        self.hints: dict[tuple[int, str], tuple[tuple[str, ...], ...]] = {}
        # a for loop's list, when every word is a name or a pattern: (value, is a pattern)
        self.choices: dict[tuple[int, str], tuple[tuple[str, bool], ...]] = {}
        # the environment's HOME, known to the hook: $HOME where nothing on the line sets it
        # (d=$HOME/.aws; cat "$d/credentials" reads ~/.aws/credentials, session 31)
        self.home: str | None = None
        # whether ``$(dirname F)``/``$(basename F)`` of a literal F print what those
        # programs print (the line cannot redefine them: printed_name_line)
        self.printers = False
        # arrays an element of which is an unquoted pattern (``f=(src/*.py)``): bash put
        # the files it matches in their place, so a value of theirs is that pattern still
        self.patterns: set[str] = set()

    def record(self, scope: int, name: str, value: Value, certain: bool, end: int) -> None:
        if self.table is None:  # the second pass reads the table the first one made
            self.records.append((scope, name, value, certain, end))

    def build(self) -> None:
        """Known values: every assignment of the name certain and of one value."""
        seen: dict[tuple[int, str], tuple[Value, int] | None] = {}
        for scope, name, value, certain, end in self.records:
            key = (scope, name)
            if not certain or value is None or scope in self.wildcard:
                seen[key] = None
                continue
            if key not in seen:
                seen[key] = (value, end)
                continue
            earlier = seen[key]
            if earlier is None or earlier[0] != value:
                seen[key] = None
        self.table = {key: found for key, found in seen.items() if found is not None}
        self._unknown = {key for key, found in seen.items() if found is None}
        for scope in self.wildcard:
            self._unknown.add((scope, "IFS"))

    def token(self, scope: int, name: str) -> tuple[tuple[str, ...], ...] | None:
        """The shape of a variable the line assigns (None: it never does)."""
        if scope in self.wildcard:
            return (("*",),)
        records = [r for r in self.records if r[0] == scope and r[1] == name]
        if not records:
            # another shell of the line assigns it (export f=...; bash -c 'rm $f'): what
            # this one sees is made on the line too, known or not
            return (("*",),) if any(r[1] == name for r in self.records) else None
        hint = self.hints.get((scope, name))
        if hint is not None and all(r[2] is None for r in records):
            return hint
        return (("*",),)

    def lookup(self, scope: int, name: str, anchor: int) -> tuple[Value, bool]:
        """(value, known) of ``name`` for a word at ``anchor``."""
        table = self.table or {}
        found = table.get((scope, name))
        if found is not None and found[1] <= anchor:
            return found[0], True
        if name == "IFS" and (scope, name) not in self._unknown and found is None:
            return DEFAULT_IFS, True
        if (
            name == "HOME"
            and self.home
            and not self.wildcard
            and not any(r[1] == "HOME" for r in self.records)
        ):
            return self.home, True
        return None, False


# ------------------------------------------------------------------------- expansion


def _name_and_rest(body: str) -> tuple[str, str]:
    """``x:-y`` -> (``x``, ``:-y``); ``a[@]`` -> (``a[@]``, ``)``; ``1`` -> (``1``, ``)``."""
    if body[:1].isdigit():
        end = 1
        while end < len(body) and body[end].isdigit():
            end += 1
        return body[:end], body[end:]
    if body[:1] in ("@", "*", "#", "?", "$", "!", "-"):
        return body[:1], body[1:]
    end = 0
    while end < len(body) and (body[end].isalnum() or body[end] == "_"):
        end += 1
    if end < len(body) and body[end] == "[":
        close = body.find("]", end)
        if close > 0:
            end = close + 1
    return body[:end], body[end:]


def _positional(values: list[str], name: str) -> Value:
    if name in ("@", "*"):
        return list(values)
    if name == "#":
        return str(len(values))
    index = int(name)
    return values[index - 1] if 0 < index <= len(values) else ""


class Resolver:
    """Expands one word's pieces with the values known at its place on the line."""

    __slots__ = ("anchor", "positional", "scope", "vars")

    def __init__(self, vars_: Vars, scope: int, anchor: int, positional: list[str] | None):
        self.vars = vars_
        self.scope = scope
        self.anchor = anchor
        self.positional = positional

    def value(self, name: str) -> tuple[Value, bool]:
        """(value, known); a list for ``$@`` and arrays."""
        if name[:1].isdigit() or name in ("@", "*", "#"):
            if name == "0":
                found, known = self.vars.lookup(self.scope, "0", self.anchor)
                return found, known
            values, known = self.vars.lookup(self.scope, "@", self.anchor)
            if not known and self.positional is not None:
                values, known = list(self.positional), True
            if not known or not isinstance(values, list):
                return None, False
            return _positional(values, name), True
        base, _, index = name.partition("[")
        found, known = self.vars.lookup(self.scope, base, self.anchor)
        if not known:
            return None, False
        if not index:  # $a of an array is its first element
            return (found[0] if found else "") if isinstance(found, list) else found, True
        index = index.rstrip("]")
        items = found if isinstance(found, list) else [found or ""]
        if index in ("@", "*"):
            return list(items), True
        if index.isdigit():
            at = int(index)
            return (items[at] if at < len(items) else ""), True
        return None, False

    def expansion(self, text: str) -> tuple[Value, bool]:
        """The value of one ``$...`` piece (a list: one field each, as ``"$@"``)."""
        if text.startswith(("$(", "`")):
            printed = printed_name(text) if self.vars.printers else None
            return (printed, True) if printed is not None else (None, False)
        if not text.startswith("${"):
            return self.value(text[1:])
        body = text[2:-1]
        if body.startswith("!"):  # ${!name}: the variable named by name's value
            target, known = self.value(body[1:])
            if not known or not isinstance(target, str) or not target.isidentifier():
                return None, False
            return self.value(target)
        if body.startswith("#") and len(body) > 1:
            found, known = self.value(body[1:])
            if not known:
                return None, False
            return str(len(found) if isinstance(found, list) else len(found or "")), True
        name, rest = _name_and_rest(body)
        if not name:
            return None, False
        found, known = self.value(name)
        if not rest:
            return found, known
        return operator_value(found, known, rest)

    def ifs(self) -> str | None:
        found, known = self.vars.lookup(self.scope, "IFS", self.anchor)
        return found if known and isinstance(found, str) else None


def operator_value(found: Value, known: bool, rest: str) -> tuple[Value, bool]:
    """``${name<rest>}`` of a value (``found``, ``known``): (value, known)."""
    for op in (":-", ":=", ":+", "-", "=", "+"):
        if rest.startswith(op):
            word = rest[len(op) :]
            if "$" in word or "`" in word or "'" in word or '"' in word or "\\" in word:
                return None, False
            unset_or_null = not found if op.startswith(":") else found is None
            if op.endswith("+"):
                if not known:
                    return None, False
                return ("" if unset_or_null else word), True
            if known and not unset_or_null:
                return found, True
            if known:
                return word, True
            return None, False  # unknown: the default only if unset, so unknown
    if not known or isinstance(found, list) or found is None:
        return None, False
    if rest in (",,", "^^"):
        return (found.lower() if rest == ",," else found.upper()), True
    if rest[:1] in ("#", "%", "/"):
        trimmed = pattern_operator(found, rest)
        return (trimmed, True) if trimmed is not None else (None, False)
    if rest.startswith(":") and rest[1:2] not in ("-", "=", "+", "?"):
        pieces = rest[1:].split(":")
        try:
            start = int(pieces[0].strip() or "0")
            length = int(pieces[1]) if len(pieces) > 1 else None
        except ValueError:
            return None, False
        if start < 0:
            start = max(len(found) + start, 0)
        if length is None:
            return found[start:], True
        if length < 0:
            return found[start : len(found) + length], True
        return found[start : start + length], True
    return None, False


def pattern_operator(value: str, rest: str) -> str | None:
    """``${x#p}``, ``${x%%p}``, ``${x/p/r}`` and their kin applied to a known ``value``, as
    bash does (``*`` crosses ``/`` here); None for a pattern or replacement this does not
    read (an expansion, a quote, a POSIX class): unknown, never guessed."""
    from hookwise.shell.exclusions import shell_match

    if any(c in rest for c in "$`'\"\\") or "[:" in rest or "(" in rest:
        return None
    if rest[:1] in ("#", "%"):
        longest = rest[1:2] == rest[:1]
        pattern = rest[2:] if longest else rest[1:]
        cuts = range(len(value) + 1)
        order = reversed(cuts) if longest else cuts
        for cut in order:
            if rest[0] == "#" and shell_match(value[:cut], pattern):
                return value[cut:]
            if rest[0] == "%" and shell_match(value[len(value) - cut :], pattern):
                return value[: len(value) - cut]
        return value
    body = rest[1:]
    every = body[:1] == "/"
    anchor = body[:1] if body[:1] in ("#", "%") else ""
    body = body[1:] if every or anchor else body
    pattern, _, replacement = body.partition("/")
    if not pattern or pattern[0] == "/" or shell_match("", pattern):
        return None  # ${x/#/p}, ${x///a/b}, ${x/*/p}: forms left unknown
    out: list[str] = []
    i = 0
    while i <= len(value):
        ends = range(len(value), i - 1, -1)  # the longest match at i
        if anchor == "%":
            ends = range(len(value), len(value) - 1, -1)
        end = next((e for e in ends if e > i and shell_match(value[i:e], pattern)), None)
        if end is None or (anchor == "#" and i > 0):
            if anchor == "#" or i == len(value):
                out.append(value[i:])
                break
            out.append(value[i])
            i += 1
            continue
        out.append(replacement)
        if not every:
            out.append(value[end:])
            break
        i = end
    return "".join(out)


def expand_word(
    parts: list[str], marks: tuple[tuple[int, int], ...], resolver: Resolver
) -> list[str] | None:
    """The fields a word with expansions becomes (None: a value is unknown here).

    ``marks``: (index into ``parts``, 1 unquoted | 2 quoted) of each expansion. Unquoted
    values are split on IFS; ``"$@"`` and ``"${a[@]}"`` give one field per value; an
    unquoted expansion that is empty gives no field."""
    kinds = dict(marks)
    fields: list[str] = [""]
    solid = [False]  # the field holds something that survives (literal or quoted)
    ifs = resolver.ifs()
    for index, piece in enumerate(parts):
        kind = kinds.get(index)
        if kind is None:
            fields[-1] += piece
            solid[-1] = True
            continue
        if is_arithmetic(piece):
            return None
        value, known = resolver.expansion(piece)
        if not known or value is None:
            return None
        if kind == 2:
            if isinstance(value, list) and _joined(piece):
                # "$*", "${a[*]}": one word, the values joined by IFS's first character
                # (IFS= glues them: red team s27 D)
                if ifs is None:
                    return None
                value = ifs[:1].join(value)
            if isinstance(value, list):
                if not value:
                    continue
                fields[-1] += value[0]
                solid[-1] = True
                for item in value[1:]:
                    fields.append(item)
                    solid.append(True)
            else:
                fields[-1] += value
                solid[-1] = True
            continue
        if ifs is None:
            return None  # IFS is set to something unknown: the split is unknown
        items = value if isinstance(value, list) else [value]
        for position, item in enumerate(items):
            if position:
                fields.append("")
                solid.append(False)
            _split_into(item, ifs, fields, solid)
    return [field for field, keep in zip(fields, solid, strict=True) if keep or field]


def _joined(piece: str) -> bool:
    """``$*``, ``${*}``, ``${a[*]}``: quoted, the values make one word."""
    return piece in ("$*", "${*}") or (piece.startswith("${") and piece.endswith("[*]}"))


def _split_into(text: str, ifs: str, fields: list[str], solid: list[bool]) -> None:
    """Bash's field splitting of an unquoted value, continuing the last field: runs of IFS
    white space (with at most one other IFS character) separate fields."""
    blank = "".join(ch for ch in ifs if ch in " \t\n")
    i = 0
    current = ""
    n = len(text)
    while i < n:
        ch = text[i]
        if ch not in ifs:
            current += ch
            i += 1
            continue
        j = i
        while j < n and text[j] in blank:
            j += 1
        hard = j < n and text[j] in ifs and text[j] not in blank
        if hard:
            j += 1
            while j < n and text[j] in blank:
                j += 1
        fields[-1] += current
        if current:
            solid[-1] = True
        if solid[-1] or fields[-1] or hard:
            solid[-1] = solid[-1] or hard
            fields.append("")
            solid.append(False)
        current = ""
        i = j
    fields[-1] += current
    if current:
        solid[-1] = True


# ----------------------------------------------------------------------------- shapes


def shape(
    parts: list[str],
    marks: tuple[tuple[int, int], ...],
    token: Callable[[str], tuple[tuple[str, ...], ...]],
) -> tuple[tuple[str, ...], ...]:
    """What an unknown word can be, for the matcher: a sequence of ``("L", text)``
    literal, ``("*",)`` anything made on the line, ``("E",)`` a value from the
    environment (``$BRANCH``: not chosen on the line), ``("D",)`` a number, ``("/",)`` a
    path (``$HOME``, ``$(mktemp)``), and a first element ``("S",)`` when the word may split
    into several (an unquoted expansion made on the line, or ``"$@"``): then it can be
    any words at all. ``token(piece)``: the token of one expansion."""
    kinds = dict(marks)
    out: list[tuple[str, ...]] = []
    splits = False
    for index, piece in enumerate(parts):
        kind = kinds.get(index)
        if kind is None:
            if piece:
                if out and out[-1][0] == "L":
                    out[-1] = ("L", out[-1][1] + piece)
                else:
                    out.append(("L", piece))
            continue
        found = token(piece)
        if ("*",) in found and (kind == 1 or _multi(piece)):
            splits = True
        for item in found:
            if item[0] == "L" and out and out[-1][0] == "L":
                out[-1] = ("L", out[-1][1] + item[1])
            else:
                out.append(item)
    if splits:
        out.insert(0, ("S",))
    return tuple(out)


def _multi(piece: str) -> bool:
    return piece in ("$@", "${@}") or piece.endswith("[@]}")


def plain_name(piece: str) -> str | None:
    """The variable of ``$name`` / ``${name}`` (None: an operator, a subscript, a command)."""
    name = piece[2:-1] if piece.startswith("${") else piece[1:]
    return name if name.isidentifier() or name in _DIGIT_NAMES else None


Shape = tuple[tuple[str, ...], ...]
# the token of ``$!``: a number, the pid of a job the line itself started
OWN_JOB = ("D", "!")


def piece_token(piece: str, assigned: Callable[[str], Shape | None]) -> Shape:
    """The shape tokens of one expansion; ``assigned(name)``: the shape of a variable the
    line assigns (None: the line never does, the value is the environment's)."""
    if is_arithmetic(piece):
        return (("D",),)
    name = plain_name(piece)
    if name is None:
        head = piece[2:].split("[", 1)[0] if piece.startswith("${") and "[" in piece else ""
        found = assigned(head) if head.isidentifier() else None
        if found is not None and found[:1] == (("C",),):
            return found  # ${DIRSTACK[1]} after pushd: a directory the line chose
        return _substitution_tokens(piece)
    if name in _DIGIT_NAMES:
        return (OWN_JOB,) if name == "!" else (("D",),)  # ($!: process_targets.own_job)
    found = assigned(name)
    if found is not None:
        return found
    if line_set(name):
        return (("*",),)
    if name in _PATH_NAMES:
        return (("/",),)
    return (("E",),)


# commands whose output is a path the environment gives, whatever the line says: a new
# temporary name, a program found on PATH, the working directory. (dirname, realpath and
# readlink print a path made of their operands, chosen on the line: ``$(dirname "$PWD")``
# is the project's parent, red team s32 A; what a ``..`` after any of these reaches is
# maybe.past_parent's)
_PATH_OUTPUTS = frozenset(["mktemp", "pwd", "which"])


def value_token(piece: str) -> tuple[str, ...]:
    """What a command substitution gives, when that is known by the command: ``$(mktemp
    -d)`` a path, ``$(git rev-parse --show-toplevel)`` too, ``$(nproc)`` a number;
    anything else made on the line."""
    if piece.startswith("$(") and piece.endswith(")") and piece.count("$(") == 1:
        words = piece[2:-1].split()
        if words and words[0] in _PATH_OUTPUTS:
            return ("/",)
        if words[:3] == ["git", "rev-parse", "--show-toplevel"]:
            return ("/",)
        if words[:1] in (["nproc"], ["id"]) or words[:2] == ["date", "+%s"]:
            return ("D",)
        if words[:1] == ["git"] and _git_ref(words[1:]):
            return ("E",)  # a name git gives the line (the current branch): git's data
    return ("*",)


def _git_ref(words: list[str]) -> bool:
    """``git branch --show-current``, ``git rev-parse [--abbrev-ref|--short] HEAD``,
    ``git symbolic-ref --short HEAD``, ``git describe``: a ref or a commit name."""
    return (
        words == ["branch", "--show-current"]
        or (words[:1] == ["rev-parse"] and words[-1:] == ["HEAD"] and len(words) <= 3)
        or words == ["symbolic-ref", "--short", "HEAD"]
        or words[:1] == ["describe"]
    )


def _substitution_tokens(piece: str) -> Shape:
    """The tokens of a command substitution: ``$(realpath .env)`` is somewhere a file of
    that name (the path chosen on the line, not the environment's); else value_token."""
    named = resolved_name(piece)
    if named is not None:
        return (("*",), ("L", "/" + named.rstrip("/").rsplit("/", 1)[-1]))
    return (value_token(piece),)


def value_shape(parts: list[str], marks: tuple[tuple[int, int], ...]) -> Shape:
    """What the value of an assignment word (``tag=v$(jq ...)``) can be: its literal
    pieces and what its expansions give (never split: an assignment is one word)."""
    kinds = dict(marks)
    out: list[tuple[str, ...]] = []
    text = "".join(parts)
    skip = text.index("=") + 1 if "=" in text else 0
    seen = 0
    for index, piece in enumerate(parts):
        start, seen = seen, seen + len(piece)
        if seen <= skip:
            continue
        if start < skip:
            piece = piece[skip - start :]  # noqa: PLW2901 - the value part of the word
        if index in kinds:
            named = plain_name(piece)  # p=$PWD, p=$(pwd) (the parser reads it as $PWD)
            if named == "!":  # pid=$!: the line's own last job (process_targets.own_job)
                out.append(OWN_JOB)
                continue
            out.extend((("/",),) if named in _PATH_NAMES else _substitution_tokens(piece))
        elif piece:
            if out and out[-1][0] == "L":
                out[-1] = ("L", out[-1][1] + piece)
            else:
                out.append(("L", piece))
    return tuple(out) or (("L", ""),)


# ------------------------------------------------------------- recording and shapes


def record(script: Any, name: str, value: Value, certain: bool) -> None:
    """An assignment on the line (its value, or None for unknown), at the parser's place."""
    vars_ = script.vars
    if vars_ is None:
        vars_ = script.vars = Vars()
        vars_.home = script.home
    vars_.record(script.scope, name, value, certain, script.end)


def loop_hint(script: Any, name: str, words: list[tuple[str, bool]]) -> None:
    """``for f in *.txt a.txt``: each value ends with the literal tail all the list's
    words share (a pattern's tail after its last wildcard), so ``$f`` is any name ending
    so, never ``/dev/null``. A list with an expansion, or no common tail, gives no hint."""
    tails: list[str] = []
    for value, dynamic in words:
        if value in (";", "do", "\n") or not value:
            break
        if dynamic:
            return
        cut = max(value.rfind(c) for c in "*?]")
        tails.append(value[cut + 1 :])
    if not tails:
        return
    tail = tails[0]
    for other in tails[1:]:
        while tail and not other.endswith(tail):
            tail = tail[1:]
    if "/" in tail or not tail:
        return  # (a directory in the tail: keep it simple, any value)
    key = (script.scope, name)
    hint: Shape = (("*",), ("L", tail))
    hints = script.vars.hints
    hints[key] = hint if hints.get(key, hint) == hint else (("*",),)


MAX_CHOICES = 16  # words of a loop's list read one by one (loop_choices)
# characters of a list word that is not one name or one plain pattern (braces, tildes,
# expansions, extglob, quotes and escapes in its text)
_NOT_A_CHOICE = frozenset("{}~$`()<>|&;\\'\" \t\n")


def loop_choices(script: Any, name: str, words: list[Any]) -> None:
    """``for f in src/*.py a.txt``: ``"$f"`` is one of the list's words, each a name or the
    files a pattern matches (choice_words). Only a list of plain words and unquoted
    patterns, at most MAX_CHOICES of them; anything else gives no choices."""
    found: list[tuple[str, bool]] = []
    for word in words:
        value = word.value
        if not word.quoted and value in (";", "do", "\n"):
            break
        pattern = any(c in value for c in "*?[")
        if word.dynamic or not value or _NOT_A_CHOICE.intersection(value):
            return
        if word.quoted and pattern:
            return  # (a quoted pattern is a literal name; partly quoted cannot be told)
        found.append((value, pattern))
    if found and len(found) <= MAX_CHOICES:
        script.vars.choices[(script.scope, name)] = tuple(found)


def positional_choices(script: Any, name: str, anchor: int) -> None:
    """``for f do`` (and ``for f;``: no ``in`` list) walks ``"$@"``: when the line's own
    ``set --`` made the parameters known (second pass), ``"$f"`` is one of those words, as
    loop_choices reads a list; a word that may be a pattern (bash expanded it before
    ``set`` got it) or a parameter known only when it runs gives no choices."""
    vars_ = script.vars
    if vars_ is None or vars_.table is None:
        return
    values, known = vars_.lookup(script.scope, "@", anchor)
    if not known and script.positional is not None:
        values, known = list(script.positional), True
    if not known or not isinstance(values, list) or not values or len(values) > MAX_CHOICES:
        return
    if any(not v or _NOT_A_CHOICE.intersection(v) or any(c in v for c in "*?[") for v in values):
        return
    vars_.choices[(script.scope, name)] = tuple((v, False) for v in values)


def choice_words(word: Any, script: Any) -> tuple[tuple[str, bool], ...] | None:
    """The words ``word`` stands for when it is ``"$f"`` in a literal frame (``"$f.orig"``;
    quoted: one field, no second glob) for a loop's variable nothing else on the line
    assigns (not a ``read``, not another loop, not a scope where any name may be
    assigned): its loop's choices."""
    vars_ = script.vars
    if vars_ is None or vars_.table is None or not vars_.choices:
        return None  # (the second pass only: every assignment of the line is recorded)
    if word.parts is None or len(word.marks) != 1:
        return None
    at, how = word.marks[0]
    head, tail = "".join(word.parts[:at]), "".join(word.parts[at + 1 :])
    if how != 2 or any(c in head + tail for c in "*?[]{}~"):
        return None  # ("$f.orig", out/"$f": a literal frame; a pattern in it is not read)
    piece = word.parts[at]
    name, rest = plain_name(piece), ""  # ($f or ${f}: a name, no operator, no subscript)
    if name is None and piece.startswith("${"):
        name, rest = _name_and_rest(piece[2:-1])  # "${f%.txt}.md"
    parent = name is None and _dirname_operand(piece) is not None
    if parent:  # "$(dirname "$f")/x": the directory of each choice (red team s32 friction)
        name = _dirname_operand(piece)
    if name is None or not name.isidentifier():
        return None
    if script.scope in vars_.wildcard or sum(r[1] == name for r in vars_.records) != 1:
        return None
    found: tuple[tuple[str, bool], ...] | None = vars_.choices.get((script.scope, name))
    if found is None or not (head or tail or rest or parent):
        return found
    out: list[tuple[str, bool]] = []
    for value, pattern in found:
        cut = _cut_affix(value, pattern, rest) if rest else value
        if parent:
            cut = dirname(value, pattern)
        if cut is None:
            return None
        out.append((head + cut + tail, pattern))
    return tuple(out)


def _dirname_operand(piece: str) -> str | None:
    """The variable of ``$(dirname "$f")`` (``-- "${f}"``, ``$f``): one name's directory;
    None for anything else."""
    if not (piece.startswith("$(") and piece.endswith(")")):
        return None
    words = piece[2:-1].split()
    if words[:1] != ["dirname"] or len(words) not in (2, 3):
        return None
    if len(words) == 3 and words[1] != "--":
        return None
    operand = words[-1]
    if operand[:1] == '"' and operand[-1:] == '"' and len(operand) > 1:
        operand = operand[1:-1]
    if operand.startswith("${") and operand.endswith("}"):
        operand = "$" + operand[2:-1]
    name = operand[1:] if operand[:1] == "$" else ""
    return name if name.isidentifier() else None


def dirname(value: str, pattern: bool) -> str | None:
    """What ``dirname`` prints for ``value`` (a name, or a pattern whose names it stands
    for share that directory: a wildcard never matches ``/``); None: a bracket in the
    pattern (its ``/`` would be read otherwise)."""
    if pattern and "[" in value:
        return None
    trimmed = value.rstrip("/")
    if not trimmed:
        return "/" if value else "."
    if "/" not in trimmed:
        return "."
    return trimmed[: trimmed.rindex("/")].rstrip("/") or "/"


# what a literal name may not hold for printed_name (a quote, an expansion, a pattern, an
# option, a word break): the name must be the one bash passes
_NOT_PLAIN = frozenset("$`'\"\\*?[]{}~<>|;&() \t\n")
_PRINTERS = ("dirname", "basename")


def printed_name_line(text: str) -> bool:
    """Whether ``$(dirname F)``/``$(basename F)`` on this line run those programs: their
    names stand nowhere else (no function, alias, ``hash -p`` or written file of that
    name) and nothing sets PATH, so the output is the operand's (printed_name)."""
    if "PATH" in text:
        return False
    return any(f"$({name} " in text for name in _PRINTERS) and all(
        text.count(name) == text.count(f"$({name} ") for name in _PRINTERS
    )


def printed_name(piece: str) -> str | None:
    """What ``$(dirname src/app.py)`` (``src``) or ``$(basename src/app.py)`` (``app.py``)
    prints, for one literal operand (None: anything else)."""
    if not (piece.startswith("$(") and piece.endswith(")")):
        return None
    words = piece[2:-1].split(" ")
    if len(words) != 2 or words[0] not in _PRINTERS:
        return None
    operand = words[1]
    if not operand or operand[0] == "-" or not _NOT_PLAIN.isdisjoint(operand):
        return None
    if words[0] == "dirname":
        return dirname(operand, False)
    trimmed = operand.rstrip("/")
    return trimmed.rsplit("/", 1)[-1] if trimmed else "/"


def _cut_affix(value: str, pattern: bool, rest: str) -> str | None:
    """``${f%.txt}`` of a loop's choice: of a name, as bash cuts it; of a pattern, only a
    literal affix it spells out (``*.txt`` less ``.txt`` is ``*``); else None."""
    if not pattern:
        return pattern_operator(value, rest) if rest[:1] in ("#", "%") else None
    affix = rest.lstrip(rest[:1]) if rest[:1] in ("#", "%") else ""
    if not affix or any(c in affix for c in "*?[]\\$`'\""):
        return None
    if rest[0] == "%" and value.endswith(affix) and not _globbed_tail(value, affix):
        return value[: -len(affix)]
    if rest[0] == "#" and value.startswith(affix) and not any(c in affix for c in "*?["):
        return value[len(affix) :]
    return None


def _globbed_tail(value: str, affix: str) -> bool:
    """Whether a ``]`` of a bracket class ends just before ``affix`` (``*[.]txt``: the
    literal tail is shorter than it looks)."""
    return "]" in value[-len(affix) :] or "[" in value[-len(affix) :]


def array_patterns(script: Any, name: str, elements: list[Any]) -> None:
    """``f=(src/*.py)``: bash expands an unquoted pattern among the elements, so the
    array's values stand for those files (resolve keeps them patterns, even quoted)."""
    if script.vars is not None and any(e.glob or (not e.quoted and any(c in e.value for c in "*?["))
                                       for e in elements):  # fmt: skip
        script.vars.patterns.add(name)


def _expands_pattern(word: Any, vars_: Vars) -> bool:
    """Whether ``word`` expands an array whose values are patterns (array_patterns)."""
    for at, _how in word.marks:
        piece = word.parts[at]
        name = piece[2:-1] if piece.startswith("${") else piece[1:]
        if name.lstrip("!#").partition("[")[0] in vars_.patterns:
            return True
    return False


def record_word(word: Any, script: Any, certain: bool) -> None:
    """An assignment word (``x=1``, ``a=(x y)``, ``x+=y``, ``tag=v$(jq ...)``)."""
    name, _, value = word.value.partition("=")
    if name.endswith("+"):  # x+=y: appends to a value, known here or not
        record(script, name[:-1], None, False)
        script.vars.hints[(script.scope, name[:-1])] = (("*",),)  # (what it was, and more)
        return
    if word.array is not None:
        # an element `[i]=v` sets index i (`a=([0]=-rf)`): not read here, so unknown
        keyed = any(e.value[:1] == "[" and "]=" in e.value for e in word.array)
        items = (
            None if keyed or any(e.dynamic for e in word.array) else [e.value for e in word.array]
        )
        array_patterns(script, name, word.array)
        record(script, name, items, certain)
        return
    known = value if not word.dynamic else _home_value(word, script)
    record(script, name, known, certain)
    if known is None and word.parts is not None:
        hint = value_shape(word.parts, word.marks)
    else:
        hint = (("*",),)
    if not certain and OWN_JOB in hint:
        hint = (("*",),)  # (pid=$! & ...: set in a job of its own, or maybe not at all)
    key = (script.scope, name)
    hints = script.vars.hints
    hints[key] = hint if hints.get(key, hint) == hint else (("*",),)


_RESOLVERS = frozenset(["realpath", "readlink", "grealpath", "greadlink"])


def resolved_name(word: str) -> str | None:
    """The file ``$(realpath F)`` or ``$(readlink -f F)`` prints: F itself, made absolute
    (its link resolved by the rules' own link check), when F is a literal name."""
    words = word[2:-1].split()
    if len(words) < 2 or words[0] not in _RESOLVERS or "$(" in word[2:]:
        return None
    operands = [w for w in words[1:] if not w.startswith("-")]
    if len(operands) != 1 or any(c in operands[0] for c in "$`'\"*?[\\"):
        return None
    return operands[0]


def _home_value(word: Any, script: Any) -> str | None:
    """The value of ``d=$HOME/.aws`` when HOME is the environment's, known to the hook and
    set nowhere on the line so far, or of ``p=$(realpath ~/.netrc)`` (None: another
    expansion, or HOME unknown)."""
    vars_ = script.vars
    if not script.home or word.parts is None or (vars_ is not None and vars_.wildcard):
        return None
    if vars_ is not None and any(r[1] == "HOME" for r in vars_.records):
        return None
    marked = dict(word.marks)
    pieces = []
    for index, piece in enumerate(word.parts):
        if index not in marked:
            pieces.append(piece)
        elif piece in ("$HOME", "${HOME}"):
            pieces.append(script.home)
        else:  # p=$(realpath ~/.netrc): the file, absolute (its link is the rules' to read)
            name = resolved_name(piece) if len(marked) == 1 else None
            if name is not None and (name == "~" or name.startswith("~/")):
                name = script.home + name[1:]
            if name is None or not name.startswith("/"):
                return None
            pieces.append(name)
    return "".join(pieces).partition("=")[2]


def moved(script: Any) -> None:
    """A ``cd``/``pushd``/``popd`` on the line: ``$PWD``, ``$OLDPWD``, ``$DIRSTACK`` (``~+``,
    ``~-``, ``~N``)
    are then directories the line chose, known only when it runs (red team s29 D: ``cd
    ~/.aws; cd -; cat ~-/credentials``): a path under them is any file there."""
    # (and the directory stack: ~1, ${DIRSTACK[1]} after pushd; red team s30 J)
    for name in ("PWD", "OLDPWD", "DIRSTACK"):
        record(script, name, None, False)
        script.vars.hints[(script.scope, name)] = (("C",),)


def default_assignment(body: str, script: Any) -> None:
    """``${x:=v}`` assigns x when it is unset: x is no longer one known value."""
    name = body.lstrip("!#")
    end = 0
    while end < len(name) and (name[end].isalnum() or name[end] == "_"):
        end += 1
    if end and (name[end : end + 2] == ":=" or name[end : end + 1] == "="):
        record(script, name[:end], None, False)


def shapes(words: list[Any], script: Any) -> dict[int, Shape] | None:
    """What each word known only when it runs can be (:func:`shape`), by its index."""
    from hookwise.shell.programs import XARGS_INPUT

    found: dict[int, Shape] | None = None
    vars_ = script.vars
    scope = script.scope
    made_here = script.positional is not None or script.deferred or vars_ is not None

    def assigned(name: str) -> Shape | None:
        if name.isdigit() or name in ("@", "*", "#"):
            # a function's arguments, or the line's own set --: made on the line
            return (("*",),) if made_here else None
        return vars_.token(scope, name) if vars_ is not None else None

    def token(piece: str) -> Shape:
        return piece_token(piece, assigned)

    for index, word in enumerate(words):
        if not word.dynamic:
            continue
        if found is None:
            found = {}
        if word.parts is not None and word.marks:
            found[index] = shape(word.parts, word.marks, token)
        elif word.value.startswith(("<(", ">(")):
            found[index] = (("/",),)  # a process substitution is a /dev/fd/N path
        elif word.value == XARGS_INPUT:
            found[index] = (("E",),)  # what xargs reads: data, not words chosen on the line
        else:
            found[index] = (("S",), ("*",))  # a word a one-liner computes: any words
    return found


def past_parent(shape: Shape, pattern: bool = False) -> Shape | None:
    """A shape whose ``..`` leaves a part known only when it runs (``$(pwd)/../home``,
    ``$(mktemp -d)/..``, ``${DIRSTACK[1]}/..``, ``$(git rev-parse --show-cdup)../x``: red
    team s32 A, C), or may (a made part then a literal starting ``.`` or ``/``: that part
    may end in ``.`` or be ``..``, red team s33 A): that part's parent is no directory of
    the environment's, it is any directory; the shape from there on is any text then what
    follows the last ``..`` (None: no ``..`` after an unknown part). A pattern's wildcards
    there are any text, and so is a value of the environment's: the line steers the path
    now."""
    unknown = False
    made = False  # the part just before is made on the line: it may end in ``.`` or ``..``
    cut: tuple[int, list[str], int] | None = None
    for index, token in enumerate(shape):
        if token[0] == "S":
            continue
        if token[0] != "L":
            unknown = True
            made = token[0] == "*"
            continue
        names = token[1].split("/")
        if made and names[0] in ("", "."):
            # ``$(echo .)./home``, ``$(echo ..)/home``: the made part's end and the
            # literal's first name meet only when the line runs (red team s33 A)
            names = ["..", *names[1:]]
        made = False
        if unknown and ".." in names:  # (its first name runs on from the unknown part)
            cut = (index, names, len(names) - 1 - names[::-1].index(".."))
    if cut is None:
        return None
    index, names, last = cut
    rest = "/".join(n for n in names[last + 1 :])
    out: list[tuple[str, ...]] = [("*",)]
    tail = [("L", "/" + rest)] if rest else []
    for token in [*tail, *shape[index + 1 :]]:
        if token[0] == "L" and pattern and any(c in token[1] for c in "*?["):
            from hookwise.shell.commands.glob_frame import frame

            for piece in frame(token[1]):
                if piece != ("*",) or out[-1] != ("*",):
                    out.append(piece)
        elif token[0] in ("/", "E"):  # ($(dirname X)/../..$HOME: text in a path now)
            if out[-1] != ("*",):
                out.append(("*",))
        elif token[0] != "S":
            out.append(token)
    return tuple(out)


def made_on_line(found: Shape | None) -> bool:
    """Whether a word of this shape holds a part the line computes when it runs (a
    program's output, ``$(rev <<< ...)``): any text at all, ``..`` and ``/`` included
    (not the environment's value, a number, or a path such as ``$(mktemp)`` gives)."""
    return found is not None and any(item[0] in ("*", "S") for item in found)


def made_word(cmd: Any, word: str) -> bool:
    """Whether ``word`` (an operand, or an option's value: ``dd of=$(...)``,
    ``--env-file="$(echo .)env"``) is one the line computes when it runs (made_on_line)."""
    if cmd.shapes is None:
        return False
    return any(
        full.endswith(word) and made_on_line(cmd.shapes.get(index))
        for index, full in enumerate(cmd.argv)
        if index and cmd.dynamic[index]
    )


def _assigns(word: Any) -> bool:
    """An assignment word (``x=...``): its value is not expanded into words here."""
    if word.expanded:
        return False
    name, eq, _ = word.value.partition("=")
    return bool(eq) and name.rstrip("+").isidentifier()


def resolve(words: list[Any], script: Any, word_type: Any) -> list[Any]:
    """The words with the values known at their place on the line (second pass)."""
    out: list[Any] = []
    for word in words:
        if word.parts is None or not word.marks or _assigns(word):
            out.append(word)
            continue
        anchor = script.anchor if script.anchor is not None else word.start
        resolver = Resolver(script.vars, script.scope, anchor, script.positional)
        fields = expand_word(word.parts, word.marks, resolver)
        if fields is None:
            out.append(word)
            continue
        bare = any(how == 1 for _at, how in word.marks)
        patterned = bool(script.vars.patterns) and _expands_pattern(word, script.vars)
        for field in fields:
            made = word_type(field, False, True, word.start, word.end)
            made.expanded = True
            # h=~; cat $h/.aws/*: the word's own pattern, or an unquoted value's, is one
            # bash expands after the values (red team s30 D)
            # (f=(*); cat "${f[@]}": the array's values are the pattern's files, quoted
            # or not)
            if word.glob or ((bare or patterned) and any(c in field for c in "*?[")):
                made.glob = True
                made.quoted = False
            out.append(made)
    return out
