"""What ``xargs`` runs: its replace string (``-I {}``) and the operands it reads from its
input, when they are known here (a static ``echo``, a ``find`` selection, a here-string).

Cold: needed only for a command run by ``xargs``. It must not import the shell parser (the
parser imports it, and the policy layer has no import cycles, not even lazy ones), so the
parser's word type comes in as a constructor and the commands as what they hold.
"""

from __future__ import annotations

from hookwise.shell.programs import XARGS_INPUT

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, Protocol, TypeVar

    class _Word(Protocol):
        value: str
        dynamic: bool
        quoted: bool
        glob: bool
        start: int
        end: int

    class _Piped(Protocol):
        """The command whose output xargs reads (a hookwise.shell.parser.Command)."""

        program: str
        argv: list[str]
        dynamic: list[bool]
        globs: frozenset[int]

        @property
        def piped_from(self) -> _Piped | None: ...

    W = TypeVar("W", bound=_Word)


# programs that print file names under their operands (. without one), and whether they
# walk the tree; filters between them and the reader keep names names (grep, head, sort:
# they choose among the lines, never change one); cut, tr, sed, awk, rev rewrite them
# (red team s29 B: find . -name '*.example' | sed 's/.example//' names .env), and what
# they give is then names known only when it runs
_LISTERS = {"ls": False, "du": True, "tree": True, "fd": True, "fdfind": True}
_SEARCHERS = frozenset(["rg", "grep", "egrep", "fgrep", "ag", "ack"])  # with -l / --files
_FILTERS = frozenset(
    ["grep", "egrep", "fgrep", "head", "tail", "sort", "uniq", "shuf", "tac", "cat"]
)  # fmt: skip


# programs that print files' contents as they are: `cat list | xargs` is `xargs < list`
_CONTENT = frozenset(["cat", "tac"])


def listed(piped_from: _Piped | None) -> list[str] | None:
    """The files a pipeline names to its reader, when a lister starts it (``find``, ``ls``,
    ``du -a``, ``tree -fi``, ``fd``, ``rg --files``, ``grep -rl``; through filters): its
    selection under its operands, as globs (``du -a ~/.ssh | cut -f2`` names
    ``~/.ssh/**``). None when the names come from anything else."""
    source = piped_from
    for _ in range(16):
        if source is None:
            return None
        program = source.program
        argv = source.argv
        if program == "find":
            if _rewrites_names(argv):
                return None  # find -printf '%h/../.env': names it makes (red team s30 V)
            from hookwise.shell.find_exec import find_selection

            return find_selection(argv)
        operands = [w for w in argv[1:] if not w.startswith("-")]
        options = [w for w in argv[1:] if w.startswith("-")]
        if program == "git" and _git_lists(operands, options):
            # git ls-files -oi: the untracked and ignored files (a .env) under the tree,
            # or under its pathspecs (which match at any depth)
            specs = [w for w in operands[1:] if w != "--"]
            return [f for w in specs for f in (w, "**/" + w)] if specs else ["./**"]
        if program in _LISTERS or (
            program in _SEARCHERS
            and any(o in ("--files", "-l", "--files-with-matches") or (o[:2] != "--" and "l" in o)
                    for o in options)
        ):  # fmt: skip
            if program in _SEARCHERS and "--files" not in options:
                operands = operands[1:]  # the pattern
            elif program in ("fd", "fdfind"):
                operands = operands[1:]  # the pattern; the paths follow
            walks = _LISTERS.get(program, True) or any("R" in o for o in options)
            if program == "ls" and not walks:
                hidden = any("a" in o or "A" in o for o in options if o[:2] != "--")
                # a file as named; a directory's entries, as bare names
                return [*operands, "*", *([".*"] if hidden else [])]
            tail = "/**" if walks else "/*"
            return [f for w in operands or ["."] for f in (w, w.rstrip("/") + tail)]
        if program not in _FILTERS:
            return None
        source = source.piped_from
    return None


def _rewrites_names(argv: list[str]) -> bool:
    """Whether find prints something else than the paths it finds (``-printf``/``-fprintf``
    formats, ``-ls``): what it gives a reader is then made when it runs."""
    return any(w.startswith(("-printf", "-fprintf", "-ls", "-fls")) for w in argv[1:])


def find_walk(piped_from: _Piped | None) -> list[str] | None:
    """find's words when the names a reader takes from its input come from ``find``
    (through filters that keep names): the reader reads what find walks, hidden names
    and all depths, as ``find -exec READER {} +`` does (canonical's walked trees); None
    otherwise."""
    source = piped_from
    for _ in range(16):
        if source is None:
            return None
        if source.program == "find":
            return None if _rewrites_names(source.argv) else list(source.argv)
        if source.program not in _FILTERS:
            return None
        source = source.piped_from
    return None


# git subcommands that print the names of files git does not track, ignored ones (a
# .env) among them, with these flags: ls-files -o/-i, status --ignored, clean -n -x.
# Tracked files' names (ls-files, diff --name-only) are the repository's own content
_GIT_LISTERS = {"ls-files": "oi", "status": "", "clean": "xX"}
_GIT_LONG = frozenset(["--others", "--ignored", "--ignored=matching", "--ignored=traditional"])


def tracked_names(piped_from: _Piped | None) -> bool:
    """Whether the names come from git's list of what it tracks (``git ls-files``,
    ``git diff --name-only``, its branches and tags, through filters): the repository's
    own names, which a program may read as ``git archive`` does (not untracked or
    ignored files: -o)."""
    source = piped_from
    for _ in range(16):
        if source is None:
            return False
        operands = [w for w in source.argv[1:] if not w.startswith("-")]
        options = [w for w in source.argv[1:] if w.startswith("-")]
        if source.program == "git":
            if operands[:1] == ["ls-files"]:
                return not _git_lists(operands, options)
            if operands[:1] in (["branch"], ["tag"]):
                # its list of branches or tags: ref names, which never start with "-"
                return len(operands) == 1 or bool(_GIT_REF_LISTS.intersection(options))
            return operands[:1] == ["diff"] and any(
                o in ("--name-only", "--name-status") for o in options
            )
        if source.program not in _FILTERS:
            return False
        source = source.piped_from
    return False


# git branch / git tag options that make the command list refs (its operands then filter)
_GIT_REF_LISTS = frozenset(
    ["-l", "--list", "--merged", "--no-merged", "--contains", "--no-contains", "--points-at",
     "-a", "--all", "-r", "--remotes"]
)  # fmt: skip


def _git_lists(operands: list[str], options: list[str]) -> bool:
    """Whether a git command prints the names of files it does not track (xargs reads
    them): ``git ls-files -oi --exclude-standard | xargs cat`` prints the ignored .env."""
    letters = _GIT_LISTERS.get(operands[0]) if operands else None
    if letters is None:
        return False
    return any(
        o in _GIT_LONG or (o[:2] != "--" and any(x in o[1:] for x in letters)) for o in options
    )


# git subcommands that read paths from their input: the files they read into the object
# store (a later cat-file or diff prints them)
_GIT_STDIN_PATHS = {"hash-object": "--stdin-paths", "update-index": "--stdin",
                    "checkout-index": "--stdin"}  # fmt: skip
_LIST_OPTIONS = ("--files0-from", "--files-from", "--pathspec-from-file")


def name_input(command: _Piped) -> str | None:
    """Where a program takes the names of the files it reads (red team s27 I): ``-`` for
    its input (``cpio -o``, ``zip -@``, ``sort --files0-from=-``, ``git hash-object
    --stdin-paths``, ``git update-index --stdin``, ``tar -T -``), a list file's word
    (``--files0-from=<(...)``, ``--pathspec-from-file=F``), or None: it takes none."""
    argv = command.argv
    program = command.program
    if program in ("cpio", "zip", "rsync", "pax", "afio", "tar", "bsdtar"):
        joined = f" {' '.join(argv[1:])} "
        if names_read_takes(program, argv, joined):
            return "-"
    if program == "git":
        from hookwise.shell.programs import git_subcommand

        at = git_subcommand(argv)
        flag = _GIT_STDIN_PATHS.get(argv[at] if at > 0 else "")
        if flag is not None and flag in argv[at:]:
            return "-"
    for index, word in enumerate(argv[1:], start=1):
        name, eq, value = word.partition("=")
        if name in _LIST_OPTIONS or (name == "-T" and program in ("tar", "bsdtar")):
            if not eq:
                value = argv[index + 1] if index + 1 < len(argv) else ""
            return "-" if value in ("-", "/dev/stdin", "/dev/fd/0") else value
    return None


def names_read_takes(program: str, argv: list[str], joined: str) -> bool:
    """Whether an archiver's options make it take file names on its input."""
    takes = {
        "cpio": any(w in ("-o", "--create") or (w[:2] != "--" and w[:1] == "-" and "o" in w)
                    for w in argv[1:]),
        "zip": "-@" in argv,
        "rsync": "--files-from=-" in argv or "--files-from=/dev/stdin" in argv,
        "pax": "-w" in argv,
        "afio": "-o" in argv,
    }.get(program)  # fmt: skip
    if takes is None:  # tar, bsdtar: -T - / --files-from=- / -T/dev/stdin
        takes = any(
            s in joined
            for s in (" -T - ", " -T- ", " --files-from=- ", " --files-from - ", "/dev/stdin")
        )
    return takes


def xargs_replace(options: list[str]) -> str | None:
    """The replace string of ``xargs -I R`` / ``-i[R]`` / ``--replace[=R]`` (None: none)."""
    for index, word in enumerate(options[1:], start=1):
        if word == "-I" and index + 1 < len(options):
            return options[index + 1]
        if word.startswith("-I") and len(word) > 2:
            return word[2:]
        if word in ("-i", "--replace"):
            return "{}"
        if word.startswith("--replace="):
            return word.split("=", 1)[1] or "{}"
        if word.startswith("-i") and len(word) > 2 and not word[2:].isdigit():
            return word[2:]
    return None


def _delimiter(options: list[str]) -> str | None:
    """The item delimiter of ``xargs -0`` / ``--null`` / ``-d X`` / ``--delimiter=X`` (None:
    blanks and newlines, with quotes; ``"?"``: a delimiter not read here)."""
    found: str | None = None
    words = iter(options[1:])
    for word in words:
        if word == "--null":
            found = "\0"
        elif word in ("-d", "--delimiter"):
            found = _escaped(next(words, ""))
        elif word.startswith("--delimiter="):
            found = _escaped(word.split("=", 1)[1])
        elif word[:1] == "-" and word[1:2] not in ("-", ""):
            for at, letter in enumerate(word[1:], start=2):
                if letter == "0":
                    found = "\0"
                elif letter == "d":
                    found = _escaped(word[at:] or next(words, ""))
                    break
                elif letter in _VALUED:  # the rest of the word (or the next) is its value
                    if at == len(word) and letter in "aEILnPs":
                        next(words, "")
                    break
    return found


# xargs's short options that take a value (e, i, l: only attached)
_VALUED = frozenset("aEILnPseil")


def _escaped(text: str) -> str:
    """``-d``'s argument: one character or a C escape (``\\n``, ``\\0``, ``\\t``)."""
    if len(text) == 1:
        return text
    return {"\\n": "\n", "\\t": "\t", "\\0": "\0", "\\\\": "\\"}.get(text, "?")


def _blank_split(text: str, separators: str = " \t\n\v\f\r") -> list[str]:
    """xargs's default reading: white space (C's isspace: \\v, \\f and \\r too) separates
    items (with ``-I``, newlines only); quotes group, a backslash escapes; at an unmatched
    quote xargs stops, with the items before it run."""
    items: list[str] = []
    current: list[str] = []
    started = False
    quote = ""
    i = 0
    while i < len(text):
        ch = text[i]
        if quote:
            if ch == quote:
                quote = ""
            elif ch == "\n":
                return items  # xargs stops at the unmatched quote, having run these
            else:
                current.append(ch)
        elif ch in "'\"":
            quote, started = ch, True
        elif ch == "\\":
            i += 1
            if i < len(text):  # (a backslash at the end escapes nothing: dropped)
                current.append(text[i])
                started = True
        elif ch in separators:
            if started:
                items.append("".join(current))
            current, started = [], False
        else:
            current.append(ch)
            started = True
        i += 1
    if quote:
        return items
    if started:
        items.append("".join(current))
    return items


def _logical_lines_stripped(text: str) -> str:
    """``text`` with the leading blanks of each line dropped, as ``xargs -I`` does, except
    on a line that continues one ending in an escaping backslash (its blanks are kept)."""
    out: list[str] = []
    continued = False
    for line in text.split("\n"):
        out.append(line if continued else line.lstrip(" \t"))
        trailing = len(line) - len(line.rstrip("\\"))
        continued = trailing % 2 == 1
    return "\n".join(out)


def input_items(text: str, options: list[str]) -> list[str] | None:
    """The items xargs reads from ``text``, as it reads them: split at the delimiter of
    ``-0``/``-d``; with ``-I`` one per line (leading blanks dropped); else blanks with
    quotes. None when it is not read here (then the operand is unknown)."""
    delimiter = _delimiter(options)
    if delimiter == "?":
        return None
    if delimiter is not None:
        items = text.split(delimiter)
        items = items[:-1] if items and items[-1] == "" else items
        # an argument is a C string: a NUL in an item (not the delimiter) ends it
        return [item.split("\0", 1)[0] for item in items]
    if xargs_replace(options) is not None:
        return _blank_split(_logical_lines_stripped(text), "\n")
    return _blank_split(text)


def xargs_operands(
    words: list[W],
    options: list[str],
    piped_from: _Piped | None,
    stdin: list[str],
    word: Callable[[str, bool, bool, int, int], W],
    *,
    printed: Callable[[Any], str | None],
) -> list[W]:
    """The command ``xargs`` runs with the operands it reads: what a command whose output
    is known prints (``printf '%s\\0' .env | xargs -0 cat``: ``printed``, the parser's
    static output), a ``find`` selection piped in, or a here-string, read as xargs reads
    items; else an operand known only when it runs (a path that resolves nowhere, so an
    `outside the workspace` rule holds). ``word(value, dynamic, quoted, start, end)``
    makes one of the parser's words."""
    if not words:
        return words
    replace = xargs_replace(options)
    items: list[str] | None = None
    globs = computed = False
    from_file = any(
        o in ("-a", "--arg-file") or o.startswith(("--arg-file=", "-a")) for o in options
    )
    if stdin:
        text = "".join(stdin)
        # a here-string or here-document with expansions (`<<< "${a[*]}"`): its words are
        # made when it runs
        items = None if ("$" in text or "`" in text) else input_items(text, options)
        computed = items is None
    elif piped_from is not None and not from_file and piped_from.program in _CONTENT:
        computed = True  # cat list | xargs rm: what the list holds when it runs, as `< list`
    elif piped_from is not None and not from_file:
        output = printed(piped_from)
        if output is not None:
            items = input_items(output, options)
            # printf '%s\n' .[e]* prints what the pattern matches when it runs (s30 I)
            globs = bool(piped_from.globs)
        else:
            items = listed(piped_from)
            globs = items is not None  # a lister's selection: patterns, not literal names
            # any other producer's output (``echo vne. | rev``, ``base64 -d``, a tool's) is
            # words made when it runs, as `xargs -a <(...)` reads (red team s28 B); git's
            # list of what it tracks is the repository's own names
            computed = items is None and not tracked_names(piped_from)
    known = items is not None
    if (from_file and not stdin) or computed:
        # xargs -a FILE: its words are whatever FILE holds when it runs (written on the
        # line or not), flags included: any words
        known, items = False, None
        text = "${computed}"
    else:
        text = XARGS_INPUT
    if replace is not None:
        out: list[W] = []
        for w in words:
            if replace not in w.value:
                out.append(w)
            elif known:  # one run per item: the word with each (all of them, for the rules)
                for item in items or []:
                    made = word(w.value.replace(replace, item), w.dynamic, w.quoted, w.start,
                                w.end)  # fmt: skip
                    # printf '%s\n' ~/.n* | xargs -I{} cat {}: the item is what the pattern
                    # matches, as without -I (red team s32 E)
                    made.glob = globs and any(c in item for c in "*?[")
                    out.append(made)
            else:
                out.append(word(w.value.replace(replace, text), True, w.quoted, w.start, w.end))
        return out
    extra = [word(item, False, not globs, 0, 0) for item in items or []] if known else []
    for made in extra:
        made.glob = globs and any(c in made.value for c in "*?[")
    if not known:
        extra = [word(text, True, True, 0, 0)]
    return [*words, *extra]
