"""The revisions, one file each (Alembic skips this file); a package so that the wheel carries them."""
