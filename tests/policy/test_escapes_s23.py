"""Session 23's classes (tests/policy/corpus/escapes_s23.yaml): each command first does its
damage in real bash against a throwaway world (deletes ../victim, force-pushes, prints the
planted key, or sends it to a listener on 127.0.0.1), then the hook with every pack must
deny or ask; the near misses of each class must get no decision."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.policy.corpus_support import CORPUS
from tests.policy.test_unverifiable import MARK, _missing, in_bash, packs, verdict

__all__ = ["packs"]  # the module fixture, shared

DATA = yaml.safe_load((CORPUS / "escapes_s23.yaml").read_text())
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


class Listener:
    """A TCP listener on 127.0.0.1 that keeps what it is sent (an upload's damage) and
    answers every request with an empty HTTP 200."""

    def __init__(self) -> None:
        self.server = socket.create_server(("127.0.0.1", 0))
        self.port = self.server.getsockname()[1]
        self.received = bytearray()
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.server.accept()
            except OSError:
                return
            with conn:
                conn.settimeout(2)
                try:
                    while chunk := conn.recv(65536):
                        self.received += chunk
                        if b"\r\n\r\n" in self.received:
                            head, _, body = bytes(self.received).rpartition(b"\r\n\r\n")
                            length = _content_length(head)
                            if length is None or len(body) >= length:
                                break
                    conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n")
                except OSError:
                    pass

    def close(self) -> None:
        self.server.close()


def _content_length(head: bytes) -> int | None:
    for line in head.split(b"\r\n"):
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length" and value.strip().isdigit():
            return int(value)
    return None


@pytest.fixture
def listener() -> Iterator[Listener]:
    found = Listener()
    yield found
    found.close()


@pytest.mark.parametrize("command", BLOCK)
def test_bash_does_the_damage_and_the_hook_blocks_it(
    tmp_path: Path, packs: dict[str, Any], listener: Listener, command: str
) -> None:
    missing = _missing(command)
    if missing:
        pytest.skip(f"{missing} is not installed")
    command = command.replace("{port}", str(listener.port))
    damage = in_bash(command, tmp_path)
    if MARK.encode() in listener.received:
        damage.append("sent")
    assert damage, f"bash did no damage: {command}"
    decision, reason = verdict(command, packs)
    assert decision in ("deny", "ask"), (command, decision, reason)


@pytest.mark.parametrize("command", PASS)
def test_near_misses_pass(packs: dict[str, Any], command: str) -> None:
    command = command.replace("{port}", "8080")
    assert verdict(command, packs) == ("none", ""), command


def test_every_class_has_its_source_and_near_misses() -> None:
    for klass, body in DATA["classes"].items():
        assert body["source"] and body["block"] and body["pass"], klass
