"""s28 a04: an `ask` decided on the file a path resolves to (a link in the project into
~/.ssh) shows the user only the path as written: the elicitation names a test fixture, the
accepted call writes ~/.ssh/authorized_keys."""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
from rt import Client, row, sandbox

POLICY = """version: 1
rules:
  - id: ask-ssh
    match: {tool: write, files: "~/.ssh/**"}
    action: ask
    reason: writes under ~/.ssh need approval
"""
sb = sandbox("a04", POLICY)
ssh = sb["home"] / ".ssh"; ssh.mkdir()
fx = sb["proj"] / "tests/fixtures"; fx.mkdir(parents=True)
os.symlink(ssh, fx / "ssh")
c = Client(sb, ["python3", f"{os.path.dirname(__file__)}/pysrv.py"], name="fs", elicitation=True)
for path in (str(ssh / "authorized_keys"), "tests/fixtures/ssh/authorized_keys"):
    c.n += 1
    rid = c.n
    c.send({"jsonrpc": "2.0", "id": rid, "method": "tools/call",
            "params": {"name": "write_file", "arguments": {"path": path, "content": "ssh-ed25519 AAAA attacker\n"}}})
    ask = c.wait(lambda m: m.get("method") == "elicitation/create")
    print(f"-- write_file {path}")
    if ask is None:
        print("  no elicitation"); continue
    print("  the user is shown:\n    " + ask["params"]["message"].replace("\n", "\n    "))
    schema = ask["params"]["requestedSchema"]["properties"]
    print("  checkbox:", json.dumps({k: v.get("description") for k, v in schema.items()}))
    named = path.startswith("/")  # the user declines what names ~/.ssh, allows a fixture
    answer = {"action": "decline"} if named else {"action": "accept", "content": {"allow": True}}
    c.send({"jsonrpc": "2.0", "id": ask["id"], "result": answer})
    row(f"after the user answers {answer['action']}", c.wait(lambda m, rid=rid: m.get("id") == rid))
print("  ~/.ssh/authorized_keys:", (ssh / "authorized_keys").read_text().strip() if (ssh / "authorized_keys").exists() else "(none)")
c.close()
