"""Probe: one shell command that makes a link to a directory above a guard file and writes
through it (`ln -s $HOME/.config cfg; printf ... > cfg/hookwise/policy.yaml`), and variants
(mkdir+mv, cp -s, python). Run: python3 redteam/s35/mcp/a06_link_in_command.py"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from rt import Client, row, sandbox  # noqa: E402

HERE = Path(__file__).parent
sb = sandbox("a06")
home, proj = sb["home"], sb["proj"]
new = "printf 'version: 1\\nrules: []\\n'"
cmds = {
    "ln -s then >": f"ln -s {home}/.config {proj}/cfg; {new} > {proj}/cfg/hookwise/policy.yaml",
    "ln -s relative, cd": f"cd {proj} && ln -s ../home/.config cfg && {new} > cfg/hookwise/policy.yaml",
    "ln -s then tee": f"ln -s {home}/.config {proj}/c2 && {new} | tee {proj}/c2/hookwise/policy.yaml",
    "var holds the dir": f"d={proj}/c3; ln -s {home}/.config $d; {new} > $d/hookwise/policy.yaml",
}
cmds["baseline: > through an existing link"] = (
    f"ln -s {home}/.config {proj}/c4", f"{new} > {proj}/c4/hookwise/policy.yaml")
cmds["baseline: > the policy itself"] = f"{new} > {home}/.config/hookwise/policy.yaml"
for n, (label, cmd) in enumerate(cmds.items()):
    sb = sandbox(f"a06-{n}")  # each case on a fresh policy
    home2, proj2 = str(sb["home"]), str(sb["proj"])
    c = Client(sb, [sys.executable, str(HERE / "srv.py")])
    for one in ([cmd] if isinstance(cmd, str) else cmd):
        one = one.replace(str(home), home2).replace(str(proj), proj2)
        row(label, c.call("run_shell", {"command": one}))
    print("    user policy now:", repr(sb["policy"].read_text()[:40]))
    c.close()
