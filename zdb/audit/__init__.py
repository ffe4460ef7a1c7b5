"""The audit log: one table (``models.py``), one writer (``writer.py``: who, what, on which
target, and one shape of detail: before, after and more), one reader (``reader.py``). Every
audit entry of the project is written through the writer. It stands below every room that
writes an entry, auth's tokens included, so it names the tokens' table only as its foreign key
does."""
