"""Hook handlers that are not a process: http, mcp_tool, prompt and agent (Claude Code).

Each runs one hook and returns a ``ProcessResult`` shaped as the host reads that handler:
what a command would have printed and its exit code, so the host's one reader interprets
every handler type (``host/execute.py`` dispatches on the handler's ``type``).
"""
