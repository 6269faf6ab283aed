"""uvicorn's httptools protocol with a bound on the request head (api/edge/limits.py).

httptools keeps a header's partial name or value in memory until it ends, however long;
this protocol counts the bytes of each head as they arrive (up to the blank line that
ends it) and, past ``MAX_HEAD_BYTES``, answers 431 and closes before parsing further.
"""

from __future__ import annotations

from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from hookwise.api.edge.limits import MAX_HEAD_BYTES, refusal_bytes


class LimitedHttptools(HttpToolsProtocol):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._head_bytes = 0
        self._in_head = True
        self._tail = b""  # the last bytes seen, for a blank line split across reads

    def data_received(self, data: bytes) -> None:
        if self._in_head:
            end = (self._tail + data).find(b"\r\n\r\n")
            counted = len(data) if end < 0 else max(0, end + 4 - len(self._tail))
            self._head_bytes += counted
            self._tail = data[-3:]
            if self._head_bytes > MAX_HEAD_BYTES:
                self._in_head = False
                if not self.transport.is_closing():
                    self.transport.write(
                        refusal_bytes(f"request head exceeds {MAX_HEAD_BYTES} bytes")
                    )
                    self.transport.close()
                return
            if end >= 0:
                self._in_head = False
        super().data_received(data)

    def on_message_complete(self) -> None:
        super().on_message_complete()
        self._head_bytes = 0  # the next request on this connection starts a new head
        self._in_head = True
        self._tail = b""
