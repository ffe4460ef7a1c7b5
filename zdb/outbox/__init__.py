"""The transactional outbox: the one way work follows a commit.

Why: work that must follow a change (a recalculation, an uploaded list's import, notifications to
club software) used to be started after the commit by the process that made the change; a process
that died between the commit and the hand-off lost it. Here a domain writes a message in the same
transaction as its change (``enqueue``), so the message exists exactly when the change does; a
relay (the Celery worker in production, a thread of the serving process when embedded) takes it
from there, at least once (``relay_due``). Consumers are safe to run twice.

This package sits low: domains import it, it imports no domain. What each kind of message means
is the wiring's affair (it hands the relay a handler per kind).
"""
