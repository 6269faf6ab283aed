"""Files a command writes beyond its redirections, and what they then hold: ``cp``/``mv``/
``install``/``ln`` of a file written on the line (or of stdin), ``curl -o``, ``wget -O``,
``dd of=``, ``base64 -o``, ``openssl -out`` (content known only when it runs), ``sed -i``
and ``perl -pi`` (a script changed in place); a git hook written (it runs on the next git
command, on this line or not: read as run now); a package.json written, whose scripts npm
runs.

Cold: needed only for those programs. It must not import the shell parser (the parser
imports it): the parser comes in as ``api`` (parser._Api). Standard library only.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

_WRITES_OPTION = {
    "curl": (("-o",), ("--output",)),
    "wget": (("-O",), ("--output-document",)),
    "dd": ((), ()),
    "base64": (("-o",), ("--output",)),
    "openssl": ((), ("-out",)),
    "gpg": (("-o",), ("--output",)),
    "unzip": ((), ()),
    "xxd": ((), ()),
}
_COPIERS = frozenset(["cp", "mv", "install", "ln"])


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
