"""Approvals: an ``ask`` decided by a person through the relay (``hookwise serve``)."""
