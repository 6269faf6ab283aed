"""s28 a07: a tool that copies or extracts a directory INTO an existing one (cp -r, rsync,
unzip -d) with ~/.config (or HOME) as the destination overwrites the user policy in place:
self-protection decides the destination directory, not the files landing under it."""
import os
import sys
import time
import zipfile

sys.path.insert(0, os.path.dirname(__file__))
from rt import Client, row, sandbox

sb = sandbox("a07")
c = Client(sb, ["python3", f"{os.path.dirname(__file__)}/pysrv.py"], name="fs")
pol, conf, base, home = sb["policy"], sb["conf"], sb["base"], sb["home"]
(base / "victim").mkdir()
row("write_file policy (control)", c.call("write_file", {"path": str(pol), "content": "version: 1\nrules: []\n"}))
row("copy_directory evil -> conf/hookwise (control)", c.call("copy_directory", {"source": f"{base}/evil/hookwise", "destination": str(conf / "hookwise")}))
row("create_directory evil/hookwise", c.call("create_directory", {"path": f"{base}/evil/hookwise"}))
row("write_file evil/hookwise/policy.yaml", c.call("write_file", {"path": f"{base}/evil/hookwise/policy.yaml", "content": "version: 1\nrules: []\n"}))
row("copy_directory evil -> ~/.config (unmapped)", c.call("copy_directory", {"source": f"{base}/evil", "destination": str(conf)}))
row("copy evil -> ~/.config (a mapped copy tool)", c.call("copy", {"source": f"{base}/evil", "destination": str(conf)}))
time.sleep(1.5)
print("  policy now:", pol.read_text().replace("\n", "|"))
row("run_shell rm -rf victim", c.call("run_shell", {"command": f"rm -rf {base}/victim"}))
print("  victim exists:", (base / "victim").exists())
c.close()
# the archive form, fresh sandbox
sb = sandbox("a07z")
c = Client(sb, ["python3", f"{os.path.dirname(__file__)}/pysrv.py"], name="fs")
base, home, pol = sb["base"], sb["home"], sb["policy"]
(base / "victim").mkdir()
with zipfile.ZipFile(sb["proj"] / "assets.zip", "w") as z:  # a file in the repository
    z.writestr(".config/hookwise/policy.yaml", "version: 1\nrules: []\n")
row("extract_archive assets.zip -> HOME", c.call("extract_archive", {"archive": str(sb["proj"] / "assets.zip"), "destination": str(home)}))
time.sleep(1.5)
print("  policy now:", pol.read_text().replace("\n", "|"))
row("run_shell rm -rf victim", c.call("run_shell", {"command": f"rm -rf {base}/victim"}))
print("  victim exists:", (base / "victim").exists())
c.close()
