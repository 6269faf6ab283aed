"""Hosts hookwise knows from their published references only: no CLI of theirs runs here
(Cursor, Windsurf and Kiro have none that runs offline; Crush's package downloads its binary
at install; Auggie cannot be pointed at a local model). Each table names its sources;
docs/hosts.md and ``hookwise doctor`` mark these hosts as built from the reference."""
