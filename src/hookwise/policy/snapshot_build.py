"""Building the launcher's snapshot (policy/snapshot.py): compiling the hot path's modules.

Separate from snapshot.py, which the launcher imports on every call: building runs only
after the hook has answered, when the snapshot is missing or stale, and needs ``ast`` and
``os``.
"""

import __future__

import ast
import contextlib
import marshal
import os
from types import CodeType

# the flag replaces the import of __future__ in the compiled code (the hot path never
# imports it)
_FUTURE_LINE = "from __future__ import annotations\n"


def _source(root: str, name: str) -> tuple[str, bool]:
    """(source file, is a package) of a hookwise module under ``root``."""
    base = os.path.join(root, *name.split("."))
    package = os.path.join(base, "__init__.py")
    if os.path.isfile(package):
        return package, True
    return base + ".py", False


def _drop_docstrings(tree: ast.Module) -> None:
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            first = body[0] if body else None
            if (
                isinstance(first, ast.Expr)
                and isinstance(first.value, ast.Constant)
                and isinstance(first.value.value, str)
            ):
                if len(body) > 1:
                    del body[0]
                else:
                    body[0] = ast.copy_location(ast.Pass(), first)


def _drop_annotations(tree: ast.Module) -> None:
    """Annotations of functions and variables: strings the type checker reads (PEP 563),
    nobody at run time; some thousands of objects to unmarshal on every hook call.
    (An annotation without a value declares nothing at run time either: ``pass``.)"""
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            node.returns = None
            arguments = node.args
            for arg in (
                *arguments.posonlyargs,
                *arguments.args,
                *arguments.kwonlyargs,
                *([arguments.vararg] if arguments.vararg else []),
                *([arguments.kwarg] if arguments.kwarg else []),
            ):
                arg.annotation = None
        for field in ("body", "orelse", "finalbody"):
            body = getattr(node, field, None)
            if not isinstance(body, list):
                continue
            for position, child in enumerate(body):
                if isinstance(child, ast.AnnAssign):
                    replaced: ast.stmt = (
                        ast.Pass()
                        if child.value is None
                        else ast.Assign(targets=[child.target], value=child.value)
                    )
                    body[position] = ast.copy_location(replaced, child)


def _svarint(value: int) -> bytes:
    """A signed varint of the location table (CPython's Objects/locations.md)."""
    value = (value << 1) if value >= 0 else ((-value) << 1) | 1
    out = bytearray()
    while value >= 64:
        out.append(0x40 | (value & 63))
        value >>= 6
    out.append(value)
    return bytes(out)


def _lines_only(code: CodeType) -> CodeType:
    """``code`` (and the code it holds) with a location table of lines only: the columns
    serve the carets under a traceback's line, and make a fifth of the snapshot's bytes.
    A traceback still names every file and line."""
    consts = tuple(_lines_only(k) if isinstance(k, CodeType) else k for k in code.co_consts)
    runs: list[tuple[int | None, int]] = []  # (line, code units), consecutive
    for line, *_columns in code.co_positions():
        if runs and runs[-1][0] == line:
            runs[-1] = (line, runs[-1][1] + 1)
        else:
            runs.append((line, 1))
    table = bytearray()
    previous = code.co_firstlineno
    for line, units in runs:
        delta = None if line is None else line - previous
        for start in range(0, units, 8):  # an entry covers at most 8 code units
            size = min(units - start, 8)
            if delta is None:
                table.append(0x80 | (15 << 3) | (size - 1))  # no location
            else:
                table.append(0x80 | (13 << 3) | (size - 1))  # a line, no columns
                table += _svarint(delta)
                delta = 0
        if line is not None:
            previous = line
    return code.replace(co_consts=consts, co_linetable=bytes(table))


def build(
    path: str,
    root: str,
    *,
    header: tuple[int | bytes | str | tuple[str, ...], ...],
    eager: tuple[str, ...],
    on_demand: tuple[str, ...],
    extension_names: tuple[str, ...],
) -> None:
    """Compile the modules ``eager`` + ``on_demand`` of the package under ``root`` into
    ``path`` (atomically, mode 0600), with ``header`` and the C extensions named.

    The eager modules' code is one marshalled tuple (loaded at once: a name they share is
    made and hashed once, not once per module); each on-demand module's is its own blob,
    after it. The index gives each blob's offset and length from the end of the head (an
    eager module's: the tuple's)."""
    index: list[tuple[str, str, bool, bool, tuple[int, int], int, int]] = []
    eager_code: list[CodeType] = []
    blobs: list[bytes] = []
    for name in eager + on_demand:
        source, package = _source(root, name)
        with open(source, "rb") as handle:
            stat = os.fstat(handle.fileno())
            text = handle.read().decode("utf-8")
        # the flag replaces the import of __future__; the blank line keeps line numbers
        tree = ast.parse(text.replace(_FUTURE_LINE, "\n", 1), source)
        _drop_docstrings(tree)  # read by nobody at run time; a tenth of the code's size
        _drop_annotations(tree)
        ast.fix_missing_locations(tree)
        code = compile(
            tree,
            source,
            "exec",
            flags=__future__.annotations.compiler_flag,
            dont_inherit=True,
        )
        code = _lines_only(code)  # (lines kept, columns dropped)
        stamp = (stat.st_mtime_ns, stat.st_size)
        if name in eager:
            eager_code.append(code)
            index.append((name, source, package, True, stamp, 0, 0))
        else:
            blobs.append(marshal.dumps(code))
            index.append((name, source, package, False, stamp, 0, len(blobs[-1])))
    blobs.insert(0, marshal.dumps(tuple(eager_code)))
    offset = len(blobs[0])
    for position, entry in enumerate(index):
        if entry[3]:
            index[position] = (*entry[:5], 0, offset)
        else:
            index[position] = (*entry[:5], offset, entry[6])
            offset += entry[6]
    extensions = []
    for name in extension_names:
        found = getattr(__import__(name), "__file__", None)  # None: built into Python
        if isinstance(found, str):
            info = os.stat(found)
            extensions.append((name, found, (info.st_mtime_ns, info.st_size)))
    head = marshal.dumps((header, index, extensions))
    data = len(head).to_bytes(8, "little") + head + b"".join(blobs)
    directory = os.path.dirname(path)
    os.makedirs(directory, mode=0o700, exist_ok=True)
    temp = f"{path}.{os.getpid()}.tmp"
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
