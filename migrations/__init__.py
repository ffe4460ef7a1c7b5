"""The Alembic migrations, shipped inside the wheel as ``zdb._migrations``.

The folder stays at the project's top level; ``pyproject.toml`` maps it into the package, so
that ``zdb db upgrade`` finds it in an installed wheel as in a checkout. Nothing imports it:
Alembic reads the folder (``zdb.migrate``).
"""
