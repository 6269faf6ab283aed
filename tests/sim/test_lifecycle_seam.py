"""A host plugs into the simulator through `register_host`: the scenario, the turn hooks,
the rollout and the expectations come with it."""

from __future__ import annotations

from pathlib import Path

from hookwise.sim import common
from hookwise.sim.context import ReplyQueue, SimContext, SimOptions
from hookwise.sim.lifecycle import register_host
from hookwise.sim.scenario import Scenario, StepSpec
from hookwise.turns.session import Turn
from tests.sim.conftest import play


class EchoHost:
    """A host without hooks whose agent answers with the scripted text."""

    name = "echo"
    event_names = ("Echo",)
    profile_name = "echo"

    def __init__(self, scenario: Scenario, options: SimOptions, workspace: Path) -> None:
        self.scenario = scenario

    def check(self, scenario: Scenario) -> None:
        common.check_scenario(scenario, "Echo", self.event_names, ("manual",))

    def warnings(self) -> list[str]:
        return []

    async def start(self, ctx: SimContext) -> None:
        ctx.record(None, "hook_event", {"event": "Echo", "hooks": [], "effect": {}})

    async def compress(self, ctx: SimContext, trigger: str, turn: Turn | None) -> None:
        return None

    async def run_turn(
        self, ctx: SimContext, turn: Turn, step: StepSpec, queue: ReplyQueue
    ) -> str | None:
        async def body(state: common.TurnState) -> None:
            reply = common.next_reply(ctx, state, queue)
            state.last_text = "".join(reply.chunks) + f" <{turn.prompt()}>"

        return await common.play_turn(ctx, turn, body)

    async def end(self, ctx: SimContext) -> None:
        return None


def test_a_registered_host_plays_a_scenario(tmp_path: Path) -> None:
    register_host("echo", EchoHost)
    (tmp_path / ".agent").mkdir()
    (tmp_path / ".agent" / "hook.toml").write_text(
        '[turn_start]\ncommand = "sh"\nargs = ["-c", "echo hi >&2"]\n'
    )
    result = play(
        tmp_path,
        """\
        steps:
          - user: ping
            model: [{text: pong}]
        expect:
          - answer: "pong <ping\\n\\nHookInput (TurnStart): hi>"
          - fired: Echo
          - turns: 1
        """,
        host="echo",
    )
    assert result.host == "echo" and result.profile == "echo"
    assert result.passed, [r.message for r in result.expectations]
