"""The recalculation: loading the stored tournaments, the run around the engine's replay, and
writing its results back into the time line (``zdb.timeline``). A sibling of the ratings' read
side (``zdb.ratings``): neither imports the other."""
