"""The header a browser sends with a form of this site's own pages: form posts must name their
sender (``zdb.web.referee_session.require_same_origin``), and the test client's host is
``testserver``."""

SAME_SITE = {"Origin": "http://testserver"}
