"""Claude Code's settings: every scope and plugin merged, and its workspace and hook trust."""
