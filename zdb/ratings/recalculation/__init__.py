"""The recalculation machinery: the time line's state (dirty position, generation, the running
run's marks), loading the stored tournaments, the replay around the engine, and writing its
results back. The read side of ``zdb.ratings`` (cards, lists, explanations) reads what this
writes; nothing here imports the read side."""
