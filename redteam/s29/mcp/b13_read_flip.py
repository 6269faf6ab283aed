"""F1 for reads: `files: ~/.ssh/**` deny; a loop flips proj/h between proj/real and HOME; the
read of proj/h/.ssh/id_rsa is decided where h points at arrival and opened where it points
next. Serial calls, own server."""
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from rt import POLICY, Client, row, sandbox, text  # noqa: E402

SRV = [sys.executable, str(Path(__file__).parent / "srv.py")]
sb = sandbox("b13", POLICY + "  - id: no-ssh\n    match: {files: \"~/.ssh/**\"}\n    action: deny\n")
p, h = sb["proj"], sb["home"]
(h / ".ssh").mkdir()
(h / ".ssh/id_rsa").write_text("PRIVATE-KEY\n")
(p / "real/.ssh").mkdir(parents=True)
(p / "real/.ssh/id_rsa").write_text("decoy\n")
c = Client(sb, SRV, name="fs")
row("control: read_file ~/.ssh/id_rsa", c.call("read_file", {"path": str(h / ".ssh/id_rsa")}))
loop = subprocess.Popen(["sh", "-c", f"cd {p}; while :; do ln -sfn {h} h; ln -sfn real h; done"],
                        start_new_session=True)
for attempt in range(1, 201):
    r = c.call("read_file", {"path": f"{p}/h/.ssh/id_rsa"})
    if "PRIVATE-KEY" in text(r):
        print(f"  attempt {attempt}: read_file proj/h/.ssh/id_rsa -> {text(r)[:90]}")
        break
else:
    print("  no win in 200 attempts")
import os, signal  # noqa: E401
os.killpg(loop.pid, signal.SIGTERM)
c.close()
