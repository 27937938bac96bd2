#!/usr/bin/env python3
"""A 5 × 5 matchup matrix on Celery workers: 1 and 2 workers against the same cells played in-process, and the
share of a repeated matrix answered by stored runs.

Every cell of a matrix is a plain run (builder.services.matrices), so the workers play the cells' chunks as they
play any run's. Measured:

    efficiency(2 workers) = t_in_process / (2 * t_2_workers)     (t: submit to the last cell's merge)
    speed-up              = t_1_worker / t_2_workers
    reused share          = cells of a repeated matrix answered by stored runs / cells   (the same player, and
                            another player asking the same question: a copy of the finished run, `reused_from`)

Usage (from the project root, after `python3 dev.py test` has made .venv):
    .venv/bin/python benchmarks/bench_matrix.py [--games 200] [--seed 4242] [--repeat 1]

The rows are the five bundled HAGMI lists, the columns the five HAGMI sample opponents (the goldfish, two 機獣
scenarios, two sample decks). It makes its own SQLite database and broker folder in a temporary directory, checks
that every cell equals the in-process run of its snapshot and prints a JSON report. On a shared machine, run it when
nothing else is busy (see load_average).
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_workers import configure  # noqa: E402  (one database, one broker, one queue of our own)


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200, help="games per cell")
    parser.add_argument("--seed", type=int, default=4242)
    parser.add_argument("--broker", default=os.environ.get("CELERY_BROKER_URL", "filesystem://"))
    parser.add_argument("--repeat", type=int, default=1, help="rounds of the timings; the best of each counts")
    return parser.parse_args()


def start_matrix(user, lists, opponents, games: int, seed: int):
    from builder.services.matrices import matrix_start

    return matrix_start(user=user, lists=[game_list.slug for game_list in lists],
                        opponents=[{"opponent": slug} for slug in opponents], games=games, seed=seed)


def wait(matrix) -> float:
    """Seconds from the matrix's submit to its last cell's merge (the cells' own timestamps)."""
    from builder import selectors

    while True:
        cells = selectors.matrix_cells(matrix)
        if not any(cell.run.is_active for cell in cells):
            break
        time.sleep(0.5)  # look rarely: this process must not steal the workers' CPU
    bad = [cell.run for cell in cells if cell.run.status != "done"]
    if bad:
        raise SystemExit(f"a cell ended {bad[0].status}: {bad[0].error}")
    return (max(cell.run.finished_at for cell in cells) - matrix.created_at).total_seconds()


def time_workers(count: int, env, tmp: Path, user, lists, opponents, games: int, seed: int):
    from builder.models import MatchupMatrix, SimulationRun
    from tests.support.workers import Workers

    MatchupMatrix.objects.all().delete()
    SimulationRun.objects.all().delete()  # no reuse of the previous phase's stored runs
    pool = Workers({**os.environ, **env}, tmp)
    try:
        pool.start(count)
        matrix = start_matrix(user, lists, opponents, games, seed)
        elapsed = wait(matrix)
    finally:
        pool.stop()
    return elapsed, matrix


def main() -> int:
    args = parse_args()
    with tempfile.TemporaryDirectory(prefix="hangar-bench-matrix-") as folder:
        tmp = Path(folder)
        env = configure(tmp, args.broker)
        env["HANGAR_MAX_CONCURRENT_RUNS"] = "100"
        os.environ.update(env)
        import django

        django.setup()
        from django.contrib.auth import get_user_model
        from django.core.management import call_command

        from builder import selectors, services
        from cards.models import Opponent
        from rules_engine.simulation import simulate
        from tests.support.bundled_catalog import load_bundled_catalog
        from tests.support.showcase import PACKAGES, sample_document

        call_command("migrate", verbosity=0)
        load_bundled_catalog()
        user, _ = get_user_model().objects.get_or_create(username="bench")
        other, _ = get_user_model().objects.get_or_create(username="bench-other")
        lists = [services.list_create(owner=user, document=sample_document("hagmi", path.name), visibility="private")
                 for path in sorted((PACKAGES / "hagmi" / "lists").glob("*.json"))][:5]
        opponents = list(Opponent.objects.filter(system__slug="hagmi").order_by("slug")
                         .values_list("slug", flat=True))[:5]

        in_process = one = two = float("inf")
        identical = True
        for _round in range(args.repeat):
            elapsed, matrix = time_workers(1, env, tmp, user, lists, opponents, args.games, args.seed)
            one = min(one, elapsed)
            elapsed, matrix = time_workers(2, env, tmp, user, lists, opponents, args.games, args.seed)
            two = min(two, elapsed)
            cells = selectors.matrix_cells(matrix)
            snapshots = {cell.run.pk: type(cell.run).objects.get(pk=cell.run.pk).snapshot for cell in cells}
            started = time.perf_counter()
            local = {pk: simulate(snapshot, games=args.games, seed=args.seed) for pk, snapshot in snapshots.items()}
            in_process = min(in_process, time.perf_counter() - started)
            identical = identical and all(json.dumps(local[cell.run.pk], sort_keys=True)
                                          == json.dumps(cell.run.result, sort_keys=True) for cell in cells)

        started = time.perf_counter()  # the same matrix again (no worker runs: nothing may need playing)
        again = start_matrix(user, lists, opponents, args.games, args.seed)
        again_seconds = time.perf_counter() - started
        their_lists = [services.list_create(owner=other, document=selectors.list_document(game_list),
                                            visibility="private") for game_list in lists]  # the same cards
        theirs = start_matrix(other, their_lists, opponents, args.games, args.seed)
        mine, copied = selectors.matrix_result(again, user), selectors.matrix_result(theirs, other)

    report = {
        "system": "hagmi",
        "lists": len(lists), "opponents": opponents, "games_per_cell": args.games,
        "games": len(lists) * len(opponents) * args.games,
        "broker": args.broker.split("://")[0], "database": "sqlite",
        "in_process_s": round(in_process, 2),
        "one_worker_s": round(one, 2),
        "two_workers_s": round(two, 2),
        "speed_up_two_workers": round(one / two, 3),
        "efficiency_two_workers": round(in_process / (2 * two), 3),
        "cells_identical_to_in_process_runs": identical,
        "repeated_matrix_reused_share": mine["cells_reused"] / mine["cells_total"],
        "repeated_matrix_status": mine["status"], "repeated_matrix_seconds": round(again_seconds, 3),
        "another_players_same_matrix_reused_share": copied["cells_reused"] / copied["cells_total"],
        "another_players_same_matrix_status": copied["status"],
        "repeat": args.repeat, "cpus": os.cpu_count(),
        "load_average_1min": round(os.getloadavg()[0], 2),
    }
    print(json.dumps(report, indent=2))
    return 0 if identical else 1


if __name__ == "__main__":
    sys.exit(main())
