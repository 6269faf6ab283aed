"""The service's edge: what a request meets around the routes: limits, ASGI layers, errors."""
