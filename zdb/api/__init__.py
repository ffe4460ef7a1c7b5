"""The REST API under ``/api/v1``: thin routers over the domain queries and services, one unit
of work per request, RFC 9457 problem documents for every error."""
