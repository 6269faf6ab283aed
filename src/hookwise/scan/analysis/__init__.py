"""Analysing what one runnable runs: its command and scripts, read into facts per language."""
