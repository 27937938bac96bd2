#!/usr/bin/env python3
"""Simulations on Celery workers against the same games played in-process, side by side in one run.

Targets: parallel efficiency with 2 workers >= 0.85 of an in-process run of the same games (on a 2-core machine),
and broker + database overhead <= 5% of a 20 000-game run's time.

    efficiency(2 workers) = t_in_process / (2 * t_2_workers)
    overhead (1 worker)   = (t_1_worker - t_in_process) / t_1_worker    (broker, database, task bookkeeping)
    utilisation           = time spent inside chunk tasks (worker logs) / (wall time * workers): 1 - utilisation
                            is the broker + database + idle share, and does not depend on other load on the machine

Usage (from the project root, after `python3 dev.py test` has made .venv):
    .venv/bin/python benchmarks/bench_workers.py [--games 20000] [--system hagmi|toy] [--opponent SLUG]
                                                 [--broker filesystem://|redis://...]

It plays the real HAGMI engine (a bundled sample list against a bundled opponent; sample-vanguard against the
sample-fortress deck takes about 0.6 s per 500-game chunk), or with `--system toy` the test dice race
(tests/support/toy_simulator.py; `--target 8000` makes a chunk take about 1 s). It makes its own SQLite database
and broker folder in a temporary directory (or uses DATABASE_URL / --broker), times the in-process run, then the
same run on 1 and on 2 `celery -A hangar worker --concurrency 1` processes (worker start-up excluded), `--repeat`
times (best of each), checks every result is identical and prints a JSON report. On a shared machine, run it when
nothing else is busy (see load_average).
"""
from __future__ import annotations

import argparse
import json
import os
import re
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=4242)
    parser.add_argument("--system", choices=["hagmi", "toy"], default="hagmi")
    parser.add_argument("--list", default="sample-vanguard", help="hagmi: a bundled list (cards/packages/hagmi/lists)")
    parser.add_argument("--opponent", default="sample-fortress", help="hagmi: a bundled opponent slug")
    parser.add_argument("--target", type=int, default=8000, help="toy: points to win (work per game)")
    parser.add_argument("--broker", default=os.environ.get("CELERY_BROKER_URL", "filesystem://"))
    parser.add_argument("--repeat", type=int, default=2, help="rounds of the three timings; the best of each counts")
    return parser.parse_args()


def configure(tmp: Path, broker: str) -> dict[str, str]:
    """Environment for this process and the workers: one database, one broker, one queue of our own."""
    env = {
        "DJANGO_SETTINGS_MODULE": "hangar.settings",
        "HANGAR_INSECURE_DEV_KEY": "1",
        "DATABASE_URL": os.environ.get("DATABASE_URL", f"sqlite:///{tmp / 'bench.sqlite3'}"),
        "CELERY_BROKER_URL": broker,
        "HANGAR_BROKER_DIR": str(tmp / "broker"),
        "HANGAR_CELERY_QUEUE": f"bench-{uuid.uuid4().hex[:8]}",
        "HANGAR_SIMULATOR_MODULES": "tests.support.toy_simulator",
        "CONN_MAX_AGE": "0",
    }
    os.environ.update(env)
    return env


def time_worker_run(workers_count: int, env: dict[str, str], tmp: Path, snapshot: dict, games: int, seed: int):
    from django.contrib.auth import get_user_model

    from builder.models import SimulationRun
    from builder.services import simulation_start
    from tests.support.workers import Workers

    SimulationRun.objects.all().delete()  # no reuse of the previous phase's stored run
    user, _ = get_user_model().objects.get_or_create(username="bench")
    pool = Workers({**os.environ, **env}, tmp)
    try:
        pool.start(workers_count)
        run = simulation_start(user=user, snapshot=snapshot, games=games, seed=seed)
        while run.is_active:
            time.sleep(0.5)  # look rarely: this process must not steal the workers' CPU
            run.refresh_from_db()
        elapsed = (run.finished_at - run.created_at).total_seconds()  # the run's own timestamps: submit to merge
        busy = sum(float(seconds) for number in range(workers_count)
                   for seconds in re.findall(r"succeeded in ([0-9.]+)s", pool.log(number)))
    finally:
        pool.stop()
    if run.status != "done":
        raise SystemExit(f"the {workers_count}-worker run ended {run.status}: {run.error}")
    return elapsed, busy / (elapsed * workers_count), run.result


def main() -> int:
    args = parse_args()
    with tempfile.TemporaryDirectory(prefix="hangar-bench-workers-") as folder:
        tmp = Path(folder)
        env = configure(tmp, args.broker)
        import django

        django.setup()
        from django.core.management import call_command

        from rules_engine.simulation import chunk_size_for, chunks, play_chunk, simulate
        from tests.support.snapshots import bundled_hagmi_snapshot
        from tests.support.toy_simulator import toy_snapshot

        call_command("migrate", verbosity=0)
        if args.system == "hagmi":
            snapshot = bundled_hagmi_snapshot(args.list, args.opponent)
        else:
            snapshot = toy_snapshot(target=args.target)

        size = chunk_size_for(snapshot)
        play_chunk(snapshot, seed=args.seed, start=0, count=size)  # warm up: the snapshot is prepared once
        started = time.perf_counter()
        play_chunk(snapshot, seed=args.seed, start=size, count=size)
        chunk_seconds = time.perf_counter() - started

        in_process = one = two = float("inf")
        busy_one = busy_two = 0.0
        results = []
        for _round in range(args.repeat):  # rounds interleave the three timings: a busy spell hits them alike
            started = time.perf_counter()
            results.append(simulate(snapshot, games=args.games, seed=args.seed))
            in_process = min(in_process, time.perf_counter() - started)
            elapsed, busy, result = time_worker_run(1, env, tmp, snapshot, args.games, args.seed)
            one, busy_one = min(one, elapsed), max(busy_one, busy)
            results.append(result)
            elapsed, busy, result = time_worker_run(2, env, tmp, snapshot, args.games, args.seed)
            two, busy_two = min(two, elapsed), max(busy_two, busy)
            results.append(result)

    report = {
        "system": args.system,
        "opponent": snapshot["opponent"]["slug"],
        "games": args.games,
        "chunks": len(chunks(args.games, snapshot)),
        "chunk_size": size,
        "seconds_per_chunk": round(chunk_seconds, 3),
        "broker": args.broker.split("://")[0],
        "database": env["DATABASE_URL"].split("://")[0],
        "in_process_s": round(in_process, 2),
        "one_worker_s": round(one, 2),
        "two_workers_s": round(two, 2),
        "efficiency_two_workers": round(in_process / (2 * two), 3),
        "overhead_one_worker": round((one - in_process) / one, 3),
        "utilisation_one_worker": round(busy_one, 3),
        "utilisation_two_workers": round(busy_two, 3),
        "identical_results": len({json.dumps(result, sort_keys=True) for result in results}) == 1,
        "repeat": args.repeat,
        "cpus": os.cpu_count(),
        "load_average_1min": round(os.getloadavg()[0], 2),
    }
    print(json.dumps(report, indent=2))
    return 0 if report["identical_results"] else 1


if __name__ == "__main__":
    sys.exit(main())
