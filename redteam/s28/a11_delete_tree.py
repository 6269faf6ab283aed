"""s28 a11: F1's cause with a delete tool: deleting ~/.config (the policy's grandparent)."""
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
from rt import Client, row, sandbox

sb = sandbox("a11")
c = Client(sb, ["python3", f"{os.path.dirname(__file__)}/pysrv.py"], name="fs")
row("delete_file <user policy> (control)", c.call("delete_file", {"path": str(sb["policy"])}))
row("delete_directory ~/.config/hookwise (control)", c.call("delete_directory", {"path": str(sb["conf"] / "hookwise")}))
row("delete_directory ~/.config", c.call("delete_directory", {"path": str(sb["conf"])}))
print("  policy exists:", sb["policy"].exists())
c.close()
