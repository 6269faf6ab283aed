"""Session 23b's classes (tests/policy/corpus/escapes_s23b.yaml): subcommands that print or
send files (git show :.env, docker cp), xargs fed from a file on disk, and --env-file. Each
command first does its damage in real bash against a throwaway world, then the hook with
every pack must deny or ask; the near misses must get no decision."""

from __future__ import annotations

import base64
import json
import shutil
import socket
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.policy.corpus_support import CORPUS
from tests.policy.test_unverifiable import MARK, _missing, damage, packs, verdict, world

__all__ = ["packs"]  # the module fixture, shared

DATA = yaml.safe_load((CORPUS / "escapes_s23b.yaml").read_text())
BLOCK = [
    pytest.param(command, id=f"{klass}-{index:02d}")
    for klass, body in DATA["classes"].items()
    for index, command in enumerate(body["block"], start=1)
]
PASS = [
    pytest.param(command, id=f"{klass}-{index:02d}")
    for klass, body in DATA["classes"].items()
    for index, command in enumerate(body["pass"], start=1)
]


class DockerDaemon:
    """Enough of the Docker Engine API on 127.0.0.1 for `docker cp F c:/tmp/` to upload F:
    the ping, the stat of the destination (a directory, in X-Docker-Container-Path-Stat) and
    the archive PUT, whose chunked body it keeps."""

    def __init__(self) -> None:
        self.server = socket.create_server(("127.0.0.1", 0))
        self.port = self.server.getsockname()[1]
        self.received = bytearray()
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.server.accept()
            except OSError:
                return
            threading.Thread(target=self._answer, args=(conn,), daemon=True).start()

    def _answer(self, conn: socket.socket) -> None:
        with conn:
            conn.settimeout(5)
            try:
                while self._one(conn):
                    pass
            except OSError:
                pass

    def _one(self, conn: socket.socket) -> bool:
        data = bytearray()
        while b"\r\n\r\n" not in data:
            chunk = conn.recv(65536)
            if not chunk:
                return False
            data += chunk
        head, _, body = bytes(data).partition(b"\r\n\r\n")
        if b"transfer-encoding: chunked" in head.lower():
            while not body.endswith(b"0\r\n\r\n"):
                chunk = conn.recv(65536)
                if not chunk:
                    break
                body += chunk
        self.received += body
        extra = b""
        if head.startswith(b"HEAD ") and b"/archive?" in head:
            stat = {"name": "tmp", "size": 0, "mode": (1 << 31) | 0o755,
                    "mtime": "2026-01-01T00:00:00Z", "linkTarget": ""}  # fmt: skip
            extra = b"X-Docker-Container-Path-Stat: " + base64.b64encode(json.dumps(stat).encode())
            extra += b"\r\n"
        conn.sendall(b"HTTP/1.1 200 OK\r\n" + extra + b"Content-Length: 0\r\n\r\n")
        return True

    def close(self) -> None:
        self.server.close()


@pytest.fixture
def daemon() -> Iterator[DockerDaemon]:
    found = DockerDaemon()
    yield found
    found.close()


def in_bash(command: str, root: Path) -> list[str]:
    """test_unverifiable's world, plus the lists xargs reads from disk and a credentials
    file in the KEY = value form an environment-file parser loads."""
    place = world(root, "git" in command)
    project = place["project"]
    (project / "dirs").write_text("-rf\n../victim\n")
    (project / "names").write_text(".env\n")
    (Path(place["env"]["HOME"]) / ".aws" / "credentials").write_text(
        f"aws_secret_access_key = {MARK}\n"
    )
    try:
        done = subprocess.run(["bash", "-c", command], cwd=project, env=place["env"],
                              stdin=subprocess.DEVNULL, capture_output=True, timeout=60,
                              check=False)  # fmt: skip
        output = (done.stdout + done.stderr).decode(errors="replace")
    except subprocess.TimeoutExpired:
        output = ""
    return damage(place, output)


@pytest.mark.parametrize("command", BLOCK)
def test_bash_does_the_damage_and_the_hook_blocks_it(
    tmp_path: Path, packs: dict[str, Any], daemon: DockerDaemon, command: str
) -> None:
    words = command.split()
    missing = _missing(command) or next(
        (t for t in ("docker", "jq") if t in words and shutil.which(t) is None), None
    )
    if missing:
        pytest.skip(f"{missing} is not installed")
    command = command.replace("{port}", str(daemon.port))
    found = in_bash(command, tmp_path)
    if MARK.encode() in daemon.received:
        found.append("sent")
    assert found, f"bash did no damage: {command}"
    decision, reason = verdict(command, packs)
    assert decision in ("deny", "ask"), (command, decision, reason)


@pytest.mark.parametrize("command", PASS)
def test_near_misses_pass(packs: dict[str, Any], command: str) -> None:
    assert verdict(command, packs) == ("none", ""), command


def test_every_class_has_its_source_and_near_misses() -> None:
    for klass, body in DATA["classes"].items():
        assert body["source"] and body["block"] and body["pass"], klass
