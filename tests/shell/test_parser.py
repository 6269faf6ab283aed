from __future__ import annotations

import shlex

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hookwise.shell.parser import split_command


def argvs(text: str) -> list[list[str]]:
    return [c.argv for c in split_command(text).commands]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("git push -f origin main", [["git", "push", "-f", "origin", "main"]]),
        ("a && b || c; d | e & f", [["a"], ["b"], ["c"], ["d"], ["e"], ["f"]]),
        ("echo 'a && b' \"c;d\"", [["echo", "a && b", "c;d"]]),
        ("sudo -u root rm -rf /x", [["rm", "-rf", "/x"]]),
        ("FOO=1 env BAR=2 nice -n 5 timeout 10 git push", [["git", "push"]]),
        (
            "bash -c 'git push --force' ",
            [["bash", "-c", "git push --force"], ["git", "push", "--force"]],
        ),
        (
            "sh -lc \"eval 'rm -rf /'\"",
            [["sh", "-lc", "eval 'rm -rf /'"], ["eval", "rm -rf /"], ["rm", "-rf", "/"]],
        ),
        ("echo $(cat .env) `id`", [["echo", "$(cat .env)", "`id`"], ["cat", ".env"], ["id"]]),
        ("if true; then rm -rf ~; fi", [["true"], ["rm", "-rf", "~"]]),
        # the operands xargs reads from a file on disk are made when it runs (any words)
        ("xargs -n1 rm -f < list", [["rm", "-f", "${computed}"], ["cat", "list"]]),
        ("echo a b | xargs rm -f", [["echo", "a", "b"], ["rm", "-f", "a", "b"]]),
        ("cat <<EOF > out\nrm -rf /\nEOF\nls", [["cat"], ["ls"]]),
        ("a \\\n b", [["a", "b"]]),
        ("echo a#b # comment && rm", [["echo", "a#b"]]),
        ("diff <(ls a) <(ls b)", [["diff", "<(ls a)", "<(ls b)"], ["ls", "a"], ["ls", "b"]]),
        ("echo $'a\\tb'", [["echo", "a\tb"]]),
        ("(cd x && make) | tee log", [["cd", "x"], ["make"], ["tee", "log"]]),
        ("\\rm -rf x", [["rm", "-rf", "x"]]),
        ("for f in *.py; do rm $f; done", [[], ["rm", "$f"]][1:]),
    ],
)
def test_split(text: str, expected: list[list[str]]) -> None:
    assert argvs(text) == expected


def test_redirect_targets_and_fd_duplication() -> None:
    script = split_command("echo x > .env 2>&1; cat < in.txt >> out.log; echo y &> all")
    found = [c.redirects for c in script.commands if c.origin != "input redirection"]
    assert found == [[".env"], ["in.txt", "out.log"], ["all"]]
    # a file redirected in is read, whoever gets it: it stands as `cat` of it too
    assert ["cat", "in.txt"] in [c.argv for c in script.commands]


def test_dynamic_words_are_marked() -> None:
    (cmd,) = split_command('rm -rf "$HOME/x" plain').commands
    assert cmd.dynamic == [False, False, True, False]


def test_incomplete_input_is_reported_not_raised() -> None:
    script = split_command("echo 'unclosed && rm -rf /")
    assert not script.complete
    assert script.problems == ["unclosed single quote"]
    assert script.commands[0].argv == ["echo", "unclosed && rm -rf /"]


def test_program_is_the_basename() -> None:
    (cmd,) = split_command("/usr/bin/git status").commands
    assert cmd.program == "git"


def test_deep_nesting_is_bounded() -> None:
    text = "bash -c " + "'" * 0 + " ".join(["bash -c"] * 20) + " x"
    script = split_command(text)
    assert len(script.commands) >= 1


@given(st.text(max_size=200))
def test_any_text_splits_without_raising(text: str) -> None:
    script = split_command(text)
    assert isinstance(script.complete, bool)
    for cmd in script.commands:
        assert all(isinstance(w, str) for w in cmd.argv)
        assert len(cmd.dynamic) == len(cmd.argv)


_WORD = st.text(alphabet="abcdefghij-_./=+%0123456789", min_size=1, max_size=8).filter(
    lambda w: not w.startswith("#") and "=" not in w
)


@given(
    st.lists(st.lists(_WORD, min_size=1, max_size=5), min_size=1, max_size=4),
    st.sampled_from(["&&", "||", ";", "|"]),
)
def test_plain_words_round_trip(commands: list[list[str]], operator: str) -> None:
    # the program is never a keyword or a wrapper (those are skipped by design)
    commands = [["run-" + words[0], *words[1:]] for words in commands]
    text = f" {operator} ".join(shlex.join(words) for words in commands)
    # (an operand naming a guarded program, dd or ag, is also a command for deny and ask
    # rules, with what that command implies, `ag` searching `.`: tests/shell/
    # test_operand_commands.py; those carry an origin, the line's own commands none)
    found = split_command(text).commands
    assert [c.argv for c in found if not c.origin] == commands


# a NUL cannot be in a word bash runs (see test_a_nul_makes_the_parse_incomplete)
_NO_NUL = st.text(st.characters(blacklist_characters="\x00"), min_size=1, max_size=10)


@given(st.lists(_NO_NUL, min_size=1, max_size=5))
def test_quoted_words_survive_shlex_quoting(words: list[str]) -> None:
    """Any word shlex.quote protects comes back as itself (wrappers aside)."""
    words = ["printf", *words]
    assert argvs(shlex.join(words))[0] == words


@pytest.mark.parametrize(
    "text", ["git push --force\x00", "git push --for\x00ce", "ls\x00; rm -rf /"]
)
def test_a_nul_makes_the_parse_incomplete(text: str) -> None:
    """bash stops at a NUL (a C string) while a script file drops it: what runs is not the
    text read, so the parse is incomplete (a deny), and the words are read without it."""
    script = split_command(text)
    assert not script.complete
    assert "NUL" in " ".join(script.problems)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("cp ~/.ssh/id_rsa k; cat k", ["cat", "~/.ssh/id_rsa"]),
        ("mv ../v x; rm -rf x", ["rm", "-rf", "../v"]),
        ("ln -s ../v x; rm -rf x/", ["rm", "-rf", "../v/"]),
        ("cp -r ~/.aws d; cat d/credentials", ["cat", "~/.aws/credentials"]),
        ("cp -r ~/.aws d/; cat d/.aws/credentials", ["cat", "~/.aws/credentials"]),
        ("cp a b; cp b c; cat c", ["cat", "a"]),
        ("install -m 600 ~/.netrc n; cat n", ["cat", "~/.netrc"]),
        ("cp ~/.netrc n; python3 -c \"print(open('n').read())\"", ["cat", "~/.netrc"]),
        ("cp ~/.netrc n; cp n /dev/stdout", ["cp", "~/.netrc", "/dev/stdout"]),
        ("cp ~/.netrc n; dd if=n", ["dd", "if=~/.netrc"]),
        ("cp ~/.netrc /dev/fd/1", ["cat", "~/.netrc"]),
    ],
)
def test_a_copy_made_on_the_line_is_read_as_its_original(text: str, expected: list[str]) -> None:
    found = [c for c in split_command(text).commands if c.argv == expected]
    assert found and found[-1].origin.startswith(("reads ", "its code reads ", "copies ")), text


@pytest.mark.parametrize(
    "text",
    ["cp -r ../v d; rm -rf d", "ln -s ../v x; rm -f x", "cp ~/.netrc n; chmod 600 n",
     "cp ../v/f x; sed -i s/a/b/ x", "cp a b", "cp ../v/f x; dd if=/dev/zero of=x"],
)  # fmt: skip
def test_a_change_to_a_copy_is_not_a_change_to_its_original(text: str) -> None:
    assert not [c for c in split_command(text).commands if c.origin.startswith("reads ")], text


@pytest.mark.parametrize(
    ("text", "runs"),
    [
        ('case "$f" in\n  ../*|/etc/*) echo out; exit 2;;\nesac', [["echo", "out"], ["exit", "2"]]),
        ("case x in a) ls;; *.md | b) pwd;; esac; rm y", [["ls"], ["pwd"], ["rm", "y"]]),
        ("case $1 in (--help) usage;; -v|--verbose) v=1 ;; esac", [["usage"]]),
        (
            "case $(rm -rf z) in a) ;; $(touch w)) :;; esac",
            [[":"], ["rm", "-rf", "z"], ["touch", "w"]],
        ),
        ("case x in\na)\n  ls\n  ;;\nesac", [["ls"]]),
    ],
)
def test_case_patterns_are_matched_not_run(text: str, runs: list[list[str]]) -> None:
    assert [c.argv for c in split_command(text).commands] == runs


@given(
    st.lists(
        st.from_regex(r"[a-z./*?-]{1,8}", fullmatch=True).filter(lambda w: w != "esac"),
        min_size=1,
        max_size=4,
    )
)
def test_no_case_pattern_is_a_command(patterns: list[str]) -> None:
    text = f"case $x in {'|'.join(patterns)}) echo hit;; esac"
    assert [c.argv for c in split_command(text).commands] == [["echo", "hit"]]


@pytest.mark.parametrize(
    ("line", "computed"),
    [
        # through a nameref the line sets HISTFILE without spelling it: any file
        ("declare -n r=HISTFILE; r=x; set -o history; history -w", True),
        ("local -n r=HISTFILE; r=x; history -a", True),
        # no nameref: the inherited HISTFILE, or what the line set it to (judged there)
        ("export PROMPT_COMMAND='history -a'", False),
        ("history -a", False),
        ("history -w out.txt", False),
    ],
)
def test_history_without_a_file_writes_an_unknown_place_only_through_a_nameref(
    line: str, computed: bool
) -> None:
    found = split_command(line).commands
    assert any("$HISTFILE" in c.computed_writes for c in found) is computed
