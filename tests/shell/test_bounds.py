"""Every bound of the shell reader fails closed: what lies past it is unverifiable (or does
not parse), never "nothing found" (rt23 #4: ``env`` x33 in front of a denied command left
``env`` as the program and no rule matched)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hookwise.shell.parser import MAX_COMMANDS, MAX_WRAPPERS, split_command

WRAPPERS = ["env", "nice", "nohup", "command", "timeout 9", "env -u X", "X=1", "if", "sudo -n"]


@pytest.mark.parametrize("wrapper", WRAPPERS)
def test_wrappers_past_the_bound_are_unverifiable(wrapper: str) -> None:
    under = split_command(f"{wrapper} " * (MAX_WRAPPERS - 1) + "git push --force origin main")
    assert [c.argv[:2] for c in under.commands] == [["git", "push"]]
    over = split_command(f"{wrapper} " * (MAX_WRAPPERS + 1) + "git push --force origin main")
    found = [c.argv[:2] for c in over.commands]
    assert found == [["git", "push"]] or over.unverifiable, found  # (X=1 x33: one round)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.sampled_from([w for w in WRAPPERS if w != "if"]),  # (`env if` runs a program `if`)
        min_size=1,
        max_size=3 * MAX_WRAPPERS,
    )
)
def test_any_mix_of_wrappers_names_the_command_or_says_it_cannot(mix: list[str]) -> None:
    script = split_command(" ".join(mix) + " rm -rf /")
    programs = [c.program for c in script.commands]
    assert "rm" in programs or script.unverifiable or not script.complete, programs


def test_a_printf_past_its_rounds_prints_an_unknown_script() -> None:
    from hookwise.shell.printf_format import MAX_ROUNDS, printf_output

    assert printf_output(["%s\\n", "a", "b"]) == "a\nb\n"
    assert printf_output(["%s\\n", *(["a"] * MAX_ROUNDS), "rm -rf /"]) is None
    script = split_command("printf '%s\\n' " + "true " * MAX_ROUNDS + "'rm -rf /' | bash")
    assert "rm" in [c.program for c in script.commands] or script.unverifiable


def test_a_sed_script_past_its_steps_is_unverifiable() -> None:
    from hookwise.shell.sed_script import MAX_STEPS, sed_commands

    assert sed_commands("p;e rm -rf /") == [("script", "rm -rf /")]
    found = sed_commands("p;" * MAX_STEPS + "e rm -rf /")
    assert ("unverifiable", f"the sed script has more than {MAX_STEPS} commands") in found


def test_parallel_inputs_past_the_bound_are_unverifiable() -> None:
    from hookwise.shell.code_readers import MAX_INPUTS

    line = "parallel ::: " + "true " * MAX_INPUTS + "'rm -rf /'"
    script = split_command(line)
    assert "rm" in [c.program for c in script.commands] or script.unverifiable


def test_a_one_liner_naming_many_paths_is_unverifiable() -> None:
    from hookwise.shell.code_commands import MAX_READS, _reads

    names = ", ".join(f"'/tmp/f{i}'" for i in range(MAX_READS)) + ", '/root/.ssh/id_rsa'"
    found = _reads(f"for f in [{names}]: open(f).read()")
    assert found[-1][0] == "unverifiable"


def test_a_one_liner_writing_many_files_then_run_is_unverifiable() -> None:
    from hookwise.shell.parser import MAX_NAMED

    names = " ".join(f"open('f{i}.sh','w');" for i in range(MAX_NAMED + 1))
    script = split_command(f'python3 -c "{names}"; bash f{MAX_NAMED}.sh')
    assert script.unverifiable


def test_a_substitution_past_the_command_limit_does_not_parse() -> None:
    line = "true;" * MAX_COMMANDS + "echo $(rm -rf /)"
    script = split_command(line)
    assert not script.complete or script.unverifiable
