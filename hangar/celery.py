"""The one Celery app of Hangar. Configuration comes from Django settings (CELERY_* names).

Workers: `celery -A hangar worker --concurrency N` (one process per core). The tasks live in builder/tasks.py
(found by autodiscovery); that module also imports the plugin simulators named in HANGAR_SIMULATOR_MODULES.
See docs/simulations.md and README "Running workers on several machines".
"""
import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "hangar.settings")

app = Celery("hangar")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


# The watchdog re-queues the missing chunks of runs that stopped progressing (a worker died, a message was lost).
# `python3 dev.py run` starts its worker with an embedded beat (-B) that runs it every minute; on several machines
# run ONE beat (or cron `manage.py simulations_watchdog`), never one per worker.
app.conf.beat_schedule = {
    "simulations-watchdog": {"task": "builder.simulations_watchdog", "schedule": 60.0},
}
