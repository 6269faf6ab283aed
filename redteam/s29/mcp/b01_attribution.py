"""Arguments the canonical mapping may not attribute: each call against srv.py, whose tools
read every file any argument names (at any depth, globs expanded). Policy: deny `rm -r`,
`files: **/.env`. A row that prints SECRET=hunter2 read the denied file."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from rt import Client, row, sandbox  # noqa: E402

SRV = [sys.executable, str(Path(__file__).parent / "srv.py")]
sb = sandbox("b01")
p = sb["proj"]
(p / "sub").mkdir()
(p / "sub/notes.txt").write_text("hello\n")
c = Client(sb, SRV, name="fs")
env = str(p / ".env")
cases = [
    ("read_file {path: .env} (control)", "read_file", {"path": env}),
    ("view {path: .env} (unmapped name)", "view", {"path": env}),
    ("show {file: .env}", "show", {"file": env}),
    ("read_fіle (Cyrillic і) {path}", "read_f\u0456le", {"path": env}),
    ("read_many {files: [{path: .env}]}", "read_many", {"files": [{"path": env}]}),
    ("read_many {items: [{name: .env}]}", "read_many", {"items": [{"name": env}]}),
    ("read_many {requests: [{uri: .env}]}", "read_many", {"requests": [{"uri": env}]}),
    ("read_file {path: proj/.en?} (glob)", "read_file", {"path": str(p / ".en?")}),
    ("read_file {path: proj/.e*}", "read_file", {"path": str(p / ".e*")}),
    ("read_file {path: proj/[.]env}", "read_file", {"path": str(p / "[.]env")}),
    ("read_file {path: proj/**/.env}", "read_file", {"path": str(p / "**/.env")}),
    ("glob_read {pattern: proj/*}", "glob_read", {"pattern": str(p / "*")}),
    ("glob_read {pattern: **/.e*}", "glob_read", {"pattern": "**/.e*"}),
    ("read_note {id: <abs .env>}", "read_note", {"id": env}),
    ("read_note {note: .env} (relative)", "read_note", {"note": ".env"}),
    ("get_file {key: .env}", "get_file", {"key": ".env"}),
    ("grep {pattern: SECRET, path: proj}", "grep", {"pattern": "SECRET", "path": str(p)}),
    ("grep {pattern: ., path: proj}", "grep", {"pattern": ".", "path": str(p)}),
    ("open {target: .env}", "open", {"target": env}),
    ("download {url: file://.env}", "download", {"url": "file://" + env}),
    ("download {url: file:.env}", "download", {"url": "file:" + env}),
    ("read_file {path: /proc/self/cwd/.env}", "read_file", {"path": "/proc/self/cwd/.env"}),
]
for label, tool, args in cases:
    row(label, c.call(tool, args))
c.close()
