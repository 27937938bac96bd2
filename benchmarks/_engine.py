"""Shared pieces of the engine benchmarks (bench_hagmi.py, bench_mwda.py, bench_warcaster.py): the bundled
package of a system, the games/s of one in-process run, and a cProfile of one."""
from __future__ import annotations

import cProfile
import io
import json
import os
import pstats
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

if "--pure" in sys.argv:  # before any engine package is imported: rules_engine/compiled.py reads it then
    os.environ["HANGAR_ENGINE"] = "python"

from rules_engine import compiled  # noqa: E402
from rules_engine.simulation import simulate  # noqa: E402


def add_engine_option(parser: Any) -> None:
    parser.add_argument("--pure", action="store_true",
                        help="the pure-Python engine even when a compiled build exists (rules_engine/compiled.py)")


def engine_line(package: str) -> str:
    """Which engine the benchmark measures: the mypyc-compiled build when it is up to date, else pure Python."""
    found = compiled.status(package)
    return f"engine: {found['engine']} ({found['reason']})"


def load_package(system: str) -> tuple[dict[str, Any], list[dict[str, Any]], dict[str, dict[str, Any]]]:
    """(cards by code, opponents, sample lists by file stem) of a system's bundled package."""
    folder = ROOT / "cards" / "packages" / system
    core = json.loads(next(folder.glob("*.json")).read_text(encoding="utf-8"))
    cards = {card["code"]: card for card in core["cards"]}
    lists = {path.stem: json.loads(path.read_text(encoding="utf-8")) for path in sorted((folder / "lists").glob("*.json"))}
    return cards, core["opponents"], lists


def games_per_second(snapshot: dict[str, Any], games: int, seed: int) -> tuple[float, float]:
    """(games per CPU second, games per wall-clock second) of one in-process run: CPU time is the fair figure on a
    busy machine."""
    wall, cpu = time.perf_counter(), time.process_time()
    simulate(snapshot, games=games, seed=seed, workers=1)
    return games / (time.process_time() - cpu), games / (time.perf_counter() - wall)


def profile(snapshot: dict[str, Any], games: int, seed: int, top: int = 15) -> str:
    """The cProfile of one run, top functions by own time."""
    profiler = cProfile.Profile()
    profiler.enable()
    simulate(snapshot, games=games, seed=seed, workers=1)
    profiler.disable()
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(top)
    return out.getvalue()
