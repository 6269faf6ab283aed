"""Calls in node code that the one-liner reader cannot account for (red team s35 E).

Any module but a few of node's own can compile a string it is given into code:
``worker_threads``' Worker (``{eval: true}``, a ``data:`` URL), ``module``'s
``_compile``, ``vm``, ``inspector``, and any npm package (lodash's ``template``). Listing
them is a list of spellings; instead, once the code loads a module not known to run no
code (code_residue's ``_NODE_PURE``; a relative path is the project's code on disk), every
call given a string, or a value the reader cannot see is no string, must be on a value the
reader knows: a name bound to a pure module, a global of data (``console``, ``JSON``,
``Math``...), or ``require`` of a literal name. Anything else (the module's exports under
any name, a local value made from them, a call through a parenthesised expression) is
unverifiable. A module named by a URL (``import "data:..."``) is code given as data.

One call is known: worker_threads' ``Worker`` given one literal path, no options that can
say ``eval``: it runs the project's file, as ``node ./src/worker.js`` would.

Cold: imported with code_residue. Uses :mod:`re`.
"""

from __future__ import annotations

import re

_GLOBALS = frozenset(
    ["console", "JSON", "Math", "Object", "Array", "String", "Number", "Boolean", "Date",
     "Promise", "Buffer", "URL", "URLSearchParams", "Map", "Set", "WeakMap", "WeakSet",
     "RegExp", "Symbol", "BigInt", "Error", "TypeError", "parseInt", "parseFloat", "isNaN",
     "isFinite", "encodeURIComponent", "decodeURIComponent", "encodeURI", "decodeURI",
     "TextEncoder", "TextDecoder", "setTimeout", "setInterval", "clearTimeout",
     "clearInterval", "setImmediate", "structuredClone", "atob", "btoa", "Intl",
     "undefined", "null", "true", "false", "NaN", "Infinity", "this", "typeof", "void",
     "in", "of", "instanceof", "await", "async"]
)  # fmt: skip
_KEYWORDS = frozenset(["if", "for", "while", "switch", "catch", "function", "return", "with"])
_BOUND = re.compile(
    r"\b(?:const|let|var)\s+([\w$]+)\s*=\s*(?:require|process\s*\.\s*getBuiltinModule)\(\s*"
    r"['\"`]([^'\"`]*)['\"`]\s*\)((?:\s*\.\s*[\w$]+)*)"
)
_DESTRUCTURED = re.compile(
    r"\b(?:const|let|var)\s*\{([^}]*)\}\s*=\s*(?:require|process\s*\.\s*getBuiltinModule)"
    r"\(\s*['\"`]([^'\"`]*)['\"`]\s*\)"
)
_IMPORTED = re.compile(r"\bimport\s+([^'\"]*?)\s+from\s*['\"]([^'\"]*)['\"]")
_LOADED = re.compile(
    r"(?:\brequire|\bgetBuiltinModule|\bimport)\s*\(\s*(['\"`])([^'\"`]*)\1"
    r"|\bimport\s+(?:[^'\"]*?\s+from\s*)?(['\"])([^'\"]*)\3"
)
_BUILTIN = re.compile(r"process\s*\.\s*getBuiltinModule\s*\(\s*(['\"`])([^'\"`]*)\1")
_WORKER_FILE = re.compile(r"\s*(['\"`])\.{0,2}/[\w./-]+\1\s*")


def _module(name: str) -> str:
    return name.removeprefix("node:")


def _local(name: str) -> bool:
    """A module the project has on disk (a relative or absolute path)."""
    return name.startswith(("./", "../", "/")) or name in (".", "..")


def _bindings(code: str) -> dict[str, str]:
    """Names the code binds to a module or a member of it (``W`` -> ``worker_threads.Worker``)."""
    bound: dict[str, str] = {}
    for match in _BOUND.finditer(code):
        members = re.sub(r"\s", "", match.group(3))
        bound[match.group(1)] = f"{_module(match.group(2))}|{members}"
    for match in _DESTRUCTURED.finditer(code):
        for item in match.group(1).split(","):
            name, _, alias = (w.strip() for w in item.partition(":"))
            if name:
                bound[alias or name] = f"{_module(match.group(2))}|.{name}"
    for match in _IMPORTED.finditer(code):
        module = _module(match.group(2))
        for item in re.split(r"[,{}]", match.group(1)):
            words = item.split()
            if not words:
                continue
            if words[0] == "*" and len(words) == 3:
                bound[words[2]] = f"{module}|"
            elif len(words) == 3 and words[1] == "as":
                bound[words[2]] = f"{module}|.{words[0]}"
            elif "{" in match.group(1):
                bound[words[0]] = f"{module}|.{words[0]}"
            else:
                bound[words[0]] = f"{module}|"
    return bound


def _callee(blanked: str, at: int) -> tuple[int, str]:
    """Where the callee of the ``(`` at ``at`` starts, and its text (a chain of names,
    members, calls and subscripts: ``require("m").W``, ``(x.y)``, ``a.b()[c].d``); a
    keyword before it (``new``) is not part of it."""
    index = at
    while index > 0:
        back = index
        while back > 0 and blanked[back - 1].isspace():
            back -= 1
        char = blanked[back - 1] if back > 0 else ""
        if char.isalnum() or char in "_$":
            if index not in (back, at):
                break  # (`new W`: two words)
            index = back
            while index > 0 and (blanked[index - 1].isalnum() or blanked[index - 1] in "_$"):
                index -= 1
        elif char in ")]" and index in (back, at):
            depth, index = 0, back - 1
            while index >= 0:
                if blanked[index] in ")]":
                    depth += 1
                elif blanked[index] in "([":
                    depth -= 1
                    if depth == 0:
                        break
                index -= 1
            index = max(index, 0)
        else:
            break
        ahead = index
        while ahead > 0 and blanked[ahead - 1].isspace():
            ahead -= 1
        if ahead > 0 and blanked[ahead - 1] == ".":
            index = ahead - 1
        elif ahead > 0 and (blanked[ahead - 1] in ")]" or blanked[ahead - 1].isalnum()):
            if ahead != index:
                break
        else:
            break
    return index, blanked[index:at]


def _root(callee: str, code: str, start: int, bound: dict[str, str]) -> str | None:
    """What the callee's chain starts from: ``MODULE|.member...``, ``global`` (data), or
    None (a value the reader does not know)."""
    text = callee.strip()
    if text.startswith("("):  # (require("m").W)(...): what is inside the parentheses
        depth = 0
        for index, char in enumerate(text):
            depth += char in "([" or -(char in ")]")
            if depth == 0:
                inner = text[1:index]
                offset = start + (len(callee) - len(callee.lstrip())) + 1
                rest = re.sub(r"\s", "", text[index + 1 :])
                found = _root(inner, code, offset, bound)
                return f"{found}{rest}" if found not in (None, "global") else found
        return None
    name = re.match(r"[\w$]+", text)
    if name is None:
        return None
    word = name.group(0)
    after = re.sub(r"\s", "", text[name.end() :])
    if (word in ("require", "import") and not after) or (
        word == "process" and after == ".getBuiltinModule"
    ):
        return "global"  # (the load of a literal name itself; a computed one is residue's)
    if word in ("require", "import") or (word == "process" and after.startswith(".getBuiltin")):
        loader = _BUILTIN if word == "process" else _LOADED
        loaded = loader.match(code, start + (len(callee) - len(callee.lstrip())))
        if loaded is None or not loaded.group(2):
            return None if after else "global"  # (require(x): code_residue's)
        member = re.sub(r"^\([^)]*\)", "", after)
        return f"{_module(loaded.group(2))}|{member}"
    if word in bound:
        return bound[word] + after
    if word in _GLOBALS:
        return "global"
    return None


def _stringish(arguments: str, bound: dict[str, str]) -> bool:
    """Whether call arguments (strings blanked) may hold a string: a literal, or a name
    the reader does not know to be a global of data or a module's value."""
    if re.search(r"['\"`]", arguments):
        return True
    for match in re.finditer(r"(?<![\w$.])([A-Za-z_$][\w$]*)", arguments):
        if match.group(1) not in _GLOBALS and match.group(1) not in bound:
            return True
    return False


def _closing(code: str, at: int) -> int:
    depth = 0
    for index in range(at, len(code)):
        depth += code[index] in "([{" or -(code[index] in ")]}")
        if depth == 0:
            return index
    return len(code)


def unaccounted(code: str, blanked: str, pure: frozenset[str]) -> str | None:
    """Why node ``code`` (``blanked``: its strings and known literal calls blanked) has a
    call the reader cannot account for (None: it has none)."""
    names = [_module(m.group(2) or m.group(4) or "") for m in _LOADED.finditer(code)]
    for name in names:
        if re.match(r"[a-z][a-z0-9+.-]*:", name) and not name.startswith("node:"):
            return f"a module given as data (`{name[:40]}`)"
    foreign = [n for n in names if n and n not in pure and not _local(n)]
    if not foreign:
        return None
    bound = _bindings(code)
    for match in re.finditer(r"\(", blanked):
        at = match.start()
        start, callee = _callee(blanked, at)
        head = re.match(r"[\w$]+", callee.strip())
        if not callee.strip() or (head is not None and head.group(0) in _KEYWORDS):
            continue
        before = blanked[:start].rstrip()
        if before.endswith("function") or re.search(r"\bfunction\s+$", blanked[:start]):
            continue
        end = _closing(blanked, at)
        arguments = blanked[at + 1 : end]
        root = _root(callee, code, start, bound)
        module = root.split("|", 1)[0] if root is not None else ""
        if root == "global" or module in pure or _local(module):
            continue
        if not _stringish(arguments, bound):
            continue
        if (
            root is not None
            and root.replace(" ", "") == "worker_threads|.Worker"
            and _WORKER_FILE.fullmatch(code[at + 1 : end]) is not None
        ):
            continue  # new Worker("./src/worker.js"): the project's file
        shown = re.sub(r"\s+", " ", code[start : min(end + 1, start + 40)])
        why = f"`{foreign[0]}`" if root is None else f"`{root.replace('|', '')}`"
        return f"a call given a string that it cannot account for (`{shown}`, {why})"
    return None
