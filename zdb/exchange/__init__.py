"""The data doors: whole data sets in and out of the database — an events file (initial states
and events, the format of the spec's vectors) taken in (``events_import``), the stored results
given out as a results file (``results_export``, the vectors' expected format), and the
synthetic federation's bulk load (``synthetic``). Commands call them inside their unit of work.

The files are named for what they hold, not "replay": that word belongs to the engine
(``zdb.rating.replay``), and a recalculation's pass is its run (``zdb.recalculation``)."""
