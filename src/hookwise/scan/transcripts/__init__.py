"""The hosts' own records of the tool calls they ran, read per host for ``hookwise coverage``."""
