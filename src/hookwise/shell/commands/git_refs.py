"""What a git command does to refs beyond its own repository's push: a ref update forced in
another repository, a remote configured so that every push forces, aliases defined on the
line. Imported by the parser only for a git command with ``-c``, ``-C``, ``--git-dir``,
``GIT_DIR``, ``config`` or ``remote`` (``git status`` and ``git push origin main`` have none
of them). Standard library only."""

from __future__ import annotations

from hookwise.shell.programs import git_subcommand, outside


def git_alias_definitions(argv: list[str]) -> dict[str, str]:
    """Aliases a git command defines: ``git -c alias.X=Y`` and ``git config [--global]
    alias.X Y``."""
    found: dict[str, str] = {}
    for index, word in enumerate(argv):
        if word == "-c" and index + 1 < len(argv) and argv[index + 1].startswith("alias."):
            name, _, value = argv[index + 1][6:].partition("=")
            found[name] = value
    if "config" in argv:
        from hookwise.shell.git_config import config_operands

        rest = config_operands(argv[argv.index("config") + 1 :])
        if rest[:1] in (["set"], ["add"]):
            rest = rest[1:]
        if len(rest) >= 2 and rest[0].startswith("alias."):
            found[rest[0][6:]] = " ".join(rest[1:])
    return found


# git's long options that move refs by force or take them away
_FORCING = ("--force", "--move", "--copy", "--delete")


def _unabbreviated(word: str) -> str:
    """git takes a long option's unique prefix (``fetch --forc``, ``branch --forc``: red
    team s29 M); a prefix of a forcing option is that option or refused as ambiguous, so
    it is read as the option either way."""
    name = word.partition("=")[0]
    if len(name) < 4 or not name.startswith("--"):
        return word
    return next((full for full in _FORCING if full.startswith(name)), word)


def git_forced_elsewhere(argv: list[str], env: dict[str, str]) -> str | None:
    """The repository whose refs a git command rewrites by force when it is not the
    working one (``git -C ../remote.git fetch ../proj +work:main``, ``fetch -f``,
    ``update-ref``, ``branch -f``/``-M``/``-C``, with ``-C``, ``--git-dir`` or
    ``GIT_DIR``), or None. Done inside the remote (a local bare repository, a sibling
    checkout), it is a force push to it: the git rules' force push covers it. A forced
    fetch into ``refs/remotes/`` only moves remote-tracking refs, as every fetch does."""
    at = git_subcommand(argv)
    if at < 0:
        return None
    repo = env.get("GIT_DIR")
    for index, word in enumerate(argv[1:at], start=1):
        following = argv[index + 1] if index + 1 < at else ""
        if word in ("-C", "--git-dir") and following not in ("", "."):
            repo = following
        elif word.startswith("--git-dir="):
            repo = word.split("=", 1)[1]
    if not repo or repo in (".", "./", ".git", "./.git"):
        return None
    sub, rest = argv[at], argv[at + 1 :]
    options = [_unabbreviated(w) for w in rest if w.startswith("-")]
    clusters = "".join(w[1:] for w in options if not w.startswith("--"))
    if sub == "update-ref":
        return repo
    if outside(repo) and _rewrites_history(sub, options, clusters):
        return repo
    if sub == "branch" and (
        {"--force", "--move", "--copy"}.intersection(options) or set("fMC").intersection(clusters)
    ):
        return repo
    if (
        sub == "branch"
        and outside(repo)
        and (  # renamed or deleted there: gone from it
            "--delete" in options or set("mdD").intersection(clusters)
        )
    ):
        return repo
    if _forces_refs_there(sub, rest, options):
        return repo
    if sub in ("fetch", "pull") and (
        "--stdin" in options or _plus_fetch_config(argv[1:at])
    ):  # refspecs read from data, or a `+` refspec given by -c (red team s27 M)
        return repo
    if sub == "fetch":
        forced = "--force" in options or "f" in clusters
        for given in rest:
            # (--refmap=SPEC: the refspec the fetch maps by; +... forces)
            word = given.removeprefix("--refmap=")
            if word.startswith("-") or ":" not in word:
                continue
            destination = word.rsplit(":", 1)[1]
            if (
                (forced or word.startswith("+"))
                and destination
                and not (destination.startswith("refs/remotes/"))
            ):
                return repo
    return None


def _plus_fetch_config(options: list[str]) -> bool:
    """``-c remote.X.fetch=+SRC:DST`` before the subcommand, into the repository's branches."""
    for index, word in enumerate(options):
        value = options[index + 1] if word == "-c" and index + 1 < len(options) else ""
        key, _, refspec = value.partition("=")
        low = key.lower()
        into = refspec.rsplit(":", 1)[-1]
        plus = low.startswith("remote.") and low.endswith(".fetch") and refspec[:1] == "+"
        if plus and not into.startswith("refs/remotes/"):
            return True
    return False


def _forces_refs_there(sub: str, rest: list[str], options: list[str]) -> bool:
    """A command in another repository that rewrites its refs by force or sets it up so
    that its fetches do (red team s25): ``fast-import --force`` of another history, a
    ``remote add --mirror[=fetch]`` (its refspec is ``+refs/*:refs/*``), a fetch refspec
    ``+...`` into its own branches set with ``config remote.X.fetch``."""
    if sub == "fast-import":  # (the stream is data: its `feature force` is --force)
        return True
    if sub == "remote" and rest[:1] == ["add"]:
        return any(w == "--mirror" or w.startswith("--mirror=") for w in options)
    if sub == "config":
        operands = [w for w in rest if not w.startswith("-")]
        for key, value in zip(operands, operands[1:], strict=False):  # noqa: RUF007
            low = key.lower()
            if low.startswith("remote.") and low.endswith((".fetch", ".mirror")):
                into = value.rsplit(":", 1)[-1]
                if value == "true" or (value[:1] == "+" and not into.startswith("refs/remotes/")):
                    return True
    return False


def _rewrites_history(sub: str, options: list[str], clusters: str) -> bool:
    """Whether ``git SUB`` moves a branch to a commit that need not contain the old one (in
    the remote, that is what a force push does): reset, rebase, filter-branch, amend,
    checkout -B, switch -C, symbolic-ref, replace, tag -f (red team s24, finding 5)."""
    if sub in ("reset", "rebase", "filter-branch", "filter-repo", "symbolic-ref", "replace"):
        return True
    if sub == "commit":
        return "--amend" in options
    if sub == "checkout":
        return "B" in clusters
    if sub == "switch":
        return "C" in clusters or "--force-create" in options
    if sub == "tag":
        return "--force" in options or "f" in clusters
    return False


def git_force_configured(argv: list[str]) -> str | None:
    """The remote a git command configures so that a plain ``git push`` to it forces: ``git
    remote add --mirror[=push] R URL`` (a push mirrors: forced, deletions too), ``git config
    remote.R.mirror true`` or ``remote.R.push +REFSPEC``. The push may come on a later call,
    where nothing says force, so the setting stands for it (None: it sets none)."""
    at = git_subcommand(argv)
    if at < 0:
        return None
    sub, rest = argv[at], argv[at + 1 :]
    words = [w for w in rest if not w.startswith("-")]
    if sub == "remote" and words[:1] == ["add"] and len(words) > 1:
        if any(w == "--mirror" or w.startswith("--mirror=push") for w in rest):
            return words[1]
        return None
    if sub != "config":
        return None
    if words[:1] in (["set"], ["add"]):
        words = words[1:]
    if len(words) < 2 or not words[0].lower().startswith("remote."):
        return None
    key, value = words[0].lower(), words[1]
    if key.endswith(".mirror") and value.lower() in ("true", "1", "yes", "on"):
        return key.split(".")[1]
    if key.endswith(".push") and value.startswith("+"):
        return key.split(".")[1]
    return None
