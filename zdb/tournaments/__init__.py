"""Tournaments as submitted: versions (corrections keep the id), participants and games."""
