"""``hookwise policy export``: the part of the policy a host's own permission system can
express, and exactly what it cannot. Never on the hook's path."""
