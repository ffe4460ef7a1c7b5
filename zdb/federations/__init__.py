"""Federations (DSB, regional federations, districts) and clubs."""
