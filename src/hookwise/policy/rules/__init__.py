"""The rule language: the policy file format, loading, compiling scopes, conditions, globs,
actions, and the engine that matches rules against canonical events."""
