"""The paths interpreter code reaches beyond its literals: path objects it builds (pathlib
chains) and the login files libraries read with no path in the code; and the calls of node
code the one-liner reader cannot account for (node_calls)."""
