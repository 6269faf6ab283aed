"""The readers issue 24's rt24 fixes added, on any input: the environment table's judges
(code_readers.env_loads), a ref update forced in another repository
(commands.git_refs.git_forced_elsewhere), what prints variables (commands.env_files.prints_values), and the
paths one-liners read (code_commands._reads). They never raise; a value the guard cannot
vouch for is never harmless."""

from __future__ import annotations

from types import SimpleNamespace

from hypothesis import given, settings
from hypothesis import strategies as st

from hookwise.shell import programs
from hookwise.shell.code_commands import _reads
from hookwise.shell.code_readers import env_loads
from hookwise.shell.commands.env_files import prints_values
from hookwise.shell.commands.git_refs import git_forced_elsewhere
from hookwise.shell.programs import COMPUTED

WORD = st.text(alphabet=st.sampled_from(list("ab.-=/:;$`'\" +(){}%~M5")), max_size=16)
NAMES = st.sampled_from(sorted(programs.ENV_LOADERS))
PROGRAMS = st.sampled_from(["git", "bash", "zsh", "perl", "python3", "ls", "java", "sh"])


def _command(program: str, argv: list[str], env: dict[str, str]) -> SimpleNamespace:
    return SimpleNamespace(program=program, argv=[program, *argv], env=env)


def _script(written: dict[str, str | None]) -> SimpleNamespace:
    return SimpleNamespace(written=written)


@settings(max_examples=300, deadline=None)
@given(NAMES, WORD, PROGRAMS, st.lists(WORD, max_size=3), st.booleans())
def test_every_loader_variable_is_judged_without_raising(
    name: str, value: str, program: str, argv: list[str], wrote: bool
) -> None:
    written: dict[str, str | None] = {"m/sitecustomize.py": None} if wrote else {}
    why = env_loads(_command(program, argv, {name: value}), _script(written))
    assert why is None or name in why or "written" in why
    if programs.ENV_LOADERS[name] == "always":
        assert why is not None  # any value loads code


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(["PERL5OPT", "RUBYOPT", "JAVA_TOOL_OPTIONS"]), WORD)
def test_an_option_value_with_code_characters_is_never_harmless(name: str, value: str) -> None:
    why = env_loads(_command("perl", [], {name: value}), _script({}))
    if any(c in value for c in ";$`(){}"):
        assert why is not None, value


@settings(max_examples=200, deadline=None)
@given(st.lists(WORD, max_size=8), st.dictionaries(st.sampled_from(["GIT_DIR", "X"]), WORD))
def test_forced_elsewhere_reads_any_argv(argv: list[str], env: dict[str, str]) -> None:
    found = git_forced_elsewhere(["git", *argv], env)
    if found is not None:
        assert (
            found == env.get("GIT_DIR")
            or found in argv
            or any(w.endswith("=" + found) for w in argv)
        )
    if "GIT_DIR" not in env and "-C" not in argv and not any("--git-dir" in w for w in argv):
        assert found is None


@given(st.sampled_from(["fetch +a:main", "fetch -f x a:main", "update-ref refs/heads/main x",
                        "branch -f main x", "branch -M main"]))  # fmt: skip
def test_a_forced_ref_update_in_another_repository_is_found(words: str) -> None:
    assert git_forced_elsewhere(["git", "-C", "../r.git", *words.split()], {}) == ("../r.git")
    assert git_forced_elsewhere(["git", *words.split()], {}) is None


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(["echo", "printf", "printenv", "env", "set", "export", "ls"]),
       st.lists(WORD, max_size=4), st.lists(st.booleans(), max_size=5))  # fmt: skip
def test_prints_values_reads_any_command(program: str, argv: list[str], flags: list[bool]) -> None:
    dynamic = [False, *flags][: len(argv) + 1]
    found = prints_values(program, [program, *argv], dynamic)
    if program == "ls":
        assert not found
    if program == "printenv":
        assert found


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("open()\"'.+env/ajoin[]x,")), max_size=40))
def test_reads_of_one_liners_never_raise(code: str) -> None:
    for kind, value in _reads(code):
        assert kind == "read" and isinstance(value, str)


@given(st.sampled_from(['open(".e"+"nv")', "open('.e' + 'nv')", 'Path(".env").read_text()',
                        'open(os.path.join(".", ".env"))']))  # fmt: skip
def test_a_name_joined_from_literals_is_read_as_that_name(code: str) -> None:
    names = [value for _kind, value in _reads(code)]
    assert ".env" in names or "./.env" in names, names


@given(st.sampled_from(['open("".join([".e", "nv"]))', 'open(chr(46) + "env")',
                        "open(base64.b64decode('LmVudg=='))", 'open(f"{a}.env")']))  # fmt: skip
def test_a_name_built_at_run_time_is_an_unknown_read(code: str) -> None:
    assert ("read", COMPUTED) in _reads(code), code
