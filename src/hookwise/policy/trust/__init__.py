"""Which policy files apply and may be believed: scopes, the trust store, self-protection."""
