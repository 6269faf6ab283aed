"""Files a command writes beyond its redirections, and what they then hold: ``cp``/``mv``/
``install``/``ln`` of a file written on the line (or of stdin), ``curl -o``, ``wget -O``,
``dd of=``, ``base64 -o``, ``openssl -out`` (content known only when it runs), ``sed -i``
and ``perl -pi`` (a script changed in place); a git hook written (it runs on the next git
command, on this line or not: read as run now); a package.json written, whose scripts npm
runs. A copy of a file that exists (``cp ~/.ssh/id_rsa k``): a later command that reads
``k`` reads the original, and is read as reading it.

Cold: needed only for those programs. It must not import the shell parser (the parser
imports it): the parser comes in as ``api`` (parser._api()). Standard library only.
"""

from __future__ import annotations

from hookwise.shell.programs import WRITE_OPTIONS, library_file

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

# options naming a file written (programs.WRITE_OPTIONS), and dd's ``of=``; unzip and xxd
# are in for their operands (below)
_WRITES_OPTION = {**WRITE_OPTIONS, "dd": ((), ()), "unzip": ((), ()), "xxd": ((), ())}
# programs that write their input to files they name from an operand: uniq IN OUT, split
# and csplit IN PREFIX (PREFIXaa..., PREFIX00...); content known only when they run
_SPLITTERS = {"uniq": "", "split": "x", "csplit": "xx"}
_COPIERS = frozenset(["cp", "mv", "install", "ln"])
# Compilers: a program built from source the line makes (stdin, a here-string, a file
# written on it) is code hookwise does not read; its output, run later on the line, is
# then a file whose content is known only when it runs (red team s24, findings 5 and 7).
# A program built from source on disk is the project's own.
COMPILERS = frozenset(["gcc", "cc", "c++", "g++", "clang", "clang++", "tcc", "rustc", "gfortran"])


def written_by(command: Any, script: Any) -> list[tuple[str, str | None]]:
    """(file, its content or None) for what ``command`` writes through its arguments."""
    targets: list[tuple[str, str | None]] = []
    program = command.program
    argv = command.argv
    if program in _COPIERS:
        operands = [w for w in argv[1:] if not w.startswith("-")]
        for source in operands[:-1]:  # (an option's value counts too: over, not under)
            if source.startswith("<("):  # cp <(echo ...) x.sh: made when it runs
                targets.append((operands[-1], None))
                break
            if script.was_written(source) or source in ("/dev/stdin", "-"):
                content = script.recall(source) if script.was_written(source) else None
                if source in ("/dev/stdin", "-") and command.stdin:
                    content = "".join(command.stdin)
                targets.append((operands[-1], content))
                break
        else:
            _remember_copy(_copy_operands(argv), argv, script)
    elif program in _SPLITTERS:
        targets += [(name, None) for name in _split_outputs(program, argv)]
    elif program in COMPILERS or program.startswith(("gcc-", "clang-")):
        targets += [(name, None) for name in _compiled(command, script)]
    elif program == "javac":
        targets += [(name, None) for name in _javac_classes(argv, script)]
    elif program in _WRITES_OPTION:
        shorts, longs = _WRITES_OPTION[program]
        for index, word in enumerate(argv[1:], start=1):
            value = None
            if (word in shorts or word in longs) and index + 1 < len(argv):
                value = argv[index + 1]
            elif word.startswith("of=") and program == "dd":
                value = word[3:]
            elif any(word.startswith(o + "=") for o in longs):
                value = word.split("=", 1)[1]
            if value is not None:
                content = "".join(command.stdin) if program == "dd" and command.stdin else None
                targets.append((value, content))
    elif any(
        w.startswith(("-i", "--in-place")) or (w[:1] == "-" and "i" in w[1:3]) for w in argv[1:]
    ):
        # sed -i, perl -pi, ruby -i: the files are changed in place, to what runs decides
        targets += [(w, None) for w in argv[2:] if not w.startswith("-") and "." in w]
    return targets


def _compiled(command: Any, script: Any) -> list[str]:
    """The program a compiler writes (``-o X``, ``-oX``, else ``a.out``) when its source
    comes from the line: ``-``/``/dev/stdin`` fed by it, or a file written on it."""
    argv = command.argv
    output = "a.out"
    from_line = False
    for index, word in enumerate(argv[1:], start=1):
        if word == "-o" and index + 1 < len(argv):
            output = argv[index + 1]
        elif word.startswith("-o") and len(word) > 2:
            output = word[2:]
        elif word in ("-", "/dev/stdin", "/dev/fd/0") or (
            not word.startswith("-") and script.was_written(word) and argv[index - 1] != "-o"
        ):
            from_line = True
    return [output] if from_line else []


# javac's and java's options that take a value (the rest are flags or operands)
_JAVA_VALUED = frozenset(
    ["-d", "-cp", "-classpath", "--class-path", "-p", "--module-path", "-s", "-h",
     "-sourcepath", "--source-path", "-encoding", "--release", "-source", "-target",
     "--add-modules", "-m", "--module", "--source", "-processorpath", "-jar"]
)  # fmt: skip


def _javac_classes(argv: list[str], script: Any) -> list[str]:
    """The class files javac writes from sources written on the line (``X.java`` ->
    ``X.class``, under ``-d DIR``): what ``java X`` later runs (red team s27 S)."""
    out_dir = ""
    sources: list[str] = []
    skip = False
    for index, word in enumerate(argv[1:], start=1):
        if skip:
            skip = False
        elif word in _JAVA_VALUED:
            skip = True
            if word == "-d" and index + 1 < len(argv):
                out_dir = argv[index + 1].rstrip("/") + "/"
        elif word.endswith(".java") and script.was_written(word):
            sources.append(word)
    return [out_dir + s.rsplit("/", 1)[-1][:-5] + ".class" for s in sources]


def java_class(argv: list[str], script: Any) -> str | None:
    """The class (or jar) ``java`` runs, when the line wrote it (None: not written here)."""
    skip = False
    for index, word in enumerate(argv[1:], start=1):
        if skip:
            skip = False
        elif word == "-jar" and index + 1 < len(argv):
            return argv[index + 1] if script.was_written(argv[index + 1]) else None
        elif word in _JAVA_VALUED:
            skip = True
        elif not word.startswith("-"):
            name = word.replace(".", "/") + ".class"
            if script.was_written(name) or any(
                key.endswith("/" + name) or key == name for key in script.written
            ):
                return name
            return None
    return None


_SPLIT_VALUED = frozenset(["-l", "-b", "-C", "-n", "-a", "-t", "-f", "-s", "-w"])


def _split_outputs(program: str, argv: list[str]) -> list[str]:
    """The files uniq, split or csplit write: uniq's second operand; split's and csplit's
    pieces, named by a prefix and a suffix (the first of each kind, which a later command
    names)."""
    operands: list[str] = []
    words = iter(argv[1:])
    for word in words:
        if word in _SPLIT_VALUED:
            next(words, None)
        elif word == "-" or not word.startswith("-"):
            operands.append(word)
    if program == "uniq":
        return operands[1:2]
    prefix = operands[1] if len(operands) > 1 and program == "split" else _SPLITTERS[program]
    for index, word in enumerate(argv[:-1]):
        if word in ("-f", "--prefix"):
            prefix = argv[index + 1]
    letters = "abcdefghijklmnopqrstuvwxyz"
    return [prefix + a + b for a in "ab" for b in letters] + [prefix + f"{n:02}" for n in range(26)]


def hook_written(
    command: Any, target: str, content: str | None, depth: int, script: Any, *, api: Any
) -> None:
    """A git hook written: what it runs counts as run (the next git command runs it)."""
    if content is None:
        command.unknowns.append(
            f"it writes the git hook {target} with content known only when it runs"
        )
    else:
        api.parse_shell(content, depth + 1, script)


def package_scripts(script: Any) -> list[tuple[str, Any]]:
    """A package.json written earlier on the line: its scripts are what npm (yarn...) run
    (``npm run x``, and the install hooks of ``npm install``)."""
    content = script.recall("package.json")
    if content is None:
        return [("unverifiable", "package.json was written on the line with content known "
                 "only when it runs")]  # fmt: skip
    import json

    try:
        data = json.loads(content)
    except ValueError:
        return [("unverifiable", "package.json was written on the line and is not readable here")]
    scripts = data.get("scripts") if isinstance(data, dict) else None
    if not isinstance(scripts, dict):
        return []
    return [("script", value) for value in scripts.values() if isinstance(value, str)]


def run_written(command: Any, path: str, depth: int, script: Any, *, api: Any) -> None:
    """A file written earlier on the line, run as a program: its content is what runs
    (by its ``#!`` line: a shell script is parsed, other code read by its language)."""
    content = script.recall(path)
    if content is None:
        command.unknowns.append(
            f"{path} was written earlier on the line with content known only when it runs"
        )
        return
    from hookwise.shell.code_readers import file_items

    found = file_items(content, path)
    if found is None:
        api.parse_shell(content, depth + 1, script, [path, *command.argv[1:]])
    else:
        api.interpreter(command, found, depth, script)


_VALUED = frozenset(["-m", "-o", "-g", "-S", "-t", "--mode", "--owner", "--group", "--suffix"])


def _copy_operands(argv: list[str]) -> list[str]:
    """The operands of cp/mv/ln/install, past the values of their options (install -m 600)."""
    operands: list[str] = []
    words = iter(argv[1:])
    for word in words:
        if word == "--":
            operands += list(words)
        elif word in _VALUED:
            next(words, None)
        elif not word.startswith("-"):
            operands.append(word)
    return operands


def _symbolic(argv: list[str]) -> bool:
    """``ln -s``/``--symbolic`` (also in a bundle, ``-sfn``) without ``-r``/``--relative``:
    the link holds its target's text as written, which the kernel reads from the link's
    own directory."""
    if not argv or argv[0].rsplit("/", 1)[-1] != "ln":
        return False
    shorts = "".join(w[1:] for w in argv[1:] if w.startswith("-") and not w.startswith("--"))
    if "r" in shorts or "--relative" in argv:
        return False  # (ln -sr: the target is named from here, ln writes it relative)
    return "s" in shorts or "--symbolic" in argv


def link_target(source: str, link_dir: str, lexical: bool = False) -> str:
    """What a symbolic link in ``link_dir`` (as the line names it, '' = here) holding
    ``source`` leads to, named from here: a relative target is read from the link's
    directory, not from the cwd (red team s31 L: ``ln -s ../../home/.aws src/k``).
    ``lexical``: each leading ``..`` of the target takes back a name of ``link_dir``
    (a directory that may not be there now: its ``..`` is the name before it)."""
    if source.startswith(("/", "~")) or not link_dir.strip("/."):
        return source
    if lexical:
        names = [n for n in link_dir.split("/") if n not in ("", ".")]
        while source.startswith("../") and names and names[-1] != "..":
            names.pop()
            source = source[3:]
        link_dir = "/".join(names)
        if not link_dir:
            return source
    return link_dir.rstrip("/") + "/" + source


def _link_dirs(operands: list[str], argv: list[str]) -> list[tuple[str, bool]]:
    """The directories ``ln``'s links land in, as named on the line, each with whether
    it may not be there (link_target's ``lexical``): ``-t DIR``; '' for ``ln -s SRC``
    alone; else DST's parent (DST not a directory) and DST (it is one)."""
    into = _target_directory(argv)
    if into:
        return [(into, False)]
    if len(operands) < 2:
        return [("", False)]
    target = operands[-1].rstrip("/")
    if operands[-1].endswith("/"):
        return [(target, False)]
    parent = target.rsplit("/", 1)[0] if "/" in target else ""
    return [(parent, False), (target, True)]


def through_link(key: str, script: Any) -> str | None:
    """What a write to ``key`` (as the line names it) writes when it, or a directory above
    it, is a link the line made (``ln -s ../remote.git/refs/heads r``: ``r/main`` is that
    repository's ref; ``ln -s ~/.config cfg``: ``cfg/hookwise/policy.yaml`` is the user
    policy). A copy's or a move's new name is written as itself. One reading for the
    writers' targets and the redirections' (parser)."""
    parts = key.split("/")
    for end in range(len(parts), 0, -1):
        found = script.copies.get("/".join(parts[:end]))
        if found is not None and found[1].rsplit("/", 1)[-1] in ("ln", "link"):
            return "/".join([found[0].rstrip("/"), *parts[end:]])
    return None


def _remember_copy(operands: list[str], argv: list[str], script: Any) -> None:
    """``cp SRC DST``, ``mv``, ``ln -s``, ``install``: DST (or DST/SRC's name, when DST is a
    directory) stands for SRC from here on; a copy of a copy stands for the first. A
    symbolic link's relative SRC is named from the link's directory (link_target)."""
    if len(operands) != 2 or any(w in ("-t", "--target-directory") for w in argv):
        return
    source, target = operands
    name = source.rstrip("/").rsplit("/", 1)[-1]
    inside = target.rstrip("/") + "/" + name
    symbolic = _symbolic(argv)
    parent = target.rstrip("/").rsplit("/", 1)[0] if "/" in target.rstrip("/") else ""
    for key, link_dir, lexical in ((_key(target), parent, False), (_key(inside), target, True)):
        named = link_target(source, link_dir, lexical) if symbolic else source
        first, kind = script.copies.get(_key(named), (named, argv[0]))
        if key and key != _key(first):
            script.copies[key] = (first, kind)


# what changes a copy leaves the original alone (cp, install); through a link (ln) or after
# a move (mv) it is the original, but for removing the link's own name
_CHANGERS = frozenset(
    ["rm", "rmdir", "unlink", "shred", "truncate", "touch", "chmod", "chown", "chgrp", "mv",
     "cp", "ln", "install", "sed", "perl", "tee"]
)  # fmt: skip
_UNLINKERS = frozenset(["rm", "rmdir", "unlink", "mv"])
_EDITORS = frozenset(["sed", "perl"])  # change a file only with -i


# a reading of a command: (argv, origin, the names its sources stay under: kept_names)
Reading = tuple[list[str], str, "tuple[str, ...] | None"]


def read_copies(command: Any, script: Any) -> list[Reading]:
    """(argv, origin, kept) of the command again with a copy made on the line read as its
    original: ``cat k`` after ``cp ~/.ssh/id_rsa k`` is also ``cat ~/.ssh/id_rsa`` (one
    command for each reading: ``cp -r SRC d`` makes d or d/SRC's name, by whether d was a
    directory). ``kept``: for a copy, move or link itself, the names its sources are put
    under (kept_names), None otherwise."""
    argv = command.argv
    in_place = any(w.startswith("-i") or (w[:1] == "-" and "i" in w[1:3]) for w in argv[1:])
    changes = command.program in _CHANGERS and (command.program not in _EDITORS or in_place)
    # cp/install read their sources: only the target is changed (cp k /dev/stdout prints)
    target = _copy_operands(argv)[-1:] if command.program in ("cp", "install") else None
    out: list[tuple[list[str], str]] = _program_copied(argv, script)
    for index, word in enumerate(argv[1:], start=1):
        name, equals, _ = word.partition("=")  # dd if=k: the value is the path
        prefix = name + equals if equals and name.isalnum() else ""
        key = _key(word[len(prefix) :])
        changed = (changes and (target is None or [word] == target)) or prefix == "of="
        for copy, (source, kind) in script.copies.items():
            if key != copy and not key.startswith(copy + "/"):
                continue
            if kind in ("cp", "install") and changed:
                continue  # a change to the copy
            if kind == "ln" and command.program in _UNLINKERS and key == copy and word[-1:] != "/":
                continue  # the link removed, not what it points to
            what = {"mv": "moved from", "ln": "a link to"}.get(kind, "a copy of")
            slash = "/" if word.endswith("/") and key != "/" else ""
            path = prefix + source + key[len(copy) :] + slash
            new = [*argv[:index], path, *argv[index + 1 :]]
            out.append((new, f"reads {word} ({what} {source} on the line)"))
    if argv[:1] == ["git"] and script.copies:
        out += _tree_shown(argv, script)
    if not changes:
        out += _quoted_copies(argv[1:], script)
    readings: list[Reading] = [(new, origin, None) for new, origin in out]
    if target and target[0].startswith(_OUTPUTS):
        sources = _copy_operands(argv)[:-1]
        readings.append((["cat", *sources], f"copies {' '.join(sources)} to {target[0]}", None))
    elif command.program in NAMERS:
        readings += _named_again(command)
    return readings  # (the parser bounds them: MAX_COPIES_READ)


# programs that put a file's content under another name (a copy, a move, a symbolic or
# hard link): what a later call reads by the new name is the original's, and no rule on
# the original's name sees it then (red team s27 P: `cp .env notes.txt`, then `cat
# notes.txt`; `ln -s ~/.ssh/id_rsa k` made by a background job after the hook looked)
NAMERS = frozenset(["cp", "install", "mv", "ln", "link"])


def _named_again(command: Any) -> list[Reading]:
    """``cp SRC.. DST``, ``mv``, ``ln [-s] SRC.. [DST]``, ``link SRC DST``: each SRC is
    read, as rules on it judge a reader of it (the one place the analysis says which
    operands these programs take from: _copy_operands), with the names it is put under."""
    program, argv = command.program, command.argv
    operands = _copy_operands(argv)
    into = _target_directory(argv)
    sources = operands if into or (program == "ln" and len(operands) == 1) else operands[:-1]
    sources = [s for s in sources if s != "-"]
    if not sources:
        return []
    what = f"{program} puts {' '.join(sources)} under another name"
    kept = kept_names(command, sources, into if into else operands[-1] if operands else "")
    read = list(sources)
    if _symbolic(argv):  # each place the link may land: its target is read from there
        for link_dir, lexical in _link_dirs(operands, argv):
            targets = (link_target(s, link_dir, lexical) for s in sources)
            read += [t for t in targets if t not in read]
    return [(["cat", *read], f"{what}: a later read of that name reads it", kept)]


def _target_directory(argv: list[str]) -> str | None:
    """The directory of ``-t DIR``/``--target-directory[=]DIR`` ('' when it is not given
    in a word of its own)."""
    for index, word in enumerate(argv[1:], start=1):
        if word in ("-t", "--target-directory"):
            return argv[index + 1] if index + 1 < len(argv) else ""
        if word.startswith("--target-directory="):
            return word.split("=", 1)[1]
        if word.startswith("-t") and not word.startswith("--"):
            return word[2:]
    return None


# characters of a word that is not one name the line spells out (a pattern, an expansion,
# a process substitution, a here-string...)
_NOT_PLAIN = frozenset("*?[]{}$`()<>|&;~\\'\"\n")


def kept_names(command: Any, sources: list[str], destination: str) -> tuple[str, ...] | None:
    """The names a copy, move or link puts its sources under, as its words spell them:
    ``DST``, and ``DST/NAME`` for each source where DST can be a directory (several
    sources, a trailing slash, ``-t DIR``: only that); ``ln SRC`` alone: NAME here. A rule
    that guards every one of them (policy.rules.kept) is not read by the copy: the
    content stays under its guard. None: a word the line computes or expands (a variable,
    a glob, ``>(...)``), whose name is known only when it runs."""
    words = command.argv[1:]
    if any(command.dynamic[1:]) or command.globs or destination is None:
        return None
    if any(_NOT_PLAIN.intersection(word) for word in words):
        return None
    names = [s.rstrip("/").rsplit("/", 1)[-1] for s in sources]
    if any(name in ("", ".", "..") for name in names):
        return None
    if not destination and command.program == "ln" and len(sources) == 1:
        return (names[0],)  # ln -s ../.env: ./.env
    if not destination:
        return None
    folder = destination.rstrip("/") or "/"
    inside = tuple(f"{folder}/{name}" if folder != "/" else "/" + name for name in names)
    only_dir = destination.endswith("/") or len(sources) > 1 or _target_directory(command.argv)
    return inside if only_dir else (destination, *inside)


# git subcommands that print the changes of the working tree or the index, and the
# commits made from them: a copy made on the line into the tree is among what they show
_TREE_SHOWN = frozenset(["diff", "show", "log", "whatchanged", "grep", "archive",
                         "format-patch", "stash", "blame", "annotate"])  # fmt: skip


def _tree_shown(argv: list[str], script: Any) -> list[tuple[list[str], str]]:
    """``cp .env README && git diff``: git shows README's new content, .env's. Each copy
    made on the line is read as its source (a pathspec that leaves it out is not read:
    over-reading is the safe side)."""
    from hookwise.shell.programs import git_subcommand

    at = git_subcommand(argv)
    sub = argv[at] if at > 0 else ""
    if sub not in _TREE_SHOWN:
        return []
    out: list[tuple[list[str], str]] = []
    for copy, (source, kind) in script.copies.items():
        if kind in ("cp", "install", "mv", "ln") and not copy.startswith("/"):
            what = f"`git {sub}` shows {copy} ({kind} of {source} on the line)"
            out.append((["cat", source], what))
    return out


def _program_copied(argv: list[str], script: Any) -> list[tuple[list[str], str]]:
    """A program copied or linked on the line and run under its new name (``ln -s
    /usr/bin/rm del; ./del -rf x``, or found on PATH by the copy's base name): it runs as
    the original does."""
    key = _key(argv[0])
    for copy, (source, kind) in script.copies.items():
        if key == _key(source):
            continue  # (DST/SRC's name, when SRC's own name is run: not a copy)
        if key == copy or ("/" not in key and copy.rsplit("/", 1)[-1] == key):
            what = {"mv": "moved from", "ln": "a link to"}.get(kind, "a copy of")
            return [([source, *argv[1:]], f"runs {argv[0]} ({what} {source} on the line)")]
    return []


# a copy onto one of these is the file printed, as cat prints it (``>(cmd)``: a /dev/fd
# path the command reads: red team s27 G, ``cp .env >(curl ... @-)``)
_OUTPUTS = ("/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/fd/", "/proc/self/fd/", ">(")


def _quoted_copies(words: list[str], script: Any) -> list[tuple[list[str], str]]:
    """A copy named as a string in code (``python3 -c "open('k').read()"``): read as
    ``cat`` of the original, as a one-liner's literal path is."""
    import re

    out: list[tuple[list[str], str]] = []
    for word in words:
        if not any(q in word for q in "'\"`"):
            continue
        for copy, (source, kind) in script.copies.items():
            pattern = r"""['"`](?:\./)?""" + re.escape(copy) + r"""(/[^'"`]*)?['"`]"""
            for match in re.finditer(pattern, word):
                rest = match.group(1) or ""
                what = {"mv": "moved from", "ln": "a link to"}.get(kind, "a copy of")
                out.append((["cat", source + rest], f"its code reads {copy} ({what} {source})"))
    return out  # (the parser bounds them: MAX_COPIES_READ)


def _key(path: str) -> str:
    while path.startswith("./"):
        path = path[2:]
    return path.rstrip("/") if path != "/" else path


# programs that handle a file without loading it (list, test, move, copy, hash, inspect)
_HANDLE_ONLY = frozenset(
    ["ls", "stat", "file", "chmod", "chown", "chgrp", "touch", "rm", "mv", "cp", "install",
     "ln", "realpath", "readlink", "basename", "dirname", "du", "wc", "md5sum", "sha1sum",
     "sha256sum", "sha512sum", "b2sum", "cksum", "test", "[", "[[", "echo", "printf", "cat",
     "nm", "objdump", "readelf", "strings", "strip", "size", "hexdump", "xxd", "od", "tar",
     "zip", "gzip", "ar", "scp", "rsync"]
)  # fmt: skip
# how a word names the working directory (openssl -provider-path $PWD)
_HERE = frozenset([".", "./", "$PWD", "${PWD}", "$(pwd)", "`pwd`"])


def loads_library(command: Any, script: Any) -> str | None:
    """A library written on the line (content unknown: compiled, downloaded) that
    ``command`` names in a word, an option's value (``-agentpath:$PWD/e.so``) or by the
    directory it lies in (``-provider-path $PWD -provider e``): whatever loads it runs its
    code, as running ``./y`` does (red team s28 N). None: none named, or a program that
    only handles files."""
    if command.program in _HANDLE_ONLY or command.program in COMPILERS:
        return None
    built: list[str] = [k for k, v in script.written.items() if v is None and library_file(k)]
    if not built:
        return None
    for word in command.argv[1:]:
        pieces = {word}
        for sep in ("=", ":", ","):
            pieces |= {p for w in list(pieces) for p in w.split(sep)}
        for piece in pieces:
            name = piece
            for prefix in ("$PWD/", "${PWD}/", "$(pwd)/", "./"):
                name = name.removeprefix(prefix)
            for key in built:
                folder = key.rpartition("/")[0]
                if name == key or (piece in _HERE and not folder) or name.rstrip("/") == folder:
                    return key
    return None


# cp, mv, ln and install keep the file they replace under its name plus a suffix when
# asked (-b, --backup[=CONTROL], -S/--suffix, which implies it): -S SUF, --suffix=SUF,
# else SIMPLE_BACKUP_SUFFIX (default ``~``); numbered ones add ``.~N~``
_BACKERS = frozenset(["cp", "mv", "ln", "install"])
_SHORT_VALUED = {"cp": "St", "mv": "St", "ln": "St", "install": "Stmog"}
# a suffix known only when it runs (from the environment, or set elsewhere on the line):
# any text (shell/commands/open_words.py reads the word)
UNKNOWN_SUFFIX = "${SIMPLE_BACKUP_SUFFIX}"


def backup_suffixes(program: str, argv: list[str], env: dict[str, str]) -> list[str]:
    """What the backups ``program`` makes add to a replaced file's name (red team s35 P:
    ``cp -b -S h README bin/bas`` leaves the old ``bas`` as ``bas`` + ``h``): the suffix
    given, or UNKNOWN_SUFFIX where only the environment says; ``.~${n}~`` for numbered
    ones. ``env``: the variables set for the command itself. Empty: no backups."""
    if program not in _BACKERS:
        return []
    on, suffix, control = False, env.get("SIMPLE_BACKUP_SUFFIX"), env.get("VERSION_CONTROL")
    valued = _SHORT_VALUED[program]
    words = argv[1:]
    i = 0
    while i < len(words):
        word = words[i]
        if word == "--":
            break
        if word == "--backup" or word.startswith("--backup="):
            on, control = True, word[9:] or control
        elif word in ("-S", "--suffix"):
            on, suffix = True, words[i + 1] if i + 1 < len(words) else ""
            i += 1
        elif word.startswith("--suffix="):
            on, suffix = True, word[9:]
        elif word[:1] == "-" and word[:2] != "--":
            for k, letter in enumerate(word[1:], start=1):
                if letter == "b":
                    on = True
                elif letter == "S":
                    on, suffix = True, word[k + 1 :] or (words[i + 1] if i + 1 < len(words) else "")
                    i += 0 if word[k + 1 :] else 1
                    break
                elif letter in valued:
                    break
        i += 1
    if not on or control in ("none", "off"):
        return []
    return [UNKNOWN_SUFFIX if suffix is None else suffix, ".~${n}~"]


def split_names(program: str, argv: list[str]) -> list[str]:
    """The names split and csplit make, as words whose generated part is known only when
    they run: the prefix, a suffix the program makes (letters, digits, hex, or
    csplit's ``-b`` format, which may hold any text), then split's
    ``--additional-suffix`` (red team s35 I: ``split -n l/8 -a1 README bin/bas`` writes
    ``bin/bash``). shell/commands/open_words.py reads them."""
    if program not in ("split", "csplit"):
        return []
    prefix = _split_prefix(program, argv)
    extra = ""
    for index, word in enumerate(argv):
        if word.startswith("--additional-suffix="):
            extra = word.partition("=")[2]
        elif word == "--additional-suffix" and index + 1 < len(argv):
            extra = argv[index + 1]
    return [prefix + "${n}" + extra]


def _split_prefix(program: str, argv: list[str]) -> str:
    prefix = ""
    for index, word in enumerate(argv[:-1]):
        if word in ("-f", "--prefix"):
            prefix = argv[index + 1]
    for word in argv:
        if word.startswith("--prefix="):
            prefix = word.partition("=")[2]
        elif program == "csplit" and word.startswith("-f") and len(word) > 2:
            prefix = word[2:]
    if prefix or program == "csplit":
        return prefix or _SPLITTERS[program]
    found = _split_outputs(program, argv)
    return found[0][:-2] if found else _SPLITTERS[program]
