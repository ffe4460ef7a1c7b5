"""One router per domain; each is thin: parameters in, one query or service call, answer out."""
