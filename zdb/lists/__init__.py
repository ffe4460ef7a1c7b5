"""A federation moving in and staying in step: its rating list (federations, clubs, people,
memberships, starting states) and FIDE's list taken into the database, and kept in sync."""
