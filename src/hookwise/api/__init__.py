"""The Hook Output Processing service: HTTP routes, storage, webhooks, rate limits, console.

Imported only by ``hookwise serve`` and the tests; ``hookwise hook`` never loads it.
"""
