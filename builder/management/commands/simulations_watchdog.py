"""`python manage.py simulations_watchdog [--older-than S] [--max-requeues K] [--every N]` (docs/simulations.md).

Runs queued or running with no progress for S seconds (default HANGAR_SIMULATION_STALL_SECONDS) get their MISSING
chunks re-queued (a worker died, or the filesystem broker lost a message); after K re-queues (default
HANGAR_SIMULATION_MAX_REQUEUES) such a run fails with the reason. Once by default (for cron), or every N seconds.
"""
from __future__ import annotations

import time

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from builder.services import simulations_requeue_stalled


class Command(BaseCommand):
    help = "Re-queue the missing chunks of stalled simulation runs, or fail them after too many re-queues."

    def add_arguments(self, parser):
        parser.add_argument("--older-than", type=float, default=settings.HANGAR_SIMULATION_STALL_SECONDS,
                            help="seconds without progress before a run counts as stalled")
        parser.add_argument("--max-requeues", type=int, default=settings.HANGAR_SIMULATION_MAX_REQUEUES,
                            help="re-queues before a stalled run fails")
        parser.add_argument("--every", type=float, default=None, help="repeat every N seconds (Ctrl-C stops)")

    def handle(self, *args, older_than: float, max_requeues: int, every: float | None, **options):
        if older_than <= 0 or max_requeues < 0 or (every is not None and every <= 0):
            raise CommandError("--older-than and --every must be > 0, --max-requeues >= 0")
        while True:
            report = simulations_requeue_stalled(older_than=older_than, max_requeues=max_requeues)
            for outcome, run_ids in report.items():
                for run_id in run_ids:
                    self.stdout.write(f"{outcome}: {run_id}")
            if every is None:
                return
            time.sleep(every)
