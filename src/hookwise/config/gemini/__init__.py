"""Gemini CLI's settings: where each scope lives, reading, merging, trust and extensions."""
