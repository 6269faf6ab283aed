"""F3: a call held for the user's answer (ask, MCP elicitation) is passed on when the user
says yes, as it was decided when it arrived: it is not decided again. Calls that came
meanwhile were decided and run (a held call is not "in flight" for the s29 F1 queue), so one
of them can change what the held call's path means; the yes then releases a call that is now
a hard deny (self-protection), which no answer may lift.

Policy: s29's plus `ask-yaml: {tool: write, files: "**/*.yaml"} -> ask`.
A: write_file <proj>/cfg/hookwise/policy.yaml (ask: the user is shown that project path);
B (meanwhile): run_shell `ln -s $HOME/.config <proj>/cfg` (allowed, run at once);
then the user accepts A. Mode `before`: B first, then A (baseline: A denied, never asked).
Run: python3 redteam/s35/mcp/a04_ask_then_flip.py [before|held]"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from rt import POLICY, Client, audit, row, sandbox  # noqa: E402

HERE = Path(__file__).parent
mode = sys.argv[1] if len(sys.argv) > 1 else "held"
policy = POLICY + """  - id: ask-yaml
    match: {tool: write, files: "**/*.yaml"}
    action: ask
"""
sb = sandbox(f"a04-{mode}", policy)
home, proj = sb["home"], sb["proj"]
c = Client(sb, [sys.executable, str(HERE / "srv.py")], elicitation=True)
a = {"path": f"{proj}/cfg/hookwise/policy.yaml", "content": "version: 1\nrules: []\n"}
b = {"command": f"ln -s {home}/.config {proj}/cfg"}
if mode == "before":
    row("B run_shell ln -s ~/.config cfg", c.call("run_shell", b))
    row(f"A write_file {a['path']}", c.call("write_file", a))
else:
    c.send({"jsonrpc": "2.0", "id": 20, "method": "tools/call",
            "params": {"name": "write_file", "arguments": a}})
    q = c.wait(lambda m: m.get("method") == "elicitation/create", 10)
    print("  elicitation shown to the user:\n    " +
          (q or {}).get("params", {}).get("message", "(none)").replace("\n", "\n    "))
    row("B run_shell ln -s ~/.config cfg (while A is held)", c.call("run_shell", b))
    print("  link made:", (proj / "cfg").is_symlink())
    c.send({"jsonrpc": "2.0", "id": q["id"], "result": {"action": "accept", "content": {"allow": True}}})
    row("A after the user's yes", c.wait(lambda m: m.get("id") == 20, 10))
c.close()
print("  user policy now:", repr(sb["policy"].read_text()[:50]))
for r in audit(sb):
    print("  audit:", r.get("tool"), r.get("decision"), str(r.get("reason", ""))[:90])
