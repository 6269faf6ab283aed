"""Programs that run a command named in their options: ``tar --to-command=CMD``,
``rsync -e CMD`` (and ``--delete`` as the removal it is), ``zip -TT CMD``, ``vim -c
'!CMD'``, ``make --eval``/``SHELL=``, ``compgen -C CMD``.

Cold: needed only for those programs (their names: :data:`programs.OPTION_COMMANDS`).
Standard library only.
"""

from __future__ import annotations

import re

from hookwise.shell.commands.option_words import option_values

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any


def makefile_items(text: str) -> list[tuple[str, Any]]:
    """What a makefile text runs: its recipe lines (``x: ; cmd``, tab-indented lines) and
    ``$(shell CMD)``, with make's ``$(VAR)`` read as a word known only when it runs."""
    out: list[tuple[str, Any]] = []
    for start in _shell_calls(text):
        out.append(("script", start))
    for line in text.replace("\\\n", " ").splitlines():
        recipe = None
        if line.startswith("\t"):
            recipe = line[1:]
        elif ":" in line and ";" in line.split(":", 1)[1] and not line.lstrip().startswith("#"):
            recipe = line.split(":", 1)[1].split(";", 1)[1]
        if recipe is not None and recipe.strip():
            out.append(("script", _make_words(recipe.strip().lstrip("@-+"))))
    if "$(eval" in text or "${eval" in text:
        out.append(("unverifiable", "the makefile evaluates text made when it runs ($(eval))"))
    out += _file_calls(text)
    unread = _MAKE_UNREAD.search(text)
    if unread is not None:
        why = f"the makefile has `{unread.group(0).strip()}`, which loads or runs code"
        out.append(("unverifiable", f"{why} hookwise does not read"))
    return out


# what a makefile text can run that is not spelled as a recipe or $(shell): $(guile ...),
# a shared object it loads, a makefile it includes from stdin, recipes prefixed otherwise
_MAKE_UNREAD = re.compile(
    r"[$][({]guile\b|^[ \t]*-?load\b|\.RECIPEPREFIX\b|"
    r"^[ \t]*(?:-|s)?include\s+(?:-|/dev/stdin|/dev/fd/0|/proc/self/fd/0)\s*$",
    re.M,
)


def _file_calls(text: str) -> list[tuple[str, Any]]:
    """make's ``$(file <F)`` reads F, ``$(file >F,TEXT)`` (``>>``) writes it: as the shell
    would (``cat F``, ``: > F``), with make's ``$(VAR)`` a value known when it runs."""
    out: list[tuple[str, Any]] = []
    for match in re.finditer(r"[$][({]file\s+(<|>>?)\s*([^,)}]*)", text):
        path = _make_words(match.group(2).strip()).replace("\\", "\\\\").replace('"', '\\"')
        path = path.replace("`", "\\`")
        if match.group(1) == "<":
            out.append(("script", f'cat -- "{path}"'))
        else:
            out.append(("script", f': >> "{path}"'))
    return out


def make_directory(argv: list[str]) -> str | None:
    """The directory make works in (``-C D``, ``--directory=D``; each relative to the one
    before), or None: the makefiles, ``$(file)`` and recipes are read and run there."""
    found: str | None = None
    for value in option_values(argv, ("-C",), ("--directory",)):
        found = value if found is None or value.startswith(("/", "~")) else f"{found}/{value}"
    return found


def in_directory(items: list[tuple[str, Any]], directory: str | None) -> list[tuple[str, Any]]:
    """What make runs, run in its ``-C`` directory."""
    if directory is None:
        return items
    import shlex

    where = f"cd -- {shlex.quote(directory)} && "
    out: list[tuple[str, Any]] = []
    for kind, value in items:
        if kind == "script":
            out.append((kind, where + value))
        elif kind == "argv":
            out.append(("script", where + shlex.join(value)))
        else:
            out.append((kind, value))
    return out


def _shell_calls(text: str) -> list[str]:
    """The commands of ``$(shell CMD)`` in a makefile text."""
    found: list[str] = []
    at = text.find("$(shell ")
    while at >= 0:
        depth = 0
        for end in range(at + 1, len(text)):
            if text[end] == "(":
                depth += 1
            elif text[end] == ")":
                depth -= 1
                if depth == 0:
                    found.append(_make_words(text[at + 8 : end]))
                    break
        at = text.find("$(shell ", at + 1)
    return found


def _make_words(recipe: str) -> str:
    """A recipe as the shell gets it: ``$$`` is ``$``, ``$(VAR)`` a value known when make
    runs (a shell variable stands for it)."""
    out: list[str] = []
    i = 0
    while i < len(recipe):
        if recipe.startswith("$$", i):
            out.append("$")
            i += 2
            continue
        if recipe.startswith(("$(", "${"), i):
            closer = ")" if recipe[i + 1] == "(" else "}"
            end = recipe.find(closer, i)
            out.append("${MAKE_VALUE}")
            i = len(recipe) if end < 0 else end + 1
            continue
        if recipe[i] == "$" and i + 1 < len(recipe):
            out.append("${MAKE_VALUE}")
            i += 2
            continue
        out.append(recipe[i])
        i += 1
    return "".join(out)


def _rsync_delete(argv: list[str]) -> list[tuple[str, Any]]:
    """``rsync --delete SRC DEST`` removes what DEST holds beyond SRC: a recursive delete of
    a local DEST (``host:path`` and ``rsync://`` are another machine's)."""
    if not any(w.startswith("--delete") or w == "--del" for w in argv):
        return []
    operands = [w for w in argv[1:] if not w.startswith("-")]
    if len(operands) < 2:
        return []
    dest = operands[-1]
    head = dest.split("/", 1)[0]
    if ":" in head or dest.startswith("rsync://"):
        return []
    return [("argv", ["rm", "-r", "-f", dest])]


# GNU tar's long options (tar --help, 1.34): tar takes an unambiguous prefix of one
_TAR_LONGS = (  # noqa: SIM905 - a list as `tar --help` gives it
    "--absolute-names --acls --add-file --after-date --anchored --append "
    "--atime-preserve --auto-compress --backup --block-number --blocking-factor --bzip2 "
    "--catenate --check-device --check-links --checkpoint --checkpoint-action "
    "--clamp-mtime --compare --compress --concatenate --confirmation --create "
    "--delay-directory-restore --delete --dereference --diff --directory --exclude "
    "--exclude-backups --exclude-caches --exclude-caches-all --exclude-caches-under "
    "--exclude-from --exclude-ignore --exclude-ignore-recursive --exclude-tag "
    "--exclude-tag-all --exclude-tag-under --exclude-vcs --exclude-vcs-ignores --extract "
    "--file --files-from --force-local --format --full-time --get --group --group-map "
    "--gunzip --gzip --hard-dereference --help --hole-detection --ignore-case "
    "--ignore-command-error --ignore-failed-read --ignore-zeros --incremental "
    "--index-file --info-script --interactive --keep-directory-symlink "
    "--keep-newer-files --keep-old-files --label --level --list --listed-incremental "
    "--lzip --lzma --lzop --mode --mtime --multi-volume --new-volume-script --newer "
    "--newer-mtime --no-acls --no-anchored --no-auto-compress --no-check-device "
    "--no-delay-directory-restore --no-ignore-case --no-ignore-command-error --no-null "
    "--no-overwrite-dir --no-quote-chars --no-recursion --no-same-owner "
    "--no-same-permissions --no-seek --no-selinux --no-unquote --no-verbatim-files-from "
    "--no-wildcards --no-wildcards-match-slash --no-xattrs --null --numeric-owner "
    "--occurrence --old-archive --one-file-system --one-top-level --overwrite "
    "--overwrite-dir --owner --owner-map --pax-option --portability --posix "
    "--preserve-order --preserve-permissions --quote-chars --quoting-style "
    "--read-full-records --record-size --recursion --recursive-unlink --remove-files "
    "--restrict --rmt-command --rsh-command --same-order --same-owner --same-permissions "
    "--seek --selinux --show-defaults --show-omitted-dirs --show-snapshot-field-ranges "
    "--show-stored-names --show-transformed-names --skip-old-files --sort --sparse "
    "--sparse-version --starting-file --strip-components --suffix --tape-length "
    "--test-label --to-command --to-stdout --totals --touch --transform --uncompress "
    "--ungzip --unlink-first --unquote --update --usage --use-compress-program --utc "
    "--verbatim-files-from --verbose --verify --version --volno-file --warning "
    "--wildcards --wildcards-match-slash --xattrs --xattrs-exclude --xattrs-include "
    "--xform --xz --zstd "
).split()


def _unabbreviated(argv: list[str], longs: list[str]) -> list[str]:
    """argv with each unambiguous prefix of a long option spelled out (``--to-comm=X`` is
    ``--to-command=X``), as getopt reads it."""
    out = [argv[0]]
    for given in argv[1:]:
        name, eq, value = given.partition("=")
        if name.startswith("--") and len(name) > 2 and name not in longs:
            matches = [o for o in longs if o.startswith(name)]
            if len(matches) == 1:
                given = matches[0] + eq + value  # noqa: PLW2901 - as the program reads it
        out.append(given)
    return out


def tar_runs(argv: list[str]) -> list[tuple[str, Any]]:
    """What ``tar`` runs from its options (also read for ``TAR_OPTIONS``)."""
    return _tar(argv, [])


def _tar(argv: list[str], stdin: list[str]) -> list[tuple[str, Any]]:
    argv = _unabbreviated(argv, _TAR_LONGS)
    values = option_values(
        argv,
        ("-I", "-F"),
        (
            "--to-command",
            "--use-compress-program",
            "--info-script",
            "--new-volume-script",
            "--rsh-command",
        ),
    )
    for word in argv:
        if word.startswith("--checkpoint-action=exec="):
            values.append(word[len("--checkpoint-action=exec=") :])
    out: list[tuple[str, Any]] = [("script", v) for v in values]
    if "--remove-files" in argv:  # the members are deleted once archived
        members = _tar_members(argv)
        if members:
            out.append(("argv", ["rm", "-r", "-f", *members]))
    return out


def _tar_members(argv: list[str]) -> list[str]:
    """The files ``tar -c``/``-r`` is given: its operands past the archive (``-f A``,
    ``-cfA``, ``--file=A``) and option values, under the last ``-C DIR`` before them."""
    members: list[str] = []
    skip = False
    base = ""  # -C DIR: later members are under DIR
    for index, word in enumerate(argv[1:], start=1):
        if skip:
            if argv[index - 1] in ("-C", "--directory"):
                base = word.rstrip("/") + "/" if not word.startswith("/") else word + "/"
            skip = False
            continue
        if word.startswith("--directory="):
            base = word.split("=", 1)[1].rstrip("/") + "/"
            continue
        if word in ("--file", "-C", "--directory", "-T", "--files-from", "-X", "--exclude-from",
                    "-b", "-H", "--format", "-I", "-F", "-K", "-L", "-N", "-V"):  # fmt: skip
            skip = True
        elif word.startswith("--"):
            continue
        elif word.startswith("-") or (index == 1 and "f" in word and "/" not in word):
            # -cf A (and the old style: tar cf A files): f takes the next word
            letters = word.lstrip("-")
            if "f" in letters:
                skip = letters.endswith("f")
        else:
            members.append(word if word.startswith("/") else base + word)
    return members


def _rsync(argv: list[str], stdin: list[str]) -> list[tuple[str, Any]]:
    out: list[tuple[str, Any]] = [("script", v) for v in option_values(argv, ("-e",), ("--rsh",))]
    return out + _rsync_delete(argv)


def _zip(argv: list[str], stdin: list[str]) -> list[tuple[str, Any]]:
    out: list[tuple[str, Any]] = [
        ("script", v) for v in option_values(argv, ("-TT",), ("--unzip-command",))
    ]
    moves = "--move" in argv or any(
        w[:1] == "-" and w[1:2] != "-" and "m" in w[1:] and w not in ("-TT",) for w in argv[1:]
    )
    operands = [w for w in argv[1:] if not w.startswith("-")]
    if moves and len(operands) > 1:  # zip -m: the files are deleted once zipped
        out.append(("argv", ["rm", "-r", "-f", *operands[1:]]))
    return out


def _split(argv: list[str], stdin: list[str]) -> list[tuple[str, Any]]:
    """``split --filter=CMD`` runs CMD through ``$SHELL -c`` for every piece."""
    return [("script", value) for value in option_values(argv, (), ("--filter",))]


def _compiler(argv: list[str], stdin: list[str]) -> list[tuple[str, Any]]:
    """gcc's ``-wrapper PROG,ARG,...`` runs every subprocess (cc1, as, ld) under PROG."""
    return [("argv", value.split(",")) for value in option_values(argv, ("-wrapper",), ())]


def _go(argv: list[str], stdin: list[str]) -> list[tuple[str, Any]]:
    """``go build -toolexec CMD``, ``go test -exec CMD``, ``go run -exec CMD``: CMD runs
    every tool or test binary (split on spaces, as go splits it)."""
    values = option_values(argv, ("-toolexec", "-exec", "--toolexec", "--exec"), ())
    return [("script", value) for value in values]


# wgetrc commands (-e CMD) that name a file wget reads and sends, or writes; spelled with
# any case, `_` or `-` (wget ignores them)
_WGET_READS = frozenset(["postfile", "bodyfile", "input", "loadcookies", "certificate",
                         "privatekey", "cacertificate"])  # fmt: skip
_WGET_WRITES = frozenset(["outputdocument", "logfile", "savecookies", "warcfile"])


def _wget(argv: list[str], stdin: list[str]) -> list[tuple[str, Any]]:
    """``wget -e 'post_file = .env'``: a wgetrc command from the line; one that names a
    file is a read (sent) or a write of it."""
    found: list[tuple[str, Any]] = []
    for text in option_values(argv, ("-e",), ("--execute",)):
        name, eq, value = text.partition("=")
        key = name.strip().lower().replace("_", "").replace("-", "")
        value = value.strip()
        if eq and value and key in _WGET_READS:
            found.append(("read", value))
        elif eq and value and key in _WGET_WRITES:
            found.append(("write", value))
    return found


# curl's short options that take a value: in a cluster, the rest of the word is it
_CURL_VALUED = frozenset("AbcCdDeEFHKmoPQrtTuUwxXyYz")


def _curl(argv: list[str], stdin: list[str]) -> list[tuple[str, Any]]:
    """``curl -n`` (``--netrc``, ``--netrc-optional``) sends the credentials ``~/.netrc``
    holds for the host: a read of that file, as ``--netrc-file ~/.netrc`` is."""
    for word in argv[1:]:
        if word == "--":
            break
        if word in ("--netrc", "--netrc-optional") or (
            len(word) > 3 and "--netrc-optional".startswith(word) and word != "--netrc-"
        ):
            return [("read", "~/.netrc")]
        if word[:1] == "-" and word[1:2] not in ("-", ""):
            for letter in word[1:]:
                if letter == "n":
                    return [("read", "~/.netrc")]
                if letter in _CURL_VALUED:
                    break
    return []


def _vim(argv: list[str], stdin: list[str]) -> list[tuple[str, Any]]:
    """vim's ``-c '!CMD'``: a shell command (the rest of its Ex commands, what their
    expressions call included, are read with the ex reader: code_readers)."""
    commands = option_values(argv, ("-c",), ("--cmd",))
    commands += [w[1:] for w in argv[1:] if w.startswith("+")]
    return [("script", text.split("!", 1)[1]) for text in commands if "!" in text]


# make's long options (make --help, GNU make 4.3): --ev is --eval, as getopt abbreviates
_MAKE_LONGS = frozenset(
    [
        "--always-make",
        "--directory",
        "--debug",
        "--environment-overrides",
        "--eval",
        "--file",
        "--makefile",
        "--help",
        "--ignore-errors",
        "--include-dir",
        "--jobs",
        "--keep-going",
        "--load-average",
        "--check-symlink-times",
        "--just-print",
        "--dry-run",
        "--recon",
        "--output-sync",
        "--old-file",
        "--assume-old",
        "--print-data-base",
        "--question",
        "--no-builtin-rules",
        "--no-builtin-variables",
        "--silent",
        "--quiet",
        "--no-silent",
        "--no-keep-going",
        "--stop",
        "--touch",
        "--trace",
        "--version",
        "--print-directory",
        "--no-print-directory",
        "--what-if",
        "--new-file",
        "--assume-new",
        "--warn-undefined-variables",
    ]
)
# variables whose value is a command that make's built-in rules (or a recipe) run
_MAKE_COMMANDS = frozenset(
    [
        "SHELL",
        "CC",
        "CXX",
        "CPP",
        "FC",
        "PC",
        "LD",
        "AR",
        "AS",
        "RM",
        "LEX",
        "YACC",
        "M2C",
        "CO",
        "GET",
        "MAKEINFO",
        "TEX",
        "TEXI2DVI",
        "WEAVE",
        "CWEAVE",
        "TANGLE",
        "CTANGLE",
        "MAKE",
        "LINT",
    ]
)


# variables make itself reads to run its recipes or to find its options and makefiles: set
# on the line, the project's own targets run what the line says, not what is on disk
# (``make test .SHELLFLAGS='-c rm\ -rf\ x #'`` runs `sh -c 'rm -rf x' '#' RECIPE`, red
# team s29 J). SHELL is read below: a shell runs the recipes as written.
_MAKE_RUNNERS = frozenset([".SHELLFLAGS", "MAKESHELL", "MAKEFILES", "MAKEOVERRIDES",
                           ".RECIPEPREFIX"])  # fmt: skip
_MAKE_FLAGS = frozenset(["MAKEFLAGS", "MFLAGS", "GNUMAKEFLAGS"])


def make_runs(
    argv: list[str], stdin: list[str], shells: frozenset[str], loaders: dict[str, str]
) -> list[tuple[str, Any]]:
    """What make runs from its own words (``--eval``, variables it or its built-in rules
    use to run commands, variables exported to its recipes); the makefile is read apart.
    ``shells`` and ``loaders``: programs.SHELLS and programs.ENV_LOADERS, given by the
    caller (programs imports this module: no cycle back)."""
    found: list[tuple[str, Any]] = []
    words = _unabbreviated(argv, sorted(_MAKE_LONGS))  # --ev=... is --eval=...
    for text in option_values(words, ("-E",), ("--eval",)):
        found += makefile_items(text)
    for word in words[1:]:
        if word == "--":
            break
        name, eq, value = word.partition("=")
        name = name.rstrip(":+?!")  # X:=v, X+=v, X?=v, X!=v are assignments too
        if not eq or word[:1] == "-":
            continue
        if name in _MAKE_FLAGS:  # make's own words again: read as they are here
            import shlex

            try:
                found += make_runs(["make", *shlex.split(value)], stdin, shells, loaders)
            except ValueError:
                found.append(("unverifiable", f"{name}={value} is not readable as make's words"))
        elif name in _MAKE_RUNNERS:
            why = f"{name} is set on the line, and make runs every recipe with it"
            found.append(("unverifiable", f"{why}: what the project's targets run is not theirs"))
        elif name == "SHELL" and value:  # recipes run as `$(SHELL) -c RECIPE`
            shell = value.rsplit("/", 1)[-1]
            if shell not in shells or "$" in value or "`" in value:
                why = f"SHELL={value} makes make run every recipe with a program that is no shell"
                found.append(("unverifiable", why))
            found.append(("script", f"{value} -c :"))
        elif name in _MAKE_COMMANDS and value:
            found.append(("script", value))  # make CC='...' x.o: the built-in rule runs it
        elif name in loaders:  # make exports a line's variables to every recipe
            found.append(("argv", ["env", f"{name}={value}", "make"]))  # (and sub-makes)
    return in_directory(found, make_directory(words))


def make_words_run(words: list[str], shells: frozenset[str], loaders: dict[str, str]) -> bool:
    """Whether make's words (``MAKEFLAGS``' value: options and variables, as on its
    command line) make it run anything but the makefile's recipes as written."""
    found = make_runs(["make", *words], [], shells, loaders)
    return any(kind in ("unverifiable", "script") for kind, _ in found)


def _compgen(argv: list[str], stdin: list[str]) -> list[tuple[str, Any]]:
    # -C CMD runs CMD for completions (Bamboo#584); -W WORDS is expanded as words are,
    # so its command substitutions run (compgen -W '$(cmd)') and its variables' values are
    # printed (compgen -W '$SECRET' after a sourced .env, red team s28 H): it is echo WORDS
    found: list[tuple[str, Any]] = [("script", v) for v in option_values(argv, ("-C",), ())]
    for words in option_values(argv, ("-W",), ()):
        if "$" in words or "`" in words or "<(" in words:
            found.append(("script", f"echo {words}"))
    return found


def _dpkg_buildpackage(argv: list[str], stdin: list[str]) -> list[tuple[str, Any]]:
    """dpkg-buildpackage's ``--hook-NAME=CMD`` run CMD in the shell; ``-rCMD`` /
    ``--root-command``, ``--check-command`` and ``--sign-command`` name a program it runs;
    and it runs debian/rules, a makefile (red team s28 P): read as ``make -f`` of it, so
    one written on the line is read as make's code."""
    found: list[tuple[str, Any]] = []
    for word in argv[1:]:
        if word.startswith("--hook-") and "=" in word:
            found.append(("script", word.partition("=")[2]))
    programs = option_values(argv, ("-r",), ("--root-command", "--check-command",
                                            "--sign-command"))  # fmt: skip
    found += [("argv", [value]) for value in programs if value]
    found.append(("argv", ["make", "-f", "debian/rules"]))
    return found


def _man(argv: list[str], stdin: list[str]) -> list[tuple[str, Any]]:
    """``man -P CMD`` / ``--pager=CMD`` and ``-H``/``--html=BROWSER``: man runs the
    pager (and the browser) as a shell command line."""
    found: list[tuple[str, Any]] = []
    for index, word in enumerate(argv[1:], start=1):
        value = None
        if word in ("-P", "--pager") and index + 1 < len(argv):
            value = argv[index + 1]
        elif word.startswith(("--pager=", "--html=")):
            value = word.split("=", 1)[1]
        elif word.startswith(("-P", "-H")) and len(word) > 2 and word[1:2] != "-":
            value = word[2:]
        if value:
            found.append(("script", value))
    return found


HANDLERS: dict[str, Callable[[list[str], list[str]], list[tuple[str, Any]]]] = {
    "tar": _tar,
    "gtar": _tar,
    "bsdtar": _tar,
    "rsync": _rsync,
    "zip": _zip,
    **dict.fromkeys(["vi", "vim", "nvim", "ex", "view", "gvim", "vimdiff", "rvim", "evim"], _vim),
    "compgen": _compgen,
    "complete": _compgen,
    "man": _man,
    "dpkg-buildpackage": _dpkg_buildpackage,
    "split": _split,
    **dict.fromkeys(["gcc", "cc", "g++", "c++", "gcc-12", "clang", "clang++"], _compiler),
    "go": _go,
    "wget": _wget,
    "curl": _curl,
}


def option_runs(program: str, argv: list[str], stdin: list[str]) -> list[tuple[str, Any]]:
    """What ``program`` (one of :data:`HANDLERS`) runs from its options, as
    :func:`hookwise.shell.programs.runs` answers."""
    return HANDLERS[program](argv, stdin)
