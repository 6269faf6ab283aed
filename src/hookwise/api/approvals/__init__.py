"""The approval relay's service side: requests a hook opens, a named approver decides once.

``schemas`` (the wire bodies and their limits), ``store`` (every state change as one
conditional UPDATE, events queued in the same transaction), ``waiters`` (long polls woken
in process, re-checked slowly against the database for other processes), ``notify``
(ntfy, Slack and webhook notifications through the outbox), ``sessions`` (the console's
cookie sign-in for approvers).
"""
