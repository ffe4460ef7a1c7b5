"""Ratings, the read side: cards, lists, explanations, previews and reports over the time line
(``zdb.timeline``) that the recalculation (``zdb.recalculation``) keeps up to date."""
