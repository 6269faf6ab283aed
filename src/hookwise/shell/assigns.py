"""What builtins assign, for the values known later on the line (``export X=1``,
``declare -a a=(x y)``, ``read x``, ``mapfile``, ``printf -v x``, ``set -- a b``), and the
code bash finds in what they are given: a subscript in a name is evaluated as arithmetic
(``read 'a[$(cmd)]'`` runs cmd), ``mapfile -C CMD`` runs CMD, a value read from data that
holds ``$(...)`` runs where arithmetic or a prompt evaluates it.

Cold: needed only for those builtins. It must not import the shell parser (the parser
imports it, and the policy layer has no import cycles, not even lazy ones): the parser
comes in as ``api`` (parser._api()). Standard library only.
"""

from __future__ import annotations

import re

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

_ASSIGNERS = frozenset(["export", "declare", "typeset", "local", "readonly"])
# options of read and mapfile that take a value (the rest of their words are names)
_READ_VALUES = frozenset(["-p", "-d", "-n", "-N", "-t", "-u", "-i", "-a"])
_MAPFILE_VALUES = frozenset(["-d", "-n", "-O", "-s", "-u", "-C", "-c"])


def assigns(command: Any, depth: int, script: Any, certain: bool, api: Any) -> None:
    """What a builtin assigns (``export X=1``, ``read x``, ``printf -v x``, ``set -- a b``),
    for the values known later; a subscript in a name it is given is evaluated as
    arithmetic, so ``read 'a[$(cmd)]'`` runs cmd."""
    program = command.program
    argv = command.argv
    dynamic = command.dynamic
    for word in argv[1:]:
        if "[" in word and ("$(" in word or "`" in word):
            api.data_code(word, depth, script)
    if program in _ASSIGNERS:
        options = "".join(w[1:] for w in argv[1:] if w[:1] in "-+" and w != "--")
        plain = set(options) <= set("xgraA") and program != "local"
        prefix = api.prefix_type()
        if "n" in options:
            # declare -n r=x: assigning r assigns x (a nameref; red team s27 A), and r may
            # name any variable: no value of this shell is known past it
            _any_name(script, api)
        for index, word in enumerate(argv[1:], start=1):
            if word[:1] in "-+":
                continue
            name, eq, value = word.partition("=")
            if not name.rstrip("+").isidentifier():
                if dynamic[index]:
                    _any_name(script, api)  # declare "$n=..." assigns a name known when it runs
                continue
            if eq:
                made = api.word_type(word, dynamic[index], True, 0, 0)
                api.assignment(made, script, depth, prefix)
                if name.endswith("+") or dynamic[index] or not plain:
                    api.record(script, name.rstrip("+"), None, False)
                elif value.startswith("(") and value.endswith(")"):  # declare -a a=(x y)
                    found = array_elements(value[1:-1], depth, script, api.scanner_type)
                    from hookwise.shell.variables import array_patterns

                    array_patterns(script, name, found)
                    if any(e.dynamic for e in found):  # (a=($(cmd)): known when it runs)
                        api.record(script, name, None, False)
                    else:
                        api.record(script, name, [e.value for e in found], certain)
                else:
                    api.record(script, name, value, certain)
                    api.value_code(value, depth, script)
            elif not plain:
                api.record(script, name, None, False)  # declare -l x: its value changes
        command.unknowns += prefix.unknowns
        command.assigned += prefix.assigned
        command.env.update(prefix.env)
        return
    if program == "set":
        if len(argv) > 1 and (argv[1] == "--" or argv[1][:1] not in "-+"):
            rest = argv[2:] if argv[1] == "--" else argv[1:]
            known = not any(dynamic[len(argv) - len(rest) :])
            api.record(script, "@", rest if known else None, certain and known)
        return
    if program == "shift":
        api.record(script, "@", None, False)
        return
    names: list[str] = []
    if program in ("read", "mapfile", "readarray"):
        values = _READ_VALUES if program == "read" else _MAPFILE_VALUES
        index = 1
        while index < len(argv):
            word = argv[index]
            if word in values and index + 1 < len(argv):
                if word == "-a":
                    names.append(argv[index + 1])
                if word == "-C":  # mapfile -C CALLBACK: a command run for every line
                    api.parse(argv[index + 1], depth + 1, script)
                index += 2
                continue
            if word[:1] != "-":
                if dynamic[index]:
                    _any_name(script, api)
                names.append(word)
            index += 1
        names = names or (["REPLY"] if program == "read" else ["MAPFILE"])
        for text in input_texts(command, script, api):  # read x <<< '$(cmd)': code in the value
            api.value_code(text, depth, script)
    elif program == "printf":
        if "-v" in argv[:-1]:
            at = argv.index("-v") + 1
            if dynamic[at]:
                _any_name(script, api)
            names.append(argv[at])
    elif program == "getopts" and len(argv) > 2:
        names += [argv[2], "OPTARG", "OPTIND"]
    elif program == "unset":
        names += [w.split("=", 1)[0] for w in argv[1:] if w[:1] != "-"]
    elif program == "let":  # let / (( )): each name an assignment operator changes
        for index, word in enumerate(argv[1:], start=1):
            if dynamic[index]:
                _any_name(script, api)  # (( $n = 1 )): the name is known when it runs
            names += arithmetic_targets(word)
    for name in names:
        api.record(script, name.split("[", 1)[0], None, False)


def _any_name(script: Any, api: Any) -> None:
    """A name the line computes is assigned: any variable of this shell may change."""
    api.wildcard(script)
    script.vars.computed = True


# an assignment in arithmetic: NAME[SUB] OP= (not ==), ++NAME, NAME--
_ARITH_TARGET = re.compile(
    r"([A-Za-z_]\w*)\s*(?:\[[^\]]*\])?\s*(?:<<|>>|[-+*/%&^|])?=(?!=)"
    r"|(?:\+\+|--)\s*([A-Za-z_]\w*)|([A-Za-z_]\w*)\s*(?:\+\+|--)"
)


def arithmetic_targets(expression: str) -> list[str]:
    """The names an arithmetic expression assigns (``GLOBIGNORE = 1``, ``a = b = 2``,
    ``i++``); a comparison (``x == 1``, ``x <= 1``) assigns none."""
    found: list[str] = []
    for match in _ARITH_TARGET.finditer(expression):
        name = next(g for g in match.groups() if g)
        start = match.start()
        if match.group(1) and start > 0 and expression[start - 1] in "<>!=":
            continue
        if name not in found:
            found.append(name)
    return found


_COMPUTED_TARGET = re.compile(
    r"\$\{?[A-Za-z_]\w*\}?\s*(?:\[[^\]]*\])?\s*(?:<<|>>|[-+*/%&^|])?=(?!=)"
)


def computed_target(word: str) -> bool:
    """Whether an arithmetic expansion in ``word`` assigns to a name an expansion gives
    (``$(( $n = 1 ))``: any variable, GLOBIGNORE among them)."""
    if "$((" not in word and "$[" not in word:
        return False
    return _COMPUTED_TARGET.search(word) is not None


def input_texts(command: Any, script: Any, api: Any) -> list[str]:
    """What a command reads on stdin, where it is known here: a here-document, a static
    command piped or substituted in (``< <(echo ...)``), a file written on the line."""
    found = list(command.stdin)
    if command.piped_from is not None:
        printed = api.static_output(command.piped_from)
        if printed is not None:
            found.append(printed)
    for source in command.redirects:
        if source in command.writes:
            continue
        if source.startswith("<(") and source.endswith(")"):
            inner = api.parsed(source[2:-1], command.depth + 1)
            printed = api.static_output(inner[0]) if len(inner) == 1 else None
            if printed is not None:
                found.append(printed)
        elif script.recall(source) is not None:
            found.append(script.recall(source) or "")
    return found


def array_elements(
    body: str,
    depth: int,
    script: Any,
    scanner_type: Any,
    nested: list[tuple[str, int]] | None = None,
) -> list[Any]:
    """The elements of ``NAME=( body )`` as bash makes them: words of the parser's own
    scanner, each brace-expanded as a word is (``x=({.e,.x}nv)`` is ``.env .xnv``, red
    team s32 Q). ``nested``: gets the commands the body runs."""
    inner = scanner_type(body, depth, script)
    elements = [
        payload
        for kind, payload, _s, _e in inner.tokens()
        if kind == "word" and not isinstance(payload, str)
    ]
    if nested is not None:
        nested.extend(inner.nested)
    if "{" not in body:
        return elements
    from hookwise.shell.braces import expand_words

    def again(made: str) -> Any:
        return scanner_type(made, depth, script)._word(0)[0]

    return expand_words(elements, script, body, again)


def array_word(
    scanner: Any,
    start: int,
    i: int,
    value: list[str],
    *,
    end: int,
    scanner_type: Any,
    word_type: Any,
) -> tuple[Any, int]:
    """``a=(x "y z" $(cmd))``: one assignment word holding its elements, up to ``end``
    (the parser finds it as bash does: quotes, comments, nested substitutions), read by a
    scanner of the parser's own type, made with its word type."""
    text = scanner.text
    if end < 0:
        scanner.incomplete("unclosed array assignment")
        end = len(text)
    nested: list[tuple[str, int]] = []
    elements = array_elements(
        text[i + 1 : end], scanner.depth, scanner.script, scanner_type, nested
    )
    scanner.nested.extend((inner, i) for inner, _at in nested)
    word = word_type(
        "".join(value) + text[i : end + 1],
        any(e.dynamic for e in elements),
        False,
        start,
        min(end + 1, len(text)),
    )
    word.array = elements
    return word, min(end + 1, len(text))
