"""The curl examples of docs/service.md and docs/approvals.md, run as written against a
real `hookwise serve`.

Every ```bash block of the documents that starts with `curl` is an example: it ends with
`# HTTP <status>`, and the ```json (or ```text) block right after it, when there is one,
is the documented answer. The examples run in the document's order through `bash -c`
with HOOKWISE_URL, HOOKWISE_TOKEN, HOOKWISE_HOOK, HOOKWISE_PROJECT, the named tokens
HOOKWISE_AGENT_TOKEN and HOOKWISE_APPROVER_TOKEN (made with `hookwise serve token add`)
and the ids earlier answers gave (PERMISSION_ID, WEBHOOK_ID, APPROVAL_ID); the status and
every field the document shows
must match, `"..."` in a documented value standing for any text. A route of the app
without an example fails the test.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from hookwise.api.app import create_app
from hookwise.api.settings import ServiceSettings, sqlite_url
from tests.api.conftest import TOKEN, LiveServer, start_server

DOCS_DIR = Path(__file__).resolve().parents[2] / "docs"
DOC = DOCS_DIR / "service.md"
DOCS = (DOC, DOCS_DIR / "approvals.md")
FENCE = re.compile(r"^```(\w*)[^\n]*\n(.*?)^```[ \t]*$", re.MULTILINE | re.DOTALL)
STATUS = re.compile(r"^# HTTP (\d{3})\s*$")
URL = re.compile(r"\$HOOKWISE_URL(/[^\"'?\s]*)")
METHOD = re.compile(r"(?:-X|--request)\s+([A-Z]+)")
HOOK_ANSWER = {
    "hookSpecificOutput": {
        "hookEventName": "PreToolUse",
        "permissionDecision": "deny",
        "permissionDecisionReason": "rm -rf is not allowed here",
    }
}


@dataclass
class Example:
    doc: str
    line: int
    command: str
    status: int
    method: str
    path: str
    answer_kind: str | None = None  # "json" or "text"
    answer: str | None = None

    def __str__(self) -> str:
        return f"docs/{self.doc}:{self.line} {self.method} {self.path}"


def parse_examples(text: str, doc: str = "service.md") -> list[Example]:
    examples: list[Example] = []
    blocks = list(FENCE.finditer(text))
    for index, block in enumerate(blocks):
        language, body = block.group(1), block.group(2)
        if language != "bash" or not body.lstrip().startswith("curl"):
            continue
        line = text.count("\n", 0, block.start()) + 1
        lines = body.rstrip("\n").splitlines()
        status = STATUS.match(lines[-1])
        assert status, f"docs/{doc}:{line}: a curl example must end with '# HTTP <status>'"
        url = URL.search(body)
        assert url, f"docs/{doc}:{line}: a curl example must call $HOOKWISE_URL/..."
        method = METHOD.search(body)
        example = Example(
            doc=doc,
            line=line,
            command="\n".join(lines[:-1]) + "\n",
            status=int(status.group(1)),
            method=method.group(1) if method else "GET",
            path=url.group(1),
        )
        following = blocks[index + 1] if index + 1 < len(blocks) else None
        if (
            following is not None
            and following.group(1) in ("json", "text")
            and not text[block.end() : following.start()].strip()
        ):
            example.answer_kind = following.group(1)
            example.answer = following.group(2)
        examples.append(example)
    return examples


def mismatches(documented: Any, actual: Any, where: str = "$") -> list[str]:
    """Where actual differs from the documented value: every documented key must be there
    with a matching value (keys not documented are free), lists match item by item, and a
    documented string with "..." matches any value whose text fits it."""
    if isinstance(documented, str) and "..." in documented:
        pattern = ".*".join(re.escape(part) for part in documented.split("..."))
        text = actual if isinstance(actual, str) else json.dumps(actual)
        return [] if re.fullmatch(pattern, text, re.DOTALL) else [f"{where}: {actual!r}"]
    if isinstance(documented, dict):
        if not isinstance(actual, dict):
            return [f"{where}: expected an object, got {actual!r}"]
        found: list[str] = []
        for key, value in documented.items():
            if key not in actual:
                found.append(f"{where}.{key}: missing")
            else:
                found.extend(mismatches(value, actual[key], f"{where}.{key}"))
        return found
    if isinstance(documented, list):
        if not isinstance(actual, list) or len(actual) != len(documented):
            return [f"{where}: expected {len(documented)} items, got {actual!r}"]
        return [
            problem
            for i, (doc_item, item) in enumerate(zip(documented, actual, strict=True))
            for problem in mismatches(doc_item, item, f"{where}[{i}]")
        ]
    if documented != actual or type(documented) is not type(actual):
        return [f"{where}: documented {documented!r}, got {actual!r}"]
    return []


def text_mismatches(documented: str, actual: str) -> list[str]:
    """Each documented line ("..." = anything) must be a line of the answer."""
    lines = actual.splitlines()
    problems = []
    for wanted in documented.strip().splitlines():
        pattern = ".*".join(re.escape(part) for part in wanted.split("..."))
        if not any(re.fullmatch(pattern, line) for line in lines):
            problems.append(f"no line like {wanted!r}")
    return problems


def template_regex(template: str) -> re.Pattern[str]:
    """/api/webhooks/{webhook_id} -> matches /api/webhooks/$WEBHOOK_ID (a variable segment)."""
    parts = re.split(r"\{[^}]+\}", template)
    return re.compile(r"\$[A-Z_]+".join(re.escape(part) for part in parts) + r"\Z")


def app_routes(data_dir: Path) -> set[tuple[str, str]]:
    """(method, path template) of every route the app documents in its OpenAPI schema
    (the console's page and assets are left out of it; every API route is in it)."""
    settings = ServiceSettings(
        data_dir=data_dir, database_url=sqlite_url(data_dir), api_token=TOKEN
    )
    paths = create_app(settings, run_background=False).openapi()["paths"]
    return {
        (method.upper(), template)
        for template, operations in paths.items()
        for method in operations
        if method in ("get", "put", "post", "patch", "delete")
    }


def uncovered(routes: set[tuple[str, str]], examples: list[Example]) -> list[str]:
    return sorted(
        f"{method} {template}"
        for method, template in routes
        if not any(
            example.method == method and template_regex(template).match(example.path)
            for example in examples
        )
    )


EXAMPLES = [
    example for doc in DOCS for example in parse_examples(doc.read_text(encoding="utf-8"), doc.name)
]


def test_every_route_of_the_app_has_an_example(tmp_path: Path) -> None:
    routes = app_routes(tmp_path)
    assert len(routes) >= 20, routes  # the app's routes were found, not an empty set
    assert uncovered(routes, EXAMPLES) == []
    # Each example names a route of the app (no example of a route that is gone).
    strays = [
        str(example)
        for example in EXAMPLES
        if not any(
            example.method == method and template_regex(template).match(example.path)
            for method, template in routes
        )
    ]
    assert strays == []


def test_the_checks_can_fail(tmp_path: Path) -> None:
    routes = app_routes(tmp_path)
    without_health = [e for e in EXAMPLES if e.path != "/internal/hook/health"]
    assert uncovered(routes, without_health) == ["GET /internal/hook/health"]
    assert mismatches({"a": {"b": [1, "x..."]}}, {"a": {"b": [1, "xyz"]}, "c": 2}) == []
    assert mismatches({"a": 1}, {"a": True})  # 1 is not true
    assert mismatches({"a": [1]}, {"a": [1, 2]})
    assert mismatches({"a": "perm_..."}, {"a": "exec_1"})
    assert mismatches({"a": "..."}, {}) == ["$.a: missing"]
    assert text_mismatches("event: ...", "retry: 1\nevent: changed\n") == []
    assert text_mismatches("event: changed", "event: gone\n")


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[LiveServer, Path, Path, Path]]:
    # The hook the document describes for $HOOKWISE_HOOK, printing what it says it prints.
    assert f"`{json.dumps(HOOK_ANSWER)}`" in DOC.read_text(encoding="utf-8")
    project = tmp_path / "project"
    project.mkdir()
    hook = tmp_path / "deny-rm.sh"
    hook.write_text(
        f"#!/bin/sh\ncat > /dev/null\necho '{json.dumps(HOOK_ANSWER)}'\n", encoding="utf-8"
    )
    hook.chmod(0o755)
    home = tmp_path / "home"  # no user policy, no ~/.curlrc but ours
    home.mkdir()
    data_dir = tmp_path / "server"
    running = start_server(
        data_dir,
        sqlite_url(tmp_path),
        extra_env={"HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config")},
        extra_args=(
            "--allow-command",
            str(hook),
            "--project-root",
            str(project),
            "--webhook-allow-private",
        ),
    )
    for name, role in (("docs-agent", "agent"), ("docs-approver", "approver")):
        made = subprocess.run(
            [
                sys.executable,
                "-m",
                "hookwise.cli.entry",
                "serve",
                "token",
                "add",
                name,
                "--role",
                role,
                "--data-dir",
                str(data_dir),
            ],
            env=running.env,
            capture_output=True,
            text=True,
            timeout=60,
            check=True,
        )
        running.env[f"HOOKWISE_{role.upper()}_TOKEN"] = made.stdout.strip()
    try:
        yield running, hook, project, home
    finally:
        running.stop()


def test_every_example_answers_as_documented(server: tuple[LiveServer, Path, Path, Path]) -> None:
    live, hook, project, home = server
    # curl reads its configuration from $CURL_HOME: every call also prints its status last.
    (home / ".curlrc").write_text('write-out = "\\n%{http_code}"\n', encoding="utf-8")
    env = {
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "HOME": str(home),
        "CURL_HOME": str(home),
        "HOOKWISE_URL": live.url,
        "HOOKWISE_TOKEN": live.token,
        "HOOKWISE_HOOK": str(hook),
        "HOOKWISE_PROJECT": str(project),
        "HOOKWISE_AGENT_TOKEN": live.env["HOOKWISE_AGENT_TOKEN"],
        "HOOKWISE_APPROVER_TOKEN": live.env["HOOKWISE_APPROVER_TOKEN"],
    }
    failures: list[str] = []
    for example in EXAMPLES:
        run = subprocess.run(
            ["bash", "-c", example.command],
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        body, _, status = run.stdout.rpartition("\n")
        if run.returncode != 0 or not status.isdigit():
            failures.append(f"{example}: curl failed ({run.returncode}): {run.stderr}")
            continue
        if int(status) != example.status:
            failures.append(f"{example}: status {status}, documented {example.status}: {body}")
            continue
        problems: list[str] = []
        if example.answer_kind == "json":
            try:
                answer = json.loads(body)
            except ValueError:
                failures.append(f"{example}: not JSON: {body!r}")
                continue
            problems = mismatches(json.loads(example.answer or "null"), answer)
            if isinstance(answer, dict):
                if isinstance(answer.get("permissionId"), str):
                    env["PERMISSION_ID"] = answer["permissionId"]
                if str(answer.get("id", "")).startswith("whk_"):
                    env["WEBHOOK_ID"] = answer["id"]
                if str(answer.get("id", "")).startswith("apr_") and example.method == "POST":
                    env["APPROVAL_ID"] = answer["id"]
        elif example.answer_kind == "text":
            problems = text_mismatches(example.answer or "", body)
        elif body.strip():
            problems = [f"documented without an answer, got {body!r}"]
        failures.extend(f"{example}: {problem}" for problem in problems)
    assert failures == []
