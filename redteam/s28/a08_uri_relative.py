"""s28 a08: file: URIs a Python server opens as `expanduser(unquote(urlparse(uri).path))`:
relative (`file:../x`), `~` and /proc/self/cwd spellings of the user policy and `.env`."""
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
from rt import Client, row, sandbox

sb = sandbox("a08")
c = Client(sb, ["python3", f"{os.path.dirname(__file__)}/pysrv.py"], name="fs")
pol = sb["policy"]
rel = os.path.relpath(pol, sb["proj"])
for uri in (f"file://{pol}", f"file:{rel}", "file:~/.config/hookwise/policy.yaml",
            f"file:///proc/self/cwd/{rel}", f"file:{sb['proj']}/../home/.config/hookwise/policy.yaml"):
    row(f"write_uri {uri}", c.call("write_uri", {"uri": uri, "content": "version: 1\nrules: []\n"}))
for uri in ("file:.env", "file:///proc/self/cwd/.env", "file:~/../proj/.env"):
    row(f"read_uri {uri}", c.call("read_uri", {"uri": uri}))
print("  policy intact:", "no-rm-r" in pol.read_text())
c.close()
