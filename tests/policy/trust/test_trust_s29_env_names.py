"""Red team s29 (shell) friction: `cp .env.example .env` was denied whenever the example
named any variable whose name holds one of the guard's (``NODE_ENV=`` holds ``ENV=``,
``CLASSPATH`` holds ``PATH``): the written text was searched for substrings. Now the names a
dotenv parser (or the written line) sets are looked at: a guard variable set is denied, a
guard name inside a longer word that is no plain name (printf's escapes) is unverifiable,
and everyday names pass."""

from __future__ import annotations

import pytest

from tests.policy.trust.test_trust_model import World, world

__all__ = ["world"]

EXAMPLE = "NODE_ENV=development\nRAILS_ENV=test\nCLASSPATH=lib\nJAVA_HOME=/usr\nSECRET_ENV=x\n"


@pytest.mark.parametrize(
    "command",
    [
        "cp .env.example .env",
        "cp -f .env.example .env",
        "echo NODE_ENV=dev >> .env",
        "echo 'CLASSPATH=x:y' >> .env",
        "printf 'JAVA_HOME=/usr\\n' > .env",
    ],
)
def test_everyday_names_written_into_a_dotenv_pass(world: World, command: str) -> None:
    (world.repo / ".env.example").write_text(EXAMPLE)
    assert world.shell(command)["decision"] is None, command


@pytest.mark.parametrize(
    "command",
    [
        "cp evil.example .env",
        "echo BASH_ENV=/tmp/x >> .env",
        'echo BASH_E""NV=/tmp/x >> .env',
        "echo 'export  PATH=/tmp/bin' >> .env",
        "echo 'PS4 : x' >> .env",
        "echo ENV=/tmp/x >> .env",
        "echo HOOKWISE_POLICY=/tmp/p.yaml >> .env",
    ],
)
def test_a_guard_variable_set_in_a_dotenv_is_denied(world: World, command: str) -> None:
    (world.repo / "evil.example").write_text("A=1\nBASH_ENV=/tmp/x\n")
    assert world.shell(command)["decision"] == "deny", command


@pytest.mark.parametrize(
    "command",
    [
        "printf 'A=1\\nBASH_ENV=/tmp/x' >> .env",
        "printf 'B\\101SH_ENV=/tmp/x' >> .env",
        "echo -e 'A=1\\x0aPATH=/tmp/bin' >> .env",
    ],
)
def test_a_guard_name_a_program_may_turn_into_a_key_is_unverifiable(
    world: World, command: str
) -> None:
    answer = world.shell(command)
    assert answer["decision"] == "ask", (command, answer)
    assert "cannot verify" in answer["reason"]
