"""What programs do with their arguments: one table, read by the shell parser and the matcher.

Two kinds of knowledge, so that rule authors write intent, not spellings:

- **options** (:data:`OPTIONS`): for common programs, which spellings are one option
  (``rm -r`` = ``-R`` = ``--recursive``), the long options GNU getopt accepts abbreviated
  (``--rec`` is ``--recursive`` when no other long option starts so), and which options
  take a value (so ``-n 5`` is not a positional ``5``). ``command: rm -r`` matches every
  spelling bash and the program accept.
- **commands run by other commands**: which programs run another command (wrappers,
  shells, interpreters, remote commands, programs with a command option), and
  :func:`runs`, the dispatch to what each runs.

This module is on the hook's hot path, so it holds the names and the dispatch; what a
particular program runs lives in a module of its own, imported only for that program:
:mod:`~hookwise.shell.wrappers` (``sudo``, ``env -C``, ``su -c``...),
:mod:`~hookwise.shell.find_exec`, :mod:`~hookwise.shell.remote_exec` (``ssh``,
``docker exec``...), :mod:`~hookwise.shell.code_commands` (interpreter one-liners),
:mod:`~hookwise.shell.git_config`, :mod:`~hookwise.shell.option_commands` (``tar``,
``rsync``, ``vim``, ``make``...), :mod:`~hookwise.shell.sed_script`,
:mod:`~hookwise.shell.commands.multiplexers` and :mod:`~hookwise.shell.xargs_input`; what particular
commands do beyond that is in :mod:`hookwise.shell.commands` (git refs elsewhere, environment
files, included files, trees deleted). Standard library only.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any

# ------------------------------------------------------------------------------ options

# program -> (alias groups, first spelling canonical; long options; options taking a value)
OPTIONS: dict[str, tuple[tuple[tuple[str, ...], ...], tuple[str, ...], frozenset[str]]] = {
    "rm": (
        (
            ("-r", "-R", "--recursive"),
            ("-f", "--force"),
            ("-i",),
            ("-I",),
            ("-d", "--dir"),
            ("-v", "--verbose"),
        ),
        (
            "--recursive",
            "--force",
            "--dir",
            "--verbose",
            "--interactive",
            "--one-file-system",
            "--no-preserve-root",
            "--preserve-root",
            "--help",
            "--version",
        ),
        frozenset(),
    ),
    "cp": (
        (
            ("-r", "-R", "--recursive"),
            ("-f", "--force"),
            ("-a", "--archive"),
            ("-t", "--target-directory"),
        ),
        (
            "--recursive",
            "--force",
            "--archive",
            "--target-directory",
            "--no-clobber",
            "--backup",
            "--preserve",
            "--parents",
            "--update",
            "--verbose",
        ),
        frozenset(["-t", "--target-directory", "-S", "--suffix"]),
    ),
    "mv": (
        (("-f", "--force"), ("-t", "--target-directory"), ("-n", "--no-clobber")),
        ("--force", "--target-directory", "--no-clobber", "--backup", "--update", "--verbose"),
        frozenset(["-t", "--target-directory", "-S", "--suffix"]),
    ),
    "chmod": (
        (("-R", "--recursive"), ("-f", "--silent", "--quiet"), ("-v", "--verbose")),
        ("--recursive", "--silent", "--quiet", "--verbose", "--changes", "--reference"),
        frozenset(),
    ),
    "chown": (
        (("-R", "--recursive"), ("-f", "--silent", "--quiet"), ("-h", "--no-dereference")),
        ("--recursive", "--silent", "--quiet", "--no-dereference", "--from", "--reference"),
        frozenset(["--from", "--reference"]),
    ),
    "git": (
        (
            ("-f", "--force"),
            ("-d", "--delete"),
            ("-D",),
            ("-n", "--dry-run"),
            ("-x",),
            ("-X",),
            ("-u", "--set-upstream"),
        ),
        (
            "--force",
            "--force-with-lease",
            "--force-if-includes",
            "--delete",
            "--dry-run",
            "--set-upstream",
            "--all",
            "--mirror",
            "--tags",
            "--hard",
            "--soft",
            "--mixed",
            "--no-verify",
            "--prune",
            "--recurse-submodules",
        ),
        frozenset(
            [
                "-C",
                "-c",
                "--git-dir",
                "--work-tree",
                "-m",
                "-o",
                "--push-option",
                "--repo",
                "--exec-path",
                "--namespace",
            ]
        ),
    ),
    "dd": ((), (), frozenset()),
    "mkfs": ((("-t", "--type"), ("-f", "--force")), ("--type",), frozenset(["-t", "--type"])),
    "find": ((), (), frozenset()),
    "curl": (
        (
            ("-o", "--output"),
            ("-d", "--data"),
            ("-X", "--request"),
            ("-k", "--insecure"),
            ("-s", "--silent"),
            ("-L", "--location"),
            ("-T", "--upload-file"),
            ("-F", "--form"),
        ),
        (
            "--output",
            "--data",
            "--data-binary",
            "--data-raw",
            "--request",
            "--insecure",
            "--silent",
            "--location",
            "--upload-file",
            "--form",
            "--header",
            "--user",
        ),
        frozenset(
            [
                "-o",
                "--output",
                "-d",
                "--data",
                "--data-binary",
                "--data-raw",
                "-X",
                "--request",
                "-T",
                "--upload-file",
                "-F",
                "--form",
                "-H",
                "--header",
                "-u",
                "--user",
                "-A",
                "--user-agent",
                "-e",
                "--referer",
                "-x",
                "--proxy",
            ]
        ),
    ),
    "wget": (
        (("-O", "--output-document"), ("-q", "--quiet"), ("-r", "--recursive")),
        ("--output-document", "--quiet", "--recursive", "--post-data", "--post-file"),
        frozenset(["-O", "--output-document", "--post-data", "--post-file", "-P"]),
    ),
    "docker": (
        (
            ("-f", "--force"),
            ("-a", "--all"),
            ("-v", "--volumes"),
            ("-i", "--interactive"),
            ("-t", "--tty"),
            ("-u", "--user"),
            ("-e", "--env"),
            ("-w", "--workdir"),
        ),
        (
            "--force",
            "--all",
            "--volumes",
            "--interactive",
            "--tty",
            "--user",
            "--env",
            "--workdir",
            "--privileged",
            "--rm",
            "--detach",
        ),
        frozenset(
            [
                "-u",
                "--user",
                "-e",
                "--env",
                "-w",
                "--workdir",
                "--name",
                "-v",
                "--volume",
                "-p",
                "--publish",
                "--entrypoint",
                "--network",
                "--detach-keys",
                "-H",
                "--host",
                "--context",
                "--env-file",
            ]
        ),
    ),
    # Procfile runners: -e/--env is their environment file (ENV_FILE_OPTION's meaning)
    "foreman": (
        (("--env-file", "-e", "--env"), ("-f", "--procfile"), ("-d", "--root")),
        ("--env", "--procfile", "--root", "--port", "--formation", "--timeout"),
        frozenset(
            [
                "-e",
                "--env",
                "-f",
                "--procfile",
                "-d",
                "--root",
                "-p",
                "--port",
                "-m",
                "--formation",
                "-t",
                "--timeout",
            ]
        ),
    ),
    "honcho": (
        (("--env-file", "-e", "--env"), ("-f", "--procfile"), ("-d", "--app-root")),
        ("--env", "--procfile", "--app-root", "--port", "--concurrency", "--quiet"),
        frozenset(
            [
                "-e",
                "--env",
                "-f",
                "--procfile",
                "-d",
                "--app-root",
                "-p",
                "--port",
                "-c",
                "--concurrency",
                "-q",
                "--quiet",
            ]
        ),
    ),
    "kubectl": (
        (
            ("-n", "--namespace"),
            ("-A", "--all-namespaces"),
            ("-f", "--filename"),
            ("-c", "--container"),
            ("-i", "--stdin"),
            ("-t", "--tty"),
        ),
        (
            "--namespace",
            "--all-namespaces",
            "--filename",
            "--container",
            "--stdin",
            "--tty",
            "--all",
            "--force",
            "--grace-period",
            "--context",
            "--cascade",
        ),
        frozenset(
            [
                "-n",
                "--namespace",
                "-f",
                "--filename",
                "-c",
                "--container",
                "--context",
                "-l",
                "--selector",
                "-o",
                "--output",
                "--kubeconfig",
                "--grace-period",
            ]
        ),
    ),
    "terraform": (
        (("-auto-approve", "--auto-approve"), ("-destroy", "--destroy")),
        (),
        frozenset(["-var", "-var-file", "-target", "-chdir"]),
    ),
}

# git abbreviates long options per subcommand (``git clean --forc`` is --force there, and
# ambiguous in ``git push``): the long options of each, from ``git SUB -h`` (git 2.4x)
GIT_LONGS: dict[str, str] = {
    "push": (
        "--all --atomic --delete --dry-run --exec --follow-tags --force --force-if-includes "
        "--force-with-lease --ipv4 --ipv6 --mirror --no-verify --porcelain --progress --prune "
        "--push-option --quiet --receive-pack --recurse-submodules --repo --set-upstream "
        "--signed --tags --thin --verbose"
    ),
    "clean": "--dry-run --exclude --force --interactive --quiet",
    "reset": (
        "--hard --intent-to-add --keep --merge --mixed --no-refresh --patch "
        "--pathspec-file-nul --pathspec-from-file --quiet --recurse-submodules --soft"
    ),
    "branch": (
        "--abbrev --all --color --column --contains --copy --create-reflog --delete "
        "--edit-description --force --format --ignore-case --list --merged --move "
        "--no-contains --no-merged --points-at --quiet --recurse-submodules --remotes "
        "--set-upstream-to --show-current --sort --track --unset-upstream --verbose"
    ),
    "checkout": (
        "--conflict --detach --force --guess --ignore-other-worktrees "
        "--ignore-skip-worktree-bits --merge --orphan --ours --overlay --overwrite-ignore "
        "--patch --pathspec-file-nul --pathspec-from-file --progress --quiet "
        "--recurse-submodules --theirs --track"
    ),
    "switch": (
        "--conflict --create --detach --discard-changes --force --force-create --guess "
        "--ignore-other-worktrees --merge --orphan --overwrite-ignore --progress --quiet "
        "--recurse-submodules --track"
    ),
    "rebase": (
        "--abort --apply --autosquash --autostash --committer-date-is-author-date --continue "
        "--edit-todo --empty --exec --force-rebase --fork-point --gpg-sign --ignore-whitespace "
        "--interactive --keep-base --merge --no-ff --no-stat --no-verify --onto --quiet --quit "
        "--reapply-cherry-picks --rebase-merges --rerere-autoupdate --reschedule-failed-exec "
        "--reset-author-date --root --show-current-patch --signoff --skip --strategy "
        "--strategy-option --update-refs --verbose --whitespace"
    ),
    "gc": "--aggressive --auto --cruft --force --keep-largest-pack --prune --quiet",
    "tag": (
        "--annotate --cleanup --color --column --contains --create-reflog --delete --edit "
        "--file --force --format --ignore-case --list --local-user --merged --message "
        "--no-column --no-contains --no-merged --points-at --sign --sort --verify"
    ),
}
_GIT_LONGS: dict[str, tuple[str, ...]] = {}


def git_longs(sub: str) -> tuple[str, ...] | None:
    """The long options of ``git SUB`` (None: not in the table)."""
    found = _GIT_LONGS.get(sub)
    if found is None and sub in GIT_LONGS:
        found = _GIT_LONGS[sub] = tuple(GIT_LONGS[sub].split())
    return found


_LONG_FOR: dict[str, dict[str, str]] = {}  # program -> spelling -> canonical spelling


def _canonical_map(program: str) -> dict[str, str]:
    found = _LONG_FOR.get(program)
    if found is None:
        found = {}
        groups, _longs, _values = OPTIONS.get(program, ((), (), frozenset()))
        for group in groups:
            for spelling in group:
                found[spelling] = group[0]
        _LONG_FOR[program] = found
    return found


def expand_long(program: str, word: str, longs: Sequence[str] | None = None) -> str:
    """``--rec`` -> ``--recursive`` when the program has exactly one long option so
    starting (GNU getopt's abbreviation); the word itself otherwise. ``longs``: the
    options of a subcommand (git's), instead of the program's."""
    spec = OPTIONS.get(program)
    if spec is None or not word.startswith("--"):
        return word
    name = word.split("=", 1)[0]
    if longs is None:
        longs = spec[1]
    if name in longs:
        return name
    matches = [option for option in longs if option.startswith(name)]
    return matches[0] if len(matches) == 1 else name


def canonical_flag(program: str, flag: str, longs: Sequence[str] | None = None) -> str:
    """The spelling a rule and a command share for one option of ``program``."""
    if flag.startswith("--"):
        flag = expand_long(program, flag, longs)
    return _canonical_map(program).get(flag, flag)


def takes_value(program: str, option: str) -> bool:
    spec = OPTIONS.get(program)
    return spec is not None and (option in spec[2] or expand_long(program, option) in spec[2])


def flags_of(program: str, argv: list[str]) -> tuple[set[str], list[str]]:
    """(canonical flags present, positional arguments) of one simple command."""
    flags: set[str] = set()
    positional: list[str] = []
    known = program in OPTIONS
    longs: Sequence[str] | None = None
    force_refspec = False
    if program == "git":
        at = git_subcommand(argv)
        longs = git_longs(argv[at]) if at > 0 else None
        # git push origin +main: a + refspec is git's own spelling of --force
        force_refspec = at > 0 and argv[at] == "push"
    words = iter(argv[1:])
    done = False
    for word in words:
        if done or word == "-" or not word.startswith("-") or len(word) < 2:
            if not done and word == "--":
                done = True
                continue
            positional.append(word)
            if force_refspec and word.startswith("+") and len(word) > 1:
                flags.update(("-f", "--force"))
            continue
        if word == "--":
            done = True
            continue
        if word.startswith("--"):
            name = canonical_flag(program, word, longs)
            flags.add(name)
            flags.add(word.split("=", 1)[0])  # the spelling as written counts too
            if known and "=" not in word and takes_value(program, word):
                next(words, None)
            continue
        if word[1].isdigit():
            positional.append(word)
            continue
        if known and program in ("terraform",):
            flags.add(canonical_flag(program, word.split("=", 1)[0]))
            continue
        for index, letter in enumerate(word[1:], start=1):
            short = "-" + letter
            flags.add(canonical_flag(program, short))
            flags.add(short)
            if known and takes_value(program, short):
                if index == len(word) - 1:
                    next(words, None)
                break
    return flags, positional


# programs with options whose value is a pattern of what they leave out (zip -x, tar,
# rsync and grep --exclude, find ! -path): exclusions.py reads which words those are
_EXCLUDERS = frozenset(["zip", "unzip", "tar", "gtar", "bsdtar", "rsync", "grep", "egrep",
                        "fgrep", "rg", "ag", "find", "cp", "du", "tree", "7z"])  # fmt: skip
_NO_WORDS: frozenset[int] = frozenset()


def excluded_words(program: str, argv: list[str]) -> frozenset[int] | set[int]:
    """The indices of words that are not files the command reads or changes: exclusion
    patterns (``zip -r a.zip . -x '.env'``, ``tar --exclude .hookwise``, ``find . ! -path
    './.git/*'``), an environment file's name (``--env-file .env``: the parser reads it
    as ``source .env``) and a filter program (``jq '.env' f.json``)."""
    if program in FILTER_FIRST or program in ENV_FILE_SPELLED or ENV_FILE_OPTION in argv:
        return _not_files(program, argv)
    if program in _SEARCHERS:
        return _search_pattern(program, argv) | _exclusions(program, argv)
    return _exclusions(program, argv)


# searchers whose first operand is the pattern unless -e/-f (or rg's --regexp/--file) give
# it: `grep -rn '.env' src/` searches src/ for the text, it does not read .env
_SEARCHERS = frozenset(["grep", "egrep", "fgrep", "rg", "ag", "ack"])


def _search_pattern(program: str, argv: list[str]) -> set[int]:
    """The index of a searcher's pattern operand, when no option gives the pattern."""
    flags, positional = flags_of(program, argv)
    if flags & {"-e", "-f", "--regexp", "--file"} or not positional:
        return set()
    return {argv.index(positional[0], 1)}


def _exclusions(program: str, argv: list[str]) -> frozenset[int] | set[int]:
    if program not in _EXCLUDERS:
        return _NO_WORDS
    if program == "find":
        hint = "!" in argv or "-not" in argv or "-prune" in argv
    elif program in ("zip", "unzip"):
        hint = any(w.startswith(("-x", "-i")) for w in argv)
    else:
        hint = any(w.startswith(("--ex", "--fi", "--gl", "--ig", "-g", "-I")) for w in argv)
    if not hint:
        return _NO_WORDS
    from hookwise.shell.exclusions import excluded

    return excluded(program, argv)


def _not_files(program: str, argv: list[str]) -> set[int]:
    """excluded_words for an environment file's name and a filter program."""
    found = set(_exclusions(program, argv))
    spelled = program in ENV_FILE_SPELLED
    for at in range(1, len(argv) - 1):
        word = argv[at]
        if word == ENV_FILE_OPTION or (
            spelled and canonical_flag(program, word) == ENV_FILE_OPTION
        ):
            found.add(at + 1)
    if program in FILTER_FIRST and not any(
        w in ("-f", "--from-file") or w.startswith("--from-file=") for w in argv
    ):
        _, positional = flags_of(program, argv)
        if positional:
            found.add(argv.index(positional[0], 1))
    return found


_GIT_GREP_PATTERN = frozenset(["-e", "-f", "--file", "--and", "--or", "--not"])


def _git_patch(word: str) -> bool:
    """Whether a git log option prints the changes' content (-p, -u, -L, --patch, --cc...)."""
    if word.startswith("--"):
        return word.startswith(("--patch", "--cc", "--word-diff", "--color-words", "--full-diff"))
    return word.startswith("-") and any(c in word[1:] for c in "puLcm")


def _forced_tree_add(args: list[str]) -> bool:
    """``git add -f`` of a whole tree: ``-A``/``--all``/``-u`` or no path, ``.``, ``:/``,
    a ``dir/``."""
    forced = any(
        w in ("--force", "-f") or (w[:1] == "-" and w[1:2] != "-" and "f" in w[1:])
        for w in args
        if w.startswith("-")
    )
    if not forced:
        return False
    paths = [w for w in args if not w.startswith("-")]
    return not paths or any(p in (".", ":/", "./", "*") or p.endswith("/") for p in paths)


def read_operands(program: str, argv: list[str]) -> list[str]:
    """The files a SUBCOMMAND_READERS subcommand prints or sends (``git show HEAD:.env``
    names ``.env``); none for another subcommand. The subcommand is git's, or the first
    or second word that is not an option (``docker container cp``, ``kubectl -n ns cp``:
    an option's value may stand first), so a reading subcommand is not missed."""
    fact = SUBCOMMAND_READERS.get(program)
    if fact is None:
        return []
    subcommands, object_paths = fact
    pattern_first = False
    if program == "git":
        at = git_subcommand(argv)
        if at < 0 or argv[at] not in subcommands:
            return []
        sub = argv[at]
        if sub in ("log", "whatchanged") and not any(_git_patch(w) for w in argv[at + 1 :]):
            return []  # a file's history without -p prints no content
        if sub == "hash-object" and not any(w == "-w" for w in argv[at + 1 :]):
            return []  # a hash only; -w copies into the object store (below)
        # add/stage copy a file into the object store too: `git diff --cached` or
        # `git show :F` then prints it without naming it
        if sub == "grep":  # the pattern comes first, or after -e/-f (skipped below)
            pattern_first = not any(w in _GIT_GREP_PATTERN for w in argv[at + 1 :])
            if "--no-exclude-standard" in argv[at + 1 :]:
                # it searches the ignored files too (a .env is ignored because it is a
                # secret): which ones, the tree says when it runs
                return [COMPUTED]
        if sub in ("add", "stage") and _forced_tree_add(argv[at + 1 :]):
            # git add -A -f: ignored files too (.env is ignored because it is a secret),
            # named by the tree's listing when it runs; git diff --cached prints them
            return [COMPUTED]
    else:
        leading = [i for i, w in enumerate(argv) if i > 0 and not w.startswith("-")][:2]
        found = [i for i in leading if argv[i] in subcommands]
        if not found:
            return []
        at = found[0]
    operands: list[str] = []
    done = skip = False
    for written in argv[at + 1 :]:
        word = written
        if skip:
            skip = False
            continue
        if word == "--" and not done:
            done = True
            continue
        if not done and program == "git" and word.startswith("--pathspec-from-file"):
            operands.append(COMPUTED)  # the paths are a file's lines
            continue
        if not done and program == "git" and word in _GIT_GREP_PATTERN:
            skip = argv[at] == "grep"
            continue
        if word.startswith("-L") and len(word) > 2 and not done and program == "git":
            word = word[2:]  # git log -L1,5:.env: a range of the file, printed
        elif not word or (word.startswith("-") and not done):
            continue
        if pattern_first and not done:
            pattern_first = False
            continue
        if object_paths and ":" in word:  # HEAD:.env, origin/main:a/.env, :.env, :0:.env
            word = word.split(":", 1)[1]
            if word[1:2] == ":" and word[:1] in "0123":
                word = word[2:]
            if not word:
                continue
        elif not object_paths and operands:
            break  # cp SRC DEST: only the source is read
        elif ":" in word and "/" not in word.split(":", 1)[0]:
            return []  # docker cp c:/x ./x: a copy out of the container reads no local file
        operands.append(word)
    return operands


# programs that read a directory they are given, and all below it (for some, only with
# an option: reads_tree)
TREE_READERS = frozenset(
    ["tar", "gtar", "bsdtar", "zip", "7z", "7za", "grep", "egrep", "fgrep", "rg", "ag", "diff",
     "ack", "cp", "rsync", "scp", "rclone", "gsutil", "aws", "az", "tree", "git"]
)  # fmt: skip


def reads_tree(program: str, argv: list[str]) -> bool:
    """Whether ``program`` reads the directories in ``argv`` recursively: ``tar c``
    (always), ``zip -r``, ``grep -r``, ``rg`` (always), ``cp -r``, ``rsync -a``."""
    if program in ("tar", "gtar", "bsdtar"):
        return _tar_creates(argv)  # tar xzf a.tgz -C /tmp: -C is where it extracts to
    if program in ("7z", "7za"):
        return not (len(argv) > 1 and argv[1] in ("x", "e", "l", "t"))
    if program in ("rg", "ag", "ack", "rclone"):
        return True
    if program == "git":
        return len(argv) > 1 and argv[1] == "add"
    if program in _GREPS and _grep_recurses(argv):
        return True
    for word in argv[1:]:
        if word in ("--recursive", "--recurse-paths", "--archive", "--dereference-recursive"):
            return True
        if (
            word.startswith("-")
            and not word.startswith("--")
            and ("r" in word or "R" in word or (program == "rsync" and "a" in word))
        ):
            return True
    return False


_GREPS = frozenset(["grep", "egrep", "fgrep"])


def _grep_recurses(argv: list[str]) -> bool:
    """Whether grep recurses by a spelling the letters miss (red team s29 G): GNU getopt
    takes a long option's unique prefix (``--rec``, ``--dereference``) and argmatch a
    value's (``-d rec``, ``--dir=recurse``, ``-drecurse``)."""
    for at, word in enumerate(argv[1:], start=1):
        name, equals, value = word.partition("=")
        if len(name) >= 5 and "--recursive".startswith(name):
            return True
        if len(name) >= 5 and "--dereference-recursive".startswith(name):
            return True
        if word == "-d" or (len(name) >= 4 and "--directories".startswith(name)):
            if not equals:
                value = argv[at + 1] if at + 1 < len(argv) else ""
        elif word.startswith("-d") and not word.startswith("--"):
            value = word[2:]
        else:
            continue
        if len(value) >= 3 and "recurse".startswith(value):
            return True
    return False


def follows_links(program: str, argv: list[str]) -> bool:
    """Whether a tree read follows the symbolic links it meets inside the tree: ``grep
    -R`` (``--dereference-recursive``), ``diff -r`` (it compares what links reach), ``zip
    -r`` (unless ``-y``), ``rg -L``, ``cp -L``, ``tar -h``, ``rsync -L``. ``grep -r``
    follows only the links it is given, which the look starts from."""
    if program in ("diff",):
        return True
    long_names = {"grep": "--dereference-recursive", "egrep": "--dereference-recursive",
                  "fgrep": "--dereference-recursive", "rg": "--follow", "cp": "--dereference",
                  "tar": "--dereference", "rsync": "--copy-links", "zip": ""}  # fmt: skip
    letter = {"zip": "", "tar": "h"}.get(program, "R" if program in _GREPS else "L")
    if program not in long_names:
        return False
    found = False
    for word in argv[1:]:
        long_name = long_names[program]
        if word.startswith("--"):
            name = word.partition("=")[0]
            found |= bool(long_name) and len(name) >= 5 and long_name.startswith(name)
        elif word.startswith("-") and letter and letter in word[1:]:
            found = True
    if program == "zip":
        return not any(w == "--symlinks" or (w[:1] == "-" and w[1:2] != "-" and "y" in w)
                       for w in argv[1:])  # fmt: skip
    return found


def _tar_creates(argv: list[str]) -> bool:
    """Whether tar makes or adds to an archive (reads the trees it is given): ``c``,
    ``r``, ``u`` or ``A`` in its mode word or a cluster, or the long spelling. Extracting
    (``x``), listing (``t``) and comparing (``d``) read the archive, not the trees."""
    for index, word in enumerate(argv[1:], start=1):
        if word.startswith("--"):
            if word in ("--create", "--append", "--update", "--catenate", "--concatenate"):
                return True
            if word in ("--extract", "--get", "--list", "--diff", "--compare"):
                return False
            continue
        if word.startswith("-") or index == 1:
            letters = word.lstrip("-")
            for letter in letters:
                if letter in "cruA":
                    return True
                if letter in "xtd":
                    return False
                if letter in "fCTXbHKLNgV":  # a letter that takes a value ends the cluster
                    break
    return True  # no mode found: read as tar's reads always were


# ------------------------------------------------------------------ commands run by others

# Wrappers: programs that run the command in their arguments (sudo, env, timeout,
# xargs...). The names only: what each takes is hookwise.shell.wrappers.WRAPPERS, loaded
# for a command that starts with one of these (tests/policy/test_cold_shell.py: the same set)
WRAPPER_NAMES = frozenset(
    [
        "sudo",
        "doas",
        "pkexec",
        "env",
        "command",
        "builtin",
        "exec",
        "nohup",
        "time",
        "nice",
        "ionice",
        "chrt",
        "stdbuf",
        "timeout",
        "xargs",
        "setsid",
        "flock",
        "chroot",
        "taskset",
        "watch",
        "su",
        "runuser",
        "sg",
        "script",
        "strace",
        "ltrace",
        "unshare",
        "nsenter",
        "busybox",
        "toybox",
        "eatmydata",
        "fakeroot",
        "firejail",
        "proxychains",
        "proxychains4",
        "torsocks",
        "catchsegv",
        "caffeinate",
        "systemd-run",
        "valgrind",
        "unbuffer",
        "chronic",
        "nocache",
        "ssh-agent",
        "dbus-run-session",
        "xvfb-run",
        "prlimit",
        "setpriv",
        "numactl",
        "gosu",
        "su-exec",
        "tini",
        "dumb-init",
        "sshpass",
        "faketime",
        "cpulimit",
        "trickle",
        "aa-exec",
        "runcon",
        "chpst",
        "setarch",
        "linux32",
        "linux64",
    ]
)
# Runners: a subcommand runs the command after it (uv run, poetry run, bundle exec,
# direnv exec...); the table is hookwise.shell.wrappers.RUNNERS (the same names)
RUNNER_NAMES = frozenset(
    ["uv", "uvx", "pipx", "poetry", "pipenv", "pdm", "hatch", "rye", "conda", "mamba",
     "micromamba", "pixi", "bundle", "direnv", "nix-shell", "nix", "devbox", "mise", "asdf",
     "op", "doppler", "aws-vault", "dotenv", "dotenvx", "env-cmd", "honcho", "foreman",
     "heroku", "just"]
)  # fmt: skip
# programs that start the user's shell when given no command (``unshare``, ``su``,
# ``chroot /``, ``script F``, ``newgrp``), space-separated: the shell runs what the line
# feeds its stdin (a here-string, a pipe, a file), read as any shell's (scripts.stdin_script)
SHELL_STARTERS = (
    " unshare fakeroot chroot su runuser sg script nsenter firejail newgrp machinectl toolbox "
    "distrobox lxc-attach setpriv sudo "
)
# python -m MODULE that is a shell or debugger: its words (-c CMD) and stdin are code
PY_SHELLS = frozenset(
    ["pdb", "code", "ipdb", "IPython", "pudb", "ptpython", "bpython", "asyncio", "idlelib"]
)
# the shells: a script they run (-c, stdin, a file) is read by hookwise.shell.scripts
SHELLS = frozenset(
    ["sh", "bash", "rbash", "zsh", "dash", "ksh", "ksh93", "mksh", "oksh", "loksh", "pdksh",
     "ash", "yash", "posh", "fish", "tcsh", "csh", "busybox"]
)  # fmt: skip
# Programs a policy guards by name (deleters, git, network clients, databases, disk tools):
# one in the operands of a program hookwise does not know starts a command line that
# program may run (``x86_64 rm -rf d``, ``ld.so /usr/bin/git push -f``, ``msgexec -i F rm``,
# ``perf stat -o F git push``, ``jobs -x rm``), matched by deny and ask rules as a command
# of its own (hookwise.shell.commands.operands). A name, not a list of wrappers: any
# program that runs its operands is covered. Not ``.`` or ``source``: a shell's builtins,
# which no program runs (and ``.`` as an operand is a directory).
# tests/shell/test_operand_commands.py checks that every program the starter packs name
# is here.
OPERAND_PROGRAMS = frozenset(
    ["rm", "rmdir", "unlink", "shred", "srm", "wipe", "git", "git-filter-repo", "bfg",
     "curl", "wget", "http", "https", "xh", "nc", "ncat", "netcat", "socat", "scp", "sftp",
     "rsync", "ssh", "dd", "mkfs", "fdisk", "cfdisk", "gdisk", "sgdisk", "sfdisk", "parted",
     "chmod", "chown", "chgrp", "mv", "cp", "tee", "truncate", "find", "cat", "docker",
     "podman", "kubectl", "helm", "terraform", "aws", "gcloud", "az", "bq", "supabase",
     "wrangler", "turso", "psql", "mysql", "mariadb", "mysqlsh", "mycli", "pgcli", "litecli",
     "sqlite", "sqlite3", "duckdb", "redis-cli", "valkey-cli", "keydb-cli", "dragonfly-cli",
     "mongo", "mongosh", "clickhouse", "clickhouse-client", "cockroach", "cqlsh", "snowsql",
     "sqlcmd", "usql", "openssl", "security", "grep", "egrep", "fgrep", "rg", "ag", "ack",
     "python", "python3", "perl", "ruby", "node", "php", "k3s-killall.sh",
     "k3s-uninstall.sh", "rke2-uninstall.sh"]
) | SHELLS  # fmt: skip
# The programs shell/commands/operands.py never reads the operands of (its DATA_OPERANDS
# and NON_READERS), space-separated: the gate before that module is loaded (one string,
# as LOADED_FILE_NAMES; the same names: tests/shell/test_operand_commands.py)
UNREAD_OPERANDS = (
    " . : [ [[ ack ag age-keygen alias apk apropos apt apt-cache apt-get aptitude b2sum "
    "basename brew bunx bzip2 cargo cd certbot chattr chgrp chmod chown cksum cmp comm "
    "command compgen complete composer cp cut date declare df diff dir direnv dirname dnf "
    "docker docker-compose dotenv dotenvx dotnet dpkg dpkg-query du echo egrep env-cmd "
    "exit export expr false fc fd fdfind fgrep file find flatpak fuser gem getfacl getopts "
    "gh git glab go gradle grep groups gzip hash head helm help history hostname id info "
    "inotifywait install jq just kill killall kubectl less let ln local locate logger ls "
    "lsattr lsof man md5sum mkcert mkdir mktemp more mv mvn nerdctl nix-env notify-send "
    "npm npx openssl pacman pgrep pidof pip pip3 pipx pkill pnpm pnpx podman popd port "
    "printenv printf pushd pwd read readlink readonly realpath return rg rm rmdir rpm say "
    "seq service set setfacl sha1sum sha224sum sha256sum sha384sum sha512sum shellcheck "
    "shfmt shopt shred sleep snap sort source ssh ssh-add ssh-copy-id ssh-keygen "
    "ssh-keyscan stat stty sum sync systemctl tail tar task test tldr touch tput tr trap "
    "true type typeset uname uniq unlink unset unzip update-alternatives usleep uvx vdir "
    "wait watch wc whatis whereis which xz yarn yq yum zip zstd zypper "
)


def listed(name: str, names: str) -> bool:
    """Whether ``name`` is one of the space-separated ``names`` (a name with a blank or
    empty, which no list holds, is not: ``'ls x'`` is not ``ls``)."""
    return bool(name) and " " not in name and f" {name} " in names


def reads_operands(program: str) -> bool:
    """Whether ``program``'s operands may hold a command line it runs: a program hookwise
    knows nothing about (shell/commands/operands.py reads them). Hot: lookups only."""
    return not (
        listed(program, UNREAD_OPERANDS)
        or program in OPERAND_PROGRAMS
        or program in WRAPPER_NAMES
        or program in RUNNER_NAMES
        or family(program) is not None
    )


# The names (last path part) of the files shell/commands/build_files.py knows programs
# to load (CONFIG_FILES, BUILD_FILES), space-separated: a line that writes none of them
# needs not load that module (one string: unmarshalled at once, no set to build; the same
# names as the tables: tests/shell/test_operand_commands.py)
LOADED_FILE_NAMES = (
    " .Rprofile .bash_login .bash_logout .bash_profile .bashrc .bazelrc .curlrc .env "
    ".envrc .exrc .gdbinit .gitconfig .gitmodules .inputrc .irbrc .justfile .lldbinit "
    ".mongoshrc.js .my.cnf .npmrc .pdbrc .perldb .pre-commit-config.yaml .profile .psqlrc "
    ".screenrc .sqliterc .tclshrc .tmux.conf .vimrc .wgetrc .zlogin .zlogout .zprofile "
    ".zshenv .zshrc BUILD BUILD.bazel Cargo.toml Gemfile Gruntfile.coffee Gruntfile.js "
    "Justfile MODULE.bazel Rakefile Rakefile.rb SConscript SConstruct Sconstruct "
    "Taskfile.yaml Taskfile.yml Vagrantfile WORKSPACE build.gradle build.gradle.kts "
    "build.rs bunfig.toml composer.json config config.toml conftest.py deno.json "
    "deno.jsonc fabfile.py gulpfile.js gulpfile.mjs gulpfile.ts hatch.toml init.gradle "
    "invoke.yaml jest.config.js jest.config.mjs jest.config.ts justfile lefthook.yaml "
    "lefthook.yml maven.config meson.build meson.options meson_options.txt noxfile.py "
    "pom.xml pyproject.toml rakefile rakefile.rb sconstruct settings.gradle "
    "settings.gradle.kts setup.cfg setup.py sitecustomize.py taskfile.yaml taskfile.yml "
    "tasks.py tox.ini usercustomize.py uv.toml vite.config.js vite.config.mjs "
    "vite.config.ts vitest.config.js vitest.config.ts webpack.config.js webpack.config.mjs "
    "webpack.config.ts "
)
# Programs that run the project's code (test runners, build and task tools, package
# managers' scripts, run-parts), space-separated: after the line wrote a file one of them
# may load (:func:`may_load`), commands/build_files.written_loads reads it as code or
# finds it unverifiable; the runners of BUILD_FILES are here too (test_operand_commands)
CODE_RUNNERS = (
    " pytest py.test nosetests nose2 tox nox behave ward go gotestsum ctest cpack cmake "
    "make gmake ninja meson npm yarn pnpm bun deno jest vitest mocha ava tap karma "
    "playwright cypress cargo gradle gradlew mvn mvnw ant sbt lein rake bundle rspec "
    "cucumber phpunit pest composer dotnet swift mix run-parts pydoc pydoc3 just task "
    "invoke inv fab scons bazel bazelisk hatch poetry pdm uv pre-commit lefthook pip "
    "pip3 direnv vagrant gulp grunt webpack vite uvicorn gunicorn hypercorn daphne flask "
)
# files runners take as data, never as code (a log, notes, a table); CMake's list is code
DATA_SUFFIXES = (".txt", ".md", ".rst", ".log", ".csv", ".tsv", ".out", ".err", ".html")


def may_load(program: str, key: str, content: str | None) -> bool:
    """Whether a CODE_RUNNER may load the file ``key`` the line wrote as code: a file of a
    suffix that is not data, one with a ``#!`` line, a build file, or any file for
    run-parts (it runs a whole directory); not ``ls > out``, ``> notes.md``. Hot."""
    if key.startswith(("/dev/", "/proc/")):
        return False
    name = key.rsplit("/", 1)[-1]
    if name.endswith(DATA_SUFFIXES):
        return name in ("CMakeLists.txt", "meson_options.txt")
    return (
        "." in name.lstrip(".")
        or program == "run-parts"
        or (content or "").startswith("#!")
        or listed(name, LOADED_FILE_NAMES)
        or name in ("Makefile", "makefile", "GNUmakefile", "Dockerfile", "Jenkinsfile")
    )


# the origin of a command taken from an unknown program's operands (for deny and ask rules)
OPERANDS_ORIGIN = "a command line in the operands of "
XARGS_INPUT = "${xargs_input}"  # an operand xargs reads from its input at run time
# programs that read the names of the files they take from stdin (xargs_input.name_input)
NAME_READERS = frozenset(["cpio", "tar", "bsdtar", "zip", "rsync", "pax", "afio"])
# options of any program that take the names of the files it reads from its input or a
# list (sort/wc/du --files0-from, git hash-object --stdin-paths, git update-index --stdin)
NAME_INPUT_OPTIONS = ("--files0-from", "--files-from", "--pathspec-from-file", "--stdin")
# Subcommands of non-readers (commands/operands.NON_READERS) that print or send the files
# (``git diff --no-index /dev/null ~/.ssh/id_rsa``, ``git show :.env``, ``docker cp
# ~/.aws/credentials c:/x``): program -> (those subcommands, whether ``REV:path`` names
# ``path``). git's hash-object prints a hash (like sha256sum), but with ``-w`` it copies
# the file where no path names it (``git hash-object -w F | xargs git cat-file -p`` prints
# F), so that one reads. Read by :func:`read_operands`.
SUBCOMMAND_READERS: dict[str, tuple[frozenset[str], bool]] = {
    "git": (
        frozenset(["diff", "show", "cat-file", "grep", "log", "whatchanged", "blame",
                   "annotate", "archive", "format-patch", "merge-file", "diff-files",
                   "diff-index", "diff-tree", "fast-export", "range-diff", "hash-object",
                   "add", "stage", "interpret-trailers", "update-index", "difftool"]),
        True,
    ),
    "docker": (frozenset(["cp"]), False),
    "podman": (frozenset(["cp"]), False),
    "nerdctl": (frozenset(["cp"]), False),
    "docker-compose": (frozenset(["cp"]), False),
    "kubectl": (frozenset(["cp"]), False),
    # openssl storeutl F prints the keys and certificates F holds (red team s27 F)
    "openssl": (frozenset(["storeutl"]), False),
    "oc": (frozenset(["cp", "rsync"]), False),
}  # fmt: skip
# The option any program takes for a file of KEY=value lines it loads into the environment
# it runs with (docker, podman, compose, node, uv, uvicorn, op...): the file is used as
# ``source FILE`` uses it, not read into the output; the parser treats it so
ENV_FILE_OPTION = "--env-file"
# programs that spell it otherwise (an alias group of OPTIONS: foreman's and honcho's -e)
ENV_FILE_SPELLED = frozenset(
    p for p, spec in OPTIONS.items() if any(g[0] == ENV_FILE_OPTION for g in spec[0])
)
# programs that load a project's environment file with no option on the line (bun, flask's
# python-dotenv, docker compose's interpolation): shell/commands/env_loaders.py's table
ENV_SELF_LOADERS = frozenset(
    ["bun", "flask", "docker", "docker-compose", "podman-compose", "dotenvx", "mise"]
)
# programs whose first operand is a filter program, not a file (``jq '.env' config.json``),
# unless the filter comes from a file (-f/--from-file)
FILTER_FIRST = frozenset(["jq", "gojq", "jaq", "yq", "jql"])

INTERPRETERS = {
    "python": ("-c",),
    "perl": ("-e", "-E"),
    "ruby": ("-e",),
    "node": ("-e", "--eval", "-p", "--print"),
    "nodejs": ("-e", "--eval", "-p", "--print"),
    "deno": ("eval",),
    "bun": ("-e", "--eval"),
    "php": ("-r",),
    "osascript": ("-e",),
    "pdb": ("-c", "--command"),  # python's debugger: a command it does not know is Python
}
# programs with a script language, by family (python3.12 is python): where each takes
# its code is hookwise.shell.code_readers.READERS (the same names)
CODE_READERS = frozenset(
    [
        "python",
        "pypy",
        "perl",
        "ruby",
        "irb",
        "node",
        "nodejs",
        "bun",
        "isympy",
        "deno",
        "php",
        "lua",
        "luajit",
        "Rscript",
        "R",
        "julia",
        "tclsh",
        "wish",
        "jimsh",
        "expect",
        "awk",
        "gawk",
        "mawk",
        "nawk",
        "busybox-awk",
        "ed",
        "red",
        "ex",
        "vi",
        "vim",
        "nvim",
        "view",
        "gvim",
        "rvim",
        "sqlite3",
        "duckdb",
        "psql",
        "mysql",
        "mariadb",
        "gdb",
        "lldb",
        "make",
        "gmake",
        "cmake",
        "m4",
        "dc",
        "pwsh",
        "powershell",
        "osascript",
        "emacs",
        "crontab",
        "xonsh",
        "nu",
        "elvish",
        "sed",
        "gsed",
        "parallel",
        "sem",
        "ninja",
        "prove",
        "jshell",
        "java",
        "lli",
        "groff",
        "pic",
        "pdb",
        "ssh",
        "scp",
        "sftp",
    ]
)


def family(program: str) -> str | None:
    """The code-reader family of a program name (``python3.12`` is ``python``, ``vim.basic``
    and Debian's ``editor`` are vim, ``nroff`` is groff)."""
    if program in CODE_READERS:
        return program
    base = program.rstrip("0123456789.-")
    if base in CODE_READERS:
        return base
    found = _FAMILY_NAMES.get(program)
    if found is None and program.split(".", 1)[0] in _EDITORS:  # vim.basic, vim.tiny
        found = program.split(".", 1)[0]
    return found


# CPUs that open a GNU triplet (x86_64-linux-gnu-gcc-12), and the vendor, system and ABI
# words that follow one: such a name runs its family's program, built for that triplet
_ARCHES = frozenset(
    ["x86_64", "i386", "i486", "i586", "i686", "aarch64", "arm", "armel", "armhf", "arm64",
     "mips", "mipsel", "mips64", "mips64el", "powerpc", "powerpc64", "powerpc64le", "ppc64",
     "ppc64el", "ppc64le", "s390", "s390x", "riscv32", "riscv64", "sparc", "sparc64",
     "loongarch64", "alpha", "hppa", "m68k", "sh4", "ia64", "amd64", "x86"]
)  # fmt: skip
_TRIPLET_WORDS = frozenset(
    ["pc", "unknown", "w64", "none", "apple", "linux", "gnu", "gnueabi", "gnueabihf", "gnux32",
     "gnuabi64", "gnuabin32", "gnuspe", "musl", "musleabihf", "mingw32", "elf", "eabi",
     "eabihf", "android", "darwin", "redhat", "suse", "alpine", "w32", "cygwin"]
)  # fmt: skip
# Debian's alternatives that run a known program under a name of no pattern
_ALTERNATIVES = {"c89": "gcc", "c99": "gcc", "c89-gcc": "gcc", "c99-gcc": "gcc",
                 "cc": "cc", "gmake": "make"}  # fmt: skip
_KNOWN: list[frozenset[str]] = []


def _known() -> frozenset[str]:
    """Every program name a table of this module describes (built once, when a name with a
    version or a triplet is first seen)."""
    if not _KNOWN:
        names = set(OPTIONS) | CODE_READERS | set(INTERPRETERS) | WRAPPER_NAMES | SHELLS
        names |= set(READ_OPTIONS) | set(WRITE_OPTIONS) | set(DATA_INCLUDERS)
        names |= set(DATA_WRITERS) | OPTION_COMMANDS | TREE_READERS | RESPONSE_FILES
        names |= set(TREE_SEARCHERS) | NAME_READERS | RECURSIVE_DELETERS
        _KNOWN.append(frozenset(names))
    return _KNOWN[0]


def _triplet_suffix(name: str) -> str:
    """``name`` without a GNU triplet after it (Debian's ``perl5.36-x86_64-linux-gnu``,
    red team s28 J): the triplet is a CPU then vendor/system/ABI words, to the end."""
    parts = name.split("-")
    for at in range(1, len(parts)):
        if parts[at] in _ARCHES and all(p in _TRIPLET_WORDS for p in parts[at + 1 :]):
            return "-".join(parts[:at]) if at + 1 < len(parts) else name
    return name


def program_name(base: str) -> str:
    """The program a name runs, by pattern (red team s27 U): a GNU triplet before
    (``x86_64-linux-gnu-cpp``) or after (``perl5.36-x86_64-linux-gnu``, s28 J) and a
    version (``gcc-12``, ``tclsh8.6``, ``cpp-12``) name their family's program, when the
    name itself is none this module knows; Debian's ``c89``/``c99`` run gcc. Any other
    name is itself."""
    if not any(c.isdigit() or c == "-" for c in base) or family(base) is not None:
        return base  # (python3.11, tclsh8.6: their family is read by family() already)
    suffixed = _triplet_suffix(base)
    if suffixed != base:
        return program_name(suffixed)
    name = _ALTERNATIVES.get(base, base)
    parts = name.split("-")
    if len(parts) > 1 and parts[0] in _ARCHES:
        rest = parts[1:]
        while len(rest) > 1 and rest[0] in _TRIPLET_WORDS:
            rest = rest[1:]
        name = _ALTERNATIVES.get("-".join(rest), "-".join(rest))
    known = _known()
    head, dash, tail = name.rpartition("-")
    if dash and tail.replace(".", "").isdigit() and head in known:
        return head  # gcc-12, cpp-12, g++-12
    if name in known:
        return name
    while "." in name and name.rpartition(".")[2].isdigit():
        name = name.rpartition(".")[0]  # python3.11 -> python3, tclsh8.6 -> tclsh8
        if name in known:
            return name
    stripped = name.rstrip("0123456789")
    return stripped if stripped != name and stripped in known else base


def same_as(name: str) -> list[str] | None:
    """The words another name of a known program stands for, in place of the name:
    Debian's ``rgrep`` is ``grep -r``; ``git-push`` is ``git push`` wherever it lies (git's
    exec path, /usr/lib/git-core, holds every git command as a program of that name, and
    ``git X`` runs a ``git-X`` on the PATH: red team s28 I). None: the name is itself."""
    if name == "rgrep":
        return ["grep", "-r"]
    if name.startswith("git-") and len(name) > 4:
        return ["git", name[4:]]
    return None


# the script files of known tools run by an interpreter (node's npm and npx)
_TOOL_SCRIPTS = {"npm-cli.js": "npm", "npx-cli.js": "npx", "yarn.js": "yarn",
                 "pnpm.cjs": "pnpm", "pnpm.js": "pnpm"}  # fmt: skip


def script_alias(program: str, script: str, cwd: str | None = None) -> list[str] | None:
    """The words an interpreter running a known tool's script stands for (red team s30 B,
    C; s31 E, F, H): ``python3 /usr/lib/python3.11/timeit.py`` is ``python3 -m timeit``
    (also ``//``, ``/./``, its ``__pycache__/*.pyc``, a subpackage's script, a package
    directory, a relative name after ``cd`` to ``cwd``), a console script (``python3
    ~/.local/bin/dotenv list``, a file in a ``bin/`` with no suffix) or a module of a
    tool's package is the tool itself (``dotenv list``), ``node /usr/bin/npm`` (a link to
    ``npm-cli.js``) or any file of npm's package is ``npm``. None: the script is the
    project's or unknown."""
    from hookwise.shell.py_entry import library_module, script_path

    name = family(program.rsplit("/", 1)[-1])
    path = script_path(script, cwd)
    base = path.rsplit("/", 1)[-1]
    if name in ("python", "pypy") and "/" in path:
        found = library_module(path)
        if found is not None:
            module, installed = found
            tool = _MODULE_TOOLS.get(module.split(".", 1)[0])
            if tool is not None:
                return [tool]
            if not installed:  # the standard library's module, by its path
                return [program, "-m", module]
            return None
        parent = path.rsplit("/", 2)[-2]
        if parent == "bin" and "." not in base and base:
            return [base]
    if name in JS_RUNTIMES:
        if base in _TOOL_SCRIPTS:
            return [_TOOL_SCRIPTS[base]]
        parts = path.split("/")
        if "node_modules" in parts:  # a file of a tool's package, or its directory
            package = parts[len(parts) - 1 - parts[::-1].index("node_modules") + 1 :][:1]
            if package and package[0] in _TOOL_PACKAGES:
                return [_TOOL_PACKAGES[package[0]]]
    return None


def invocation_alias(argv: list[str], cwd: str | None) -> tuple[list[str], int] | None:
    """(the words an interpreter's command stands for, how many of ``argv`` they replace):
    the script or ``-m`` module found after the interpreter's own options, as the
    interpreter reads them (``python3 -u -Im dotenv``, ``node --no-warnings
    /usr/bin/npm``), read by :func:`script_alias` and :func:`module_tool`."""
    name = family(argv[0].rsplit("/", 1)[-1]) if argv else None
    if name in ("python", "pypy"):
        from hookwise.shell.py_entry import python_entry

        entry = python_entry(argv)
        used = len(argv) - len(entry.rest)
        if entry.kind == "module" and entry.value:
            tool = module_tool(argv[0], entry.value)
            return ([tool], used) if tool is not None else None
        if entry.kind == "script":
            if (
                entry.value.rsplit("/", 1)[-1] == "manage.py"
                and entry.rest[:1]
                and (entry.rest[0] in ("shell", "shell_plus"))
            ):  # Django's shell (tool_options.django_items); its other commands: the project's
                return (["manage.py"], used)
            alias = script_alias(argv[0], entry.value, cwd)
            if alias is not None and alias[1:2] == ["-m"]:
                alias = [alias[0], *entry.options, *alias[1:]]  # (-i: stdin read after)
            return (alias, used) if alias is not None else None
        return None
    if name in JS_RUNTIMES:
        at = 1
        values = _NODE_VALUED
        while at < len(argv) and argv[at].startswith("-") and argv[at] != "-":
            if argv[at] in ("-e", "--eval", "-p", "--print", "-pe", "-ep"):
                return None  # code on the line: the code readers read it
            if argv[at] == "--":
                at += 1
                break
            at += 2 if argv[at] in values else 1
        if at < len(argv):
            alias = script_alias(argv[0], argv[at], cwd)
            return (alias, at + 1) if alias is not None else None
    return None


# node's options that take the next word as their value
_NODE_VALUED = frozenset(
    ["-r", "--require", "--import", "--loader", "--experimental-loader", "-C", "--conditions",
     "--input-type", "--env-file", "--title", "--inspect-port", "--debug-port", "--stack-size",
     "--max-old-space-size", "--icu-data-dir", "--openssl-config", "--redirect-warnings",
     "--report-directory", "--report-filename", "--diagnostic-dir", "--cpu-prof-dir",
     "--heap-prof-dir", "--secure-heap", "--secure-heap-min", "--unhandled-rejections",
     "--experimental-policy", "--policy-integrity", "--dns-result-order", "--watch-path"]
)  # fmt: skip
# programs that run a JavaScript file the way node does (Debian's nodejs, bun)
JS_RUNTIMES = frozenset(["node", "nodejs", "bun"])
# npm's packages: node running any file of one (or its directory) runs the tool's CLI
_TOOL_PACKAGES = {"npm": "npm", "yarn": "yarn", "pnpm": "pnpm", "corepack": "corepack"}


# python -m MODULE of an installed tool that is the tool's own program (its CLI)
_MODULE_TOOLS = {"dotenv": "dotenv", "awscli": "aws", "IPython": "ipython",
                 "httpie": "http", "pip": "pip", "pipx": "pipx", "isympy": "isympy",
                 "flask": "flask", "gunicorn": "gunicorn", "uvicorn": "uvicorn",
                 "hypercorn": "hypercorn", "virtualenv": "virtualenv"}  # fmt: skip


def module_tool(program: str, module: str) -> str | None:
    """The program ``python -m MODULE`` stands for (``python3 -m dotenv list`` is ``dotenv
    list``: red team s30 B): any module of a tool's package (``dotenv.__main__``,
    ``dotenv.cli``, ``awscli.clidriver``) may run its CLI on the line's words, so it is
    the tool (red team s31 F). None: not a tool's."""
    if family(program.rsplit("/", 1)[-1]) not in ("python", "pypy"):
        return None
    return _MODULE_TOOLS.get(module.split(".", 1)[0])


# other names of code readers: Debian's alternatives and builds, roff's front ends
_FAMILY_NAMES = {
    "editor": "vim", "sensible-editor": "vim", "vimdiff": "vim", "rvimdiff": "vim",
    "vimx": "vim", "evim": "vim", "rview": "vim", "gvimdiff": "vim", "nroff": "groff",
    "troff": "groff", "gtroff": "groff", "gnroff": "groff", "gpic": "pic", "dpic": "pic",
    # IPython's shells: python, whose -c code may hold `!CMD` and `%magics` (red team s30 B)
    "ipython": "python", "ipython3": "python", "jupyter-console": "python",
}  # fmt: skip
# IPython's shells: `!CMD` and `%magic` in the code they read, --Class.trait=V settings
IPYTHON_SHELLS = frozenset(["ipython", "ipython3", "jupyter-console", "isympy"])
_EDITORS = frozenset(["vim", "vi", "nvim", "gvim", "view", "rvim"])


AWKS = frozenset(["awk", "gawk", "mawk", "nawk", "busybox-awk"])
REMOTE = frozenset(["ssh", "docker", "podman", "kubectl", "oc", "nerdctl", "lxc"])


def interpreter(program: str) -> str | None:
    """The interpreter family of a program name (``python3.12`` is ``python``)."""
    base = program.rstrip("0123456789.")
    if base in INTERPRETERS:
        return base
    return None


# variables whose value is a command line something runs later (PROMPT_COMMAND: before each
# prompt; git's: for ssh, the pager, the editor...)
COMMAND_VARIABLES = frozenset(
    [
        "PROMPT_COMMAND",
        "GIT_SSH_COMMAND",
        "GIT_SSH",
        "GIT_PAGER",
        "GIT_EDITOR",
        "GIT_SEQUENCE_EDITOR",
        "GIT_EXTERNAL_DIFF",
        "GIT_ASKPASS",
        "GIT_PROXY_COMMAND",
        "SSH_ASKPASS",
        "SUDO_ASKPASS",
        "PAGER",
        "MANPAGER",
        "EDITOR",
        "VISUAL",
        "LESSOPEN",
        "LESSCLOSE",
        "RSYNC_RSH",
        "BROWSER",
    ]
)
# variables that make a program (or the bash it starts) load code from a file
LOADER_VARIABLES = frozenset(["LD_PRELOAD", "LD_AUDIT", "BASH_ENV", "GIT_EXEC_PATH"])
# variables whose value is code or a command: one computed when it runs is unverifiable
CODE_VARIABLES = COMMAND_VARIABLES | LOADER_VARIABLES | frozenset(["NODE_OPTIONS", "PS4"])
# Variables that load code or configuration into the program they are set for, by how
# code_readers.env_loads judges the value: "always" (any value loads code), "options" (a
# program's options, some of which are code), "path" (directories code is loaded from:
# on disk it is the project's own code, but not a file the line writes there), "git"
# (git configuration: aliases, commands, push settings), "home" (where a program of
# code_readers.HOME_READERS reads its config and rc files). A value not known to be
# harmless makes the command unverifiable (accounting.account).
ENV_LOADERS: dict[str, str] = {
    **dict.fromkeys(
        ["LD_PRELOAD", "LD_AUDIT", "DYLD_INSERT_LIBRARIES", "BASH_ENV", "GIT_EXEC_PATH",
         "PERL5DB", "PYTHONSTARTUP", "PYTHONHOME", "PYTHONUSERBASE", "NODE_REPL_EXTERNAL_MODULE",
         "GIT_TEMPLATE_DIR", "GCONV_PATH", "MAKEFILES"],
        "always",
    ),
    **dict.fromkeys(
        ["NODE_OPTIONS", "PERL5OPT", "RUBYOPT", "JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS",
         "JDK_JAVA_OPTIONS", "ENV", "MAKEFLAGS", "TAR_OPTIONS", "ZIPOPT"],
        "options",
    ),
    **dict.fromkeys(
        ["PERL5LIB", "PERLLIB", "RUBYLIB", "PYTHONPATH", "NODE_PATH", "LD_LIBRARY_PATH",
         "DYLD_LIBRARY_PATH"],
        "path",
    ),
    **dict.fromkeys(
        ["GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM",
         "GIT_CONFIG"],
        "git",
    ),
    "SHELL": "shell",
    # flask's --app in the environment: `mod:f(args)` calls f (red team s32 M)
    "FLASK_APP": "app",
    # the directory cargo clean deletes whole (commands/tool_options.VALUE_CLEARERS)
    **dict.fromkeys(["CARGO_TARGET_DIR", "CARGO_BUILD_TARGET_DIR"], "cleared"),
    # a file of settings or options the program reads (php's ini, ripgrep's options): its
    # auto_prepend_file or --pre is as good as on the line (red team s31 J, K)
    **dict.fromkeys(["PHPRC", "PHP_INI_SCAN_DIR", "RIPGREP_CONFIG_PATH"], "config"),
    **dict.fromkeys(
        ["HOME", "XDG_CONFIG_HOME", "ZDOTDIR", "CURL_HOME", "WGETRC", "NPM_CONFIG_USERCONFIG",
         "GNUPGHOME", "INPUTRC"],
        "home",
    ),
}  # fmt: skip
NPM_CONFIG = "npm_config_"  # npm reads npm_config_X (any case) as its option --X
# Variables naming a file the program reads, and may print (file's bad magic line,
# configparser's error, npm config list, history), space-separated: the file is read as
# a command's operand is, so the rules on secret files see it. npm_config_* is
# case-blind. Java's option variables name files as @F, -XX:VMOptionsFile=F, -XX:Flags=F.
FILE_VARIABLES = (
    " MAGIC PIP_CONFIG_FILE BOTO_CONFIG HISTFILE NPM_CONFIG_USERCONFIG NPM_CONFIG_GLOBALCONFIG "
    "NPM_CONFIG_INIT_MODULE AWS_CONFIG_FILE AWS_SHARED_CREDENTIALS_FILE NETRC PYTHONSTARTUP "
    "WGETRC INPUTRC "
)
JAVA_OPTION_VARIABLES = " JDK_JAVA_OPTIONS _JAVA_OPTIONS JAVA_TOOL_OPTIONS "
COMPUTED = "${computed}"  # a word of a command computed when it runs (code, a file's lines)
UNKNOWN_WORDS = frozenset([XARGS_INPUT, COMPUTED])  # words a handler cannot know


# ---------------------------------------------------------------------------- git


# git's own commands (git 2.39's builtins and the programs of its exec path, and the
# builtins of later versions): git runs one of these, never an alias of its name; any other
# subcommand may be an alias in a configuration file (git_aliases.py)
GIT_COMMANDS = frozenset(
    ["add", "add--interactive", "am", "annotate", "apply", "archive", "backfill", "bisect",
     "bisect--helper", "blame", "branch", "bugreport", "bundle", "cat-file", "check-attr",
     "check-ignore", "check-mailmap", "check-ref-format", "checkout", "checkout--worker",
     "checkout-index", "cherry", "cherry-pick", "clean", "clone", "column", "commit",
     "commit-graph", "commit-tree", "config", "count-objects", "credential",
     "credential-cache", "credential-cache--daemon", "credential-store", "daemon",
     "describe", "diagnose", "diff", "diff-files", "diff-index", "diff-pairs", "diff-tree",
     "difftool", "difftool--helper", "env--helper", "fast-export", "fast-import", "fetch",
     "fetch-pack", "filter-branch", "fmt-merge-msg", "for-each-ref", "for-each-repo",
     "format-patch", "fsck", "fsck-objects", "fsmonitor--daemon", "gc",
     "get-tar-commit-id", "grep", "hash-object", "help", "hook", "http-backend",
     "http-fetch", "http-push", "imap-send", "index-pack", "init", "init-db", "instaweb",
     "interpret-trailers", "last-modified", "log", "ls-files", "ls-remote", "ls-tree",
     "mailinfo", "mailsplit", "maintenance", "merge", "merge-base", "merge-file",
     "merge-index", "merge-octopus", "merge-one-file", "merge-ours", "merge-recursive",
     "merge-recursive-ours", "merge-recursive-theirs", "merge-resolve", "merge-subtree",
     "merge-tree", "mergetool", "mktag", "mktree", "multi-pack-index", "mv", "name-rev",
     "notes", "pack-objects", "pack-redundant", "pack-refs", "patch-id", "pickaxe",
     "prune", "prune-packed", "pull", "push", "quiltimport", "range-diff", "read-tree",
     "rebase", "receive-pack", "reflog", "refs", "remote", "remote-ext", "remote-fd",
     "remote-ftp", "remote-ftps", "remote-http", "remote-https", "repack", "replace",
     "replay", "repo", "request-pull", "rerere", "reset", "restore", "rev-list",
     "rev-parse", "revert", "rm", "send-pack", "sh-i18n--envsubst", "shell", "shortlog",
     "show", "show-branch", "show-index", "show-ref", "sparse-checkout", "stage", "stash",
     "status", "stripspace", "submodule", "submodule--helper", "subtree", "switch",
     "symbolic-ref", "tag", "unpack-file", "unpack-objects", "update-index", "update-ref",
     "update-server-info", "upload-archive", "upload-archive--writer", "upload-pack",
     "var", "verify-commit", "verify-pack", "verify-tag", "version", "web--browse",
     "whatchanged", "worktree", "write-tree"]
)  # fmt: skip


def git_subcommand(argv: list[str]) -> int:
    """The index of git's subcommand in argv (-1: none)."""
    values = OPTIONS["git"][2]
    i = 1
    while i < len(argv):
        word = argv[i]
        if word.startswith("-"):
            i += 2 if (word in values and "=" not in word) else 1
            continue
        return i
    return -1


def git_chdir(argv: list[str]) -> str | None:
    """The directory ``git -C DIR [-C DIR2]`` works in, as written (each ``-C`` before the
    subcommand taken from the one before it; an absolute one starts again), or None: the
    names git reads (``--no-index`` files, pathspecs, ``:F`` of the index) are under it."""
    end = git_subcommand(argv)
    found: str | None = None
    for index, word in enumerate(argv[1 : end if end > 0 else len(argv)], start=1):
        if word == "-C" and index + 1 < len(argv):
            step = argv[index + 1]
        elif word.startswith("-C") and len(word) > 2:
            step = word[2:]
        else:
            continue
        if not step:
            continue
        found = step if found is None or step[:1] in ("/", "~") else f"{found}/{step}"
    return found


def git_names_from(argv: list[str], env: dict[str, str]) -> str | None:
    """The directory the names git reads are taken from, as written: its working tree
    when one is given (``--work-tree=W``, ``GIT_WORK_TREE=W``: a path there is the tree's,
    red team s32 L), from where ``-C`` went (git_chdir); None: the command's own."""
    where = git_chdir(argv)
    end = git_subcommand(argv)
    tree = env.get("GIT_WORK_TREE")
    options = argv[1 : end if end > 0 else len(argv)]
    for index, word in enumerate(options):
        if word.startswith("--work-tree="):
            tree = word.split("=", 1)[1]
        elif word == "--work-tree" and index + 1 < len(options):
            tree = options[index + 1]
    if not tree:
        return where
    return tree if where is None or tree[:1] in ("/", "~") else f"{where}/{tree}"


def outside(path: str) -> bool:
    """Whether a path as written leaves the working directory (``..``, absolute, ``~``):
    a repository there is not the project's own (a subdirectory, a submodule is)."""
    return path.startswith(("/", "~", "$")) or path == ".." or path.startswith("../")


# ---------------------------------------------------------------- interpreter one-liners


def interpreter_code(program: str, argv: list[str]) -> str | None:
    """The code an interpreter one-liner runs (``python -c CODE``...), if any."""
    family = interpreter(program)
    if program in AWKS:
        i = 1
        while i < len(argv):
            word = argv[i]
            if word in ("-f", "--file"):
                return None
            if word in ("-F", "-v", "--assign", "--field-separator"):
                i += 2
                continue
            if word.startswith("-") and len(word) > 1:
                i += 1
                continue
            return word
        return None
    if family is None:
        return None
    flags = INTERPRETERS[family]
    for index, word in enumerate(argv[1:], start=1):
        for flag in flags:
            if word == flag and index + 1 < len(argv):
                return argv[index + 1]
            clustered = len(flag) == 2 and word[:1] == "-" and word[1:2] != "-"
            if clustered and word.endswith(flag[1]) and len(word) > 2 and index + 1 < len(argv):
                return argv[index + 1]  # python -Ic CODE
    return None


# ----------------------------------------------------- programs that run a command option

# programs that run the command line a data file they are given names: program ->
# (the subcommand that does it, "" for none; the file's language, tool_scripts'): a desktop
# entry's Exec= (gio launch, dex). Written on the line, the file is read for it (red team
# s28 P); on disk it is the project's, as any script there
DATA_FILE_RUNNERS: dict[str, tuple[str, str]] = {"gio": ("launch", "desktop"),
                                                 "dex": ("", "desktop")}  # fmt: skip


def data_file_run(program: str, argv: list[str]) -> tuple[list[str], str] | None:
    """(the files, their language) of a DATA_FILE_RUNNERS command, or None."""
    sub, language = DATA_FILE_RUNNERS[program]
    words = [w for w in argv[1:] if not w.startswith("-")]
    if sub:
        if words[:1] != [sub]:
            return None
        words = words[1:]
    return words[:1] if sub else words, language


# the names of code a program loads rather than runs: shared objects and plugins (a JVM
# agent, ld.so --preload, an OpenSSL provider, a node addon, a Python extension)
_LIBRARY_SUFFIXES = (".so", ".dylib", ".dll", ".bundle", ".jnilib", ".node", ".pyd")


def library_file(key: str) -> bool:
    """Whether a file's name is a library's (``e.so``, ``libx.so.1``): what loads it runs
    its code (written.loads_library). Hot: the parser asks it of files written on a line."""
    name = key.rsplit("/", 1)[-1]
    stem, dot, tail = name.partition(".so.")
    return name.endswith(_LIBRARY_SUFFIXES) or bool(dot and stem and tail[:1].isdigit())


# JVM options whose value is a command line the JVM runs through sh (on a fatal error, out
# of memory); every JDK tool (javac, jshell, jar) hands -J<option> to its JVM (red team s28
# M). The same options in JAVA_TOOL_OPTIONS and friends: JAVA_OPTION_VARIABLES
JVM_COMMAND_OPTIONS = ("-XX:OnOutOfMemoryError=", "-XX:OnError=")


def jvm_commands(argv: list[str]) -> list[str]:
    """The command lines a JVM option on the line makes the JVM run, whatever the program
    (a name that is no JDK tool rejects the option, so reading it is the safe side)."""
    found: list[str] = []
    for word in argv[1:]:
        option = word[2:] if word.startswith("-J-") else word
        if option.startswith(JVM_COMMAND_OPTIONS):
            found.append(option.partition("=")[2])
    return found


def _ext_words(text: str) -> list[str]:
    """The command of a git ``ext::`` URL, as git-remote-ext splits it: at spaces, ``% ``
    a space inside a word, ``%%`` a percent sign, ``%s``/``%S``/``%G``/``%V`` what git
    puts there (``sh -c rm% -rf% ../victim`` is ``sh -c 'rm -rf ../victim'``)."""
    words: list[str] = []
    current: list[str] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "%" and i + 1 < len(text):
            following = text[i + 1]
            current.append({" ": " ", "%": "%", "s": "git-upload-pack", "S": "upload-pack",
                            "G": ".", "V": ""}.get(following, following))  # fmt: skip
            i += 2
            continue
        if ch == " ":
            if current:
                words.append("".join(current))
            current = []
        else:
            current.append(ch)
        i += 1
    if current:
        words.append("".join(current))
    return words


def _git_runs(argv: list[str]) -> list[tuple[str, Any]]:
    """What a git command runs from its options and configuration (git_config is imported
    only for a command that sets configuration: most git commands set none)."""
    out: list[tuple[str, Any]] = []
    at = git_subcommand(argv)
    end = at if at > 0 else len(argv)
    for index, word in enumerate(argv[1:end], start=1):
        if word == "-c" and index + 1 < end:
            from hookwise.shell.git_config import git_value

            key, _, value = argv[index + 1].partition("=")
            out += git_value(key, value)
        elif word.startswith("--exec-path="):
            out.append(("unverifiable", f"git runs its programs from {word[12:]}"))
        elif word.startswith("--config-env="):
            out.append(("unverifiable", "git reads a configuration value from the environment"))
    if at > 0 and argv[at] == "config":
        from hookwise.shell.git_config import config_operands

        rest = config_operands(argv[at + 1 :])
        if rest and rest[0] in ("set", "add"):
            rest = rest[1:]
        # a persistent hooks directory is how husky and friends install a repository's
        # hooks (code of the repository, like its scripts): only command values count here
        if len(rest) >= 2 and rest[0].lower() != "core.hookspath":
            from hookwise.shell.git_config import git_value

            out += git_value(rest[0], " ".join(rest[1:]))
    for word in argv[end:]:
        if word.startswith("ext::"):  # git-remote-ext runs its words as a command
            from hookwise.shell.quote import join

            command: list[object] = [*_ext_words(word[5:])]
            out.append(("script", join(command)))
    if at > 0 and argv[at] == "switch" and any(w.startswith("--orphan") for w in argv[at + 1 :]):
        # switch --orphan empties the working tree of every tracked file (checkout --orphan
        # keeps them): a delete of what is under it (red team s28 Q, in ../victim)
        out.append(("argv", ["rm", "-r", "-f", "--", f"{_git_work_tree(argv[1:at])}/*"]))
    pack = any(w.startswith(("--upload-pack", "--receive-pack", "--exec")) for w in argv[at + 1 :])
    if (
        at > 0
        and (argv[at] in _GIT_EXEC_SUBCOMMANDS or pack)  # (fetch-pack, send-pack: red team s32 L)
        and _git_exec_hint(argv[at], argv[at + 1 :])
    ):
        from hookwise.shell.git_config import exec_options

        out += exec_options(argv[at], argv[at + 1 :])
    return out


def _git_work_tree(options: list[str]) -> str:
    """The working tree git's options name (``-C D``, several joined; ``--work-tree=W``,
    from where -C went), ``.`` when none."""
    where = "."
    tree: str | None = None
    for index, word in enumerate(options):
        following = options[index + 1] if index + 1 < len(options) else ""
        if word == "-C" and following:
            where = following if following[:1] in "/~" or where == "." else f"{where}/{following}"
        elif word.startswith("--work-tree="):
            tree = word.split("=", 1)[1]
        elif word == "--work-tree" and following:
            tree = following
    if tree is None:
        return where
    return tree if tree[:1] in "/~" or where == "." else f"{where}/{tree}"


def _git_exec_hint(sub: str, args: list[str]) -> bool:
    """Whether ``git SUB ARGS`` may have an option that runs a command (cheap: ``git
    push origin main`` must not load git_config)."""
    if sub == "bisect":
        return args[:1] == ["run"]
    if sub == "submodule":
        return "foreach" in args
    for word in args:
        if word.startswith(("--u", "--r", "--e", "--o", "--s", "--t", "--c", "--h", "--b")):
            return True
        if word.startswith(("-x", "-O", "-u", "-d", "-c")) or sub in (
            "filter-branch",
            "send-email",
        ):
            return True
    return False


# git subcommands with an option whose value is a command (git_config.EXEC_SUBCOMMANDS)
_GIT_EXEC_SUBCOMMANDS = frozenset(
    ["rebase", "fetch", "pull", "clone", "ls-remote", "archive", "push", "difftool", "grep",
     "send-email", "filter-branch", "instaweb", "bisect", "submodule", "mergetool", "config",
     "init"]
)  # fmt: skip


NPX = _NPX = {
    "npx": 1,
    "bunx": 1,
    "pnpx": 1,
    "npm": 2,  # npm exec / npm x
    "pnpm": 2,  # pnpm dlx / pnpm exec
    "yarn": 2,  # yarn dlx / yarn exec
    "bun": 2,  # bun x
}
_NPX_SUBCOMMANDS = frozenset(["exec", "x", "dlx"])
# packages whose binary is a recursive delete
RECURSIVE_DELETERS = frozenset(
    ["rimraf", "del-cli", "trash-cli", "rm-rf", "trash-put", "trash", "gtrash", "rmtrash"]
)
# programs that delete the files they are given: compressors replace their input, unlink
# is rm (red team s35 L; commands/replaced_inputs.REPLACERS reads their options)
INPUT_DELETERS = frozenset(
    ["gzip", "gunzip", "pigz", "unpigz", "uncompress", "compress", "xz", "unxz", "lzma",
     "unlzma", "lzip", "plzip", "bzip2", "bunzip2", "pbzip2", "lbzip2", "zstd", "unzstd",
     "pzstd", "lz4", "unlz4", "brotli", "unlink"]
)  # fmt: skip
# programs whose subcommand deletes a tree given as its operands (glib's gio trash/remove)
SUBCOMMAND_DELETERS: dict[str, frozenset[str]] = {
    "gio": frozenset(["trash", "remove", "rm"]),
    "kioclient": frozenset(["remove", "rm"]),
    "kioclient5": frozenset(["remove", "rm"]),
}
# Deleting a tree without ``rm -r`` (red team s24, finding 7) is read as the ``rm -r`` it
# is, so every rule about recursive deletes holds: rm/rmdir given a directory and what is
# under it (``rm -d a/f a/sub a``, a ``find`` walk fed to ``xargs rm -d``), ``rmdir -p``
# (each parent too), and archivers that delete what they archived (7z ``-sdel``; tar
# --remove-files and zip -m are read in option_commands)
TREE_DELETERS = frozenset(["rm", "rmdir", "7z", "7za", "7zr", "rsync"])


def _npx(program: str, argv: list[str]) -> list[tuple[str, Any]]:
    skip = _NPX[program]
    for index, word in enumerate(argv[1:], start=1):
        name, eq, value = word.partition("=")
        if name == "--script-shell":  # the shell npm runs every script with
            return [("script", value if eq else (argv[index + 1] if index + 1 < len(argv) else ""))]
    if skip == 2 and program in ("npm", "pnpm") and argv[1:3] == ["pkg", "set"]:
        # npm pkg set scripts.x='CMD': what `npm run x` will run
        return [("script", w.split("=", 1)[1]) for w in argv[3:] if w.startswith("scripts.")]
    if skip == 2 and argv[1:2] == ["set-script"] and len(argv) > 3:
        return [("script", argv[3])]
    # npm's own options come anywhere before the package (`npm --call X exec`, `npm exec
    # -yc X`: a cluster of shorthands, c is --call; red team s31 H); the first word that is
    # not an option is the subcommand (npm, pnpm, yarn, bun), then the package
    i = 1
    sub = "" if skip == 2 else program
    out: list[tuple[str, Any]] = []
    while i < len(argv):
        word = argv[i]
        if word == "--":
            i += 1
            break
        if word.startswith("--call="):
            return [("script", word[len("--call=") :])]
        if word == "--call" or (word[:1] == "-" and word[1:2] != "-" and "c" in word[1:]):
            return [("script", argv[i + 1] if i + 1 < len(argv) else "")]
        if word.startswith("-"):
            i += 2 if word in _NPM_VALUED else 1
            continue
        if sub:
            break
        sub = word
        if sub not in _NPX_SUBCOMMANDS:
            return []
        i += 1
    if not sub:
        return []
    if i < len(argv):
        name = argv[i]
        base = name.rsplit("@", 1)[0] if name.rfind("@") > 0 else name
        out.append(("argv", [base.rsplit("/", 1)[-1], *argv[i + 1 :]]))
    return out


# npm's options that take the next word as their value
_NPM_VALUED = frozenset(["-p", "--package", "--cache", "--prefix", "-w", "--workspace",
                         "--userconfig", "--registry", "--loglevel", "--script-shell"])  # fmt: skip


# The programs runs() reads, by the module that knows each (imported only for these:
# any other program costs one set lookup). tests/policy/test_cold_shell.py checks these
# sets against the handlers' own tables and against runs() itself.
OPTION_COMMANDS = frozenset(
    [
        "tar",
        "gtar",
        "bsdtar",
        "rsync",
        "zip",
        "vi",
        "vim",
        "nvim",
        "ex",
        "view",
        "gvim",
        "vimdiff",
        "rvim",
        "evim",
        "make",
        "gmake",
        "compgen",
        "complete",
        "man",
        "dpkg-buildpackage",
        "split",
        "gcc",
        "cc",
        "g++",
        "c++",
        "gcc-12",
        "clang",
        "clang++",
        "go",
        "wget",
        "curl",
    ]
)
# options whose value is a file the program reads and sends or prints (a word of its own
# only as ``--post-file .env``; ``--post-file=.env`` hides it from the operands)
READ_OPTIONS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "wget": (("-i",), ("--post-file", "--body-file", "--input-file", "--load-cookies")),
    "curl": (("-T", "-K", "-b"), ("--upload-file", "--config", "--cookie")),
    # a file compared or read as a list of names: its lines come back in the output, or
    # in the errors about names that do not exist (``wc --files0-from=.env``)
    "diff": ((), ("--from-file", "--to-file")),
    "wc": ((), ("--files0-from",)),
    "du": ((), ("--files0-from",)),
    "sort": ((), ("--files0-from",)),
    "file": (("-f", "-m"), ("--files-from", "--magic-file")),
    # a list of names read from a file: the names come back in errors or in the archive
    # (``tar cf /dev/null -T.env`` prints each line as a file it cannot stat)
    "tar": (("-T",), ("--files-from",)),
    "gtar": (("-T",), ("--files-from",)),
    "bsdtar": (("-T",), ("--files-from",)),
    "rsync": ((), ("--files-from",)),
    "cpio": (("-E",), ("--pattern-file",)),
    "xargs": (("-a",), ("--arg-file",)),
    "find": (("-files0-from",), ()),
    "ssh-keyscan": (("-f",), ()),
    "dd": ((), ("if",)),  # dd's operands are KEY=VALUE: option_values reads if=F
    # kubectl create configmap/secret --from-file=[KEY=]F -o yaml: F printed in the object
    # (red team s27 F); without an output option it goes to the cluster, as docker run
    # --env-file hands values to a container (PRINTS_ONLY_WITH below)
    "kubectl": ((), ("--from-file", "--from-env-file")),
    "oc": ((), ("--from-file", "--from-env-file")),
}
# READ_OPTIONS programs that print what they read only with one of these options (the
# rest of the time they send it on, to a place the user configured)
PRINTS_ONLY_WITH: dict[str, tuple[str, ...]] = {
    "kubectl": ("-o", "--output"),
    "oc": ("-o", "--output"),
}
# options whose value is a file the program writes (``sort -o F``, ``tree -o F``, ``curl
# -o F``, ``gcc -o F``): written with content known only when it runs. written.py reads
# them for a file written then run; the guard of hookwise's own files for the file changed.
WRITE_OPTIONS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "curl": (("-o", "-c", "-D"), ("--output", "--cookie-jar", "--dump-header", "--trace",
                                  "--trace-ascii", "--stderr", "--libcurl", "--etag-save")),
    "wget": (("-O", "-o", "-a"), ("--output-document", "--output-file", "--append-output",
                                  "--save-cookies")),
    "base64": (("-o",), ("--output",)),
    "openssl": ((), ("-out",)),
    "gpg": (("-o",), ("--output",)),
    "sort": (("-o",), ("--output",)),
    # bash's history list written (-w) or appended (-a) to the file named (HISTFILE
    # without one: parser._history_file); what lands there is the line's own (history -s)
    "history": (("-w", "-a"), ()),
    "tree": (("-o",), ()),
    "less": (("-o", "-O"), ("--log-file", "--LOG-FILE")),
    "ssh": (("-E",), ()),
    "tcpdump": (("-w",), ()),
    "gcc": (("-o",), ()),
    "cc": (("-o",), ()),
    "g++": (("-o",), ()),
    "c++": (("-o",), ()),
    "clang": (("-o",), ()),
    "clang++": (("-o",), ()),
    "ld": (("-o",), ("--output",)),
    "rustc": (("-o",), ()),
    # IPython's log of the session's input (a `.pth` there runs at the next start)
    "ipython": ((), ("--logfile", "--logappend")),
    "ipython3": ((), ("--logfile", "--logappend")),
}  # fmt: skip
# programs that read a response file ``@FILE`` as more arguments: they print its words in
# their errors (``gcc @.env``: ld cannot find ``SECRET=...``)
RESPONSE_FILES = frozenset(
    ["gcc", "g++", "cc", "c++", "cpp", "clang", "clang++", "ld", "ld.bfd", "ld.gold",
     "ld.lld", "lld", "as", "ar", "nm", "objdump", "objcopy", "strip", "size", "readelf",
     "gfortran", "javac", "java", "rustc", "dotnet", "csc"]
)  # fmt: skip
# git subcommands with an option whose value is a file read into the repository (a
# message, a template): a later ``git log`` or ``git notes show`` prints it
GIT_READ_OPTIONS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "commit": (("-F", "-t"), ("--file", "--template")),
    "tag": (("-F",), ("--file",)),
    "notes": (("-F",), ("--file",)),
    "merge": (("-F",), ("--file",)),
    "commit-tree": (("-F",), ()),
    "fmt-merge-msg": (("-F",), ("--file",)),
}
# git subcommands with an option whose value is a file git writes: the diff options every
# diff-printing subcommand takes (``git log --output=F``), and archive/bundle's output
GIT_WRITE_OPTIONS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    **{
        sub: ((), ("--output",))
        for sub in ("log", "show", "diff", "whatchanged", "diff-tree", "diff-index",
                    "diff-files", "range-diff", "format-patch", "reflog", "stash")
    },
    "archive": (("-o",), ("--output",)),
    # a file of their own: the credential store's, fast-import's marks (config -f F:
    # protect.py; a config file written is one git reads, git_config.py)
    "credential-store": ((), ("--file",)),
    "fast-import": ((), ("--export-marks",)),
}  # fmt: skip
# variables naming the file bash writes its history to (parser._history_file): set on
# the line, a write of that file
HISTORY_FILE_VARIABLES = frozenset(["HISTFILE"])
# environment variables whose value is a file the program writes (git's traces append
# to it: ``GIT_TRACE=F git status``), prefixes matched
ENV_OUTPUT_FILES = ("GIT_TRACE", "SSLKEYLOGFILE", "HISTFILE", "LESSHISTFILE",
                    "NODE_REPL_HISTORY", "PYTHON_HISTORY", "SQLITE_HISTORY", "PSQL_HISTORY",
                    "MYSQL_HISTFILE", "REDISCLI_HISTFILE")  # fmt: skip
# searchers that search the working directory when given no path: always (rg, ag, ack)
# or with these flags (grep -r; git grep --no-index searches files git does not track)
TREE_SEARCHERS: dict[str, frozenset[str]] = {
    "grep": frozenset(["-r", "-R", "--recursive", "--dereference-recursive"]),
    "egrep": frozenset(["-r", "-R", "--recursive", "--dereference-recursive"]),
    "fgrep": frozenset(["-r", "-R", "--recursive", "--dereference-recursive"]),
    "rg": frozenset(),
    "ag": frozenset(),
    "ack": frozenset(),
    "git": frozenset(["--no-index", "--untracked"]),
}


def searches_cwd(program: str, argv: list[str]) -> bool:
    """Whether a searcher given no path searches ``.`` (``grep -r s3cr3t`` is ``grep -r
    s3cr3t .``): a rule about what ``.`` holds then holds for it too."""
    if program == "git" and "--no-index" not in argv and "--untracked" not in argv:
        return False  # (cheap: every git command passes here)
    flags, positional = flags_of(program, argv)
    if program == "git":
        if "grep" not in positional[:1] or not flags & TREE_SEARCHERS["git"]:
            return False
        positional = positional[1:]
    elif TREE_SEARCHERS[program] and not flags & TREE_SEARCHERS[program]:
        return False
    if program in ("rg", "ag", "ack") and flags & {"--files", "-f"}:
        # rg --files [PATH...], ack -f [DIR...]: no pattern, every operand a path; . when
        # none is given (rg --files src lists src: read as searching . it recursed on)
        return not positional and (program != "ack" or "-f" in flags or "--files" in flags)
    if program in ("rg", "ag", "ack") and flags & {"-l", "-g", "--help"}:
        return program != "rg" and len(positional) <= 1
    # the pattern is the first operand, unless -e/-f give them (their values, as the
    # option reader counts them, are operands too)
    given = sum(w in ("-e", "-f", "--regexp", "--file") for w in argv)
    patterns = given if flags & {"-e", "-f", "--regexp", "--file"} else 1
    if program == "git" and len(positional) > patterns:
        # pathspecs with magic (`:!x`, `:(exclude)x`, `:(glob)**/.e*`): what they keep of
        # `.` is git's matching, not read here; the search is of `.` (red team s28 F)
        return all(w.startswith(":") for w in positional[patterns:])
    return len(positional) <= patterns


# programs that read files their data names (``#include "F"``, groff's ``.so F``, m4's
# ``include(F)``): program -> the directive. What they are fed on the line is read for it
DATA_INCLUDERS: dict[str, str] = {
    "cpp": "#include", "gcc": "#include", "cc": "#include", "clang": "#include",
    "g++": "#include", "c++": "#include", "clang++": "#include", "mcpp": "#include",
    "groff": ".so", "troff": ".so", "nroff": ".so", "soelim": ".so", "man": ".so",
    "m4": "include(",
    "rustc": "include!",  # include!, include_str!, include_bytes! (red team s33 J)
}  # fmt: skip


# Programs that write files whose names come from data (an archive's members, a patch's
# headers, a directory's listing, untracked files a stash takes away): program ->
# (when it writes: "always", a mode letter of its first word or option cluster, or
# subcommands "=x|e"; the options naming the directory it writes into, else the working
# directory; "@N": its Nth operand is that directory). The guard of hookwise's own files
# (policy/trust/data_writes.py) finds such a write unverifiable where that directory holds
# them. git's own are in GIT_DATA_WRITERS; recursive copies (cp -r D/. .) are read there.
DATA_WRITERS: dict[str, tuple[str, tuple[str, ...]]] = {
    "tar": ("x", ("-C", "--directory")),
    "gtar": ("x", ("-C", "--directory")),
    "bsdtar": ("x", ("-C", "--cd", "--directory")),
    "unzip": ("always", ("-d",)),
    "7z": ("=x|e", ("-o",)),
    "7za": ("=x|e", ("-o",)),
    "7zr": ("=x|e", ("-o",)),
    "jar": ("x", ("-C",)),
    "cpio": ("i", ("-D", "--directory")),
    "pax": ("r", ()),
    "ar": ("x", ("--output",)),
    "unrar": ("=x|e", ()),
    "patch": ("always", ("-d", "--directory")),
    "zipfile": ("=-e|--extract", ("@2",)),  # python -m zipfile -e ARCHIVE DIR
    "tarfile": ("=-e|--extract", ("@2",)),  # python -m tarfile -e ARCHIVE [DIR]
    "ptar": ("x", ("-C",)),  # perl's tar
    "gpgtar": ("=--extract|-x|--decrypt|-d", ("-C", "--directory")),
    # gpg writes the name the literal-data packet holds (the sender chose it)
    "gpg": ("=--use-embedded-filename", ()),
    "gpg2": ("=--use-embedded-filename", ()),
    "unar": ("always", ("-o", "-output-directory")),
    "aunpack": ("always", ("-X",)),
    "dtrx": ("always", ()),
    "cabextract": ("always", ("-d", "--directory")),
    "unsquashfs": ("always", ("-d", "-dest")),
    # Debian packages: dpkg-deb -x/-R/-X ARCHIVE DIR, dpkg -x ARCHIVE DIR (red team s27 J)
    "dpkg-deb": ("=-x|-X|-R|--extract|--vextract|--raw-extract", ("@2",)),
    "dpkg": ("=-x|-X|--extract|--vextract", ("@2",)),
    # a directory the program names its outputs in by its input: rustc by the crate's
    # name (#![crate_name] in the source), curl by the URL or the server (-O, -J)
    "rustc": ("=--out-dir", ("--out-dir",)),
    "curl": ("=--output-dir", ("--output-dir",)),
}
# git subcommands that write or remove files whose names come from data, and the words
# that make them do it ("" for always); a stash with -u takes untracked files away, clean
# -d removes them, apply/am write what a patch names, read-tree -u and checkout-index -a
# write the index's paths over the working tree's
GIT_DATA_WRITERS: dict[str, tuple[str, ...]] = {
    "stash": ("-u", "--include-untracked", "-a", "--all"),
    "clean": ("-d",),
    "apply": ("",),
    "am": ("",),
    "read-tree": ("-u",),
    "checkout-index": ("-a", "--all", "-f", "--force"),
    "format-patch": ("-o", "--output-directory"),
}
# options whose value is one program (no shell) the command runs on its data, on stdin:
# ``sort --compress-program=PROG`` (sort's temporary data, lines of its input)
DATA_PROGRAM_OPTIONS: dict[str, tuple[str, ...]] = {"sort": ("--compress-program",)}
# options whose value is a program run on every file the command reads, its path the
# program's argument: ``rg --pre rm x DIR`` deletes what it searches (red team s30 W)
FILE_PROGRAM_OPTIONS: dict[str, tuple[str, ...]] = {"rg": ("--pre",)}
# php's ini settings that name a file it reads and prints, and its built-in server
# (-S ADDR, -t DIR: every file under DIR served; red team s30 Q, R)
PHP_NAMES = frozenset(["php", "php-cgi"])
_PHP_READ_SETTINGS = ("auto_prepend_file", "auto_append_file", "error_log")
MULTIPLEXERS = frozenset(["tmux", "screen"])
SEDS = frozenset(["sed", "gsed"])
# tools whose option empties their directory operands, or whose application string may
# call a function (commands/tool_options.py: red team s32 H, M)
OPTION_CLEARERS = frozenset(["virtualenv", "cargo", "mkdocs", "uv"])
APP_STRING_TOOLS = frozenset(["flask", "gunicorn", "uvicorn", "hypercorn"])
# Django's management commands: their shell runs the line's Python (tool_options.django_items)
DJANGO_COMMANDS = frozenset(["django-admin", "manage.py"])
RUNS_PROGRAMS = (
    frozenset(
        [
            "git",
            *OPTION_CLEARERS,
            *APP_STRING_TOOLS,
            *DJANGO_COMMANDS,
            *_NPX,
            *RECURSIVE_DELETERS,
            *SUBCOMMAND_DELETERS,
            *INPUT_DELETERS,
            "systemd-tmpfiles",
            *TREE_DELETERS,
            *READ_OPTIONS,
            *DATA_PROGRAM_OPTIONS,
            *FILE_PROGRAM_OPTIONS,
            *PHP_NAMES,
            *WRITE_OPTIONS,
            *RESPONSE_FILES,
        ]
    )
    | OPTION_COMMANDS
    | MULTIPLEXERS
    | SEDS
)


def _fed_data(program: str, value: str) -> tuple[str, Any]:
    """A program an option names, run on the command's data: one that reads code from
    its stdin (a shell, an interpreter) runs that data; another (gzip, zstd) is run."""
    name = value.rsplit("/", 1)[-1]
    if name in SHELLS or family(name) is not None or "$" in value or "`" in value:
        return ("unverifiable", f"{program} runs {value} on the data it is given")
    return ("argv", [value])


def runs(program: str, argv: list[str], stdin: list[str]) -> list[tuple[str, Any]]:
    """Commands a program runs from its options: ``git -c core.pager=CMD``, ``tar
    --to-command=CMD``, ``rsync -e CMD``, ``zip -TT CMD``, ``vim -c '!CMD'``, ``make
    --eval``, ``npx PKG``, ``sed 'e CMD'``... as ("script" | "argv" | "write" |
    "unverifiable", value), the kinds of :func:`hookwise.shell.code_commands.code_commands`."""
    if program not in RUNS_PROGRAMS:
        if "." not in program and program not in _FAMILY_NAMES:
            return []
        program = family(program) or ""  # vim.basic, editor: vim
        if program not in RUNS_PROGRAMS:
            return []
    return _files_named(program, argv) + _runs(program, argv, stdin)


def _files_named(program: str, argv: list[str]) -> list[tuple[str, Any]]:
    """Files an option names that the program reads (and prints) or writes: READ_OPTIONS,
    WRITE_OPTIONS, a response file ``@F``, git's message files and ``--output``."""
    if program == "git":
        at = git_subcommand(argv)
        sub = argv[at] if at > 0 else ""
        if sub not in GIT_READ_OPTIONS and sub not in GIT_WRITE_OPTIONS:
            return []
        rest = argv[at:]
        reads, writes = GIT_READ_OPTIONS.get(sub), GIT_WRITE_OPTIONS.get(sub)
    else:
        rest = argv
        reads, writes = READ_OPTIONS.get(program), WRITE_OPTIONS.get(program)
        shown = PRINTS_ONLY_WITH.get(program)
        if shown and not any(w in shown or w.split("=", 1)[0] in shown or
                             (w[:2] in shown and w[:1] == "-" and w[1:2] != "-")
                             for w in argv[1:]):  # fmt: skip
            reads = None
    found: list[tuple[str, Any]] = []
    if program in RESPONSE_FILES:
        found += [("read", w[1:]) for w in argv[1:] if w.startswith("@") and len(w) > 1]
    if any(w.startswith(("-Wl,", "-Xlinker", "--emit")) for w in argv[1:]):
        # the linker's -o through the driver, rustc's --emit KIND=PATH (cold); ld reads a
        # response file @F among the words it is handed (red team s33 J)
        from hookwise.shell.commands.output_files import linker_words, output_files

        found += [("write", f) for f in output_files(program, argv)]
        if program in RESPONSE_FILES:
            found += [("read", w[1:]) for w in linker_words(argv) if w[:1] == "@" and w[1:]]
    named = (*(reads or ((), ()))[0], *(reads or ((), ()))[1], *(writes or ((), ()))[0],
             *(writes or ((), ()))[1])  # fmt: skip
    if not named or not any(_may_name(w, named) for w in rest[1:]):
        return found  # (cheap: git log --oneline loads nothing more)
    from hookwise.shell.commands.option_words import option_values

    known = tuple(o for o in named if o.startswith("--"))
    if reads is not None:
        values = option_values(rest, *reads, known=known)
        if program in ("kubectl", "oc"):  # --from-file=KEY=F: the file after the key
            values = [v.rpartition("=")[2] for v in values]
        found += [("read", v) for v in values if v not in ("-", "")]
    if writes is not None:
        values = option_values(rest, *writes, known=known)
        found += [("write", v) for v in values if v not in ("-", "")]
    return found


def _may_name(word: str, named: tuple[str, ...]) -> bool:
    """Cheap: whether ``word`` may be one of the options ``named`` in a spelling
    option_values reads (an abbreviation ``--post-f=F``, a cluster ``-sT.env``)."""
    if word.startswith(named):
        return True
    if word.startswith("--"):
        name = word.split("=", 1)[0]
        return len(name) > 2 and any(o.startswith(name) for o in named)
    return word[:1] == "-" and any(len(o) == 2 and o[1] in word[2:18] for o in named)


def _php_runs(argv: list[str]) -> list[tuple[str, Any]]:
    """php ``-d auto_prepend_file=F`` (``-dKEY=V``, ``--define``) reads F into its output;
    ``-S ADDR [-t DIR]`` serves every file under DIR (the working directory without -t)."""
    found: list[tuple[str, Any]] = []
    words = iter(argv[1:])
    serving = False
    root = "."
    settings: list[tuple[str, str]] = []
    for word in words:
        setting = ""
        if word in ("-c", "--php-ini") or word.startswith(("-c", "--php-ini=")):
            ini = next(words, "") if word in ("-c", "--php-ini") else word.partition("=")[2]
            if word.startswith("-c") and word != "-c":
                ini = word[2:]
            why = f"php -c {ini} reads settings (auto_prepend_file...) from a file"
            found.append(("unverifiable", f"{why} the guard did not read"))
        elif word in ("-d", "--define"):
            setting = next(words, "")
        elif word.startswith("-d") and "=" in word:
            setting = word[2:]
        elif word.startswith("--define="):
            setting = word.partition("=")[2]
        elif word == "-S" or word.startswith("-S"):
            serving = True
            if word == "-S":
                next(words, None)
        elif word in ("-t", "--docroot"):
            root = next(words, ".")
        elif word.startswith("-t") and len(word) > 2:
            root = word[2:]
        key, _, value = setting.partition("=")
        settings.append((key.strip(), value.strip().strip("\"'")))
    # a relative file php looks for under include_path too (red team s31 J: -d
    # include_path=../home -d auto_prepend_file=.netrc): each place it may be found
    places = [p for k, v in settings if k == "include_path" for p in v.split(":") if p]
    for key, value in settings:
        if key in _PHP_READ_SETTINGS and value:
            found.append(("read", value))
            if not value.startswith("/"):
                found += [("read", f"{place.rstrip('/')}/{value}") for place in places]
    if serving:
        found.append(("tree", root))
    return found


def _runs(program: str, argv: list[str], stdin: list[str]) -> list[tuple[str, Any]]:
    if program == "git":
        return _git_runs(argv)
    if program in _NPX:
        return _npx(program, argv)
    if program in OPTION_CLEARERS or program in APP_STRING_TOOLS or program in DJANGO_COMMANDS:
        from hookwise.shell.commands import tool_options

        if program in DJANGO_COMMANDS:
            return tool_options.django_items(program, argv[1:])
        if program == "cargo":  # cargo --config KEY=VALUE (red team s33 I)
            from hookwise.shell.commands.cargo_config import config_items

            return tool_options.cleared(program, argv[1:]) + config_items(argv)
        if program in OPTION_CLEARERS:
            return tool_options.cleared(program, argv[1:])
        return tool_options.app_items(program, argv[1:])
    if program in RECURSIVE_DELETERS:
        operands = [w for w in argv[1:] if not w.startswith("-")]
        return [("argv", ["rm", "-r", "-f", *operands])] if operands else []
    if program in INPUT_DELETERS:  # gzip F, unlink F: rm F (commands/replaced_inputs)
        from hookwise.shell.commands.replaced_inputs import replaced

        return replaced(program, argv)
    if program in SUBCOMMAND_DELETERS:  # gio trash D: a delete of the tree
        words = [w for w in argv[1:] if not w.startswith("-")]
        if words[:1] and words[0] in SUBCOMMAND_DELETERS[program] and words[1:]:
            return [("argv", ["rm", "-r", "-f", *words[1:]])]
        return []
    if program == "systemd-tmpfiles" and any(
        w.startswith(("--remove", "--purge", "--clean", "--create")) for w in argv[1:]
    ):
        why = "deletes or creates what the lines of its configuration name, unread here"
        return [("unverifiable", f"systemd-tmpfiles {why}")]
    if program in TREE_DELETERS:
        from hookwise.shell.commands.tree_deletes import tree_deleted

        trees = tree_deleted(program, argv)
        found = [("argv", ["rm", "-r", "-f", "--", *trees])] if trees else []
        if program == "rsync":
            from hookwise.shell.option_commands import option_runs

            found += option_runs(program, argv, stdin)
        return found
    if program in FILE_PROGRAM_OPTIONS:
        from hookwise.shell.commands.option_words import option_values

        values = option_values(argv, (), FILE_PROGRAM_OPTIONS[program])
        why = "runs {} on every file it reads, known only when it runs"
        return [("unverifiable", f"{program} {why.format(v)}") for v in values[:1]]
    if program in PHP_NAMES:
        return _php_runs(argv)
    if program in DATA_PROGRAM_OPTIONS:
        from hookwise.shell.commands.option_words import option_values

        values = option_values(argv, (), DATA_PROGRAM_OPTIONS[program])
        return [_fed_data(program, value) for value in values]
    if program in SEDS:
        from hookwise.shell.sed_script import sed_runs

        return sed_runs(argv)
    if program in MULTIPLEXERS:
        from hookwise.shell.commands.multiplexers import multiplexer_runs

        return multiplexer_runs(program, argv)
    if program not in OPTION_COMMANDS:
        return []  # (a program with files named in options only)
    if program in ("make", "gmake"):
        from hookwise.shell.option_commands import make_runs

        return make_runs(argv, stdin, SHELLS, ENV_LOADERS)
    from hookwise.shell.option_commands import option_runs

    return option_runs(program, argv, stdin)
