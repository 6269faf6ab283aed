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
