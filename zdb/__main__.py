"""``python -m zdb`` is the ``zdb`` command."""

from zdb.cli import main

main()
