"""ZDB: the central rating database of a chess federation (DWZ)."""

__version__ = "0.1.0"
