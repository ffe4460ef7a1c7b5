"""Review by the responsible rating officer: where a federation wants it, a submission waits
in review until the officer responsible for its federation approves it (then it is stored and
the time line marked dirty, as a submission is without review) or rejects it with a reason the
referee sees; and the public directory of who is responsible for each federation and club."""
