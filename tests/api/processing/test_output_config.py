"""OutputConfig defaults, PUT validation, the deep merge and behavior_for."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from hookwise.api.processing.output_config import (
    OutputConfig,
    OutputConfigUpdate,
    apply_update,
    behavior_for,
)
from hookwise.api.schemas import UpdateConfigResponse

CONTRACT_DEFAULT = {
    "exitCodeBehavior": {"0": "success", "2": "blocking_error", "others": "non_blocking_error"},
    "jsonPrecedence": True,
    "validationLevel": "strict",
    "timeoutMs": {"permissionRequest": 30000, "hookExecution": 10000},
    "uiConfig": {
        "keyboardNavigation": True,
        "autoExpandHookBlocks": False,
        "showHookExecutionTime": True,
    },
}


def update(body: dict[str, Any]) -> OutputConfigUpdate:
    return OutputConfigUpdate.model_validate(body)


def errors(body: dict[str, Any]) -> list[tuple[tuple[int | str, ...], str, str]]:
    with pytest.raises(ValidationError) as raised:
        update(body)
    return [(e["loc"], e["type"], e["msg"]) for e in raised.value.errors()]


def test_defaults_are_the_contracts_document() -> None:
    dumped = OutputConfig().model_dump(mode="json")
    assert {k: v for k, v in dumped.items() if k != "permissionFallback"} == CONTRACT_DEFAULT
    assert dumped["permissionFallback"] == "deny"
    assert OutputConfig.model_validate(CONTRACT_DEFAULT) == OutputConfig()


def test_defaults_are_not_shared_between_instances() -> None:
    first = OutputConfig()
    first.exitCodeBehavior["1"] = "success"
    assert "1" not in OutputConfig().exitCodeBehavior


def test_partial_updates_merge_key_by_key() -> None:
    config = apply_update(OutputConfig(), update({"timeoutMs": {"hookExecution": 5000}}))
    assert config.timeoutMs.hookExecution == 5000
    assert config.timeoutMs.permissionRequest == 30000
    config = apply_update(config, update({"exitCodeBehavior": {"1": "blocking_error"}}))
    assert config.exitCodeBehavior == {
        "0": "success",
        "2": "blocking_error",
        "others": "non_blocking_error",
        "1": "blocking_error",
    }
    config = apply_update(config, update({"uiConfig": {"autoExpandHookBlocks": True}}))
    assert config.uiConfig.autoExpandHookBlocks and config.uiConfig.keyboardNavigation
    config = apply_update(config, update({"validationLevel": "lenient", "jsonPrecedence": False}))
    assert (config.validationLevel, config.jsonPrecedence) == ("lenient", False)
    assert config.timeoutMs.hookExecution == 5000  # earlier updates kept
    assert (
        apply_update(config, update({"permissionFallback": "allow"})).permissionFallback == "allow"
    )


def test_an_empty_update_changes_nothing() -> None:
    config = OutputConfig()
    assert apply_update(config, update({})) is config
    assert apply_update(config, update({"timeoutMs": {}})) == config


def test_unknown_keys_are_named() -> None:
    found = errors({"foo": 1, "timeoutMs": {"idle": 5}, "uiConfig": {"darkMode": True}})
    assert sorted(found) == sorted(
        [
            (
                ("foo",),
                "extra_forbidden",
                "unknown field 'foo'; expected one of: exitCodeBehavior, jsonPrecedence, "
                "validationLevel, timeoutMs, uiConfig, permissionFallback",
            ),
            (
                ("timeoutMs", "idle"),
                "extra_forbidden",
                "unknown field 'idle'; expected one of: permissionRequest, hookExecution",
            ),
            (
                ("uiConfig", "darkMode"),
                "extra_forbidden",
                "unknown field 'darkMode'; expected one of: keyboardNavigation, "
                "autoExpandHookBlocks, showHookExecutionTime",
            ),
        ]
    )


@pytest.mark.parametrize("key", ["02", "+1", "1.5", "x", "", " 1", "4294967296"])
def test_exit_code_keys_must_be_plain_integers_or_others(key: str) -> None:
    [(loc, _, message)] = errors({"exitCodeBehavior": {key: "success"}})
    assert loc == ("exitCodeBehavior",) and repr(key) in message


@pytest.mark.parametrize("key", ["0", "-9", "255", "others", "4294967295"])
def test_valid_exit_code_keys(key: str) -> None:
    assert update({"exitCodeBehavior": {key: "success"}}).exitCodeBehavior == {key: "success"}


@pytest.mark.parametrize(
    "body",
    [
        {"exitCodeBehavior": {"1": "fatal"}},
        {"exitCodeBehavior": ["success"]},
        {"jsonPrecedence": "true"},
        {"jsonPrecedence": 1},
        {"validationLevel": "loose"},
        {"timeoutMs": {"permissionRequest": 0}},
        {"timeoutMs": {"hookExecution": -5}},
        {"timeoutMs": {"hookExecution": 2.5}},
        {"timeoutMs": {"hookExecution": "100"}},
        {"timeoutMs": {"hookExecution": True}},
        {"timeoutMs": {"permissionRequest": 24 * 3600 * 1000 + 1}},
        {"timeoutMs": {"hookExecution": 3600 * 1000 + 1}},
        {"uiConfig": {"keyboardNavigation": "yes"}},
        {"permissionFallback": "ask"},
        {"timeoutMs": 5},
    ],
)
def test_bad_values_are_refused(body: dict[str, Any]) -> None:
    assert errors(body)


def test_one_error_per_bad_field() -> None:
    found = errors(
        {"jsonPrecedence": "no", "validationLevel": 3, "timeoutMs": {"hookExecution": 0}}
    )
    assert [loc for loc, _, _ in found] == [
        ("jsonPrecedence",),
        ("validationLevel",),
        ("timeoutMs", "hookExecution"),
    ]


def test_behavior_for() -> None:
    config = OutputConfig()
    assert behavior_for(config, 0) == "success"
    assert behavior_for(config, 2) == "blocking_error"
    assert behavior_for(config, 1) == "non_blocking_error"
    assert behavior_for(config, -9) == "non_blocking_error"
    custom = apply_update(
        config, update({"exitCodeBehavior": {"-9": "blocking_error", "others": "success"}})
    )
    assert behavior_for(custom, -9) == "blocking_error"
    assert behavior_for(custom, 77) == "success"
    assert behavior_for(OutputConfig(exitCodeBehavior={"0": "success"}), 5) == "non_blocking_error"


def test_update_response_model() -> None:
    body = UpdateConfigResponse(updated=True, config=OutputConfig()).model_dump(mode="json")
    assert body["updated"] is True and body["config"]["timeoutMs"]["permissionRequest"] == 30000


behaviors = st.sampled_from(["success", "blocking_error", "non_blocking_error"])
exit_keys = st.integers(-300, 300).map(str) | st.just("others")
updates = st.fixed_dictionaries(
    {},
    optional={
        "exitCodeBehavior": st.dictionaries(exit_keys, behaviors, max_size=4),
        "jsonPrecedence": st.booleans(),
        "validationLevel": st.sampled_from(["strict", "lenient"]),
        "timeoutMs": st.fixed_dictionaries(
            {},
            optional={
                "permissionRequest": st.integers(1, 24 * 3600 * 1000),
                "hookExecution": st.integers(1, 3600 * 1000),
            },
        ),
        "uiConfig": st.fixed_dictionaries(
            {},
            optional={
                "keyboardNavigation": st.booleans(),
                "autoExpandHookBlocks": st.booleans(),
                "showHookExecutionTime": st.booleans(),
            },
        ),
        "permissionFallback": st.sampled_from(["deny", "allow"]),
    },
)


@given(st.lists(updates, max_size=4))
def test_updates_round_trip(bodies: list[dict[str, Any]]) -> None:
    config = OutputConfig()
    for body in bodies:
        config = apply_update(config, update(body))
        dumped = config.model_dump(mode="json")
        for key, value in body.items():  # what was sent is what is read back
            if isinstance(value, dict):
                assert value.items() <= dumped[key].items()
            else:
                assert dumped[key] == value
        assert OutputConfig.model_validate(dumped) == config  # stored document reloads
        assert apply_update(config, update(body)) == config  # idempotent
        assert apply_update(config, update(dumped)) == config  # a full PUT is a no-op
    assert config.exitCodeBehavior.get("others") is not None


def test_a_null_exit_code_entry_removes_it(client: TestClient) -> None:
    added = client.put("/api/hook/output-config", json={"exitCodeBehavior": {"7": "success"}})
    assert added.json()["config"]["exitCodeBehavior"]["7"] == "success"
    removed = client.put(
        "/api/hook/output-config", json={"exitCodeBehavior": {"7": None, "3": "blocking_error"}}
    )
    assert removed.status_code == 200
    table = removed.json()["config"]["exitCodeBehavior"]
    assert "7" not in table and table["3"] == "blocking_error"
    assert client.get("/api/hook/output-config").json()["exitCodeBehavior"] == table
    unchanged = client.put("/api/hook/output-config", json={"exitCodeBehavior": None})
    assert unchanged.json()["config"]["exitCodeBehavior"] == table  # a null field: no change
