"""How the codes of a rating list become ZDB's federation prefixes.

ZDB names a federation by the club-code prefix of its subtree (``zdb.federations.models``); the
lists name it by a three-character number: the DSB ``000``, a state federation its character
and ``00`` (``C00``), a district three characters (``C03``) with which every club code in it
begins. So ``000`` is the empty prefix, ``C00`` is ``C``, and any other code is its own prefix.
"""

from __future__ import annotations

__all__ = ["ROOT_CODE", "prefix_of_code"]

ROOT_CODE = "000"


def prefix_of_code(code: str) -> str:
    if code == ROOT_CODE:
        return ""
    if len(code) == 3 and code.endswith("00"):
        return code[0]
    return code
