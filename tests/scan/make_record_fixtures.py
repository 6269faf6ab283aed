"""Copy a kept live run of Factory Droid or Cline into a coverage fixture.

    python -m tests.scan.make_record_fixtures HOST RUN_DIR NAME

RUN_DIR is one case's directory of ``pytest tests/e2e/test_more_hosts_live.py -m e2e
--basetemp=DIR`` (it holds ``home`` and ``proj``). Copied into
``tests/scan/fixtures/coverage/NAME``: the host's session records (as ``hookwise coverage``
finds them, with the files beside them), hookwise's audit log, the policy and the hook
settings ``hookwise install`` wrote in the project. The run directory is written ``$RUN``
everywhere, in paths and in file names (Droid names a record's directory after the cwd);
lines that carry only prompts are left out: Droid's ``context-`` messages (the system
reminder listing tools) and Cline's ``system_prompt`` text. Everything else is as written.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

from hookwise.scan.transcripts.records import record_files

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "coverage"
PROJECT_HOOKS = {"droid": ".factory/hooks.json", "cline": ".clinerules/hooks/PreToolUse"}


def _clean(host: str, name: str, text: str) -> str:
    if host == "droid" and name.endswith(".jsonl"):
        kept = [
            line
            for line in text.splitlines()
            if not str(json.loads(line).get("id", "")).startswith("context-")
        ]
        return "\n".join(kept) + "\n"
    if host == "cline" and name.endswith(".messages.json"):
        data = json.loads(text)
        if "system_prompt" in data:
            data["system_prompt"] = "(left out of the fixture: the system prompt)"
        return json.dumps(data, indent=2) + "\n"
    return text


def main(argv: list[str]) -> int:
    host, run, name = argv[0], Path(argv[1]).resolve(), argv[2]
    target = FIXTURES / name
    if target.exists():
        shutil.rmtree(target)
    home = run / "home"
    files = [p for path in record_files(host, {"HOME": str(home)}) for p in path.parent.iterdir()]
    files += [
        home / ".local" / "state" / "hookwise" / "audit.jsonl",
        run / "proj" / ".hookwise" / "policy.yaml",
        run / "proj" / PROJECT_HOOKS[host],
    ]
    slug = str(run).replace("/", "-")
    for path in files:
        if path.name.endswith(".bak"):
            continue
        relative = str(path.relative_to(run)).replace(slug, "-RUN")
        text = _clean(host, path.name, path.read_text(encoding="utf-8"))
        out = target / relative
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(text.replace(str(run), "$RUN"), encoding="utf-8")
        print(out.relative_to(FIXTURES))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
