"""Whether a word known only when it runs could make a rule match.

``rm $f x`` with ``f`` from the environment, ``git push origin "$B"``, ``cat "$f"``: the
rule's flag, argument or file could be that word. Such a command is unverifiable *for
that rule* (the engine answers ``settings.unverifiable``, ask by default), and only for
it: ``echo $x`` or ``git push origin HEAD:$B`` (a ``+`` cannot start that word) is not.

A word's shape (hookwise.shell.variables.shape) is what bash can make of it: literal
pieces, anything (``*``), a number, and whether it may split into several words. A rule's
glob and a shape overlap when some string matches both (:func:`overlap`, a product of the
two patterns over a small alphabet made of their own characters).

Cold: imported only for a command with such a word. Standard library only.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from hookwise.shell.parser import Command

    Atom = tuple[Callable[[str], bool], str]  # (predicate, "one" | "star" | "opt")

_SENTINEL = "\x00"  # an unknown word, as the option reader sees it (a positional)
_OTHER = "\x01"


def sentinel(index: int) -> str:
    return f"{_SENTINEL}{index}"


def sentinel_index(word: str) -> int | None:
    return int(word[1:]) if word.startswith(_SENTINEL) else None


# ------------------------------------------------------------------------------ overlap


def _glob_atoms(compiled: Any) -> list[list[Atom]]:
    """Each alternative of a compiled glob (globs.py) as atoms."""
    if isinstance(compiled, str):
        return [[(_char(ch), "one") for ch in compiled]]
    out: list[list[Atom]] = []
    for alternative in compiled:
        # ``**/`` is no directory at all, or some ending in ``/`` (not a name run into
        # the next: ``**/.env`` never matches ``x.env``)
        variants: list[list[Atom]] = [[]]
        for token in alternative:
            kind = token[0]
            if kind == "**/" and len(variants) < 16:
                deeper: list[Atom] = [(_any, "star"), (_char("/"), "one")]
                variants = variants + [[*v, *deeper] for v in variants]
                continue
            atoms: list[Atom] = []
            if kind == "L":
                atoms = [(_char(ch), "one") for ch in str(token[1])]
            elif kind == "?":
                atoms = [(_not_slash, "one")]
            elif kind == "*":
                atoms = [(_not_slash, "star")]
            elif kind in ("**", "**/"):
                atoms = [(_any, "star")]
            elif kind == "C":
                atoms = [(_class(token), "one")]
            variants = [[*v, *atoms] for v in variants]
        out += variants
    return out


def _shape_atoms(shape: tuple[tuple[str, ...], ...]) -> list[Atom]:
    atoms: list[Atom] = []
    for token in shape:
        kind = token[0]
        if kind == "L":
            atoms += [(_char(ch), "one") for ch in token[1]]
        elif kind == "D":
            atoms += [(_char("-"), "opt"), (_digit, "one"), (_digit, "star")]
        elif kind in ("*", "/"):
            atoms.append((_any, "star"))
        elif kind == "N":  # text within one name (an environment's value glued to it)
            atoms.append((_not_slash, "star"))
    return atoms


def _char(ch: str) -> Callable[[str], bool]:
    return lambda c: c == ch


def _any(c: str) -> bool:
    return True


def _not_slash(c: str) -> bool:
    return c != "/"


def _digit(c: str) -> bool:
    return c.isdigit()


def _class(token: tuple[Any, ...]) -> Callable[[str], bool]:
    _, negated, chars, ranges = token

    def matches(c: str) -> bool:
        hit = c in chars or any(lo <= c <= hi for lo, hi in ranges)
        return c != "/" and hit != negated

    return matches


def _alphabet(*texts: str) -> list[str]:
    return sorted(set("".join(texts)) | {"/", "-", "0", "a", "+", ".", _OTHER})


def _glob_chars(compiled: Any) -> str:
    if isinstance(compiled, str):
        return compiled
    found: list[str] = []
    for alternative in compiled:
        for token in alternative:
            if token[0] == "L":
                found.append(str(token[1]))
            elif token[0] == "C":
                found.append(str(token[2]))
                found += [lo + hi for lo, hi in token[3]]
    return "".join(found)


def _intersect(a: list[Atom], b: list[Atom], alphabet: list[str]) -> bool:
    seen: set[tuple[int, int]] = set()
    todo = [(0, 0)]
    while todo:
        i, j = todo.pop()
        if (i, j) in seen:
            continue
        seen.add((i, j))
        if i == len(a) and j == len(b):
            return True
        if i < len(a) and a[i][1] in ("star", "opt"):
            todo.append((i + 1, j))
        if j < len(b) and b[j][1] in ("star", "opt"):
            todo.append((i, j + 1))
        if i < len(a) and j < len(b):
            pa, ra = a[i]
            pb, rb = b[j]
            if any(pa(c) and pb(c) for c in alphabet):
                todo.append((i if ra == "star" else i + 1, j if rb == "star" else j + 1))
    return False


def overlap(compiled: Any, shape: tuple[tuple[str, ...], ...]) -> bool:
    """Whether some string matches both the compiled glob and the word's shape. A value
    from the environment (``E``) is data the line did not choose: it overlaps nothing."""
    if ("E",) in shape:
        return False
    if shape and shape[0] == ("S",):
        return True
    literal = "".join(t[1] for t in shape if t[0] == "L")
    atoms = _shape_atoms(shape)
    alphabet = _alphabet(literal, _glob_chars(compiled))
    return any(_intersect(alt, atoms, alphabet) for alt in _glob_atoms(compiled))


# ------------------------------------------------------------------------- commands


def _shown(cmd: Command, index: int) -> str:
    return cmd.argv[index] if index < len(cmd.argv) else "?"


def _could_be_flag(shape: tuple[tuple[str, ...], ...], spellings: list[str]) -> bool:
    if not shape or ("E",) in shape:
        return False
    if shape[0] == ("S",):
        return True
    first = shape[0]
    if first[0] == "*":
        return True
    if first[0] != "L" or not first[1].startswith("-"):
        return False
    prefix = first[1]
    open_end = len(shape) > 1
    for spelling in spellings:
        if spelling.startswith("--"):
            if spelling.startswith(prefix) or (
                open_end and prefix.startswith("--") and spelling.startswith(prefix)
            ):
                return True
            if open_end and spelling.startswith(prefix.split("=", 1)[0]):
                return True
        elif not prefix.startswith("--"):
            letter = spelling[1:]
            if letter in prefix[1:] or open_end:
                return True
    return False


def could_match(
    spec: dict[str, Any],
    cmd: Command,
    *,
    present: set[str],
    positional: list[str],
    canonical: Callable[[str, str], str],
    glob_match: Callable[[Any, str], bool],
    search: Callable[[Any, str], bool],
) -> str | None:
    """Why ``cmd`` could match ``spec`` once its unknown words are known (None: it cannot,
    or it already does). ``present``/``positional``: its known flags and positionals, an
    unknown word standing as :func:`sentinel`."""
    shapes = cmd.shapes or {}
    program = cmd.program
    argv = cmd.argv
    end = argv.index("--") if "--" in argv else len(argv)
    flaggable = [i for i in shapes if 0 < i < end]
    reasons: list[str] = []

    def spellings(flag: str) -> list[str]:
        wanted = canonical(program, flag)
        from hookwise.shell.programs import OPTIONS

        groups = OPTIONS.get(program, ((), (), frozenset()))[0]
        group = next((g for g in groups if g[0] == wanted), (flag,))
        return list(dict.fromkeys([flag, *group]))

    def supplied(flag: str) -> int | None:
        names = spellings(flag)
        for index in flaggable:
            if _could_be_flag(shapes[index], names):
                return index
        return None

    for flag in spec["flags"]:
        if canonical(program, flag) in present:
            continue
        index = supplied(flag)
        if index is None:
            return None
        reasons.append(f"`{_shown(cmd, index)}` could be its flag {flag}")
    any_flags = spec["any_flags"]
    if any_flags and not any(canonical(program, f) in present for f in any_flags):
        for flag in any_flags:
            index = supplied(flag)
            if index is not None:
                reasons.append(f"`{_shown(cmd, index)}` could be its flag {flag}")
                break
        else:
            return None
    if spec["args"]:
        words = iter(positional)
        for glob in spec["args"]:
            for word in words:
                index = sentinel_index(word)
                if index is None:
                    if glob_match(glob, word):
                        break
                    continue
                shape = shapes.get(index, (("S",), ("*",)))
                if overlap(glob, shape):
                    reasons.append(f"`{_shown(cmd, index)}` could be its argument")
                    break
            else:
                return None
    if not reasons or spec["writes"]:
        return None
    if spec["regex"] and not all(search(entry, cmd.text) for entry in spec["regex"]):
        return None  # the pattern is read in the text as written, unknown words and all
    return "; ".join(dict.fromkeys(reasons))


def pattern_args(
    spec: dict[str, Any],
    cmd: Command,
    positional: list[str],
    glob_match: Callable[[Any, str], bool],
    directory: str | None = None,
    *,
    deep: bool = False,
) -> str | None:
    """Why a rule's ``args`` could match a pattern bash expands (``grep -h . s*``: the rule
    names ``*.pem``, the pattern can be ``server.pem``) when the words as written do not
    (red team s28 E). ``directory``: where bash will expand them with nothing on the line
    changing the disk first: a pattern the matcher reads as bash does is what it expands to
    there now (``grep foo *`` among README.md and src/ names no key); else, or for a
    pattern bash reads otherwise (shell/commands/glob_frame.differs), what it may match."""
    patterns = {cmd.argv[i] for i in cmd.globs if i}
    reasons: list[str] = []
    words = iter(positional)
    for glob in spec["args"]:
        for word in words:
            if glob_match(glob, word):
                break
            if word not in patterns:
                continue
            names = _expanded(word, directory, deep)
            if names is not None:
                hit = next((n for n in names if glob_match(glob, n)), None)
                if hit is None:
                    continue
                reasons.append(f"`{word}` expands to `{hit}`, its argument")
                break
            if any(
                _intersect(alt, atoms, _alphabet(word, _glob_chars(glob)))
                for atoms in _pattern_atoms(word, deep and "**" in word)
                for alt in _glob_atoms(glob)
            ):
                reasons.append(f"`{word}` could expand to its argument")
                break
        else:
            return None
    return "; ".join(reasons) or None


def _expanded(word: str, directory: str | None, deep: bool = False) -> list[str] | None:
    """The names bash gives ``word`` in ``directory`` now (as it writes them: relative
    stays relative), or None when that cannot be told here: no directory, a pattern bash
    reads otherwise, a ``~`` or a backslash (bash's escapes are not fnmatch's), a directory
    that is not there."""
    from hookwise.shell.commands.glob_frame import differs

    if directory is None or word[:1] == "~" or "\\" in word or differs(word, frozenset()):
        return None
    import glob
    import os

    if not os.path.isdir(directory):
        return None  # (a place not on this disk: what is there is known only when it runs)

    # (hidden names only where the word says; deep: globstar's ** at any depth)
    found = glob.glob(word, root_dir=directory, recursive=deep)
    return found if found else [word]  # no match: bash passes the word as it is


_ANY_NAME = "q7-no-such-name"  # a name no protected glob spells out


def could_be_path(compiled_entry: tuple[Any, bool, bool], ref: Any, cwd: str, home: str) -> bool:
    """Whether a path known only when it runs could match a ``files`` glob entry. A value
    of the environment's glued to a name (``~/.netrc$x``, ``..${x}/home/.netrc``,
    ``.ne${x}trc``) is unset in a fresh shell: the word is judged with it empty, as the
    path it then is (red team s35 D); what else it holds is the environment's, not the
    line's choice, and alone (``$DIR``, ``"$f"``) not guessed at."""
    from hookwise.shell.commands.open_words import names_something

    shape = getattr(ref, "shape", None)
    raw = getattr(ref, "raw", "")
    if shape and shape[0] == ("/",) and raw.startswith(("$HOME/", "${HOME}/")) and home:
        shape = _merged((("L", "~"), *shape[1:]))  # ("$HOME/.netrc$x": the hook's home)
    if shape and ("E",) in shape and names_something(shape):
        empty = _merged(tuple(t for t in shape if t != ("E",)))
        if all(t[0] == "L" for t in empty):  # every part the environment's: one path
            return _plain_path(compiled_entry, "".join(t[1] for t in empty), cwd, home)
        shape = empty
    return _could_be(compiled_entry, ref, shape, cwd, home)


def _plain_path(compiled_entry: tuple[Any, bool, bool], text: str, cwd: str, home: str) -> bool:
    """Whether the path ``text`` (as written: ``~/``, relative, ``..``) matches the entry."""
    compiled, slashy, absolute = compiled_entry
    if not text:
        return False
    if not slashy and not absolute:
        return overlap(compiled, (("L", text.rstrip("/").rsplit("/", 1)[-1]),))
    if text == "~" or text.startswith("~/"):
        text = home + text[1:]
    elif not text.startswith("/"):
        text = cwd.rstrip("/") + "/" + text
    if not absolute:
        head = cwd.rstrip("/") + "/"
        return any(h.startswith(head) and overlap(compiled, (("L", h[len(head) :]),))
                   for h in _heads(text))  # fmt: skip
    return any(overlap(compiled, (("L", h),)) for h in _heads(text))


def _merged(shape: tuple[tuple[str, ...], ...]) -> tuple[tuple[str, ...], ...]:
    out: list[tuple[str, ...]] = []
    for token in shape:
        if token[0] == "L" and out and out[-1][0] == "L":
            out[-1] = ("L", out[-1][1] + token[1])
        else:
            out.append(token)
    return tuple(out)


def _could_be(
    compiled_entry: tuple[Any, bool, bool], ref: Any, shape: Any, cwd: str, home: str
) -> bool:
    if shape:
        from hookwise.shell.variables import past_parent

        left = past_parent(shape, getattr(ref, "pattern", False))
        if left is not None:  # $(pwd)/../home/.netrc, ~-/../x: any directory, then the rest
            shape = left
            if getattr(ref, "tree", False) and left[-1] != ("*",):
                # grep -r x "$(echo .)./home": the files under it too (red team s33 A), by
                # the globs whose names say something (not DIR/**: any name under any place)
                compiled = compiled_entry[0]
                named = not overlap(compiled, (("*",), ("L", "/" + _ANY_NAME)))
                if named and overlap(compiled, (*left, ("L", "/"), ("*",))):
                    return True
    if not shape or ("E",) in shape or ("/",) in shape:
        return False  # the environment's own paths ($DIR, $HOME, $(mktemp)) are not guessed at
    compiled, slashy, absolute = compiled_entry
    if shape[0][0] == "K":  # after a link the session can change: under any directory
        tail = shape[1][1]
        if not slashy and not absolute:
            return overlap(compiled, (("L", tail.rsplit("/", 1)[-1]),))
        return overlap(compiled, (("*",), ("L", tail)))
    if shape[0] == ("C",) and any(t == ("*",) for t in shape):
        # a pattern there: what its wildcards match is any name (canonical._under_unknown_dir)
        if getattr(ref, "tree", False):
            return True
        if not slashy and not absolute:
            rest = list(shape[1:])
            cut = max((k for k, t in enumerate(rest) if t[0] == "L" and "/" in t[1]), default=-1)
            name = rest[cut + 1 :]
            if cut >= 0:
                name.insert(0, ("L", rest[cut][1].rsplit("/", 1)[1]))
            return overlap(compiled, tuple(t for t in name if t != ("L", "")))
        return overlap(compiled, (("*",), *shape[1:]))
    if shape[0] == ("C",):  # under a directory a cd went to, known only when it runs
        tail = shape[1][1] if len(shape) > 1 else "/"
        if getattr(ref, "tree", False) or tail in ("/", "/."):
            return True  # the directory itself, or all below it: any of the files
        if not slashy and not absolute:
            return overlap(compiled, (("L", tail.rsplit("/", 1)[-1]),))
        if overlap(compiled, (("*",), ("L", "/" + _ANY_NAME))):
            return False  # DIR/**: every name under some directory; the name says nothing
        return overlap(compiled, (("*",), ("L", tail)))
    tokens = [t for t in shape if t != ("S",)]
    literal_head = tokens[0][1] if tokens and tokens[0][0] == "L" else ""
    if any(ch in literal_head for ch in " :=,@") or literal_head.startswith("-"):
        return False
    # the last path component must hold the unknown part (else the name is known), but
    # for a pattern bash expands (~/*/credentials under dotglob: any directory, s29 E)
    last_slash = max((k for k, t in enumerate(tokens) if t[0] == "L" and "/" in t[1]), default=-1)
    known_name = last_slash >= 0 and all(t[0] == "L" for t in tokens[last_slash + 1 :])
    if known_name and not getattr(ref, "pattern", False):
        if ("*",) not in tokens and ("N",) not in tokens:
            return False
        # a directory made on the line ($(cd; pwd)/.aws/credentials) may be any one: its
        # literal tail is judged as any path's, but for DIR/** globs, whose names say
        # nothing ("$x/README.md"; session 31)
        if overlap(compiled, (("*",), ("L", "/" + _ANY_NAME))):
            return False
    if not slashy and not absolute:
        component: list[tuple[str, ...]] = []
        if last_slash >= 0:
            component.append(("L", tokens[last_slash][1].rsplit("/", 1)[1]))
        component += tokens[last_slash + 1 :]
        return overlap(compiled, tuple(component))
    if literal_head.startswith("~/"):
        tokens = [("L", home + literal_head[1:]), *tokens[1:]]
    elif tokens and tokens[0][0] == "L" and not literal_head.startswith("/"):
        tokens = [("L", cwd.rstrip("/") + "/" + literal_head), *tokens[1:]]
    elif tokens and tokens[0][0] in ("D",):
        return False
    if tokens and tokens[0][0] == "L" and "/." in tokens[0][1]:
        # ../**/credentials: the directories before the first wildcard as the kernel
        # reaches them (``..`` and ``.`` taken, links followed), and as written
        return any(overlap(compiled, (("L", head), *tokens[1:])) for head in _heads(tokens[0][1]))
    if not absolute:  # a relative glob with a slash: against the path under cwd
        head = cwd.rstrip("/") + "/"
        if tokens and tokens[0][0] == "L" and tokens[0][1].startswith(head):
            tokens = [("L", tokens[0][1][len(head) :]), *tokens[1:]]
    return overlap(compiled, tuple(tokens))


def _heads(literal: str) -> list[str]:
    """A shape's literal start (``/p/../``) with its directory part as written, taken
    lexically, and as the kernel resolves it (links before a ``..``: red team s31 M)."""
    from hookwise.policy import os_lite

    cut = literal.rfind("/")
    folder, rest = literal[: cut + 1], literal[cut + 1 :]
    out = [literal]
    for found in (os_lite.normpath(folder), os_lite.realpath(folder)):
        head = found.rstrip("/") + "/" + rest
        if head not in out:
            out.append(head)
    return out


# ----------------------------------------------------------- patterns and trees


def _pattern_atoms(pattern: str, deep: bool = False) -> list[list[Atom]]:
    """A bash glob as alternatives of atoms: ``*``/``?``/``[...]`` never match ``/``, nor
    the leading ``.`` of a name (bash's default, without dotglob). ``deep`` (globstar): a
    ``**`` component is no directory, or any path under one whose name has no leading
    ``.`` (a superset: bash keeps the dot out of every directory it walks)."""
    alternatives: list[list[Atom]] = [[]]
    i = 0
    start = True  # at the start of a path component
    while i < len(pattern):
        ch = pattern[i]
        if deep and start and pattern[i : i + 2] == "**" and pattern[i + 2 : i + 3] in ("", "/"):
            after = pattern[i + 2 :]  # "" or "/REST"
            walked = [[*a, (_name_start, "one"), (_any, "star")] for a in alternatives]
            tails = _pattern_atoms(after, deep) if after else [[]]
            out = [[*a, *t] for a in walked for t in tails]
            if after:  # **/REST: no directory at all, REST right here
                out += [[*a, *t] for a in alternatives for t in _pattern_atoms(after[1:], deep)]
            return out[:32]
        if ch == "*":
            if start and len(alternatives) < 16:  # empty, or a name not starting with "."
                begun = [[*a, (_name_start, "one"), (_not_slash, "star")] for a in alternatives]
                alternatives = alternatives + begun
            else:
                alternatives = [[*a, (_not_slash, "star")] for a in alternatives]
        elif ch == "?":
            one: Atom = (_name_start if start else _not_slash, "one")
            alternatives = [[*a, one] for a in alternatives]
        elif ch == "[" and "]" in pattern[i + 2 :]:
            end = pattern.index("]", i + 2)
            body = pattern[i + 1 : end]
            negated = body[:1] in ("!", "^")
            chars = body[1:] if negated else body
            ranges = tuple(
                (chars[k], chars[k + 2]) for k in range(len(chars) - 2) if chars[k + 1] == "-"
            )
            matches = _class(("C", negated, chars, ranges))
            atom: Atom = (_not_dot(matches) if start else matches, "one")
            alternatives = [[*a, atom] for a in alternatives]
            i = end + 1
            start = False
            continue
        else:
            alternatives = [[*a, (_char(ch), "one")] for a in alternatives]
        start = ch == "/"
        i += 1
    return alternatives


def _name_start(c: str) -> bool:
    return c not in "/."


def _not_dot(matches: Callable[[str], bool]) -> Callable[[str], bool]:
    return lambda c: c != "." and matches(c)


def _glob_literal_prefix(compiled: Any) -> list[str]:
    if isinstance(compiled, str):
        return [compiled]
    out: list[str] = []
    for alternative in compiled:
        if alternative and alternative[0][0] == "L":
            out.append(str(alternative[0][1]))
    return out


def _glob_literals(compiled: Any) -> list[str]:
    if isinstance(compiled, str):
        return [compiled]
    return [str(t[1]) for alternative in compiled for t in alternative if t[0] == "L"]


def _wild(compiled: Any) -> bool:
    return not isinstance(compiled, str) and any(
        t[0] != "L" for alternative in compiled for t in alternative
    )


def _on_disk(
    entry: tuple[Any, bool, bool], ref: Any, glob_match: Callable[[Any, str], bool]
) -> bool | None:
    """What bash would expand the pattern to, when its directory is on this machine: does
    one of those paths (or what is under it, for a tree) match? None: not on disk."""
    import glob
    import os

    absolute = ref.absolute
    if absolute is None:
        return None
    head = absolute.split("*", 1)[0].split("?", 1)[0].split("[", 1)[0]
    directory = head.rsplit("/", 1)[0] or "/"
    if not os.path.isdir(directory):
        return None
    compiled, slashy, anchored = entry
    # a file tool's pattern (ref.command < 0) is a server's glob: hidden names too
    hidden = getattr(ref, "command", 0) < 0
    # where the word's relative form starts: a glob like **/.env is matched against the
    # path relative to the working directory, as a plain path word is (engine._glob_path)
    relative = ref.relative
    base = absolute[: len(absolute) - len(relative)] if relative else None
    if base is not None and not absolute.endswith(relative):
        base = None
    # (recursive: ** walks any depth under globstar, hidden directories only with hidden)
    found_all = glob.glob(absolute, include_hidden=hidden, recursive=ref.deep)
    if len(found_all) > _DISK_NAMES:
        return None  # (more than is looked at: judged by what the pattern spells out)
    for found in found_all:
        names = [found]
        real = os.path.realpath(found)
        if real != found:  # h/.aws/credentials, h a link to ~ an earlier call made
            names.append(real)
        if ref.tree and os.path.isdir(found):
            listing = os.listdir(found)
            if len(listing) > _DISK_NAMES:
                return None
            names += [found.rstrip("/") + "/" + n for n in listing]
        for name in names:
            if anchored:
                if glob_match(compiled, name):
                    return True
            elif slashy:
                if base is not None and name.startswith(base):
                    if glob_match(compiled, name[len(base) :]):
                        return True
                elif _some_tail(compiled, name, glob_match):
                    return True
            elif glob_match(compiled, name.rsplit("/", 1)[-1]):
                return True
    return False


_DISK_NAMES = 256  # names a pattern may expand to that are looked at one by one


def _some_tail(compiled: Any, name: str, glob_match: Callable[[Any, str], bool]) -> bool:
    """Whether a tail of ``name`` matches a relative glob, for a pattern whose relative form
    is unknown (``/tmp/*/p/.e*`` from inside ``/tmp/x/p``): where the working directory is
    among its directories, one of these tails is the path the rule sees."""
    at = name.find("/")
    while at >= 0:
        if glob_match(compiled, name[at + 1 :]):
            return True
        at = name.find("/", at + 1)
    return False


def reaches(
    entry: tuple[Any, bool, bool], ref: Any, glob_match: Callable[[Any, str], bool]
) -> bool:
    """Whether what a path word reads can take in what the glob entry names: a pattern
    (``~/.ss*/id_*``) that expands to such a path, a directory read recursively
    (``grep -r x ~``, ``tar czf a.tgz ~``) above such a path. On this machine the pattern is
    expanded as bash expands it; where its directory is not here, a pattern reaches an
    anchored glob (``~/.ssh/**``) or a name (``.env``, ``*.pem``) it spells out."""
    compiled, slashy, absolute = entry
    if ref.tree and absolute and ref.absolute is not None and not ref.pattern:
        above = ref.absolute.rstrip("/") + "/"
        if any(prefix.startswith(above) for prefix in _glob_literal_prefix(compiled)):
            return True
    if not ref.pattern:
        return False
    disk = _on_disk(entry, ref, glob_match)
    if disk is not None:
        return disk
    if absolute:
        path = ref.absolute
    elif slashy:
        path = ref.relative
    else:
        path = (ref.relative or ref.absolute or ref.raw).rsplit("/", 1)[-1]
        if _wild(compiled) and not any(lit and lit in path for lit in _glob_literals(compiled)):
            return False  # *.py is not a way to id_rsa*: it does not name it
        if not path.strip("*?"):
            return False  # a bare * (cat config/*): every name, none spelled out
    if path is None:
        return False
    alphabet = _alphabet(path, _glob_chars(compiled))
    for atoms in _pattern_atoms(path, ref.deep):
        if ref.tree:
            atoms.append((_any, "star"))
        if any(_intersect(alt, atoms, alphabet) for alt in _glob_atoms(compiled)):
            return True
    return False


# ------------------------------------------------------------------------ verdicts


def unverifiable_for(
    rules: list[dict[str, Any]],
    unsure: list[tuple[int, Any, list[str]]],
    decision: Any,
    settings: dict[str, Any],
    *,
    builtin: Callable[..., None],
    rule_id: str,
) -> None:
    """Rules a word known only when the command runs could make match: the command is
    unverifiable for them, and ``settings.unverifiable`` answers (ask by default)."""
    verdict = str(settings.get("unverifiable", "ask"))
    if verdict == "allow" or decision.decision == verdict == "ask":
        return
    position, ev, why = min(unsure, key=lambda item: item[0])
    rule = rules[position]
    from hookwise.policy.rules.mcp_unsure import NAMED
    from hookwise.policy.rules.mcp_unsure import WHY as NO_SERVER
    from hookwise.policy.rules.trees import WHY
    from hookwise.policy.rules.unmapped import WHY as UNMAPPED

    if all(w.startswith(NO_SERVER) for w in why):  # an MCP name that does not say its server
        tail = "; let Gemini CLI find the server's settings, or name the tool in a rule"
    elif all(w.startswith(NAMED) for w in why):  # another host's name for an MCP call
        tail = "; run the server through `hookwise mcp wrap`, or name the tool in a rule"
    elif all(UNMAPPED in w for w in why):  # a tool whose name does not say what it does
        tail = "; name the tool in a rule"
    elif all(w.startswith(WHY) for w in why):  # found on the disk, not a value unknown yet
        tail = "; leave it out with the program's own options (--exclude=...)"
    elif any(" goes through the link " in w for w in why):  # canonical.swappable_link
        tail = "; name the file where the link leads"
    else:
        tail = " (known only when it runs); write the value out"
    reason = (
        f"hookwise cannot verify this command for rule {rule['id']!r}: "
        + "; ".join(why)
        + tail
        + ", or set settings.unverifiable"
    )
    if decision.decision is None or verdict == "deny":
        builtin(decision, ev, rule_id, verdict, reason)
        decision.records[-1]["rule"] = rule["id"]
    else:
        decision.records.append(
            {"id": rule_id, "event": ev.name, "action": verdict, "mode": "enforce",
             "priority": None, "scope": "builtin", "outcome": verdict, "rule": rule["id"]}
        )  # fmt: skip
        decision.notes.append(reason)


def could_be_file(spec: dict[str, Any], ref: Any, ev: Any, any_path: Callable[..., bool]) -> bool:
    """Whether a path known only when it runs could be one of a ``files`` matcher's."""
    if spec["outside"] is not None or spec["extensions"]:
        return False  # unknown paths count as outside already; extensions: not read here
    home = ev.env.get("HOME") or ""
    if spec["exclude"] and any_path(spec["exclude"], ref):
        return False
    return any(could_be_path(entry, ref, ev.shell_cwd, home) for entry in spec["globs"])


# ------------------------------------------------------------ the guard's places


def anchored(
    found: tuple[tuple[str, ...], ...], cwd: str, home: str
) -> tuple[tuple[str, ...], ...]:
    """The shape as an absolute path: a known head under ``~/`` or relative is placed
    (``..`` in its directory part taken lexically); an unknown head stays any text."""
    if not found or found[0][0] != "L":
        return found
    head = found[0][1]
    if head == "~" or head.startswith("~/"):
        head = home + head[1:]
    elif not head.startswith("/"):
        head = cwd.rstrip("/") + "/" + head
    from hookwise.policy import os_lite

    cut = head.rfind("/")
    folder = os_lite.normpath(head[: cut + 1] or "/")
    head = folder.rstrip("/") + "/" + head[cut + 1 :]
    return (("L", head), *found[1:])


def fits(word: str, places: list[str], cwd: str, home: str) -> str | None:
    """The first of ``places`` (absolute files or directories) the word may name with
    its unknown parts filled by text within a name (a value the line does not choose:
    ``../home/.local/bin/ba${x}``, ``site-pack$x/zz.pth``), or a path under it. The
    known parts must name something, and in the last name too (``"$f"``, ``$DIR/$n``:
    the user's own choice, not guessed at)."""
    if home and word.startswith(("$HOME/", "${HOME}/")):
        word = "~" + word[word.index("/") :]
    from hookwise.shell.commands.open_words import names_something, shape

    found = shape(word, ("N",))
    cut = max((k for k, t in enumerate(found) if t[0] == "L" and "/" in t[1]), default=-1)
    name = [t[1].rsplit("/", 1)[-1] if k == cut else t[1] for k, t in enumerate(found)
            if k >= cut and t[0] == "L"]  # fmt: skip
    if not names_something(found) or not "".join(name):
        return None
    import os

    placed = anchored(found if found[0][0] == "L" else (("L", ""), *found), cwd, home)
    for place in places:
        compiled: list[list[tuple[str, ...]]] = [[("L", place)]]
        if os.path.isdir(place) and found[0][0] == "L":
            compiled.append([("L", place.rstrip("/") + "/"), ("**",)])
        if overlap(compiled, placed):
            return place
    return None
