"""Text and JSON formats read and written by ZDB: pure conversions, no database."""
