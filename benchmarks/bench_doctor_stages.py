#!/usr/bin/env python3
"""Benchmark the list doctor's two stages against the fixed design, side by side in one run: a 40-card HAGMI deck
with a planted weakness, the games and the time each takes to a confirmed answer at the same error rate.

    nice .venv/bin/python benchmarks/bench_doctor_stages.py [--budgets 4000,8000,16000] [--fixed 200,600]
        [--seeds 1,2] [--changes 30] [--deck akane-assault] [--opponent sample-vanguard] [--dead HS-014]
        [--validate 3000]

The deck is the bundled `akane-assault` with both copies of --dead (Breakthrough, a key 兵器) replaced by a "Dead
Card": the same card at cost 99, which can never be paid (it still pays costs from hand, as every HAGMI card does).
First a plain paired run (the deck against the same deck with the dead cards, 1 000 games on one seed) shows what the
weakness costs. Then, for each seed:
- the doctor (rules_engine.doctor.run_doctor) with each budget: the screen of the deck and its 30 changes on the run
  seed, then the leaders confirmed on fresh seeds; the answer is the change it confirms (Holm, α = 0.05);
- the fixed design: the deck and the same 30 changes, N games each on the run seed, every change tested with the
  same exact paired test and Holm's correction over the 30 (the same family-wise error rate, 5 %); its answer is
  the best change whose adjusted p is below 0.05 and whose interval is above 0.
Every change either design calls better, and every change that cuts a dead card, is then checked on its own: a plain
paired run of --validate games (default 3 000) on a seed neither design used; a call is "true" when that run finds
the change better too (exact sign test, p < 0.05, interval above 0). Prints JSON: the machine, the weakness's cost,
each run's games, seconds and answer, the validation of each change, and the screen's share of games each change
turned around. No Django.
"""
from __future__ import annotations

import argparse
import copy
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from _engine import add_engine_option, engine_line  # noqa: E402,I001
from bench_machine import machine  # noqa: E402

from rules_engine.batch import gauntlet_batch, outcomes_of, run_batch  # noqa: E402
from rules_engine.core.catalog import Catalog  # noqa: E402
from rules_engine.doctor import (  # noqa: E402
    ALPHA, BASELINE, candidate_changes, doctor_batch, holm, minimum_games, paired_test, run_doctor,
)
from rules_engine.simulation import build_snapshot, list_size  # noqa: E402

DEAD = "HS-900"
VALIDATION_SEED = 777_001  # neither design plays it


def planted(package: dict, deck: dict, key_card: str) -> tuple[Catalog, dict]:
    cards = copy.deepcopy(package["cards"])
    dead = copy.deepcopy(next(card for card in cards if card["code"] == key_card))
    dead.update(code=DEAD, name="死に札", name_en="Dead Card", cost=99)
    cards.append(dead)
    weak = copy.deepcopy(deck)
    for section in ("weapons", "tactics"):
        entries = weak["sections"].get(section) or []
        for entry in entries:
            if entry["card"] == key_card:
                entry["card"] = DEAD
    return Catalog.build("hagmi", cards, package["formats"]), weak


def fixed_design(batch: dict, games: int, seed: int) -> dict:
    """The 30 × N design: every change N paired games on the run seed, Holm over all of them."""
    started = time.perf_counter()
    summaries = run_batch(batch, games=games, seed=seed)
    seconds = time.perf_counter() - started
    outcomes = {leg["change"]: outcomes_of(summary, games) for leg, summary in zip(batch["legs"], summaries)}
    keys = [leg["change"] for leg in batch["legs"] if leg["change"] != BASELINE]
    stats = {key: paired_test([(1.0, outcomes[BASELINE], outcomes[key])]) for key in keys}
    adjusted = dict(zip(keys, holm([stats[key]["p_value"] for key in keys])))
    better = sorted((key for key in keys if adjusted[key] < ALPHA and stats[key]["interval"][0] > 0),
                    key=lambda key: (-stats[key]["delta"], key))
    return {"games": games * len(batch["legs"]), "seconds": round(seconds, 2), "better": better,
            "answer": better[0] if better else None}


def _shares(report: dict) -> dict:
    """How many of the screen's games each change turned around (gains + losses) / games: min, median, max."""
    shares = sorted((c["screen"]["gains"] + c["screen"]["losses"]) / c["screen"]["games"] for c in report["changes"])
    if not shares:
        return {}
    return {"min": round(shares[0], 3), "median": round(shares[len(shares) // 2], 3), "max": round(shares[-1], 3)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--budgets", default="4000,8000,16000", help="the doctor's budgets (games in all)")
    parser.add_argument("--fixed", default="200,600", help="the fixed design's games per change")
    parser.add_argument("--seeds", default="1,2")
    parser.add_argument("--changes", type=int, default=30)
    parser.add_argument("--deck", default="akane-assault")
    parser.add_argument("--opponent", default="sample-vanguard")
    parser.add_argument("--dead", default="HS-014", help="the key card replaced by dead copies")
    parser.add_argument("--validate", type=int, default=3000, help="games of each change's independent check")
    add_engine_option(parser)
    args = parser.parse_args()

    package = json.loads((ROOT / "cards/packages/hagmi/core.json").read_text(encoding="utf-8"))
    deck = json.loads((ROOT / f"cards/packages/hagmi/lists/{args.deck}.json").read_text(encoding="utf-8"))
    opponent = next(o for o in package["opponents"] if o["slug"] == args.opponent)
    catalog, weak = planted(package, deck, args.dead)
    snapshot = build_snapshot(weak, catalog.cards, opponent, policy="greedy")
    strong = build_snapshot(deck, catalog.cards, opponent, policy="greedy")

    # What the weakness costs: the plain paired run.
    cost_games = 1000
    base = outcomes_of(run_batch(gauntlet_batch([("weak", 1.0, snapshot)]), games=cost_games, seed=99)[0], cost_games)
    fixed = outcomes_of(run_batch(gauntlet_batch([("strong", 1.0, strong)]), games=cost_games, seed=99)[0], cost_games)
    cost = paired_test([(1.0, base, fixed)])

    valid_base = outcomes_of(run_batch(gauntlet_batch([("weak", 1.0, snapshot)]), games=args.validate,
                                       seed=VALIDATION_SEED)[0], args.validate)
    changes = candidate_changes(weak, catalog, limit=args.changes)
    batch = doctor_batch(snapshot, changes, [(args.opponent, 1.0, snapshot)], catalog.cards)
    right = {change.key for change in changes if change.out == DEAD}
    rows = []
    for seed in (int(s) for s in args.seeds.split(",")):
        for budget in (int(b) for b in args.budgets.split(",")):
            started = time.perf_counter()
            report = run_doctor(batch, games=budget, seed=seed)
            seconds = time.perf_counter() - started
            confirmed = [c["key"] for c in report["changes"] if c["confirmed"]]
            rows.append({"design": "doctor (screen + confirm)", "seed": seed, "budget": budget,
                         "games": report["games_played"], "seconds": round(seconds, 2),
                         "stages": [(s["stage"], s["lists"], s["games"]) for s in report["stages"]],
                         "answer": report["best"], "better": confirmed,
                         "rarely_used": [row["card"] for row in report["rarely_used"]],
                         "screen_discordant_share": _shares(report)})
        for games in (int(g) for g in args.fixed.split(",")):
            found = fixed_design(batch, games, seed)
            rows.append({"design": f"fixed {len(changes)} × N", "seed": seed, "per_change": games,
                         "games": found["games"], "seconds": found["seconds"], "answer": found["answer"],
                         "better": found["better"]})
    # The truth, as far as a big independent run tells it: each change called better, and each cut of a dead card.
    called = sorted({key for row in rows for key in row["better"]} | right)
    by_key = {change.key: change for change in changes}
    validation = {}
    for key in called:
        leg = build_snapshot(by_key[key].document, catalog.cards, opponent, policy="greedy")
        cand = outcomes_of(run_batch(gauntlet_batch([("c", 1.0, leg)]), games=args.validate, seed=VALIDATION_SEED)[0],
                           args.validate)
        stats = paired_test([(1.0, valid_base, cand)])
        validation[key] = {"delta": stats["delta"], "interval": stats["interval"], "p_value": stats["p_value"],
                           "better": stats["p_value"] < ALPHA and stats["interval"][0] > 0}
    for row in rows:
        row["true_better"] = [key for key in row["better"] if validation[key]["better"]]
        row["false_better"] = [key for key in row["better"] if not validation[key]["better"]]
    print(json.dumps({
        "machine": machine(),
        "engine": engine_line("rules_engine.hagmi"),
        "deck": args.deck, "deck_cards": list_size(weak), "opponent": args.opponent, "dead": args.dead,
        "weakness_cost": {"games": cost_games, "delta": cost["delta"], "interval": cost["interval"],
                          "gains": cost["gains"], "losses": cost["losses"], "p_value": cost["p_value"]},
        "changes": len(changes), "changes_cutting_a_dead_card": sorted(right),
        "minimum_budget": minimum_games(len(changes), 1),
        "runs": rows,
        "validation": {"games": args.validate, "seed": VALIDATION_SEED, "changes": validation},
    }, ensure_ascii=False, indent=2))


if __name__ == "__main__":
    main()
