"""The one Celery app of Hangar. Configuration comes from Django settings (CELERY_* names)."""
import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "hangar.settings")

app = Celery("hangar")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
