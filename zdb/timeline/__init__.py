"""The time line: the stored result of every event in order (evaluations, history, current
ratings, initial states and start ratings), its state row (the dirty position, the generation,
the running run's marks), marking it dirty, live progress and the stored-state codec. Below every
domain that writes an event into it (tournaments, lists, editions, the office) and below the
recalculation that brings it up to date and the read side that shows it."""
