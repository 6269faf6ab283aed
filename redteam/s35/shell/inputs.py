#!/usr/bin/env python3
"""Put odd hook inputs to the real hook in the decision fixture (raw bytes, so invalid
UTF-8 and NULs reach it as a host could send them) and print answer and time: each must
come in time and fail closed (not allow) when the command holds a guarded action."""

from __future__ import annotations

import json
import os
import subprocess
import time

ROOT = os.environ.get("RT_ROOT", "/tmp/rt35s/d")
HW = f"{ROOT}/hw/bin/hookwise"


def payload(command: bytes) -> bytes:
    base = {
        "session_id": "rt35s",
        "transcript_path": f"{ROOT}/t.jsonl",
        "cwd": f"{ROOT}/proj",
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "permission_mode": "default",
        "tool_input": {"command": "@@C@@", "description": "x"},
    }
    return json.dumps(base).encode().replace(b"@@C@@", command)


CASES = {
    "NUL escaped before rm": b"echo a\\u0000; rm -rf ../victim",
    "NUL escaped inside cat of secret": b"cat ../home/.net\\u0000rc",
    "NUL escaped after secret": b"cat ../home/.netrc\\u0000",
    "invalid UTF-8 byte then rm": b"echo \xff; rm -rf ../victim",
    "invalid UTF-8 in secret path": b"cat ../home/.netrc \xc3\x28",
    "lone surrogate escape then cat": b"echo \\ud800; cat ../home/.netrc",
    "1 MB line then rm": b"echo " + b"a" * 1_000_000 + b"; rm -rf ../victim",
    "20000 pipes then cat secret": b"true" + b" | true" * 20000 + b"; cat ../home/.netrc",
    "10000 nested subshells": b"(" * 10000 + b"cat ../home/.netrc" + b")" * 10000,
    "5000 nested $( )": b"echo " + b"$(" * 5000 + b"true" + b")" * 5000 + b"; rm -rf ../victim",
    "5000 nested quotes": (
        b"echo " + b'\\"$(' * 2000 + b"true" + b')\\"' * 2000 + b"; rm -rf ../victim"
    ),
    "30000 && chain": b"true" + b" && true" * 30000 + b" && cat ../home/.netrc",
    "heredoc 1 MB": b"cat <<'E'\\n" + b"a" * 1_000_000 + b"\\nE\\ncat ../home/.netrc",
    "CR line ends": b"echo a\\rrm -rf ../victim",
    "form feed / vertical tab": b"echo a\\u000bcat ../home/.netrc\\u000c",
    "unicode line separator": b"echo a\\u2028cat ../home/.netrc",
}


def main() -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("XDG_", "HOOKWISE_"))}
    env.update(HOME=f"{ROOT}/home", CLAUDE_PROJECT_DIR=f"{ROOT}/proj")
    for name, cmd in CASES.items():
        t0 = time.monotonic()
        try:
            p = subprocess.run(
                [HW, "hook", "--host", "claude"],
                input=payload(cmd),
                capture_output=True,
                cwd=f"{ROOT}/proj",
                env=env,
                timeout=60,
                check=False,
            )
            out = p.stdout.decode(errors="replace").strip()
            hso = json.loads(out)["hookSpecificOutput"] if out else None
            ans = hso["permissionDecision"] if hso else f"allow(rc{p.returncode})"
        except subprocess.TimeoutExpired:
            ans = "TIMEOUT>60s"
        except (ValueError, KeyError) as e:
            ans = f"?{e}"
        print(f"{ans:12} {time.monotonic() - t0:5.1f}s  {name}", flush=True)


if __name__ == "__main__":
    main()
