"""Hangar's production settings (hangar.settings, read from the environment) for the load test, plus one thing
they do not read from the environment: STATIC_ROOT, so that `collectstatic` writes into the run's temporary folder
instead of the checkout. With DEBUG off the pages need collected static files (whitenoise's manifest storage)."""
import os
from pathlib import Path

from hangar.settings import *  # noqa: F401,F403

STATIC_ROOT = Path(os.environ["HANGAR_LOAD_STATIC_ROOT"])
