"""What a tool does with its operands because of one option or the shape of one word
(red team s32 H, M): an option that empties its directory operands before the tool fills
them (``python -m venv --clear DIR``, ``virtualenv --clear DIR``, ``uv venv --clear
DIR``), or that names a
directory a subcommand deletes (``cargo clean --target-dir DIR``), is the ``rm -r`` of
each; an application string with a call in it (flask's ``--app 'mod:f(args)'``,
gunicorn's ``'mod:f(args)'``) is Python code the tool runs (it imports ``mod`` and calls
``f`` with those arguments); Django's ``shell -c CODE`` is Python code it runs, and its
``shell`` without it runs its standard input.

Cold: loaded only for those tools. Standard library only."""

from __future__ import annotations

from hookwise.shell.commands.option_words import option_values

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

# tool -> (the option that empties its directory operands, its options taking a value);
# argparse takes any unambiguous prefix of a long option (``--cl`` is ``--clear``)
DIRECTORY_CLEARERS: dict[str, tuple[str, frozenset[str]]] = {
    "venv": ("--clear", frozenset(["--prompt"])),
    "virtualenv": (
        "--clear",
        frozenset(
            ["-p", "--python", "--creator", "--seeder", "--activators", "--prompt",
             "--app-data", "--discovery", "--pip", "--setuptools", "--wheel",
             "--extra-search-dir", "--try-first-with"]
        ),
    ),
}  # fmt: skip
# tool -> (its subcommand that empties its directory operand, the options that make it,
# its options taking a value, its global options taking a value, the operand when none
# is given): ``uv venv --clear [PATH]`` (``--force`` too) removes what is at PATH
# (default ``.venv``), ``uv --directory D venv`` makes PATH relative to D
SUBCOMMAND_CLEARERS: dict[str, tuple[str, tuple[str, ...], frozenset[str], frozenset[str], str]] = {
    "uv": (
        "venv",
        ("--clear", "--force"),
        frozenset(
            ["-p", "--python", "--prompt", "--index", "--default-index", "-i", "--index-url",
             "--extra-index-url", "-f", "--find-links", "--index-strategy",
             "--keyring-provider", "--exclude-newer", "--exclude-newer-package",
             "--link-mode", "--refresh-package", "--python-preference", "--cache-dir",
             "--config-file", "--color", "--directory", "--project",
             "--allow-insecure-host", "--trusted-host"]
        ),
        frozenset(["--directory", "--project", "--config-file", "--cache-dir", "--color",
                   "--python-preference", "--allow-insecure-host", "--trusted-host"]),
        ".venv",
    ),
}  # fmt: skip


# tool -> (its subcommand, the options whose directory it deletes): ``cargo clean
# --target-dir D`` removes D whole, ``mkdocs build -d D`` empties D before it builds
VALUE_CLEARERS: dict[str, tuple[str, frozenset[str]]] = {
    "cargo": ("clean", frozenset(["--target-dir"])),
    "mkdocs": ("build", frozenset(["-d", "--site-dir"])),
}


def _is_option(word: str, name: str) -> bool:
    """Whether ``word`` is the long option ``name`` or a prefix argparse may take for it."""
    return len(word) > 3 and name.startswith(word.split("=", 1)[0])


def cleared(tool: str, args: list[str]) -> list[tuple[str, Any]]:
    """The ``rm -r`` of the directories ``tool`` empties (``args``: the words after its
    name), or nothing when the clearing option is not given."""
    if tool in VALUE_CLEARERS:
        return _cleared_values(tool, args)
    if tool in SUBCOMMAND_CLEARERS:
        return _cleared_by_subcommand(tool, args)
    option, valued = DIRECTORY_CLEARERS[tool]
    operands: list[str] = []
    clears = False
    at = 0
    while at < len(args):
        word = args[at]
        if word == "--":
            operands += args[at + 1 :]
            break
        if word.startswith("-") and word != "-":
            clears = clears or _is_option(word, option)
            if word in valued or any(
                _is_option(word, v) for v in valued if v.startswith("--") and "=" not in word
            ):
                at += 1  # (its value)
        else:
            operands.append(word)
        at += 1
    if not clears or not operands:
        return []
    return [("argv", ["rm", "-r", "-f", "--", *operands])]


def _cleared_by_subcommand(tool: str, args: list[str]) -> list[tuple[str, Any]]:
    """The ``rm -r`` of what ``tool``'s clearing subcommand removes (SUBCOMMAND_CLEARERS):
    its operand (or default), under the global ``--directory`` when one is given."""
    subcommand, clearing, valued, global_valued, default = SUBCOMMAND_CLEARERS[tool]
    at = 0
    while at < len(args) and args[at].startswith("-"):  # the global options
        at += 2 if args[at] in global_valued else 1
    if at >= len(args) or args[at] != subcommand:
        return []
    clears = False
    operands: list[str] = []
    rest = args[at + 1 :]
    at = 0
    while at < len(rest):
        word = rest[at]
        if word == "--":
            operands += rest[at + 1 :]
            break
        if word.startswith("-") and word != "-":
            clears = clears or word.split("=", 1)[0] in clearing
            at += 2 if word in valued else 1
            continue
        operands.append(word)
        at += 1
    if not clears:
        return []
    base = (option_values([tool, *args], (), ("--directory",)) or [""])[-1]
    paths = [
        path if not base or path.startswith(("/", "~")) else f"{base.rstrip('/')}/{path}"
        for path in operands or [default]
    ]
    return [("argv", ["rm", "-r", "-f", "--", *paths])]


def _cleared_values(tool: str, args: list[str]) -> list[tuple[str, Any]]:
    """The ``rm -r`` of the directories ``tool``'s subcommand deletes by option."""
    subcommand, options = VALUE_CLEARERS[tool]
    if subcommand not in args:
        return []
    shorts = tuple(o for o in options if not o.startswith("--"))
    longs = tuple(o for o in options if o.startswith("--"))
    found = option_values([tool, *args], shorts, longs)
    return [("argv", ["rm", "-r", "-f", "--", *found])] if found else []


# --app VALUE, -A VALUE, --app=VALUE (flask); any operand (gunicorn, uvicorn's --factory
# calls with no arguments: the project's code)
_APP_OPTIONS = ("--app", "-A")


def app_strings(tool: str, args: list[str]) -> list[str]:
    """The application strings given to ``tool`` that call a function (``mod:f(...)``)."""
    found: list[str] = []
    for at, word in enumerate(args):
        if word.startswith("--app="):
            found.append(word[len("--app=") :])
        elif word in _APP_OPTIONS and at + 1 < len(args):
            found.append(args[at + 1])
        elif tool != "flask" and not word.startswith("-"):
            found.append(word)
    return [s for s in found if "(" in s]


def app_code(app: str) -> str:
    """Python that does what the tool does with ``mod:f(args)``: import, then call."""
    module, _, call = app.partition(":")
    if not call:  # (flask's `mod.f(args)` form without a colon: still a call)
        module, _, call = app.partition("(")
        module, _, name = module.rpartition(".")
        call = f"{name}({call}"
    return f"import {module.strip()}\n{module.strip()}.{call.strip()}"


def app_items(tool: str, args: list[str]) -> list[tuple[str, Any]]:
    """What the application strings of ``tool`` run: the Python they are, judged as
    ``python3 -c`` of it (the code readers read it there; importing them here would close
    a cycle through programs)."""
    return [("argv", ["python3", "-c", app_code(app)]) for app in app_strings(tool, args)]


# Django's management commands that run Python the line gives (issue 24): ``shell -c CODE``
# (``--command``); without it ``shell`` runs what it reads from its standard input (piped,
# or typed in later). django-extensions' ``shell_plus`` takes the same. The commands are
# programs.DJANGO_COMMANDS (``python3 manage.py shell``: programs.invocation_alias).
_DJANGO_SHELLS = frozenset(["shell", "shell_plus"])


def django_items(tool: str, args: list[str]) -> list[tuple[str, Any]]:
    """What a Django shell command runs: its ``-c`` code as ``python3 -c`` (read by the
    code readers), else its standard input: unverifiable."""
    sub = next((w for w in args if not w.startswith("-")), "")
    if sub not in _DJANGO_SHELLS:
        return []
    codes = option_values([tool, *args], ("-c",), ("--command",))
    if codes:
        return [("argv", ["python3", "-c", code]) for code in codes]
    return [("unverifiable", f"{tool} {sub} runs the Python it reads from its standard input")]
