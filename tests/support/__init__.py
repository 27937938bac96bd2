"""Test-only helpers shared by the simulation tests (a toy simulator, real Celery worker processes)."""
