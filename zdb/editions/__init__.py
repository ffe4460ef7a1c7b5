"""Published rating-list editions: the ratings as of a date, frozen when staff publish them."""
