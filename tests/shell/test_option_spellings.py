"""The spellings of option values (getopt_long's prefixes, short clusters), the paths a word
embeds (@F, --opt=F, name=<F), ``$(realpath F)``, xxd's output operand and git's moved
work tree: examples from red team s25 and properties over generated words."""

from __future__ import annotations

import string

from hypothesis import given
from hypothesis import strategies as st

from hookwise.policy.canonical import embedded_paths
from hookwise.policy.trust.data_writes import git_worktree
from hookwise.policy.trust.protect import _xxd_output
from hookwise.shell.commands.option_words import option_values
from hookwise.shell.variables import resolved_name

NAMES = st.text(string.ascii_lowercase + "-", min_size=2, max_size=12).filter(
    lambda s: not s.startswith("-") and not s.endswith("-")
)
VALUES = st.text(string.ascii_letters + string.digits + "./_~", min_size=1, max_size=20)
WORDS = st.text(string.printable, max_size=40)


def test_the_red_team_spellings() -> None:
    assert option_values(["wget", "--post-f=.env"], (), ("--post-file",)) == [".env"]
    assert option_values(["curl", "-sT.env", "URL"], ("-T",), ()) == [".env"]
    assert option_values(["tar", "cf", "x", "-T.env"], ("-T",), ("--files-from",)) == [".env"]
    assert option_values(["sort", "--out", "F", "R"], ("-o",), ("--output",)) == ["F"]
    assert option_values(["dd", "if=.env"], (), ("if",)) == [".env"]
    assert option_values(["find", "-files0-from", ".env"], ("-files0-from",), ()) == [".env"]
    # an exact other option is not an abbreviation of a longer one
    known = ("--cookie", "--cookie-jar")
    assert option_values(["curl", "--cookie", "c.txt"], (), ("--cookie-jar",), known) == []
    # after --, words are operands
    assert option_values(["sort", "--", "--output=x"], (), ("--output",)) == []


@given(NAMES, VALUES, st.integers(min_value=1, max_value=12))
def test_a_long_option_is_any_prefix_of_its_name(name: str, value: str, cut: int) -> None:
    option = "--" + name
    prefix = option[: max(3, min(len(option), 2 + cut))]
    assert option_values(["p", f"{prefix}={value}"], (), (option,)) == [value]
    assert option_values(["p", prefix, value], (), (option,)) == [value]


@given(st.text("abcdefghijklmnpqrsuvwxyz", max_size=5), VALUES)
def test_a_short_option_ends_a_cluster_with_its_value(flags: str, value: str) -> None:
    assert value in option_values(["p", f"-{flags}o{value}"], ("-o",), ())
    assert option_values(["p", f"-{flags}o", value], ("-o",), ()) == [value]


@given(st.lists(WORDS, max_size=8), st.tuples(st.text("-abTo", max_size=3)))
def test_option_values_reads_any_words(argv: list[str], shorts: tuple[str]) -> None:
    for found in option_values(["p", *argv], tuple(s for s in shorts if s), ("--output",)):
        assert any(found in word for word in argv)


def test_embedded_paths() -> None:
    assert embedded_paths("@.env") == [".env"]
    assert embedded_paths("x=<.env") == [".env"]
    assert embedded_paths("--post-f=.env") == [".env"]
    assert ".env" in embedded_paths("-sT.env")
    assert ".hookwise/policy.yaml" in embedded_paths("-o.hookwise/policy.yaml")
    assert embedded_paths("--exclude=.env") == []
    assert embedded_paths("--env-file=.env") == []
    assert embedded_paths("ENV=.env") == []  # make's variable: no file read
    assert embedded_paths("-rf") == []
    assert embedded_paths("-I../include") == ["../include"]


@given(WORDS.filter(bool))
def test_embedded_paths_are_pieces_of_the_word(word: str) -> None:
    for path in embedded_paths(word):
        assert path and path in word and path != word


def test_resolved_names() -> None:
    assert resolved_name("$(realpath .env)") == ".env"
    assert resolved_name("$(readlink -f ~/.ssh/id_rsa)") == "~/.ssh/id_rsa"
    assert resolved_name("$(realpath $X)") is None
    assert resolved_name("$(pwd)") is None


@given(WORDS)
def test_resolved_name_reads_any_substitution(text: str) -> None:
    found = resolved_name(f"$(realpath {text})")
    assert found is None or found in text


def test_xxd_writes_its_second_operand() -> None:
    assert _xxd_output(["xxd", "-r", "-p", "-", "out"]) == ["out"]
    assert _xxd_output(["xxd", "-c", "16", "in.bin", "out.hex"]) == ["out.hex"]
    assert _xxd_output(["xxd", "in.bin"]) == []
    assert _xxd_output(["xxd", "in", "-"]) == []


@given(st.lists(WORDS, max_size=8))
def test_xxd_output_is_an_operand(argv: list[str]) -> None:
    for found in _xxd_output(["xxd", *argv]):
        assert found in argv


def test_git_work_tree_moved() -> None:
    named, into, _ = git_worktree(
        ["git", "--work-tree=.hookwise", "checkout", "HEAD", "--", "p"], {}
    )
    assert named == [".hookwise/HEAD", ".hookwise/p"] and into == [".hookwise"]
    named, into, _ = git_worktree(["git", "checkout", "HEAD", "--", "p"], {"GIT_WORK_TREE": "d"})
    assert "d/p" in named
    named, _, _ = git_worktree(["git", "checkout-index", "--prefix=.hookwise/", "p"], {})
    assert named == [".hookwise/p"]
    assert git_worktree(["git", "status"], {}) == ([], [], "")
    _, into, _ = git_worktree(["git", "-C", "~/.config/hookwise", "pull", "x", "main"], {})
    assert into == ["~/.config/hookwise"]


@given(st.lists(WORDS, max_size=8), st.dictionaries(st.just("GIT_WORK_TREE"), WORDS))
def test_git_worktree_reads_any_words(argv: list[str], env: dict[str, str]) -> None:
    named, into, _ = git_worktree(["git", *argv], env)
    assert len(into) <= 1 and len(named) <= len(argv)
