"""A TCP <-> Unix-socket bridge: how a CLI in the loopback-only network namespace reaches a
``hookwise serve`` that runs outside it (runner.py, ``unshare -n``).

A network namespace has its own 127.0.0.1, but the file system (and so a Unix socket) is
shared: inside, :class:`TcpToUnix` listens on 127.0.0.1:PORT and forwards every connection
to a socket file; outside, :class:`UnixToTcp` listens on that file and forwards to the
service's 127.0.0.1:PORT. The hook sees an ordinary loopback URL on both sides; when the
service is stopped, the outer connect fails and the hook's connection is closed at once.
Standard library only (the child runs it before the CLI).
"""

from __future__ import annotations

import contextlib
import os
import socket
import threading
from typing import Any


def _pump(source: socket.socket, sink: socket.socket) -> None:
    try:
        while True:
            data = source.recv(65536)
            if not data:
                break
            sink.sendall(data)
    except OSError:
        pass
    finally:
        with contextlib.suppress(OSError):
            sink.shutdown(socket.SHUT_WR)


def _join(client: socket.socket, connect: Any) -> None:
    try:
        upstream = connect()
    except OSError:
        client.close()
        return
    back = threading.Thread(target=_pump, args=(upstream, client), daemon=True)
    back.start()
    _pump(client, upstream)
    back.join()
    client.close()
    upstream.close()


class _Bridge:
    def __init__(self, listener: socket.socket, connect: Any) -> None:
        self.listener = listener
        self.connect = connect
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=_join, args=(client, self.connect), daemon=True).start()

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.listener.shutdown(socket.SHUT_RDWR)
        self.listener.close()


class UnixToTcp(_Bridge):
    """Outside the namespace: socket file -> 127.0.0.1:port."""

    def __init__(self, path: str, port: int) -> None:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(path)
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        listener.bind(path)
        listener.listen(64)
        self.path = path

        def connect() -> socket.socket:
            upstream = socket.create_connection(("127.0.0.1", port), 5)
            upstream.settimeout(None)  # a long-poll stays silent for up to a minute
            return upstream

        super().__init__(listener, connect)


class TcpToUnix(_Bridge):
    """Inside the namespace: 127.0.0.1:port -> socket file."""

    def __init__(self, port: int, path: str) -> None:
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", port))
        listener.listen(64)

        def connect() -> socket.socket:
            upstream = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            upstream.connect(path)
            return upstream

        super().__init__(listener, connect)
