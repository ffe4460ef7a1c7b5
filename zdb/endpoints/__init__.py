"""What the two doors over HTTP share: the API (``zdb.api``) and the pages (``zdb.web``) both
import from here — a request's unit of work and caller, paging, idempotency, the referee's
writes and the stored standings — and never from each other."""
