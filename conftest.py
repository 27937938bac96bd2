"""Root pytest configuration: test-safe environment defaults before Django loads its settings."""
import os

os.environ.setdefault("HANGAR_INSECURE_DEV_KEY", "1")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "hangar.settings")
