"""Small helpers that several domains use alike (name folding, LIKE patterns, UTC date-times),
kept here so that no domain imports another one for them."""
