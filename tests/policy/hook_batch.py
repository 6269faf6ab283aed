"""Run ``hookwise hook``'s own ``main`` over many payloads in one process (a corpus driver).

stdin: a JSON list of [argv, payload]; stdout: a JSON list of {exit, stdout}. Each call goes
through the whole hook (policy cache, decode, decide, encode) exactly as one ``hookwise hook``
process does; batching only saves the interpreter start per command.
"""

from __future__ import annotations

import contextlib
import io
import json
import sys

from hookwise.policy import hook


def main() -> None:
    cases = json.load(sys.stdin)
    results = []
    for argv, payload in cases:
        sys.stdin = io.TextIOWrapper(io.BytesIO(json.dumps(payload).encode()))
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = hook.main(list(argv))
        results.append({"exit": code, "stdout": out.getvalue(), "stderr": err.getvalue()})
    sys.__stdout__.write(json.dumps(results))


if __name__ == "__main__":
    main()
