"""Ratings: evaluations, history, current ratings, and the recalculation that keeps them equal
to a from-scratch evaluation of all tournaments."""
