"""Signed notifications to club software: subscriptions, their events and their delivery.

Why: every client polled; ZDB knows the moment a rating changes. A club token subscribes for its
members, a staff token for a federation subtree; the domains write their events into the outbox
(``zdb.outbox``) in their own transaction, the relay fans each out into one delivery per matching
subscription (``fanout``), and the deliveries are sent signed the Standard Webhooks way
(``delivery``, ``signing``), to public HTTPS addresses only (``targets``). This package sits above
the domains: it reads them, they never import it.
"""
