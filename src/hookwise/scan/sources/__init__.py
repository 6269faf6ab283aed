"""Where runnables come from: every host's hooks, MCP servers, settings commands; hookwise's own."""
