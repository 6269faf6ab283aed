"""``hookwise test SCENARIOS.yaml``: payloads and the decisions a policy must give them.

A scenario file (for users' CI)::

    policy: policy.yaml          # optional, relative to this file; default: the scopes
    env: {CI: "true"}            # optional, for every scenario
    scenarios:
      - name: force push is denied on Claude Code
        platform: claude         # gemini | claude | codex; detected from payload if omitted
        event: PreToolUse        # the host's event name ...
        tool: Bash               # ... and the host's tool name
        input: {command: git push --force origin main}
        # or a whole host payload instead: payload: {...}
        expect:
          decision: deny         # deny | ask | allow | none
          rule: no-force-push
          reason_contains: force
          exit_code: 0
          output: {hookSpecificOutput: {permissionDecision: deny}}   # part of stdout's JSON
          host: deny             # what the host then does: deny | ask | proceed; or per
                                 # host: {claude: ask, codex: deny} (Codex cannot ask)

Every scenario goes through :func:`hookwise.policy.pipeline.decide`, the code the hook runs.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass, field
from typing import Any

import yaml

from hookwise.policy.adapters import platforms
from hookwise.policy.pipeline import Outcome, decide
from hookwise.policy.retry_state import RetryState
from hookwise.policy.rules.loader import did_you_mean
from hookwise.policy.tools.payloads import build_payload

TOP_KEYS = ("version", "policy", "env", "scenarios")
SCENARIO_KEYS = (
    "name",
    "platform",
    "payload",
    "event",
    "tool",
    "input",
    "prompt",
    "response",
    "cwd",
    "session",
    "env",
    "time",
    "expect",
)
EXPECT_KEYS = (
    "decision",
    "rule",
    "reason_contains",
    "exit_code",
    "output",
    "stdout_empty",
    "context_contains",
    "message_contains",
    "updated_input",
    "matched",
    "not_matched",
    "stop",
    "retry",
    "host",
)
# expect.host: what the host does with the call (host/reading.py reads the answer)
HOST_EFFECTS = ("deny", "ask", "proceed")
DECISIONS = ("deny", "ask", "allow", "none")


class ScenarioError(ValueError):
    """A scenario file that cannot be read."""


@dataclass
class Scenario:
    name: str
    platform: str | None
    payload: dict[str, Any]
    env: dict[str, str]
    now: float | None
    expect: dict[str, Any]


@dataclass
class ScenarioFile:
    path: str
    policy: str | None
    scenarios: list[Scenario] = field(default_factory=list)


@dataclass
class Result:
    scenario: Scenario
    outcome: Outcome
    failures: list[str]

    @property
    def passed(self) -> bool:
        return not self.failures


def _check_keys(where: str, mapping: Any, allowed: tuple[str, ...]) -> dict[str, Any]:
    if not isinstance(mapping, dict):
        raise ScenarioError(f"{where} must be a mapping")
    for key in mapping:
        if key not in allowed:
            raise ScenarioError(
                f"{where}: unknown key {key!r}{did_you_mean(str(key), allowed)}"
                f" (allowed: {', '.join(allowed)})"
            )
    return mapping


def _parse_time(where: str, value: Any) -> float:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    text = str(value)
    for fmt in ("%Y-%m-%dT%H:%M:%S", "%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M:%S", "%Y-%m-%d %H:%M"):
        try:
            return time.mktime(time.strptime(text, fmt))
        except ValueError:
            continue
    raise ScenarioError(f"{where}: time {text!r} is not YYYY-MM-DDTHH:MM[:SS] (local) or epoch")


def _strings(where: str, value: Any) -> dict[str, str]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise ScenarioError(f"{where} must map names to values")
    return {str(k): "" if v is None else str(v) for k, v in value.items()}


def load_scenarios(path: str) -> ScenarioFile:
    """Read and check a scenario file (ScenarioError on any problem)."""
    try:
        with open(path, encoding="utf-8") as handle:
            data = yaml.safe_load(handle)
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise ScenarioError(f"cannot read {path}: {reason[:1].lower()}{reason[1:]}") from None
    except UnicodeDecodeError:
        raise ScenarioError(f"cannot read {path}: not UTF-8 text") from None
    except yaml.YAMLError as exc:
        raise ScenarioError(f"{path}: invalid YAML: {exc}") from None
    top = _check_keys(path, data, TOP_KEYS)
    base = os.path.dirname(os.path.abspath(path))
    policy = top.get("policy")
    if policy is not None and not isinstance(policy, str):
        raise ScenarioError(f"{path}: policy must be a file name")
    result = ScenarioFile(path, os.path.join(base, policy) if policy else None)
    common_env = _strings(f"{path}: env", top.get("env"))
    items = top.get("scenarios")
    if not isinstance(items, list) or not items:
        raise ScenarioError(f"{path}: 'scenarios' must be a non-empty list")
    for index, item in enumerate(items, 1):
        where = f"{path}: scenario #{index}"
        _check_keys(where, item, SCENARIO_KEYS)
        name = str(item.get("name") or f"scenario #{index}")
        where = f"{path}: {name!r}"
        platform = item.get("platform")
        if platform is not None and platform not in platforms():
            raise ScenarioError(
                f"{where}: platform {platform!r}{did_you_mean(str(platform), platforms())}"
            )
        cwd = str(item.get("cwd") or base)
        if "payload" in item:
            payload = item["payload"]
            if not isinstance(payload, dict):
                raise ScenarioError(f"{where}: payload must be a mapping")
            for key in ("event", "tool", "input", "prompt", "response"):
                if key in item:
                    raise ScenarioError(f"{where}: give either 'payload' or '{key}', not both")
            payload = dict(payload)
            payload.setdefault("cwd", cwd)
        else:
            if platform is None or "event" not in item:
                raise ScenarioError(f"{where}: without a payload, give 'platform' and 'event'")
            tool_input = item.get("input")
            if tool_input is not None and not isinstance(tool_input, dict):
                raise ScenarioError(f"{where}: input must be a mapping of tool arguments")
            payload = build_payload(
                platform,
                str(item["event"]),
                tool=str(item["tool"]) if "tool" in item else None,
                tool_input=tool_input,
                prompt=str(item["prompt"]) if "prompt" in item else None,
                response=str(item["response"]) if "response" in item else None,
                cwd=cwd,
                session=str(item.get("session") or f"scenario-{index}"),
            )
        expect = _check_keys(f"{where}: expect", item.get("expect"), EXPECT_KEYS)
        if not expect:
            raise ScenarioError(f"{where}: 'expect' says nothing to check")
        if "decision" in expect and expect["decision"] not in DECISIONS:
            raise ScenarioError(f"{where}: expect.decision must be one of {', '.join(DECISIONS)}")
        if "host" in expect:
            _check_host_effect(f"{where}: expect.host", expect["host"], platform)
        env = {**common_env, **_strings(f"{where}: env", item.get("env"))}
        now = _parse_time(where, item["time"]) if "time" in item else None
        result.scenarios.append(Scenario(name, platform, payload, env, now, expect))
    return result


def _check_host_effect(where: str, value: Any, platform: str | None) -> None:
    """``deny``, or ``{claude: ask, codex: deny}`` naming the scenario's host."""
    words = ", ".join(HOST_EFFECTS)
    if isinstance(value, str):
        if value not in HOST_EFFECTS:
            hint = " (a host lets a call go ahead or not: `proceed`)" * (value in DECISIONS)
            raise ScenarioError(f"{where}: {value!r} is not one of {words}{hint}")
        return
    if not isinstance(value, dict) or not value:
        raise ScenarioError(f"{where}: expected one of {words}, or a mapping host -> one of them")
    for host, effect in value.items():
        if host not in platforms():
            raise ScenarioError(
                f"{where}: unknown host {host!r}; expected one of: {', '.join(platforms())}"
            )
        _check_host_effect(f"{where}.{host}", effect, None)
    if platform is not None and platform not in value:
        raise ScenarioError(f"{where}: says nothing about this scenario's host, {platform}")


def _host_effect_failures(scenario: Scenario, outcome: Outcome) -> list[str]:
    """What the host does with the hook's answer, against expect.host."""
    from hookwise.host.reading import answer_outcome, effect_word

    wanted = scenario.expect["host"]
    host = outcome.host
    if host is None or outcome.host_event is None:
        return ["host: the payload was decided by no host's rules"]
    if isinstance(wanted, dict):
        if host not in wanted:
            return [f"host: expect.host says nothing about {host}"]
        wanted = wanted[host]
    answer = outcome.answer
    got = effect_word(
        answer_outcome(
            host,
            outcome.host_event,
            scenario.payload,
            (answer.stdout, answer.stderr, answer.exit_code),
        )
    )
    if got == wanted:
        return []
    decided = outcome.decision.decision if outcome.decision else "none"
    return [f"host: expected {host} to {wanted}, it would {got} (the policy said {decided})"]


def _subset(expected: Any, actual: Any, path: str) -> list[str]:
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return [f"{path or 'output'}: expected an object, got {json.dumps(actual)}"]
        out: list[str] = []
        for key, value in expected.items():
            if key not in actual:
                out.append(f"{path}.{key}: missing" if path else f"{key}: missing")
                continue
            out.extend(_subset(value, actual[key], f"{path}.{key}" if path else str(key)))
        return out
    if expected != actual:
        return [f"{path}: expected {json.dumps(expected)}, got {json.dumps(actual)}"]
    return []


def check(scenario: Scenario, outcome: Outcome) -> list[str]:
    """What differs from the scenario's expectations."""
    expect = scenario.expect
    decision = outcome.decision
    failures: list[str] = []
    verdict = (decision.decision if decision else None) or "none"
    if "decision" in expect and expect["decision"] != verdict:
        reason = f" ({decision.reason})" if decision and decision.reason else ""
        failures.append(f"decision: expected {expect['decision']}, got {verdict}{reason}")
    if "rule" in expect and (decision.rule if decision else None) != expect["rule"]:
        failures.append(
            f"rule: expected {expect['rule']!r}, got {decision.rule if decision else None!r}"
        )
    if "reason_contains" in expect:
        reason = decision.reason if decision else ""
        if str(expect["reason_contains"]).lower() not in reason.lower():
            failures.append(f"reason: {reason!r} does not contain {expect['reason_contains']!r}")
    answer = outcome.answer
    if "exit_code" in expect and expect["exit_code"] != answer.exit_code:
        failures.append(f"exit code: expected {expect['exit_code']}, got {answer.exit_code}")
    if "stdout_empty" in expect and bool(expect["stdout_empty"]) != (answer.stdout == ""):
        wanted = "nothing" if expect["stdout_empty"] else "an answer"
        failures.append(f"stdout: expected {wanted}, got {answer.stdout!r}")
    if "output" in expect:
        try:
            parsed = json.loads(answer.stdout) if answer.stdout else {}
        except ValueError:
            failures.append(f"output: stdout is not JSON: {answer.stdout!r}")
        else:
            failures.extend(f"output: {f}" for f in _subset(expect["output"], parsed, ""))
    for key, values, label in (
        ("context_contains", decision.contexts if decision else [], "context"),
        (
            "message_contains",
            [*decision.messages, *decision.warnings] if decision else [],
            "message",
        ),
    ):
        if key in expect and not any(str(expect[key]) in text for text in values):
            failures.append(f"{label}: none contains {expect[key]!r} (got {values!r})")
    if "updated_input" in expect:
        actual = decision.updated_input if decision else None
        failures.extend(f"updated_input: {f}" for f in _subset(expect["updated_input"], actual, ""))
    matched = {r["id"] for r in decision.records} if decision else set()
    for key, want in (("matched", True), ("not_matched", False)):
        for rule_id in expect.get(key) or []:
            if (rule_id in matched) != want:
                failures.append(f"rule {rule_id!r}: expected {'a match' if want else 'no match'}")
    for key in ("stop", "retry"):
        if key in expect:
            actual_value = getattr(decision, key) if decision else None
            if bool(expect[key]) != (actual_value is not None):
                failures.append(f"{key}: expected {bool(expect[key])}, got {actual_value!r}")
    if "host" in expect:
        failures.extend(_host_effect_failures(scenario, outcome))
    return failures


def run_scenarios(
    scenario_file: ScenarioFile, policy: dict[str, Any], run_validators: bool = True
) -> list[Result]:
    results = []
    for scenario in scenario_file.scenarios:
        env = {**os.environ, **scenario.env}
        now = scenario.now if scenario.now is not None else time.time()
        outcome = decide(
            scenario.payload,
            policy,
            scenario.platform,
            env,
            now=now,
            state=RetryState(),
            run_validators=run_validators,
        )
        results.append(Result(scenario, outcome, check(scenario, outcome)))
    return results
