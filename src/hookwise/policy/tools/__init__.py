"""The policy author's tools: explain, fuzz, scenario tests, the starter policy, payloads,
OpenTelemetry export of the audit log. Never on the hook's path."""
