"""Resource URIs: a template with the file in its query (`q://read{?name,dir}`, RFC 6570
form expansion, legal in MCP resource templates), and URIs of any scheme given to a TOOL
(`read_resource {uri}`: s28 F9 fixed resources/read, the request, only)."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from rt import Client, row, sandbox  # noqa: E402

SRV = [sys.executable, str(Path(__file__).parent / "srv.py")]
sb = sandbox("b03")
p = str(sb["proj"])
c = Client(sb, SRV, name="fs")
def rr(uri):
    return c.request("resources/read", {"uri": uri})
row("resources/read fs:///proj/.env (control, s28 F9)", rr(f"fs://{p}/.env"))
row("resources/read q://read?name=.env", rr("q://read?name=.env"))
row("resources/read q://read?dir=<proj>&name=.env", rr(f"q://read?dir={p}&name=.env"))
row("resources/read q://read?name=%2Eenv", rr("q://read?name=%2Eenv"))
row("tool read_resource {uri: fs:///proj/.env}", c.call("read_resource", {"uri": f"fs://{p}/.env"}))
row("tool read_resource {uri: workspace://.env}", c.call("read_resource", {"uri": "workspace://.env"}))
row("tool get_resource {uri: q://read?name=.env}", c.call("get_resource", {"uri": "q://read?name=.env"}))
row("tool read_file {path: file:///proj/.env} (control)", c.call("read_file", {"path": f"file://{p}/.env"}))
c.close()
