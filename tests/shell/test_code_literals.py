"""Files a one-liner names (code_commands.named_files): a name it only reads is not taken
as written (``json.load(open('package.json'))`` before ``npm test``); a name it may write
anywhere in the code is."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from hookwise.shell.code_commands import named_files

NAMES = st.sampled_from(["package.json", "./package.json", "x.sh", "Makefile.in", "a/b.py"])
READS = st.sampled_from([
    "json.load(open({q}{n}{q}))", "open({q}{n}{q}, {q}r{q}).read()", "require({q}{n}{q}).x",
    "fs.readFileSync({q}{n}{q}, {q}utf8{q})", "Path({q}{n}{q}).read_text()",
    "os.path.exists({q}{n}{q})", "open({q}{n}{q}, encoding={q}utf-8{q})",
])  # fmt: skip
WRITES = st.sampled_from([
    "open({q}{n}{q}, {q}w{q})", "open({q}{n}{q}, {q}a{q})", "open({q}{n}{q}, {q}r+{q})",
    "shutil.copy({q}/tmp/e{q}, {q}{n}{q})", "Path({q}{n}{q}).write_text(x)",
    "fs.writeFileSync({q}{n}{q}, d)", "p = {q}{n}{q}", "open({q}{n}{q}, mode)",
    "os.rename({q}e{q}, {q}{n}{q})",
])  # fmt: skip
QUOTES = st.sampled_from(["'", '"'])


@given(NAMES, st.lists(READS, min_size=1, max_size=3), QUOTES)
def test_a_name_only_read_is_not_written(name: str, reads: list[str], q: str) -> None:
    code = "; ".join(r.format(q=q, n=name) for r in reads)
    assert name not in named_files([code]), code


@given(NAMES, st.lists(READS, max_size=2), WRITES, st.integers(0, 2), QUOTES)
def test_a_name_written_anywhere_is_written(
    name: str, reads: list[str], write: str, at: int, q: str
) -> None:
    parts = [r.format(q=q, n=name) for r in reads]
    parts.insert(min(at, len(parts)), write.format(q=q, n=name))
    code = "; ".join(parts)
    assert name in named_files([code]), code


# ------------------------------------------------ calls on imported names (python_calls)

MODULES = st.sampled_from(["tempfile", "mypkg", "pydoc", "uuid", "os", "json", "sys", "yaml"])
ATTRS = st.lists(st.sampled_from(["TemporaryDirectory", "main", "_rmtree", "get", "x",
                                  "_private", "__version__", "dumps"]), min_size=1, max_size=3)  # fmt: skip
ARGS = st.sampled_from(["", "1", "'..'", "x", "'a', b"])


@given(MODULES, ATTRS, ARGS, st.sampled_from(["import {m}", "import {m} as q",
                                               "from {m} import {a0} as q"]))  # fmt: skip
def test_a_call_on_an_imported_name_is_accounted_for_or_named(
    module: str, attrs: list[str], args: str, form: str
) -> None:
    """A private name, or a call with arguments the reader does not know to be harmless,
    is named; a known harmless call, or one without arguments, is not."""
    from hookwise.shell.code_residue import _harmless, python_calls

    head = form.format(m=module, a0=attrs[0])
    path = [module, *attrs]
    if " as q" in head:  # q is the module (import ... as q) or its first attribute (from)
        called = ".".join(["q", *(attrs if head.startswith("import") else attrs[1:])])
    else:
        called = ".".join(path)
    why = python_calls(f"{head}; {called}({args})")
    private = any(a.startswith("_") and not a.endswith("__") for a in path)
    if private:
        assert why is not None and "private" in why
    elif args and not _harmless(".".join(path)):
        assert why is not None
    else:
        assert why is None, why


@given(st.text(alphabet=st.sampled_from(list("import os.as()=;_ rmtree,'\"\n[]x")), max_size=40))
def test_python_calls_takes_any_text(code: str) -> None:
    from hookwise.shell.code_residue import python_calls

    why = python_calls(code)
    assert why is None or isinstance(why, str)
