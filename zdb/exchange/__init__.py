"""Bulk loads into the database (the synthetic federation; later, federation list imports)."""
