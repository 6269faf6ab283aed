"""Tools that load a project's environment file by themselves (session 32). What runs
under them runs as it would after ``source .env`` on the line, so it is judged so
(env_files.leaks_values): printing a value, or running code or a command the line gives
with the values loaded, is a read of the file; the project's own code on disk is not.

The rule, once, as a table (tool: files it loads; what makes it print or run given code):

================================  ==========================  ==============================
tool                              loads                       prints / runs what the line gives
================================  ==========================  ==============================
``dotenv run``, ``dotenv -f F``   ``.env`` / F                the command after it (runner)
``dotenvx run [-f F]``            ``.env`` / F                the command after it (runner)
``env-cmd [-f F]``                ``.env`` / F                the command after it (runner)
``honcho|foreman run [-e F]``     ``.env`` / F (``a,b``)      the command after it (runner);
                                                              ``start``: the Procfile (the
                                                              project's code on disk)
``heroku local:run [-e F]``       ``.env`` / F                the command after it (runner)
``pipenv run|shell``              ``.env``                    the command after it (runner)
``uv run --env-file F``,          F                           the command after it (runner)
``op run --env-file F``
``direnv exec DIR``               ``DIR/.envrc``, ``DIR/.env``  the command after it (runner)
``mise exec|x``                   ``.env`` (``env._.file``;   the command after it (runner);
                                  ``MISE_ENV_FILE``)          ``env``, ``set``: print them
``just -c|--command CMD``         ``.env`` (``-E|-F F``)      CMD (runner); a recipe: the
                                                              project's code on disk
``dotenvx get|decrypt``           ``.env`` / F                prints the values
``bun`` (every subcommand)        ``.env`` (``--env-file F``)  ``-e``/``-p`` code, ``run -``
                                                              and stdin, ``repl`` (typed)
``flask`` (python-dotenv)         ``.env``, ``.flaskenv``     ``shell``: Python on stdin
                                                              (typed in later: unverifiable)
``docker compose``,               ``.env`` (interpolation;    ``config``/``convert`` print
``docker-compose``                ``--project-directory D``)  the values; ``run``/``exec``
                                                              SERVICE CMD: CMD, judged so
================================  ==========================  ==============================

(``node --env-file``, ``docker run --env-file``, ``deno run --env-file``: env_files.py, an
option on the line; ``process.loadEnvFile()``, ``load_dotenv()``: code_commands.ENV_LOADING.)
Cold: only for a runner or a program of programs.ENV_SELF_LOADERS. Standard library only."""

from __future__ import annotations

from hookwise.shell.commands.option_words import option_values


def _values(argv: list[str], options: tuple[str, ...], stop: int | None = None) -> list[str]:
    """The values of ``options`` among ``argv[1:stop]`` (``-f F``, ``--file=F``, ``-fF``),
    read as getopt_long reads them (option_words)."""
    shorts = tuple(o for o in options if not o.startswith("--"))
    longs = tuple(o for o in options if o.startswith("--"))
    return option_values(argv[:stop], shorts, longs)


def _listed(values: list[str]) -> list[str]:
    """honcho's ``-e a,b``: several files in one value."""
    return [name for value in values for name in value.split(",") if name]


def runner_env(name: str, argv: list[str], stop: int) -> list[str]:
    """The environment files runner ``name`` (wrappers.RUNNERS) loads into the command it
    runs, ``argv[stop:]``; ``argv[:stop]`` are the runner's own words."""
    if name == "dotenv":
        from hookwise.shell.commands.env_files import dotenv_file

        return [dotenv_file(argv)]
    if name == "pipenv":
        return [".env"]  # pipenv run/shell load .env first (red team s31 I)
    if name in ("honcho", "foreman"):
        return _listed(_values(argv, ("-e", "--env", "--env-file"), stop)) or [".env"]
    if name == "dotenvx":
        return _values(argv, ("-f", "--env-file"), stop) or [".env"]
    if name == "env-cmd":
        found = _values(argv, ("-f", "--file", "-r", "--rc-file"), stop)
        return found or [".env"]
    if name == "heroku":
        return _values(argv, ("-e", "--env"), stop) or [".env"]
    if name in ("uv", "op"):
        return _values(argv, ("--env-file",), stop)
    if name == "mise":  # env._.file in mise.toml names it: .env as documented, or
        # the file MISE_ENV_FILE names (kept as the runner's own -E value is not: none)
        return [".env"]
    if name == "just":  # dotenv-load (.env), or --dotenv-path / --dotenv-filename
        return _values(argv, ("-E", "--dotenv-path", "-F", "--dotenv-filename"), stop) or [".env"]
    if name == "direnv":  # direnv exec DIR: DIR's .envrc, and the .env it may load (dotenv)
        words = [w for w in argv[1:stop] if not w.startswith("-")]
        where = words[1].rstrip("/") if len(words) > 1 and words[0] == "exec" else "."
        return [f"{where}/.envrc", f"{where}/.env"]
    return []


class Loaded:
    """What a program of programs.ENV_SELF_LOADERS does with the files it loads by itself:
    ``how`` is "prints" (shows their values), "typed" (runs code read from its stdin:
    given on the line, or typed in later), or "judge" (judged as after ``source``, from
    ``argv[at:]``: the program itself when 0, the command it runs in a container else).
    (A plain class: typing would load os into the hook.)"""

    __slots__ = ("at", "files", "how")

    def __init__(self, files: list[str], how: str, at: int = 0) -> None:
        self.files = files
        self.how = how
        self.at = at


# docker compose's global options that take a value (before the subcommand)
_COMPOSE_GLOBAL = frozenset(["-f", "--file", "-p", "--project-name", "--profile",
                             "--env-file", "--project-directory", "--ansi", "--progress",
                             "--parallel", "-c", "--context", "-H", "--host",
                             "--log-level"])  # fmt: skip
# options of compose run/exec that take a value (before SERVICE)
_COMPOSE_RUN = frozenset(["-e", "--env", "-l", "--label", "--name", "-p", "--publish", "-u",
                          "--user", "-v", "--volume", "-w", "--workdir", "--entrypoint",
                          "--index", "--pull", "--cap-add", "--cap-drop",
                          "--env-from-file"])  # fmt: skip
# flask's own options that take a value (before the subcommand)
_FLASK_GLOBAL = frozenset(["-A", "--app", "-e", "--env-file"])
# dotenvx's and mise's global options that take a value
_DOTENVX_VALUES = frozenset(["-f", "--env-file", "-fk", "--env-keys-file", "-l", "--log-level"])
_MISE_VALUES = frozenset(["-C", "--cd", "-E", "--env", "-j", "--jobs"])
# bun's options that take a value
_BUN_VALUES = frozenset(["-r", "--preload", "--cwd", "--env-file", "-c", "--config",
                         "--conditions", "--tsconfig-override"])  # fmt: skip


def _subcommand(argv: list[str], start: int, takes: frozenset[str]) -> int:
    """The index of the first operand at or after ``start`` (options, and the values of
    ``takes``, skipped); len(argv) when there is none."""
    at = start
    while at < len(argv) and argv[at].startswith("-") and argv[at] != "-":
        at += 2 if argv[at] in takes else 1
    return at


def self_loaded(program: str, argv: list[str], fed: bool) -> Loaded | None:
    """What ``program`` loads by itself and does with it (the table above); None: it loads
    nothing here, or only for the project's own code (``flask run``, ``docker compose up``,
    ``bun test``). ``fed``: the line gives its stdin."""
    if program == "bun":
        if "--no-env-file" in argv:
            return None
        files = _values(argv, ("--env-file",)) or [".env"]
        sub = _subcommand(argv, 1, _BUN_VALUES)
        if sub < len(argv) and argv[sub] == "repl" and not fed:
            return Loaded(files, "typed")
        return Loaded(files, "judge")
    if program == "dotenvx":  # get [KEY], decrypt --stdout: the values printed
        sub = _subcommand(argv, 1, _DOTENVX_VALUES)
        if sub < len(argv) and argv[sub] in ("get", "decrypt"):
            return Loaded(_values(argv, ("-f", "--env-file")) or [".env"], "prints")
        return None
    if program == "mise":  # mise env, mise set (no assignment): the environment printed
        sub = _subcommand(argv, 1, _MISE_VALUES)
        words = argv[sub:]
        if words[:1] == ["env"] or (words[:1] == ["set"] and not any("=" in w for w in words)):
            return Loaded([".env"], "prints")
        return None
    if program == "flask":
        sub = _subcommand(argv, 1, _FLASK_GLOBAL)
        if sub >= len(argv) or argv[sub] != "shell":
            return None
        return Loaded([".env", ".flaskenv", *_values(argv, ("-e", "--env-file"), sub)], "typed")
    if program == "docker":
        if argv[1:2] != ["compose"]:
            return None
        start = 2
    elif program in ("docker-compose", "podman-compose"):
        start = 1
    else:
        return None
    sub = _subcommand(argv, start, _COMPOSE_GLOBAL)
    where = (_values(argv, ("--project-directory",), sub) or ["."])[-1].rstrip("/")
    files = [f"{where}/.env" if where != "." else ".env"]
    if sub >= len(argv):
        return None
    if argv[sub] in ("config", "convert"):
        return Loaded(files, "prints")
    if argv[sub] in ("run", "exec"):
        service = _subcommand(argv, sub + 1, _COMPOSE_RUN)
        if service + 1 < len(argv):
            return Loaded(files, "judge", service + 1)
    return None
