#!/usr/bin/env python3
"""Benchmark the list doctor: a 40-card HAGMI deck, 30 candidate changes × 2 000 paired games against a
機獣 (co-op) opponent and a sample deck, on 1 and on 2 local processes, side by side in one run.

    .venv/bin/python benchmarks/bench_doctor.py [--games 2000] [--changes 30] [--deck akane-assault]
                                                [--coop coop-ironshell-cradle] [--sample sample-fortress] [--pure]

It builds the doctor's batch exactly as `python manage.py doctor` does (rules_engine.doctor.candidate_changes,
doctor_batch; rules_engine.batch.run_batch) from the bundled package, times the whole run with workers=1 and with
workers=2 (process start-up included, as a user waits for it), checks both reports are identical, and prints JSON:
wall times, games per second, the parallel efficiency t1 / (2 · t2), and the variance reduction of pairing — per
change and opponent, the paired 95 % half-width of the win-rate change against the half-width two independent runs
of the same size would give (1.96·√(p₁(1−p₁)/n + p₂(1−p₂)/n)); (unpaired / paired)² is how many times more games
unpaired runs would need for the same interval. No Django.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from _engine import add_engine_option, engine_line  # noqa: E402,I001
from bench_machine import machine  # noqa: E402

from rules_engine.batch import run_batch  # noqa: E402
from rules_engine.core.catalog import Catalog  # noqa: E402
from rules_engine.batch import outcomes_of  # noqa: E402
from rules_engine.doctor import BASELINE, candidate_changes, doctor_batch, paired_difference  # noqa: E402
from rules_engine.simulation import build_snapshot, list_size  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--changes", type=int, default=30)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--deck", default="akane-assault", help="a bundled 40-card list (cards/packages/hagmi/lists)")
    parser.add_argument("--coop", default="coop-ironshell-cradle")
    parser.add_argument("--sample", default="sample-fortress")
    add_engine_option(parser)
    args = parser.parse_args()

    package = json.loads((ROOT / "cards/packages/hagmi/core.json").read_text(encoding="utf-8"))
    catalog = Catalog.build("hagmi", package["cards"], package["formats"])
    document = json.loads((ROOT / f"cards/packages/hagmi/lists/{args.deck}.json").read_text(encoding="utf-8"))
    opponents = {o["slug"]: o for o in package["opponents"]}
    started = time.perf_counter()
    changes = candidate_changes(document, catalog, limit=args.changes)
    candidates_seconds = time.perf_counter() - started
    snapshots = [(slug, 1.0, build_snapshot(document, catalog.cards, opponents[slug], policy="greedy"))
                 for slug in (args.coop, args.sample)]
    batch = doctor_batch(snapshots[0][2], changes, snapshots, catalog.cards)
    legs = len(batch["legs"])
    games = legs * args.games

    timings, reports = {}, {}
    for workers in (1, 2):
        started = time.perf_counter()
        summaries = run_batch(batch, games=args.games, seed=args.seed, workers=workers)
        timings[workers] = time.perf_counter() - started
        reports[workers] = [json.dumps(summary.to_dict(exact=True), sort_keys=True) for summary in summaries]
    assert reports[1] == reports[2], "1 and 2 workers differ"

    # Every leg played the same games (one stage of the doctor, every change on the run seed: the screen of a budget
    # of legs × games); per change and opponent, the paired half-width against the unpaired one.
    outcomes = {leg["key"]: outcomes_of(summary, args.games) for leg, summary in zip(batch["legs"], summaries)}
    paired, unpaired, rates = [], [], {}
    for leg in batch["legs"]:
        base = outcomes[f"{BASELINE}@{leg['opponent']}"]
        if leg["change"] == BASELINE:
            rates[leg["opponent"]] = round(base.count("w") / args.games, 6)
            continue
        stats = paired_difference(base, outcomes[leg["key"]])
        paired.append(stats["half_width"])
        unpaired.append(stats["unpaired_half_width"])
    ratio = [u / p for p, u in zip(paired, unpaired) if p > 0]
    print(json.dumps({
        "machine": machine(),
        "engine": engine_line("rules_engine.hagmi"),
        "deck": args.deck, "deck_cards": list_size(document), "opponents": [args.coop, args.sample],
        "changes": len(changes), "games_per_leg": args.games, "legs": legs, "games": games,
        "candidate_changes_seconds": round(candidates_seconds, 3),
        "wall_seconds": {str(w): round(t, 1) for w, t in timings.items()},
        "games_per_second": {str(w): round(games / t) for w, t in timings.items()},
        "efficiency_2_workers": round(timings[1] / (2 * timings[2]), 3),
        "half_width_paired_median": round(statistics.median(paired), 4),
        "half_width_unpaired_median": round(statistics.median(unpaired), 4),
        "width_ratio_median": round(statistics.median(ratio), 2) if ratio else None,
        "games_saved_factor_median": round(statistics.median(r * r for r in ratio), 1) if ratio else None,
        "baseline": rates,
    }, ensure_ascii=False, indent=2))


if __name__ == "__main__":
    main()
