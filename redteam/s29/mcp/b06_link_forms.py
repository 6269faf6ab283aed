"""Which links to a directory holding a guard (or a secret) the proxy lets the agent make."""
import sys
from pathlib import Path
sys.path.insert(0, str(Path(__file__).parent))
from rt import Client, row, sandbox  # noqa: E402
SRV = [sys.executable, str(Path(__file__).parent / "srv.py")]
sb = sandbox("b06")
p, h = sb["proj"], sb["home"]
(h / ".ssh").mkdir(); (h / ".ssh/id_rsa").write_text("PRIVATE\n")
c = Client(sb, SRV, name="fs")
for lab, tool, a in [
  ("ln -s ~/.config proj/c1", "run_shell", {"command": f"ln -s {h}/.config {p}/c1"}),
  ("ln -s ~ proj/c2", "run_shell", {"command": f"ln -s {h} {p}/c2"}),
  ("ln -s .. proj/c3 (relative)", "run_shell", {"command": f"cd {p} && ln -s .. c3"}),
  ("symlink tool {target: ~/.config, link_name: proj/c4}", "symlink", {"target": f"{h}/.config", "link_name": f"{p}/c4"}),
  ("ln -s ~/.confi? proj/c5 (glob)", "run_shell", {"command": f"ln -s {h}/.confi? {p}/c5"}),
]:
    row(lab, c.call(tool, a))
c.close()
print(sorted(x.name for x in p.iterdir()))
