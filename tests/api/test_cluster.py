"""Several `hookwise serve` processes (own data directories, one database) act as one
service: rate limits, permissions and configuration are shared, and survive a restart."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from tests.api.conftest import LiveServer

CONFIG = "/api/hook/output-config"
CREATE = "/internal/hook/create-permission-request"
PENDING = "/internal/hook/pending-permissions"
RESOLVE = "/internal/hook/resolve-permission/{}"
VALIDATE = "/internal/hook/validate-json"
BROKEN = '{"continue": "nope"}'


def test_two_servers_on_one_database(
    live_server: Callable[..., LiveServer], tmp_path: Path
) -> None:
    a = live_server(data_dir=tmp_path / "a")
    b = live_server(data_dir=tmp_path / "b")
    with a.client() as one, b.client() as two:
        # one rate-limit budget for the session, whichever server answers
        session = {"X-Session-Id": "shared-budget"}
        codes = [
            (one if i % 2 else two).get(CONFIG, headers=session).status_code for i in range(12)
        ]
        assert codes.count(200) == 10
        assert codes[10:] == [429, 429]

        # a permission asked on one server is pending and resolvable on the other, once
        created = one.post(
            CREATE, json={"toolName": "Bash", "reason": "r", "originalInput": {}}
        ).json()
        pid = created["permissionId"]
        assert pid in [p["id"] for p in two.get(PENDING).json()["permissions"]]
        assert two.post(RESOLVE.format(pid), json={"decision": "allow"}).status_code == 200
        assert one.post(RESOLVE.format(pid), json={"decision": "deny"}).status_code == 409

        # a configuration change on one server governs the other
        assert one.put(CONFIG, json={"validationLevel": "lenient"}).status_code == 200
        deadline = time.monotonic() + 3.0  # other machines hear of it through NOTIFY
        valid = False
        while not valid and time.monotonic() < deadline:
            valid = two.post(VALIDATE, json={"jsonString": BROKEN, "hookEvent": "Stop"}).json()[
                "valid"
            ]
        assert valid

        kept = one.post(
            CREATE, json={"toolName": "Edit", "reason": "kept", "originalInput": {}}
        ).json()
    # both stop; a fresh server on the same database still has them
    a.stop()
    b.stop()
    c = live_server(data_dir=tmp_path / "c")
    with c.client() as three:
        pending = [p["id"] for p in three.get(PENDING).json()["permissions"]]
        assert kept["permissionId"] in pending
        assert three.get(CONFIG).json()["validationLevel"] == "lenient"
