"""Variables a tool reads as one of its options: ``UV_ENV_FILE=.env uv run CMD`` is
``uv run --env-file .env CMD``, ``FLASK_APP='m:f()' flask routes`` is ``flask --app
'm:f()' routes``. Set for the command (``X=v cmd``, ``env X=v cmd``) or exported earlier
on the line (``export X=v; cmd``), the value is known: the command is judged with the
option on its line, so every rule about that option sees it (one fact, one place: the
option's reader). Documented by each tool: uv's environment variables (``UV_ENV_FILE``:
the .env file ``uv run`` loads; ``UV_VENV_CLEAR``: ``uv venv --clear``), flask's click
group reads ``FLASK_<OPTION>`` for each of its options (``FLASK_APP``,
``FLASK_ENV_FILE``: run here, flask 3.1).

Standard library only; cold (loaded only for the tools below)."""

from __future__ import annotations

# variable -> (program, option, the subcommand it belongs after (""
# : right after the program), whether it takes the value)
OPTION_VARIABLES: dict[str, tuple[str, str, str, bool]] = {
    "FLASK_APP": ("flask", "--app", "", True),
    "FLASK_ENV_FILE": ("flask", "--env-file", "", True),
    "UV_ENV_FILE": ("uv", "--env-file", "run", True),
    "UV_VENV_CLEAR": ("uv", "--clear", "venv", False),
}
PROGRAMS = frozenset(program for program, *_ in OPTION_VARIABLES.values())
_FALSE = frozenset(["", "0", "false", "no", "off"])  # (a boolean variable left off)


def insertions(program: str, argv: list[str], env: dict[str, str]) -> list[tuple[int, list[str]]]:
    """Where in ``argv`` (the program first) the options ``env`` stands for go, and their
    words: (index, words), the highest index first (inserted in that order)."""
    found: list[tuple[int, list[str]]] = []
    for name, (owner, option, subcommand, valued) in OPTION_VARIABLES.items():
        if owner != program or name not in env:
            continue
        value = env[name]
        if not valued and value.lower() in _FALSE:
            continue
        if subcommand:
            operands = [at for at, word in enumerate(argv[1:], 1) if not word.startswith("-")]
            if not operands or argv[operands[0]] != subcommand:
                continue
            at = operands[0] + 1
        else:
            at = 1
        found.append((at, [option, value] if valued else [option]))
    return sorted(found, key=lambda item: -item[0])
