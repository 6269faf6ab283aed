"""What the snapshot's compiler drops (policy/snapshot_build.py): docstrings and annotations,
which nobody reads at run time. Checked on generated modules: the stripped code computes the
same values as the original, and keeps no annotation or docstring."""

from __future__ import annotations
import __future__

import ast
import textwrap
import traceback
from pathlib import Path
from types import CodeType
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from hookwise.policy.snapshot_build import (
    _drop_annotations,
    _drop_docstrings,
    _lines_only,
    _source,
)

SAMPLE = '''
"""module docstring"""
LIMIT: int = 3
pending: list[str]
if LIMIT > 1:
    flag: bool = True
else:
    flag: bool = False


class Box:
    """A box."""

    __slots__ = ("items",)
    kind: str

    def __init__(self, items: list[int] | None = None) -> None:
        """Make it."""
        self.items: list[int] = items or []

    def total(self, *extra: int, scale: float = 1.0, **named: int) -> float:
        try:
            value: float = (sum(self.items) + sum(extra) + sum(named.values())) * scale
        finally:
            done: bool = True
        return value


def only_doc() -> None:
    """Nothing else."""


def pos(a: int, /, b: int, *, c: int = 2) -> tuple[int, int, int]:
    return a, b, c


RESULT = (LIMIT, flag, Box([1, 2]).total(3, scale=2.0, x=4), only_doc(), pos(1, 2))
'''


def _run(tree: ast.Module) -> dict[str, Any]:
    code = compile(
        tree, "<sample>", "exec", flags=__future__.annotations.compiler_flag, dont_inherit=True
    )
    namespace: dict[str, Any] = {"__name__": "sample"}
    exec(code, namespace)
    return namespace


def _stripped(text: str) -> ast.Module:
    tree = ast.parse(text)
    _drop_docstrings(tree)
    _drop_annotations(tree)
    ast.fix_missing_locations(tree)
    return tree


def test_the_stripped_module_computes_the_same_and_keeps_no_annotation() -> None:
    before = _run(ast.parse(SAMPLE))
    after = _run(_stripped(SAMPLE))
    assert after["RESULT"] == before["RESULT"] == (3, True, 20.0, None, (1, 2, 2))
    assert before["__annotations__"] and "__annotations__" not in after
    assert before["Box"].total.__annotations__ and not after["Box"].total.__annotations__
    assert not after["pos"].__annotations__ and after["pos"].__kwdefaults__ == {"c": 2}
    assert after["Box"].__doc__ is None and after["only_doc"].__doc__ is None
    assert "__annotations__" not in vars(after["Box"])
    left = [n for n in ast.walk(_stripped(SAMPLE)) if isinstance(n, ast.AnnAssign | ast.arg)]
    assert all(getattr(n, "annotation", None) is None for n in left)


NAMES = st.sampled_from(["a", "b", "c", "total"])
VALUES = st.integers(-5, 5)


@settings(max_examples=60, deadline=None)
@given(
    assignments=st.lists(st.tuples(NAMES, VALUES, st.booleans()), min_size=1, max_size=6),
    argument=VALUES,
)
def test_generated_annotated_code_runs_as_before(
    assignments: list[tuple[str, int, bool]], argument: int
) -> None:
    lines = []
    for name, value, annotated in assignments:
        lines.append(f"{name}: int = {value}" if annotated else f"{name} = {value}")
        lines.append(f"{name}_only: int")  # a declaration without a value
    body = "\n".join(lines)
    text = (
        f"{body}\n"
        "def f(x: int, y: 'int' = 1) -> int:\n"
        + textwrap.indent(body, "    ")
        + "\n    return x + y\n"
        f"OUT = (f({argument}), {', '.join(sorted({n for n, _, _ in assignments}))})\n"
    )
    assert _run(_stripped(text))["OUT"] == _run(ast.parse(text))["OUT"]


def _lines(code: CodeType) -> list[Any]:
    """Each code unit's line, through every code object ``code`` holds."""
    found: list[Any] = [p[0] for p in code.co_positions()]
    for const in code.co_consts:
        if isinstance(const, CodeType):
            found.append(_lines(const))
    return found


def test_the_hot_modules_keep_every_line_without_columns() -> None:
    """On the real hot-path modules: each instruction keeps its line; no column is left."""
    from hookwise.policy import snapshot

    for name in snapshot.EAGER + snapshot.ON_DEMAND:
        source, _ = _source(snapshot._root(), name)
        code = compile(Path(source).read_text(), source, "exec")
        stripped = _lines_only(code)
        assert _lines(stripped) == _lines(code), name
        assert all(p[2] is None for p in stripped.co_positions())
        assert len(stripped.co_linetable) < len(code.co_linetable)


@settings(max_examples=60, deadline=None)
@given(
    gaps=st.lists(st.integers(0, 300), min_size=1, max_size=12),
    width=st.integers(1, 40),
)
def test_generated_code_keeps_its_lines_and_tracebacks(gaps: list[int], width: int) -> None:
    """Blank stretches (large line deltas), long lines (runs over 8 code units), a raise
    deep inside: the line numbers survive, and a traceback prints them."""
    lines = ["def f(x):"]
    for gap in gaps:
        lines += [""] * gap
        lines.append("    x = " + " + ".join(["x"] * width))
    lines.append("    raise ValueError(x)")
    lines.append("f(1)")
    text = "\n".join(lines) + "\n"
    code = compile(text, "<gen>", "exec")
    stripped = _lines_only(code)
    assert _lines(stripped) == _lines(code)
    try:
        exec(stripped, {})
    except ValueError:
        printed = traceback.format_exc()
    assert f'File "<gen>", line {len(lines) - 1}, in f' in printed
    assert f'File "<gen>", line {len(lines)}, in <module>' in printed
