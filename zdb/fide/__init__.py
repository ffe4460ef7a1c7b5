"""FIDE-rated tournaments: their registration with FIDE's data and the federation's deadlines."""
