"""The small readers behind red team s24's findings 3, 5 and 7: a ``data:`` URL's text, the
flags that make an interpreter read stdin as code too, the trees a command deletes without
``-r``, and the repository whose refs a written path is."""

from __future__ import annotations

import base64
from urllib.parse import quote

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hookwise.shell.code_readers import READERS, _data_url, _flag_given
from hookwise.shell.commands.tree_deletes import tree_deleted
from hookwise.shell.parser import split_command


@given(st.text(max_size=200))
def test_a_data_url_gives_back_its_text(text: str) -> None:
    encoded = base64.b64encode(text.encode()).decode()
    assert _data_url(f"data:text/javascript;base64,{encoded}") == text
    assert _data_url(f"data:text/javascript,{quote(text)}") == text


@given(st.text(max_size=60))
def test_a_data_url_never_raises(url: str) -> None:
    found = _data_url("data:" + url)
    assert found is None or isinstance(found, str)


@pytest.mark.parametrize(
    ("argv", "reader", "reads"),
    [
        (["python3", "-i", "-c", "1"], "python", True),
        (["python3", "-im", "this"], "python", True),
        (["python3", "-Bi", "-c", "1"], "python", True),
        (["python3", "-c", "1"], "python", False),
        (["python3", "-W", "i", "-c", "1"], "python", False),  # -W's value, not -i
        (["python3", "-Wi", "-c", "1"], "python", False),
        (["perl", "-de", "0"], "perl", True),
        (["perl", "-e", "1"], "perl", False),
        (["perl", "-Md", "-e", "1"], "perl", False),  # a module named d
        (["node", "--interactive"], "node", True),
        (["gdb", "-q", "-ex", "bt"], "gdb", True),
        (["gdb", "-batch", "-ex", "bt"], "gdb", False),
    ],
)
def test_the_flags_after_which_stdin_is_code_too(argv: list[str], reader: str, reads: bool) -> None:
    chosen = READERS[reader]
    assert _flag_given(argv, len(argv), chosen, chosen.stdin_too) is reads


_PATHS = st.lists(
    st.lists(st.sampled_from(["a", "b", "..", "c"]), min_size=1, max_size=3).map("/".join),
    min_size=1,
    max_size=5,
)


@given(_PATHS, st.sampled_from([["rm"], ["rm", "-d"], ["rmdir"], ["rm", "-f"]]))
def test_a_tree_is_an_operand_with_another_under_it(paths: list[str], head: list[str]) -> None:
    trees = tree_deleted(head[0], [*head, *paths])
    for tree in trees:
        assert tree in paths
        assert any(p.startswith(tree + "/") for p in paths)
    for path in paths:
        if any(p.startswith(path + "/") for p in paths):
            assert path in trees


def test_rm_r_is_not_read_again_and_rmdir_p_names_its_top() -> None:
    assert tree_deleted("rm", ["rm", "-rf", "a/b", "a"]) == []
    assert tree_deleted("rmdir", ["rmdir", "-p", "../v/sub/x"]) == ["../v"]
    assert tree_deleted("7z", ["7z", "a", "-sdel", "x.7z", "d", "e"]) == ["d", "e"]
    assert tree_deleted("7z", ["7z", "a", "x.7z", "d"]) == []


@pytest.mark.parametrize(
    ("line", "repo"),
    [
        ("git rev-parse HEAD > ../r.git/refs/heads/main", "../r.git"),
        ("echo x > ../r.git/packed-refs", "../r.git"),
        ("cd ../r.git && echo x > refs/heads/main", "../r.git"),
        ("cp -r .git/. ../r.git/", "../r.git"),
        ("git -C ../r.git reset --soft HEAD~1", "../r.git"),
        ("git remote add --mirror=push m ../r.git", "m"),
        ("git config remote.origin.push +refs/heads/*:refs/heads/*", "origin"),
    ],
)
def test_a_ref_moved_in_another_repository_is_a_force_push(line: str, repo: str) -> None:
    argvs = [c.argv for c in split_command(line).commands]
    assert ["git", "push", "--force", repo] in argvs, argvs


@pytest.mark.parametrize(
    "line",
    [
        "echo x > .git/refs/heads/main",
        "cp .git/refs/heads/main /tmp/main.ref",
        "git -C sub reset --hard HEAD~1",
        "git reset --soft HEAD~1",
        "git remote add --mirror=fetch backup ../r.git",
        "cd ../r.git && git log",
    ],
)
def test_the_working_repository_and_reads_are_no_force_push(line: str) -> None:
    argvs = [c.argv for c in split_command(line).commands]
    assert not any(a[:3] == ["git", "push", "--force"] for a in argvs), argvs


def _pairwise(operands: list[str]) -> list[str]:
    """The meaning, one pair at a time: an operand with another under it."""
    return [
        p for p in operands if any(q != p and q.startswith(p.rstrip("/") + "/") for q in operands)
    ]


@given(st.lists(st.text(alphabet="ab/.", max_size=6), max_size=8))
def test_a_tree_with_an_operand_under_it_is_found_by_prefixes(operands: list[str]) -> None:
    """red team s27 #1: the pairwise reading of `rm a{0..5999}` took 11 s (the host's
    timeout let the line run); the prefix reading answers the same."""
    operands = [o for o in operands if not o.startswith("-")]
    assert tree_deleted("rm", ["rm", *operands]) == _pairwise(operands)


def test_six_thousand_operands_are_read_in_linear_time() -> None:
    operands = [f"a{k}" for k in range(6000)] + ["a1/x"]
    assert tree_deleted("rm", ["rm", "-f", *operands]) == ["a1"]
