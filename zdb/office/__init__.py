"""The rating office's work on the record: persons, memberships, clubs and the federation tree,
each change audited with who, when, before and after. Flushes, never commits."""
