"""Codex's settings: hooks.json and config.toml of every layer, and its hook trust state."""
