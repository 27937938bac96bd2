#!/usr/bin/env python3
"""Benchmark "test every card" (the list doctor's variant impact): a 40-card HAGMI deck and a 300-point MWDA army,
every distinct card one copy out on the same seeds, screen then confirm, as `python manage.py impact` plays it.

    .venv/bin/python benchmarks/bench_impact.py [--hagmi-games 20000] [--mwda-games 6000] [--seed 2026]
        [--deck akane-assault] [--hagmi-opponents coop-ironshell-cradle,sample-fortress]
        [--army steel-wolves-pack] [--mwda-opponents highland-line,republic-knight-guard] [--workers 1] [--pure]

Prints JSON: the machine, the engines, and for each list the cards tested, the legs, the budget and its minimum,
the games played per stage, the wall time (process start-up included with --workers 2), games per second, and the
verdicts (how many cards help, hurt, have no detectable effect; the confirmed ones by name with their effect and
95 % interval in points). No Django.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from _engine import add_engine_option, engine_line  # noqa: E402,I001
from bench_machine import machine  # noqa: E402

from rules_engine.core.catalog import Catalog  # noqa: E402
from rules_engine.doctor import IMPACT, doctor_batch, impact_changes, minimum_games, run_doctor  # noqa: E402
from rules_engine.simulation import build_snapshot, list_size  # noqa: E402


def case(system: str, package_file: str, list_name: str, opponents: list[str], games: int, seed: int,
         workers: int) -> dict:
    package = json.loads((ROOT / f"cards/packages/{system}/{package_file}").read_text(encoding="utf-8"))
    catalog = Catalog.build(system, package["cards"], package["formats"])
    document = json.loads((ROOT / f"cards/packages/{system}/lists/{list_name}.json").read_text(encoding="utf-8"))
    known = {o["slug"]: o for o in package["opponents"]}
    changes = impact_changes(document, catalog)
    snapshots = [(slug, 1.0, build_snapshot(document, catalog.cards, known[slug], policy="greedy"))
                 for slug in opponents]
    batch = doctor_batch(snapshots[0][2], changes, snapshots, catalog.cards, variant=IMPACT)
    started = time.perf_counter()
    report = run_doctor(batch, games=games, seed=seed, workers=workers)
    seconds = time.perf_counter() - started
    verdicts = {v: sum(1 for c in report["changes"] if c["verdict"] == v) for v in ("helps", "none", "hurts")}
    return {
        "list": list_name, "list_size": list_size(document), "cards_tested": len(changes),
        "not_legal_with_one_out": sum(1 for c in changes if not c.legal), "opponents": opponents,
        "legs": len(batch["legs"]), "budget": games, "minimum": minimum_games(len(changes), len(opponents)),
        "games_played": report["games_played"],
        "stages": [{"stage": s["stage"], "games_per_leg": s["games"], "games": s["games_total"]}
                   for s in report["stages"]],
        "wall_seconds": round(seconds, 1), "games_per_second": round(report["games_played"] / seconds),
        "verdicts": verdicts,
        "confirmed": [f"{c['verdict']}: {c['name']['en']} {c['effect'] * 100:+.1f} "
                      f"({c['effect_interval'][0] * 100:+.1f} to {c['effect_interval'][1] * 100:+.1f})"
                      for c in report["changes"] if c["verdict"] != "none"],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hagmi-games", type=int, default=20_000)
    parser.add_argument("--mwda-games", type=int, default=6_000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--deck", default="akane-assault")
    parser.add_argument("--hagmi-opponents", default="coop-ironshell-cradle,sample-fortress")
    parser.add_argument("--army", default="steel-wolves-pack")
    parser.add_argument("--mwda-opponents", default="highland-line,republic-knight-guard")
    parser.add_argument("--workers", type=int, default=1)
    add_engine_option(parser)
    args = parser.parse_args()
    print(json.dumps({
        "machine": machine(),
        "engines": [engine_line("rules_engine.hagmi"), engine_line("rules_engine.mwda")],
        "workers": args.workers, "seed": args.seed,
        "hagmi": case("hagmi", "core.json", args.deck, args.hagmi_opponents.split(","), args.hagmi_games,
                      args.seed, args.workers),
        "mwda": case("mwda", "core-sample.json", args.army, args.mwda_opponents.split(","), args.mwda_games,
                     args.seed, args.workers),
    }, ensure_ascii=False, indent=2))


if __name__ == "__main__":
    main()
