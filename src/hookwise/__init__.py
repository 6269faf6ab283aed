"""hookwise: hooks for AI coding agents, both sides of the wire."""

__version__ = "0.1.0"
