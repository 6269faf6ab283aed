"""A server written with the official Python MCP SDK (mcp 2.3.0, MCPServer, the FastMCP
successor), honest tools with typed parameters. The SDK's own `pre_parse_json` turns a
string argument holding a JSON list/object into that list/object when the parameter is not
typed `str` (func_metadata.py): what the proxy decides as one string, the tool gets as data.
Env RT_LOG: each call is appended to it."""

import json
import os
import subprocess

from pydantic import BaseModel

from mcp.server.mcpserver import MCPServer

app = MCPServer("rt35-sdk")


def log(text: str) -> None:
    if os.environ.get("RT_LOG"):
        with open(os.environ["RT_LOG"], "a") as f:
            f.write(text + "\n")


class FileSpec(BaseModel):
    path: str
    content: str


@app.tool()
def write_file(path: str | list[str], content: str) -> str:
    """Write content to one file or to each of several."""
    targets = [path] if isinstance(path, str) else path
    for p in targets:
        with open(os.path.expanduser(p), "w") as f:
            f.write(content)
    log(f"write_file {targets}")
    return f"wrote {targets}"


@app.tool()
def write_files(files: list[FileSpec]) -> str:
    """Write several files at once."""
    for spec in files:
        with open(os.path.expanduser(spec.path), "w") as f:
            f.write(spec.content)
    log(f"write_files {[s.path for s in files]}")
    return f"wrote {[s.path for s in files]}"


@app.tool()
def read_file(path: str | list[str]) -> str:
    """Read one file or several."""
    targets = [path] if isinstance(path, str) else path
    log(f"read_file {targets}")
    return " | ".join(open(os.path.expanduser(p)).read().strip() for p in targets)


@app.tool()
def run_command(command: str | list[str]) -> str:
    """Run a command line, or an argv list."""
    log(f"run_command {command!r}")
    if isinstance(command, str):
        r = subprocess.run(command, shell=True, capture_output=True, text=True)
    else:
        r = subprocess.run(command, capture_output=True, text=True)
    return f"exit {r.returncode}: {r.stdout.strip()[:200]}"


if __name__ == "__main__":
    app.run()
