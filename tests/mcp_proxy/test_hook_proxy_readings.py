"""The same MCP call through ``hookwise mcp wrap`` and through a host's ``hookwise hook``
gets the same decision (issue 28, session 31, item 2). The proxy decided a call as a server
may read it too (a path's blanks trimmed, a JSON text decoded as the Python MCP SDK decodes
a list or object parameter, an unmapped tool's bare file name under a path key); the hook
decided the call only as given, so ``read_file {"path": "notes.txt "}``, ``{"paths":
"[\\"notes.txt\\"]"}`` and ``deploy {"target": "authorized_keys"}`` ran past rules the proxy
held. Both now take their readings from one place (policy/arg_readings.py). Attacks through
real processes; then a differential over a generated set of calls, each decided by the
proxy's Decider and by the hook's pipeline on Claude Code's and Gemini CLI's payloads."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hookwise.mcp_proxy.decide import Decider
from hookwise.policy.cache import load_policy
from hookwise.policy.pipeline import decide
from hookwise.policy.tools.payloads import build_payload
from tests.mcp_proxy.conftest import Project
from tests.mcp_proxy.test_hook_mcp_names import FORMS, SERVER, _hook, _through_proxy
from tests.mcp_proxy.test_redteam_s29 import _blocked

RULES = """version: 1
rules:
  - {id: notes-unread, match: {tool: read, files: '**/notes.txt'}, action: deny}
  - {id: keys-kept, match: {files: '**/authorized_keys'}, action: deny}
  - {id: docs-kept, match: {tool: write, files: 'docs/**'}, action: deny}
  - {id: drafts-asked, match: {tool: write, files: '**/draft.md'}, action: ask}
"""


def _setup(project: Project) -> None:
    root = project.root
    (root / "notes.txt").write_text("private notes\n", "utf-8")
    (root / "docs").mkdir()
    (root / "docs" / "a.md").write_text("docs\n", "utf-8")
    (root / "ok.txt").write_text("fine\n", "utf-8")
    (root / "link.txt").symlink_to(root / "notes.txt")
    user = Path(project.env["XDG_CONFIG_HOME"]) / "hookwise" / "policy.yaml"
    user.parent.mkdir(parents=True, exist_ok=True)
    user.write_text(RULES, "utf-8")


# the attacks: each denied by the proxy, and run by the hook before this change
ATTACKS: list[tuple[str, dict[str, Any], str]] = [
    ("read_file", {"path": "notes.txt "}, "notes-unread"),  # a server trims the path
    ("read_file", {"path": " notes.txt"}, "notes-unread"),
    ("read_file", {"file": "notes.txt\t"}, "notes-unread"),
    ("read_multiple_files", {"paths": '["notes.txt"]'}, "notes-unread"),  # SDK-decoded
    ("read_multiple_files", {"paths": '[" notes.txt"]'}, "notes-unread"),
    ("deploy", {"target": "authorized_keys"}, "keys-kept"),  # an unmapped tool's bare name
    ("upload", {"to": "authorized_keys", "body": "ssh-ed25519 AAAA"}, "keys-kept"),
]


def test_the_hook_decides_a_call_as_the_server_may_read_it_as_the_proxy_does(
    project: Project, wrap: Any
) -> None:
    _setup(project)
    for form in [*FORMS, NO_CONTEXT]:
        for tool, args, rule in ATTACKS:
            got = _hook(project, form, tool, args)
            assert got == ("deny", f"blocked by policy rule '{rule}'"), (form, tool, args, got)
        assert _hook(project, form, "read_file", {"path": "ok.txt "}) == ("", ""), form
    answers = _through_proxy(project, wrap, [(t, a) for t, a, _ in ATTACKS])
    assert [_blocked(a) for a in answers] == [r for _, _, r in ATTACKS], answers
    assert "private notes" not in json.dumps(answers)


NO_CONTEXT = ("gemini", "BeforeTool", "mcp_{s}_{t}", False)  # (test_hook_gemini_no_context)


# -- the differential ------------------------------------------------------------------
TOOLS = {  # tool -> the keys it is given paths under
    "read_file": ["path", "file"],
    "write_file": ["path", "file_path"],
    "read_multiple_files": ["paths"],
    "list_directory": ["path"],
    "deploy": ["target", "to"],
    "upload": ["destination", "file"],
}
NAMES = ["notes.txt", "docs/a.md", "authorized_keys", "ok.txt", "link.txt", "draft.md", "docs"]
BLANKS = ["", " ", "\t", "\n", "\u00a0", "  "]


@st.composite
def _calls(draw: Any, root: str) -> tuple[str, dict[str, Any]]:
    tool = draw(st.sampled_from(sorted(TOOLS)))
    keys = draw(st.lists(st.sampled_from(TOOLS[tool]), min_size=1, max_size=2, unique=True))
    args: dict[str, Any] = {}
    for key in keys:
        name = draw(st.sampled_from(NAMES))
        if draw(st.booleans()):
            name = f"{root}/{name}"
        value: Any = draw(st.sampled_from(BLANKS)) + name + draw(st.sampled_from(BLANKS))
        shape = draw(st.sampled_from(["text", "list", "json"]))
        if shape == "list" or (key == "paths" and shape == "text"):
            value = [value]
        elif shape == "json":
            value = json.dumps([value] if key == "paths" or draw(st.booleans()) else value)
        args[key] = value
    if tool == "write_file":
        args["content"] = "x"
    return tool, args


def _hook_action(policy: dict[str, Any], env: dict[str, str], root: str, form: Any,
                 tool: str, args: dict[str, Any]) -> str:  # fmt: skip
    host, event, naming, context = form
    extra = {"mcp_context": {"server_name": SERVER, "tool_name": tool}} if context else None
    payload = build_payload(
        host, event, tool=naming.format(s=SERVER, t=tool), tool_input=args, cwd=root, extra=extra
    )
    outcome = decide(payload, policy, None, env, now=time.time())
    found = outcome.decision.decision if outcome.decision is not None else None
    return found or "allow"


def test_the_proxy_and_the_hook_decide_generated_calls_alike(project: Project) -> None:
    """Over generated calls (path spellings with blanks around them, absolute or relative,
    given as text, a list or JSON text, under mapped and unmapped tools, through a link):
    the proxy's decision (its Decider, on the arguments as it passes them on) is the hook's
    for Claude Code's payload and Gemini CLI's with and without ``mcp_context`` (the server's
    name, ``fake``, has no ``_``: Gemini's own reading of the name is the proxy's)."""
    _setup(project)
    root = str(project.root)
    env = project.env
    decider = Decider(SERVER, cwd=root, env=env)
    policy = load_policy(root, env, use_cache=False).policy
    forms = [FORMS[0], FORMS[2], NO_CONTEXT]
    seen: dict[str, int] = {}

    @settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
    @given(_calls(root))
    def check(call: tuple[str, dict[str, Any]]) -> None:
        tool, args = call
        proxy = decider.before(tool, decider.prepare(tool, args), "t", args).action
        seen[proxy] = seen.get(proxy, 0) + 1
        for form in forms:
            hook = _hook_action(policy, env, root, form, tool, args)
            assert hook == proxy, (form[0], tool, args, proxy, hook)

    check()
    assert {"allow", "deny"} <= set(seen), seen  # the set holds both kinds of call
