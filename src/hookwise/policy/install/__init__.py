"""Installing the hook: planning and writing host settings edits, registrations, the launcher,
Codex hook trust, and ``hookwise doctor``. Never on the hook's path."""
