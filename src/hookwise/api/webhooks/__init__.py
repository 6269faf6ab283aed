"""Webhooks: events recorded in a durable outbox, delivered signed, retried with backoff."""
