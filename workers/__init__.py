"""The Celery side of ZDB: the app and its thin tasks."""
