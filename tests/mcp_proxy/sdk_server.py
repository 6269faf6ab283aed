"""A real Python MCP SDK server (``MCPServer``, the SDK's FastMCP) for the proxy's tests: its
stdin is read as the SDK reads it (universal newlines, JSON strings decoded for parameters not
typed ``str``, URI templates percent-decoded), and every tool or resource it runs is one line
in ``SDK_SERVER_LOG``: what reached it, whatever the client was told.
"""

from __future__ import annotations

import json
import os

from mcp.server.mcpserver import MCPServer

server = MCPServer("sdk-test")
LOG = os.environ.get("SDK_SERVER_LOG", os.devnull)


def _ran(tool: str, **args: object) -> None:
    with open(LOG, "a", encoding="utf-8") as log:
        log.write(json.dumps({"tool": tool, **args}) + "\n")


@server.tool()
def danger(x: str = "") -> str:
    _ran("danger", x=x)
    return "DANGER RAN " + x


@server.tool()
def read_multiple_files(paths: list[str]) -> str:
    _ran("read_multiple_files", paths=paths)
    return "read " + ",".join(paths)


@server.tool()
def run_command(command: list[str]) -> str:
    _ran("run_command", command=command)
    return "ran " + " ".join(command)


@server.tool()
def copy_file(src: str, dst: str) -> str:
    _ran("copy_file", src=src, dst=dst)
    return f"copied {src} -> {dst}"


@server.tool()
def save_file(output_path: str = "", out: str = "", content: str = "") -> str:
    _ran("save_file", output_path=output_path, out=out)
    return "saved"


@server.tool()
def delete_file(pathname: str = "", path: str = "", target: str = "") -> str:
    _ran("delete_file", pathname=pathname, path=path, target=target)
    return "deleted"


@server.resource("file://{name}")
def file_resource(name: str) -> str:
    _ran("resource", name=name)
    return "resource " + name


if __name__ == "__main__":
    server.run()
