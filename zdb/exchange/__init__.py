"""The data doors: whole data sets in and out of the database — a time line in the vectors'
replay format taken in (``replay_import``) and given out (``replay_export``), and the synthetic
federation's bulk load (``synthetic``). Commands call them inside their unit of work."""
