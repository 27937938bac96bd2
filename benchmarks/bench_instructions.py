"""Instruction counts of the engines, for comparing two versions of the code on a busy machine: callgrind counts
instructions, not seconds, so the same code, games and Python give the same count whatever else runs.

    valgrind --tool=callgrind --callgrind-out-file=out.N python benchmarks/bench_instructions.py hagmi 20
    valgrind --tool=callgrind --callgrind-out-file=out.0 python benchmarks/bench_instructions.py hagmi 0

plays 20 (or 0) games of each of the first 4 benchmark cases of the system (bench_hagmi/bench_mwda/bench_warcaster
cases, seed 11); the games' cost is the difference of the two totals (`grep ^summary: out.N`), start-up excluded.
`HANGAR_ENGINE=python` measures the pure-Python engine. Python salts string hashes per process, so the same code
gives counts a few tenths of a percent apart (up to about 1.3 % for compiled MWDA): compare the medians of a few
runs, before and after alternating. docs/benchmarks.md, "Session 5", "Session 6" and "Game knowledge out of
builder/", has the figures.
"""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rules_engine import compiled  # noqa: E402
from rules_engine.simulation import simulate, simulator_for  # noqa: E402
from tests.rules_engine.test_same_games import benchmark_cases  # noqa: E402

CASES = 4
SEED = 11


def main() -> None:
    system, games = sys.argv[1], int(sys.argv[2])
    print(compiled.status(f"rules_engine.{system}"), file=sys.stderr)
    cases = [snapshot for label, snapshot in benchmark_cases().items() if label.startswith(f"{system}:")][:CASES]
    for snapshot in cases:
        if games == 0:  # the start-up alone: import the engines and prepare the case, play nothing
            simulator_for(snapshot["system"]).prepare(snapshot)
        else:
            simulate(snapshot, games=games, seed=SEED, workers=1)


if __name__ == "__main__":
    main()
