#!/usr/bin/env python3
"""A 127.0.0.1:8143 HTTP listener that appends each request (headers and body) to
/tmp/rt33s/listener.log; answers 401 with a Basic challenge when no Authorization header
came (so clients with stored credentials send them), else 200."""

from __future__ import annotations

import http.server
import os

LOG = os.environ.get("RT_TOP", "/tmp/rt33s") + "/listener.log"  # s35: RT_TOP=/tmp/rt35s
PORT = int(os.environ.get("RT_PORT", "8143"))


class H(http.server.BaseHTTPRequestHandler):
    def _any(self) -> None:
        n = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(n) if n else b""
        with open(LOG, "ab") as f:
            f.write(f"{self.command} {self.path}\n{self.headers}".encode() + body + b"\n---\n")
        if "Authorization" not in self.headers and self.command == "GET":
            self.send_response(401)
            self.send_header("WWW-Authenticate", 'Basic realm="x"')
        else:
            self.send_response(200)
        self.send_header("Content-Length", "2")
        self.end_headers()
        self.wfile.write(b"ok")

    do_GET = do_POST = do_PUT = _any

    def log_message(self, *a: object) -> None:
        pass


http.server.ThreadingHTTPServer(("127.0.0.1", PORT), H).serve_forever()
