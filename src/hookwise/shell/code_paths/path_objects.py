"""Paths python code builds with pathlib (red team s32 J): ``Path("..", "home",
".netrc")``, ``Path("..") / "home" / ".netrc"``, ``Path.cwd().parent / "home"``,
``.joinpath(...)``, ``Path.home() / ".aws"``. A chain of literals is the path it joins
(read, or written by ``write_text``/``write_bytes``/``touch``/``mkdir``/``open("w")``...);
a part that is not a literal (a name, a call, ``.parent`` of ``..``) makes a path known
only when the code runs: ``${computed}`` for a read, unverifiable for a write.

Cold: loaded only for python code. Standard library only."""

from __future__ import annotations

import re

from hookwise.shell.programs import COMPUTED

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

_LIT = r"""(?:'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)")"""
_CLASS = r"(?:Pure)?(?:Posix|Windows)?Path"
_HEAD = re.compile(
    r"(?<![\w.])(?:pathlib\s*\.\s*)?" + _CLASS + r"\s*(?:\.\s*(cwd|home)\s*\(\s*\)|\()"
)
# names the code binds to pathlib or its classes (red team s33 L: ``from pathlib import
# Path as P``, ``import pathlib as p``, ``P = Path``): each starts a chain as Path does
_FROM = re.compile(r"\bfrom\s+pathlib\s+import\s+\(?([\w\s,]+)")
_MODULE = re.compile(r"\bimport\s+pathlib\s+as\s+([A-Za-z_]\w*)")
_ALIAS = re.compile(
    r"(?<![\w.])([A-Za-z_]\w*)\s*=\s*(?:pathlib\s*\.\s*)?" + _CLASS + r"\b(?!\s*\()"
)


def _heads(code: str) -> Any:
    """The pattern of a chain's start in ``code``: pathlib's own names, and those it binds."""
    classes: list[str] = []
    modules: list[str] = []
    for found in _FROM.finditer(code):
        for item in found.group(1).split(","):
            words = item.split()
            if len(words) == 3 and words[1] == "as" and re.fullmatch(_CLASS, words[0]):
                classes.append(re.escape(words[2]))
    modules += [re.escape(m) for m in _MODULE.findall(code)]
    classes += [re.escape(a) for a in _ALIAS.findall(code)]
    if not classes and not modules:
        return _HEAD
    module = "|".join(["pathlib", *modules])
    name = "|".join([_CLASS, *classes])
    return re.compile(
        rf"(?<![\w.])(?:(?:{module})\s*\.\s*{_CLASS}|(?:{name}))\s*"
        r"(?:\.\s*(cwd|home)\s*\(\s*\)|\()"
    )


# a name joined to a literal with `/` (p / "settings.json"): a path object made elsewhere
_NAME_JOIN = re.compile(r"(?<![\w.'\"])([A-Za-z_]\w*)\s*/\s*" + _LIT)
_WRITES = re.compile(
    r"\s*\)?\s*\.\s*(?:write_text|write_bytes|touch|mkdir|symlink_to|hardlink_to|rename|"
    r"replace|unlink|rmdir|chmod|open\s*\(\s*(?:mode\s*=\s*)?['\"][^'\"]*[wax+])"
)
_NAME_WRITE = re.compile(
    r"(?<![\w.)\]'\"])([A-Za-z_]\w*)\s*\.\s*(?:write_text|write_bytes|touch|mkdir|symlink_to|"
    r"hardlink_to)\s*\("
)
_ARGS = re.compile(r"\s*" + _LIT + r"\s*(?:,|(?=\)))")


def _literal(match: Any) -> str:
    return str(match.group(1) if match.group(1) is not None else match.group(2))


def _join(base: str, part: str) -> str:
    if part.startswith("/"):
        return part
    if base in ("", "."):
        return part
    return f"{base.rstrip('/')}/{part}"


def _arguments(code: str, at: int) -> tuple[list[str] | None, int]:
    """The string literals of a call's arguments from ``at`` (after its ``(``) and the
    index after its ``)``; None: an argument that is not a literal."""
    parts: list[str] = []
    while True:
        found = _ARGS.match(code, at)
        if found is None:
            break
        parts.append(_literal(found))
        at = found.end()
        if code[at : at + 1] == ",":
            at += 1
    closing = re.match(r"\s*\)", code[at:])
    if closing is None:
        return None, at
    return parts, at + closing.end()


def _chain(code: str, head: Any) -> tuple[str, int]:
    """The path a pathlib chain starting at ``head`` names and where it ends."""
    if head.group(1) == "cwd":
        path, at = ".", head.end()
    elif head.group(1) == "home":
        path, at = "~", head.end()
    else:
        parts, at = _arguments(code, head.end())
        path = COMPUTED if parts is None else "/".join(parts) or "."
    while True:
        step = re.match(r"\s*/\s*" + _LIT, code[at:])
        if step is not None:
            path = COMPUTED if path == COMPUTED else _join(path, _literal(step))
            at += step.end()
            continue
        joined = re.match(r"\s*\.\s*joinpath\s*\(", code[at:])
        if joined is not None:
            parts, at = _arguments(code, at + joined.end())
            path = COMPUTED if parts is None or path == COMPUTED else _join(path, "/".join(parts))
            continue
        parent = re.match(r"\s*\.\s*parent\b(?!s)", code[at:])
        if parent is not None:
            last = path.rstrip("/").rsplit("/", 1)[-1]
            if path == ".":
                path = ".."  # Path.cwd().parent
            elif path == COMPUTED or last in ("", ".", "..", "~"):
                path = COMPUTED  # (pathlib's parent of ".." is ".": lexical, unlike cwd's)
            else:
                path = path.rstrip("/").rpartition("/")[0] or "."
            at += parent.end()
            continue
        same = re.match(r"\s*\.\s*(?:resolve|absolute|expanduser)\s*\(\s*\)", code[at:])
        if same is not None:
            at += same.end()
            continue
        if re.match(
            r"\s*(?:/|\.\s*(?:parents|with_name|with_suffix|with_stem|relative_to)\b)", code[at:]
        ):
            path = COMPUTED  # joined to what is not a literal, or moved by a computation
        return path, at


def path_items(code: str, reads: bool) -> list[tuple[str, Any]]:
    """("read", path) for each pathlib chain in ``code`` (when it reads), ("write",
    path) for one a write method is called on, ("unverifiable", why) for a write to a
    path made when it runs."""
    out: list[tuple[str, Any]] = []
    for head in _heads(code).finditer(code):
        path, end = _chain(code, head)
        writes = _WRITES.match(code, end) is not None
        if writes and path == COMPUTED:
            out.append(("unverifiable", "the python code writes to a path made when it runs"))
        elif writes:
            out.append(("write", path))
        elif reads and path not in (".", "~"):
            out.append(("read", path))
    for found in _NAME_WRITE.finditer(code):  # p.mkdir(), p.write_text(...) of a name
        why = f"the python code writes to `{found.group(1)}`, a path made when it runs"
        out.append(("unverifiable", why))
    for found in _NAME_JOIN.finditer(code):
        if found.group(1) in ("Path", "PurePath", "PosixPath"):
            continue
        rest = re.match(r"(?:\s*/\s*" + _LIT + r")*", code[found.end() :])
        end = found.end() + (rest.end() if rest is not None else 0)
        if _WRITES.match(code, end) is not None:
            why = f"the python code writes under `{found.group(1)}`, a path made when it runs"
            out.append(("unverifiable", why))
        elif reads:
            out.append(("read", COMPUTED))
    return out
