"""Benchmark: what the session-launcher lookup adds to the registered portable command.

The portable command (config/hookwise_command.py) reads the session's pinned launcher
(``SESSION_LAUNCHER``: the first line of /proc/self/uid_map, then one file test per
sessions directory) before it runs the launcher. Measured inside one shell, so the shell's
own start (the same for both forms) does not drown it: N rounds of the lookup against N
rounds of an empty statement, interleaved trials, each shell; and the form written from s24
to s28 (``SESSION_LAUNCHER_S24``), which followed the file outside sessions too (red team s28
F4). Outside a session when run as is (the common case); inside one when run as
``hookwise run -- .venv/bin/python bench/portable_lookup.py`` (the session's launcher is
bound there, so the command reads /proc/self/mountinfo). Usage::

    .venv/bin/python bench/portable_lookup.py [--rounds 2000] [--trials 7] [--json]
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import time

from hookwise.config.hookwise_command import SESSION_LAUNCHER, SESSION_LAUNCHER_S24


def _per_round(shell: str, body: str, rounds: int) -> float:
    script = f"i=0; while [ $i -lt {rounds} ]; do h=x; {body}; i=$((i+1)); done"
    started = time.perf_counter()
    subprocess.run([shell, "-c", script], check=True)
    return (time.perf_counter() - started) / rounds * 1e6


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2000)
    parser.add_argument("--trials", type=int, default=7)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    out: dict[str, dict[str, float]] = {}
    for shell in ("dash", "bash"):
        if shutil.which(shell) is None:
            continue
        empty: list[float] = []
        lookup: list[float] = []
        before: list[float] = []
        for _ in range(args.trials):
            empty.append(_per_round(shell, ":", args.rounds))
            lookup.append(_per_round(shell, SESSION_LAUNCHER + ":", args.rounds))
            before.append(_per_round(shell, SESSION_LAUNCHER_S24 + ":", args.rounds))
        base, cost = min(empty), min(lookup)
        out[shell] = {
            "empty_us": base,
            "lookup_us": cost,
            "added_us": cost - base,
            "s24_added_us": min(before) - base,
        }
    if args.json:
        print(json.dumps(out, indent=2))
    else:
        for shell, figures in out.items():
            print(
                f"{shell}: empty statement {figures['empty_us']:.1f} us, lookup "
                f"{figures['lookup_us']:.1f} us: added {figures['added_us']:.1f} us a hook call "
                f"(the s24 form: {figures['s24_added_us']:.1f} us)"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
