"""Submissions: a referee's tournament file taken in (read as JSON, TRF or SWT, checked,
players matched), previewed, and stored with its state, its audit entries and the persons'
facts it taught. Above the tournaments, the lists and the ratings' read side that it uses; the
doors keep the authorisation, the idempotency and the HTTP answer."""
