"""Turn a kept real OpenCode or Kilo run into a fixture of tests/scan/fixtures/coverage/.

    HOOKWISE_E2E_PLUGIN_CLIS=... .venv/bin/python -m pytest tests/e2e/test_plugin_hosts_live.py \
        -n 2 --basetemp=/tmp/keep
    .venv/bin/python -m tests.scan.make_session_db_fixtures HOST /tmp/keep/popen-gw0/<case> NAME

What ``hookwise coverage`` reads is kept: the host's session database (copied with SQLite's
``VACUUM INTO``, so every table and row is as the CLI wrote it, without its write-ahead
log), the audit log, hookwise's plugin file and the policy. The run directory is written
``$RUN``: in the database only ``session.directory`` is rewritten, and the replay test puts
a temporary directory back.
"""

from __future__ import annotations

import shutil
import sqlite3
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent / "fixtures" / "coverage"
DATABASES = {"opencode": "opencode/opencode.db", "kilo": "kilo/kilo.db"}
PROJECT_DIRS = {"opencode": ".opencode", "kilo": ".kilo"}


def main(host: str, run: Path, name: str) -> None:
    target = HERE / name
    shutil.rmtree(target, ignore_errors=True)
    database = target / "home" / ".local" / "share" / DATABASES[host]
    database.parent.mkdir(parents=True)
    source = sqlite3.connect(
        f"{(run / 'home/.local/share' / DATABASES[host]).as_uri()}?mode=ro", uri=True
    )
    source.execute("VACUUM INTO ?", (str(database),))
    source.close()
    copy = sqlite3.connect(database)
    copy.execute("UPDATE session SET directory = replace(directory, ?, '$RUN')", (str(run),))
    copy.commit()
    copy.execute("VACUUM")
    copy.close()
    for relative in (
        "home/.local/state/hookwise/audit.jsonl",
        f"proj/{PROJECT_DIRS[host]}/plugins/hookwise.js",
        "proj/.hookwise/policy.yaml",
    ):
        path = run / relative
        if path.is_file():
            out = target / relative
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_text(path.read_text(encoding="utf-8").replace(str(run), "$RUN"))


if __name__ == "__main__":
    main(sys.argv[1], Path(sys.argv[2]).resolve(), sys.argv[3])
