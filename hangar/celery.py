"""The one Celery app of Hangar. Configuration comes from Django settings (CELERY_* names).

Workers: `celery -A hangar worker --concurrency N` (one process per core). The tasks live in builder/tasks.py
(found by autodiscovery); that module also imports the plugin simulators named in HANGAR_SIMULATOR_MODULES.
See docs/simulations.md and README "Running workers on several machines".
"""
import os

from celery import Celery, signals

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "hangar.settings")

app = Celery("hangar")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


def prepare_broker_folders() -> None:
    """The embedded default broker is a folder (kombu's filesystem transport): make sure it exists."""
    options = app.conf.broker_transport_options or {}
    for key in ("data_folder_in", "data_folder_out", "processed_folder"):
        if options.get(key):
            os.makedirs(options[key], exist_ok=True)


@signals.import_modules.connect
def _on_import_modules(sender=None, **kwargs) -> None:  # worker start
    prepare_broker_folders()
